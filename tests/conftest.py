"""Fixtures for every test of pytest_fairy."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings
from wire.wire_helpers import AdbServer, adb_binary, free_port

HERE = Path(__file__).resolve().parent

# Properties are checked, never timed: on a shared, loaded machine an example may take longer than
# Hypothesis' default deadline of 200 ms without anything being wrong.
settings.register_profile("untimed", deadline=None)
settings.load_profile("untimed")


@pytest.fixture(autouse=True)
def hermetic_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No ANTHROPIC_* variable of the machine leaks into a test (key, base URL, profile, log level):
    with a key set, the plugin would pick the Claude brain and call out. Nor GitHub Actions' own: runs of
    the plugin under test would annotate this suite's job and write into its summary."""
    for name in list(os.environ):
        if name.startswith("ANTHROPIC_") or name in ("GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY"):
            monkeypatch.delenv(name)


@pytest.fixture(scope="session")
def adb_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AdbServer]:
    """A private adb server (the real binary from the adbutils wheel) on a free port, never 5037, for
    this session or xdist worker; killed at the end. Shared by the wire and the device tests. It runs with
    HOME in a folder of its own, so its key pair (`adb_server.public_key`) is known and never the user's."""
    server = AdbServer(adb_binary(), free_port(), home=tmp_path_factory.mktemp("adb-home"))
    started = server.run("start-server")
    if started.returncode != 0:
        pytest.fail(f"adb start-server on port {server.port} failed: {started.stderr}")
    try:
        yield server
    finally:
        server.run("kill-server")


# The slow part of the suite: whole pytest runs in a subprocess (pytester), the real adb stack, the
# generated worlds and the apps explored end to end. `pytest -m "not slow" -n 2` runs the rest, the pure
# logic, between two edits; the README's test command and .ci/run run everything.
SLOW_FOLDERS = frozenset({"devices", "wire", "worlds", "goals", "unseen", "untuned"})
SLOW_FIXTURES = frozenset({"pytester", "allure_run"})  # a pytest run of its own, in process or not


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        folder = item.path.relative_to(HERE).parts[0] if item.path.is_relative_to(HERE) else ""
        slow = folder in SLOW_FOLDERS or bool(SLOW_FIXTURES & set(getattr(item, "fixturenames", ())))
        if slow or item.get_closest_marker("wire") is not None:
            item.add_marker(pytest.mark.slow)
