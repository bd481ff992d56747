"""A phone that locks itself mid-run: recognised at each look at the screen, unlocked where a swipe lock
allows, else the item ends inconclusive saying so (never "actions failed", never an app defect).

The keyguard is recognised on screen, where it costs nothing: `com.android.systemui` in front with a
keyguard or lock activity, or a full-screen system UI window (a SHADE layer) with keyguard views. Such a
window without keyguard views (the notification shade, or a vendor's lock screen) is settled by the
device's own word where it can give one (`dumpsys window`, pytest_fairy/devices/diagnostics.py).

    seen = unlocked(device, lambda: perceive(device))   # the screen, behind a swipe lock lifted; or
                                                         # ScreenLocked("the device locked its screen ...")
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

from pytest_fairy.devices.diagnostics import Shell, dismiss_keyguard, keyguard_showing
from pytest_fairy.devices.protocol import Device
from pytest_fairy.errors import FairyError
from pytest_fairy.explore.state import KEYGUARD_VIEW, KEYGUARD_WINDOW, SYSTEMUI_PACKAGE
from pytest_fairy.perception.layers import LayerKind
from pytest_fairy.perception.perceive import Perception
from pytest_fairy.perception.screen import Screen

LOCKED_REASON = (
    "the device locked its screen (a PIN, pattern or password lock): unlock it or turn the lock off"
)


class ScreenLocked(FairyError):
    """The lock screen is in front and does not go away: the item cannot go on."""


@runtime_checkable
class Keyguard(Protocol):
    """A device that lifts its own swipe lock without a shell (VirtualDevice, in process)."""

    def dismiss_keyguard(self) -> None: ...


def unlocked(device: Device, look: Callable[[], Perception]) -> Perception:
    """`look()` at the screen; behind a lock screen, dismiss it and look again. A lock that stays raises
    ScreenLocked."""
    seen = look()
    if not locked(device, seen.screen):
        return seen
    if isinstance(device, Shell):
        dismiss_keyguard(device)
    elif isinstance(device, Keyguard):
        device.dismiss_keyguard()
    seen = look()
    if locked(device, seen.screen):
        raise ScreenLocked(f"{LOCKED_REASON} (device {device.serial})")
    return seen


def locked(device: Device, screen: Screen) -> bool:
    """Whether `screen` is the lock screen; the device is asked only when system UI covers the screen."""
    top = screen.top_layer
    if screen.package == SYSTEMUI_PACKAGE and KEYGUARD_WINDOW.search(screen.activity):
        return True
    covered = top.package == SYSTEMUI_PACKAGE and top.kind is LayerKind.SHADE
    if not covered:
        return False
    if any(KEYGUARD_VIEW.search(node.resource_id) for node in top.nodes()):
        return True
    return isinstance(device, Shell) and keyguard_showing(device)
