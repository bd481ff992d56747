"""pytest_fairy's own hooks, implemented in a user's conftest.py or plugin: adapt it without forking."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from pytest_fairy.brain.base import Brain
    from pytest_fairy.record import Exploration, StepRecord
    from pytest_fairy.target import Target


@pytest.hookspec(firstresult=True)
def pytest_fairy_make_brain(config: pytest.Config, target: Target, default: Brain) -> Brain | None:
    """Return the brain to explore `target` with (for example `default` wrapped), or None to keep it."""


def pytest_fairy_step(item: pytest.Item, record: StepRecord) -> None:
    """Called after every exploration step of `item`, with the step's record (SoM screenshot included)."""


def pytest_fairy_finished(item: pytest.Item, result: Exploration) -> None:
    """Called when the exploration of `item` ends, before its verdict is turned into a pytest outcome."""
