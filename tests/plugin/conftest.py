"""Fixtures for the plugin's tests: a pytester project with the example app models in it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

APPS = Path(__file__).resolve().parents[2] / "example_suites"


@pytest.fixture
def suite(pytester: pytest.Pytester) -> pytest.Pytester:
    """A project with the two example app models copied in (food/app.yaml, notes/app.yaml), and
    artifacts kept inside it."""
    for app in ("food", "notes"):
        (pytester.path / app).mkdir()
        shutil.copy(APPS / app / "app.yaml", pytester.path / app / "app.yaml")
    # In-process runs see pytest_fairy imported already; that its asserts are not rewritten is fine.
    pytester.makeini(
        "[pytest]\nfairy_artifacts = .fairy\nfilterwarnings = ignore::pytest.PytestAssertRewriteWarning\n"
    )
    return pytester
