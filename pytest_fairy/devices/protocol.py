"""The device seam: the few things the explorer needs from an Android device, and what it can tell.

`Device` is what the loop drives (a dozen calls: read the screen, act, start and stop the app);
`Diagnostics` is what a device can tell besides its screen (its log, its facts, an app's version), read
by the crash and ANR oracles and the report. Every shipped device implements both.

Implementations: the uiautomator2 / adbutils driver for real devices, and the virtual device of the
`fairy_virtual` package beside this one (in-process, the default; found by its entry point,
`devices/simulator.py`). Backend errors are translated into :class:`DeviceError`
at this seam, so the explorer never sees an adbutils or uiautomator2 exception.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol, runtime_checkable

from PIL import Image

from pytest_fairy.errors import DeviceError, UsageError


class Key(StrEnum):
    BACK = "back"
    HOME = "home"
    ENTER = "enter"


@dataclass(frozen=True, slots=True)
class AppRef:
    """The app and activity in front, as `dumpsys window` reports the focused window."""

    package: str
    activity: str


@dataclass(frozen=True, slots=True)
class DeviceInfo:
    """What a report says about the device: `getprop` values on a phone."""

    serial: str
    model: str
    android_version: str
    sdk: str


class DeviceLost(DeviceError):
    """The device went away and did not come back: the current item cannot go on."""


@runtime_checkable
class Device(Protocol):
    """An Android device as the explorer sees it. Coordinates are screen pixels."""

    @property
    def serial(self) -> str: ...

    def dump_hierarchy(self) -> str:
        """The window hierarchy in uiautomator's XML dump format."""
        ...

    def screenshot(self) -> Image.Image: ...

    def tap(self, x: int, y: int) -> None: ...

    def long_tap(self, x: int, y: int, duration: float = 1.0) -> None: ...

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration: float = 0.3) -> None: ...

    def type_text(self, text: str) -> None:
        """Type into the focused field, after what it holds. Any Unicode; never passed through a shell
        command line."""
        ...

    def clear_text(self) -> None:
        """Empty the focused field, wherever its cursor is; nothing when no field has focus."""
        ...

    def press(self, key: Key) -> None: ...

    def launch(self, package: str, activity: str | None = None) -> None: ...

    def stop(self, package: str) -> None: ...

    def current_app(self) -> AppRef: ...

    def window_size(self) -> tuple[int, int]: ...


@runtime_checkable
class Diagnostics(Protocol):
    """What a device can tell besides its screen: its log, its facts, an app's version."""

    def info(self) -> DeviceInfo: ...

    def app_version(self, package: str) -> str:
        """The installed version name of `package` ("" when it cannot be told)."""
        ...

    def logcat(self) -> str:
        """Log lines since the last :meth:`clear_logcat`, in `logcat -d` threadtime format."""
        ...

    def clear_logcat(self) -> None: ...


@runtime_checkable
class Toasts(Protocol):
    """The toasts a device shows: never in a hierarchy dump, yet how many apps report a failure."""

    def toasts(self) -> list[str]:
        """The toasts shown since the last call or showing now, oldest first (a real phone reports each
        once, through uiautomator2's toast watcher; the virtual device those on screen)."""
        ...


@runtime_checkable
class Settling(Protocol):
    """A device whose UI takes a moment to show an action's result, and that can wait until it has
    (pytest_fairy/devices/settle.py): U2Device, and the virtual device with `device.latency.settle`."""

    def settle(self) -> object: ...


@runtime_checkable
class AppData(Protocol):
    """A device that can clear an app's data (`adb shell pm clear`), so an item starts from a fresh app."""

    def clear_app_data(self, package: str) -> None: ...


@runtime_checkable
class AppSnapshots(Protocol):
    """A device that can keep an app's data and put it back (the virtual device): a login reached once
    is the start of every item after it, however each item's reset goes."""

    def save_app_data(self, package: str) -> object: ...

    def restore_app_data(self, package: str, data: object) -> None: ...


@runtime_checkable
class TestBed(Protocol):
    """A device made for tests (the virtual device): the data of its apps belongs to the run, so each item
    starts from a fresh app unless the spec says otherwise. On a phone the data is the tester's (a login
    they want kept), so it is left alone unless the spec asks."""

    def is_test_bed(self) -> bool: ...


def clear_app_data(device: Device, package: str) -> None:
    """Clear `package`'s data on `device`; a device that cannot is a usage error (the spec asked)."""
    if not isinstance(device, AppData):
        raise UsageError(
            f"device {device.serial}: {type(device).__name__} cannot clear app data (no clear_app_data()): "
            "set `reset: none` in the spec to keep the app's data between items"
        )
    device.clear_app_data(package)


def settle_after_action(device: Device) -> None:
    """Wait until `device`'s UI settled after the action just taken, where the device can tell. A real
    device's actions already waited, so this costs nothing there; without :class:`Settling`, nothing."""
    if isinstance(device, Settling):
        device.settle()


def toasts_of(device: Device) -> list[str]:
    """The toasts of `device`, or none when it cannot tell (a device without :class:`Toasts`)."""
    return device.toasts() if isinstance(device, Toasts) else []


def diagnostics_of(device: Device) -> Diagnostics:
    """The diagnostics of `device`: the device itself for every shipped one. A device without them could
    not show a crash, so it is refused rather than explored half-blind."""
    if isinstance(device, Diagnostics):
        return device
    raise UsageError(
        f"device {device.serial}: {type(device).__name__} has no logcat(), clear_logcat(), info() and "
        "app_version() (pytest_fairy.devices.Diagnostics): without them a crash or ANR cannot be seen"
    )
