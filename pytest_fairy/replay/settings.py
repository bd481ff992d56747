"""The replay and regression settings: where the decision cache is, whether to use it, the baseline
(plugin/option_table.py declares their options and ini keys)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pytest_fairy.replay.cache import DEFAULT_CACHE


@dataclass(frozen=True)
class ReplaySettings:
    cache: Path = DEFAULT_CACHE
    # False (--fairy-no-cache): decide everything anew; the decisions are still recorded.
    use_cache: bool = True
    baseline: Path | None = None
    fail_on_lost_screens: bool = False
