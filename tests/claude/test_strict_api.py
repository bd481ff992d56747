"""The fake Messages API is as strict as the docs say the real one is, and the brain never trips it.

The fake's rules (`api_rules`) are written from the docs, apart from the product's model table: these
tests hold the two against each other, so a wrong row of the table fails here before a user's run does.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import anthropic
import pytest

from pytest_fairy.brain.claude_settings import ClaudeSettings
from pytest_fairy.brain.models import MODELS, RETIRED, RequestShape, model_info
from pytest_fairy.errors import BrainError
from tests.claude import answers, api_rules, synthetic
from tests.claude.conftest import FAKE_KEY, FAST, brain_on
from tests.claude.fake_api import FakeMessagesAPI, tool_reply

# The SDK warns of every retired or retiring model it is asked for: expected here, where we ask on purpose.
pytestmark = pytest.mark.filterwarnings("ignore:The model .* is deprecated:DeprecationWarning")

USER = [{"role": "user", "content": "Call the `judge` tool."}]
TOOL = {"name": "judge", "description": "d", "input_schema": {"type": "object", "properties": {}}}


@pytest.fixture
def client(api: FakeMessagesAPI) -> Iterator[anthropic.Anthropic]:
    with anthropic.Anthropic(api_key=FAKE_KEY, base_url=api.url, max_retries=0) as sdk:
        yield sdk


SAMPLING = ("temperature", "top_p", "top_k")  # this SDK no longer has them as arguments: sent raw


def create(client: anthropic.Anthropic, model: str, **extra: Any) -> Any:
    request: dict[str, Any] = {"model": model, "max_tokens": 1024, "messages": USER, "tools": [TOOL]}
    raw = {name: extra.pop(name) for name in SAMPLING if name in extra}
    # An explicit timeout: the SDK wants streaming for a large max_tokens without one.
    return client.messages.create(**{**request, **extra}, extra_body=raw or None, timeout=5.0)


REFUSED = [
    ("claude-sonnet-5-5", {"tool_choice": {"type": "tool", "name": "judge"}}, api_rules.FORCED_TOOL),
    ("claude-opus-5-5", {"tool_choice": {"type": "any"}}, api_rules.FORCED_TOOL),
    ("claude-fable-5-1", {"tool_choice": {"type": "tool", "name": "judge"}}, api_rules.FORCED_TOOL),
    ("claude-sonnet-5-5", {"thinking": {"type": "disabled"}}, api_rules.DISABLED_SONNET_5_5),
    ("claude-opus-5-5", {"thinking": {"type": "disabled"}}, api_rules.DISABLED),
    ("claude-fable-5-1", {"thinking": {"type": "enabled", "budget_tokens": 512}}, api_rules.ENABLED),
    ("claude-sonnet-5", {"thinking": {"type": "enabled", "budget_tokens": 512}}, api_rules.ENABLED),
    ("claude-opus-5", {"thinking": {"type": "disabled"}, "output_config": {"effort": "xhigh"}},
     api_rules.DISABLED),
    ("claude-opus-5-5", {"thinking": {"type": "between_tools"}}, '"thinking.type.between_tools" is not'),
    ("claude-sonnet-5-5", {"thinking": {"type": "between_tools"}, "output_config": {"effort": "max"}},
     "between_tools\" is supported only at effort"),
    ("claude-sonnet-5-5", {"temperature": 0.2}, api_rules.SAMPLING["temperature"]),
    ("claude-opus-5-5", {"top_k": 5}, api_rules.SAMPLING["top_k"]),
    ("claude-sonnet-5-5", {"messages": [*USER, {"role": "assistant", "content": "{"}]}, api_rules.PREFILL),
    ("claude-sonnet-5-5", {"max_tokens": 128_001}, "max_tokens: 128001 > 128000"),
    ("claude-haiku-4-5", {"output_config": {"effort": "low"}}, "output_config.effort"),
    ("claude-haiku-4-5", {"thinking": {"type": "adaptive"}}, api_rules.ADAPTIVE_UNSUPPORTED),
]


@pytest.mark.parametrize(("model", "extra", "message"), REFUSED)
def test_the_fake_refuses_what_the_docs_say_the_model_refuses(
    api: FakeMessagesAPI, client: anthropic.Anthropic, model: str, extra: dict[str, Any], message: str
) -> None:
    with pytest.raises(anthropic.BadRequestError) as caught:
        create(client, model, **extra)
    assert caught.value.status_code == 400 and message in str(caught.value)
    assert len(api.rejected) == 1 and api.rejected[0][1].kind == "invalid_request_error"


ACCEPTED = [
    ("claude-sonnet-5-5", {"tool_choice": {"type": "auto"}, "output_config": {"effort": "low"}}),
    ("claude-sonnet-5-5", {"thinking": {"type": "between_tools"}, "output_config": {"effort": "medium"}}),
    ("claude-opus-5-5", {"thinking": {"type": "adaptive"}, "tool_choice": {"type": "none"}}),
    ("claude-opus-5", {"thinking": {"type": "disabled"}, "output_config": {"effort": "high"}}),
    ("claude-sonnet-5", {"thinking": {"type": "disabled"}, "tool_choice": {"type": "tool", "name": "judge"}}),
    ("claude-sonnet-5-5", {"temperature": 1.0}),  # the default value is no sampling setting
    ("claude-haiku-4-5-20251001", {"tool_choice": {"type": "any"}, "temperature": 0.3}),
]


@pytest.mark.parametrize(("model", "extra"), ACCEPTED)
def test_the_fake_answers_what_the_docs_allow(
    api: FakeMessagesAPI, client: anthropic.Anthropic, model: str, extra: dict[str, Any]
) -> None:
    api.push(tool_reply("judge", answers.JUDGE))
    create(client, model, **extra)
    assert api.rejected == []


@pytest.mark.parametrize("model", ["claude-sonnet-6", *api_rules.RETIRED])
def test_an_unknown_or_retired_model_is_not_found(client: anthropic.Anthropic, model: str) -> None:
    with pytest.raises(anthropic.NotFoundError) as caught:
        create(client, model)
    assert caught.value.status_code == 404 and f"model: {model}" in str(caught.value)


def test_the_product_knows_the_retired_models_the_docs_name() -> None:
    assert set(RETIRED) == set(api_rules.RETIRED)


def test_forced_tool_use_is_refused_when_counting_tokens_too(client: anthropic.Anthropic) -> None:
    with pytest.raises(anthropic.BadRequestError, match="not supported for this model"):
        client.messages.count_tokens(model="claude-opus-5-5", messages=USER, tools=[TOOL],  # type: ignore[list-item]
                                     tool_choice={"type": "tool", "name": "judge"})


def test_a_thinking_model_answers_with_a_thinking_block_first_then_sometimes_text(
    api: FakeMessagesAPI, client: anthropic.Anthropic
) -> None:
    api.push(*(tool_reply("judge", answers.JUDGE) for _ in range(3)))
    first, second = (create(client, "claude-opus-5-5") for _ in range(2))
    assert [b.type for b in first.content] == ["thinking", "tool_use"]
    assert [b.type for b in second.content] == ["thinking", "text", "tool_use"]
    assert first.content[0].thinking == "" and first.content[0].signature  # the default display
    off = create(client, "claude-sonnet-5", thinking={"type": "disabled"})
    assert [b.type for b in off.content] == ["tool_use"]


def test_the_cache_is_written_only_above_the_models_documented_minimum(api: FakeMessagesAPI) -> None:
    """~1.7k fake tokens of system prompt: cached on Sonnet 5 (1,024), billed in full on Haiku 4.5 (4,096)."""
    system = [{"type": "text", "text": "rules " * 1700, "cache_control": {"type": "ephemeral"}}]
    with anthropic.Anthropic(api_key=FAKE_KEY, base_url=api.url, max_retries=0) as sdk:
        for model in ("claude-sonnet-5", "claude-haiku-4-5"):
            api.push(tool_reply("judge", answers.JUDGE), tool_reply("judge", answers.JUDGE))
            for _ in range(2):
                sdk.messages.create(model=model, max_tokens=64, system=system, messages=USER)  # type: ignore[arg-type]
    usages = [r.usage for r in api.requests]
    assert [u["cache_read_input_tokens"] > 0 for u in usages] == [False, True, False, False]
    assert usages[0]["cache_creation_input_tokens"] > 0 and usages[2]["cache_creation_input_tokens"] == 0


# -- the product's model table, held against the docs ------------------------------------------------


@pytest.mark.parametrize("model_id", sorted(MODELS))
def test_the_model_table_row_agrees_with_the_docs(model_id: str) -> None:
    row, docs = MODELS[model_id], api_rules.documented(model_id)
    assert docs is not None, f"{model_id} is not a model the API knows"
    assert row.min_cacheable_tokens == docs.min_cacheable_tokens
    assert row.max_output_tokens == docs.max_output_tokens
    assert row.efforts == docs.efforts or not row.thinks_by_default  # efforts are offered where it thinks
    assert not row.forced_tool or docs.forced_tool, "the table forces a tool the model refuses to be forced to"


def _settings(model_id: str, effort: str | None) -> ClaudeSettings:
    return replace(FAST, model=model_id, effort=effort)


@pytest.mark.parametrize("model_id", sorted(MODELS))
def test_every_effort_the_table_offers_makes_requests_the_model_accepts(
    api: FakeMessagesAPI, model_id: str
) -> None:
    for effort in (None, *model_info(model_id).efforts):
        shape = RequestShape.of(model_info(model_id), effort, thinking_tokens=FAST.thinking_tokens)
        api.push(tool_reply("judge", answers.JUDGE))
        brain_on(api, _settings(model_id, effort)).judge(synthetic.context(1))
        assert api.rejected == [], (model_id, effort, shape, api.rejected[0][1].message)


def test_a_model_the_api_does_not_know_ends_the_call_with_the_apis_words(api: FakeMessagesAPI) -> None:
    brain = brain_on(api, _settings("claude-sonnet-6", None))
    with pytest.raises(BrainError, match=r"HTTP 404 not_found_error: model: claude-sonnet-6"):
        brain.judge(synthetic.context(1))
    assert len(api.requests) == 1  # a 404 is not retried
