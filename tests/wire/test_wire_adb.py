"""The virtual device through the real adb binary and adbutils: connect, shell v1/v2, sync, screencap."""

from __future__ import annotations

import hashlib
import io
import os

import adbutils
import pytest
from PIL import Image
from wire_helpers import FOOD_APP, NOTES_APP, AdbServer, ServedDevice, ServeDevice

pytestmark = pytest.mark.wire

PACKAGE = "com.mcdonalds.gma.cn"


def test_adb_devices_lists_the_virtual_device_as_a_device(served: ServedDevice,
                                                          adb_server: AdbServer) -> None:
    listing = adb_server.run("devices", "-l").stdout
    line = next(row for row in listing.splitlines() if row.startswith(served.serial))
    assert line.split()[1] == "device"
    assert f"model:{served.device.properties['ro.product.model'].replace(' ', '_')}" in line


def test_adb_shell_echo(served: ServedDevice, adb_server: AdbServer) -> None:
    result = adb_server.run("shell", "echo", "hi", serial=served.serial)
    assert (result.returncode, result.stdout) == (0, "hi\n")


def test_unknown_command_over_shell_v2_exits_127_with_the_shell_error(served: ServedDevice,
                                                                      adb_server: AdbServer) -> None:
    result = adb_server.run("shell", "frobnicate", "--now", serial=served.serial)
    assert result.returncode == 127
    assert result.stderr == "/system/bin/sh: frobnicate: inaccessible or not found\n"
    assert result.stdout == ""


def test_exit_codes_over_shell_v1_and_v2(served: ServedDevice) -> None:
    device = served.adb_device()
    v1 = device.shell2("frobnicate")  # adbutils v1: appends `; echo X4EXIT:$?`
    assert (v1.returncode, v1.output) == (127, "/system/bin/sh: frobnicate: inaccessible or not found\n")
    v2 = device.shell2("frobnicate", v2=True)
    assert (v2.returncode, v2.stdout, v2.stderr) == (
        127, "", "/system/bin/sh: frobnicate: inaccessible or not found\n")
    assert device.shell2("false", v2=True).returncode == 1
    assert device.shell2("true && echo yes || echo no").output == "yes\n"


def test_push_makes_missing_parent_folders_as_adbd_does(served: ServedDevice) -> None:
    device = served.adb_device()
    device.sync.push(b"deep", "/data/local/tmp/a/b/c.txt")
    assert device.sync.read_bytes("/data/local/tmp/a/b/c.txt") == b"deep"
    assert device.shell2(["ls", "-d", "/data/local/tmp/a/b"]).returncode == 0
    # A file where a folder should be is still an error.
    with pytest.raises(adbutils.AdbError):  # adbutils says only FAIL
        device.sync.push(b"x", "/data/local/tmp/a/b/c.txt/d.txt")


def test_push_pull_round_trip_and_md5sum(served: ServedDevice, tmp_path: os.PathLike[str]) -> None:
    device = served.adb_device()
    payload = os.urandom(200_000)  # several DATA chunks and several WRTE packets
    device.sync.push(payload, "/data/local/tmp/blob.bin")
    assert device.sync.read_bytes("/data/local/tmp/blob.bin") == payload
    target = os.path.join(tmp_path, "blob.bin")
    device.sync.pull("/data/local/tmp/blob.bin", target)
    with open(target, "rb") as pulled:
        assert pulled.read() == payload
    assert "blob.bin" in device.sync.list("/data/local/tmp").__repr__()
    digest = hashlib.md5(payload).hexdigest()
    blob = "/data/local/tmp/blob.bin"
    assert device.shell(["toybox", "md5sum", blob]) == f"{digest}  {blob}"
    missing = device.shell2(["md5sum", "/data/local/tmp/none"])
    assert missing.returncode == 1
    assert missing.output == "md5sum: /data/local/tmp/none: No such file or directory\n"


def test_pull_of_a_missing_file_fails(served: ServedDevice) -> None:
    with pytest.raises(adbutils.AdbError, match="No such file"):
        served.adb_device().sync.read_bytes("/sdcard/nothing.txt")


def test_adb_push_and_pull_with_the_adb_binary(served: ServedDevice, adb_server: AdbServer,
                                               tmp_path: os.PathLike[str]) -> None:
    source = os.path.join(tmp_path, "notes.txt")
    with open(source, "w", encoding="utf-8") as handle:
        handle.write("随手记\n" * 1000)
    pushed = adb_server.run("push", source, "/sdcard/notes.txt", serial=served.serial)
    assert pushed.returncode == 0, pushed.stderr
    back = os.path.join(tmp_path, "back.txt")
    pulled = adb_server.run("pull", "/sdcard/notes.txt", back, serial=served.serial)
    assert pulled.returncode == 0, pulled.stderr
    with open(back, encoding="utf-8") as handle:
        assert handle.read() == "随手记\n" * 1000


def test_screencap_gives_a_png_of_the_screen_size(served: ServedDevice) -> None:
    device = served.adb_device()
    png = device.shell(["screencap", "-p"], encoding=None)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert Image.open(io.BytesIO(png)).size == served.device.window_size()
    assert device.screenshot().size == served.device.window_size()


def test_adbutils_reads_the_app_the_window_size_and_properties(served: ServedDevice) -> None:
    device = served.adb_device()
    current = device.app_current()
    assert (current.package, current.activity) == (PACKAGE, f"{PACKAGE}.activity.HomeActivity")
    assert tuple(device.window_size()) == served.device.window_size()
    assert device.getprop("ro.product.model") == served.device.properties["ro.product.model"]
    assert device.prop.model == served.device.properties["ro.product.model"]


def test_input_commands_drive_the_app(served: ServedDevice) -> None:
    device = served.adb_device()
    device.shell(["input", "tap", "796", "916"])  # 到店取餐
    assert device.app_current().activity != f"{PACKAGE}.activity.HomeActivity"
    device.shell(["input", "keyevent", "KEYCODE_BACK"])
    assert device.app_current().activity == f"{PACKAGE}.activity.HomeActivity"


def test_input_text_refuses_what_a_phone_keyboard_cannot_type(served: ServedDevice) -> None:
    result = served.adb_device().shell2(["input", "text", "你好"])
    assert result.returncode == 1
    assert "IllegalArgumentException" in result.output


def test_am_start_stop_and_logcat(served: ServedDevice) -> None:
    device = served.adb_device()
    device.app_stop(PACKAGE)
    assert device.app_current().package == "com.android.launcher3"
    device.app_start(PACKAGE, ".activity.HomeActivity")
    assert device.app_current().package == PACKAGE
    assert "Force stopping" in device.shell(["logcat", "-d"])
    device.shell(["logcat", "-c"])
    assert "Force stopping" not in device.shell(["logcat", "-d"])
    wrong = device.shell2(["am", "start", "-n", "com.nowhere/.Main"])
    assert wrong.returncode == 1 and "Error" in wrong.output


def test_adbutils_dump_hierarchy_through_uiautomator_dump(served: ServedDevice) -> None:
    # adbutils sends `rm -f F; uiautomator dump F && echo success`, then pulls F over sync.
    xml = served.adb_device().dump_hierarchy()
    assert xml.startswith("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>")
    assert "到店取餐" in xml


def test_uiautomator_port_is_refused_until_its_server_runs(served: ServedDevice) -> None:
    with pytest.raises(adbutils.AdbError):
        served.adb_device().create_connection(adbutils.Network.TCP, 9008)


def test_two_servers_at_once_serve_their_own_devices(serve_device: ServeDevice) -> None:
    food, notes = serve_device(FOOD_APP, serial="food"), serve_device(NOTES_APP, serial="notes")
    assert food.server.port != notes.server.port
    food.device.launch(food.device.app_model.app.package)
    notes.device.launch(notes.device.app_model.app.package)
    assert food.adb_device().app_current().package == PACKAGE
    assert notes.adb_device().app_current().package == "com.example.notes"
    assert food.adb_device().getprop("ro.serialno") == "food"
    assert notes.adb_device().getprop("ro.serialno") == "notes"
    notes.adb_device().sync.push(b"only here", "/sdcard/mine.txt")
    assert food.adb_device().shell2(["ls", "/sdcard/mine.txt"]).returncode == 1
