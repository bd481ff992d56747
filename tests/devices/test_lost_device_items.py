"""A device lost for good mid-session, over the real adb stack: every later item on it ends at once,
inconclusive, in one line that says the device is gone, with no traceback; the run goes on."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from device_helpers import Farm
from wire.wire_helpers import ServedDevice

pytestmark = pytest.mark.wire

REPO = Path(__file__).resolve().parents[2]
RUN_TIMEOUT = 180  # seconds: a run that hangs fails the test, it does not hang it
# After the first item, the device leaves the adb server for good (`adb disconnect`).
CONFTEST = """
import adbutils

def pytest_runtest_logfinish(nodeid, location):
    option = _config.option
    host, port = option.fairy_adb.rsplit(":", 1)
    adbutils.AdbClient(host=host, port=int(port)).disconnect(option.fairy_device[0])

def pytest_configure(config):
    global _config
    _config = config
"""


def test_items_after_the_device_is_gone_end_inconclusive_in_one_line_each(
    tmp_path: Path, farm: Farm, food: ServedDevice, lock_dir: Path
) -> None:
    shutil.copytree(REPO / "example_suites" / "food", tmp_path / "food")
    (tmp_path / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_XDIST", "PYTEST_CURRENT"))}
    argv = [
        sys.executable, "-m", "pytest", "food", "-p", "no:cacheprovider", "-p", "no:xdist", "-rA",
        f"--fairy-adb={farm.address}", f"--fairy-device={food.serial}", f"--fairy-lock-dir={lock_dir}",
        "--junitxml=junit.xml", "--fairy-artifacts=.fairy",
    ]  # fmt: skip
    ran = subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT)
    said = ran.stdout + ran.stderr
    assert ran.returncode == pytest.ExitCode.TESTS_FAILED, said[-3000:]
    assert "Traceback" not in said and "pytest_fairy.devices" not in said, said[-3000:]
    cases = list(ET.parse(tmp_path / "junit.xml").getroot().iter("testcase"))
    assert len(cases) == 4
    later = [case for case in cases if case.find("error") is not None]
    assert len(later) == 3, said[-3000:]
    for case in later:
        message = case.find("error").get("message", "")  # type: ignore[union-attr]
        assert "inconclusive: " in message and food.serial in message, message
