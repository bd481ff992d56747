"""Counting a pytester run's verdicts: passed, failed (app defects) and inconclusive (its own outcome)."""

from __future__ import annotations

import pytest


def verdict_counts(result: pytest.RunResult) -> dict[str, int]:
    outcomes = result.parseoutcomes()
    return {name: outcomes.get(name, 0) for name in ("passed", "failed", "inconclusive")}
