"""Whether the prompt cache can work for a model, decided once per run from the prefix it would cache.

The cached prefix is the tools and the system prompt, identical on every call. The API caches a prefix
only from a model-dependent length on (the model table's `min_cacheable_tokens`: 512 tokens on Sonnet 5.5,
4,096 on Opus 4.5 and Haiku 4.5); below it nothing is cached, nothing is read back, and the run would
report a cache share of 0% with no reason given. So the prefix is measured here, and where it is too short
the run says so, once, in the header and in the cost figures. The breakpoints stay: below the minimum the
API neither caches nor charges a write, and if the estimate was low the cache still works.

The measure is an estimate without a tokenizer (the API's own count needs a call): characters of the JSON
sent divided by `CHARS_PER_TOKEN`, an average for this mix of English prose and JSON schemas.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from pytest_fairy.brain.claude_settings import ClaudeSettings
from pytest_fairy.brain.context import MessageBuilder
from pytest_fairy.brain.models import model_info
from pytest_fairy.brain.tools import cache_control, tools_param

CHARS_PER_TOKEN = 3.5


@dataclass(frozen=True, slots=True)
class PromptCache:
    model: str
    prefix_tokens: int
    minimum_tokens: int

    @classmethod
    def for_settings(cls, settings: ClaudeSettings) -> PromptCache:
        system, tools = prefix(settings, cached=True)
        chars = len(json.dumps(system, ensure_ascii=False)) + len(json.dumps(tools, ensure_ascii=False))
        minimum = model_info(settings.model).min_cacheable_tokens
        return cls(settings.model, round(chars / CHARS_PER_TOKEN), minimum)

    @property
    def enabled(self) -> bool:
        return self.prefix_tokens >= self.minimum_tokens

    def note(self) -> str:
        """What the header and the cost figures say when the cache cannot work ("" when it can)."""
        if self.enabled:
            return ""
        return (
            f"no prompt cache expected: the tools + system prefix (~{self.prefix_tokens} tokens) is below "
            f"{self.model}'s minimum of {self.minimum_tokens}"
        )


def prefix(settings: ClaudeSettings, *, cached: bool) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The system blocks and the tools array every call sends, with or without cache breakpoints."""
    ttl = settings.cache_ttl if cached else None
    system = MessageBuilder(settings.context_limits()).system(cache_control(ttl) if ttl else None)
    return system, tools_param(ttl, settings.max_queued_actions)
