"""Typing on a real device so that the phone is left as it was.

uiautomator2's own `send_keys` sets the clipboard and pastes it; when that fails (or whenever its
AdbKeyboard is installed) it installs `app-uiautomator.apk`, enables and selects that input method, and
leaves it selected. Here the routes are tried one by one, each leaving nothing behind:

1. **clipboard paste**: read the clipboard, set it to the text, check it reads back, paste it
   (`getClipboard` / `setClipboard` / `pasteClipboard` over uiautomator2's JSON-RPC), then put back what
   it held (an empty clipboard is left empty). Any Unicode; the text never touches a shell command line.
2. **adb input text**: only for printable ASCII without `%` (`input text` maps characters through the
   key map and reads `%s` as a space); the text is one quoted word of the command.
3. **uiautomator2 IME**: only when the user opted in (`fairy_allow_ime_install`): uiautomator2's input
   method route, which may install its APK and switches the keyboard; the keyboard that was selected is
   selected again afterwards (the APK stays installed).

When none of them may type the text, the action fails with a `DeviceError` that says how to allow it.
"""

from __future__ import annotations

import re
import warnings
from enum import StrEnum

import adbutils
import uiautomator2 as u2
from uiautomator2._input import InputMethodMixIn  # its contract: tests/devices/test_u2_contract.py

from pytest_fairy.errors import DeviceError, FairyError

# uiautomator2's input method (in app-uiautomator.apk, which its IME route installs).
U2_IME = "com.github.uiautomator/.AdbKeyboard"
ALLOW_IME_KEY = "fairy_allow_ime_install"
SHELL_TIMEOUT_SECONDS = 30.0
# What `input text` can type: its key map has printable ASCII only, and it reads `%s` as a space.
_INPUT_TEXT_SAFE = re.compile(r"[ -$&-~]+")


class Method(StrEnum):
    """Which route typed the text: the step record names it."""

    CLIPBOARD = "clipboard paste"
    INPUT_TEXT = "adb input text"
    U2_IME = "uiautomator2 IME"
    NOTHING = "nothing to type"


class _Refused(FairyError):
    """A route could not type the text and left the phone as it was: the next route may try."""


def type_text(
    d: u2.Device, adb: adbutils.AdbDevice, text: str, *, serial: str, allow_ime_install: bool
) -> str:
    """Type `text` into the focused field; returns what the step record says about it (the method)."""
    if not text:
        return Method.NOTHING.value
    try:
        return f"typed by {Method.CLIPBOARD}, {_paste(d, text, serial)}"
    except _Refused as exc:
        refused = f"the clipboard route failed ({exc})"
    if _INPUT_TEXT_SAFE.fullmatch(text):
        try:
            _input_text(adb, text)
            return f"typed by {Method.INPUT_TEXT}; {refused}"
        except _Refused as exc:
            refused += f"; adb input text failed ({exc})"
    if allow_ime_install:
        return f"typed by {_through_u2_ime(d, adb, text, serial)}; {refused}"
    raise DeviceError(
        serial,
        f"type {len(text)} characters",
        f"{refused}, and only uiautomator2's input method could type this text: it installs an APK "
        f"(com.github.uiautomator) and switches the phone's keyboard, which pytest_fairy does only when "
        f"allowed. Set `{ALLOW_IME_KEY} = true` in the ini file to allow it, or let the device's "
        f"clipboard be read (uiautomator2's server must be able to read back what it sets)",
    )


def _paste(d: u2.Device, text: str, serial: str) -> str:
    """The clipboard route; returns what became of the clipboard, as read back. _Refused when the device
    does not let the clipboard be read back (nothing pasted; the clipboard emptied, as what it held was not
    readable).

    A clipboard that already holds the text was left so by an attempt cut off before it could put the
    clipboard back (the connection dropped, and the driver tries again): it is not the user's, and is
    emptied, not restored. Whatever is put back is read back; a clipboard that still holds the text (a
    password typed by paste) is a DeviceError, never a step that says all is well."""
    rpc = d.jsonrpc
    old = rpc.getClipboard()
    leftover = old == text
    put_back = "" if old is None or leftover else old
    try:
        rpc.setClipboard(None, text)
        if rpc.getClipboard() != text:
            # Android 10+ lets only the focused app or the input method read the clipboard.
            raise _Refused("the clipboard did not read back what was set")
        rpc.pasteClipboard()
    finally:
        # Put back what it held; an empty (or unreadable) one is emptied, so the text does not stay in it.
        rpc.setClipboard(None, put_back)
    if (rpc.getClipboard() or "") != put_back:  # an empty clip reads back as null
        rpc.setClipboard(None, "")
        if rpc.getClipboard() == text:
            raise DeviceError(serial, f"type {len(text)} characters", "the typed text stays on the clipboard")
        return "clipboard emptied: what it held did not read back after the paste"
    if leftover:
        return "clipboard emptied: it held the typed text, left by an attempt that was cut off"
    return "clipboard restored, read back" if put_back else "clipboard left empty as it was, read back"


def _input_text(adb: adbutils.AdbDevice, text: str) -> None:
    result = adb.shell2(["input", "text", text.replace(" ", "%s")], timeout=SHELL_TIMEOUT_SECONDS)
    if result.returncode != 0:
        lines = result.output.strip().splitlines()
        raise _Refused(lines[-1] if lines else f"exit status {result.returncode}")


def _through_u2_ime(d: u2.Device, adb: adbutils.AdbDevice, text: str, serial: str) -> str:
    """uiautomator2's IME route (opted in): it may install its APK and select its keyboard; the keyboard
    selected before, and the enabled ones, are put back afterwards."""
    selected = _shell(adb, ["settings", "get", "secure", "default_input_method"]).strip()
    enabled = _shell(adb, ["ime", "list", "-s"]).split()
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            InputMethodMixIn.send_keys(d, text)
    except adbutils.AdbInstallError as exc:  # the device refused the APK
        raise DeviceError(
            serial, f"type {len(text)} characters", f"uiautomator2's input method failed: {_reason(exc)}"
        ) from exc
    finally:
        if U2_IME not in enabled:
            _shell(adb, ["ime", "disable", U2_IME])
        if selected:
            _shell(adb, ["ime", "set", selected])
    # When its IME does not answer the broadcast, uiautomator2 sets the focused field's text instead.
    fallback = " (its set_text fallback)" if any("FastInputIME" in str(w.message) for w in caught) else ""
    return f"{Method.U2_IME}{fallback}, keyboard {selected or 'unknown'} selected again"


def _shell(adb: adbutils.AdbDevice, args: list[str]) -> str:
    return str(adb.shell(args, timeout=SHELL_TIMEOUT_SECONDS))


def _reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else 'no message'}"
