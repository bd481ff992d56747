"""The clipboard route when the connection is cut in the middle of it: the typed text (a password) never
stays on the phone's clipboard, and the step's note says only what was read back.

The clipboard here stands in for uiautomator2's three JSON-RPC methods, so that a call can be lost the way
a dropped connection loses it; the route over the real stack is tests/devices/test_typing.py's.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from pytest_fairy.devices.typing import type_text
from pytest_fairy.errors import DeviceError

PASSWORD = "Dr1ve-2024"
USERS_CLIP = "what the user copied"


class Clipboard:
    """`getClipboard` / `setClipboard` / `pasteClipboard`. `lost_set`: the number of the setClipboard call
    that is lost with the connection (not done, ConnectionResetError); `keeps`: a text that, once set,
    stays whatever is set after it (a broken server)."""

    def __init__(self, held: str | None, *, lost_set: int = 0, keeps: str = "") -> None:
        self.held = held
        self.pasted: list[str] = []
        self.sets = 0
        self.lost_set = lost_set
        self.keeps = keeps

    def getClipboard(self) -> str | None:  # noqa: N802 - uiautomator2's method names
        return self.held

    def setClipboard(self, label: object, text: str) -> None:  # noqa: N802
        self.sets += 1
        if self.sets == self.lost_set:
            raise ConnectionResetError("setClipboard: connection reset")
        if not (self.keeps and self.held == self.keeps):
            self.held = text or None

    def pasteClipboard(self) -> None:  # noqa: N802
        self.pasted.append(self.held or "")


def typed(clipboard: Clipboard) -> str:
    device = SimpleNamespace(jsonrpc=clipboard)
    return type_text(device, None, PASSWORD, serial="phone-1", allow_ime_install=False)  # type: ignore[arg-type]


def test_the_users_clip_is_put_back_and_read_back() -> None:
    clipboard = Clipboard(USERS_CLIP)
    assert typed(clipboard) == "typed by clipboard paste, clipboard restored, read back"
    assert clipboard.held == USERS_CLIP and clipboard.pasted == [PASSWORD]


def test_a_restore_lost_with_the_connection_leaves_no_password_after_the_retry() -> None:
    # The paste went through; putting the clipboard back (the second set) was lost. The driver reconnects
    # and does the action again, which finds the password where the user's clip was.
    clipboard = Clipboard(USERS_CLIP, lost_set=2)
    with pytest.raises(ConnectionResetError):
        typed(clipboard)
    assert clipboard.held == PASSWORD
    note = typed(clipboard)
    assert not clipboard.held
    assert note == (
        "typed by clipboard paste, clipboard emptied: it held the typed text, left by an attempt that was cut off"
    )


def test_a_clipboard_that_keeps_the_text_is_a_device_error() -> None:
    with pytest.raises(DeviceError, match="the typed text stays on the clipboard"):
        typed(Clipboard(USERS_CLIP, keeps=PASSWORD))
