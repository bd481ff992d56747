"""The Claude brain's settings: the model, its limits, timeouts and retries, what the context may hold,
the price table, the prompt cache's lifetime and how many follow-ups an answer may queue."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from pytest_fairy.brain.context import ContextLimits
from pytest_fairy.brain.pricing import DEFAULT_PRICES, Price
from pytest_fairy.brain.tools import DEFAULT_MAX_FOLLOW_UPS

# Forced tool use works on the Sonnet 5 generation with thinking disabled; Sonnet 5.5 rejects forced
# tool_choice (set force_tool=False there).
DEFAULT_MODEL = "claude-sonnet-5"


@dataclass(frozen=True)
class ClaudeSettings:
    model: str = DEFAULT_MODEL
    max_tokens: int = 1024
    # The summary is longer than a step's answer; a truncated answer is retried with `truncation_growth`
    # times its limit, up to `max_tokens_ceiling`.
    summary_max_tokens: int = 2048
    truncation_growth: int = 2
    max_tokens_ceiling: int = 8192
    timeout_seconds: float = 60.0
    max_retries: int = 2
    retry_after_cap_seconds: float = 20.0
    image_long_edge: int = 1024
    jpeg_quality: int = 80
    recent_k: int = 6
    max_milestones: int = 8
    max_screen_chars: int = 6000
    max_section_chars: int = 2000
    max_note_chars: int = 240  # the words shown beside a transition the brain did not decide
    prices: Mapping[str, Price] = field(default_factory=lambda: dict(DEFAULT_PRICES))
    cache_ttl: str = "5m"  # "5m" or "1h": the lifetime of the tools + system cache entries
    # Force the stage's tool (tool_choice type "tool"); False = "auto" and the answer is still required
    # to be a call of that tool (a model that refuses forced tool use answers 400 otherwise).
    force_tool: bool = True
    # Forced tool use cannot be combined with thinking; models that think by default need it off.
    disable_thinking: bool = True
    # How many follow-up actions one `next_action` answer may queue (0 = a call for every action).
    max_queued_actions: int = DEFAULT_MAX_FOLLOW_UPS

    def __post_init__(self) -> None:
        if self.cache_ttl not in ("5m", "1h"):
            raise ValueError(f"ClaudeSettings.cache_ttl must be '5m' or '1h', got {self.cache_ttl!r}")
        for name in ("max_tokens", "summary_max_tokens", "timeout_seconds", "retry_after_cap_seconds"):
            if getattr(self, name) <= 0:
                raise ValueError(f"ClaudeSettings.{name} must be positive, got {getattr(self, name)}")
        for name in ("max_retries", "max_queued_actions"):
            if getattr(self, name) < 0:
                raise ValueError(f"ClaudeSettings.{name} must be >= 0, got {getattr(self, name)}")

    def context_limits(self) -> ContextLimits:
        return ContextLimits(
            recent_k=self.recent_k,
            max_milestones=self.max_milestones,
            image_long_edge=self.image_long_edge,
            jpeg_quality=self.jpeg_quality,
            max_screen_chars=self.max_screen_chars,
            max_section_chars=self.max_section_chars,
            max_note_chars=self.max_note_chars,
        )
