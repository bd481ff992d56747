"""The bounded message: the run memory and the step message do not grow with the step count."""

from __future__ import annotations

import re
from importlib import resources

import pytest

from pytest_fairy.brain.context import ContextLimits, MessageBuilder, cut
from pytest_fairy.brain.memory import RunMemory
from pytest_fairy.explore.decisions import Assessment, Decision, Outcome, OutcomeKind
from tests.claude import answers, synthetic
from tests.claude.conftest import brain_on
from tests.claude.fake_api import FakeMessagesAPI, tool_reply

LIMITS = ContextLimits(recent_k=5, max_milestones=4)


def text_of(blocks: list[dict]) -> str:
    return "\n".join(b["text"] for b in blocks if b["type"] == "text")


def test_the_memory_keeps_the_last_k_transitions_and_milestones() -> None:
    memory = RunMemory(LIMITS)
    for ctx in synthetic.run(300):
        memory.observe(ctx)
        memory.decided(Decision(None, "", sub_feature=f"part {ctx.step % 9}",
                                assessment=Assessment(is_completed=ctx.step % 4 == 0)), ctx.step)
    assert len(memory.transitions) == 5 and memory.transitions[-1].step == 299
    assert len(memory.milestones) == LIMITS.max_milestones + LIMITS.recent_k  # bounded
    shown = memory.milestones_text().splitlines()
    assert len(shown) == 1 + LIMITS.max_milestones
    told = sum(1 for line in memory.transitions_text().splitlines() if "-> new page" in line)
    hidden = memory.milestone_count - LIMITS.max_milestones - told
    assert shown[0] == f"({hidden} earlier milestones not shown)"
    assert len(memory.completed) <= LIMITS.max_milestones
    assert "299 steps taken" in memory.progress(300)


def test_a_step_seen_by_judge_and_decide_counts_once() -> None:
    memory = RunMemory(LIMITS)
    ctx = synthetic.context(3, last=Outcome("tap [2] 分类", OutcomeKind.NEW_STATE, "x"))
    memory.observe(ctx)
    memory.observe(ctx)
    assert len(memory.transitions) == 1 and memory.counts[OutcomeKind.NEW_STATE] == 1


@pytest.mark.parametrize("late", [50, 500])
def test_the_step_message_does_not_grow_with_the_step_count(late: int) -> None:
    builder, memory = MessageBuilder(LIMITS), RunMemory(LIMITS)
    sizes = {}
    for ctx in synthetic.run(late):
        memory.observe(ctx)
        sizes[ctx.step] = len(text_of(builder.step(ctx, memory)))
    # It fills up while the memory and the guard's window fill (K transitions, M milestones), then stays.
    assert sizes[late] < 1.5 * sizes[5]
    settled = [sizes[step] for step in range(late // 2, late + 1)]
    assert max(settled) - min(settled) < 0.1 * max(settled)


def test_huge_inputs_are_cut_to_their_limits() -> None:
    limits = ContextLimits(max_screen_chars=500, max_section_chars=300)
    ctx = synthetic.context(2)
    ctx = type(ctx)(**{**{f: getattr(ctx, f) for f in ctx.__slots__}, "tree_summary": "tree " * 10_000,
                       "loop_facts": "state " * 10_000})
    text = text_of(MessageBuilder(limits).step(ctx, RunMemory(limits)))
    assert len(text) < 8000 and text.count("[... cut]") == 2
    assert cut("abcdef", 100) == "abcdef"


def test_every_template_renders_without_leftover_placeholders() -> None:
    names = [p.name.removesuffix(".md") for p in resources.files("pytest_fairy").joinpath("prompts").iterdir()
             if p.name.endswith(".md")]
    assert {"system", "plan", "step", "judge", "summary"} <= set(names)
    builder, memory = MessageBuilder(LIMITS), RunMemory(LIMITS)
    ctx = synthetic.context(4, last=Outcome("back", OutcomeKind.NO_CHANGE))
    texts = [builder.system(None)[0]["text"], text_of(builder.plan(synthetic.TARGET, synthetic.page(1))),
             text_of(builder.step(ctx, memory)), text_of(builder.judge(ctx, memory)),
             text_of(builder.summary(synthetic.TARGET, "story", memory))]
    for text in texts:
        assert not re.search(r"\$\{?[a-z_]+", text), text


def test_usage_is_accounted_from_each_response(api: FakeMessagesAPI) -> None:
    brain = brain_on(api)
    usage = {"input_tokens": 1200, "output_tokens": 90, "cache_creation_input_tokens": 2500,
             "cache_read_input_tokens": 0}
    api.push(tool_reply("next_action", answers.action(), usage=usage),
             tool_reply("next_action", answers.action(), usage={**usage, "cache_creation_input_tokens": 0,
                                                               "cache_read_input_tokens": 2500}))
    brain.decide(synthetic.context(1))
    brain.decide(synthetic.context(2))
    total = brain.usage()
    assert (total.calls, total.input_tokens, total.cache_write_tokens, total.cache_read_tokens,
            total.output_tokens) == (2, 2400, 2500, 2500, 180)
    expected = (2400 * 2.0 + 2500 * 2.5 + 2500 * 0.2 + 180 * 10.0) / 1e6
    assert total.cost_usd == pytest.approx(expected)
