"""Steps the Claude brain did not decide - the explorer's loop-guard escapes and return steps - still
reach its run memory (`witness`): the next prompt's last transitions and counts cover every step, the
witnessed ones marked with why they were taken, and a plan the model queued is dropped at them."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from fairy_virtual import VirtualDevice
from fairy_virtual.clock import ManualClock
from pytest_fairy.brain.context import ContextLimits
from pytest_fairy.brain.follow_ups import DropReason
from pytest_fairy.brain.memory import RunMemory
from pytest_fairy.explore.action import Action, ActionKind
from pytest_fairy.explore.decisions import Assessment, Decision, Origin, Outcome, OutcomeKind, Plan, Witness
from pytest_fairy.explore.explorer import ESCAPE_PREFIX, RETURN_PREFIX, Explorer
from pytest_fairy.explore.mission import Mission
from pytest_fairy.explore.target import Target
from tests.claude import answers, synthetic
from tests.claude.conftest import brain_on
from tests.claude.fake_api import FakeMessagesAPI, Reply, tool_reply
from tests.claude.stages import stage_of
from tests.claude.test_follow_ups import CONFIRM, DIALOG, DIALOG_LATER, SCHEDULE, Steps
from tests.claude.test_round_trips import user_text

FOOD = Path(__file__).resolve().parents[2] / "example_suites" / "food"
DIALOG_TITLE = "请选择您的送达时间"
TOGGLES = ("预约送餐", "尽快送达")

# -- what a prompt says about the past --------------------------------------------------------------


def step_of(text: str) -> int:
    found = re.search(r"^# Step (\d+) of", text, re.MULTILINE)
    assert found, text[:200]
    return int(found.group(1))


def transitions(text: str) -> list[str]:
    section = text.split("Recent steps (oldest first):\n", 1)[1].split("\n\n## ", 1)[0]
    return [line for line in section.splitlines() if line.startswith("- step ")]


def transition_steps(text: str) -> list[int]:
    return [int(re.match(r"- step (\d+):", line).group(1)) for line in transitions(text)]  # type: ignore[union-attr]


def counted(text: str) -> tuple[int, int]:
    """(steps taken, sum of the outcome counts) from the progress line."""
    found = re.search(
        r"(\d+) steps taken: \d+ new pages found, (\d+) actions changed something, (\d+) had no effect, "
        r"(\d+) failed, (\d+) were denied", text)
    assert found, text
    taken, *kinds = (int(g) for g in found.groups())
    return taken, sum(kinds)


# -- a loop the guard breaks, through the real explorer, SDK and fake API ------------------------------


class Toggler:
    """Opens 麦乐送, then taps whichever delivery option is not checked, warnings or not;
    once the guard's escape has closed the dialog, it is done."""

    def __call__(self, request: dict[str, Any]) -> Reply:
        stage = stage_of(request)
        if stage != "next_action":
            fixed = {"plan": answers.PLAN, "judge": answers.JUDGE, "summarize": answers.SUMMARY}
            return tool_reply(stage, fixed[stage])
        screen = user_text(request).rsplit("## The current screen", 1)[-1]
        for label in ("麦乐送", *TOGGLES):
            suffix = "" if label == "麦乐送" else " unchecked"
            found = re.search(r"^\s*\[(\d+)\] \w+ \"" + re.escape(label) + '"' + suffix, screen, re.MULTILINE)
            if found and (label != "麦乐送" or DIALOG_TITLE not in screen):
                return tool_reply("next_action", answers.action(
                    mark=int(found.group(1)), why=f"see what {label} does", sub_feature="delivery time"))
        return tool_reply("next_action", answers.action("done", None))


def test_the_prompt_after_a_loop_guard_escape_shows_it_and_the_step_before(api: FakeMessagesAPI) -> None:
    api.responder = Toggler()
    brain = brain_on(api)
    steps = Steps()
    target = Target(app_name="麦当劳", package="com.mcdonalds.gma.cn", feature="delivery time",
                    goal="选择送达时间", max_steps=14)
    device = VirtualDevice(FOOD, latency=False, clock=ManualClock())
    result = Explorer(device, brain, sinks=[steps]).explore(target, Mission())

    escapes = [r.step for r in steps.records if r.escape]
    assert escapes and result.escapes == len(escapes), [r.guard for r in steps.records]
    escape = escapes[0]
    prompts = {step_of(t): t for t in (user_text(b) for b in api.bodies if stage_of(b) == "next_action")}
    assert escape not in prompts, "the brain was asked at the escape step"
    after = prompts[escape + 1]

    # Every step up to the escape, the escape's own and the one before it included, oldest first.
    recent_k = brain.settings.recent_k
    assert transition_steps(after) == list(range(escape - recent_k + 1, escape + 1))
    lines = transitions(after)
    assert f"[{ESCAPE_PREFIX}: " in lines[-1] and lines[-1].endswith("close the dialog via '确定']")
    taken = steps.records[escape - 1].action
    assert taken is not None and taken in lines[-1]
    assert "[" + ESCAPE_PREFIX not in "".join(lines[:-1]), "only the escape is marked as not the model's"

    # The counts cover every step taken, in every prompt of the run.
    for step, text in prompts.items():
        assert counted(text) == (step - 1, step - 1), step
    assert len(steps.records) == result.steps


# -- the memory on its own ------------------------------------------------------------------------------

ESCAPE = Decision(Action(ActionKind.BACK), f"{ESCAPE_PREFIX}: same state 4 steps in a row; go back")


def moved(step: int, action: str = "tap [2] 麦乐送") -> Any:
    return synthetic.context(step, last=Outcome(action, OutcomeKind.STATE_CHANGED, "state_page1"))


def test_a_witnessed_step_is_counted_once_and_marked_on_its_own_transition() -> None:
    memory = RunMemory(ContextLimits(recent_k=3))
    memory.observe(synthetic.context(1))
    memory.decided(Decision(Action(ActionKind.TAP, 2), "open it", sub_feature="menu browsing"), 1)
    memory.observe(moved(2))
    memory.witnessed(ESCAPE, 2)
    memory.observe(moved(3, "back"))
    assert memory.transitions_text().splitlines() == [
        "- step 1: tap [2] 麦乐送 -> moved to a known page -> 返回 (state_page1_00000001)",
        f"- step 2: back -> moved to a known page -> 返回 (state_page1_00000001) [{ESCAPE.reasoning}]",
    ]
    assert memory.progress(3).startswith("2 steps taken: 0 new pages found, 2 actions changed something")
    assert memory.current == "menu browsing", "an escape has no sub-feature: the brain's own one stays"


def test_a_return_step_after_the_brains_own_decision_counts_once() -> None:
    """The explorer replaces a decision whose sub-feature the judge found complete: decide, then witness."""
    memory = RunMemory(ContextLimits())
    memory.observe(synthetic.context(1))
    ctx = moved(2)
    memory.observe(ctx)
    done = Assessment(is_completed=True, completion_rate=1.0)
    memory.decided(Decision(Action(ActionKind.TAP, 3), "both seen", sub_feature="delivery time", assessment=done), 2)
    # Before the judge answers, the brain's claim is shown as its own, never as a fact.
    assert memory.milestones_text().endswith("you called sub-feature 'delivery time' complete (the judge has not agreed)")
    assert "Sub-features the judge confirmed complete: (none)" in memory.progress(2)
    memory.observe(ctx)  # the judge at the same step
    memory.witnessed(Decision(Action(ActionKind.BACK), f"{RETURN_PREFIX}: 'delivery time' is complete; go back",
                              sub_feature="delivery time", origin=Origin.RETURN), 2)
    memory.observe(moved(3, "back"))
    assert memory.progress(3).startswith("2 steps taken")
    assert sum(memory.counts.values()) == 2
    assert memory.transitions_text().endswith(f"[{RETURN_PREFIX}: 'delivery time' is complete; go back]")
    assert "the judge confirmed sub-feature 'delivery time' complete" in memory.milestones_text()
    assert "Sub-features the judge confirmed complete: delivery time" in memory.progress(3)


def test_a_replayed_decision_counts_as_the_brains_own_and_its_words_are_cut_to_one_line() -> None:
    memory = RunMemory(ContextLimits(max_note_chars=40))
    memory.observe(synthetic.context(1))
    replayed = Decision(Action(ActionKind.TAP, 2), "replayed: open\nthe menu " + "because " * 20,
                        sub_feature="menu browsing", assessment=Assessment(completion_rate=0.4))
    memory.witnessed(replayed, 1)
    memory.observe(moved(2))
    (line,) = memory.transitions_text().splitlines()
    note = line.rsplit(" [", 1)[1]
    assert note == "replayed: open the menu because because…]" and len(note) == 41
    assert memory.current == "menu browsing" and memory.rate == 0.4


# Who took each step: the brain (decide), the explorer (witness), or the brain and then the explorer
# (a return step); and whether the judge looked first.
TAKERS = st.lists(st.tuples(st.sampled_from(["decide", "witness", "return"]), st.booleans()), max_size=30)


@given(TAKERS)
def test_counts_and_transitions_cover_every_step_whoever_took_it(takers: list[tuple[str, bool]]) -> None:
    memory = RunMemory(ContextLimits(recent_k=4))
    for step, (taker, judged) in enumerate(takers, 1):
        ctx = synthetic.context(step) if step == 1 else moved(step, f"action {step - 1}")
        if judged:
            memory.observe(ctx)
        memory.observe(ctx)
        decision = Decision(Action(ActionKind.BACK), f"{taker} {step}")
        if taker != "witness":
            memory.decided(decision, step)
        if taker != "decide":
            memory.witnessed(decision, step)
        assert sum(memory.counts.values()) == step - 1
        shown = memory.transitions_text().splitlines() if step > 1 else []
        assert [int(line.split()[2][:-1]) for line in shown] == list(range(max(1, step - 4), step))
        for line, (before, _) in zip(shown, takers[max(0, step - 5): step - 1], strict=True):
            assert line.endswith("]") == (before != "decide")


# -- the brain: no call for a witnessed step, a queued plan dropped, a replayed plan starts afresh ----------


def test_a_witnessed_escape_costs_no_call_and_drops_the_models_queued_plan(api: FakeMessagesAPI) -> None:
    brain = brain_on(api)
    assert isinstance(brain, Witness)
    then = [answers.follow_up(CONFIRM), answers.follow_up(CONFIRM)]
    api.push(tool_reply("next_action", answers.action(mark=2, why="choose a scheduled delivery", then=then)),
             tool_reply("next_action", answers.action(mark=1, why="try the other option")))
    brain.decide(synthetic.context(3, screen=DIALOG))
    escape = Decision(Action(ActionKind.BACK), f"{ESCAPE_PREFIX}: oscillating; go back")
    brain.witness(synthetic.context(4, screen=DIALOG_LATER, last=Outcome(f"tap [2] {SCHEDULE}",
                                                                          OutcomeKind.STATE_CHANGED)), escape)
    assert len(api.bodies) == 1
    assert brain.queue_stats.dropped == {DropReason.OTHER_ACTION: 2}

    brain.decide(synthetic.context(5, last=Outcome("back", OutcomeKind.STATE_CHANGED, "state_page1")))
    text = user_text(api.bodies[-1])
    assert ("Your queued plan stopped before step 2/3 (tap '确定'): the explorer took another action "
            f"(back: {ESCAPE_PREFIX}: oscillating; go back)") in text
    assert transitions(text)[-1].endswith(f"[{ESCAPE_PREFIX}: oscillating; go back]")
    assert counted(text) == (4, 2), "steps 1-2 were never shown to this brain; 3 and 4 were"


def test_a_replayed_plan_starts_a_fresh_memory(api: FakeMessagesAPI) -> None:
    brain = brain_on(api)
    api.push(tool_reply("next_action", answers.action(mark=2)), tool_reply("next_action", answers.action(mark=2)))
    brain.decide(moved(7))
    assert counted(user_text(api.bodies[-1]))[1] == 1
    brain.witness_plan(synthetic.TARGET, Plan(root="delivery ordering"))
    brain.decide(synthetic.context(1))
    text = user_text(api.bodies[-1])
    assert counted(text) == (0, 0) and transitions(text) == []
