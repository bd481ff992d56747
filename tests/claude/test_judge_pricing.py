"""A judge model beside the step model: each call priced by its own model, each request shaped for it."""

from __future__ import annotations

import pytest

from pytest_fairy.brain.claude_settings import ClaudeSettings
from pytest_fairy.brain.pricing import CallTokens, Ledger


def test_each_call_is_priced_by_the_model_it_went_to_and_the_usage_adds_them_up() -> None:
    ledger = Ledger("claude-sonnet-5-5")  # $2 per MTok of input
    assert ledger.add(CallTokens(1_000_000, 0)) == pytest.approx(2.0)
    assert ledger.add(CallTokens(1_000_000, 0), "claude-opus-4-8") == pytest.approx(5.0)  # $5
    usage = ledger.usage()
    assert (usage.calls, usage.input_tokens, usage.cost_usd) == (2, 2_000_000, pytest.approx(7.0))
    shares = ledger.by_model()
    assert {model: round(u.cost_usd, 6) for model, u in shares.items()} == {
        "claude-sonnet-5-5": 2.0,
        "claude-opus-4-8": 5.0,
    }


def test_the_judge_takes_the_effort_where_its_model_takes_one() -> None:
    thinking = ClaudeSettings(model="claude-sonnet-5-5", effort="high", judge_model="claude-opus-5-5")
    assert (thinking.judge_settings().model, thinking.judge_settings().effort) == ("claude-opus-5-5", "high")
    legacy = ClaudeSettings(model="claude-sonnet-5-5", effort="high", judge_model="claude-haiku-4-5")
    assert (legacy.judge_settings().model, legacy.judge_settings().effort) == ("claude-haiku-4-5", None)
    same = ClaudeSettings(judge_model="claude-sonnet-5-5")
    assert same.judge_settings() is same
