"""Time as the virtual device sees it: a real clock, or a manual one for tests and replays."""

from __future__ import annotations

import time
from datetime import datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def monotonic(self) -> float: ...

    def now(self) -> datetime: ...

    def sleep(self, seconds: float) -> None: ...


class SystemClock:
    """The host's clocks; `sleep` really waits (simulated device latency)."""

    def monotonic(self) -> float:
        return time.monotonic()

    def now(self) -> datetime:
        return datetime.now()

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)


class ManualClock:
    """A clock that only moves when told to: `sleep` advances it instead of waiting.

    `slept` keeps every sleep request, so a test can see which latency was applied without timing.
    """

    def __init__(self, start: datetime | None = None) -> None:
        self._start = start or datetime(2025, 12, 20, 17, 23, 6)
        self._elapsed = 0.0
        self.slept: list[float] = []

    def monotonic(self) -> float:
        return 1000.0 + self._elapsed

    def now(self) -> datetime:
        return self._start + timedelta(seconds=self._elapsed)

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.advance(seconds)

    def advance(self, seconds: float) -> None:
        self._elapsed += max(0.0, seconds)
