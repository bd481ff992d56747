"""The budgets, pure: each rule ends the run with its own reason, exactly when its limit is passed, with time
read from an injected clock. One test per rule, so that deleting any rule fails a test."""

from __future__ import annotations

from pathlib import Path

from fairy_virtual import VirtualDevice
from pytest_fairy.brain.offline import OfflineBrain
from pytest_fairy.explore.budget import Budget, BudgetLimits
from pytest_fairy.explore.decisions import Usage
from pytest_fairy.explore.explorer import Explorer
from pytest_fairy.explore.guard import GuardVerdict, LoopGuard, VerdictKind
from pytest_fairy.explore.mission import Mission
from pytest_fairy.explore.run import Run
from pytest_fairy.explore.target import Target
from pytest_fairy.explore.verdict import Verdict

FOOD = Path(__file__).resolve().parents[2] / "example_suites" / "food"
LIMITS = BudgetLimits(max_steps=5, wall_seconds=60.0, token_budget=1000, cost_budget=0.25)
NOTHING = Usage()


class Clock:
    """A clock that moves only when told to (or by `tick` on every reading)."""

    def __init__(self, now: float = 1000.0, tick: float = 0.0) -> None:
        self.now = now
        self.tick = tick

    def __call__(self) -> float:
        now = self.now
        self.now += self.tick
        return now


def tokens(total: int) -> Usage:
    return Usage(calls=1, input_tokens=total)


def test_nothing_is_spent_at_the_start() -> None:
    assert Budget.start(LIMITS, Clock()).spent(0, NOTHING) is None


def test_the_step_cap_is_spent_once_that_many_steps_are_taken() -> None:
    budget = Budget.start(LIMITS, Clock())
    assert budget.spent(4, NOTHING) is None
    assert budget.spent(5, NOTHING) == "step budget of 5 spent before the feature was done"
    assert budget.spent(6, NOTHING) == "step budget of 5 spent before the feature was done"


def test_wall_time_is_read_from_the_injected_clock_and_spent_only_past_the_limit() -> None:
    clock = Clock()
    budget = Budget.start(LIMITS, clock)
    clock.now += 60.0
    assert budget.elapsed() == 60.0
    assert budget.spent(1, NOTHING) is None, "exactly the limit is not past it"
    clock.now += 0.5
    assert budget.spent(1, NOTHING) == "wall-time budget of 60s spent"


def test_tokens_are_spent_past_the_token_budget() -> None:
    budget = Budget.start(LIMITS, Clock())
    assert budget.spent(1, tokens(1000)) is None
    assert budget.spent(1, tokens(1001)) == "token budget of 1000 spent (1001)"
    # Every kind of token counts: cache writes and reads, and the output.
    mixed = Usage(calls=2, input_tokens=400, cache_write_tokens=300, cache_read_tokens=200, output_tokens=101)
    assert budget.spent(1, mixed) == "token budget of 1000 spent (1001)"


def test_cost_is_spent_past_the_cost_budget() -> None:
    budget = Budget.start(LIMITS, Clock())
    assert budget.spent(1, Usage(calls=1, cost_usd=0.25)) is None
    assert budget.spent(1, Usage(calls=1, cost_usd=0.2501)) == "cost budget of $0.25 spent ($0.2501)"


def test_without_llm_budgets_no_usage_ends_the_run() -> None:
    budget = Budget.start(BudgetLimits(max_steps=5, wall_seconds=60.0), Clock())
    assert budget.spent(1, Usage(calls=9, input_tokens=10**9, cost_usd=10**6)) is None


def test_the_first_spent_budget_in_order_steps_time_tokens_cost_is_named() -> None:
    clock = Clock()
    budget = Budget.start(LIMITS, clock)
    everything = Usage(calls=1, input_tokens=5000, cost_usd=9.0)
    clock.now += 3600
    assert budget.spent(5, everything).startswith("step budget")  # type: ignore[union-attr]
    assert budget.spent(1, everything).startswith("wall-time budget")  # type: ignore[union-attr]
    clock.now -= 3600
    assert budget.spent(1, everything).startswith("token budget")  # type: ignore[union-attr]


def test_the_limits_are_the_targets() -> None:
    target = Target(app_name="a", package="p", feature="f", goal="g", max_steps=7, wall_seconds=90.0,
                    token_budget=5000, cost_budget=1.5)  # fmt: skip
    assert BudgetLimits.of(target) == BudgetLimits(7, 90.0, 5000, 1.5)
    assert BudgetLimits.of(Target(app_name="a", package="p", feature="f", goal="g")) == BudgetLimits(30, 600.0)


def test_the_guard_stops_before_any_budget_is_looked_at() -> None:
    target = Target(app_name="a", package="p", feature="f", goal="g", max_steps=1)
    run = Run(target, Mission(), LoopGuard(), Budget.start(BudgetLimits.of(target), Clock()))
    stop = GuardVerdict(VerdictKind.STOP, "5 actions failed in a row")
    ending = run.limits(stop, 3, NOTHING)
    assert ending is not None and ending.verdict is Verdict.INCONCLUSIVE
    assert ending.reason == "loop guard stopped the run: 5 actions failed in a row"
    spent = run.limits(GuardVerdict(VerdictKind.WARN, "same state"), 1, NOTHING)
    assert spent is not None and spent.reason == "step budget of 1 spent before the feature was done"
    assert run.limits(GuardVerdict(VerdictKind.OK), 0, NOTHING) is None


def test_the_explorer_times_its_run_with_its_clock() -> None:
    """Each reading of the clock is `tick` seconds later: started at 0, the steps see 25 and 50 (fine),
    then 75, past the 60 s budget, before a third step is taken."""
    clock = Clock(now=0.0, tick=25.0)
    target = Target(app_name="麦当劳", package="com.mcdonalds.gma.cn", feature="delivery time", goal="g",
                    wall_seconds=60.0)  # fmt: skip
    result = Explorer(VirtualDevice(FOOD, latency=False), OfflineBrain(), clock=clock).explore(target)
    assert result.verdict is Verdict.INCONCLUSIVE
    assert result.reason.startswith("wall-time budget of 60s spent")
    assert result.steps == 2 and result.seconds == 100.0
