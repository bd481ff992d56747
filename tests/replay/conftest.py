"""Fixtures for replay and regression tests."""

from __future__ import annotations

import shutil

import pytest

from tests.replay.helpers import FOOD_APP, spec


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    (pytester.path / "food").mkdir()
    shutil.copy(FOOD_APP, pytester.path / "food" / "app.yaml")
    pytester.makeini(
        "[pytest]\nfairy_artifacts = .fairy\nfilterwarnings = ignore::pytest.PytestAssertRewriteWarning\n"
    )
    (pytester.path / "test_food.yaml").write_text(spec(), encoding="utf-8")
    return pytester
