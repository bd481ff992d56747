"""Whole pytest runs on virtual devices served over adbd: the plugin drives them through U2Device.

In-process pytester runs share this process with the wire servers, so a test can break a device in the
middle of a run; the xdist run is a subprocess whose workers each connect through the adb server.
"""

from __future__ import annotations

import json
import re
import shutil
import threading
from pathlib import Path

import pytest
import yaml
from device_helpers import FOOD_APP, NOTES_APP, Farm
from wire.wire_helpers import ServedDevice

from fairy_virtual import ActionLogEntry
from pytest_fairy.devices.lease import DeviceLease
from pytest_fairy.devices.lease_record import DEFAULT_LEASE_DIR
from tests.verdicts import verdict_counts

pytestmark = pytest.mark.wire

REPO = Path(__file__).resolve().parents[2]
SUMMARY = re.compile(r"::(?P<name>[^:]+): (?P<verdict>passed|failed|inconclusive): ")
# Device calls that only an item makes (the controller's diagnostics read the app in front, nothing else).
ITEM_ACTIONS = {"dump", "screenshot", "tap", "long_tap", "swipe", "type_text", "press", "launch", "stop"}
QUICK_FEATURES = ("delivery time", "coupon reminders", "store pickup")
# Records when each item held its device, to compare with the devices' own action logs.
SPAN_CONFTEST = """
import json, os, time
import pytest

@pytest.fixture
def fairy_device(fairy_device, request):
    started = time.monotonic()
    yield fairy_device
    line = {"item": request.node.nodeid, "serial": fairy_device.serial, "start": started,
            "end": time.monotonic(), "worker": os.environ.get("PYTEST_XDIST_WORKER", "")}
    with open(os.environ["FAIRY_SPANS"], "a", encoding="utf-8") as out:
        out.write(json.dumps(line) + "\\n")
"""


@pytest.fixture
def project(pytester: pytest.Pytester, lock_dir: Path) -> pytest.Pytester:
    """The example suites and defects, with artifacts and device locks kept inside the project."""
    shutil.copytree(REPO / "example_suites", pytester.path / "example_suites")
    shutil.copytree(REPO / "example_defects", pytester.path / "example_defects")
    pytester.makeini(
        f"[pytest]\nfairy_artifacts = .fairy\nfairy_lock_dir = {lock_dir}\n"
        "filterwarnings = ignore::pytest.PytestAssertRewriteWarning\n"
    )
    return pytester


def verdicts(result: pytest.RunResult) -> dict[str, str]:
    found = (SUMMARY.search(line) for line in result.outlines)
    return {m["name"].split("[")[0]: m["verdict"] for m in found if m}


def device_args(farm: Farm, *served: ServedDevice) -> list[str]:
    return [f"--fairy-adb={farm.address}", *(f"--fairy-device={s.serial}" for s in served)]


def test_the_food_suite_has_the_same_verdicts_over_adb_as_in_process(
    project: pytest.Pytester, farm: Farm
) -> None:
    in_process = project.runpytest("example_suites/food")
    in_process.assert_outcomes(passed=4)
    food = farm.serve(FOOD_APP)
    over_adb = project.runpytest("example_suites/food", *device_args(farm, food))
    over_adb.assert_outcomes(passed=4)
    assert verdicts(over_adb) == verdicts(in_process) != {}
    over_adb.stdout.fnmatch_lines([f"fairy: device {food.serial} (adb server {farm.address}); *"])
    assert {e.action for e in food.device.action_log} >= {"dump", "screenshot", "tap", "launch"}


def test_a_crash_and_an_anr_fail_with_the_logcat_excerpt(project: pytest.Pytester, farm: Farm) -> None:
    notes = farm.serve(NOTES_APP)
    result = project.runpytest("example_defects", *device_args(farm, notes))
    result.assert_outcomes(failed=2)
    # Confirmed by a replay over adb. The phone keeps its data (no reset on a real device): the app
    # relaunches signed in, so the way starts from the notes list, not from the login of the first item.
    result.stdout.fnmatch_lines(
        [
            "*app defect: app crashed: java.lang.NullPointerException*(reproduced 2/2 in * steps)",
            "*FATAL EXCEPTION: main*",
        ]
    )
    result.stdout.fnmatch_lines(
        ["*app defect: *ANR*(reproduced 2/2 in * steps)", "*ANR in com.example.notes*"]
    )


def test_a_wrong_serial_is_a_usage_error_listing_the_devices(project: pytest.Pytester, farm: Farm) -> None:
    food = farm.serve(FOOD_APP)
    result = project.runpytest(
        "example_suites/food", f"--fairy-adb={farm.address}", "--fairy-device=emulator-5554"
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            f"ERROR: --fairy-device emulator-5554: device emulator-5554 is not on the adb server at {farm.address} "
            f"(devices there: *{food.serial} (device)*"  # the adb server is shared: others may be listed
        ]
    )


def test_no_adb_server_is_a_usage_error(project: pytest.Pytester) -> None:
    result = project.runpytest(
        "example_suites/food", "--fairy-adb=127.0.0.1:1", "--fairy-device=emulator-5554"
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["ERROR: --fairy-device emulator-5554: no adb server answers at 127.0.0.1:1: start one*"]
    )


def _after(device: ServedDevice, calls: int, fault: threading.Event, then: object) -> threading.Thread:
    """Run `then()` once the device has served `calls` calls: mid-item, whatever the timing."""

    def watch() -> None:
        while not fault.is_set():
            if len(device.device.action_log) >= calls:
                then()  # type: ignore[operator]
                fault.set()
                return
            fault.wait(0.01)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread


def test_a_connection_dropped_mid_run_reconnects_and_the_item_passes(
    project: pytest.Pytester, farm: Farm
) -> None:
    food = farm.serve(FOOD_APP)
    done = threading.Event()

    def blip() -> None:
        port = farm.drop(food)
        threading.Timer(0.5, farm.restart, args=(food, port)).start()

    watcher = _after(food, 25, done, blip)
    try:
        result = project.runpytest("example_suites/food", "-k", "ordering", *device_args(farm, food))
    finally:
        done.set()
        watcher.join()
    result.assert_outcomes(passed=1)


def test_a_device_that_stays_lost_ends_its_item_inconclusive_and_the_next_runs_elsewhere(
    project: pytest.Pytester, farm: Farm
) -> None:
    first, second = farm.serve(FOOD_APP), farm.serve(FOOD_APP)
    done = threading.Event()
    watcher = _after(first, 25, done, lambda: farm.drop(first))
    try:
        result = project.runpytest(
            "example_suites/food",
            "-k",
            "ordering or pickup",
            "-o",
            "fairy_reconnect_attempts=1",
            *device_args(farm, first, second),
        )
    finally:
        done.set()
        watcher.join()
    assert verdict_counts(result) == {"passed": 1, "failed": 0, "inconclusive": 1}
    result.stdout.fnmatch_lines([f"*inconclusive: device error: device {farm.serials[0]}: *lost*"])
    assert verdicts(result) == {"delivery ordering": "inconclusive", "store pickup": "passed"}
    assert any(e.action == "launch" for e in second.device.action_log)


def test_eight_items_on_two_devices_with_four_workers_never_share_a_device(
    project: pytest.Pytester, farm: Farm, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    devices = [farm.serve(FOOD_APP), farm.serve(FOOD_APP)]
    food_spec = project.path / "example_suites/food/test_food.yaml"
    spec = yaml.safe_load(food_spec.read_text(encoding="utf-8"))
    quick = [f for f in spec["features"] if f["name"] in QUICK_FEATURES]
    spec["features"] = [
        {**quick[i % len(quick)], "name": f"{quick[i % len(quick)]['name']} {i}"} for i in range(8)
    ]
    spec_text = yaml.safe_dump(spec, allow_unicode=True, sort_keys=False)
    (project.path / "example_suites/food/test_eight.yaml").write_text(spec_text, encoding="utf-8")
    project.makeconftest(SPAN_CONFTEST)
    spans_file = tmp_path / "spans.jsonl"
    monkeypatch.setenv("FAIRY_SPANS", str(spans_file))
    result = project.runpytest_subprocess(
        "example_suites/food/test_eight.yaml", "-p", "xdist", "-n", "4", *device_args(farm, *devices)
    )
    result.assert_outcomes(passed=8)
    spans = [json.loads(line) for line in spans_file.read_text().splitlines()]
    assert len(spans) == 8
    for served in devices:
        mine = sorted((s for s in spans if s["serial"] == served.serial), key=lambda s: s["start"])
        assert mine, f"no item ran on {served.serial}"
        for before, after in zip(mine, mine[1:], strict=False):
            assert before["end"] <= after["start"], f"{before['item']} and {after['item']} overlapped"
        log = served.device.action_log
        for entry in log:
            if entry.action in ITEM_ACTIONS:
                assert any(s["start"] <= entry.monotonic and entry.finished <= s["end"] for s in mine), entry
        starts = _session_starts(log)
        assert len(starts) == len(mine)
        assert len(
            {next(i for i, s in enumerate(mine) if s["start"] <= t <= s["end"]) for t in starts}
        ) == len(mine)


def _session_starts(log: list[ActionLogEntry]) -> list[float]:
    """An exploration begins by stopping the app and clearing logcat (a restart inside it does not clear)."""
    return [
        a.monotonic
        for a, b in zip(log, log[1:], strict=False)
        if (a.action, b.action) == ("stop", "clear_logcat")
    ]


def test_a_device_leased_by_another_host_is_left_alone_by_a_whole_run(
    project: pytest.Pytester, farm: Farm
) -> None:
    """Another CI runner (its own lock folder, so only the lease on the device tells) holds `first`."""
    first, second = farm.serve(FOOD_APP), farm.serve(FOOD_APP)
    other_host = DeviceLease(first.serial, farm.address, session="other-runner")
    assert other_host.try_acquire()
    try:
        result = project.runpytest(
            "example_suites/food", "-k", "ordering or pickup", *device_args(farm, first, second)
        )
        result.assert_outcomes(passed=2)
        assert not [e for e in first.device.action_log if e.action in ITEM_ACTIONS]
        assert len(_session_starts(second.device.action_log)) == 2
        still = other_host.holder()
        assert still is not None and still.session == "other-runner" and other_host.held
        assert second.server.system.fs.stat(DEFAULT_LEASE_DIR) is None  # the run released its lease
    finally:
        other_host.release()


def test_matrix_mode_runs_every_feature_on_every_device(project: pytest.Pytester, farm: Farm) -> None:
    devices = [farm.serve(FOOD_APP), farm.serve(FOOD_APP)]
    args = ["example_suites/food", "--fairy-matrix", "-k", "pickup", *device_args(farm, *devices)]
    collected = project.runpytest("--collect-only", "-q", *args)
    collected.stdout.fnmatch_lines(
        [f"example_suites/food/test_food.yaml::store pickup[[]{d.serial}[]]" for d in devices]
    )
    result = project.runpytest(*args)
    result.assert_outcomes(passed=2)
    for served in devices:
        assert len(_session_starts(served.device.action_log)) == 1


def test_auto_workers_follow_the_number_of_devices(project: pytest.Pytester) -> None:
    config = project.parseconfigure(
        "-p", "xdist", "--fairy-device=emulator-5554", "--fairy-device=emulator-5556"
    )
    assert config.hook.pytest_xdist_auto_num_workers(config=config) == 2
