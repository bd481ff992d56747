"""The contract of adbutils that devices/deadline.py's BoundedAdbDevice and AdbServerClient override
(checked on adbutils 2.12): the methods they override, with the parameters they pass on, the default
timeout recognised as "the caller chose none", and the adb server adbutils starts where none answers. On an upgrade that changes them, this fails first, naming what changed."""

from __future__ import annotations

import inspect
from pathlib import Path

import adbutils
import pytest
from adbutils import _adb as adbutils_adb
from wire.wire_helpers import free_port

from pytest_fairy.devices import deadline

OVERRIDDEN = {
    "open_transport": ("command", "timeout"),
    "open_shell": ("cmdargs",),
    "shell": ("cmdargs", "stream", "timeout", "encoding", "rstrip"),
    "create_connection": ("network", "address"),
}


def test_every_overridden_method_takes_the_parameters_the_override_passes_on() -> None:
    for name, wanted in OVERRIDDEN.items():
        method = getattr(adbutils.AdbDevice, name, None)
        assert method is not None, f"adbutils.AdbDevice.{name} is gone: BoundedAdbDevice overrides it"
        parameters = inspect.signature(method).parameters
        missing = [p for p in wanted if p not in parameters]
        assert not missing, f"adbutils.AdbDevice.{name} no longer takes {missing}"


def test_adbutils_default_timeout_is_the_one_the_bounded_device_replaces() -> None:
    for name in ("open_transport", "shell"):
        default = inspect.signature(getattr(adbutils.AdbDevice, name)).parameters["timeout"].default
        assert default == deadline._ADBUTILS_DEFAULT_TIMEOUT, (
            f"adbutils.AdbDevice.{name}'s default timeout is {default}, not {deadline._ADBUTILS_DEFAULT_TIMEOUT}: "
            "a caller choosing none would no longer be bounded"
        )


def _recording_adb(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An `adb` that only notes it was run: adbutils' fallback would start a server with it."""
    marker = tmp_path / "adb-was-run"
    adb = tmp_path / "adb"
    adb.write_text(f"#!/bin/sh\necho \"$@\" >> {marker}\n", encoding="utf-8")
    adb.chmod(0o755)
    monkeypatch.setattr(adbutils_adb, "adb_path", lambda: str(adb))
    return marker


def test_adbutils_starts_a_server_where_none_answers_and_our_client_does_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """adbutils answers a refused connection by running `adb start-server`; AdbServerClient overrides the
    connection it makes so that it never does. If adbutils stops doing so, the first half fails: the
    override can go."""
    marker = _recording_adb(tmp_path, monkeypatch)
    port = free_port()  # nothing listens there
    with pytest.raises(adbutils.AdbError):
        adbutils.AdbClient(host="127.0.0.1", port=port, socket_timeout=2).device_list()
    assert marker.read_text(encoding="utf-8").split() == ["start-server"]
    marker.unlink()
    with pytest.raises(adbutils.AdbError):
        deadline.AdbServerClient("127.0.0.1", port, socket_timeout=2).device_list()
    assert not marker.exists(), "our client started an adb server"
