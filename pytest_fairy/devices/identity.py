"""Which phone answers at a serial: after a reconnect it must be the one the run began on.

A network serial (`host:port`) names an address, not a phone: after a drop, another phone (a farm slot
given to someone else, an emulator restarted with another image) can answer there. The driver notes the
phone's own serial number and build fingerprint when it attaches, and compares them after every
reconnect, before it retries the call that failed; another phone is a lost device.
"""

from __future__ import annotations

import adbutils

from pytest_fairy.errors import DeviceError

PROPERTIES = ("ro.serialno", "ro.build.fingerprint")


def identity_of(adb: adbutils.AdbDevice | None, serial: str) -> tuple[str, ...]:
    """The phone's serial number and build fingerprint, as its properties say (bounded as every call of
    the driver's adbutils device is)."""
    try:
        assert adb is not None, "not attached"
        return tuple(str(adb.getprop(name)).strip() for name in PROPERTIES)
    except (adbutils.AdbError, OSError) as exc:
        raise DeviceError(serial, "read its identity", str(exc) or type(exc).__name__) from exc


def another_phone(before: tuple[str, ...], now: tuple[str, ...]) -> str:
    """Why `now` is not the phone of `before` ("" when it is): the properties that differ."""
    changed = [
        f"{name} {now[i]!r} where it was {before[i]!r}"
        for i, name in enumerate(PROPERTIES)
        if before[i] != now[i]
    ]
    return "another device answers there now: " + ", ".join(changed) if changed else ""
