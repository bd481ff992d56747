"""The replay and regression settings: where the decision cache is, whether to use it, how far it may grow,
the baseline (plugin/option_table.py declares their options and ini keys)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pytest_fairy.replay.cache import DEFAULT_CACHE
from pytest_fairy.replay.pruning import CacheLimits


@dataclass(frozen=True)
class ReplaySettings:
    cache: Path = DEFAULT_CACHE
    # False (--fairy-no-cache): decide everything anew; the decisions are still recorded.
    use_cache: bool = True
    baseline: Path | None = None
    fail_on_lost_screens: bool = False
    # How old and how large the cache may grow (fairy_cache_max_age_days, fairy_cache_max_mb), kept to
    # at the end of every session (pruning.py).
    cache_limits: CacheLimits = field(default_factory=CacheLimits)
