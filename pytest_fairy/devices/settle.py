"""Settling after an action: wait for evidence that the UI is idle, never for a fixed time.

A phone animates after a tap (a ripple, a screen sliding in, a list loading); a screen read too early
shows the screen before the action, and the step is judged on the wrong screen. A fixed sleep is both
too long on a quick screen and too short on a slow one. The rule, in order:

1. `floor`: always wait this long first (ini `fairy_settle_seconds`, default 0; for an app whose UI
   changes again after it looks idle, e.g. a splash that waits on the network).
2. The device's own word: uiautomator's `waitForIdle` (no accessibility event for a moment), bounded by
   what is left of the cap.
3. A device that cannot say: two consecutive observations (a hash of the hierarchy dump) that agree,
   `poll` seconds apart.
4. `cap`: never wait longer in all (ini `fairy_settle_cap`, default 3 s). A UI that never settles (a
   clock, a video, a spinner) goes on to the step as it is, and the step's note says so.

    how = settle(limits, idle=device_idle_wait, observe=lambda: hash(dump()))   # Settled.IDLE, ...
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from enum import StrEnum

DEFAULT_SETTLE_CAP = 3.0
DEFAULT_SETTLE_POLL = 0.1
DEFAULT_SETTLE_FLOOR = 0.0

# Waits at most the given seconds for the UI to become idle: True when it did, False when the time ran
# out first, None when the device cannot tell (then observations are compared).
IdleWait = Callable[[float], "bool | None"]


@dataclass(frozen=True)
class SettleLimits:
    """How long settling after an action may take: at least `floor`, at most `cap` seconds; `poll` apart
    when observations are compared."""

    floor: float = DEFAULT_SETTLE_FLOOR
    cap: float = DEFAULT_SETTLE_CAP
    poll: float = DEFAULT_SETTLE_POLL

    def __post_init__(self) -> None:
        if self.floor < 0 or self.cap < 0 or self.poll <= 0:
            raise ValueError(f"settle limits must not be negative (poll > 0): {self}")


class Settled(StrEnum):
    IDLE = "idle"  # the device said its UI is idle
    AGREED = "agreed"  # two consecutive observations agreed
    CAPPED = "capped"  # the cap passed first: the step reads the screen as it is

    def note(self, limits: SettleLimits) -> str:
        """What the step's record says: nothing when the UI settled."""
        return f"the UI did not settle within {limits.cap:g} s" if self is Settled.CAPPED else ""


def settle(
    limits: SettleLimits,
    *,
    idle: IdleWait | None,
    observe: Callable[[], Hashable],
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> Settled:
    """Wait until the UI settled after an action, by the rule above; how it ended."""
    started = clock()
    if limits.floor > 0:
        sleep(limits.floor)

    def left() -> float:
        return max(0.0, limits.cap - (clock() - started))

    if idle is not None:
        said = idle(left())
        if said is not None:
            return Settled.IDLE if said else Settled.CAPPED
    previous = observe()
    while left() > 0:
        sleep(min(limits.poll, left()))
        current = observe()
        if current == previous:
            return Settled.AGREED
        previous = current
    return Settled.CAPPED
