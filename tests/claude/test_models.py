"""The model table decides each request's shape: every stage works on the current and the legacy models."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from pytest_fairy.brain.claude import ClaudeBrain
from pytest_fairy.brain.models import (
    DEFAULT_EFFORT,
    DEFAULT_MODEL,
    MODELS,
    RequestShape,
    Status,
    model_info,
    request_line,
    retired,
)
from pytest_fairy.brain.pricing import DEFAULT_PRICES, price_for
from pytest_fairy.brain.prompt_cache import PromptCache
from tests.claude import answers, synthetic
from tests.claude.conftest import FAST, brain_on
from tests.claude.fake_api import FakeMessagesAPI, text_reply, tool_reply
from tests.claude.stages import stage_of

CURRENT = ("claude-sonnet-5-5", "claude-opus-5-5", "claude-fable-5-1", "claude-haiku-5-5")
LEGACY = ("claude-sonnet-5", "claude-opus-5", "claude-haiku-4-5")


def test_the_default_model_is_the_current_sonnet() -> None:
    assert DEFAULT_MODEL == "claude-sonnet-5-5"
    assert MODELS[DEFAULT_MODEL].status is Status.CURRENT
    assert MODELS["claude-sonnet-5"].status is Status.LEGACY


@pytest.mark.parametrize("model", CURRENT)
def test_current_models_get_the_tool_offered_adaptive_thinking_and_an_effort(model: str) -> None:
    shape = RequestShape.of(model_info(model), None, thinking_tokens=4096)
    assert shape.tool_choice("judge") == {"type": "auto", "disable_parallel_tool_use": True}
    assert shape.options() == {"output_config": {"effort": DEFAULT_EFFORT}}  # no `thinking` key: adaptive
    assert shape.thinking_allowance == 4096
    assert RequestShape.of(model_info(model), "max", thinking_tokens=0).options()["output_config"] == {
        "effort": "max"
    }


def test_legacy_models_that_think_are_forced_with_thinking_off() -> None:
    shape = RequestShape.of(model_info("claude-sonnet-5"), None, thinking_tokens=4096)
    assert shape.tool_choice("plan") == {"type": "tool", "name": "plan", "disable_parallel_tool_use": True}
    assert shape.options() == {"thinking": {"type": "disabled"}}
    assert shape.thinking_allowance == 0
    # An effort the user asked for goes along: Sonnet 5 takes it with thinking off.
    assert RequestShape.of(model_info("claude-sonnet-5"), "low", thinking_tokens=0).options() == {
        "thinking": {"type": "disabled"},
        "output_config": {"effort": "low"},
    }


def test_opus_5_is_forced_with_thinking_off_only_where_it_may_turn_thinking_off() -> None:
    """Opus 5 accepts `thinking: disabled` at effort high or below: above, it is shaped as a current model."""
    opus = model_info("claude-opus-5")
    assert RequestShape.of(opus, "high", thinking_tokens=0).options() == {
        "thinking": {"type": "disabled"}, "output_config": {"effort": "high"}
    }
    assert RequestShape.of(opus, None, thinking_tokens=0).forced  # the API's default effort is high
    xhigh = RequestShape.of(opus, "xhigh", thinking_tokens=4096)
    assert not xhigh.forced and xhigh.options() == {"output_config": {"effort": "xhigh"}}
    assert xhigh.tool_choice("plan")["type"] == "auto" and xhigh.thinking_allowance == 4096


def test_a_retired_model_is_named_as_retired_and_one_about_to_be_says_when() -> None:
    assert retired("claude-3-7-sonnet") == (
        "claude-3-7-sonnet was retired on 2026-02-19: the API no longer serves it; current models: "
        "claude-fable-5-1, claude-opus-5-5, claude-sonnet-5-5, claude-haiku-5-5"
    )
    assert retired("claude-sonnet-4-20250514") is not None and retired("claude-sonnet-5") is None
    assert "claude-3-7-sonnet" not in MODELS
    assert request_line("claude-sonnet-4-5", None).endswith("legacy model, retires on 2026-11-30)")


def test_models_before_5_are_forced_without_a_thinking_or_effort_field() -> None:
    shape = RequestShape.of(model_info("claude-haiku-4-5"), None, thinking_tokens=4096)
    assert shape.forced and shape.options() == {}
    with pytest.raises(ValueError, match="accepted: none"):
        RequestShape.of(model_info("claude-haiku-4-5"), "high", thinking_tokens=0)


def test_a_dated_snapshot_is_its_model_and_an_unknown_id_is_shaped_as_the_current_models() -> None:
    assert model_info("claude-haiku-4-5-20251001") is MODELS["claude-haiku-4-5"]
    unknown = model_info("claude-sonnet-6")
    assert not unknown.known and unknown.price is None
    shape = RequestShape.of(unknown, None, thinking_tokens=10)
    assert not shape.forced and "thinking" not in shape.options()  # nothing a current model refuses
    assert "not in pytest_fairy's model table" in request_line("claude-sonnet-6", None)


def test_prices_come_from_the_model_table() -> None:
    assert all(DEFAULT_PRICES[m.id] == m.price for m in MODELS.values() if m.price is not None)
    assert price_for("claude-sonnet-5-5") == MODELS["claude-sonnet-5-5"].price
    sonnet = MODELS["claude-sonnet-5-5"].price
    assert sonnet is not None and (sonnet.input, sonnet.output, sonnet.cache_read) == (2.0, 10.0, 0.10)


def test_the_header_line_says_how_requests_are_shaped() -> None:
    assert request_line("claude-sonnet-5-5", None) == (
        "claude-sonnet-5-5 (effort medium, adaptive thinking, tool offered)"
    )
    assert request_line("claude-sonnet-5", None) == "claude-sonnet-5 (tool forced, thinking off, legacy model)"


def _run_every_stage(api: FakeMessagesAPI, brain: ClaudeBrain) -> None:
    """plan, a next_action that needs a correction turn, a truncated next_action, judge and summary."""
    api.push(
        tool_reply("plan", answers.PLAN),
        text_reply("I would tap the menu."),  # no tool call: corrected
        tool_reply("next_action", answers.action()),
        tool_reply("next_action", {"observation": "cut"}, stop_reason="max_tokens"),  # truncated: retried
        tool_reply("next_action", answers.action(mark=3)),
        tool_reply("judge", answers.JUDGE),
        tool_reply("summarize", answers.SUMMARY),
    )
    brain.plan(synthetic.TARGET, synthetic.page(1), som_jpeg=synthetic.jpeg())
    assert brain.decide(synthetic.context(2)).action is not None
    assert brain.decide(synthetic.context(3)).action is not None
    assert brain.judge(synthetic.context(4)).complete
    assert "Explored" in brain.summarize(synthetic.TARGET, "story")


@pytest.mark.parametrize("model", CURRENT + LEGACY)
def test_every_stage_works_on_the_model(api: FakeMessagesAPI, model: str) -> None:
    brain = brain_on(api, replace(FAST, model=model))
    _run_every_stage(api, brain)
    bodies = api.bodies
    assert [stage_of(b) for b in bodies] == [
        "plan", "next_action", "next_action", "next_action", "next_action", "judge", "summarize"
    ]
    assert {b["model"] for b in bodies} == {model}
    assert api.rejected == []  # the strict fake refuses what the model refuses
    current = MODELS[model].status is Status.CURRENT
    for body in bodies:
        assert ("thinking" in body) is (model in ("claude-sonnet-5", "claude-opus-5"))
        assert body["tool_choice"]["type"] == ("auto" if current else "tool")
        if current:
            assert body["output_config"] == {"effort": DEFAULT_EFFORT}
            assert body["max_tokens"] >= FAST.max_tokens + FAST.thinking_tokens
        else:
            assert "output_config" not in body
    # The retry after truncation has more room than the call that was cut off.
    assert bodies[4]["max_tokens"] > bodies[3]["max_tokens"]


def test_the_options_doc_lists_each_named_model_as_the_table_has_it() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "options.md").read_text(encoding="utf-8")
    rows = {m.group(1): m.group(0) for m in re.finditer(r"^\| `(claude-[\w-]+)`[^\n]*$", doc, re.MULTILINE)}
    assert set(CURRENT) <= set(rows), "every current model has a row in docs/options.md#models"
    for model_id, row in rows.items():
        model = MODELS[model_id]
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        assert cells[1] == model.status.value, row
        price = model.price
        assert price is not None
        shown = [float(x) for x in cells[2].split("/")]
        assert shown == [price.input, price.output, pytest.approx(price.cache_read)], row
        assert f"{model.min_cacheable_tokens:,} tokens" == cells[4], row


def test_a_prefix_below_the_models_cache_minimum_is_said_in_the_figures(api: FakeMessagesAPI) -> None:
    """~3.7k tokens of tools + system: enough for Sonnet 5.5 (512), short of Haiku 4.5's 4,096."""
    assert PromptCache.for_settings(replace(FAST, model="claude-sonnet-5-5")).note() == ""
    cache = PromptCache.for_settings(replace(FAST, model="claude-haiku-4-5"))
    assert not cache.enabled and cache.minimum_tokens == 4096
    assert cache.note().startswith("no prompt cache expected: the tools + system prefix (~")
    brain = brain_on(api, replace(FAST, model="claude-haiku-4-5"))
    api.push(tool_reply("judge", answers.JUDGE))
    brain.judge(synthetic.context(1))
    assert brain.usage().note == cache.note() and brain.usage().calls == 1
    # The breakpoints stay: below the minimum the API writes no cache, and an estimate may be low.
    assert "cache_control" in api.bodies[0]["tools"][-1]
