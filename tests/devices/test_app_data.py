"""`reset: data` on a phone: the driver clears the app's data with `pm clear`, through the real adb
server and adbutils, against the virtual device served over adbd (whose `pm clear` forgets a login)."""

from __future__ import annotations

from pathlib import Path

import pytest
from device_helpers import Farm

from pytest_fairy.devices.protocol import clear_app_data

pytestmark = pytest.mark.wire

NOTES = Path(__file__).resolve().parents[2] / "example_suites" / "notes"
PACKAGE = "com.example.notes"


def test_pm_clear_forgets_what_even_a_restart_keeps(farm: Farm) -> None:
    served = farm.serve(NOTES / "app.yaml")
    driver = farm.driver(served)
    driver.launch(PACKAGE)
    served.device._engine.app.ui.variables["logged_in"] = True  # as a login leaves it
    driver.stop(PACKAGE)
    assert served.device.variables["logged_in"] is True
    clear_app_data(driver, PACKAGE)
    assert served.device.variables["logged_in"] is False
