"""Keeps the explorer off the specs of tests/goals unless a spec file is named on the command line.

`pytest tests/goals` (and the project's plain `pytest`) runs only test_goal_verdicts.py;
`pytest tests/goals/fruit_search/test_fruit_search.yaml` explores that spec.
"""

from __future__ import annotations

from tests.spec_files import unless_named as pytest_ignore_collect

__all__ = ["pytest_ignore_collect"]
