"""The budgets of one exploration: steps, wall time, LLM tokens and cost.

Beside the loop guard, and as pure: the guard asks whether the run still makes progress, the budget what
it may spend however much progress it makes. Over any budget the run ends inconclusive (never passed)
and is still summarised. The limits are named and come from the `Target` (the spec's `budget:`, the
run's --fairy-max-steps); the clock is injected, so a test can move time instead of waiting for it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from pytest_fairy.explore.decisions import Usage
from pytest_fairy.explore.target import Target

Clock = Callable[[], float]


@dataclass(frozen=True, slots=True)
class BudgetLimits:
    """What one exploration may spend. None = no cap (the LLM budgets only: steps and time always end)."""

    max_steps: int
    wall_seconds: float
    token_budget: int | None = None
    cost_budget: float | None = None

    @classmethod
    def of(cls, target: Target) -> BudgetLimits:
        return cls(target.max_steps, target.wall_seconds, target.token_budget, target.cost_budget)


@dataclass(frozen=True, slots=True)
class Budget:
    """The limits and when the run started. `Budget.start` reads the clock once; `spent` reads it again."""

    limits: BudgetLimits
    clock: Clock
    started: float

    @classmethod
    def start(cls, limits: BudgetLimits, clock: Clock = time.monotonic) -> Budget:
        return cls(limits, clock, clock())

    def elapsed(self) -> float:
        return self.clock() - self.started

    def spent(self, steps: int, usage: Usage) -> str | None:
        """None while every budget has some left after `steps` steps and `usage`; else which one is spent,
        as the reason of the inconclusive verdict. Steps first: the cheapest to read and the usual one."""
        lim = self.limits
        if steps >= lim.max_steps:
            return f"step budget of {lim.max_steps} spent before the feature was done"
        if self.elapsed() > lim.wall_seconds:
            return f"wall-time budget of {lim.wall_seconds:.0f}s spent"
        if lim.token_budget is not None and usage.total_tokens > lim.token_budget:
            return f"token budget of {lim.token_budget} spent ({usage.total_tokens})"
        if lim.cost_budget is not None and usage.cost_usd > lim.cost_budget:
            return f"cost budget of ${lim.cost_budget:.2f} spent (${usage.cost_usd:.4f})"
        return None
