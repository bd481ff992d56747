"""Every device call has a deadline: a frozen phone, a wedged uiautomator2 server and a shell command that
never returns end their call in bounded time, and say so.

On the real stack: the real adb server binary, adbutils and uiautomator2, against virtual devices served
over adbd. The frozen phone is a served device in a process of its own, stopped with SIGSTOP (and
continued at teardown). The only timing asserted is a loose bound: under three times the deadline.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import adbutils
import pytest
from device_helpers import FOOD_PACKAGE, QUICK_RECONNECT, Farm
from wire.wire_helpers import ADB_TIMEOUT, FOOD_APP, AdbServer, ServedDevice, free_port

from fairy_virtual.catalog import AppModels
from pytest_fairy.devices.deadline import Deadlines, DeviceNotAnswering, within
from pytest_fairy.devices.driver import U2Device
from pytest_fairy.devices.lease import LeaseWarning
from pytest_fairy.devices.lock import DeviceLock
from pytest_fairy.devices.pool import DevicePool
from pytest_fairy.devices.settings import DeviceSettings
from pytest_fairy.errors import DeviceError, FairyError

REPO = Path(__file__).resolve().parents[2]
LIMIT = 2.0  # seconds: the deadline of every call in these tests
BOUND = 3 * LIMIT  # what a call that meets a fault may take, loosely
LEASE_DIR = "/data/local/tmp/pytest_fairy.lease"


@dataclass
class Frozen:
    """A virtual device served by a process of its own, which `freeze()` stops as a hung phone stops."""

    process: subprocess.Popen[str]
    serial: str

    def freeze(self) -> None:
        os.kill(self.process.pid, signal.SIGSTOP)

    def thaw(self) -> None:
        os.kill(self.process.pid, signal.SIGCONT)


@pytest.fixture
def frozen(adb_server: AdbServer) -> Iterator[Frozen]:
    command = [sys.executable, "-m", "fairy_virtual", "serve", "--app", str(FOOD_APP)]
    command += ["--port", str(free_port()), "--no-latency"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=REPO)
    served = Frozen(process, "")
    try:
        assert process.stdout is not None
        banner = process.stdout.readline()  # virtual device 'virtual' (...) on 127.0.0.1:PORT; run: ...
        served.serial = banner.split(" on ", 1)[1].split(";", 1)[0]
        connected = adb_server.run("connect", served.serial)
        assert f"connected to {served.serial}" in connected.stdout, connected.stdout + connected.stderr
        adb_server.client.wait_for(served.serial, state="device", timeout=ADB_TIMEOUT)
        yield served
    finally:
        # Gone whatever happens, and off the shared adb server: other tests list its devices.
        if served.serial:
            adb_server.run("disconnect", served.serial)
        served.thaw()
        process.terminate()
        try:
            process.wait(ADB_TIMEOUT)
        except subprocess.TimeoutExpired:  # a loaded machine: a thawed server may take its time to stop
            process.kill()
            process.wait(ADB_TIMEOUT)


def bounded_driver(farm: Farm, serial: str) -> U2Device:
    device = U2Device.connect(serial, farm.address, reconnect=QUICK_RECONNECT, deadlines=Deadlines(call=LIMIT))
    device.launch(FOOD_PACKAGE)
    return device


def timed(call: object) -> tuple[BaseException, float]:
    """The exception `call()` ends with and how long it took."""
    started = time.monotonic()
    try:
        call()  # type: ignore[operator]
    except FairyError as exc:
        return exc, time.monotonic() - started
    raise AssertionError("the call returned, but it should have missed its deadline")


# ---- the driver ------------------------------------------------------------------------------------


def test_a_frozen_device_stops_answering_within_the_deadline(farm: Farm, frozen: Frozen) -> None:
    device = bounded_driver(farm, frozen.serial)
    frozen.freeze()
    error, seconds = timed(device.screenshot)
    assert isinstance(error, DeviceNotAnswering)
    assert str(error) == f"device {frozen.serial} stopped answering (take a screenshot, no answer in 2 s)"
    assert seconds < BOUND
    # Every later call says the same at once, without waiting again.
    again, seconds = timed(device.dump_hierarchy)
    assert str(again) == str(error) and seconds < BOUND


def test_the_adb_sockets_of_a_frozen_device_time_out_by_themselves(farm: Farm, frozen: Frozen) -> None:
    """Without the watchdog too: adbutils' 600 s default no longer overrides the limit, for calls that name
    no timeout (shell, shell2, getprop, sync) and for uiautomator2's HTTP socket. (adbutils retries some
    calls, app_current among them, three times: the watchdog bounds those.)"""
    adb = bounded_driver(farm, frozen.serial)._adb_device
    assert adb is not None
    with adb.create_connection(adbutils.Network.TCP, 9008) as sock:
        assert sock.gettimeout() == LIMIT
    frozen.freeze()
    calls = [
        lambda: adb.shell(["echo", "ok"]),
        lambda: adb.shell2(["echo", "ok"]),
        lambda: adb.getprop("ro.product.model"),
        lambda: adb.sync.stat("/data/local/tmp"),
    ]
    for call in calls:
        started = time.monotonic()
        with pytest.raises(Exception) as caught:
            within(10 * LIMIT, call)
        assert "timeout" in f"{type(caught.value).__name__} {caught.value}".lower()
        assert time.monotonic() - started < BOUND


def test_a_wedged_uiautomator2_server_stops_answering_within_the_deadline(
    farm: Farm, food: ServedDevice
) -> None:
    device = bounded_driver(farm, food.serial)
    food.server.system.u2_wedged.set()  # takes every request, answers none, and again once restarted
    error, seconds = timed(device.dump_hierarchy)
    assert str(error) == (
        f"device {food.serial} stopped answering (dump the hierarchy, no answer in 2 s; its uiautomator2 "
        "server was restarted through adb and did not answer within 2 s)"
    )
    assert isinstance(error, DeviceNotAnswering) and seconds < BOUND + LIMIT  # the call, then the restart


def test_a_shell_command_that_never_returns_ends_within_the_deadline(farm: Farm, food: ServedDevice) -> None:
    device = bounded_driver(farm, food.serial)
    error, seconds = timed(lambda: device.shell(["sleep", "50"], doing="wait for the phone"))
    assert str(error) == f"device {food.serial} stopped answering (wait for the phone, no answer in 2 s)"
    assert isinstance(error, DeviceNotAnswering) and seconds < BOUND


def test_a_call_stuck_inside_a_library_is_cut_at_the_deadline_and_retried(farm: Farm, food: ServedDevice) -> None:
    """The watchdog, not a socket: a call stuck where no socket timeout reaches is given up at the
    deadline; the device answers the reconnect, so the call is retried on the fresh connection."""
    device = bounded_driver(farm, food.serial)
    stuck = device.uiautomator
    stuck.dump_hierarchy = lambda *args, **kwargs: time.sleep(60)  # type: ignore[method-assign]
    started = time.monotonic()
    xml = device.dump_hierarchy()
    assert time.monotonic() - started < BOUND
    assert "<hierarchy" in xml and device.reconnects == 1 and device.uiautomator is not stuck


def test_the_watchdog_hands_back_results_and_errors() -> None:
    def fail() -> None:
        raise DeviceError("s", "do", "boom")

    assert within(1.0, lambda: 42) == 42
    with pytest.raises(DeviceError, match="boom"):
        within(1.0, fail)


# ---- the pool: lease, lock and the next items --------------------------------------------------------


def test_a_device_that_stopped_answering_is_released_and_taken_again_once_it_answers(
    farm: Farm, frozen: Frozen, tmp_path: Path
) -> None:
    settings = DeviceSettings(
        devices=(frozen.serial,),
        adb_server=str(farm.address),
        lock_dir=tmp_path / "locks",
        device_wait=0,
        device_timeout=LIMIT,
    )
    pool = DevicePool(settings, REPO, open_virtual=AppModels().open_device, worker="gw0")
    try:
        with pool.lease(None) as device:
            device.launch(FOOD_PACKAGE)
        assert farm.adb.run("shell", "ls", LEASE_DIR, serial=frozen.serial).returncode != 0  # released
        with warnings.catch_warnings(record=True) as warned:
            warnings.simplefilter("always")
            with pytest.raises(DeviceNotAnswering) as first, pool.lease(None) as device:
                frozen.freeze()
                started = time.monotonic()
                device.screenshot()
        assert time.monotonic() - started < BOUND  # the lease was not asked for: it expires by itself
        assert str(first.value).endswith("(take a screenshot, no answer in 2 s)")  # fairy_device_timeout
        assert any(w.category is LeaseWarning and "stopped answering" in str(w.message) for w in warned)
        lock = DeviceLock.in_folder(tmp_path / "locks", f"{farm.address}/{frozen.serial}")
        assert lock.try_acquire()  # this host's lock is free at once
        lock.release()

        started = time.monotonic()
        with pytest.raises(DeviceNotAnswering) as second, pool.lease(None):
            pass
        assert str(second.value) == str(first.value)
        assert time.monotonic() - started < BOUND  # asked once more, for a few seconds: still silent

        frozen.thaw()  # it answers again: the next item takes it, with a fresh connection
        with pool.lease(None) as device:
            assert device.screenshot().size[0] > 0
    finally:
        pool.close()


# ---- the ini key -------------------------------------------------------------------------------------


def test_fairy_device_timeout_is_read_and_checked(pytester: pytest.Pytester) -> None:
    from pytest_fairy.plugin.options import read_config

    assert read_config(pytester.parseconfigure()).device.device_timeout == 20.0
    assert read_config(pytester.parseconfigure("-o", "fairy_device_timeout=2.5")).device.device_timeout == 2.5
    for bad in ("0", "-1", "soon"):
        with pytest.raises(pytest.UsageError, match=f"fairy_device_timeout: expected seconds, more than 0, got '{bad}'"):
            read_config(pytester.parseconfigure("-o", f"fairy_device_timeout={bad}"))
