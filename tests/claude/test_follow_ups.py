"""Queued follow-ups: the model's plan of the next few actions is taken without a call per action while
the screens match, and dropped - back to a call - at the first surprise."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from fairy_virtual import VirtualDevice
from pytest_fairy.brain.claude import ClaudeBrain, ClaudeSettings
from pytest_fairy.brain.follow_ups import FollowUpQueue, find_label
from pytest_fairy.brain.tools import FollowUp, PageExpectation, tools_param
from pytest_fairy.explore.action import Action, ActionKind
from pytest_fairy.explore.decisions import Assessment, Decision, Outcome, OutcomeKind, StepContext
from pytest_fairy.explore.explorer import Explorer
from pytest_fairy.explore.guard import Escape, GuardVerdict, VerdictKind
from pytest_fairy.explore.mission import Mission
from pytest_fairy.explore.record import StepRecord
from pytest_fairy.explore.target import Target
from pytest_fairy.explore.verdict import Verdict
from pytest_fairy.spec.model import Oracle, OracleKind
from tests.claude import answers, synthetic
from tests.claude.conftest import FAST, brain_on
from tests.claude.fake_api import FakeMessagesAPI, tool_reply
from tests.claude.stages import stage_of
from tests.claude.test_round_trips import user_text
from tests.screens import button, screen_of

FOOD = Path(__file__).resolve().parents[2] / "example_suites" / "food"
CONFIRM = "确定"
SCHEDULE = "预约送餐"
DIALOG_TITLE = "请选择您的送达时间"


# -- the queue on its own, on hand-made screens -------------------------------------------------------

DIALOG = screen_of(button("尽快送达", 0), button(SCHEDULE, 1), button(CONFIRM, 2), activity=".ListActivity")
# The same page a moment later: the option is checked and a row of slots appeared above the button,
# so 确定 now has another mark number.
DIALOG_LATER = screen_of(button("尽快送达", 0), button(SCHEDULE, 1, checked=True), button("12:30", 2),
                         button(CONFIRM, 3), activity=".ListActivity")
OTHER = screen_of(button("返回", 0), button("商品", 1), activity=".OtherActivity")


def follow_up(label: str | None = CONFIRM, page: PageExpectation = PageExpectation.SAME,
              visible: str | None = None, kind: ActionKind = ActionKind.TAP) -> FollowUp:
    return FollowUp(kind, label, None, None, page, visible, "the choice is confirmed")


def started(queue: FollowUpQueue, *follow_ups: FollowUp) -> Decision:
    """The model decided `tap [2] 预约送餐` on DIALOG at step 3 and queued `follow_ups`."""
    decision = Decision(Action(ActionKind.TAP, 2), "choose a scheduled delivery", sub_feature="delivery time",
                        assessment=Assessment(completion_rate=0.5))
    return queue.start(decision, tuple(follow_ups), synthetic.context(3, screen=DIALOG))


def after(step: int = 4, screen: Any = DIALOG_LATER, kind: OutcomeKind = OutcomeKind.STATE_CHANGED,
          action: str = f"tap [2] {SCHEDULE}", **changes: Any) -> StepContext:
    ctx = synthetic.context(step, screen=screen, last=Outcome(action, kind))
    return replace(ctx, **changes)


def test_a_matching_screen_takes_the_queued_action_by_its_label() -> None:
    queue = FollowUpQueue()
    first = started(queue, follow_up(visible="12:30"))
    assert first.reasoning.startswith("choose a scheduled delivery [step 1/2 of the model's plan")

    decision = queue.next(after())
    assert decision is not None
    assert decision.action == Action(ActionKind.TAP, 4)  # 确定 was [3] when the model saw it
    assert decision.reasoning.startswith("queued step 2/2 of the model's plan, taken without a call: tap '确定'")
    assert "same page, '12:30' visible" in decision.reasoning
    assert decision.sub_feature == "delivery time" and decision.assessment.completion_rate == 0.5
    assert queue.taken_without_call == 1
    assert queue.next(after(5, action="tap [4] 确定")) is None  # the plan is used up
    assert "All 2 actions of your queued plan were taken" in queue.take_note()


def test_a_chain_checks_each_step_against_the_screen_the_previous_one_left() -> None:
    queue = FollowUpQueue()
    started(queue, follow_up(CONFIRM), follow_up("商品", PageExpectation.OTHER, visible="返回"))
    assert queue.next(after()) is not None
    third = queue.next(after(5, OTHER, action="tap [4] 确定"))
    assert third is not None and third.action == Action(ActionKind.TAP, 2)
    assert third.reasoning.startswith("queued step 3/3")


WARNING = GuardVerdict(VerdictKind.WARN, "same state 3 steps in a row", "evidence", Escape.BACK)


@pytest.mark.parametrize(
    ("ctx", "why"),
    [
        (after(warning=WARNING), "the loop guard warned: same state 3 steps in a row"),
        (after(kind=OutcomeKind.DENIED, denial="payment"), "was denied (payment)"),
        (after(kind=OutcomeKind.FAILED), "failed"),
        (after(kind=OutcomeKind.NO_CHANGE), "changed nothing"),
        (after(screen=OTHER), "expected same page after tap [2] 预约送餐, but it is another page"),
        (after(kind=OutcomeKind.NEW_STATE, screen=OTHER), "but it is another page"),
        (after(action="back"), "the explorer took another action (back: moved to a known page)"),
        (after(step=5), "the explorer took another action"),
        (after(screen=screen_of(button("尽快送达", 0), button(SCHEDULE, 1), activity=".ListActivity")),
         "no single element labelled '确定' on this screen"),
        (after(screen=screen_of(button(CONFIRM, 0), button(CONFIRM, 1), activity=".ListActivity")),
         "no single element labelled '确定'"),
    ],
    ids=["warning", "denied", "failed", "no-change", "other-page", "new-page-surprise", "escape-taken",
         "step-skipped", "label-gone", "label-ambiguous"],
)
def test_a_surprise_drops_the_queue_and_says_why(ctx: StepContext, why: str) -> None:
    queue = FollowUpQueue()
    started(queue, follow_up(), follow_up("商品"))
    assert queue.next(ctx) is None
    note = queue.take_note()
    assert note.startswith("Your queued plan stopped before step 2/3 (tap '确定'): ") and why in note
    assert queue.next(after()) is None  # the rest of the plan is gone too
    assert queue.taken_without_call == 0


def test_expectations_of_another_page_and_a_visible_text() -> None:
    queue = FollowUpQueue()
    started(queue, follow_up("商品", PageExpectation.OTHER))
    assert queue.next(after(screen=DIALOG_LATER)) is None
    assert "expected another page after tap [2] 预约送餐, but it is the same page" in queue.take_note()

    started(queue, follow_up(CONFIRM, visible="13:30"))
    assert queue.next(after()) is None
    assert "'13:30' is not on the screen" in queue.take_note()


def test_no_queue_after_done_or_a_completed_sub_feature() -> None:
    queue = FollowUpQueue()
    ctx = synthetic.context(3, screen=DIALOG)
    done = Decision(None, "explored")
    assert queue.start(done, (follow_up(),), ctx) is done
    complete = Decision(Action(ActionKind.BACK), "leave", assessment=Assessment(is_completed=True))
    assert queue.start(complete, (follow_up(),), ctx) is complete
    assert queue.next(after(action="back")) is None and queue.take_note() == ""


def test_labels_are_found_exactly_first_then_as_the_only_one_containing_them() -> None:
    screen = screen_of(button("巨无霸 ¥25.1", 0), button("巨无霸套餐", 1), button("麦香鱼 ¥18.0", 2))
    assert find_label(screen, "麦香鱼").number == 3  # type: ignore[union-attr]
    assert find_label(screen, "巨无霸套餐").number == 2  # type: ignore[union-attr]
    assert find_label(screen, "巨无霸") is None  # two contain it: ambiguous
    assert find_label(screen, "可乐") is None


# -- through the brain and the SDK ----------------------------------------------------------------------


def test_the_brain_takes_queued_actions_without_calling(api: FakeMessagesAPI, brain: ClaudeBrain) -> None:
    api.push(tool_reply("next_action", answers.action(
        "tap", 2, then=[answers.follow_up(CONFIRM, visible="12:30")])))
    dialog = synthetic.context(3, screen=DIALOG)
    first = brain.decide(dialog)
    second = brain.decide(after())
    assert (first.action, second.action) == (Action(ActionKind.TAP, 2), Action(ActionKind.TAP, 4))
    assert len(api.bodies) == 1 and brain.usage().calls == 1 and brain.queued_actions_taken == 1

    api.push(tool_reply("next_action", answers.action("back", None)))
    brain.decide(after(5, OTHER, action="tap [4] 确定"))
    assert "All 2 actions of your queued plan were taken" in user_text(api.bodies[1])


def test_a_dropped_queue_is_explained_in_the_next_prompt(api: FakeMessagesAPI, brain: ClaudeBrain) -> None:
    api.push(tool_reply("next_action", answers.action("tap", 2, then=[answers.follow_up(CONFIRM)])),
             tool_reply("next_action", answers.action("back", None)))
    brain.decide(synthetic.context(3, screen=DIALOG))
    assert brain.decide(after(kind=OutcomeKind.NO_CHANGE)).action == Action(ActionKind.BACK)
    text = user_text(api.bodies[1])
    assert "Your queued plan stopped before step 2/2 (tap '确定'): tap [2] 预约送餐 changed nothing" in text


def test_the_queue_is_cut_to_its_setting_and_can_be_turned_off(api: FakeMessagesAPI) -> None:
    many = [answers.follow_up(CONFIRM)] * 5
    for limit in (2, 0):
        brain = brain_on(api, replace(FAST, max_queued_actions=limit))
        api.push(tool_reply("next_action", answers.action("tap", 2, then=many)))
        decision = brain.decide(synthetic.context(3, screen=DIALOG))
        assert (f"step 1/{limit + 1} of the model's plan" in decision.reasoning) is (limit > 0)
        description = api.bodies[-1]["tools"][1]["input_schema"]["properties"]["then"]["description"]
        assert description.startswith(f"At most {limit} actions" if limit else "Leave empty")


def test_a_bad_follow_up_gets_the_corrective_retry(api: FakeMessagesAPI, brain: ClaudeBrain) -> None:
    bad = answers.follow_up(label=None)
    api.push(tool_reply("next_action", answers.action("tap", 2, then=[bad])),
             tool_reply("next_action", answers.action("tap", 2)))
    assert brain.decide(synthetic.context(3, screen=DIALOG)).action == Action(ActionKind.TAP, 2)
    assert "then[0]: tap needs the label of the element to act on" in user_text(api.bodies[1])


def test_every_call_still_sends_one_identical_tools_array() -> None:
    assert tools_param("5m", 3) == tools_param("5m", 3)
    follow_up_schema = tools_param("5m", 3)[1]["input_schema"]["properties"]["then"]["items"]
    assert follow_up_schema["additionalProperties"] is False
    assert set(follow_up_schema["required"]) == set(follow_up_schema["properties"])


# -- a whole feature on the virtual food app: three actions, one next_action call -------------------------


class Steps:
    """A step sink: the step records as the report would get them."""

    def __init__(self) -> None:
        self.records: list[StepRecord] = []

    def start(self, target: Target, plan: object) -> None:
        pass

    def step(self, record: StepRecord) -> None:
        self.records.append(record)

    def finish(self, result: object) -> None:
        pass


def _explore(api: FakeMessagesAPI, brain: ClaudeBrain, steps: Steps | None = None) -> Any:
    target = Target(app_name="麦当劳", package="com.mcdonalds.gma.cn", feature="delivery time",
                    goal="choose 预约送餐 in the delivery-time dialog and confirm", max_steps=10)
    mission = Mission(done_when=(Oracle(kind=OracleKind.VISIBLE, value="送达时间：预约送餐"),
                                 Oracle(kind=OracleKind.NOT_VISIBLE, value=DIALOG_TITLE)))
    sinks = [steps] if steps is not None else []
    return Explorer(VirtualDevice(FOOD, latency=False), brain, sinks=sinks).explore(target, mission)


def test_a_foreseen_dialog_costs_one_call_for_three_actions(api: FakeMessagesAPI) -> None:
    api.responder = answers.scripted_model([answers.action("tap", 4, why="open 麦乐送", then=[
        answers.follow_up(SCHEDULE, page="another page", visible=DIALOG_TITLE),
        answers.follow_up(CONFIRM, page="same page", visible="12:30"),
    ])])
    brain = brain_on(api, ClaudeSettings(timeout_seconds=5.0, max_retries=0))
    steps = Steps()
    result = _explore(api, brain, steps)

    assert result.verdict is Verdict.PASSED, result.reason
    stages = [stage_of(body) for body in api.bodies]
    assert stages == ["plan", "next_action", "judge", "summarize"]
    assert result.steps == 3 and brain.queued_actions_taken == 2
    assert [s.action for s in steps.records] == ["tap [4] 麦乐送", "tap [2] 预约送餐", "tap [6] 确定"]
    assert steps.records[2].reasoning.startswith("queued step 3/3 of the model's plan")


def test_an_unforeseen_screen_goes_back_to_the_model(api: FakeMessagesAPI) -> None:
    # The model thinks [5] opens the dialog; it opens the pickup store list instead.
    api.responder = answers.scripted_model([
        answers.action("tap", 5, then=[answers.follow_up(SCHEDULE, page="another page", visible=DIALOG_TITLE)]),
        answers.action("done", None),
    ])
    brain = brain_on(api, ClaudeSettings(timeout_seconds=5.0, max_retries=0))
    _explore(api, brain)
    stages = [stage_of(body) for body in api.bodies]
    assert stages[:3] == ["plan", "next_action", "next_action"] and brain.queued_actions_taken == 0
    assert f"'{DIALOG_TITLE}' is not on the screen" in user_text(api.bodies[2])
