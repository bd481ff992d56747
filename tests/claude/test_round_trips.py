"""Plan / decide / judge / summarize through the real SDK against the fake API: what is sent, what returns."""

from __future__ import annotations

import base64
import io
import json

import pytest
from PIL import Image

from pytest_fairy.brain.claude import ClaudeBrain, ClaudeSettings
from pytest_fairy.brain.tools import Stage
from pytest_fairy.explore.action import Action, ActionKind, Direction
from pytest_fairy.explore.decisions import Brain, Outcome, OutcomeKind
from pytest_fairy.explore.guard import Escape, GuardVerdict, VerdictKind
from tests.claude import answers, synthetic
from tests.claude.conftest import FAST, brain_on
from tests.claude.fake_api import FakeMessagesAPI, tool_reply
from tests.claude.stages import stage_of


def user_blocks(body: dict) -> list[dict]:
    (message,) = body["messages"]
    assert message["role"] == "user"
    return message["content"]


def user_text(body: dict) -> str:
    return "\n".join(b["text"] for b in user_blocks(body) if b["type"] == "text")


def image_sizes(body: dict) -> list[tuple[int, int]]:
    images = [b for b in user_blocks(body) if b["type"] == "image"]
    return [Image.open(io.BytesIO(base64.b64decode(b["source"]["data"]))).size for b in images]


def test_the_brain_is_a_brain(brain: ClaudeBrain) -> None:
    assert isinstance(brain, Brain)
    assert brain.name == "claude" and brain.model == "claude-sonnet-5"


def test_plan_round_trip(api: FakeMessagesAPI, brain: ClaudeBrain) -> None:
    api.push(tool_reply("plan", answers.PLAN))
    plan = brain.plan(synthetic.TARGET, synthetic.page(1), som_jpeg=synthetic.jpeg())

    assert plan.root == "delivery ordering"
    assert plan.sub_features == ("menu browsing", "delivery time")
    assert plan.steps == ("tap [3] 麦乐送 -> the delivery menu", "tap a product")
    body = api.bodies[0]
    assert body["model"] == "claude-sonnet-5"
    assert body["tool_choice"] == {"type": "tool", "name": "plan", "disable_parallel_tool_use": True}
    assert body["thinking"] == {"type": "disabled"}
    assert [t["name"] for t in body["tools"]] == [s.value for s in Stage]
    assert all(t["strict"] is True for t in body["tools"])
    text = user_text(body)
    for expected in ("麦当劳", "com.example.app", "delivery ordering", "home screen", "麦乐送", "购物车"):
        assert expected in text
    assert image_sizes(body) == [(360, 800)]


def test_cache_breakpoints_sit_after_the_tools_and_the_system_prompt(api: FakeMessagesAPI) -> None:
    brain = brain_on(api)
    api.push(tool_reply("plan", answers.PLAN))
    brain.plan(synthetic.TARGET, synthetic.page(1))
    body = api.bodies[0]
    assert [("cache_control" in t) for t in body["tools"]] == [False, False, False, True]
    assert body["tools"][-1]["cache_control"] == {"type": "ephemeral"}
    (system,) = body["system"]
    assert system["cache_control"] == {"type": "ephemeral"}
    assert "mark" in system["text"]
    assert not any("cache_control" in b for b in user_blocks(body))


def test_one_hour_cache_ttl_is_sent_on_both_breakpoints(api: FakeMessagesAPI) -> None:
    brain = brain_on(api, ClaudeSettings(cache_ttl="1h"))
    api.push(tool_reply("plan", answers.PLAN))
    brain.plan(synthetic.TARGET, synthetic.page(1))
    body = api.bodies[0]
    assert body["tools"][-1]["cache_control"] == body["system"][0]["cache_control"] == {
        "type": "ephemeral", "ttl": "1h"}


def test_decide_round_trip(api: FakeMessagesAPI, brain: ClaudeBrain) -> None:
    api.push(tool_reply("next_action", answers.action("tap", 2)))
    ctx = synthetic.context(4, last=Outcome("tap [1] 返回", OutcomeKind.NO_CHANGE))
    decision = brain.decide(ctx)

    assert decision.action == Action(ActionKind.TAP, 2)
    assert decision.expected == "its products are listed"
    assert decision.sub_feature == "menu browsing"
    assert decision.assessment.completion_rate == pytest.approx(0.7)
    assert decision.assessment.next_action_type == "continue_current"
    body = api.bodies[0]
    assert stage_of(body) == "next_action"
    blocks = user_blocks(body)
    assert blocks[0]["type"] == "image" and blocks[0]["source"]["media_type"] == "image/jpeg"
    text = user_text(body)
    assert ctx.screen.text.strip() in text
    assert "[1]..[5]" in text
    assert "tap [1] 返回: no change" in text
    # The path is told once, by the brain's memory: the guard's copy of it is not repeated.
    assert ctx.state.name in text and "Recent states" not in text
    assert "Loop guard" not in text


def test_the_guard_warning_is_in_the_step_message(api: FakeMessagesAPI, brain: ClaudeBrain) -> None:
    warning = GuardVerdict(VerdictKind.WARN, "same state 3 steps in a row",
                           "state_page1 x3: toggling 预约送餐 / 尽快送达", Escape.BACK)
    api.push(tool_reply("next_action", answers.action("back", None)))
    decision = brain.decide(synthetic.context(7, warning=warning))
    assert decision.action == Action(ActionKind.BACK)
    text = user_text(api.bodies[0])
    assert "Loop guard: warn" in text
    assert "same state 3 steps in a row" in text and "toggling 预约送餐 / 尽快送达" in text


def test_a_denial_and_the_immediate_screenshot_are_shown(api: FakeMessagesAPI, brain: ClaudeBrain) -> None:
    api.push(tool_reply("next_action", answers.action("scroll", None, direction="down")))
    ctx = synthetic.context(3, last=Outcome("tap [5] 支付", OutcomeKind.DENIED, "payment"),
                            immediate=synthetic.jpeg(360, 800, "red"))
    ctx = type(ctx)(**{**{f: getattr(ctx, f) for f in ctx.__slots__}, "denial": "payment is not allowed"})
    decision = brain.decide(ctx)
    assert decision.action == Action(ActionKind.SCROLL, direction=Direction.DOWN)
    body = api.bodies[0]
    first, second = [b for b in user_blocks(body) if b["type"] == "image"]
    pixel = Image.open(io.BytesIO(base64.b64decode(first["source"]["data"]))).convert("RGB").getpixel((5, 5))
    assert isinstance(pixel, tuple) and pixel[0] > 200 and pixel[1] < 60  # the immediate one comes first
    text = user_text(body)
    assert "Denied by policy: payment is not allowed" in text
    assert "Two screenshots are attached" in text


def test_a_large_screenshot_is_downscaled_to_the_long_edge(api: FakeMessagesAPI) -> None:
    brain = brain_on(api, ClaudeSettings(image_long_edge=512))
    api.push(tool_reply("next_action", answers.action()))
    brain.decide(synthetic.context(2, som=synthetic.jpeg(1080, 2400)))
    assert image_sizes(api.bodies[0]) == [(230, 512)]


def test_done_ends_the_feature(api: FakeMessagesAPI, brain: ClaudeBrain) -> None:
    api.push(tool_reply("next_action", answers.action("done", None)))
    decision = brain.decide(synthetic.context(9))
    assert decision.finished and decision.action is None


def test_judge_round_trip(api: FakeMessagesAPI, brain: ClaudeBrain) -> None:
    api.push(tool_reply("judge", answers.JUDGE))
    judgement = brain.judge(synthetic.context(12, unmet=(), oracles_met=True))
    assert judgement.complete and judgement.reason == "the cart shows the product"
    body = api.bodies[0]
    assert stage_of(body) == "judge"
    assert "all done-when conditions hold" in user_text(body)
    assert image_sizes(body) == [(360, 800)]


def test_a_failing_judgement_carries_its_findings(api: FakeMessagesAPI, brain: ClaudeBrain) -> None:
    finding = {"kind": "functional", "message": "加入购物车 does nothing", "evidence": "step 8: no change"}
    api.push(tool_reply("judge", {**answers.JUDGE, "verdict": "fail", "feature_completed": False,
                                  "findings": [finding]}))
    judgement = brain.judge(synthetic.context(12))
    assert not judgement.complete
    assert [(f.kind, f.message, f.evidence) for f in judgement.findings] == [
        ("functional", "加入购物车 does nothing", "step 8: no change")]


def test_summarize_round_trip(api: FakeMessagesAPI, brain: ClaudeBrain) -> None:
    api.push(tool_reply("summarize", {**answers.SUMMARY, "issues": ["the cart badge lags"]}))
    summary = brain.summarize(synthetic.TARGET, "Verdict: passed - the cart shows the product\n12 steps")
    assert summary.startswith("Explored delivery ordering")
    assert "- added a product to the cart" in summary and "- the cart badge lags" in summary
    body = api.bodies[0]
    assert stage_of(body) == "summarize"
    assert body["max_tokens"] == FAST.summary_max_tokens
    assert "Verdict: passed" in user_text(body)
    assert image_sizes(body) == []


def test_every_stage_sends_the_same_tools_and_system_prompt(api: FakeMessagesAPI, brain: ClaudeBrain) -> None:
    api.push(tool_reply("plan", answers.PLAN), tool_reply("next_action", answers.action()),
             tool_reply("judge", answers.JUDGE), tool_reply("summarize", answers.SUMMARY))
    brain.plan(synthetic.TARGET, synthetic.page(1))
    brain.decide(synthetic.context(1))
    brain.judge(synthetic.context(2))
    brain.summarize(synthetic.TARGET, "done")

    bodies = api.bodies
    assert [stage_of(b) for b in bodies] == ["plan", "next_action", "judge", "summarize"]
    prefixes = {json.dumps([b["tools"], b["system"]], sort_keys=True) for b in bodies}
    assert len(prefixes) == 1
    # The fake bills the identical prefix as a cache write once, then as reads.
    usages = [r.usage for r in api.requests]
    assert usages[0]["cache_creation_input_tokens"] > 0 and usages[0]["cache_read_input_tokens"] == 0
    assert all(u["cache_read_input_tokens"] == usages[0]["cache_creation_input_tokens"] for u in usages[1:])


def test_each_call_is_a_single_turn_that_does_not_grow(api: FakeMessagesAPI) -> None:
    brain = brain_on(api, ClaudeSettings(recent_k=4))
    api.responder = lambda request: tool_reply("next_action", answers.action("tap", 3))
    sizes = {}
    for ctx in synthetic.run(60):
        brain.decide(ctx)
        sizes[ctx.step] = len(api.requests[-1].raw)
    assert all(len(body["messages"]) == 1 for body in api.bodies)
    assert abs(sizes[40] - sizes[3]) < 0.15 * sizes[3]
    assert abs(sizes[60] - sizes[40]) < 0.05 * sizes[40]
