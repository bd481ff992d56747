"""Shared pieces of the wire tests: example app paths, a private adb server, a served virtual device."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import adbutils
import pytest

from fairy_virtual import VirtualDevice
from fairy_virtual.wire import WireServer

REPO = Path(__file__).resolve().parents[2]
FOOD_APP = REPO / "example_suites" / "food"
NOTES_APP = REPO / "example_suites" / "notes"
ADB_TIMEOUT = 30
# adb scans 5555-5585 for emulators and 5037 is every developer's own server: never use those.
FORBIDDEN_PORTS = range(5037, 5586)


def adb_binary() -> str:
    bundled = Path(adbutils.__file__).parent / "binaries" / "adb"
    found = str(bundled) if bundled.is_file() else shutil.which("adb")
    if found is None:
        pytest.skip("no adb binary: neither adbutils' bundled one nor one on PATH")
    return found


def free_port() -> int:
    while True:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = int(probe.getsockname()[1])
        if port not in FORBIDDEN_PORTS:
            return port


@dataclass
class AdbServer:
    """A private adb server on its own port. Given `home`, every adb command runs with HOME there, so the
    server (started by the first command, or restarted by a later one) authenticates with the key pair in
    `home/.android/adbkey{,.pub}`, created at its first start, and with no vendor key of the machine."""

    binary: str
    port: int
    home: Path | None = None

    def run(self, *args: str, serial: str | None = None) -> subprocess.CompletedProcess[str]:
        command = [self.binary, "-P", str(self.port), *(["-s", serial] if serial else []), *args]
        env = {**os.environ, "ANDROID_ADB_SERVER_PORT": str(self.port)}
        if self.home is not None:
            env["HOME"] = str(self.home)
            env.pop("ADB_VENDOR_KEYS", None)
        return subprocess.run(command, capture_output=True, text=True, timeout=ADB_TIMEOUT,
                              stdin=subprocess.DEVNULL, env=env)

    @property
    def client(self) -> adbutils.AdbClient:
        return adbutils.AdbClient(host="127.0.0.1", port=self.port)

    @property
    def public_key(self) -> str:
        """The public key the server authenticates with, as adb wrote it (`BASE64 user@host`)."""
        if self.home is None:
            raise AssertionError("an adb server without a home of its own: its key is the machine's")
        return (self.home / ".android" / "adbkey.pub").read_text(encoding="utf-8").strip()

    def keygen(self, path: Path) -> str:
        """A new key pair at `path` and `path`.pub, made by adb itself; returns the public key."""
        made = self.run("keygen", str(path))
        assert made.returncode == 0, made.stdout + made.stderr
        return path.with_name(path.name + ".pub").read_text(encoding="utf-8").strip()


@dataclass
class ServedDevice:
    device: VirtualDevice
    server: WireServer
    adb: AdbServer

    @property
    def serial(self) -> str:
        return self.server.address

    def adb_device(self) -> adbutils.AdbDevice:
        return self.adb.client.device(self.serial)


# serve_device(app_dir, **VirtualDevice keyword arguments) -> a connected ServedDevice
ServeDevice = Callable[..., ServedDevice]
