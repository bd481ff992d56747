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

    def jump(self, seconds: float) -> None:
        """Set the wall clock forward or back by `seconds` (by hand, by the network, a time zone), as a
        phone's clock can be; its monotonic clock, as a phone's, does not move."""
        self._start += timedelta(seconds=seconds)


class DeviceClock:
    """The phone's own time: the clock it was given, plus the time its calls took on the phone.

    A call that answers at once (latency off) still takes a phone its time: the device `advance`s this
    clock by it instead of waiting, so toasts, animations and the log's timestamps move with the actions
    while the run stays fast. Real time, or a ManualClock's `advance`, moves it as well.
    """

    def __init__(self, base: Clock) -> None:
        self.base = base
        self.ahead = 0.0  # seconds the phone's time is ahead of `base`: the calls' time not waited for

    def monotonic(self) -> float:
        return self.base.monotonic() + self.ahead

    def now(self) -> datetime:
        return self.base.now() + timedelta(seconds=self.ahead)

    def sleep(self, seconds: float) -> None:
        """Really wait (a call's latency, waiting for the UI to settle): `base` moves."""
        self.base.sleep(seconds)

    def advance(self, seconds: float) -> None:
        """Time passes on the phone at once, without the run waiting for it."""
        self.ahead += max(0.0, seconds)
