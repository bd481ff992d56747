"""SIGTERM (a CI timeout or cancel) mid-item on a device over the real adb stack: the item under way ends
inconclusive in the JUnit XML, the run stops interrupted, and the device's lease is gone from the phone
when pytest exits, so other hosts need not wait for it to expire."""

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

from pytest_fairy.devices.lease_record import DEFAULT_LEASE_DIR

pytestmark = pytest.mark.wire

REPO = Path(__file__).resolve().parents[2]
RUN_TIMEOUT = 120  # seconds: a run that hangs fails the test, it does not hang it
# At step 2 the run notes whether the phone holds its lease, then sends itself SIGTERM.
CONFTEST = """
import os, signal
from pathlib import Path
import adbutils

def pytest_fairy_step(item, record):
    if record.step == 2:
        option = item.config.option
        host, port = option.fairy_adb.rsplit(":", 1)
        phone = adbutils.AdbClient(host=host, port=int(port)).device(option.fairy_device[0])
        Path("lease-seen").write_text(phone.shell(["ls", "{lease}"]), encoding="utf-8")
        os.kill(os.getpid(), signal.SIGTERM)
""".replace("{lease}", DEFAULT_LEASE_DIR)


def test_sigterm_mid_item_gives_the_lease_back_and_reports_the_item(
    tmp_path: Path, farm: Farm, food: ServedDevice, lock_dir: Path
) -> None:
    fs = food.server.system.fs
    shutil.copytree(REPO / "example_suites" / "food", tmp_path / "food")
    (tmp_path / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_XDIST", "PYTEST_CURRENT"))}
    argv = [
        sys.executable, "-m", "pytest", "food", "-p", "no:cacheprovider", "-p", "no:xdist",
        f"--fairy-adb={farm.address}", f"--fairy-device={food.serial}", f"--fairy-lock-dir={lock_dir}",
        "--junitxml=junit.xml", "--fairy-artifacts=.fairy",
    ]  # fmt: skip
    ran = subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT)
    said = ran.stdout[-3000:] + ran.stderr[-2000:]
    assert ran.returncode == pytest.ExitCode.INTERRUPTED, said
    assert "owner" in (tmp_path / "lease-seen").read_text(encoding="utf-8"), "no lease held at step 2"
    assert not fs.stat(DEFAULT_LEASE_DIR), f"the lease is still on the device:\n{said}"
    (case,) = ET.parse(tmp_path / "junit.xml").getroot().iter("testcase")
    (error,) = case.iter("error")
    assert error.get("message", "").startswith("inconclusive: interrupted (SIGTERM"), said
