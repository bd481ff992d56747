"""Device locks (cross-process, released when the holder dies) and the pool's choice of device."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairy_virtual import VirtualDevice
from fairy_virtual.catalog import AppModels
from pytest_fairy.devices.lock import DeviceLock, LockTimeout, acquire_first, default_lock_dir
from pytest_fairy.devices.pool import DevicePool
from pytest_fairy.devices.settings import DeviceSettings

REPO = Path(__file__).resolve().parents[2]
FOOD_MODEL = REPO / "example_suites" / "food" / "app.yaml"
HOLD_LOCK = """
import sys, time
from pathlib import Path
from pytest_fairy.devices.lock import DeviceLock
lock = DeviceLock(Path(sys.argv[1]), sys.argv[2])
assert lock.try_acquire()
print("held", flush=True)
time.sleep(600)
"""


def test_a_lock_excludes_a_second_holder_until_released(lock_dir: Path) -> None:
    first, second = DeviceLock(lock_dir, "adb/emulator-5554"), DeviceLock(lock_dir, "adb/emulator-5554")
    assert first.try_acquire()
    assert not second.try_acquire()
    with pytest.raises(LockTimeout, match=rf"in use by pid {os.getpid()}"):
        second.__enter__()
    first.release()
    with second:
        assert second.held
    assert not second.held


def test_a_lock_held_by_a_process_that_dies_is_free_again(lock_dir: Path) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(lock_dir), "adb/R58M"], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        lock = DeviceLock(lock_dir, "adb/R58M")
        assert not lock.try_acquire()
        holder.send_signal(signal.SIGKILL)  # no cleanup code runs: only the OS can release it
        holder.wait()
        assert lock.try_acquire()
        lock.release()
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()


def test_acquire_first_prefers_the_order_and_falls_back(lock_dir: Path) -> None:
    a, b = DeviceLock(lock_dir, "adb/A"), DeviceLock(lock_dir, "adb/B")
    assert acquire_first([a, b], wait_seconds=0) is a
    other_a, other_b = DeviceLock(lock_dir, "adb/A"), DeviceLock(lock_dir, "adb/B")
    assert acquire_first([other_a, other_b], wait_seconds=0) is other_b
    third = DeviceLock(lock_dir, "adb/A")
    with pytest.raises(LockTimeout, match=r"no device became free within 0s: adb/A \(held by pid \d+"):
        acquire_first([third, DeviceLock(lock_dir, "adb/B")], wait_seconds=0)
    for lock in (a, other_b):
        lock.release()


@given(st.lists(st.text(min_size=1, max_size=40), min_size=2, max_size=6, unique=True))
def test_distinct_devices_never_share_a_lock_file(keys: list[str]) -> None:
    paths = {DeviceLock(Path("/locks"), key).path for key in keys}
    assert len(paths) == len(keys)
    assert all(path.parent == Path("/locks") for path in paths)


def test_default_lock_dir_is_in_the_user_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert default_lock_dir() == tmp_path / "pytest_fairy" / "locks"


@given(st.integers(0, 63), st.lists(st.sampled_from("ABCDEFG"), min_size=1, max_size=7, unique=True))
def test_worker_n_prefers_device_n_mod_len_then_the_rest(number: int, devices: list[str]) -> None:
    pool = DevicePool(DeviceSettings(devices=tuple(devices)), REPO, open_virtual=AppModels().open_device, worker=f"gw{number}")
    order = pool._preference()
    assert order[0] == devices[number % len(devices)]
    assert sorted(order) == sorted(devices)


def test_without_xdist_the_first_device_comes_first() -> None:
    pool = DevicePool(DeviceSettings(devices=("A", "B")), REPO, open_virtual=AppModels().open_device, worker="")
    assert pool._preference() == ["A", "B"]


def test_virtual_only_leases_the_in_process_device_as_before(tmp_path: Path) -> None:
    pool = DevicePool(DeviceSettings(lock_dir=tmp_path / "locks"), REPO, open_virtual=AppModels().open_device)
    with pool.lease(FOOD_MODEL) as device:
        assert isinstance(device, VirtualDevice)
        assert device.serial == "virtual-food"
    with pool.lease(FOOD_MODEL) as again:
        assert again is device  # reused by the worker, as before
    assert not (tmp_path / "locks").exists()  # nothing to lock


def test_virtual_without_an_app_model_is_a_usage_error() -> None:
    pool = DevicePool(DeviceSettings(), REPO, open_virtual=AppModels().open_device)
    with pytest.raises(pytest.UsageError, match="needs an app model"), pool.lease(None):
        pass


def test_a_busy_real_device_hands_the_item_to_a_virtual_one(lock_dir: Path) -> None:
    config = DeviceSettings(devices=("emulator-5554", "virtual"), lock_dir=lock_dir, adb_server="127.0.0.1:1")
    pool = DevicePool(config, REPO, open_virtual=AppModels().open_device, worker="gw0")
    held = DeviceLock(lock_dir, f"{pool.adb}/emulator-5554")
    assert held.try_acquire()
    try:
        with pool.lease(FOOD_MODEL) as device:
            assert isinstance(device, VirtualDevice)
    finally:
        held.release()


def test_the_owner_is_written_whole_and_leaves_nothing_beside_it(tmp_path: Path) -> None:
    """Replaced, not rewritten in place: a waiter reading it while a holder takes the device again sees a
    whole owner, never an empty file ('held by unknown')."""
    first = DeviceLock(tmp_path, "emulator-5554")
    assert first.try_acquire()
    first.release()
    before = first.owner_path.stat().st_ino
    again = DeviceLock(tmp_path, "emulator-5554")
    assert again.try_acquire()
    assert again.owner().startswith(f"pid {os.getpid()} on ")
    assert again.owner_path.stat().st_ino != before  # a new file renamed over the old one
    assert sorted(p.name for p in tmp_path.iterdir() if "owner" in p.name) == [again.owner_path.name]
    again.release()
