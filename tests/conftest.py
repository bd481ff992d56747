"""Fixtures for every test of pytest_fairy."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from wire.wire_helpers import AdbServer, adb_binary, free_port


@pytest.fixture(autouse=True)
def hermetic_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No ANTHROPIC_* variable of the machine leaks into a test (key, base URL, profile, log level):
    with a key set, the plugin would pick the Claude brain and call out."""
    for name in list(os.environ):
        if name.startswith("ANTHROPIC_"):
            monkeypatch.delenv(name)


@pytest.fixture(scope="session")
def adb_server() -> Iterator[AdbServer]:
    """A private adb server (the real binary from the adbutils wheel) on a free port, never 5037, for
    this session or xdist worker; killed at the end. Shared by the wire and the device tests."""
    server = AdbServer(adb_binary(), free_port())
    started = server.run("start-server")
    if started.returncode != 0:
        pytest.fail(f"adb start-server on port {server.port} failed: {started.stderr}")
    try:
        yield server
    finally:
        server.run("kill-server")
