"""The line a waiting run prints, in real pytest runs over adb: plain, and under xdist (whose workers'
stdout goes nowhere), while this test holds the device's lock as another run on the host would.

Also the lease's note of who waits, and the warning of a lease that went with a device's restart.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from device_helpers import Farm
from wire.wire_helpers import ServedDevice

from pytest_fairy.devices.claim import DeviceClaim
from pytest_fairy.devices.lease import GONE_AT_RELEASE, REMOVED, DeviceLease, LeaseWarning
from pytest_fairy.devices.lease_record import LeaseRecord, LeaseSettings
from pytest_fairy.devices.lock import DeviceLock
from pytest_fairy.devices.queue import Waiting

pytestmark = pytest.mark.wire

REPO = Path(__file__).resolve().parents[2]
QUICK = LeaseSettings(ttl=2.0, heartbeat=0.25, poll=0.05, command_timeout=5.0)


class Output:
    """A subprocess's stdout and stderr, read as they come (neither pipe can fill up and stall it)."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.out: list[str] = []
        self.err: list[str] = []
        self.readers = [
            threading.Thread(target=self._read, args=(proc.stdout, self.out), daemon=True),
            threading.Thread(target=self._read, args=(proc.stderr, self.err), daemon=True),
        ]
        for reader in self.readers:
            reader.start()

    @staticmethod
    def _read(stream: object, into: list[str]) -> None:
        for line in stream:  # type: ignore[attr-defined]
            into.append(line.rstrip("\n"))

    def join(self) -> None:
        for reader in self.readers:
            reader.join(timeout=60)


def run_while_held(project: Path, farm: Farm, served: ServedDevice, lock_dir: Path, *args: str) -> Output:
    """A pytest run of the food suite's quick items on `served`, while this process holds the device's
    lock; released once the run's first waiting line came out (on stdout or stderr)."""
    held = DeviceLock(lock_dir, f"{farm.address}/{served.serial}")
    assert held.try_acquire()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_XDIST", "PYTEST_CURRENT"))}
    argv = [sys.executable, "-m", "pytest", "example_suites/food", "-k", "time or pickup"]
    argv += ["-p", "no:cacheprovider", f"--fairy-adb={farm.address}", f"--fairy-device={served.serial}"]
    proc = subprocess.Popen(
        [*argv, *args], cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    output = Output(proc)
    try:
        end = time.monotonic() + 120  # loose: a run that never says it waits fails here, not hangs
        while not any("waiting for" in line for line in output.out + output.err):
            assert proc.poll() is None, f"the run ended without waiting: {output.out} {output.err}"
            assert time.monotonic() < end, f"no waiting line: {output.out} {output.err}"
            time.sleep(0.05)
    finally:
        held.release()
        try:
            proc.wait(timeout=300)
        finally:
            if proc.poll() is None:
                proc.kill()
    output.join()
    assert proc.returncode == 0, "\n".join(output.out + output.err)
    return output


@pytest.fixture
def project(tmp_path: Path, lock_dir: Path) -> Path:
    shutil.copytree(REPO / "example_suites" / "food", tmp_path / "example_suites" / "food")
    (tmp_path / "pytest.ini").write_text(
        f"[pytest]\nfairy_artifacts = .fairy\nfairy_lock_dir = {lock_dir}\n", encoding="utf-8"
    )
    return tmp_path


def test_a_waiting_run_says_for_which_device_and_who_holds_it(
    project: Path, farm: Farm, food: ServedDevice, lock_dir: Path
) -> None:
    output = run_while_held(project, farm, food, lock_dir)
    line = next(line for line in output.out if "waiting for" in line)
    assert line.startswith(f"waiting for {food.serial}, held by pid {os.getpid()} on ")
    assert line.endswith("(1 waiting)")


def test_a_waiting_xdist_worker_says_so_on_the_terminal(
    project: Path, farm: Farm, food: ServedDevice, lock_dir: Path
) -> None:
    output = run_while_held(project, farm, food, lock_dir, "-p", "xdist", "-n", "2")
    lines = [line for line in output.err if "waiting for" in line]
    assert lines, output.err
    assert lines[0].startswith("[gw")
    assert f"] waiting for {food.serial}, held by pid {os.getpid()} on " in lines[0]


def test_the_lease_record_notes_who_of_the_holders_host_waits(farm: Farm, food: ServedDevice) -> None:
    since = time.time() - 12
    lease = DeviceLease(food.serial, farm.address, QUICK, waiters=lambda: Waiting(2, since))
    assert lease.try_acquire()
    try:
        other = DeviceLease(food.serial, farm.address, QUICK)
        assert not other.try_acquire()
        record = other.holder()
        assert record is not None
        assert (record.waiting, record.waiting_since) == (2, pytest.approx(since))
        assert other.owner().endswith(", 2 more waiting on " + record.host + " (the oldest for 12s)")
    finally:
        lease.release()


def test_a_queue_that_cannot_be_read_leaves_the_note_out_and_the_lease_held(
    farm: Farm, food: ServedDevice
) -> None:
    def unreadable() -> Waiting:
        raise PermissionError("locks folder")

    lease = DeviceLease(food.serial, farm.address, QUICK, waiters=unreadable)
    assert lease.try_acquire()
    try:
        time.sleep(3 * QUICK.heartbeat_seconds)  # renewals ran (and asked for the note) meanwhile
        record = lease.holder()
        assert record is not None and record.waiting == 0
        assert lease.held and not lease.lost
    finally:
        lease.release()


def test_a_lease_record_without_a_note_of_waiters_still_parses() -> None:
    old = b'{"expires": 1.0, "host": "ci-7", "pid": 1, "session": "s", "token": "t", "worker": "gw0"}'
    record = LeaseRecord.parse(old)
    assert (record.waiting, record.waiting_since) == (0, None)
    assert "waiting" not in record.describe(0.0)


class _VanishedLease:
    """A lease whose record went from the device during the item."""

    def __init__(self, lost: str) -> None:
        self.serial, self.lost, self.settings = "emulator-5554", lost, QUICK

    def release(self) -> None:
        pass


@pytest.mark.parametrize("lost", [REMOVED, GONE_AT_RELEASE])
def test_a_lease_that_went_with_a_restart_is_not_blamed_on_another_host(lost: str) -> None:
    with pytest.warns(LeaseWarning, match="restarted during the item") as said:
        DeviceClaim._release_lease(_VanishedLease(lost), reconnected=True)  # type: ignore[arg-type]
    assert "another host" not in str(said[0].message)
    with pytest.warns(LeaseWarning, match="another host may have driven it too"):
        DeviceClaim._release_lease(_VanishedLease(lost), reconnected=False)  # type: ignore[arg-type]
    with pytest.warns(LeaseWarning, match="another host may have driven it"):
        DeviceClaim._release_lease(_VanishedLease("taken over by pid 1"), reconnected=True)  # type: ignore[arg-type]
