"""What happened to a device underneath a run, as the run's record says it.

A reconnect is an event, not a silent repair: the driver (`U2Device`) notes each reconnect it performed
(what call failed, how many attempts it took) in its action note, which the explorer puts in the step
record's `device_note` (steps.jsonl, the `-v` step line). After a reconnect, the app under test must still
be in front: a device that restarted underneath shows its launcher (or a lock screen, or another app), and
what the run would have seen is lost, so the item ends inconclusive (`DeviceReset`) rather than exploring
a reset device.
"""

from __future__ import annotations

from typing import Protocol

from pytest_fairy.devices.protocol import AppRef
from pytest_fairy.errors import FairyError

_PREFIX = "reconnected after"


class _Front(Protocol):
    @property
    def serial(self) -> str: ...

    def current_app(self) -> AppRef: ...


def reconnected(doing: str, attempts: int) -> str:
    """The note of one reconnect: `reconnected after 'dump the hierarchy' failed (2 attempts)`."""
    return f"{_PREFIX} {doing!r} failed ({attempts} attempt{'' if attempts == 1 else 's'})"


def joined(*notes: str) -> str:
    """Notes of one step in the order they happened, the empty ones left out."""
    return "; ".join(note for note in notes if note)


def has_reconnect(note: str) -> bool:
    return any(part.startswith(_PREFIX) for part in note.split("; "))


class DeviceReset(FairyError):
    """The device reconnected and the app under test was no longer in front: the item is inconclusive."""

    def __init__(self, serial: str, step: int, front: str) -> None:
        super().__init__(
            f"device {serial} reconnected at step {step} and the app was no longer running: the run "
            f"cannot tell what it would have seen ({front or 'nothing'} in front)"
        )
        self.serial, self.step, self.front = serial, step, front

    def __reduce__(self) -> tuple[type, tuple[str, int, str]]:
        return (type(self), (self.serial, self.step, self.front))


def still_running(device: _Front, package: str, note: str, step: int) -> None:
    """After a reconnect (in `note`), DeviceReset unless `package` is still the app in front."""
    if not has_reconnect(note):
        return
    front = device.current_app().package
    if front != package:
        raise DeviceReset(device.serial, step, front)
