"""Session-start diagnostics: each problem a clear message that says what to do."""

from __future__ import annotations

import re

import pytest
from device_helpers import Farm
from wire.wire_helpers import ServedDevice

from pytest_fairy.devices.diagnostics import DeviceUnusable, diagnose, screen_state
from pytest_fairy.devices.driver import AdbServerAddress, U2Device

# Real `dumpsys power` / `dumpsys window` lines of Android 9-14 phones.
AWAKE_POWER = "Power Manager State:\n  mWakefulness=Awake\n  Display Power: state=ON\n"
ASLEEP_POWER = "Power Manager State:\n  mWakefulness=Asleep\n  Display Power: state=OFF\n"
DOZING_POWER = "  mWakefulness=Dozing\n"
OLD_POWER_OFF = "  mScreenOn=false\n"
LOCKED_WINDOW = "  mCurrentFocus=Window{9c1 u0 NotificationShade}\n  mDreamingLockscreen=true\n"
KEYGUARD_WINDOW = "    isStatusBarKeyguard=true mShowingLockscreen=true\n"
OPEN_WINDOW = "  mCurrentFocus=Window{1 u0 com.example/.Main}\n  mDreamingLockscreen=false\n"


@pytest.mark.parametrize(
    ("power", "window", "awake", "locked"),
    [
        (AWAKE_POWER, OPEN_WINDOW, True, False),
        (ASLEEP_POWER, LOCKED_WINDOW, False, True),
        (DOZING_POWER, OPEN_WINDOW, False, False),
        (OLD_POWER_OFF, KEYGUARD_WINDOW, False, True),
        ("", "", True, False),  # nothing known: do not cry wolf
    ],
)
def test_screen_state_reads_every_android_wording(power: str, window: str, awake: bool, locked: bool) -> None:
    assert screen_state(power, window) == screen_state(power, window).__class__(awake, locked)


@pytest.mark.wire
def test_no_adb_server_says_how_to_start_one() -> None:
    with pytest.raises(
        DeviceUnusable, match=r"no adb server answers at 127\.0\.0\.1:1: start one .*adb -P 1"
    ):
        diagnose("emulator-5554", AdbServerAddress("127.0.0.1", 1))


@pytest.mark.wire
def test_a_wrong_serial_lists_the_devices_there(farm: Farm, food: ServedDevice) -> None:
    with pytest.raises(DeviceUnusable) as caught:
        diagnose("emulator-5554", farm.address)
    message = str(caught.value)
    assert f"device emulator-5554 is not on the adb server at {farm.address}" in message
    assert f"devices there: {food.serial} (device)" in message
    assert "check the cable and `adb devices`" in message


@pytest.mark.wire
def test_a_network_serial_is_connected_and_its_u2_server_started(farm: Farm, food: ServedDevice) -> None:
    farm.adb.run("disconnect", food.serial)
    food.server.system.unlisten(9008)
    device = diagnose(food.serial, farm.address)
    assert isinstance(device, U2Device)
    assert food.server.system.listener_ports() == [9008]
    assert device.current_app().package == "com.android.launcher3"


@pytest.mark.wire
def test_an_unreachable_network_serial_says_adb_connect(farm: Farm, food: ServedDevice) -> None:
    with pytest.raises(
        DeviceUnusable, match=r"127\.0\.0\.1:1 is not on .*; run `adb connect 127\.0\.0\.1:1`"
    ):
        diagnose("127.0.0.1:1", farm.address)


@pytest.mark.wire
def test_an_offline_device_says_reconnect(farm: Farm, food: ServedDevice) -> None:
    farm.drop(food)
    serial = farm.serials[0]
    with pytest.raises(
        DeviceUnusable, match=rf"device {re.escape(serial)} is offline: .*adb connect {serial}"
    ):
        diagnose(serial, farm.address)


@pytest.mark.wire
def test_passive_checks_leave_a_busy_device_alone(farm: Farm, food: ServedDevice) -> None:
    food.server.system.unlisten(9008)
    assert diagnose(food.serial, farm.address, active=False) is None
    assert food.server.system.listener_ports() == []  # no u2 server started on someone else's device
