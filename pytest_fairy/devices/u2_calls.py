"""uiautomator2 calls of more than one line, as the driver's `_run` takes them: `op(u2_device, adb)`.

Each runs inside `U2Device._run` (its deadline, error translation and reconnects), so none catches more
than the one exception it answers.
"""

from __future__ import annotations

import contextlib
import io
import time

import adbutils
import uiautomator2 as u2
from PIL import Image, UnidentifiedImageError

from pytest_fairy.devices.protocol import AppRef

METHOD_NOT_FOUND = "-32601"  # JSON-RPC's code, in the message of u2's RPCUnknownError


def dump(d: u2.Device, _: adbutils.AdbDevice) -> str:
    return str(d.dump_hierarchy())


def current_app(_: u2.Device, adb: adbutils.AdbDevice) -> AppRef:
    """The focused window's app and activity, as `dumpsys window windows` says."""
    info = adb.app_current()
    return AppRef(info.package, info.activity)


def text(raw: object) -> str:
    """A shell command's output, decoded leniently."""
    return bytes(raw).decode("utf-8", errors="replace")  # type: ignore[call-overload]


def screenshot(d: u2.Device, adb: adbutils.AdbDevice) -> Image.Image:
    try:
        image = d.screenshot()
    except u2.exceptions.RPCError:
        # Some devices refuse uiautomator screenshots (secure windows, old ROMs): screencap can.
        image = _png(adb.shell(["screencap", "-p"], encoding=None))
    return image.convert("RGB")


def last_toast(d: u2.Device, _: adbutils.AdbDevice) -> list[str]:
    """The toast uiautomator2's watcher saw since the last call, once."""
    message = d.jsonrpc.getLastToast()
    if message:
        d.jsonrpc.clearLastToast()
    return [str(message)] if message else []


def clear_focused(d: u2.Device, _: adbutils.AdbDevice) -> None:
    """Empty the view with input focus: uiautomator's clearTextField sets its text, so the whole of it goes
    wherever the tap left the cursor (keys would delete only what is before it). No view with focus (a
    custom view that takes text without it): nothing to clear."""
    with contextlib.suppress(u2.exceptions.UiObjectNotFoundError):
        d.jsonrpc.clearTextField(d(focused=True).selector)


def wait_idle(d: u2.Device, seconds: float) -> bool | None:
    """UiDevice.waitForIdle (no accessibility event for a moment), at most `seconds`: whether the UI
    became idle, None when the server has no such method (an older or a vendor's build). The method
    answers nothing either way: one that took its whole timeout ran out rather than saw the UI idle."""
    timeout_ms = max(1, round(seconds * 1000))
    started = time.monotonic()
    try:
        d.jsonrpc.waitForIdle(timeout_ms)
    except u2.exceptions.RPCError as exc:
        if METHOD_NOT_FOUND not in str(exc):
            raise
        return None
    return time.monotonic() - started < timeout_ms / 1000


def _png(data: bytes) -> Image.Image:
    try:
        image = Image.open(io.BytesIO(data))
        image.load()
        return image
    except (UnidentifiedImageError, OSError) as exc:
        raise u2.exceptions.AdbShellError(f"screencap -p gave no PNG ({len(data)} bytes)") from exc
