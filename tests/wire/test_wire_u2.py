"""The virtual device driven by uiautomator2 3.7 through the private adb server, unmodified."""

from __future__ import annotations

import pytest
import uiautomator2 as u2
from PIL import Image
from wire_helpers import AdbServer, ServedDevice

from pytest_fairy.perception.hierarchy import parse_hierarchy

pytestmark = pytest.mark.wire

PACKAGE = "com.mcdonalds.gma.cn"
HOME = f"{PACKAGE}.activity.HomeActivity"
TRICKY = "; reboot $(id) `x` 'q\" & |"


def _skeleton(xml: str) -> list[tuple[str, str, str, str]]:
    """The dump without its dynamic text: what must match between the wire and in-process dumps."""
    return [(n.class_name, n.resource_id, n.package, str(n.bounds))
            for window in parse_hierarchy(xml) for n in window.iter()]


def _go_to_pickup(d: u2.Device) -> None:
    d(text="到店取餐").click()
    assert d(resourceId=f"{PACKAGE}:id/et_store_search").wait(timeout=5)


def test_dump_hierarchy_has_the_in_process_format(u2_device: u2.Device, served: ServedDevice) -> None:
    over_wire = u2_device.dump_hierarchy()
    in_process = served.device.dump_hierarchy()
    assert over_wire.splitlines()[0] == in_process.splitlines()[0]
    assert _skeleton(over_wire) == _skeleton(in_process)


def test_screenshot_is_an_image_of_the_screen_size(u2_device: u2.Device, served: ServedDevice) -> None:
    image = u2_device.screenshot()
    assert isinstance(image, Image.Image)
    assert image.size == served.device.window_size()


def test_click_moves_to_the_next_screen_and_back_returns(u2_device: u2.Device) -> None:
    assert u2_device.app_current()["activity"] == HOME
    u2_device.click(796, 916)  # 到店取餐
    assert u2_device.app_current()["activity"] != HOME
    u2_device.press("back")
    assert u2_device.app_current() == {"package": PACKAGE, "activity": HOME, "pid": 0}


def test_selector_click_and_exists(u2_device: u2.Device) -> None:
    assert u2_device(text="到店取餐").exists
    assert not u2_device(text="没有这个按钮").exists
    _go_to_pickup(u2_device)
    assert u2_device(text="麦当劳 1 号店").exists
    assert not u2_device(resourceId=f"{PACKAGE}:id/btn_pickup").exists


@pytest.mark.parametrize("text", ["麦辣鸡腿堡 中文输入", TRICKY], ids=["chinese", "shell-metacharacters"])
def test_send_keys_arrives_literally_in_the_focused_field(u2_device: u2.Device, text: str) -> None:
    _go_to_pickup(u2_device)
    field = u2_device(resourceId=f"{PACKAGE}:id/et_store_search")
    field.click()
    assert u2_device(focused=True).info["resourceName"] == f"{PACKAGE}:id/et_store_search"
    u2_device.send_keys(text)
    assert field.get_text() == text


def test_set_text_replaces_the_field_content(u2_device: u2.Device) -> None:
    _go_to_pickup(u2_device)
    field = u2_device(resourceId=f"{PACKAGE}:id/et_store_search")
    field.set_text("徐汇")
    field.set_text(TRICKY)
    assert field.get_text() == TRICKY


def test_window_size_app_start_and_app_stop(u2_device: u2.Device, served: ServedDevice) -> None:
    assert u2_device.window_size() == served.device.window_size()
    u2_device.app_stop(PACKAGE)
    assert u2_device.app_current()["package"] == "com.android.launcher3"
    u2_device.app_start(PACKAGE)
    assert u2_device.app_current()["activity"] == HOME
    u2_device.app_start(PACKAGE, ".activity.HomeActivity", stop=True)
    assert u2_device.app_current()["activity"] == HOME
    assert PACKAGE in u2_device.app_list()


def test_device_info_and_unknown_rpc(u2_device: u2.Device, served: ServedDevice) -> None:
    info = u2_device.info
    assert (info["displayWidth"], info["displayHeight"]) == served.device.window_size()
    assert info["currentPackageName"] == PACKAGE
    with pytest.raises(u2.exceptions.RPCUnknownError, match="Method not found"):
        u2_device.jsonrpc.openNotification()


def test_object_not_found_is_uiautomators_exception(u2_device: u2.Device) -> None:
    with pytest.raises(u2.exceptions.UiObjectNotFoundError):
        u2_device.jsonrpc.objInfo(u2_device(text="没有这个按钮").selector)


def test_uiautomator_server_lives_as_long_as_its_shell_stream(u2_device: u2.Device,
                                                              served: ServedDevice) -> None:
    assert served.server.system.listener_ports() == [9008]
    u2_device.stop_uiautomator()
    assert served.server.system.listener_ports() == []
    assert u2_device.dump_hierarchy()  # u2 restarts its server on demand, as on a phone
    assert served.server.system.listener_ports() == [9008]


def test_connect_by_serial_through_the_env_selected_adb_server(served: ServedDevice,
                                                               u2_adb: AdbServer) -> None:
    d = u2.connect(served.serial)
    assert d.serial == served.serial
    assert d.shell("getprop ro.serialno").output.strip() == served.device.serial
