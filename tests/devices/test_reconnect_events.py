"""Reconnects are events: each reconnect the driver performs is in the step record
(`device_note`, steps.jsonl) and on the `-v` step line; a device that came back with the app under test no
longer running ends its item inconclusive instead of exploring a reset device.

On the real stack: a virtual device served over adbd, whose server is stopped and started again on the
same port (as tests/devices/test_runs_over_adb.py does for a lost device).
"""

from __future__ import annotations

import json
import shutil
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from device_helpers import FOOD_APP, FOOD_PACKAGE, QUICK_RECONNECT, Farm, find
from wire.wire_helpers import ServedDevice

from tests.verdicts import verdict_counts

pytestmark = pytest.mark.wire

REPO = Path(__file__).resolve().parents[2]
# Device calls served before the fault: mid-item, after the first steps of "delivery ordering".
FAULT_AFTER_CALLS = 25
# Gestures: what exploring on would do to the device.
GESTURES = {"tap", "long_tap", "swipe", "type_text", "press"}
# When each blipped device came back (monotonic), for the action log.
RESTARTS: list[float] = []


@pytest.fixture
def project(pytester: pytest.Pytester, lock_dir: Path) -> pytest.Pytester:
    shutil.copytree(REPO / "example_suites", pytester.path / "example_suites")
    pytester.makeini(
        f"[pytest]\nfairy_artifacts = .fairy\nfairy_lock_dir = {lock_dir}\n"
        "filterwarnings = ignore::pytest.PytestAssertRewriteWarning\n"
    )
    return pytester


def _run_with_fault(
    project: pytest.Pytester, farm: Farm, food: ServedDevice, fault: Callable[[], None]
) -> Any:
    """Run "delivery ordering" with -v on `food`; `fault()` happens once the device served some calls."""
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            if len(food.device.action_log) >= FAULT_AFTER_CALLS:
                fault()
                done.set()
                return
            done.wait(0.01)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        return project.runpytest(
            "example_suites/food",
            "-v",
            "-k",
            "ordering",
            f"--fairy-adb={farm.address}",
            f"--fairy-device={food.serial}",
        )
    finally:
        done.set()
        watcher.join()


def _blip(farm: Farm, food: ServedDevice, *, restarted: bool) -> Callable[[], None]:
    """The device's connection drops and comes back 0.5 s later; `restarted`: the phone rebooted meanwhile
    (the app under test is no longer running, the launcher is in front)."""

    def fault() -> None:
        port = farm.drop(food)
        if restarted:
            food.device.stop(FOOD_PACKAGE)
        threading.Timer(0.5, back, args=(port,)).start()

    def back(port: int) -> None:
        farm.restart(food, port)
        RESTARTS.append(time.monotonic())

    return fault


def _steps(project: pytest.Pytester) -> list[dict[str, Any]]:
    (found,) = project.path.glob(".fairy/sessions/*/*/steps.jsonl")
    return [json.loads(line) for line in found.read_text(encoding="utf-8").splitlines()]


def test_the_driver_notes_each_reconnect_once(farm: Farm, food: ServedDevice) -> None:
    device = farm.driver(food, reconnect=QUICK_RECONNECT)
    device.launch(FOOD_PACKAGE)
    assert device.take_note() == ""
    port = farm.drop(food)
    back = threading.Timer(0.5, farm.restart, args=(food, port))
    back.start()
    try:
        assert find(device.dump_hierarchy(), text="到店取餐")
    finally:
        back.join()
    note = device.take_note()
    assert note.startswith("reconnected after 'dump the hierarchy' failed (")
    assert note.endswith(" attempt)") or note.endswith(" attempts)")
    assert device.take_note() == ""  # said once


def test_a_reconnect_is_in_the_step_record_and_the_verbose_step_line(
    project: pytest.Pytester, farm: Farm
) -> None:
    food = farm.serve(FOOD_APP)
    result = _run_with_fault(project, farm, food, _blip(farm, food, restarted=False))
    result.assert_outcomes(passed=1)
    noted = [s for s in _steps(project) if "reconnected after" in s["device_note"]]
    assert len(noted) == 1, [s["device_note"] for s in _steps(project)]
    result.stdout.fnmatch_lines(["    step *: * -> *  [[]reconnected after '*' failed (* attempt*)[]]"])


def test_an_app_gone_after_a_reconnect_ends_the_item_inconclusive(
    project: pytest.Pytester, farm: Farm
) -> None:
    food = farm.serve(FOOD_APP)
    result = _run_with_fault(project, farm, food, _blip(farm, food, restarted=True))
    assert verdict_counts(result) == {"passed": 0, "failed": 0, "inconclusive": 1}
    result.stdout.fnmatch_lines(
        [
            f"*inconclusive: device {food.serial} reconnected at step * and the app was "
            "no longer running: the run cannot tell what it would have seen (com.*launcher* in front)*"
        ]
    )
    steps = _steps(project)
    assert "reconnected after" in steps[-1]["device_note"]  # the step it happened at is on disk
    back = RESTARTS[-1]
    assert not [e.action for e in food.device.action_log if e.monotonic > back and e.action in GESTURES]
    assert sum("reconnected after" in s["device_note"] for s in steps) == 1
