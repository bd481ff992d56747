"""How a setting's text is read (`Parse`): the value parsers of plugin/option_table.py's `SETTINGS`. Each
raises `Refused` with what it expects (`a whole number, at least 1`); `option_table.read_values` words it
with the flag or ini key that held the value."""

from __future__ import annotations

from collections.abc import Callable
from difflib import get_close_matches
from typing import Any

from pytest_fairy.devices.providers import is_farm
from pytest_fairy.devices.settings import VIRTUAL
from pytest_fairy.errors import UsageError


class Refused(UsageError):
    """A value a setting does not take; the text says what it expects (`a whole number, at least 1`).
    `read_values` words it with the flag or ini key, as pytest's own usage error."""


Parse = Callable[[str], Any]


def text(raw: str) -> str:
    return raw.strip()


def whole(least: int, unit: str = "", why: str = "") -> Parse:
    """A whole number of at least `least` (`unit`: what it counts; `why`: why no fewer)."""

    def parse(raw: str) -> int:
        counted = f" {unit}" if unit else ""
        bound = "0 or more" if least == 0 else f"at least {least}{counted}"
        wanted = f"a whole number, {bound}" + (f" ({why})" if why else "")
        try:
            value = int(raw.strip())
        except ValueError:
            raise Refused(wanted) from None
        if value < least:
            raise Refused(wanted)
        return value

    return parse


def seconds(*, above_zero: bool = False) -> Parse:
    """Seconds: 0 or more, or more than 0."""

    def parse(raw: str) -> float:
        wanted = "seconds, more than 0" if above_zero else "seconds, 0 or more"
        try:
            value = float(raw.strip())
        except ValueError:
            raise Refused(wanted) from None
        if value < 0 or (above_zero and value == 0) or value != value:
            raise Refused(wanted)
        return value

    return parse


def limit(unit: str) -> Parse:
    """A limit in `unit` (days, megabytes): a number, 0 or more, where 0 switches the limit off."""

    def parse(raw: str) -> float:
        wanted = f"a number of {unit}, 0 or more (0: no limit)"
        try:
            value = float(raw.strip())
        except ValueError:
            raise Refused(wanted) from None
        if not 0 <= value < float("inf"):
            raise Refused(wanted)
        return value

    return parse


def dollars(raw: str) -> float:
    """US dollars, more than 0 (`2.50` or `$2.50`)."""
    try:
        return float(seconds(above_zero=True)(raw.strip().removeprefix("$")))
    except Refused:
        raise Refused("an amount in US dollars, more than 0 (e.g. 2.50)") from None


def choice(*choices: str) -> Parse:
    def parse(raw: str) -> str:
        if raw.strip() not in choices:
            raise Refused(f"one of {', '.join(choices)}")
        return raw.strip()

    return parse


def serial(raw: str) -> str:
    if not raw.strip() or any(c.isspace() for c in raw):
        raise Refused("an adb serial, 'virtual' or a farm (stf+http://HOST:PORT?sdk>=30)")
    if is_farm(raw):  # read, with its requirements, where its provider is chosen (plugin/run.py)
        return raw
    word = raw.split(":", 1)[0]
    if word != VIRTUAL and get_close_matches(word.lower(), [VIRTUAL], cutoff=0.7):
        # No adb serial reads like a misspelt `virtual`: a typo, not a phone to look for.
        raise Refused(f"an adb serial or 'virtual' (did you mean {raw.replace(word, VIRTUAL, 1)}?)")
    return raw


def adb_server(raw: str) -> str:
    host, _, port = raw.strip().rpartition(":")
    if not (host and port.isdigit() and 0 < int(port) < 65536):
        raise Refused("the HOST:PORT of an adb server")
    return raw.strip()
