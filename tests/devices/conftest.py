"""Fixtures for the real-device tests: the driver, pool and lock over the whole adb stack, no phone.

Virtual devices are served over adbd (`WireServer`) in this process and `adb connect`ed to a private adb
server (never 5037), exactly as tests/wire does. Every process and server started here is stopped at
teardown.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from device_helpers import FOOD_APP, FOOD_PACKAGE, Farm, home_with_key
from stf_standin import StfStandIn
from wire.wire_helpers import AdbServer, ServedDevice

from pytest_fairy.devices.driver import U2Device


@pytest.fixture
def farm(adb_server: AdbServer) -> Iterator[Farm]:
    farm = Farm(adb_server, [], [])
    try:
        yield farm
    finally:
        for serial in farm.serials:
            adb_server.run("disconnect", serial)
        for item in farm.served:
            item.server.stop()


@pytest.fixture
def food(farm: Farm) -> ServedDevice:
    return farm.serve(FOOD_APP)


@pytest.fixture
def driver(farm: Farm, food: ServedDevice) -> U2Device:
    """The food app's device through U2Device, the app launched."""
    device = farm.driver(food)
    device.launch(FOOD_PACKAGE)
    return device


@pytest.fixture
def lock_dir(tmp_path: Path) -> Path:
    """A private lock folder: tests never touch the user's ~/.cache/pytest_fairy/locks."""
    return tmp_path / "locks"


@pytest.fixture
def stf() -> Iterator[StfStandIn]:
    standin = StfStandIn()
    try:
        yield standin
    finally:
        standin.stop()


@pytest.fixture
def adb_home(adb_server: AdbServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This process's HOME holds the tests' adb server's key, for the provider driven directly."""
    home_with_key(tmp_path / "home", adb_server.public_key, monkeypatch)
    return tmp_path / "home"
