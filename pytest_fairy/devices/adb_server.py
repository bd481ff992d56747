"""Where an adb server listens, and a client of it: the local one or a device farm's remote one."""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass

import adbutils

from pytest_fairy.devices import deadline
from pytest_fairy.devices.settings import DEFAULT_DEVICE_TIMEOUT

DEFAULT_ADB_HOST = "127.0.0.1"
DEFAULT_ADB_PORT = 5037


@dataclass(frozen=True)
class AdbServerAddress:
    """Where the adb server listens: a local one (default 127.0.0.1:5037) or a farm's remote one."""

    host: str = DEFAULT_ADB_HOST
    port: int = DEFAULT_ADB_PORT

    @classmethod
    def parse(cls, text: str) -> AdbServerAddress:
        """`HOST:PORT`, `HOST` or `PORT`; ValueError on anything else."""
        host, sep, port = text.strip().rpartition(":")
        if not sep:
            host, port = (text.strip(), str(DEFAULT_ADB_PORT)) if not text.strip().isdigit() else ("", text)
        if not port.strip().isdigit() or not 0 < int(port) < 65536:
            raise ValueError(f"expected HOST:PORT of an adb server (e.g. 127.0.0.1:5037), got {text!r}")
        return cls(host or DEFAULT_ADB_HOST, int(port))

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> AdbServerAddress:
        """What adb itself uses: ANDROID_ADB_SERVER_HOST / ANDROID_ADB_SERVER_PORT, else 127.0.0.1:5037."""
        env = os.environ if environ is None else environ
        port = env.get("ANDROID_ADB_SERVER_PORT", "") or str(DEFAULT_ADB_PORT)
        return cls.parse(f"{env.get('ANDROID_ADB_SERVER_HOST', '') or DEFAULT_ADB_HOST}:{port}")

    def __str__(self) -> str:
        return f"{self.host}:{self.port}"

    def reachable(self, timeout: float = deadline.PROBE_SECONDS) -> bool:
        """Whether something accepts connections there. Checked before adbutils is used, because
        adbutils answers a refused connection by starting an adb server of its own on another port."""
        try:
            with socket.create_connection((self.host, self.port), timeout=timeout):
                return True
        except OSError:
            return False

    def client(self, timeout: float = DEFAULT_DEVICE_TIMEOUT) -> adbutils.AdbClient:
        return deadline.AdbServerClient(self.host, self.port, socket_timeout=timeout)
