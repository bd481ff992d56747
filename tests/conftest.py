"""Fixtures for every test of pytest_fairy."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True)
def hermetic_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No ANTHROPIC_* variable of the machine leaks into a test (key, base URL, profile, log level):
    with a key set, the plugin would pick the Claude brain and call out."""
    for name in list(os.environ):
        if name.startswith("ANTHROPIC_"):
            monkeypatch.delenv(name)
