"""U2Device through the real adb server, adbutils and uiautomator2, against virtual devices over adbd."""

from __future__ import annotations

import threading

import pytest
from device_helpers import FOOD_PACKAGE, QUICK_RECONNECT, Farm, find, tap_on
from hypothesis import given
from hypothesis import strategies as st
from wire.wire_helpers import NOTES_APP, ServedDevice

from fairy_virtual import VirtualDevice
from fairy_virtual.wire import WireServer
from pytest_fairy.devices.driver import AdbServerAddress, Reconnect, U2Device, is_network_serial
from pytest_fairy.devices.protocol import AppRef, Device, DeviceLost, Key
from pytest_fairy.errors import DeviceError
from pytest_fairy.perception.hierarchy import parse_hierarchy

HOME = f"{FOOD_PACKAGE}.activity.HomeActivity"
SEARCH_ID = f"{FOOD_PACKAGE}:id/et_store_search"
HOSTILE = [
    "; reboot",
    "$(id)",
    "`id`",
    'it\'s "quoted"',
    "a && rm -rf /",
    "first line\nsecond line",
    "100%s done",
    "麦辣鸡腿堡",
    "🍔🍟 emoji",
    "long " * 120,
]


# ---- pure parts -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("127.0.0.1:5037", ("127.0.0.1", 5037)),
        ("farm-host:15037", ("farm-host", 15037)),
        ("6000", ("127.0.0.1", 6000)),
        ("farm", ("farm", 5037)),
    ],
)
def test_adb_server_address_parses(text: str, expected: tuple[str, int]) -> None:
    address = AdbServerAddress.parse(text)
    assert (address.host, address.port) == expected


@pytest.mark.parametrize("bad", ["host:port", "host:0", "host:70000", "a:b:"])
def test_adb_server_address_rejects(bad: str) -> None:
    with pytest.raises(ValueError, match="HOST:PORT"):
        AdbServerAddress.parse(bad)


def test_adb_server_address_from_env_follows_adb() -> None:
    assert AdbServerAddress.from_env({}) == AdbServerAddress("127.0.0.1", 5037)
    env = {"ANDROID_ADB_SERVER_PORT": "6001", "ANDROID_ADB_SERVER_HOST": "farm"}
    assert AdbServerAddress.from_env(env) == AdbServerAddress("farm", 6001)


@given(st.integers(1, 8), st.floats(0.01, 2), st.floats(1, 4), st.floats(0.01, 10))
def test_reconnect_delays_are_bounded_and_grow(
    attempts: int, first: float, backoff: float, cap: float
) -> None:
    delays = list(Reconnect(attempts, first, backoff, cap).delays())
    assert len(delays) == attempts
    assert delays[0] == first
    assert all(b >= min(a, cap) for a, b in zip(delays, delays[1:], strict=False))
    assert all(d <= max(first, cap) for d in delays)


def test_network_serials() -> None:
    assert is_network_serial("127.0.0.1:5555")
    assert is_network_serial("phone.lan:40001")
    assert not is_network_serial("emulator-5554")
    assert not is_network_serial("R58M123ABC")


def test_construction_does_no_io() -> None:
    device = U2Device("emulator-5554", AdbServerAddress("127.0.0.1", 1))
    assert device.serial == "emulator-5554"
    with pytest.raises(DeviceError, match="not connected"):
        _ = device.uiautomator


# ---- over the wire ----------------------------------------------------------------------------------


@pytest.mark.wire
def test_reads_match_the_device_itself(driver: U2Device, food: ServedDevice) -> None:
    assert isinstance(driver, Device)
    assert driver.current_app() == AppRef(FOOD_PACKAGE, HOME) == food.device.current_app()
    assert driver.window_size() == food.device.window_size()
    xml = driver.dump_hierarchy()
    assert [n.resource_id for w in parse_hierarchy(xml) for n in w.iter()] == [
        n.resource_id for w in parse_hierarchy(food.device.dump_hierarchy()) for n in w.iter()
    ]
    assert driver.screenshot().size == food.device.window_size()
    info = driver.info()
    assert (info.serial, info.model, info.sdk) == (food.serial, "Pixel 7", "34")
    assert driver.app_version(FOOD_PACKAGE) == "1.0"  # what the wire front's dumpsys package says
    assert driver.app_version("com.not.there") == ""


@pytest.mark.wire
def test_actions_reach_the_device(driver: U2Device, food: ServedDevice) -> None:
    tap_on(driver, text="到店取餐")
    assert driver.current_app().activity != HOME
    driver.press(Key.BACK)
    assert driver.current_app().activity == HOME
    driver.swipe(540, 1800, 540, 600, 0.2)
    driver.long_tap(540, 1200, 0.5)
    actions = [entry.action for entry in food.device.action_log]
    assert {"tap", "press", "swipe", "long_tap"} <= set(actions)


@pytest.mark.wire
def test_launch_stop_and_launch_with_activity(driver: U2Device) -> None:
    driver.stop(FOOD_PACKAGE)
    assert driver.current_app().package == "com.android.launcher3"
    driver.launch(FOOD_PACKAGE, HOME)
    assert driver.current_app() == AppRef(FOOD_PACKAGE, HOME)
    with pytest.raises(DeviceError, match="does not exist"):
        driver.launch(FOOD_PACKAGE, f"{FOOD_PACKAGE}.NoSuchActivity")


@pytest.mark.wire
def test_launching_an_app_that_is_not_installed_names_the_package(driver: U2Device) -> None:
    with pytest.raises(
        DeviceError, match=r"package com\.example\.absent is not installed on 127\.0\.0\.1:\d+"
    ):
        driver.launch("com.example.absent")


@pytest.mark.wire
def test_logcat_since_the_last_clear(driver: U2Device) -> None:
    driver.stop(FOOD_PACKAGE)
    driver.launch(FOOD_PACKAGE)
    assert "Start proc" in driver.logcat()
    driver.clear_logcat()
    assert "Start proc" not in driver.logcat()


@pytest.mark.wire
@pytest.mark.parametrize("text", HOSTILE, ids=[f"hostile{i}" for i in range(len(HOSTILE))])
def test_typed_text_arrives_literally(driver: U2Device, food: ServedDevice, text: str) -> None:
    tap_on(driver, text="到店取餐")
    tap_on(driver, resource_id=SEARCH_ID)
    driver.type_text(text)
    assert find(food.device.dump_hierarchy(), resource_id=SEARCH_ID).text == text
    # Nothing of the text ran: the app is still in front and the device did not "reboot".
    assert food.device.current_app().package == FOOD_PACKAGE


@pytest.mark.wire
def test_a_dead_uiautomator_server_is_restarted(driver: U2Device, food: ServedDevice) -> None:
    assert food.server.system.listener_ports() == [9008]
    food.server.system.unlisten(9008)  # the server process died: its port is closed
    assert find(driver.dump_hierarchy(), text="到店取餐")
    assert food.server.system.listener_ports() == [9008]
    assert not driver.lost


@pytest.mark.wire
def test_a_dropped_connection_reconnects(farm: Farm, food: ServedDevice) -> None:
    device = farm.driver(food, reconnect=QUICK_RECONNECT)
    device.launch(FOOD_PACKAGE)
    port = farm.drop(food)
    back = threading.Timer(0.5, farm.restart, args=(food, port))
    back.start()
    try:
        assert find(device.dump_hierarchy(), text="到店取餐")
    finally:
        back.join()
    assert device.reconnects >= 1
    assert device.current_app() == AppRef(FOOD_PACKAGE, HOME)


def _comes_back_as(farm: Farm, food: ServedDevice, port: int, other: VirtualDevice) -> None:
    """Another phone answers on the dropped device's port (a farm slot given to someone else)."""
    food.server = WireServer(other, port=port)
    food.server.start()


@pytest.mark.wire
def test_another_phone_on_the_same_address_is_a_lost_device_before_anything_is_retried_on_it(
    farm: Farm, food: ServedDevice
) -> None:
    device = farm.driver(food, reconnect=QUICK_RECONNECT)
    device.launch(FOOD_PACKAGE)
    other = VirtualDevice(NOTES_APP, latency=False, serial="other-phone")  # its launcher: 随手记 at (175, 430)
    port = farm.drop(food)
    back = threading.Timer(0.5, _comes_back_as, args=(farm, food, port, other))
    back.start()
    try:
        with pytest.raises(DeviceLost, match=r"another device answers there now: ro.serialno 'other-phone'"):
            device.tap(175, 430)
    finally:
        back.join()
    assert device.lost
    assert other.current_app().package == "com.android.launcher3", "the failed tap was replayed on it"


@pytest.mark.wire
def test_the_same_phone_back_on_its_address_goes_on(farm: Farm, food: ServedDevice) -> None:
    device = farm.driver(food, reconnect=QUICK_RECONNECT)
    port = farm.drop(food)
    back = threading.Timer(0.5, farm.restart, args=(food, port))
    back.start()
    try:
        device.tap(540, 1200)
    finally:
        back.join()
    assert device.reconnects >= 1 and not device.lost


@pytest.mark.wire
def test_a_device_that_stays_away_is_lost(farm: Farm, food: ServedDevice) -> None:
    device = farm.driver(food, reconnect=QUICK_RECONNECT)
    farm.drop(food)
    with pytest.raises(DeviceLost, match=r"dump the hierarchy: lost and not back after 3 reconnect attempts"):
        device.dump_hierarchy()
    assert device.lost
    with pytest.raises(DeviceLost, match="lost earlier"):  # no second round of waiting
        device.tap(1, 1)


@pytest.mark.wire
def test_no_adb_server_is_a_device_error(farm: Farm) -> None:
    with pytest.raises(DeviceError, match=r"connect: no adb server answers at 127\.0\.0\.1:1$"):
        U2Device.connect("emulator-5554", AdbServerAddress("127.0.0.1", 1))
