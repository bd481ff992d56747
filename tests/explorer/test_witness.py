"""The witness seam: the explorer tells a brain of each escape and return step it took in the brain's
place, once per step; brains without `witness` (offline, scripted, a user's) run as they always did."""

from __future__ import annotations

from pathlib import Path

from fairy_virtual import VirtualDevice
from pytest_fairy.brain.offline import OfflineBrain
from pytest_fairy.brain.scripted import ScriptedBrain
from pytest_fairy.explore.action import Action, ActionKind
from pytest_fairy.explore.decisions import (
    ESCAPE_PREFIX,
    RETURN_PREFIX,
    Assessment,
    Brain,
    Decision,
    Judgement,
    Origin,
    Plan,
    StepContext,
    Witness,
    witness,
    witness_plan,
)
from pytest_fairy.explore.explorer import Explorer, ExplorerSettings
from pytest_fairy.explore.guard import GuardLimits
from pytest_fairy.explore.mission import Mission
from pytest_fairy.explore.target import Target
from pytest_fairy.explore.verdict import Verdict
from pytest_fairy.spec.model import Oracle, OracleKind
from tests.explorer.test_explorer import Collect

FOOD = Path(__file__).resolve().parents[2] / "example_suites" / "food"
TOGGLES = ["tap 预约送餐", "tap 尽快送达"] * 6


def food_target(**changes: object) -> Target:
    fields: dict[str, object] = dict(app_name="麦当劳", package="com.mcdonalds.gma.cn", feature="delivery time",
                                     goal="在麦乐送的送达时间弹窗中选择预约送餐并点确定", max_steps=14)
    fields.update(changes)
    return Target(**fields)  # type: ignore[arg-type]


class Witnessing(ScriptedBrain):
    """A scripted brain that keeps the steps it decided and the steps it was shown."""

    def __init__(self, script: list[str]) -> None:
        super().__init__(script)
        self.decided: list[int] = []
        self.witnessed: list[tuple[int, str]] = []

    def decide(self, ctx: StepContext) -> Decision:
        self.decided.append(ctx.step)
        return super().decide(ctx)

    def witness(self, ctx: StepContext, decision: Decision) -> None:
        self.witnessed.append((ctx.step, decision.reasoning))


def test_each_escape_is_witnessed_once_and_every_step_is_decided_or_witnessed() -> None:
    brain = Witnessing(["tap 麦乐送", *TOGGLES])
    sink = Collect()
    result = Explorer(VirtualDevice(FOOD, latency=False), brain, sinks=[sink]).explore(food_target())

    escapes = [r.step for r in sink.steps if r.escape]
    assert escapes and result.escapes == len(escapes)
    assert [step for step, _ in brain.witnessed] == escapes
    assert all(why.startswith(ESCAPE_PREFIX) for _, why in brain.witnessed)
    assert [why for _, why in brain.witnessed] == [r.reasoning for r in sink.steps if r.escape]
    assert not set(brain.decided) & set(escapes), "a step the brain decided was also witnessed"
    assert sorted([*brain.decided, *escapes])[: len(sink.steps)] == [r.step for r in sink.steps]


def test_a_return_step_is_witnessed_once_after_the_decision_it_replaces() -> None:
    class Assessing(Witnessing):
        def decide(self, ctx: StepContext) -> Decision:
            decision = super().decide(ctx)
            done = ctx.step >= 3
            return Decision(decision.action, decision.reasoning, sub_feature="delivery-time dialog",
                            assessment=Assessment(is_completed=done, completion_rate=1.0 if done else 0.5))

        def judge(self, ctx: StepContext) -> Judgement:
            return Judgement(True, "both options seen")

    brain = Assessing(["tap 麦乐送", "tap 预约送餐", "tap 尽快送达", "tap 预约送餐"])
    sink = Collect()
    Explorer(VirtualDevice(FOOD, latency=False), brain, sinks=[sink]).explore(
        food_target(sub_features=("delivery-time dialog",)))
    returns = [r for r in sink.steps if r.origin is Origin.RETURN]
    assert returns and brain.witnessed == [(r.step, r.reasoning) for r in returns]
    assert all(r.reasoning.startswith(RETURN_PREFIX) for r in returns)
    for r in returns:
        assert brain.decided.count(r.step) == 1  # decided, then replaced by the return step


def test_a_forced_escape_reaches_a_witnessing_brain_on_a_tight_guard() -> None:
    """With the guard escaping on the second visit in a row, a brain that taps a dead element is escaped
    at once; the escape is shown to it with the guard's reason."""
    brain = Witnessing(["tap 麦乐送", "tap 预约送餐", "tap 预约送餐", "tap 预约送餐", "tap 预约送餐"])
    limits = GuardLimits(same_state_warn=1, same_state_escape=2, same_action_warn=1, same_action_escape=2)
    Explorer(VirtualDevice(FOOD, latency=False), brain, settings=ExplorerSettings(guard=limits)).explore(
        food_target(max_steps=6))
    assert brain.witnessed, brain.decided
    step, why = brain.witnessed[0]
    assert why.startswith(f"{ESCAPE_PREFIX}: ") and step not in brain.decided


# -- brains that do not care ------------------------------------------------------------------------------


def test_brains_without_witness_are_still_brains_and_are_simply_not_told() -> None:
    for brain in (OfflineBrain(), ScriptedBrain(["back"])):
        assert isinstance(brain, Brain) and not isinstance(brain, Witness)
        witness(brain, _nothing_ctx(), Decision(Action(ActionKind.BACK), f"{ESCAPE_PREFIX}: x"))
        witness_plan(brain, food_target(), Plan(root="delivery time"))


def test_the_offline_brain_still_passes_through_escapes() -> None:
    sink = Collect()
    result = Explorer(VirtualDevice(FOOD, latency=False), OfflineBrain(), sinks=[sink]).explore(
        food_target(max_steps=30), Mission(done_when=(Oracle(kind=OracleKind.VISIBLE, value="送达时间：预约送餐"),)))
    assert result.verdict is Verdict.PASSED, result.reason


def test_witness_plan_and_witness_each_look_up_their_own_method() -> None:
    class PlanOnly:
        def __init__(self) -> None:
            self.plans: list[Plan] = []

        def witness_plan(self, target: Target, plan: Plan) -> None:
            self.plans.append(plan)

    brain = PlanOnly()
    plan = Plan(root="delivery time")
    witness_plan(brain, food_target(), plan)  # type: ignore[arg-type]
    witness(brain, _nothing_ctx(), Decision(None, "replayed: done"))  # type: ignore[arg-type]
    assert brain.plans == [plan]


def _nothing_ctx() -> StepContext:
    from tests.claude import synthetic

    return synthetic.context(2)
