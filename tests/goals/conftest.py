"""Keeps the explorer off the specs of tests/goals unless a spec file is named on the command line.

`pytest tests/goals` (and the project's plain `pytest`) runs only the hand-written walkthroughs in
test_goal_verdicts.py; `pytest tests/goals/fruit_search/test_fruit_search.yaml` explores that spec.
"""

from __future__ import annotations

from pathlib import Path

import pytest


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if collection_path.suffix not in (".yaml", ".yml") or not collection_path.name.startswith("test_"):
        return None
    named = {Path(arg.split("::", 1)[0]).resolve() for arg in config.args}
    return None if collection_path.resolve() in named else True
