"""Spec files a folder of tests keeps out of directory runs: explored only when named on the command line
(`pytest tests/goals/fruit_search/test_fruit_search.yaml`), so `pytest tests/goals` and the project's plain
`pytest` run only the folder's Python tests."""

from __future__ import annotations

from pathlib import Path

import pytest


def unless_named(collection_path: Path, config: pytest.Config) -> bool | None:
    """`pytest_ignore_collect` for such a folder: True (ignore) for a spec not named on the command line."""
    if collection_path.suffix not in (".yaml", ".yml") or not collection_path.name.startswith("test_"):
        return None
    named = {Path(arg.split("::", 1)[0]).resolve() for arg in config.args}
    return None if collection_path.resolve() in named else True
