"""A wedged uiautomator2 server is restarted through adb, and the call retried once: the item goes on,
and its step says so. A server that stays wedged, or wedges at every call, ends the item inconclusive
naming the restart; a frozen phone (adb silent too) is never restarted.

On the real stack: the real adb server binary, adbutils and uiautomator2, against virtual devices served
over adbd. The emulated server wedges by `AndroidSystem.u2_answers_left` / `u2_answers_after_start`, and
only the adb commands the driver sends (`pkill -f`, then uiautomator2's own start) bring it back.
"""

from __future__ import annotations

import json
import shutil
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from device_helpers import FOOD_PACKAGE, QUICK_RECONNECT, Farm, find
from test_deadline import BOUND, LIMIT, Frozen, bounded_driver, frozen, timed  # noqa: F401 - a fixture
from wire.wire_helpers import ServedDevice

from pytest_fairy.devices.deadline import Deadlines, DeviceNotAnswering
from pytest_fairy.devices.driver import U2Device

pytestmark = pytest.mark.wire

REPO = Path(__file__).resolve().parents[2]
NOTE = "uiautomator2 server restarted after 'read the last toast' failed"
# Device calls served before the server wedges: mid-item, after the first steps of "delivery ordering".
WEDGE_AFTER_CALLS = 25


def wedge_now(food: ServedDevice, *, after_restart: int | None = None) -> None:
    """The running server wedges at its next JSON-RPC request; a restarted one answers `after_restart` of
    them before it wedges as well (None: it keeps answering)."""
    food.server.system.u2_answers_after_start = after_restart
    food.server.system.u2_answers_left = 0


def test_a_wedged_server_is_restarted_the_call_retried_and_the_step_says_so(
    farm: Farm, food: ServedDevice
) -> None:
    device = bounded_driver(farm, food.serial)
    assert device.toasts() == [] and device.take_note() == ""
    server = food.server.system.shell_processes()
    wedge_now(food)
    started = time.monotonic()
    assert device.toasts() == []  # the call that met the wedge, retried after the restart
    assert time.monotonic() - started < BOUND + LIMIT
    assert device.take_note() == NOTE and device.take_note() == ""  # said once, in that step's record
    assert device.restarts.done == 1 and device.reconnects == 0
    assert [p.pid for p in food.server.system.shell_processes()] != [p.pid for p in server]  # a new process
    find(device.dump_hierarchy(), text="到店取餐")  # and the device goes on: the app still in front
    device.tap(*find(device.dump_hierarchy(), text="到店取餐").bounds.center)


def test_a_server_that_wedges_again_after_its_restart_ends_the_item_naming_the_restart(
    farm: Farm, food: ServedDevice
) -> None:
    device = bounded_driver(farm, food.serial)
    wedge_now(food, after_restart=0)
    error, seconds = timed(device.toasts)
    assert isinstance(error, DeviceNotAnswering)
    assert str(error) == (
        f"device {food.serial} stopped answering (read the last toast, no answer in 2 s, and again after its "
        "uiautomator2 server was restarted)"
    )
    assert device.restarts.done == 1  # the call is retried once, never restarted for again
    assert seconds < BOUND + 2 * LIMIT


def test_a_server_that_wedges_at_every_call_is_restarted_at_most_twice_per_item(
    farm: Farm, food: ServedDevice
) -> None:
    device = bounded_driver(farm, food.serial)
    wedge_now(food, after_restart=1)  # each restarted server answers the retried call, then wedges
    assert device.toasts() == [] and device.toasts() == []
    assert device.take_note() == f"{NOTE}; {NOTE}"
    error, _ = timed(device.toasts)
    assert isinstance(error, DeviceNotAnswering)
    assert str(error) == (
        f"device {food.serial} stopped answering (read the last toast, no answer in 2 s; its uiautomator2 "
        "server was restarted 2 times in this item, the limit)"
    )
    assert device.restarts.done == 2


def test_each_item_has_its_own_restarts(farm: Farm, food: ServedDevice) -> None:
    device = bounded_driver(farm, food.serial)
    wedge_now(food, after_restart=1)
    assert device.toasts() == [] and device.toasts() == []
    device.begin_item()  # the pool leases the device for the next item
    assert device.toasts() == []
    assert device.take_note() == f"{NOTE}; {NOTE}; {NOTE}" and device.restarts.done == 1


def test_the_restart_is_bounded_by_its_own_deadline(farm: Farm, food: ServedDevice) -> None:
    device = bounded_driver(farm, food.serial)
    food.server.system.u2_wedged.set()  # every server, the restarted one too
    error, seconds = timed(device.toasts)
    assert str(error) == (
        f"device {food.serial} stopped answering (read the last toast, no answer in 2 s; its uiautomator2 "
        "server was restarted through adb and did not answer within 2 s)"
    )
    assert seconds < BOUND + LIMIT


def test_a_frozen_phone_is_not_restarted(farm: Farm, frozen: Frozen) -> None:  # noqa: F811 - the fixture
    device = bounded_driver(farm, frozen.serial)
    frozen.freeze()
    error, seconds = timed(device.toasts)
    assert str(error) == f"device {frozen.serial} stopped answering (read the last toast, no answer in 2 s)"
    assert device.restarts.done == 0 and seconds < BOUND


def test_a_call_stuck_elsewhere_while_the_server_answers_is_not_a_reason_to_restart(
    farm: Farm, food: ServedDevice
) -> None:
    device = bounded_driver(farm, food.serial)
    device.uiautomator.jsonrpc_call = lambda *args, **kwargs: time.sleep(60)  # type: ignore[method-assign]
    assert device.toasts() == []  # reconnected, as before: the server answers /ping
    assert device.restarts.done == 0 and device.reconnects == 1


def test_a_driver_without_restarts_gives_up_as_before(farm: Farm, food: ServedDevice) -> None:
    from pytest_fairy.devices.deadline import Reconnect

    no_restarts = Reconnect(**{**QUICK_RECONNECT.__dict__, "server_restarts": 0})
    device = U2Device.connect(
        food.serial, farm.address, reconnect=no_restarts, deadlines=Deadlines(call=LIMIT)
    )
    device.launch(FOOD_PACKAGE)
    wedge_now(food)
    error, _ = timed(device.toasts)
    assert str(error).endswith(
        "(read the last toast, no answer in 2 s; its uiautomator2 server was restarted "
        "0 times in this item, the limit)"
    )


# ---- an item over pytest: the exploration goes on after the restart -------------------------------------


@pytest.fixture
def project(pytester: pytest.Pytester, lock_dir: Path) -> pytest.Pytester:
    shutil.copytree(REPO / "example_suites", pytester.path / "example_suites")
    pytester.makeini(
        f"[pytest]\nfairy_artifacts = .fairy\nfairy_lock_dir = {lock_dir}\nfairy_device_timeout = 3\n"
        "filterwarnings = ignore::pytest.PytestAssertRewriteWarning\n"
    )
    return pytester


def _steps(project: pytest.Pytester) -> list[dict[str, Any]]:
    (found,) = project.path.glob(".fairy/sessions/*/*/steps.jsonl")
    return [json.loads(line) for line in found.read_text(encoding="utf-8").splitlines()]


def test_an_item_whose_server_wedges_mid_exploration_goes_on_and_passes(
    project: pytest.Pytester, farm: Farm, food: ServedDevice
) -> None:
    done = threading.Event()

    def watch() -> None:
        while not done.wait(0.01):
            if len(food.device.action_log) >= WEDGE_AFTER_CALLS:
                wedge_now(food)
                return

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        result = project.runpytest(
            "example_suites/food", "-v", "-k", "ordering", f"--fairy-adb={farm.address}",
            f"--fairy-device={food.serial}",
        )  # fmt: skip
    finally:
        done.set()
        watcher.join()
    result.assert_outcomes(passed=1)
    noted = [s for s in _steps(project) if "uiautomator2 server restarted after" in s["device_note"]]
    assert len(noted) == 1, [s["device_note"] for s in _steps(project)]
    assert noted[0]["step"] < len(_steps(project))  # steps were taken after it
    result.stdout.fnmatch_lines(
        ["    step *: * -> *  [[]*uiautomator2 server restarted after '*' failed*[]]"]
    )
