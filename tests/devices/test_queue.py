"""Fair sharing of a device (pytest_fairy.devices.queue): first come, first served, across processes.

The processes are real (subprocesses), the locks and tickets are the real file locks of one lock folder;
no device is needed, only a lock key. Each test asserts the order of what the processes logged, never
how long anything took.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from fairy_virtual import VirtualDevice
from fairy_virtual.catalog import AppModels
from pytest_fairy.devices import queue as queue_module
from pytest_fairy.devices.lock import DeviceLock, acquire_first
from pytest_fairy.devices.pool import DevicePool
from pytest_fairy.devices.queue import DeviceQueue
from pytest_fairy.devices.settings import DeviceSettings

REPO = Path(__file__).resolve().parents[2]
FOOD_MODEL = REPO / "example_suites" / "food" / "app.yaml"
KEY = "127.0.0.1:5037/emulator-5554"
# A run that holds the device for item after item, releasing it between items and asking again at once
# (as the pool does), until told to stop (or 400 items: a waiter that starves sees the run end first).
# An item takes 0.2 s: a waiter started while one runs must wait, the case these tests are about.
HOLDER = """
import sys, time
from pathlib import Path
from pytest_fairy.devices.lock import DeviceLock, acquire_first
folder, key, log, stop = Path(sys.argv[1]), sys.argv[2], sys.argv[3], Path(sys.argv[4])
def note(line):
    with open(log, "a") as out:
        out.write(line + "\\n")
for item in range(400):
    lock = acquire_first([DeviceLock(folder, key)], wait_seconds=120)
    note(f"holder start {item}")
    time.sleep(0.2)  # long beside the moment between two items, when a waiter would find the device free
    note(f"holder end {item}")
    lock.release()
    if stop.exists():
        break
"""
# A run that waits for the first free of its keys, says so, holds it until told to stop, and leaves.
WAITER = """
import sys, time
from pathlib import Path
from pytest_fairy.devices.lock import DeviceLock, acquire_first
folder, name, log, stop, keys = Path(sys.argv[1]), sys.argv[2], sys.argv[3], Path(sys.argv[4]), sys.argv[5:]
def note(line):
    with open(log, "a") as out:
        out.write(line + "\\n")
said = lambda line: note(f"waiter {name} said: {line}")
lock = acquire_first([DeviceLock(folder, key) for key in keys], wait_seconds=120, say=said)
note(f"waiter {name} got {lock.key}")
while not stop.exists():
    time.sleep(0.02)
lock.release()
"""


class Runs:
    """Subprocesses of one test, their shared log, and a stop file; all of them ended at teardown."""

    def __init__(self, folder: Path, tmp: Path) -> None:
        self.folder, self.log, self.stop = folder, tmp / "log.txt", tmp / "stop"
        self.log.touch()
        self.procs: list[subprocess.Popen[bytes]] = []
        self.names: list[str] = []

    def holder(self, key: str = KEY) -> subprocess.Popen[bytes]:
        proc = subprocess.Popen(
            [sys.executable, "-c", HOLDER, str(self.folder), key, str(self.log), str(self.stop)]
        )
        self.procs.append(proc)
        return proc

    def waiter(self, name: str, *keys: str) -> subprocess.Popen[bytes]:
        argv = [sys.executable, "-c", WAITER, str(self.folder), name, str(self.log), str(self.let_go(name))]
        proc = subprocess.Popen([*argv, *(keys or (KEY,))])
        self.procs.append(proc)
        self.names.append(name)
        return proc

    def let_go(self, name: str) -> Path:
        """The file that tells waiter `name` to release its device and leave."""
        return self.stop.with_name(f"stop-{name}")

    def lines(self) -> list[str]:
        return self.log.read_text().splitlines()

    def until(self, check: object, what: str, seconds: float = 60) -> None:
        """Wait (loosely bounded) for `check()`: a condition, not a duration, is what the test relies on."""
        end = time.monotonic() + seconds
        while not check():  # type: ignore[operator]
            assert time.monotonic() < end, f"never happened: {what}; log: {self.lines()}"
            time.sleep(0.02)

    def finish(self) -> None:
        self.stop.touch()
        for name in self.names:
            self.let_go(name).touch()
        for proc in self.procs:
            proc.wait(timeout=120)
            assert proc.returncode == 0


@pytest.fixture
def runs(lock_dir: Path, tmp_path: Path) -> Iterator[Runs]:
    runs = Runs(lock_dir, tmp_path)
    try:
        yield runs
    finally:
        for proc in runs.procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def waiting(folder: Path, key: str = KEY) -> int:
    return len(DeviceLock(folder, key).queue.live())


def test_a_waiter_gets_the_device_at_the_holders_next_release_not_at_the_end_of_its_run(
    runs: Runs, lock_dir: Path
) -> None:
    runs.holder()
    runs.until(lambda: "holder start 0" in runs.lines(), "the holder's first item")
    runs.waiter("w")
    runs.until(lambda: "waiter w got " + KEY in runs.lines(), "the waiter's turn")
    runs.finish()
    lines = runs.lines()
    said = next(i for i, line in enumerate(lines) if line.startswith("waiter w said: "))
    got = lines.index("waiter w got " + KEY)
    between = lines[said + 1 : got]
    # Queued behind the waiter, the holder started no item before the waiter had its turn: at most the one
    # it may have been taking at the very moment the waiter queued (it had looked at the queue just before).
    assert len([line for line in between if line.startswith("holder start")]) <= 1, lines
    # ...and its run went on afterwards: the waiter did not wait for the whole run.
    assert any(line.startswith("holder start") for line in lines[got:]), lines
    assert lines[said].startswith(
        f"waiter w said: waiting for emulator-5554, held by pid {runs.procs[0].pid} on "
    )
    # The waiter itself; and the holder too when it was between two items, queued behind it (under load).
    assert lines[said].endswith(("(1 waiting)", "(2 waiting)")), lines[said]


def test_three_waiters_get_the_device_in_the_order_they_asked(runs: Runs, lock_dir: Path) -> None:
    held = DeviceLock(lock_dir, KEY)
    assert held.try_acquire()
    for count, name in enumerate("abc", 1):
        runs.waiter(name)
        runs.until(lambda count=count: waiting(lock_dir) == count, f"waiter {name} in the queue")
    held.release()
    for name in "abc":  # each holds the device until stopped: let them go one by one
        runs.until(lambda name=name: f"waiter {name} got {KEY}" in runs.lines(), f"waiter {name}'s turn")
        assert [line for line in runs.lines() if " got " in line] == [
            f"waiter {n} got {KEY}" for n in "abc"[: "abc".index(name) + 1]
        ]
        runs.let_go(name).touch()
    runs.finish()
    said = [line for line in runs.lines() if " said: " in line]
    assert said[0].startswith(f"waiter a said: waiting for emulator-5554, held by pid {os.getpid()} on ")
    assert any(line.startswith("waiter c said: ") and line.endswith("(3 waiting)") for line in said)


def test_a_waiter_that_dies_leaves_no_ticket_that_blocks_the_device(runs: Runs, lock_dir: Path) -> None:
    held = DeviceLock(lock_dir, KEY)
    assert held.try_acquire()
    dead = runs.waiter("dead")
    runs.until(lambda: waiting(lock_dir) == 1, "the waiter in the queue")
    tickets = list(DeviceLock(lock_dir, KEY).queue.folder.iterdir())
    dead.send_signal(signal.SIGKILL)  # no cleanup code runs: its ticket file stays, unlocked
    dead.wait()
    assert all(ticket.exists() for ticket in tickets)
    held.release()
    newcomer = DeviceLock(lock_dir, KEY)
    assert acquire_first([newcomer], wait_seconds=0) is newcomer
    newcomer.release()
    assert not any(ticket.exists() for ticket in tickets)  # the stale ticket was removed


def test_a_waiter_for_several_devices_leaves_every_queue_when_it_gets_one(runs: Runs, lock_dir: Path) -> None:
    a, b = DeviceLock(lock_dir, "adb/A"), DeviceLock(lock_dir, "adb/B")
    assert a.try_acquire() and b.try_acquire()
    runs.waiter("w", "adb/A", "adb/B")
    runs.until(lambda: waiting(lock_dir, "adb/A") == waiting(lock_dir, "adb/B") == 1, "a ticket on each")
    b.release()
    runs.until(lambda: "waiter w got adb/B" in runs.lines(), "the waiter on B")
    # Still running and holding B: its ticket for A is gone (withdrawn, not merely left to be found
    # stale), so A's next claimant is not held up.
    assert runs.procs[0].poll() is None
    assert not list(a.queue.folder.glob("*.ticket"))
    assert waiting(lock_dir, "adb/A") == 0
    a.release()
    runs.finish()


def test_a_newcomer_queues_behind_a_waiting_ticket_even_when_the_device_is_free(lock_dir: Path) -> None:
    queue = DeviceLock(lock_dir, KEY).queue
    ticket = queue.join()
    try:
        assert not queue.first(None)
        assert queue.first(ticket)
        newcomer = DeviceLock(lock_dir, KEY)
        with pytest.raises(Exception, match="no device became free"):
            acquire_first([newcomer], wait_seconds=0)
        assert not newcomer.held
    finally:
        ticket.withdraw()
    assert queue.first(None)


def test_tickets_are_served_by_asking_time_not_by_when_their_files_appeared(
    lock_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    queue = DeviceQueue(lock_dir / "q.queue")
    asked = iter([3_000, 1_000, 2_000])
    monkeypatch.setattr(queue_module.time, "time_ns", lambda: next(asked))
    late, early, middle = queue.join(), queue.join(), queue.join()
    try:
        assert [name.asked_ns for name in queue.live()] == [1_000, 2_000, 3_000]
        assert [queue.first(t) for t in (late, early, middle)] == [False, True, False]
        assert queue.waiting().count == 3
        assert queue.waiting(but_pid=os.getpid()).count == 0
        assert queue.waiting().since == pytest.approx(1_000 / 1e9)
    finally:
        for ticket in (late, early, middle):
            ticket.withdraw()
    assert queue.live() == []


def test_an_item_with_a_virtual_device_to_go_to_leaves_a_waited_for_device_to_its_waiter(
    lock_dir: Path,
) -> None:
    # No lease: the free lock alone would let the item onto the (unreachable) device.
    config = DeviceSettings(
        devices=("emulator-5554", "virtual"), lock_dir=lock_dir, adb_server="127.0.0.1:1", device_lease=False
    )
    pool = DevicePool(config, REPO, open_virtual=AppModels().open_device, worker="gw0")
    ticket = DeviceLock(lock_dir, f"{pool.adb}/emulator-5554").queue.join()
    try:
        with pool.lease(FOOD_MODEL) as device:  # the lock is free, but someone waits for the device
            assert isinstance(device, VirtualDevice)
    finally:
        ticket.withdraw()
