"""The judge decides and its answer is used (seeds 001 and 004): a confirmed phase returns, a claim is
judged once per screen until new ground, a brain that stops while the judge says continue is no defect."""

from __future__ import annotations

from fairy_virtual import VirtualDevice
from pytest_fairy.brain.answers import read_judgement
from pytest_fairy.explore.decisions import Assessment, Decision, Judgement, Origin, StepContext
from pytest_fairy.explore.explorer import Explorer
from pytest_fairy.explore.tree import FeatureStatus
from pytest_fairy.explore.verdict import Verdict
from tests.explorer.test_explorer import Collect
from tests.explorer.test_witness import FOOD, Witnessing, food_target

DIALOG = "delivery-time dialog"


class Claiming(Witnessing):
    """Follows its script, and from step `claim_from` on calls the dialog's sub-feature complete; its
    judge answers with `judgement` and counts its calls."""

    def __init__(self, script: list[str], judgement: Judgement, *, claim_from: int = 3) -> None:
        super().__init__(script)
        self.judgement = judgement
        self.claim_from = claim_from
        self.judged: list[int] = []

    def decide(self, ctx: StepContext) -> Decision:
        decision = super().decide(ctx)
        done = ctx.step >= self.claim_from
        return Decision(decision.action, decision.reasoning, sub_feature=DIALOG,
                        assessment=Assessment(is_completed=done, completion_rate=1.0 if done else 0.5))

    def judge(self, ctx: StepContext) -> Judgement:
        self.judged.append(ctx.step)
        return self.judgement


def explore(brain: Claiming) -> tuple[Collect, object]:
    sink = Collect()
    result = Explorer(VirtualDevice(FOOD, latency=False), brain, sinks=[sink]).explore(
        food_target(sub_features=(DIALOG,)))
    return sink, result


def test_a_phase_the_judge_confirms_is_done_and_returns_although_the_feature_is_not() -> None:
    phase_only = Judgement(False, "both options of the dialog were seen", phase_complete=True)
    brain = Claiming(["tap 麦乐送", "tap 预约送餐", "tap 尽快送达", "tap 预约送餐"], phase_only)
    sink, result = explore(brain)
    returns = [r for r in sink.steps if r.origin is Origin.RETURN]
    assert returns and returns[0].step == 3, [(r.step, r.origin) for r in sink.steps]
    assert result.tree.feature(DIALOG).status is FeatureStatus.DONE  # type: ignore[attr-defined]


def test_a_claim_the_judge_calls_unfinished_is_asked_again_only_after_new_ground() -> None:
    carry_on = Judgement(False, "the 尽快送达 option was not tried")
    # From step 3 on every decision claims the dialog complete; 尽快送达 and 预约送餐 toggle within one
    # dialog state, so the same screens come back with nothing new found.
    brain = Claiming(["tap 麦乐送", "tap 预约送餐"] + ["tap 尽快送达", "tap 预约送餐"] * 3, carry_on)
    sink, _ = explore(brain)
    # Steps 3-7 all claim it, on two screens that alternate: each screen is judged once.
    assert [s for s in brain.decided if 3 <= s <= 7] == [3, 4, 5, 6, 7]
    assert brain.judged == [3, 4]
    assert not [r for r in sink.steps if r.origin is Origin.RETURN]


def test_the_judges_phase_answer_is_read_from_the_tool() -> None:
    answer = {"phase_completed": True, "feature_completed": False, "verdict": "continue",
              "reason": "the dialog is done, the cart is not", "findings": []}
    judgement = read_judgement(answer)
    assert judgement.phase_complete and not judgement.complete and judgement.says_continue
    assert read_judgement({**answer, "phase_completed": False}).phase_complete is False


def test_a_brain_that_says_done_while_the_judge_says_continue_is_inconclusive() -> None:
    brain = Claiming(["tap 麦乐送"], Judgement(False, "nothing in the dialog was tried"), claim_from=99)
    _, result = explore(brain)
    assert result.verdict is Verdict.INCONCLUSIVE and not result.findings  # type: ignore[attr-defined]
    assert "the brain stopped early" in result.reason  # type: ignore[attr-defined]
