"""The Claude brain's settings: the model (and the judge's, when another one judges), its limits, timeouts
and retries, what the context may hold, the price table, the prompt cache's lifetime and how many
follow-ups an answer may queue."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from pytest_fairy.brain.limits import ContextLimits
from pytest_fairy.brain.models import DEFAULT_MODEL, Price, model_info
from pytest_fairy.brain.pricing import DEFAULT_PRICES
from pytest_fairy.brain.tools import DEFAULT_MAX_FOLLOW_UPS


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
    # How hard the model thinks (`output_config.effort`), on models that take it; None: pytest_fairy's
    # default (brain/models.py: DEFAULT_EFFORT) where the model thinks, nothing where it does not. What a
    # model accepts - forced tool use, thinking off, effort levels - is its row of the model table.
    effort: str | None = None
    # On models that always think, a stage's answer may spend this much more on thinking than its
    # `max_tokens` (the limit covers thinking and answer together), up to the model's output limit.
    thinking_tokens: int = 4096
    # How many follow-up actions one `next_action` answer may queue (0 = a call for every action).
    max_queued_actions: int = DEFAULT_MAX_FOLLOW_UPS
    # The model that judges whether the feature is done (None: `model`), e.g. a stronger judge beside a
    # cheaper step model. Its requests are shaped and priced as its own row of the model table says.
    judge_model: str | None = None

    def __post_init__(self) -> None:
        if self.cache_ttl not in ("5m", "1h"):
            raise ValueError(f"ClaudeSettings.cache_ttl must be '5m' or '1h', got {self.cache_ttl!r}")
        for name in ("max_tokens", "summary_max_tokens", "timeout_seconds", "retry_after_cap_seconds"):
            if getattr(self, name) <= 0:
                raise ValueError(f"ClaudeSettings.{name} must be positive, got {getattr(self, name)}")
        efforts = model_info(self.model).efforts
        if self.effort is not None and self.effort not in efforts:
            accepted = ", ".join(efforts) or "none: it takes no effort setting"
            raise ValueError(f"{self.model} does not accept effort {self.effort!r} (accepted: {accepted})")
        for name in ("max_retries", "max_queued_actions", "thinking_tokens"):
            if getattr(self, name) < 0:
                raise ValueError(f"ClaudeSettings.{name} must be >= 0, got {getattr(self, name)}")

    def judge_settings(self) -> ClaudeSettings:
        """The settings of the judge's requests: these, for the judge model. The effort goes with them where
        the judge model takes it; one that takes none is asked without (its header line says so)."""
        if self.judge_model is None or self.judge_model == self.model:
            return self
        effort = self.effort if self.effort in model_info(self.judge_model).efforts else None
        return replace(self, model=self.judge_model, judge_model=None, effort=effort)

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
