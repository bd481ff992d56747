"""The lease on the device (pytest_fairy.devices.lease): what runners on different hosts see of each other.

Each test serves virtual devices over adbd and reaches them through the real adb server, as a farm's
runners reach a farm host's phones. A "host" is a `DeviceLease`, or a `DevicePool` with its own lock
folder (a host's locks are invisible to another host, so only the lease can keep them apart).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from device_helpers import FOOD_APP, Farm
from hypothesis import given
from hypothesis import strategies as st
from wire.wire_helpers import ServedDevice, free_port

from fairy_virtual.catalog import AppModels
from pytest_fairy.devices.claim import LEASE_ERROR_LIMIT, DeviceClaim
from pytest_fairy.devices.driver import AdbServerAddress, U2Device
from pytest_fairy.devices.lease import UNOWNED_MARKER, DeviceLease, LeaseTimeout, LeaseWarning
from pytest_fairy.devices.lease_record import (
    DEFAULT_LEASE_DIR,
    LeaseRecord,
    LeaseSettings,
    OwnerlessSightings,
    process_namespace,
)
from pytest_fairy.devices.lock import LockTimeout
from pytest_fairy.devices.pool import DevicePool
from pytest_fairy.devices.protocol import DeviceLost
from pytest_fairy.devices.settings import DeviceSettings
from pytest_fairy.errors import DeviceError
from pytest_fairy.plugin.options import read_config

pytestmark = pytest.mark.wire

REPO = Path(__file__).resolve().parents[2]
# Quick limits: a ttl of seconds, renewed several times within it even on a busy machine.
QUICK = LeaseSettings(ttl=2.0, heartbeat=0.25, poll=0.05, command_timeout=5.0)
OWNER = f"{DEFAULT_LEASE_DIR}/owner"
RACERS = 4


def lease(
    farm: Farm, served: ServedDevice, settings: LeaseSettings = QUICK, *, session: str = "", worker: str = ""
) -> DeviceLease:
    return DeviceLease(served.serial, farm.address, settings, session=session, worker=worker)


def plant(served: ServedDevice, record: LeaseRecord | None) -> None:
    """Leave a lease on the device as another host would have: mkdir, then its record (None: none)."""
    device = served.adb_device()
    assert device.shell2(["mkdir", DEFAULT_LEASE_DIR]).returncode == 0
    if record is not None:
        device.sync.push(record.to_bytes(), OWNER, mode=0o644)


def on_device(served: ServedDevice) -> list[str]:
    """The names inside the lease directory, as the device's own file system has them ([] when none)."""
    fs = served.server.system.fs
    return [name for name, _ in fs.list(DEFAULT_LEASE_DIR)] if fs.stat(DEFAULT_LEASE_DIR) else []


def record(**fields: object) -> LeaseRecord:
    values: dict[str, object] = {
        "host": "ci-runner-7",
        "pid": 4242,
        "worker": "gw3",
        "session": "other",
        "token": "0" * 32,
        "expires": time.time() + 600,
        "namespace": "",
    }
    values.update(fields)
    return LeaseRecord(**values)  # type: ignore[arg-type]


def until(condition: Callable[[], bool], *, seconds: float, what: str) -> None:
    """Poll `condition` up to `seconds`; a safety net against a hang, not a measurement."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {seconds}s: {what}")
        time.sleep(0.05)


def race(leases: list[DeviceLease]) -> list[bool]:
    """Every lease tries at once (released by one barrier), each from its own thread."""
    barrier = threading.Barrier(len(leases))
    results: list[bool | BaseException] = [False] * len(leases)

    def take(index: int) -> None:
        barrier.wait()
        try:
            results[index] = leases[index].try_acquire()
        except BaseException as exc:  # handed to the test thread below
            results[index] = exc

    threads = [threading.Thread(target=take, args=(i,)) for i in range(len(leases))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for result in results:
        if isinstance(result, BaseException):
            raise result
    return [bool(r) for r in results]


# ---- the lease on its own ---------------------------------------------------------------------------


def test_the_first_mkdir_wins_and_its_record_says_who_holds_the_device(
    farm: Farm, food: ServedDevice
) -> None:
    first = lease(farm, food, session="s-one", worker="gw0")
    second = lease(farm, food, session="s-two", worker="gw1")
    assert first.try_acquire() and first.held
    try:
        assert not second.try_acquire()
        with pytest.raises(
            LeaseTimeout, match=rf"{food.serial}: leased by pid {os.getpid()} on .* \(gw0, session s-one\)"
        ):
            second.__enter__()
        held = second.holder()
        assert held is not None
        assert (held.host, held.pid, held.worker, held.session) == (
            socket.gethostname(),
            os.getpid(),
            "gw0",
            "s-one",
        )
        assert held.expires > time.time()
        assert on_device(food) == ["owner"]
    finally:
        first.release()
    assert on_device(food) == [] and not first.held
    with second:  # free again: the next one gets it
        assert second.held
    assert on_device(food) == []


def test_of_racing_hosts_exactly_one_gets_a_free_device(farm: Farm, food: ServedDevice) -> None:
    racers = [lease(farm, food, worker=f"gw{i}") for i in range(RACERS)]
    won = race(racers)
    try:
        assert won.count(True) == 1
        winner = racers[won.index(True)]
        assert lease(farm, food).holder() == winner._record
    finally:
        for racer in racers:
            racer.release()


def test_an_expired_lease_is_taken_over_by_exactly_one_of_racing_hosts(
    farm: Farm, food: ServedDevice
) -> None:
    stale = record(expires=time.time() - 5, token="a" * 32)
    plant(food, stale)
    racers = [lease(farm, food, worker=f"gw{i}") for i in range(RACERS)]
    won = race(racers)
    try:
        assert won.count(True) == 1
        winner = racers[won.index(True)]
        held = winner.holder()
        assert held is not None and held.token != stale.token and held.worker == winner.worker
        assert on_device(food) == ["owner", f"takeover-{stale.token}"]
        assert not lease(farm, food).try_acquire()  # the new holder's lease is live
    finally:
        for racer in racers:
            racer.release()
    assert on_device(food) == []


def test_a_lease_whose_holder_process_died_on_this_machine_is_free_at_once(
    farm: Farm, food: ServedDevice
) -> None:
    child = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    here = {"host": socket.gethostname(), "namespace": process_namespace(), "expires": time.time() + 600}
    if not here["namespace"]:
        pytest.skip("no /proc here to tell whose pids are whose")
    plant(food, record(pid=os.getpid(), token="b" * 32, **here))  # alive: this very process
    alive = lease(farm, food)
    assert not alive.try_acquire()
    food.adb_device().shell2(["rm", "-r", DEFAULT_LEASE_DIR])
    plant(food, record(pid=int(child.stdout), token="c" * 32, **here))  # exited: nobody renews it
    with lease(farm, food) as taker:
        assert on_device(food) == ["owner", f"takeover-{'c' * 32}"]
        assert taker.held


def test_a_lease_from_another_machine_is_not_judged_by_our_pids(farm: Farm, food: ServedDevice) -> None:
    plant(food, record(pid=2**22 + 17, namespace="another-boot/pid:[1]"))  # no such pid here, but not ours
    assert not lease(farm, food).try_acquire()


def test_a_live_lease_is_renewed_and_never_taken_over_across_several_ttls(
    farm: Farm, food: ServedDevice
) -> None:
    # A TTL well above the heartbeat: a busy CI machine may stall a beat for a second.
    settings = LeaseSettings(ttl=2.5, heartbeat=0.2, poll=0.05, command_timeout=5.0)
    holder, other = lease(farm, food, settings, worker="gw0"), lease(farm, food, settings, worker="gw1")
    assert holder.try_acquire()
    try:
        first = holder.holder()
        assert first is not None
        deadline = time.monotonic() + 3 * settings.ttl
        while time.monotonic() < deadline:
            assert not other.try_acquire(), "a live lease was taken over"
            time.sleep(settings.poll)
        last = holder.holder()
        assert last is not None and last.token == first.token
        assert last.expires > first.expires + settings.ttl  # renewed by the heartbeat
        assert holder.held and holder.lost == ""
    finally:
        holder.release()


def test_a_holder_that_stops_renewing_loses_the_device_after_its_ttl(farm: Farm, food: ServedDevice) -> None:
    settings = LeaseSettings(ttl=1.0, heartbeat=0.2, poll=0.05, command_timeout=5.0)
    holder, other = lease(farm, food, settings, worker="gw0"), lease(farm, food, settings, worker="gw1")
    assert holder.try_acquire()
    holder._stop.set()  # its heartbeat thread ends: as a holder that hangs, or lost the network
    until(other.try_acquire, seconds=20 * settings.ttl, what="the expired lease taken over")
    try:
        holder.release()  # late: it must not remove the new holder's lease
        assert "someone else's lease" in holder.lost
        again = other.holder()
        assert again is not None and again.worker == "gw1"
    finally:
        other.release()


def test_a_heartbeat_that_finds_its_lease_taken_says_so(farm: Farm, food: ServedDevice) -> None:
    holder = lease(farm, food)
    assert holder.try_acquire()
    food.adb_device().shell2(["rm", "-r", DEFAULT_LEASE_DIR])  # cleared by hand on the farm host
    until(lambda: bool(holder.lost), seconds=20 * QUICK.ttl, what="the heartbeat noticing")
    assert holder.lost == "removed from the device" and not holder.held
    holder.release()
    assert on_device(food) == []


def test_a_lease_without_an_owner_record_is_taken_after_a_ttl_of_seeing_none(
    farm: Farm, food: ServedDevice
) -> None:
    plant(food, None)  # its holder died between its mkdir and its record
    settings = LeaseSettings(ttl=0.5, heartbeat=0.1, poll=0.05, command_timeout=5.0)
    taker = lease(farm, food, settings)
    assert not taker.try_acquire()  # maybe a record being written: not at first sight
    until(taker.try_acquire, seconds=40 * settings.ttl, what="the ownerless lease taken")
    try:
        assert on_device(food) == ["owner", UNOWNED_MARKER]
    finally:
        taker.release()


def test_lease_commands_quote_every_word(farm: Farm, food: ServedDevice) -> None:
    odd = "/data/local/tmp/fairy lease; echo $(id) `id` && x"
    settings = LeaseSettings(ttl=2.0, heartbeat=0.5, poll=0.05, path=odd)
    with DeviceLease(food.serial, farm.address, settings):
        fs = food.server.system.fs
        assert fs.stat(odd) is not None and fs.stat(f"{odd}/owner") is not None
    assert food.server.system.fs.stat(odd) is None


def test_release_on_a_device_that_went_away_is_a_device_error_not_a_hang(
    farm: Farm, food: ServedDevice
) -> None:
    held, serial = lease(farm, food), food.serial
    assert held.try_acquire()
    farm.drop(food)
    with pytest.raises(DeviceError, match=rf"device {serial}: release the device lease: ") as caught:
        held.release()
    assert caught.value.serial == serial
    assert not held.held


def test_no_adb_server_is_a_device_error_and_none_is_started() -> None:
    port = free_port()
    nowhere = DeviceLease("emulator-5554", AdbServerAddress("127.0.0.1", port), QUICK)
    with pytest.raises(
        DeviceError, match=rf"take the device lease: no adb server answers at 127.0.0.1:{port}"
    ):
        nowhere.try_acquire()
    assert not AdbServerAddress("127.0.0.1", port).reachable()


@given(
    st.builds(
        LeaseRecord,
        host=st.text(max_size=30),
        pid=st.integers(1, 2**31),
        worker=st.text(max_size=8),
        session=st.text(max_size=20),
        token=st.text(max_size=40),
        expires=st.floats(0, 2e9),
        namespace=st.text(max_size=40),
    )
)
def test_a_record_reads_back_as_written_and_a_partial_one_not_at_all(written: LeaseRecord) -> None:
    data = written.to_bytes()
    assert LeaseRecord.parse(data) == written
    with pytest.raises(ValueError, match="not a lease record"):
        LeaseRecord.parse(data[: len(data) // 2])


def test_settings_need_a_heartbeat_below_the_ttl() -> None:
    assert LeaseSettings(ttl=90).heartbeat_seconds == 30
    with pytest.raises(ValueError, match="0 < heartbeat < ttl"):
        LeaseSettings(ttl=5, heartbeat=5)


# ---- the pool: the host's lock, then the lease ------------------------------------------------------


def pool(
    farm: Farm, lock_dir: Path, *served: ServedDevice, worker: str = "gw0", **config: object
) -> DevicePool:
    """One "host": its own lock folder, the farm's adb server."""
    settings = DeviceSettings(
        devices=tuple(s.serial for s in served),
        adb_server=str(farm.address),
        lock_dir=lock_dir,
        **config,  # type: ignore[arg-type]
    )
    return DevicePool(
        settings, REPO, open_virtual=AppModels().open_device, worker=worker, lease_settings=QUICK
    )


def test_a_host_falls_back_to_another_device_while_one_is_leased_elsewhere(
    farm: Farm, tmp_path: Path
) -> None:
    first, second = farm.serve(FOOD_APP), farm.serve(FOOD_APP)
    host_a = pool(farm, tmp_path / "a", first, second, device_wait=0)
    host_b = pool(farm, tmp_path / "b", first, second, device_wait=0)  # prefers `first` too
    try:
        with host_a.lease(None) as on_a:
            assert on_a.serial == first.serial
            with host_b.lease(None) as on_b:
                assert on_b.serial == second.serial
            with host_a.lease(None) as again:  # this host's own second item: the lock says busy
                assert again.serial == second.serial
        assert on_device(first) == [] and on_device(second) == []
    finally:
        host_a.close()
        host_b.close()


def test_without_the_lease_two_hosts_would_drive_one_device(farm: Farm, tmp_path: Path) -> None:
    """What the lease is for: separate lock folders alone do not see each other."""
    first = farm.serve(FOOD_APP)
    host_a = pool(farm, tmp_path / "a", first, device_wait=0, device_lease=False)
    host_b = pool(farm, tmp_path / "b", first, device_wait=0, device_lease=False)
    try:
        with host_a.lease(None) as on_a, host_b.lease(None) as on_b:
            assert on_a.serial == on_b.serial == first.serial
    finally:
        host_a.close()
        host_b.close()


def test_a_host_waits_for_a_device_leased_elsewhere_and_gets_it_after_release(
    farm: Farm, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    only = farm.serve(FOOD_APP)
    refused = threading.Event()
    ask = DeviceLease.try_acquire

    def observed(self: DeviceLease) -> bool:  # the real call; the test only learns that B was refused
        taken = ask(self)
        if not taken:
            refused.set()
        return taken

    monkeypatch.setattr(DeviceLease, "try_acquire", observed)
    host_a = pool(farm, tmp_path / "a", only)
    host_b = pool(farm, tmp_path / "b", only, device_wait=60)
    got: list[tuple[str, bool]] = []
    a_claim = host_a._claim(only.serial)
    assert a_claim.try_acquire()
    with (
        pytest.raises(LockTimeout, match=r"by its lease on the device"),
        pool(farm, tmp_path / "b", only, device_wait=0).lease(None),
    ):
        pass
    refused.clear()

    def second_host() -> None:
        with host_b.lease(None) as device:
            got.append((device.serial, a_claim.held))

    waiter = threading.Thread(target=second_host)
    waiter.start()
    try:
        until(refused.is_set, seconds=30, what="host B refused while host A holds the device")
        a_claim.release()
    finally:
        waiter.join(timeout=120)
        host_a.close()
        host_b.close()
    assert got == [(only.serial, False)]


def test_the_session_checks_leave_another_hosts_lease_alone(farm: Farm, tmp_path: Path) -> None:
    only = farm.serve(FOOD_APP)
    other_host = lease(farm, only, worker="gw5")
    assert other_host.try_acquire()
    try:
        checking = pool(farm, tmp_path / "b", only)
        checking.diagnose()  # passive checks only: no usage error, no takeover
        held = other_host.holder()
        assert held is not None and held.worker == "gw5" and other_host.held
        assert only.serial not in checking._real
    finally:
        other_host.release()
    free = pool(farm, tmp_path / "c", only)
    free.diagnose()  # the device is free: the active checks connect it, and leave no lease behind
    assert only.serial in free._real and on_device(only) == []
    free.close()


def test_a_lease_that_cannot_be_removed_is_a_warning_and_the_lock_is_released(
    farm: Farm, food: ServedDevice, tmp_path: Path
) -> None:
    host, serial = pool(farm, tmp_path / "a", food), food.serial
    claim = host._claim(serial)
    assert isinstance(claim, DeviceClaim) and claim.try_acquire()
    farm.drop(food)
    with pytest.warns(LeaseWarning, match=rf"device {serial}: release the device lease: .*expires by itself"):
        claim.release()
    assert not claim.lock.held and not claim.held


def test_the_owner_record_is_plain_json(farm: Farm, food: ServedDevice) -> None:
    """A person on the farm host reads it with `adb shell cat`."""
    with lease(farm, food, session="s-9", worker="gw2"):
        text = food.adb_device().shell(["cat", OWNER])
    fields = json.loads(text)
    assert {"host", "pid", "worker", "session", "token", "expires"} <= set(fields)
    assert (fields["worker"], fields["session"]) == ("gw2", "s-9")


def test_the_ini_key_turns_leases_off(pytester: pytest.Pytester) -> None:
    on = read_config(pytester.parseconfigure("--fairy-device=emulator-5554"))
    assert on.device.device_lease is True
    assert (
        DevicePool(on.device, REPO, open_virtual=AppModels().open_device)._claim("emulator-5554").lease
        is not None
    )
    pytester.makeini("[pytest]\nfairy_device_lease = false\n")
    off = read_config(pytester.parseconfigure("--fairy-device=emulator-5554"))
    assert off.device.device_lease is False
    assert (
        DevicePool(off.device, REPO, open_virtual=AppModels().open_device)._claim("emulator-5554").lease
        is None
    )


# ---- races found in review --------------------------------------------------------------------------


def test_a_heartbeat_whose_renewal_stalled_past_the_expiry_gives_the_lease_up(
    farm: Farm, food: ServedDevice
) -> None:
    settings = LeaseSettings(ttl=1.0, heartbeat=0.2, poll=0.05, command_timeout=5.0)
    holder, taker = lease(farm, food, settings, worker="H"), lease(farm, food, settings, worker="T")
    assert holder.try_acquire()
    read, resume, stalled = holder._read, threading.Event(), threading.Event()

    def stalling_read(doing: str) -> LeaseRecord | None:
        current = read(doing)
        if doing == "renew the device lease" and not stalled.is_set():
            stalled.set()
            resume.wait(10)  # the heartbeat's round trip is slow (network): its record expires meanwhile
        return current

    holder._read = stalling_read  # type: ignore[method-assign]
    try:
        until(stalled.is_set, seconds=10, what="a renewal stalled")
        until(taker.try_acquire, seconds=10, what="the expired lease taken over")
        resume.set()
        until(lambda: bool(holder.lost), seconds=10, what="the stalled holder giving the lease up")
        assert "not renewed in time" in holder.lost and not holder.held
        on = taker.holder()
        assert on is not None and on.worker == "T" and taker.held
    finally:
        resume.set()
        taker.release()
        holder.release()
    assert on_device(food) == []


def test_a_renewal_in_flight_at_release_cannot_bring_the_lease_back(farm: Farm, food: ServedDevice) -> None:
    settings = LeaseSettings(ttl=5.0, heartbeat=0.2, poll=0.05, command_timeout=1.0)
    holder, other = lease(farm, food, settings, worker="H"), lease(farm, food, settings, worker="O")
    assert holder.try_acquire()
    push, pushing = holder._push, threading.Event()

    def slow_push(record: LeaseRecord, doing: str) -> None:
        if doing == "renew the device lease":
            pushing.set()
            time.sleep(1.5)  # longer than release's join of the heartbeat (command_timeout)
        push(record, doing)

    holder._push = slow_push  # type: ignore[method-assign]
    until(pushing.is_set, seconds=5, what="a renewal in its push")
    holder.release()
    time.sleep(2 * settings.heartbeat_seconds)  # room for a stray renewal to land, were one left
    assert on_device(food) == []
    with other:
        assert other.held


def test_of_two_takers_of_an_ownerless_lease_only_one_holds(farm: Farm, food: ServedDevice) -> None:
    plant(food, None)
    settings = LeaseSettings(ttl=5.0, heartbeat=2.0, poll=0.05, command_timeout=5.0)
    watched = OwnerlessSightings()
    watched.seconds_seen((str(farm.address), food.serial, DEFAULT_LEASE_DIR), time.monotonic() - 10)
    a = DeviceLease(food.serial, farm.address, settings, worker="A", ownerless=watched)
    b = DeviceLease(food.serial, farm.address, settings, worker="B", ownerless=watched)
    shell = b._shell

    def b_shell(args: list[str], doing: str) -> object:
        if args[0] == "mkdir" and args[1].endswith(UNOWNED_MARKER):
            assert a.try_acquire()  # A's whole takeover lands between B's read and B's mkdir
        return shell(args, doing)

    b._shell = b_shell  # type: ignore[method-assign,assignment]
    try:
        assert not b.try_acquire()
        assert a.held and not a.lost
        on = a.holder()
        assert on is not None and on.worker == "A"
        assert on_device(food) == ["owner", UNOWNED_MARKER]
    finally:
        b.release()
        a.release()
    assert on_device(food) == []


def test_a_late_taker_with_an_old_token_leaves_a_newer_holders_lease_alone(
    farm: Farm, food: ServedDevice
) -> None:
    stale = record(expires=time.time() - 5, token="d" * 32)
    plant(food, stale)
    late, newer = lease(farm, food, worker="late"), lease(farm, food, worker="newer")
    shell = late._shell

    def late_shell(args: list[str], doing: str) -> object:
        if args[0] == "mkdir" and args[1].endswith(f"takeover-{stale.token}"):
            # Meanwhile the stale lease went (removed by hand) and another host leased the device anew.
            food.adb_device().shell2(["rm", "-r", DEFAULT_LEASE_DIR])
            assert newer.try_acquire()
        return shell(args, doing)

    late._shell = late_shell  # type: ignore[method-assign,assignment]
    try:
        assert not late.try_acquire()
        on = newer.holder()
        assert on is not None and on.worker == "newer" and on.token == newer._record.token  # type: ignore[union-attr]
    finally:
        late.release()
        newer.release()


def test_an_ownerless_lease_is_taken_although_each_item_waits_less_than_a_ttl(
    farm: Farm, tmp_path: Path
) -> None:
    only = farm.serve(FOOD_APP)
    plant(only, None)
    host = pool(farm, tmp_path / "a", only, device_wait=0.5)  # QUICK.ttl is 2 s: four items' waits
    refused = 0
    try:
        for _ in range(20):  # a safety net against a hang: each item waits 0.5 s
            try:
                with host.lease(None) as device:
                    assert device.serial == only.serial
                    break
            except LockTimeout:
                refused += 1
        else:
            raise AssertionError("the ownerless lease was never taken")
    finally:
        host.close()
    assert refused >= 1  # not at first sight: it may be a record being written
    assert on_device(only) == []


def test_a_lease_whose_record_cannot_be_written_is_removed_again(farm: Farm, food: ServedDevice) -> None:
    broken = lease(farm, food)

    def failing_push(record: LeaseRecord, doing: str) -> None:
        raise DeviceError(food.serial, doing, "push: the connection dropped")

    broken._push = failing_push  # type: ignore[method-assign]
    with pytest.raises(DeviceError, match="the connection dropped"):
        broken.try_acquire()
    assert on_device(food) == [] and not broken.held
    with lease(farm, food) as next_one:  # free at once, not after a ttl of an ownerless directory
        assert next_one.held


def test_a_host_waiting_for_a_device_asks_again_after_an_adb_error(
    farm: Farm, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    only = farm.serve(FOOD_APP)
    ask = DeviceLease.try_acquire
    errors: list[int] = []

    def hiccup(self: DeviceLease) -> bool:
        if len(errors) < LEASE_ERROR_LIMIT - 1:  # one short of the limit: the device is not given up
            errors.append(1)
            raise DeviceError(self.serial, "take the device lease", "cat: adb server hiccup")
        return ask(self)

    monkeypatch.setattr(DeviceLease, "try_acquire", hiccup)
    host = pool(farm, tmp_path / "a", only, device_wait=30)
    try:
        with host.lease(None) as device:
            assert device.serial == only.serial
    finally:
        host.close()
    assert len(errors) == LEASE_ERROR_LIMIT - 1


def test_a_device_whose_lease_cannot_be_read_time_after_time_is_down_for_the_item(
    farm: Farm, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    only = farm.serve(FOOD_APP)
    asked: list[int] = []

    def always_failing(self: DeviceLease) -> bool:
        asked.append(1)
        raise DeviceError(self.serial, "take the device lease", "cat: device offline")

    monkeypatch.setattr(DeviceLease, "try_acquire", always_failing)
    host = pool(farm, tmp_path / "a", only, device_wait=30)
    with pytest.raises(DeviceLost, match=rf"{only.serial}.*device offline"), host.lease(None):
        pass
    assert len(asked) == LEASE_ERROR_LIMIT


def test_a_lease_lost_while_an_item_runs_is_reported_by_the_pool(farm: Farm, tmp_path: Path) -> None:
    first = farm.serve(FOOD_APP)
    host = pool(farm, tmp_path / "a", first, device_wait=0)
    try:
        with pytest.warns(LeaseWarning, match="stopped being ours"), host.lease(None) as device:
            assert host.lease_lost(device) == ""
            # Noticed at a heartbeat; how soon is no part of it (a loaded machine delays the beats' adb calls).
            deadline = time.monotonic() + 30
            while not host.lease_lost(device) and time.monotonic() < deadline:
                # Someone clears it by hand; again if a renewal under way then pushed it back (its push
                # recreates the record: the lease is ours again, rightly).
                first.adb_device().shell(["rm", "-rf", DEFAULT_LEASE_DIR])
                time.sleep(QUICK.heartbeat_seconds / 2)
            assert host.lease_lost(device), "the heartbeat noticed nothing"
        assert host.lease_lost(device) == "", "only while it is held"
    finally:
        host.close()


def test_a_pass_seen_while_the_lease_was_lost_is_inconclusive_but_a_defect_stays_a_failure() -> None:
    from dataclasses import replace

    from fairy_virtual import VirtualDevice
    from pytest_fairy.brain.scripted import ScriptedBrain
    from pytest_fairy.explore.explorer import Explorer, Mission
    from pytest_fairy.explore.target import Target
    from pytest_fairy.explore.verdict import Verdict, distrust_if_shared
    from pytest_fairy.spec.model import Oracle, OracleKind

    target = Target(app_name="麦当劳", package="com.mcdonalds.gma.cn", feature="menu", goal="open 麦乐送")
    passed = Explorer(VirtualDevice(FOOD_APP, latency=False), ScriptedBrain(["tap 麦乐送"])).explore(
        target, Mission(done_when=(Oracle(kind=OracleKind.VISIBLE, value="请选择您的送达时间"),))
    )
    assert passed.verdict is Verdict.PASSED, passed.reason
    assert distrust_if_shared(passed, "") is passed
    shared = distrust_if_shared(passed, "the record on the device is not ours")
    assert shared.verdict is Verdict.INCONCLUSIVE and "another host may have driven it" in shared.reason
    failed = replace(passed, verdict=Verdict.FAILED, reason="app crashed")
    assert distrust_if_shared(failed, "the record on the device is not ours") is failed


def test_each_item_leased_from_the_pool_gets_its_own_allowance_of_server_restarts(
    farm: Farm, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pool keeps a phone's driver between items: each lease starts the item's count of uiautomator2
    server restarts afresh, so one item's restarts do not leave the next without any."""
    began: list[str] = []
    monkeypatch.setattr(U2Device, "begin_item", lambda self: began.append(self.serial))
    served = farm.serve(FOOD_APP)
    host = pool(farm, tmp_path, served, device_wait=0)
    try:
        for _ in range(2):
            with host.lease(None) as device:
                assert device.serial == served.serial
        assert began == [served.serial, served.serial]
    finally:
        host.close()
