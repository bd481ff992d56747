"""Keeps the explorer off the specs of tests/untuned unless a spec file is named on the command line.

`pytest tests/untuned` (and the project's plain `pytest`) runs only the hand-written walkthroughs in
test_walkthroughs.py; `pytest tests/untuned/dead_button/test_dead_button.yaml` explores that spec.
"""

from __future__ import annotations

from tests.spec_files import unless_named as pytest_ignore_collect

__all__ = ["pytest_ignore_collect"]
