"""The stage schemas and their validator, the reading of answers, and the price table (no server)."""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_fairy.brain.answers import AnswerError, read_decision, schema_errors
from pytest_fairy.brain.pricing import (
    DEFAULT_PRICES,
    CallTokens,
    Ledger,
    Price,
    UnknownModelPrice,
    price_for,
)
from pytest_fairy.brain.tools import SCHEMAS, Stage, tools_param
from pytest_fairy.explore.action import Action, ActionKind, Direction
from pytest_fairy.explore.decisions import Usage
from tests.claude import answers, synthetic

UNSUPPORTED_IN_STRICT = {"minimum", "maximum", "minLength", "maxLength", "pattern", "format", "minItems"}


def instances(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Any value the schema allows (the subset the stage schemas use)."""
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
    options: list[st.SearchStrategy[Any]] = []
    for kind in types:
        if kind == "object":
            options.append(st.fixed_dictionaries({k: instances(v) for k, v in schema["properties"].items()}))
        elif kind == "array":
            options.append(st.lists(instances(schema["items"]), max_size=3))
        else:
            options.append({"string": st.text(max_size=8), "integer": st.integers(), "boolean": st.booleans(),
                            "null": st.none()}[kind])
    return st.one_of(options)


def walk(schema: dict[str, Any]) -> list[dict[str, Any]]:
    found = [schema]
    for sub in schema.get("properties", {}).values():
        found += walk(sub)
    if "items" in schema:
        found += walk(schema["items"])
    return found


@pytest.mark.parametrize("stage", list(Stage))
def test_schemas_are_strict_shaped(stage: Stage) -> None:
    for part in walk(SCHEMAS[stage]):
        assert not UNSUPPORTED_IN_STRICT & set(part)
        if part.get("type") == "object":
            assert part["additionalProperties"] is False
            assert sorted(part["required"]) == sorted(part["properties"])


def test_the_tools_array_is_the_same_object_shape_every_time() -> None:
    assert tools_param() == tools_param()
    assert [t["name"] for t in tools_param()] == ["plan", "next_action", "judge", "summarize"]
    assert "cache_control" not in tools_param(None)[-1]


@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), stage=st.sampled_from(list(Stage)))
def test_every_allowed_value_validates_and_every_broken_one_is_named(
    data: st.DataObject, stage: Stage
) -> None:
    schema = SCHEMAS[stage]
    value = data.draw(instances(schema))
    assert schema_errors(schema, value) == []
    field = data.draw(st.sampled_from(sorted(schema["properties"])))
    missing = {k: v for k, v in value.items() if k != field}
    assert schema_errors(schema, missing) == [f"input.{field}: missing"]
    assert schema_errors(schema, {**value, "extra": 1}) == ["input.extra: not a field of this tool"]
    assert schema_errors(schema, {**value, field: object()}) != []


def test_schema_errors_name_the_path_and_the_problem() -> None:
    schema = SCHEMAS[Stage.NEXT_ACTION]
    answer = answers.action()
    answer["assessment"]["completion_rate"] = "70%"
    answer["mark"] = True  # a bool is not an integer in JSON
    assert schema_errors(schema, answer) == [
        "input.mark: expected integer or null, got boolean",
        "input.assessment.completion_rate: expected integer, got string",
    ]
    assert schema_errors(schema, "tap 3") == ["input: expected object, got string"]


def test_reading_actions() -> None:
    screen = synthetic.page(1)
    assert read_decision(answers.action("back", 4), screen).action == Action(ActionKind.BACK)
    assert read_decision(answers.action("type", 2, text="13800138000"), screen).action == Action(
        ActionKind.TYPE, 2, "13800138000")
    assert read_decision(answers.action("scroll", 3, direction="up"), screen).action == Action(
        ActionKind.SCROLL, 3, direction=Direction.UP)
    with pytest.raises(AnswerError, match=r"mark \[0\] is not on this screen"):
        read_decision(answers.action("long_tap", 0), screen)
    empty = synthetic.screen_of()
    with pytest.raises(AnswerError, match="this screen has no marks"):
        read_decision(answers.action("tap", 1), empty)


# -- prices -------------------------------------------------------------------------------------------


def test_prices_are_found_by_id_and_by_snapshot() -> None:
    haiku = Price(1.0, 5.0, cache_write_5m=1.25, cache_write_1h=2.0, cache_read=0.1)
    assert price_for("claude-haiku-4-5-20251001") == price_for("claude-haiku-4-5") == haiku
    assert price_for("claude-opus-4-5") != price_for("claude-opus-4")
    assert price_for("claude-fable-5-2") is None  # a newer model is not priced as its predecessor
    assert price_for("gpt-4") is None
    assert all(p.cache_read < p.input < p.cache_write_5m < p.cache_write_1h for p in DEFAULT_PRICES.values())


def test_the_ledger_sums_tokens_and_cost() -> None:
    ledger = Ledger("claude-sonnet-5")  # $2 in, $10 out, $2.50 cache write, $0.20 cache read per MTok
    first = ledger.add(CallTokens(1000, 200, cache_write_tokens=3000))
    second = ledger.add(CallTokens(1000, 200, cache_read_tokens=3000))
    assert first == pytest.approx((2000 + 7500 + 2000) / 1e6)
    assert second == pytest.approx((2000 + 600 + 2000) / 1e6)
    usage = ledger.usage()
    assert usage == Usage(calls=2, input_tokens=2000, cache_write_tokens=3000, cache_read_tokens=3000,
                          output_tokens=400, cost_usd=usage.cost_usd)
    assert usage.cost_usd == pytest.approx(first + second)
    assert usage.cache_read_share == pytest.approx(3000 / 8000)
    assert Usage().cache_read_share == 0.0


def test_one_hour_cache_writes_cost_twice_the_input() -> None:
    ledger = Ledger("claude-sonnet-5", cache_ttl="1h")
    assert ledger.add(CallTokens(0, 0, cache_write_tokens=1_000_000)) == 4.0


def test_an_unknown_model_costs_nothing_and_warns_once() -> None:
    ledger = Ledger("claude-unheard-of-9")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert ledger.add(CallTokens(100, 10)) == 0.0
        assert Ledger("claude-unheard-of-9").add(CallTokens(100, 10)) == 0.0
    assert [w.category for w in caught] == [UnknownModelPrice]
    assert "claude-unheard-of-9" in str(caught[0].message)
    assert ledger.usage().input_tokens == 100


def test_custom_prices_replace_the_table() -> None:
    ledger = Ledger("in-house-model", {"in-house-model": Price(1.0, 1.0, 1.0, 1.0, 1.0)})
    assert ledger.priced and ledger.add(CallTokens(500_000, 500_000)) == pytest.approx(1.0)
