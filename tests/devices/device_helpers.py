"""Shared pieces of the real-device tests: a `Farm` of virtual devices served over adbd, and screen helpers.

The adb server, example app paths and `ServedDevice` come from tests/wire/wire_helpers.py.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from wire.wire_helpers import ADB_TIMEOUT, FOOD_APP, NOTES_APP, AdbServer, ServedDevice

from fairy_virtual import VirtualDevice
from fairy_virtual.loader import load_app_model
from fairy_virtual.model import AppModel, Latency
from fairy_virtual.wire import WireServer
from pytest_fairy.devices.driver import AdbServerAddress, Reconnect, U2Device
from pytest_fairy.devices.protocol import Device
from pytest_fairy.perception.hierarchy import Node, parse_hierarchy

__all__ = ["FOOD_APP", "NOTES_APP", "Farm", "find", "run_exported", "tap_on", "with_latency"]

FOOD_PACKAGE = "com.mcdonalds.gma.cn"
NOTES_PACKAGE = "com.example.notes"
# How long an exported reproduction may take to run.
EXPORTED_RUN_SECONDS = 120
# Tight limits for fault tests: a lost device is declared lost within a few seconds.
QUICK_RECONNECT = Reconnect(attempts=3, first_delay=0.2, backoff=2.0, max_delay=1.0, wait_seconds=1.0)


@dataclass
class Farm:
    """Virtual devices served over adbd and attached to one private adb server."""

    adb: AdbServer
    served: list[ServedDevice]
    serials: list[str]

    @property
    def address(self) -> AdbServerAddress:
        return AdbServerAddress("127.0.0.1", self.adb.port)

    def serve(self, app: Path | AppModel = FOOD_APP, **kwargs: object) -> ServedDevice:
        """`app` served over adbd; latency off unless `latency=True` is among the VirtualDevice arguments."""
        device = VirtualDevice(app, **{"latency": False, **kwargs})  # type: ignore[arg-type]
        server = WireServer(device)
        server.start()
        item = ServedDevice(device, server, self.adb)
        self.served.append(item)
        self.serials.append(item.serial)
        self.attach(item)
        return item

    def attach(self, item: ServedDevice) -> None:
        connected = self.adb.run("connect", item.server.address)
        assert f"connected to {item.server.address}" in connected.stdout, connected.stdout + connected.stderr
        self.adb.client.wait_for(item.server.address, state="device", timeout=ADB_TIMEOUT)

    def drop(self, item: ServedDevice) -> int:
        """The device's adbd goes away (connections closed, port no longer listening); returns its port."""
        port = item.server.port
        item.server.stop()
        return port

    def restart(self, item: ServedDevice, port: int) -> None:
        """Bring a dropped device back on its old port: the same serial for adb, the same phone (its
        clipboard, settings and files as they were)."""
        item.server = WireServer(item.device, port=port, system=item.server.system)
        item.server.start()

    def driver(self, item: ServedDevice, **options: object) -> U2Device:
        return U2Device.connect(item.serial, self.address, **options)


def find(xml: str, *, text: str = "", resource_id: str = "") -> Node:
    for window in parse_hierarchy(xml):
        for node in window.iter():
            if (text and node.text == text) or (resource_id and node.resource_id == resource_id):
                return node
    raise AssertionError(f"no node with text={text!r} resource_id={resource_id!r} on screen")


def tap_on(device: Device, **where: str) -> None:
    device.tap(*find(device.dump_hierarchy(), **where).bounds.center)


def with_latency(app: Path, **seconds: float) -> AppModel:
    """`app`'s model with its device latency set: the keys given, every other one 0 (no waiting)."""
    model = load_app_model(app)
    latency = Latency(**{"dump": 0.0, "screenshot": 0.0, "action": 0.0, **seconds})
    return model.model_copy(update={"device": model.device.model_copy(update={"latency": latency})})


def run_exported(
    test_file: Path,
    device: ServedDevice,
    farm: Farm,
    folder: Path,
    typed: dict[str, str | None] | None = None,
) -> subprocess.CompletedProcess[str]:
    """The exported file in a folder of its own, in a new Python, without pytest_fairy's plugin; `typed`
    gives the environment's values of what was typed into password fields (`FAIRY_TYPED_<step>`), None
    for one left unset."""
    folder.mkdir()
    copy = folder / test_file.name
    shutil.copy(test_file, copy)
    env = {
        **os.environ,
        "ANDROID_SERIAL": device.serial,
        "ANDROID_ADB_SERVER_PORT": str(farm.adb.port),
        "FAIRY_TYPED_2": "any-password",
        **(typed or {}),
    }
    env = {name: value for name, value in env.items() if value is not None}
    command = [sys.executable, "-m", "pytest", copy.name, "-p", "no:fairy", "-p", "no:cacheprovider", "-q"]
    return subprocess.run(
        command,
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=EXPORTED_RUN_SECONDS,
        check=False,
    )


def home_with_key(home: Path, key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """HOME at `home`, with `key` where adb keeps its public key: the key a run registers in STF."""
    (home / ".android").mkdir(parents=True, exist_ok=True)
    (home / ".android" / "adbkey.pub").write_text(key + "\n", encoding="utf-8")
    monkeypatch.setenv("HOME", str(home))
