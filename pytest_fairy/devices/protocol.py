"""The device seam: the few things the explorer needs from an Android device.

Implementations: :class:`pytest_fairy.virtual.VirtualDevice` (in-process, the embedded default) and the
uiautomator2 / adbutils driver for real devices. Backend errors are translated into :class:`DeviceError`
at this seam, so the explorer never sees an adbutils or uiautomator2 exception.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol, runtime_checkable

from PIL import Image

from pytest_fairy.errors import DeviceError


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
        """Type into the focused field. Any Unicode; never passed through a shell command line."""
        ...

    def press(self, key: Key) -> None: ...

    def launch(self, package: str, activity: str | None = None) -> None: ...

    def stop(self, package: str) -> None: ...

    def current_app(self) -> AppRef: ...

    def window_size(self) -> tuple[int, int]: ...

    def info(self) -> DeviceInfo: ...

    def app_version(self, package: str) -> str:
        """The installed version name of `package` ("" when it cannot be told)."""
        ...

    def logcat(self) -> str:
        """Log lines since the last :meth:`clear_logcat`, in `logcat -d` threadtime format."""
        ...

    def clear_logcat(self) -> None: ...
