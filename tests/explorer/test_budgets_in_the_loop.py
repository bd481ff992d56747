"""Budgets as a run meets them: each one ends a real exploration on the virtual device, inconclusive,
with its own reason, and the spec's `max_steps` is the only step cap (no hidden one in the loop guard).
Also the rule that only the done-when oracles can make a pass where a feature has them.

Each test fails when the check it is about is deleted (budget.py, run.py, explorer.py)."""

from __future__ import annotations

from pathlib import Path

from fairy_virtual import VirtualDevice
from pytest_fairy.explore.action import Action, ActionKind
from pytest_fairy.explore.decisions import Decision, Judgement, Plan, StepContext, Usage
from pytest_fairy.explore.explorer import Explorer, ExplorerSettings
from pytest_fairy.explore.guard import GuardLimits
from pytest_fairy.explore.mission import Mission
from pytest_fairy.explore.record import Exploration
from pytest_fairy.explore.target import Target
from pytest_fairy.explore.verdict import Verdict
from pytest_fairy.perception.screen import Screen
from pytest_fairy.spec.model import Oracle, OracleKind

FOOD = Path(__file__).resolve().parents[2] / "example_suites" / "food"
NEVER = 10**6
# A guard that never steps in: only the budgets end these runs.
PATIENT = ExplorerSettings(
    guard=GuardLimits(
        same_state_warn=NEVER, same_state_escape=NEVER, oscillation_warn_cycles=NEVER,
        oscillation_escape_cycles=NEVER, same_action_warn=NEVER, same_action_escape=NEVER,
        failures_warn=NEVER, failures_stop=NEVER, stagnation_warn=NEVER, stagnation_escape=NEVER,
        stagnation_stop=NEVER,
    )
)  # fmt: skip


class Pacer:
    """Presses back forever, spending `tokens` and `cost` per decision; its judge always calls the
    feature complete (a judge's word that only done-when oracles may turn into a pass)."""

    name = "pacer"
    model: str | None = None

    def __init__(self, tokens: int = 0, cost: float = 0.0, finish_after: int | None = None) -> None:
        self.tokens, self.cost, self.finish_after = tokens, cost, finish_after
        self.decisions = 0

    def plan(self, target: Target, screen: Screen, som_jpeg: bytes = b"") -> Plan:
        return Plan(root=target.feature)

    def decide(self, ctx: StepContext) -> Decision:
        self.decisions += 1
        if self.finish_after is not None and self.decisions > self.finish_after:
            return Decision(None, "nothing left to try")
        return Decision(Action(ActionKind.BACK), "pace")

    def judge(self, ctx: StepContext) -> Judgement:
        return Judgement(True, "looks complete to me")

    def summarize(self, target: Target, story: str) -> str:
        return story

    def usage(self) -> Usage:
        n = self.decisions
        return Usage(calls=n, input_tokens=n * self.tokens, cost_usd=n * self.cost)


def explore(brain: Pacer, mission: Mission | None = None, **budget: object) -> Exploration:
    target = Target(app_name="麦当劳", package="com.mcdonalds.gma.cn", feature="pace", goal="walk",
                    **budget)  # type: ignore[arg-type]  # fmt: skip
    return Explorer(VirtualDevice(FOOD, latency=False), brain, settings=PATIENT).explore(target, mission)


def test_max_steps_above_100_is_the_cap_not_a_hidden_one_at_100() -> None:
    """The loop guard used to stop every run at step 100, whatever the spec said."""
    result = explore(Pacer(), max_steps=101)
    assert result.verdict is Verdict.INCONCLUSIVE
    assert result.reason.startswith("step budget of 101 spent before the feature was done")
    assert result.steps == 101


def test_the_token_budget_ends_the_run() -> None:
    result = explore(Pacer(tokens=100), token_budget=250)
    assert result.verdict is Verdict.INCONCLUSIVE
    assert result.reason.startswith("token budget of 250 spent (300)")
    assert result.steps == 3


def test_the_cost_budget_ends_the_run() -> None:
    result = explore(Pacer(cost=0.1), cost_budget=0.25)
    assert result.verdict is Verdict.INCONCLUSIVE
    assert result.reason.startswith("cost budget of $0.25 spent ($0.3000)")
    assert result.steps == 3


def test_only_the_done_when_oracles_make_a_pass_never_the_judges_word_alone() -> None:
    """The judge says complete on every screen, the brain stops: with a done-when oracle never seen the
    run is inconclusive, at the end of the run and at every step before it."""
    never = Mission(done_when=(Oracle(kind=OracleKind.VISIBLE, value="不存在的文字"),))
    result = explore(Pacer(finish_after=3), never, max_steps=10)
    assert result.verdict is Verdict.INCONCLUSIVE
    assert result.reason.startswith("the judge calls the feature complete (looks complete to me), but its "
                                     "done-when oracles never held; never saw: ")  # fmt: skip
    midway = explore(Pacer(), never, max_steps=4)
    assert midway.verdict is Verdict.INCONCLUSIVE
    assert midway.reason.startswith("step budget of 4 spent before the feature was done")


def test_without_done_when_oracles_the_judge_decides() -> None:
    assert explore(Pacer(finish_after=1), max_steps=10).verdict is Verdict.PASSED
