"""Where each step's decision came from, as a type: the brain, its queue, the guard's escape, a return step,
the decision cache or a review hook. And how each kind of `FairyError` ends a run, in the words of
`FairyError.as_reason`, while an action the screen cannot take stays a failed step."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fairy_virtual import VirtualDevice
from pytest_fairy.brain.scripted import ScriptedBrain
from pytest_fairy.errors import BrainError, HookError, PerceptionError, UsageError
from pytest_fairy.explore.action import Action, ActionError, ActionKind
from pytest_fairy.explore.decisions import (
    ESCAPE_PREFIX,
    Assessment,
    Decision,
    Judgement,
    NoRecordedDecision,
    Origin,
    Plan,
    StepContext,
)
from pytest_fairy.explore.explorer import Explorer
from pytest_fairy.explore.mission import Mission
from pytest_fairy.explore.record import StepRecord
from pytest_fairy.explore.target import Target
from pytest_fairy.explore.verdict import Verdict
from pytest_fairy.perception.screen import Screen
from pytest_fairy.replay import CacheMode, CachingBrain, DecisionCache
from pytest_fairy.report.store import ItemStore
from tests.claude.test_follow_ups import after, follow_up, started
from tests.explorer.test_explorer import Collect

FOOD = Path(__file__).resolve().parents[2] / "example_suites" / "food"
TOGGLES = ["tap 预约送餐", "tap 尽快送达"] * 6


def food_target(**changes: object) -> Target:
    fields: dict[str, object] = dict(app_name="麦当劳", package="com.mcdonalds.gma.cn", feature="delivery time",
                                     goal="在麦乐送的送达时间弹窗中选择预约送餐并点确定", max_steps=14)
    fields.update(changes)
    return Target(**fields)  # type: ignore[arg-type]


def explore(brain: object, mission: Mission | None = None, device: VirtualDevice | None = None,
            **target: object) -> tuple[list[StepRecord], Collect]:
    sink = Collect()
    Explorer(device or VirtualDevice(FOOD, latency=False), brain, sinks=[sink]).explore(  # type: ignore[arg-type]
        food_target(**target), mission)
    return sink.steps, sink


# -- origins ---------------------------------------------------------------------------------------------


def test_the_brains_steps_and_the_guards_escapes_say_who_made_them() -> None:
    steps, sink = explore(ScriptedBrain(["tap 麦乐送", *TOGGLES]))
    escapes = [r for r in steps if r.origin is Origin.ESCAPE]
    assert escapes and all(r.escape and r.reasoning.startswith(ESCAPE_PREFIX) for r in escapes)
    assert all(r.origin is Origin.BRAIN and not r.escape for r in steps if r not in escapes)
    assert sink.results[0].escapes == len(escapes)


def test_a_return_step_has_its_own_origin() -> None:
    class Assessing(ScriptedBrain):
        def decide(self, ctx: StepContext) -> Decision:
            decision = super().decide(ctx)
            return Decision(decision.action, decision.reasoning, sub_feature="delivery-time dialog",
                            assessment=Assessment(is_completed=ctx.step >= 3))

        def judge(self, ctx: StepContext) -> Judgement:
            return Judgement(True, "both options seen")

    steps, _ = explore(Assessing(["tap 麦乐送", "tap 预约送餐", "tap 尽快送达"]), sub_features=("delivery-time dialog",))
    assert [r.origin for r in steps][:3] == [Origin.BRAIN, Origin.BRAIN, Origin.RETURN]
    assert not steps[2].escape


def test_a_hook_rewrite_is_the_hooks_and_keeps_what_was_decided_before_it() -> None:
    def review(action: Action, screen: Screen, step: int) -> str | Action | None:
        return Action(ActionKind.BACK) if step == 2 else None

    steps, _ = explore(ScriptedBrain(["tap 麦乐送", "tap 预约送餐"]), Mission(review=review))
    assert [r.origin for r in steps][:2] == [Origin.BRAIN, Origin.HOOK]
    assert steps[1].action == "back" and not steps[1].escape and not steps[1].replayed


def test_replayed_decisions_come_from_the_cache_and_the_store_keeps_every_key(tmp_path: Path) -> None:
    cache = DecisionCache(tmp_path / "cache")
    script = ["tap 麦乐送", "tap 预约送餐", "tap 确定"]
    first, _ = explore(CachingBrain(ScriptedBrain(script), cache, "s.yaml", CacheMode.CACHED), max_steps=3)
    assert [r.origin for r in first] == [Origin.BRAIN] * 3
    again, _ = explore(CachingBrain(ScriptedBrain(script), cache, "s.yaml", CacheMode.CACHED), max_steps=3)
    assert [r.origin for r in again] == [Origin.REPLAY] * 3 and all(r.replayed for r in again)

    store = ItemStore(tmp_path / "item")
    store.start(food_target(), Plan(root="delivery time"))
    store.step(again[0])
    store.wait_for_steps()  # the line is written with the screenshot, once it is encoded
    line = json.loads((tmp_path / "item" / "steps.jsonl").read_text(encoding="utf-8"))
    assert (line["origin"], line["replayed"], line["escape"]) == ("replay", True, False)


def test_queued_follow_ups_are_the_queues_and_the_decision_that_queued_them_the_brains() -> None:
    from pytest_fairy.brain.follow_ups import FollowUpQueue

    queue = FollowUpQueue()
    first = started(queue, follow_up())
    assert first.origin is Origin.BRAIN
    queued = queue.next(after())
    assert queued is not None and queued.origin is Origin.QUEUED


# -- how a run ends on each kind of error ----------------------------------------------------------------


class Raising(ScriptedBrain):
    """The script until step `at`, then `error`."""

    def __init__(self, error: Exception, at: int = 2) -> None:
        super().__init__(["tap 优惠券", "back", "back"])
        self.error, self.at = error, at

    def decide(self, ctx: StepContext) -> Decision:
        if ctx.step >= self.at:
            raise self.error
        return super().decide(ctx)


@pytest.mark.parametrize(
    ("error", "reason"),
    [
        (BrainError("Messages API: 529 overloaded"), "brain unavailable: Messages API: 529 overloaded"),
        (PerceptionError("empty hierarchy dump"), "could not read the screen: empty hierarchy dump"),
        (HookError("a pytest_fairy_check hook raised KeyError: 'x'"), "a pytest_fairy_check hook raised KeyError: 'x'"),
        (NoRecordedDecision("no recorded decision for state s"), "no recorded decision for state s"),
    ],
)
def test_each_kind_of_error_ends_the_run_inconclusive_in_its_own_words(error: Exception, reason: str) -> None:
    sink = Collect()
    result = Explorer(VirtualDevice(FOOD, latency=False), Raising(error), sinks=[sink]).explore(food_target())
    assert (result.verdict, result.reason) == (Verdict.INCONCLUSIVE, reason)
    assert [r.step for r in sink.steps] == [1] and sink.steps[0].reached, "the step before was kept"


class Unreadable(VirtualDevice):
    """Its screen cannot be read after `dumps` dumps: the step taken before still reaches the sinks."""

    def __init__(self, dumps: int) -> None:
        super().__init__(FOOD, latency=False)
        self.dumps = dumps

    def dump_hierarchy(self) -> str:
        self.dumps -= 1
        return super().dump_hierarchy() if self.dumps >= 0 else ""


def test_an_unreadable_screen_after_an_action_keeps_that_step_without_an_outcome() -> None:
    sink = Collect()
    result = Explorer(Unreadable(dumps=2), ScriptedBrain(["tap 优惠券", "back"]), sinks=[sink]).explore(food_target())
    assert result.reason == "could not read the screen: device virtual: empty hierarchy dump"
    assert [(r.step, r.reached, r.outcome) for r in sink.steps][-1] == (2, "", "")
    assert result.steps == 2


def test_a_usage_error_is_the_users_to_fix_not_a_verdict() -> None:
    with pytest.raises(UsageError, match="broken app model"):
        Explorer(VirtualDevice(FOOD, latency=False), Raising(UsageError("broken app model"))).explore(food_target())


class Slippery(VirtualDevice):
    """A tap that cannot be carried out once: the decision's error, found while acting."""

    def __init__(self) -> None:
        super().__init__(FOOD, latency=False)
        self.slipped = False

    def tap(self, x: int, y: int) -> None:
        if not self.slipped:
            self.slipped = True
            raise ActionError("the element moved away")
        super().tap(x, y)


def test_an_action_error_while_acting_is_a_failed_step_and_the_run_goes_on() -> None:
    steps, sink = explore(ScriptedBrain(["tap 优惠券", "tap 优惠券", "back"]), device=Slippery())
    assert "action failed (the element moved away)" in steps[0].outcome
    assert len(steps) == 3 and sink.results[0].verdict is Verdict.PASSED
