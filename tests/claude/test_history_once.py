"""The step prompt tells the past once: the path walked is the brain's recent steps (with how often each
page was visited), the loop guard adds only what it counts, milestones skip what a recent step already
says, the plan carries each sub-feature's status, and the last action's outcome sits beside what the
model expected of it."""

from __future__ import annotations

import re

from pytest_fairy.brain.context import ContextLimits, MessageBuilder
from pytest_fairy.brain.memory import RunMemory
from pytest_fairy.explore.action import Action, ActionKind
from pytest_fairy.explore.decisions import Assessment, Decision, Origin, Outcome, OutcomeKind
from pytest_fairy.explore.explorer import ESCAPE_PREFIX, RETURN_PREFIX
from tests.claude import synthetic
from tests.claude.test_round_trips import user_text

LIMITS = ContextLimits(recent_k=6, max_milestones=8)


def step_texts(steps: int) -> list[str]:
    memory, builder = RunMemory(LIMITS), MessageBuilder(LIMITS)
    texts = []
    for ctx in synthetic.run(steps):
        memory.observe(ctx)
        texts.append(user_text({"messages": [{"role": "user", "content": builder.step(ctx, memory)}]}))
    return texts


def section(text: str, title: str) -> str:
    return text.split(title + "\n", 1)[1].split("\n\n", 1)[0]


def test_the_path_walked_appears_once_with_visit_counts() -> None:
    text = step_texts(20)[-1]
    assert "Recent states" not in text and "Recent path" not in text
    recent = [line for line in section(text, "Recent steps (oldest first):").splitlines() if line.startswith("- ")]
    assert [int(re.match(r"- step (\d+):", line).group(1)) for line in recent] == list(range(14, 20))  # type: ignore[union-attr]
    # The synthetic walk comes back to its dozen pages: a return is counted, a first visit is not.
    assert any(re.search(r"\[visit [2-9]\]$", line) for line in recent)
    assert all("[visit 1]" not in line for line in recent)
    for line in recent:
        assert text.count(line[2:]) == 1, f"told twice: {line}"


def test_a_milestone_a_recent_step_already_tells_is_left_out_and_older_ones_stay() -> None:
    texts = step_texts(20)
    # Step 13 found a new page: while step 13 is a recent step, no milestone repeats it.
    assert "- step 13: found new page" not in texts[15] and re.search(r"- step 13: .* -> new page", texts[15])
    # By step 20 it has left the recent steps: its milestone keeps it known, beside the older ones.
    earlier = section(texts[-1], "Earlier milestones:").splitlines()
    assert earlier[0] == "(4 earlier milestones not shown)" and len(earlier) == 1 + LIMITS.max_milestones
    assert earlier[-1].startswith("- step 13: found new page")


def test_the_last_outcome_is_shown_beside_what_the_model_expected() -> None:
    memory, builder = RunMemory(LIMITS), MessageBuilder(LIMITS)
    memory.observe(synthetic.context(1))
    memory.decided(Decision(Action(ActionKind.TAP, 3), "open it", expected="the delivery menu opens"), 1)
    ctx = synthetic.context(2, last=Outcome("tap [3] 麦乐送", OutcomeKind.NO_CHANGE))
    memory.observe(ctx)
    text = user_text({"messages": [{"role": "user", "content": builder.step(ctx, memory)}]})
    happened = section(text, "## What the last action did")
    assert happened == "tap [3] 麦乐送: no change\nYou expected: the delivery menu opens"
    # An escape the brain did not choose expected nothing: the old expectation is not carried over.
    memory.witnessed(Decision(Action(ActionKind.BACK), f"{ESCAPE_PREFIX}: oscillating", origin=Origin.ESCAPE), 2)
    memory.observe(synthetic.context(3, last=Outcome("back", OutcomeKind.STATE_CHANGED)))
    assert memory.expectation() == ""


def test_the_plan_shows_each_sub_feature_as_done_claimed_current_or_to_do() -> None:
    memory, builder = RunMemory(LIMITS), MessageBuilder(LIMITS)
    memory.observe(synthetic.context(1))
    finished = Assessment(is_completed=True, completion_rate=1.0)
    memory.decided(Decision(Action(ActionKind.TAP, 2), "seen", sub_feature="menu browsing", assessment=finished), 1)
    memory.witnessed(Decision(Action(ActionKind.BACK), f"{RETURN_PREFIX}: 'menu browsing' is complete",
                              sub_feature="menu browsing", origin=Origin.RETURN), 1)
    memory.observe(synthetic.context(2, last=Outcome("back", OutcomeKind.STATE_CHANGED)))
    memory.decided(Decision(Action(ActionKind.TAP, 4), "both options seen", sub_feature="product options",
                            assessment=finished), 2)
    memory.decided(Decision(Action(ActionKind.TAP, 1), "next", sub_feature="delivery time",
                            assessment=Assessment(completion_rate=0.3)), 2)
    ctx = synthetic.context(3, last=Outcome("tap [1] 返回", OutcomeKind.STATE_CHANGED))
    memory.observe(ctx)
    text = user_text({"messages": [{"role": "user", "content": builder.step(ctx, memory)}]})
    plan = text.split("- Sub-features: \n", 1)[1].split("\n- Steps:", 1)[0]
    assert plan.splitlines() == [
        "  - menu browsing (done: the judge confirmed it at step 1)",
        "  - product options (you called it complete, the judge has not agreed)",
        "  - delivery time (working on it, 30% explored)",
    ]
    # The progress counts do not repeat the sub-features the plan shows.
    assert "Sub-features the judge confirmed complete" not in text
