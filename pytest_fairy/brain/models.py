"""The Claude models pytest_fairy knows and what each one accepts: one table, from the platform docs.

The request of every stage is shaped from a model's row (`RequestShape.of`): whether the stage's tool can
be forced, whether thinking can be turned off, which effort levels exist. The current models (Fable 5.1,
Opus 5.5, Sonnet 5.5, Haiku 5.5) answer 400 to forced tool use (`tool_choice` "tool" or "any"), to
`thinking: disabled` and to thinking budgets: on them the stage's tool is offered with `tool_choice: auto`,
thinking stays adaptive, depth is `output_config.effort`, and an answer without the tool call gets the
brain's correction turn. Older models are forced to the stage's tool with thinking off.

A model that is not in the table (a new one, a dated snapshot of an unknown id) is treated as the current
generation: nothing the current models refuse is sent, and it has no price (counted at $0, with a warning).

Sources (checked 2026-11-23): platform.claude.com/docs/en/models/overview and each model's page, the
Sonnet 5.5 and Opus 5.5 migration guides and "what's new" pages, build-with-claude/prompt-caching,
about-claude/pricing; the retired models from about-claude/model-deprecations (checked 2026-11-26).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

EFFORTS = ("low", "medium", "high", "xhigh", "max")
# pytest_fairy's effort where the user sets none, on models that take one: a step on a phone screen needs
# less depth than the API's default (high on most current models), and it is paid for on every step.
DEFAULT_EFFORT = "medium"
_SNAPSHOT_SUFFIX = re.compile(r"-\d{8}$")


@dataclass(frozen=True, slots=True)
class Price:
    """USD per million tokens."""

    input: float
    output: float
    cache_write_5m: float
    cache_write_1h: float
    cache_read: float


def standard_price(input_price: float, output_price: float, read_multiplier: float = 0.1) -> Price:
    """The published multipliers: cache writes 1.25x (5 min) / 2x (1 h) of input, reads 0.1x (Sonnet 5.5,
    Opus 5.5 and Fable 5.1 read the cache for less: `read_multiplier`)."""
    i = input_price
    return Price(
        i, output_price, cache_write_5m=i * 1.25, cache_write_1h=i * 2.0, cache_read=i * read_multiplier
    )


class Status(StrEnum):
    CURRENT = "current"
    LEGACY = "legacy"


@dataclass(frozen=True, slots=True)
class ClaudeModel:
    id: str
    name: str
    status: Status
    price: Price | None
    context_tokens: int
    max_output_tokens: int
    # The shortest prefix (tools + system) the API caches for this model; a shorter one is billed in full.
    min_cacheable_tokens: int
    # tool_choice {"type": "tool"} / {"type": "any"} accepted (forced tool use).
    forced_tool: bool
    # The request thinks unless told not to; and whether `thinking: {"type": "disabled"}` is accepted,
    # and at which efforts (None: at any; Opus 5 turns thinking off only at effort high or below).
    thinks_by_default: bool
    thinking_can_be_disabled: bool
    # Accepted `output_config.effort` levels (() = the parameter is not supported) and the API's default.
    efforts: tuple[str, ...] = ()
    default_effort: str | None = None
    thinking_off_efforts: tuple[str, ...] | None = None

    @property
    def known(self) -> bool:
        return self.id in MODELS

    def can_turn_thinking_off(self, effort: str | None) -> bool:
        """Whether a request at `effort` (None: the API's default) may think not at all."""
        if not self.thinks_by_default:
            return True
        if not self.thinking_can_be_disabled:
            return False
        chosen = effort or self.default_effort
        return self.thinking_off_efforts is None or chosen in self.thinking_off_efforts


def _current(
    model_id: str, name: str, price: Price, *, min_cacheable: int, default_effort: str
) -> ClaudeModel:
    return ClaudeModel(
        id=model_id,
        name=name,
        status=Status.CURRENT,
        price=price,
        context_tokens=1_000_000,
        max_output_tokens=128_000,
        min_cacheable_tokens=min_cacheable,
        forced_tool=False,
        thinks_by_default=True,
        thinking_can_be_disabled=False,
        efforts=EFFORTS,
        default_effort=default_effort,
    )


def _older(
    model_id: str, name: str, price: Price, *, min_cacheable: int, max_output: int = 64_000
) -> ClaudeModel:
    """The generations before 5: no thinking unless asked, forced tool use accepted, no effort."""
    return ClaudeModel(
        id=model_id,
        name=name,
        status=Status.LEGACY,
        price=price,
        context_tokens=200_000,
        max_output_tokens=max_output,
        min_cacheable_tokens=min_cacheable,
        forced_tool=True,
        thinks_by_default=False,
        thinking_can_be_disabled=True,
    )


# Minimum cacheable prompts, from the migration guides' caching notes: 512 tokens on Sonnet 5.5, Opus 5.5
# and Opus 5, 1,024 on Sonnet 5 and Sonnet 4.6, 4,096 on Haiku 4.5. Fable 5.1 (512, as Fable 5) and Haiku
# 5.5 (512) are from secondary sources. A value too high only adds a "no prompt cache expected" note.
_UP_TO_HIGH = ("low", "medium", "high")
_TABLE = (
    _current("claude-fable-5-1", "Claude Fable 5.1", standard_price(10.0, 50.0, 0.025),
             min_cacheable=512, default_effort="high"),
    _current("claude-opus-5-5", "Claude Opus 5.5", standard_price(4.0, 20.0, 0.05),
             min_cacheable=512, default_effort="medium"),
    _current("claude-sonnet-5-5", "Claude Sonnet 5.5", standard_price(2.0, 10.0, 0.05),
             min_cacheable=512, default_effort="high"),
    _current("claude-haiku-5-5", "Claude Haiku 5.5", standard_price(0.10, 0.50),
             min_cacheable=512, default_effort="medium"),
    ClaudeModel("claude-opus-5", "Claude Opus 5", Status.LEGACY, standard_price(5.0, 25.0),
                1_000_000, 128_000, 512, forced_tool=True, thinks_by_default=True,
                thinking_can_be_disabled=True, efforts=EFFORTS, default_effort="high",
                thinking_off_efforts=_UP_TO_HIGH),
    ClaudeModel("claude-sonnet-5", "Claude Sonnet 5", Status.LEGACY, standard_price(2.0, 10.0),
                1_000_000, 128_000, 1024, forced_tool=True, thinks_by_default=True,
                thinking_can_be_disabled=True, efforts=EFFORTS, default_effort="high"),
    *(
        _older(model_id, name, standard_price(i, o), min_cacheable=m, max_output=out)
        for model_id, name, i, o, m, out in (
            ("claude-opus-4-8", "Claude Opus 4.8", 5.0, 25.0, 1024, 128_000),
            ("claude-opus-4-7", "Claude Opus 4.7", 5.0, 25.0, 4096, 128_000),
            ("claude-opus-4-6", "Claude Opus 4.6", 5.0, 25.0, 4096, 128_000),
            ("claude-opus-4-5", "Claude Opus 4.5", 5.0, 25.0, 4096, 64_000),
            ("claude-sonnet-4-6", "Claude Sonnet 4.6", 3.0, 15.0, 1024, 128_000),
            ("claude-sonnet-4-5", "Claude Sonnet 4.5", 3.0, 15.0, 1024, 64_000),
            ("claude-haiku-4-5", "Claude Haiku 4.5", 1.0, 5.0, 4096, 64_000),
        )
    ),
)  # fmt: skip
MODELS: Mapping[str, ClaudeModel] = {model.id: model for model in _TABLE}

# Models the API no longer serves (it answers 404 not_found_error), with the day they were retired, and
# those about to be: every retired row of the model-deprecations page (tests/brain/data holds the page's
# tables; the SDK's deprecation table agrees). Keyed by the page's ids without their date suffix, which
# `retired` strips, plus the SDK's `-0` aliases of the 4.0 models.
RETIRED: Mapping[str, str] = {
    **dict.fromkeys(("claude-1.0", "claude-1.1", "claude-1.2", "claude-1.3"), "2024-11-06"),
    **dict.fromkeys(("claude-instant-1.0", "claude-instant-1.1", "claude-instant-1.2"), "2024-11-06"),
    **dict.fromkeys(("claude-2.0", "claude-2.1", "claude-3-sonnet"), "2025-07-21"),
    "claude-3-5-sonnet": "2025-10-28",
    "claude-3-opus": "2026-01-05",
    "claude-3-5-haiku": "2026-02-19",
    "claude-3-7-sonnet": "2026-02-19",
    "claude-3-haiku": "2026-04-20",
    "claude-opus-4": "2026-06-15",
    "claude-opus-4-0": "2026-06-15",
    "claude-sonnet-4": "2026-06-15",
    "claude-sonnet-4-0": "2026-06-15",
    "claude-opus-4-1": "2026-08-05",
}
RETIRING: Mapping[str, str] = {"claude-sonnet-4-5": "2026-11-30"}


def retired(model_id: str) -> str | None:
    """Why `model_id` cannot be used any more (a retired model or its dated snapshot), else None."""
    base = _SNAPSHOT_SUFFIX.sub("", model_id)
    day = RETIRED.get(model_id) or RETIRED.get(base)
    if day is None:
        return None
    return f"{model_id} was retired on {day}: the API no longer serves it; current models: " + ", ".join(
        m.id for m in _TABLE if m.status is Status.CURRENT
    )


DEFAULT_MODEL = "claude-sonnet-5-5"


def model_info(model_id: str) -> ClaudeModel:
    """The row of `model_id` (a dated snapshot is its model's row); an unknown id gets the rules of the
    current generation, no price, and the largest limits any current model has."""
    found = MODELS.get(model_id) or MODELS.get(_SNAPSHOT_SUFFIX.sub("", model_id))
    if found is not None:
        return found
    return ClaudeModel(
        id=model_id,
        name=model_id,
        status=Status.CURRENT,
        price=None,
        context_tokens=1_000_000,
        max_output_tokens=128_000,
        min_cacheable_tokens=max(m.min_cacheable_tokens for m in _TABLE if m.status is Status.CURRENT),
        forced_tool=False,
        thinks_by_default=True,
        thinking_can_be_disabled=False,
        efforts=EFFORTS,
    )


@dataclass(frozen=True, slots=True)
class RequestShape:
    """What a stage's request carries besides its messages, for one model and effort."""

    forced: bool
    thinking: dict[str, Any] | None
    effort: str | None
    # Tokens the answer may spend on thinking, on top of the stage's own answer.
    thinking_allowance: int

    @classmethod
    def of(cls, model: ClaudeModel, effort: str | None, *, thinking_tokens: int) -> RequestShape:
        if effort is not None and effort not in model.efforts:
            accepted = ", ".join(model.efforts) or "none (the model takes no effort setting)"
            raise ValueError(f"effort {effort!r} is not accepted by {model.id}; accepted: {accepted}")
        if model.forced_tool and model.can_turn_thinking_off(effort):
            # Forced tool use cannot be combined with thinking: turn it off where it would be on.
            thinking = {"type": "disabled"} if model.thinks_by_default else None
            return cls(forced=True, thinking=thinking, effort=effort, thinking_allowance=0)
        chosen = effort if effort is not None else DEFAULT_EFFORT if DEFAULT_EFFORT in model.efforts else None
        return cls(forced=False, thinking=None, effort=chosen, thinking_allowance=thinking_tokens)

    def tool_choice(self, tool: str) -> dict[str, Any]:
        if self.forced:
            return {"type": "tool", "name": tool, "disable_parallel_tool_use": True}
        return {"type": "auto", "disable_parallel_tool_use": True}

    def options(self) -> dict[str, Any]:
        """The request's `thinking` and `output_config`, where they are sent."""
        options: dict[str, Any] = {}
        if self.thinking is not None:
            options["thinking"] = self.thinking
        if self.effort is not None:
            options["output_config"] = {"effort": self.effort}
        return options


def request_line(model_id: str, effort: str | None) -> str:
    """How requests to `model_id` are shaped, for the run's header: `claude-sonnet-5-5 (effort medium,
    adaptive thinking, tool offered)`."""
    model = model_info(model_id)
    shape = RequestShape.of(model, effort, thinking_tokens=0)
    parts = [f"effort {shape.effort}"] if shape.effort else []
    if shape.forced:
        parts.append("tool forced, thinking off")
    else:
        parts.append("adaptive thinking, tool offered")
    if model.status is Status.LEGACY:
        day = RETIRING.get(model.id)
        parts.append(f"legacy model, retires on {day}" if day else "legacy model")
    if not model.known:
        parts.append("not in pytest_fairy's model table: shaped as the current models, no price")
    return f"{model_id} ({', '.join(parts)})"
