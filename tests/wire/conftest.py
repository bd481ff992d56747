"""Fixtures for the wire tests: a private adb server per session (or xdist worker), virtual devices served
over adbd and `adb connect`ed to it, and uiautomator2 pointed at that private server.

Every process started here is stopped at teardown: the adb server with `adb kill-server` on its own port,
each wire server with `stop()`.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import adbutils
import pytest
import uiautomator2 as u2
from wire_helpers import ADB_TIMEOUT, FOOD_APP, AdbServer, ServedDevice, ServeDevice

from fairy_virtual import VirtualDevice
from fairy_virtual.wire import WireServer


@pytest.fixture
def serve_device(adb_server: AdbServer) -> Iterator[ServeDevice]:
    """A factory: `serve_device(app_dir, **VirtualDevice kwargs)` -> a connected `ServedDevice`."""
    served: list[ServedDevice] = []

    def start(app: Path = FOOD_APP, **kwargs: object) -> ServedDevice:
        device = VirtualDevice(app, latency=False, **kwargs)  # type: ignore[arg-type]
        server = WireServer(device)
        server.start()
        item = ServedDevice(device, server, adb_server)
        served.append(item)
        connected = adb_server.run("connect", server.address)
        assert f"connected to {server.address}" in connected.stdout, connected.stdout + connected.stderr
        adb_server.client.wait_for(server.address, state="device", timeout=ADB_TIMEOUT)
        return item

    try:
        yield start
    finally:
        for item in served:
            adb_server.run("disconnect", item.serial)
            item.server.stop()


@pytest.fixture
def served(serve_device: ServeDevice) -> ServedDevice:
    """The food app, launched, served over adbd and connected to the private adb server."""
    item = serve_device(FOOD_APP)
    item.device.launch(item.device.app_model.app.package)
    return item


@pytest.fixture
def u2_adb(adb_server: AdbServer, monkeypatch: pytest.MonkeyPatch) -> AdbServer:
    """Point uiautomator2 at the private adb server.

    u2 looks devices up through the module-level `adbutils.adb` client, made at import from
    ANDROID_ADB_SERVER_PORT; the env var alone is too late once adbutils is imported, so both are set.
    """
    monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", str(adb_server.port))
    monkeypatch.setattr(adbutils, "adb", adb_server.client)
    return adb_server


@pytest.fixture
def u2_device(served: ServedDevice, u2_adb: AdbServer) -> u2.Device:
    return u2.connect(served.serial)
