"""Phones booked from an STF farm (`--fairy-device stf+http://...`), against STF's API document.

The farm is `StfStandIn` (tests/devices/stf_standin.py): every request is checked against STF's swagger
document, bookings follow STF's rules, and `remoteConnect` puts a virtual phone behind a proxy that the
real `adb connect` reaches, through the private adb server of these tests. A phone lets that server in only
when the booking user registered its key: a run registers `$HOME/.android/adbkey.pub`, so HOME holds the
server's real key (`adb_server.public_key`), but where a test says otherwise.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from device_helpers import FOOD_APP, Farm, home_with_key
from stf_standin import TOKEN, USER, StfStandIn
from wire.wire_helpers import AdbServer

from pytest_fairy.devices import stf as stf_provider
from pytest_fairy.report.allure_environment import read_properties
from tests.verdicts import verdict_counts

pytestmark = pytest.mark.wire

REPO = Path(__file__).resolve().parents[2]
ITEM_ACTIONS = {"dump", "screenshot", "tap", "long_tap", "swipe", "type_text", "press", "launch", "stop"}
SPAN_CONFTEST = """
import json, os
import pytest

@pytest.fixture
def fairy_device(fairy_device):
    yield fairy_device
    line = {"serial": fairy_device.serial, "worker": os.environ.get("PYTEST_XDIST_WORKER", "")}
    with open(os.environ["FAIRY_SPANS"], "a", encoding="utf-8") as out:
        out.write(json.dumps(line) + "\\n")
"""


@pytest.fixture
def project(
    pytester: pytest.Pytester, lock_dir: Path, adb_server: AdbServer, monkeypatch: pytest.MonkeyPatch
) -> pytest.Pytester:
    """The food suite, one second to find a phone, and the adb server's key where adb keeps it
    ($HOME/.android): the run registers the key the phones then check."""
    shutil.copytree(REPO / "example_suites" / "food", pytester.path / "food")
    pytester.makeini(
        f"[pytest]\nfairy_artifacts = .fairy\nfairy_lock_dir = {lock_dir}\nfairy_device_wait = 1\n"
        "filterwarnings = ignore::pytest.PytestAssertRewriteWarning\n"
    )
    home_with_key(pytester.path, adb_server.public_key, monkeypatch)
    monkeypatch.setenv("STF_TOKEN", TOKEN)
    return pytester


def farm_args(farm: Farm, stf: StfStandIn, requirements: str = "sdk>=30") -> list[str]:
    return [f"--fairy-adb={farm.address}", f"--fairy-device=stf+{stf.url}?{requirements}"]


def calls(stf: StfStandIn) -> list[str]:
    return [f"{r.method} {r.path} {r.status}" for r in stf.requests]


def adb_lists(farm: Farm, serial: str) -> bool:
    return any(d.serial == serial for d in farm.adb.client.list())


# ---- whole runs ---------------------------------------------------------------------------------------


def test_a_run_books_a_phone_that_meets_the_requirements_and_gives_it_back(
    project: pytest.Pytester, farm: Farm, stf: StfStandIn
) -> None:
    old = stf.add_phone("stf-old", FOOD_APP, sdk=28)
    new = stf.add_phone("stf-new", FOOD_APP, sdk=34)
    result = project.runpytest("food", "-k", "pickup", "--alluredir", "allure", *farm_args(farm, stf))
    result.assert_outcomes(passed=1)
    environment = read_properties(project.path / "allure" / "environment.properties")
    assert environment["farm"] == f"STF at {stf.url} (sdk>=30)"
    assert environment["device"].startswith("127.0.0.1:") and "Pixel 7" in environment["device"]
    result.stdout.fnmatch_lines(
        [
            f"fairy: device STF at {stf.url} (sdk>=30; a phone booked per worker) (adb server {farm.address}); *"
        ]
    )
    assert stf.violations == []
    assert stf.booked() == {}  # given back
    assert stf.adb_keys == {USER: [farm.adb.public_key]}  # the key adb signs with, sent before connecting
    booked = [r for r in stf.requests if (r.method, r.path) == ("POST", "/api/v1/user/devices")]
    assert [r.body for r in booked] == [{"serial": "stf-new", "timeout": 300_000}]  # with STF's expiry
    flow = [c for c in calls(stf) if not c.startswith("GET /api/v1/devices")]
    assert flow == [
        "GET /api/v1/user 200",
        "POST /api/v1/user/adbPublicKeys 200",
        "POST /api/v1/user/devices 200",
        "POST /api/v1/user/devices/stf-new/remoteConnect 200",
        "DELETE /api/v1/user/devices/stf-new/remoteConnect 200",
        "DELETE /api/v1/user/devices/stf-new 200",
    ]
    assert any(e.action in ITEM_ACTIONS for e in new.device.action_log)
    assert not any(e.action in ITEM_ACTIONS for e in old.device.action_log)
    assert new.relay is None and not [d for d in farm.adb.client.list() if d.serial.startswith("127.0.0.1:")
                                      and d.state != "device"]  # fmt: skip


def test_two_workers_book_a_phone_each_and_never_share_one(
    project: pytest.Pytester, farm: Farm, stf: StfStandIn, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    phones = [stf.add_phone(f"stf-{n}", FOOD_APP) for n in range(3)]
    project.makeconftest(SPAN_CONFTEST)
    spans_file = tmp_path / "spans.jsonl"
    monkeypatch.setenv("FAIRY_SPANS", str(spans_file))
    result = project.runpytest_subprocess("food", "-p", "xdist", "-n", "2", *farm_args(farm, stf))
    result.assert_outcomes(passed=4)
    assert stf.violations == []
    assert stf.booked() == {}
    taken = [r.body["serial"] for r in stf.requests if r.path == "/api/v1/user/devices" and r.status == 200]
    assert len(taken) == len(set(taken)) == 2  # one per worker
    spans = [json.loads(line) for line in spans_file.read_text().splitlines()]
    workers_of = {s["serial"]: {t["worker"] for t in spans if t["serial"] == s["serial"]} for s in spans}
    assert all(len(workers) == 1 for workers in workers_of.values()), workers_of
    untouched = [p for p in phones if p.serial not in taken]
    assert len(untouched) == 1 and not any(e.action in ITEM_ACTIONS for e in untouched[0].device.action_log)


TIMED_SPAN_CONFTEST = """
import json, os, time
import pytest

@pytest.fixture
def fairy_device(fairy_device):
    started = time.time()
    yield fairy_device
    line = {"serial": fairy_device.serial, "runner": os.environ["FAIRY_RUNNER"],
            "worker": os.environ.get("PYTEST_XDIST_WORKER", ""), "start": started, "end": time.time()}
    with open(os.environ["FAIRY_SPANS"], "a", encoding="utf-8") as out:
        out.write(json.dumps(line) + "\\n")
"""


@pytest.mark.slow
def test_two_sessions_of_two_workers_share_a_farm_of_three_and_every_item_runs(
    project: pytest.Pytester, farm: Farm, stf: StfStandIn, tmp_path: Path
) -> None:
    """Four workers, three phones: the fourth waits for a phone the other session gives back, and no phone
    is ever driven by two workers at once."""
    for n in range(3):
        stf.add_phone(f"stf-{n}", FOOD_APP)
    project.makeconftest(TIMED_SPAN_CONFTEST)
    ini = project.path / "tox.ini"  # pytester's makeini
    ini.write_text(
        ini.read_text(encoding="utf-8").replace("fairy_device_wait = 1\n", "fairy_device_wait = 120\n")
    )
    spans_file = tmp_path / "spans.jsonl"
    runners = []
    for name in ("a", "b"):
        env = {**os.environ, "FAIRY_SPANS": str(spans_file), "FAIRY_RUNNER": name}
        args = [sys.executable, "-m", "pytest", "food", "-p", "xdist", "-n", "2", "-p", "no:cacheprovider",
                *farm_args(farm, stf)]  # fmt: skip
        runners.append(subprocess.Popen(args, cwd=project.path, env=env, stdout=subprocess.PIPE, text=True))
    outputs = [runner.communicate(timeout=600)[0] for runner in runners]
    for output in outputs:
        assert "4 passed" in output, output[-2000:]
    spans = [json.loads(line) for line in spans_file.read_text(encoding="utf-8").splitlines()]
    assert len(spans) == 8
    for span in spans:  # the phone behind the adb address the worker was lent
        span["phone"] = stf.lent[span["serial"]]
    assert len({span["phone"] for span in spans}) == 3  # the fourth worker ran on a phone given back
    assert len({(span["runner"], span["worker"]) for span in spans}) == 4
    for one in spans:
        for other in spans:
            same_phone = one["phone"] == other["phone"]
            other_worker = (one["runner"], one["worker"]) != (other["runner"], other["worker"])
            if same_phone and other_worker:  # one after the other, never at once
                assert one["end"] <= other["start"] or other["end"] <= one["start"], (one, other)
    assert stf.booked() == {} and stf.violations == []


PAUSE_CONFTEST = """
import os, pathlib, time
import pytest

@pytest.hookimpl(tryfirst=True)
def pytest_runtest_call(item):
    started, dropped = pathlib.Path(os.environ["FAIRY_STARTED"]), pathlib.Path(os.environ["FAIRY_DROPPED"])
    if not started.exists():  # the first item waits, on its phone, until the phone is gone
        started.touch()
        deadline = time.monotonic() + 60
        while not dropped.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
"""


@pytest.mark.slow
def test_a_phone_dropping_off_the_farm_mid_item_ends_it_inconclusive_and_its_booking_is_given_back(
    project: pytest.Pytester, farm: Farm, stf: StfStandIn, tmp_path: Path
) -> None:
    stf.add_phone("stf-1", FOOD_APP)
    project.makeconftest(PAUSE_CONFTEST)
    started, dropped = tmp_path / "started", tmp_path / "dropped"
    env = {**os.environ, "FAIRY_STARTED": str(started), "FAIRY_DROPPED": str(dropped)}
    args = [sys.executable, "-m", "pytest", "food", "-k", "pickup or time", "-p", "no:xdist", "-rA",
            *farm_args(farm, stf)]  # fmt: skip
    runner = subprocess.Popen(args, cwd=project.path, env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert wait_for(started.exists, 120)
        stf.drop("stf-1")
        dropped.touch()
        output = runner.communicate(timeout=300)[0]
    finally:
        if runner.poll() is None:
            runner.kill()
    assert "2 inconclusive" in output, output[-3000:]
    assert "INCONCLUSIVE food/test_food.yaml::store pickup - no device for this item: " in output
    assert stf.booked() == {}  # given back at the end, though the phone is gone
    assert "DELETE /api/v1/user/devices/stf-1 200" in calls(stf)
    assert stf.violations == []


def test_a_run_whose_adb_key_is_not_the_adb_servers_finds_the_phone_unauthorized_and_gives_it_back(
    project: pytest.Pytester, farm: Farm, stf: StfStandIn, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The run registers $HOME/.android/adbkey.pub, but the adb server signs with another key (it runs as
    another user, say): the phone's adbd does not let it in, adb lists the phone `unauthorized`, the item
    is inconclusive saying which key to add where, and the booking is given back."""
    stf.add_phone("stf-1", FOOD_APP)
    not_the_servers = farm.adb.keygen(tmp_path / "adbkey")
    home_with_key(project.path, not_the_servers, monkeypatch)
    monkeypatch.setattr(stf_provider, "CONNECT_SECONDS", 3.0)  # how long adb may list it unauthorized
    result = project.runpytest("food", "-k", "pickup", *farm_args(farm, stf))
    assert verdict_counts(result) == {"passed": 0, "failed": 0, "inconclusive": 1}
    [url] = stf.lent
    result.stdout.fnmatch_lines(
        [
            f"INCONCLUSIVE food/test_food.yaml::store pickup - no device for this item: device {url}: connect STF "
            f"phone stf-1: adb lists it as unauthorized: STF does not know the key the adb server at "
            f"{farm.address} signs with (this run registered $HOME/.android/adbkey.pub of its own user; a "
            "server started by another user or on another host has its own): add that server's adbkey.pub in "
            "STF: Settings > Keys > ADB Keys"
        ]
    )
    assert stf.adb_keys == {USER: [not_the_servers]}
    assert stf.booked() == {}  # given back
    assert "DELETE /api/v1/user/devices/stf-1 200" in calls(stf)
    assert not adb_lists(farm, url)  # and disconnected
    assert stf.violations == []


def test_a_token_stf_refuses_is_a_usage_error_in_one_line(
    project: pytest.Pytester, farm: Farm, stf: StfStandIn, monkeypatch: pytest.MonkeyPatch
) -> None:
    stf.add_phone("stf-1", FOOD_APP)
    monkeypatch.setenv("STF_TOKEN", "expired-token")
    result = project.runpytest("food", *farm_args(farm, stf))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert [line for line in result.stderr.lines if line.strip()] == [
        f"ERROR: --fairy-device stf+{stf.url}?sdk>=30: STF at {stf.url} refused STF_TOKEN (401 Bad Credentials): "
        "create an access token in STF (Settings > Keys > Access Tokens) and set it"
    ]
    assert calls(stf) == ["GET /api/v1/user 401"] and stf.violations == []


def test_a_missing_token_is_a_usage_error_naming_the_variable(
    project: pytest.Pytester, farm: Farm, stf: StfStandIn, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("STF_TOKEN")
    result = project.runpytest("food", *farm_args(farm, stf))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [f"ERROR: --fairy-device stf+{stf.url}?sdk>=30: set STF_TOKEN to an STF access *"]
    )
    assert stf.requests == []


def test_no_free_matching_phone_ends_the_items_inconclusive_naming_the_farm_and_requirements(
    project: pytest.Pytester, farm: Farm, stf: StfStandIn
) -> None:
    stf.add_phone("stf-old", FOOD_APP, sdk=28)
    stf.add_phone("stf-taken", FOOD_APP, sdk=34)
    stf.book_as("someone.else@example.org", "stf-taken")
    result = project.runpytest("food", "-k", "pickup or time", *farm_args(farm, stf))
    assert verdict_counts(result) == {"passed": 0, "failed": 0, "inconclusive": 2}
    result.stdout.fnmatch_lines(
        [
            f"INCONCLUSIVE food/test_food.yaml::* - no device for this item: farm stf+{stf.url}?sdk>=30: no free "
            "phone with sdk>=30: none within 1 s (2 phones listed, 1 matching, 1 of them in use or not ready)"
        ]
    )
    assert stf.booked() == {"stf-taken": "someone.else@example.org"}  # another user's booking left alone
    assert stf.violations == []


def test_an_interrupted_run_gives_its_phone_back(
    project: pytest.Pytester, farm: Farm, stf: StfStandIn
) -> None:
    stf.add_phone("stf-1", FOOD_APP)
    project.makeconftest(
        "import pytest\n\n@pytest.hookimpl(tryfirst=True)\ndef pytest_runtest_call(item):\n"
        "    raise KeyboardInterrupt\n"
    )
    result = project.runpytest_subprocess("food", "-k", "pickup", *farm_args(farm, stf))
    assert result.ret == pytest.ExitCode.INTERRUPTED
    assert stf.booked() == {}
    assert "DELETE /api/v1/user/devices/stf-1 200" in calls(stf)


@pytest.mark.slow
def test_a_worker_slow_to_exit_has_given_its_phone_back_before_xdist_stops_waiting(
    project: pytest.Pytester, farm: Farm, stf: StfStandIn
) -> None:
    """xdist kills a worker still running 10 s after it reported itself finished (a loaded machine, a
    plugin slow to unconfigure): its phone went back before that report."""
    stf.add_phone("stf-1", FOOD_APP)
    project.makeconftest(
        "import os, time\n\ndef pytest_unconfigure(config):\n"
        "    if os.environ.get('PYTEST_XDIST_WORKER'):\n        time.sleep(30)\n"
    )
    result = project.runpytest_subprocess(
        "food", "-k", "pickup", "-p", "xdist", "-n", "1", *farm_args(farm, stf)
    )
    result.assert_outcomes(passed=1)
    assert stf.booked() == {}
    assert "DELETE /api/v1/user/devices/stf-1 200" in calls(stf)


@pytest.mark.slow
def test_the_example_suites_on_three_farm_phones_with_both_apps(
    project: pytest.Pytester, farm: Farm, stf: StfStandIn
) -> None:
    """`pytest example_suites -n 3` on a farm of three phones that each have the food and the notes app:
    three phones booked through real adb, every item as on the built-in virtual device, none left booked."""
    shutil.copytree(REPO / "example_suites", project.path / "example_suites")
    phones = [stf.add_phone(f"stf-{n}", [FOOD_APP, REPO / "example_suites" / "notes"]) for n in range(3)]
    result = project.runpytest_subprocess("example_suites", "-p", "xdist", "-n", "3", *farm_args(farm, stf))
    assert verdict_counts(result) == {"passed": 8, "failed": 0, "inconclusive": 0}
    taken = [r.body["serial"] for r in stf.requests if r.path == "/api/v1/user/devices" and r.status == 200]
    assert sorted(taken) == ["stf-0", "stf-1", "stf-2"]
    assert all(any(e.action in ITEM_ACTIONS for e in phone.device.action_log) for phone in phones)
    assert stf.booked() == {} and stf.violations == []


HOLD_CONFTEST = """
import time
import pytest

@pytest.hookimpl(tryfirst=True)
def pytest_runtest_call(item):
    time.sleep(600)  # every worker holds its phone until the runner is killed
"""


def wait_for(condition: object, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.1)
    return False


@pytest.mark.slow
def test_three_workers_book_three_phones_and_a_killed_runners_bookings_expire(
    project: pytest.Pytester, farm: Farm
) -> None:
    """`-n 3` on a farm of 3: a runner killed with -9 mid-run leaves its 3 bookings, which STF ends by the
    expiry every booking carries; the next run books the 3 phones again, passes and leaves none."""
    stf = StfStandIn(speed=30.0)  # the 5-minute expiry in 10 s
    try:
        for n in range(3):
            stf.add_phone(f"stf-{n}", FOOD_APP)
        (project.path / "conftest.py").write_text(HOLD_CONFTEST, encoding="utf-8")
        args = [sys.executable, "-m", "pytest", "food", "-p", "xdist", "-n", "3", *farm_args(farm, stf)]
        runner = subprocess.Popen(
            args,
            cwd=project.path,
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            assert wait_for(lambda: len(stf.booked()) == 3, 60), stf.booked()
        finally:
            os.killpg(runner.pid, signal.SIGKILL)
            runner.wait()
        assert not any(r.method == "DELETE" for r in stf.requests)  # nothing was given back
        # Freed by the expiry we asked for (10 s here), well before STF's own default (30 s here).
        assert wait_for(lambda: stf.booked() == {}, 20), stf.booked()

        (project.path / "conftest.py").unlink()
        result = project.runpytest_subprocess("food", "-p", "xdist", "-n", "3", *farm_args(farm, stf))
        result.assert_outcomes(passed=4)
        taken = [
            r.body["serial"] for r in stf.requests if r.path == "/api/v1/user/devices" and r.status == 200
        ]
        assert sorted(taken[3:]) == ["stf-0", "stf-1", "stf-2"]  # the second run's three bookings
        assert stf.booked() == {}
        assert stf.violations == []
    finally:
        stf.stop()
