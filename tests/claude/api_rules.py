"""What the Messages API refuses, per model, as the platform docs say it: the fake server's rules.

Written from the docs, not from `pytest_fairy.brain.models`: if the product's model table is wrong, the
fake refuses what the product sends and a test fails. Sources (read 2026-11-24):
- Sonnet 5.5 and Opus 5.5 migration guides and "what's new" pages (platform.claude.com/docs/en/models/
  sonnet-5-5/..., opus-5-5/...): the five settings that return 400 on the current models, with the error
  texts quoted below; Fable 5.1 shares Opus 5.5's first three breaking changes; only Sonnet 5.5 takes
  `between_tools`, and only at effort low, medium or high; Opus 5 accepts `disabled` only at effort high
  or below; thinking budgets (`enabled`) are refused on every model from Opus 4.7 on; non-default sampling
  parameters are refused from the 4.7 generation on; assistant prefill is refused from Sonnet 4.6 / Opus
  4.6 on; older models (4.5 and before) refuse `adaptive`.
- The troubleshooting-thinking page (thinking types per model), the models overview (ids, output limits),
  the prompt-caching notes of the migration guides (512 tokens on Sonnet 5.5, Opus 5.5, Opus 5; 1,024 on
  Sonnet 5; 4,096 on Haiku 4.5).
Where the docs quote no error text (sampling parameters, effort, max_tokens), the text is the one
developers report from the live API; marked so below. Where a rule is not documented either way
(forced tool use on Haiku 5.5), the fake refuses: a test bed should be no more lenient than the world.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

EFFORTS = ("low", "medium", "high", "xhigh", "max")
UP_TO_HIGH = ("low", "medium", "high")

FORCED_TOOL = 'tool_choice: type "tool" and "any" are not supported for this model.'
ENABLED = (
    '"thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" and '
    '"output_config.effort" to control thinking behavior.'
)
DISABLED = (
    '"thinking.type.disabled" is not supported for this model. Use "thinking.type.adaptive" and '
    '"output_config.effort" to control thinking behavior.'
)
DISABLED_SONNET_5_5 = (
    'To turn thinking off on this model, send "thinking": {"type": "between_tools"} instead of '
    '{"type": "disabled"}. The model does not think before responding. The short updates it writes '
    "between tool calls come back as thinking blocks."
)
PREFILL = "This model does not support assistant message prefill. The conversation must end with a user message."
ADAPTIVE_UNSUPPORTED = "adaptive thinking is not supported on this model"
# Reported from the live API (the docs say "a non-default value returns a 400 error" without the text).
SAMPLING = {
    "temperature": '"temperature" must be 1.0 for this model',
    "top_p": '"top_p" must be >= 0.99 for this model',
    "top_k": '"top_k" is not supported for this model',
}


@dataclass(frozen=True, slots=True)
class Documented:
    """One model as the docs describe it."""

    forced_tool: bool  # tool_choice "tool" / "any" accepted
    thinking_types: frozenset[str]  # accepted `thinking.type` values
    thinks_by_default: bool  # a request without `thinking` gets thinking blocks
    efforts: tuple[str, ...] = ()  # accepted `output_config.effort` values; () = no effort parameter
    default_effort: str | None = None
    disabled_efforts: tuple[str, ...] = EFFORTS  # efforts at which `disabled` is accepted
    between_tools_efforts: tuple[str, ...] = ()
    sampling: bool = True  # non-default temperature / top_p / top_k accepted
    prefill: bool = True  # a last assistant message accepted
    min_cacheable_tokens: int = 1024
    max_output_tokens: int = 64_000
    disabled_message: str = DISABLED


def _current(*types: str, default_effort: str = "high", disabled_efforts: tuple[str, ...] = (),
             **rest: Any) -> Documented:
    """Fable 5.1, Opus 5.5, Sonnet 5.5, Haiku 5.5: the five 400s of the migration guides."""
    return Documented(
        forced_tool=False, thinking_types=frozenset(("adaptive", *types)), thinks_by_default=True,
        efforts=EFFORTS, default_effort=default_effort, disabled_efforts=disabled_efforts, sampling=False,
        prefill=False, min_cacheable_tokens=512, max_output_tokens=128_000, **rest,
    )


def _five(*, disabled_efforts: tuple[str, ...], min_cacheable: int) -> Documented:
    """Opus 5 and Sonnet 5: forced tool use and `disabled` accepted, thinking on by default."""
    return Documented(
        forced_tool=True, thinking_types=frozenset({"adaptive", "disabled"}), thinks_by_default=True,
        efforts=EFFORTS, default_effort="high", disabled_efforts=disabled_efforts, sampling=False,
        prefill=False, min_cacheable_tokens=min_cacheable, max_output_tokens=128_000,
    )


def _four(*types: str, efforts: tuple[str, ...] = (), min_cacheable: int = 1024, sampling: bool = True,
          prefill: bool = True, max_output: int = 64_000) -> Documented:
    """The 4.x and 3.x generations: no thinking unless asked, forced tool use accepted."""
    return Documented(
        forced_tool=True, thinking_types=frozenset(("disabled", *types)), thinks_by_default=False,
        efforts=efforts, default_effort="high" if efforts else None, sampling=sampling, prefill=prefill,
        min_cacheable_tokens=min_cacheable, max_output_tokens=max_output,
    )


FOUR_SIX_EFFORTS = ("low", "medium", "high", "max")
DOCUMENTED: dict[str, Documented] = {
    "claude-sonnet-5-5": _current(
        "between_tools", between_tools_efforts=UP_TO_HIGH, disabled_message=DISABLED_SONNET_5_5
    ),
    "claude-opus-5-5": _current(default_effort="medium"),
    "claude-fable-5-1": _current(),
    # `disabled` at effort high or below; forced tool use is not documented either way: refused here.
    "claude-haiku-5-5": _current("disabled", default_effort="medium", disabled_efforts=UP_TO_HIGH),
    "claude-opus-5": _five(disabled_efforts=UP_TO_HIGH, min_cacheable=512),
    "claude-sonnet-5": _five(disabled_efforts=EFFORTS, min_cacheable=1024),
    "claude-opus-4-8": _four("adaptive", efforts=EFFORTS, sampling=False, prefill=False, max_output=128_000),
    "claude-opus-4-7": _four("adaptive", efforts=EFFORTS, min_cacheable=4096, sampling=False, prefill=False,
                             max_output=128_000),
    "claude-opus-4-6": _four("adaptive", "enabled", efforts=FOUR_SIX_EFFORTS, min_cacheable=4096,
                             prefill=False, max_output=128_000),
    "claude-sonnet-4-6": _four("adaptive", "enabled", efforts=FOUR_SIX_EFFORTS, prefill=False,
                               max_output=128_000),
    "claude-opus-4-5": _four("enabled", efforts=UP_TO_HIGH, min_cacheable=4096),
    "claude-haiku-4-5": _four("enabled", min_cacheable=4096),
    "claude-sonnet-4-5": _four("enabled"),
}  # fmt: skip
# Retired (model-deprecations page): the API answers them as it answers an id it never knew.
RETIRED = ("claude-1.0", "claude-1.1", "claude-1.2", "claude-1.3", "claude-instant-1.0", "claude-instant-1.1",
           "claude-instant-1.2", "claude-2.0", "claude-2.1", "claude-3-sonnet", "claude-3-5-sonnet", "claude-3-opus",
           "claude-3-5-haiku", "claude-3-7-sonnet", "claude-3-haiku", "claude-opus-4", "claude-opus-4-0",
           "claude-sonnet-4", "claude-sonnet-4-0", "claude-opus-4-1")

_SNAPSHOT = re.compile(r"-\d{8}$")


def documented(model_id: str) -> Documented | None:
    """The docs' model for an id or its dated snapshot; None for an id the API does not know."""
    return DOCUMENTED.get(model_id) or DOCUMENTED.get(_SNAPSHOT.sub("", model_id))


@dataclass(frozen=True, slots=True)
class Refusal:
    status: int
    kind: str
    message: str


def refusal(request: dict[str, Any], *, count_tokens: bool = False) -> Refusal | None:
    """Why the API would refuse this request, or None when it would answer it."""
    model_id = str(request.get("model", ""))
    model = documented(model_id)
    if model is None:
        return Refusal(404, "not_found_error", f"model: {model_id}")
    bad = _invalid(model, request, count_tokens=count_tokens)
    return None if bad is None else Refusal(400, "invalid_request_error", bad)


def _invalid(model: Documented, request: dict[str, Any], *, count_tokens: bool) -> str | None:
    choice = (request.get("tool_choice") or {}).get("type")
    if choice in ("tool", "any") and not model.forced_tool:
        return FORCED_TOOL  # also on /v1/messages/count_tokens
    if count_tokens:
        return None
    effort = (request.get("output_config") or {}).get("effort")
    if effort is not None and effort not in model.efforts:
        if not model.efforts:
            return "output_config.effort: Extra inputs are not permitted"  # reported, not quoted by the docs
        return f'"output_config.effort" value "{effort}" is not supported for this model'
    thinking = request.get("thinking")
    if thinking is not None:
        problem = _thinking(model, thinking, effort or model.default_effort)
        if problem:
            return problem
    if not model.sampling:
        for name, message in SAMPLING.items():
            if name in request and not _default_sampling(name, request[name]):
                return message
    messages = request.get("messages") or []
    if messages and messages[-1].get("role") == "assistant" and not model.prefill:
        return PREFILL
    max_tokens = int(request.get("max_tokens", 0))
    if max_tokens > model.max_output_tokens:
        return (  # reported from the live API
            f"max_tokens: {max_tokens} > {model.max_output_tokens}, which is the maximum allowed number of "
            "output tokens for this model"
        )
    if (thinking or {}).get("type") == "enabled" and int(thinking.get("budget_tokens", 0)) >= max_tokens:
        return "`max_tokens` must be greater than `thinking.budget_tokens`"
    return None


def _thinking(model: Documented, thinking: dict[str, Any], effort: str | None) -> str | None:
    kind = thinking.get("type")
    if kind not in model.thinking_types:
        if kind == "enabled":
            return ENABLED
        if kind == "disabled":
            return model.disabled_message
        if kind == "adaptive":
            return ADAPTIVE_UNSUPPORTED
        return f'"thinking.type.{kind}" is not supported for this model'
    if kind == "disabled" and effort not in model.disabled_efforts:
        return model.disabled_message
    if kind == "between_tools" and (effort not in model.between_tools_efforts or set(thinking) != {"type"}):
        return '"thinking.type.between_tools" is supported only at effort "low", "medium" or "high"'
    return None


def _default_sampling(name: str, value: Any) -> bool:
    return {"temperature": value == 1.0, "top_p": value is None or value >= 0.99}.get(name, False)


def thinks(request: dict[str, Any]) -> bool:
    """Whether the model answers this (accepted) request with thinking blocks first."""
    model = documented(str(request.get("model", "")))
    if model is None:
        return False
    kind = (request.get("thinking") or {}).get("type")
    if kind is None:
        return model.thinks_by_default
    return kind in ("adaptive", "enabled")
