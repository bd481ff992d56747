"""Checks at session start that a real device can be driven, each failure worded as what to do about it.

    device = diagnose("emulator-5554", AdbServerAddress.from_env())   # a connected U2Device, or
                                                                      # DeviceUnusable("... do this ...")

In order: the adb server answers; the serial is listed (a `HOST:PORT` serial is `adb connect`ed first);
it is in the `device` state (not offline / unauthorized); the screen is on and unlocked (woken and a
swipe-only keyguard dismissed where possible); the uiautomator2 server starts.

`keyguard_showing` and `dismiss_keyguard` serve the same checks mid-run (pytest_fairy/explore/keyguard.py),
on any device with an adb `shell`.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import adbutils

from pytest_fairy.devices.driver import AdbServerAddress, U2Device, is_network_serial
from pytest_fairy.errors import DeviceError, UsageError

CONNECT_SECONDS = 5.0
# After a wake-up key or a keyguard dismissal the screen takes a moment to change state.
SETTLE_SECONDS = 1.0
KEYCODE_WAKEUP = "224"
_AWAKE = re.compile(r"mWakefulness=Awake|Display Power: state=ON|mScreenOn=true|mInteractive=true")
_ASLEEP = re.compile(r"mWakefulness=(Asleep|Dozing)|Display Power: state=(OFF|DOZE)|mScreenOn=false")
_LOCKED = re.compile(
    r"mDreamingLockscreen=true|mShowingLockscreen=true|isStatusBarKeyguard=true|"
    r"mKeyguardShowing=true|KeyguardShowing=true"
)
_STATE_ADVICE = {
    "offline": "is offline: replug the cable or run `adb reconnect offline` (for a network device, "
    "`adb disconnect SERIAL` then `adb connect SERIAL`)",
    "unauthorized": "is unauthorized: unlock it and accept the 'Allow USB debugging?' prompt on its "
    "screen (if none shows, revoke USB debugging authorizations in Developer options and replug)",
    "authorizing": "is still authorizing: accept the 'Allow USB debugging?' prompt on its screen",
    "no": "has no permissions on this host: fix the udev rules for the phone (see `adb devices`)",
}


@runtime_checkable
class Shell(Protocol):
    """A device that runs adb shell commands (U2Device)."""

    def shell(self, args: list[str], *, doing: str) -> str: ...


class DeviceUnusable(UsageError):
    """The device cannot be used for this run; the message says why and what to do."""


@dataclass(frozen=True)
class ScreenState:
    awake: bool
    locked: bool


def screen_state(power: str, window: str) -> ScreenState:
    """Read `dumpsys power` and `dumpsys window` output (their wording varies between Android versions)."""
    awake = bool(_AWAKE.search(power)) or not _ASLEEP.search(power)
    return ScreenState(awake=awake, locked=bool(_LOCKED.search(window)))


def diagnose(
    serial: str, adb: AdbServerAddress, *, active: bool = True, wake: bool = True
) -> U2Device | None:
    """Check `serial` on the adb server at `adb` and return it connected; DeviceUnusable when it is not.

    `active=False` (another run holds the device) stops after the adb checks and returns None.
    """
    if not adb.reachable():
        raise DeviceUnusable(
            f"no adb server answers at {adb}: start one (`adb start-server`, or `adb -P {adb.port} "
            "start-server` for another port), or point --fairy-adb / ANDROID_ADB_SERVER_PORT at a running one"
        )
    client = adb.client()
    listed = _listed(client, adb)
    if serial not in listed and is_network_serial(serial):
        try:
            # adb answers "connected to ..." / "already connected ..." or why not, without an error.
            if "connected to" in client.connect(serial, timeout=CONNECT_SECONDS):
                client.wait_for(serial, state="device", timeout=CONNECT_SECONDS)
        except adbutils.AdbError:
            pass  # reported below as "not found", with what adb does list
        listed = _listed(client, adb)
    if serial not in listed:
        there = ", ".join(f"{s} ({state})" for s, state in sorted(listed.items())) or "none"
        hint = (
            f"run `adb connect {serial}`"
            if is_network_serial(serial)
            else "check the cable and `adb devices`"
        )
        raise DeviceUnusable(
            f"device {serial} is not on the adb server at {adb} (devices there: {there}); {hint}"
        )
    _require_ready(serial, listed[serial])
    if not active:
        return None
    try:
        device = U2Device.connect(serial, adb)
    except DeviceError as exc:
        # adb may list a device as ready a moment after it went away: ask again before blaming u2.
        _require_ready(serial, _listed(client, adb).get(serial, "offline"))
        raise DeviceUnusable(
            f"device {serial}: the uiautomator2 server does not start ({exc.reason}). Check that the "
            "device allows USB debugging with input (on MIUI: 'USB debugging (Security settings)'), then "
            f"try `python -m uiautomator2 init --serial {serial}` to see its own error"
        ) from exc
    _ensure_screen_usable(device, wake=wake)
    return device


def _require_ready(serial: str, state: str) -> None:
    if state != "device":
        advice = _STATE_ADVICE.get(state, f"is in {state} mode: boot it normally")
        raise DeviceUnusable(f"device {serial} {advice.replace('SERIAL', serial)}")


def _listed(client: adbutils.AdbClient, adb: AdbServerAddress) -> dict[str, str]:
    try:
        return {info.serial: info.state for info in client.list()}
    except (adbutils.AdbError, OSError) as exc:
        raise DeviceUnusable(f"the adb server at {adb} does not answer `adb devices`: {exc}") from exc


def _ensure_screen_usable(device: U2Device, *, wake: bool) -> None:
    state = _screen(device)
    if not state.awake and wake:
        device.shell(["input", "keyevent", KEYCODE_WAKEUP], doing="wake the screen")
        state = _settled(device)
    if state.locked and wake:
        # Dismisses a swipe-only keyguard; a PIN, pattern or password stays, and is reported below.
        device.shell(["wm", "dismiss-keyguard"], doing="dismiss the keyguard")
        state = _settled(device)
    if not state.awake:
        raise DeviceUnusable(
            f"device {device.serial}: the screen is off and did not wake; press its power button, or "
            "turn on 'Stay awake' in Developer options"
        )
    if state.locked:
        raise DeviceUnusable(
            f"device {device.serial}: the screen is locked with a PIN, pattern or password; unlock it by "
            "hand, or set Screen lock to None on test devices"
        )


def keyguard_showing(device: Shell) -> bool:
    """Whether `dumpsys window` says the lock screen shows."""
    return bool(_LOCKED.search(device.shell(["dumpsys", "window"], doing="read the keyguard state")))


def dismiss_keyguard(device: Shell) -> bool:
    """Dismiss a swipe-only keyguard; whether the screen is unlocked after (a PIN, pattern or password
    lock stays)."""
    device.shell(["wm", "dismiss-keyguard"], doing="dismiss the keyguard")
    time.sleep(SETTLE_SECONDS)
    return not keyguard_showing(device)


def _settled(device: Shell) -> ScreenState:
    time.sleep(SETTLE_SECONDS)
    return _screen(device)


def _screen(device: Shell) -> ScreenState:
    power = device.shell(["dumpsys", "power"], doing="read the screen power state")
    window = device.shell(["dumpsys", "window"], doing="read the keyguard state")
    return screen_state(power, window)
