"""What an app set to happen later: effects with `after`, due at a moment of the phone's clock."""

from __future__ import annotations

from dataclasses import dataclass

from fairy_virtual.model import Effect


@dataclass(frozen=True, slots=True)
class Timer:
    """An effect due at `at`. It belongs to the screen in front when it was set (`front`: which coming to
    front of a screen that was) in the process `pid`: it runs only if both are still there, as a
    lifecycle-bound coroutine does."""

    at: float
    pid: int
    front: int
    effect: Effect  # without its `after`
    row: int | None


class Timers:
    """The effects waiting for their time, in the order they were set."""

    def __init__(self) -> None:
        self._waiting: list[Timer] = []

    def set(self, at: float, pid: int, front: int, effect: Effect, row: int | None) -> None:
        self._waiting.append(Timer(at, pid, front, effect.model_copy(update={"after": None}), row))

    def due(self, now: float) -> list[Timer]:
        """The timers due by `now`, in the order they fall due; they wait no more."""
        due = sorted((t for t in self._waiting if t.at <= now), key=lambda t: t.at)
        self._waiting = [t for t in self._waiting if t.at > now]
        return due

    def clear(self) -> None:
        self._waiting = []
