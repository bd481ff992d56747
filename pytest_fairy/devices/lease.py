"""`DeviceLease`: a device held on the device itself, so that runners on different hosts see each other.

A `DeviceLock` (devices/lock.py) only excludes processes of one machine. Two CI runners that point
`--fairy-adb farm-1:5037` at the same phones need a mark that both can see: a directory on the device,
made with `mkdir` (atomic: the one whose `mkdir` succeeds owns the lease), holding an owner record that
a heartbeat renews:

    /data/local/tmp/pytest_fairy.lease/
        owner              {"expires": 1767225690.0, "host": "ci-7", "pid": 4242, "worker": "gw1", ...}
        takeover-TOKEN     left by whoever took over the expired lease whose record had TOKEN
        takeover-unowned   left by whoever took over a lease directory that had no record

A lease whose expiry passed (its holder died, or lost the network) may be taken over. Taking over is a
second `mkdir`, of `takeover-TOKEN` inside the lease: two hosts that found the same expired record race on
that one name and only one wins. The winner reads the record again before writing its own, so a late
taker that still has an old TOKEN in mind backs off from a newer holder's lease (its record carries
another token); then it writes its record and reads it back. A directory without a record (its holder
died between its `mkdir` and its record) is taken the same way, through `takeover-unowned`, once this
process has seen it without a record for a whole `ttl`.

A holder renews its record only while the record still has `renew_margin` seconds left: one whose
renewals stalled past that (a slow network) marks its lease lost rather than overwrite the record of a
host that may have taken it over meanwhile. The renewal's last check and its push are one critical
section with `release()`, so no renewal lands after the release removed the lease.

    with DeviceLease("R58M123ABC", AdbServerAddress.parse("farm-1:5037")):
        ...  # no other host drives R58M123ABC

Expiries are host UTC epoch seconds, so the hosts' clocks must agree to within `ttl - heartbeat` (60 s by
default): NTP does that.

The record, the settings and the ownerless sightings are devices/lease_record.py.
"""

from __future__ import annotations

import atexit
import io
import os
import posixpath
import socket
import threading
import time
import uuid
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from types import TracebackType
from typing import Any

import adbutils

from pytest_fairy.devices.deadline import AdbServerClient, BoundedAdbDevice
from pytest_fairy.devices.driver import AdbServerAddress
from pytest_fairy.devices.lease_record import (
    OWNERLESS,
    LeaseRecord,
    LeaseSettings,
    OwnerlessSightings,
    process_namespace,
)
from pytest_fairy.devices.queue import Waiting
from pytest_fairy.errors import DeviceError, FairyError, FairyWarning

OWNER_FILE = "owner"
TAKEOVER_PREFIX = "takeover-"
UNOWNED_MARKER = TAKEOVER_PREFIX + "unowned"
# Why a lease stopped being ours when nobody else's record replaced it: removed (by hand, or with a
# device that restarted and lost its /data/local/tmp).
REMOVED = "removed from the device"
GONE_AT_RELEASE = "gone at release"
VANISHED = (REMOVED, GONE_AT_RELEASE)
_EXISTS = "File exists"
_MISSING = "No such file or directory"
_ADB_ERRORS: tuple[type[BaseException], ...] = (adbutils.AdbError, OSError)


class LeaseTimeout(FairyError):
    """A lease that is held by someone else (raised by `with DeviceLease(...)`)."""


class LeaseWarning(FairyWarning):
    """A lease that could not be removed (it expires by itself), or that stopped being ours mid-item."""


@dataclass(eq=False)  # identity: held leases are kept in a WeakSet
class DeviceLease:
    """The lease of one device on one adb server. Construction does no I/O.

    `held` while this object holds it; `lost` says why a held lease stopped being ours (taken over after
    our heartbeat could not renew it, or removed by hand), "" otherwise.
    """

    serial: str
    adb: AdbServerAddress
    settings: LeaseSettings = field(default_factory=LeaseSettings)
    session: str = ""
    worker: str = ""
    ownerless: OwnerlessSightings = field(default_factory=lambda: OWNERLESS, repr=False)
    # Who of this host waits for the device (its queue): noted in the record at each write, for others.
    waiters: Callable[[], Waiting] | None = field(default=None, repr=False)
    lost: str = field(default="", init=False)
    _record: LeaseRecord | None = field(default=None, init=False, repr=False)
    _left: LeaseRecord | None = field(default=None, init=False, repr=False)  # abandoned on the device
    _seen: LeaseRecord | None = field(default=None, init=False, repr=False)
    _stop: threading.Event = field(default_factory=threading.Event, init=False, repr=False)
    _heartbeat: threading.Thread | None = field(default=None, init=False, repr=False)
    _client: adbutils.AdbClient | None = field(default=None, init=False, repr=False)
    # Held by the heartbeat from its last check through its push, and by release() while it marks the
    # lease released: a renewal either lands before release() removes the lease or not at all.
    _guard: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    @property
    def held(self) -> bool:
        return self._record is not None and not self.lost

    @property
    def owner_path(self) -> str:
        return posixpath.join(self.settings.path, OWNER_FILE)

    @property
    def _where(self) -> tuple[str, str, str]:
        return (str(self.adb), self.serial, self.settings.path)

    # ---- acquire / release -------------------------------------------------------------------------

    def try_acquire(self) -> bool:
        """Take the lease if it is free or expired right now. DeviceError when the device cannot be asked."""
        if self.held:
            return True
        doing = "take the device lease"
        self._require_server(doing)
        made = self._shell(["mkdir", self.settings.path], doing)
        if made.returncode == 0:
            return self._claim(doing, undo=["rm", "-r", self.settings.path])
        if _EXISTS not in made.output:
            raise DeviceError(
                self.serial,
                doing,
                f"mkdir {self.settings.path}: {made.output.strip()} (fairy_device_lease = false holds "
                "devices by this host's locks only)",
            )
        record = self._read(doing)
        self._seen = record
        if record is None:
            return self._take_unowned(doing)
        self.ownerless.forget(self._where)
        if record.expires >= time.time() and not record.holder_died():
            return False
        marker = TAKEOVER_PREFIX + record.token
        return self._take_over(marker, record.token, "take over an expired device lease")

    def release(self) -> None:
        """Stop renewing and remove the lease if it is still ours. DeviceError when the device cannot be
        reached (the lease then expires by itself after `ttl`); bounded by the command timeout."""
        # Waits for a renewal being pushed (bounded by the command timeout); any later one sees the stop.
        with self._guard:
            record, self._record = self._record, None
            self._stop.set()
        if self._heartbeat is not None:
            # Only tidiness: the guard above already keeps its pushes from landing after the removal.
            self._heartbeat.join(self.settings.command_timeout)
            self._heartbeat = None
        _HELD.discard(self)
        if record is None or self.lost:
            return
        doing = "release the device lease"
        self._require_server(doing)
        current = self._read(doing)
        if current is None or current.token != record.token:
            self.lost = "someone else's lease was on the device at release" if current else GONE_AT_RELEASE
            return
        removed = self._shell(["rm", "-r", self.settings.path], doing)
        if removed.returncode != 0:
            raise DeviceError(self.serial, doing, f"rm -r {self.settings.path}: {removed.output.strip()}")

    def abandon(self) -> bool:
        """Stop renewing without asking the device anything (it stopped answering): the record expires by
        itself after `ttl`. Whether a lease was held."""
        record, self._record = self._record, None
        self._left = record  # the record left on the device, for `reclaim`
        self._stop.set()
        self._heartbeat = None
        _HELD.discard(self)
        return record is not None and not self.lost

    def reclaim(self) -> None:
        """The device answers again: remove the record `abandon` left, if it is still that one, so that
        the device is free at once rather than after the record's expiry. DeviceError as `release`."""
        left, self._left = self._left, None
        if left is None:
            return
        doing = "remove the lease left on the device"
        self._require_server(doing)
        current = self._read(doing)
        if current is not None and current.token == left.token:
            self._shell(["rm", "-r", self.settings.path], doing)

    def holder(self) -> LeaseRecord | None:
        """The record on the device now (None: no lease, or one whose record is being written)."""
        doing = "read the device lease"
        self._require_server(doing)
        return self._read(doing)

    def owner(self) -> str:
        """Who held the lease when this object last looked, for the message of a worker that waits in vain."""
        if self._seen is None:
            return "unknown (a lease without an owner record)"
        return self._seen.describe(time.time())

    def __enter__(self) -> DeviceLease:
        if not self.try_acquire():
            raise LeaseTimeout(f"device {self.serial}: leased by {self.owner()}")
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()

    # ---- plumbing ----------------------------------------------------------------------------------

    def _claim(self, doing: str, *, undo: list[str]) -> bool:
        """Write our record into the lease just made (or taken over), and read it back: a racing taker may
        have won. When the device fails us midway, `undo` (a command) removes what we made, so that no
        half-made lease blocks the device."""
        record = LeaseRecord(
            host=socket.gethostname(),
            pid=os.getpid(),
            worker=self.worker,
            session=self.session,
            token=uuid.uuid4().hex,
            expires=time.time() + self.settings.ttl,
            namespace=process_namespace(),
            **self._waiting(),
        )
        try:
            self._push(record, doing)
            back = self._read(doing)
        except DeviceError as exc:
            self._undo(undo, exc)
            raise
        self._seen = back
        if back is None or back.token != record.token:
            return False
        self._record, self.lost = record, ""
        self.ownerless.forget(self._where)
        self._stop = threading.Event()
        self._heartbeat = threading.Thread(
            target=self._beat, args=(self._stop,), name=f"fairy-lease-{self.serial}", daemon=True
        )
        self._heartbeat.start()
        _HELD.add(self)
        return True

    def _undo(self, command: list[str], failure: DeviceError) -> None:
        """Best effort: the device that just failed may fail this too; the lease then waits for a taker."""
        try:
            self._shell(command, "remove a half-made device lease")
        except DeviceError as exc:
            failure.add_note(f"and its half-made lease stayed on the device: {exc.reason}")

    def _take_unowned(self, doing: str) -> bool:
        """A lease directory without a readable record: one being written or rewritten (wait), or one
        whose holder died between its mkdir and its record: taken once this process has seen it without
        a record for a `ttl` (across its `DeviceLease` objects, see OwnerlessSightings)."""
        if self.ownerless.seconds_seen(self._where, time.monotonic()) < self.settings.ttl:
            return False
        return self._take_over(UNOWNED_MARKER, None, "take over a device lease without an owner")

    def _take_over(self, marker_name: str, token: str | None, doing: str) -> bool:
        """Win `marker_name` inside the lease (mkdir: one taker only), then make sure the lease is still the
        one that was judged free (expired record `token`, or None: no record) before writing our record:
        meanwhile its holder may have released it and a new holder made it again."""
        marker = posixpath.join(self.settings.path, marker_name)
        taken = self._shell(["mkdir", marker], doing)
        if taken.returncode != 0:
            if _EXISTS in taken.output or _MISSING in taken.output:
                return False  # another host took it over first, or its holder released it meanwhile
            raise DeviceError(self.serial, doing, f"mkdir {marker}: {taken.output.strip()}")
        try:
            current = self._read(doing)
        except DeviceError as exc:
            self._undo(["rmdir", marker], exc)
            raise
        if (current.token if current else None) != token:
            self._seen = current
            # Not the lease we judged: leave it to its holder (the marker stays as a trace of the attempt,
            # inside a directory whose holder removes it at release).
            return False
        return self._claim(doing, undo=["rmdir", marker])

    def _beat(self, stop: threading.Event) -> None:
        """Renew our record every `heartbeat` seconds until released, or until it is no longer ours."""
        while not stop.wait(self.settings.heartbeat_seconds):
            record = self._record
            if record is None:
                return
            doing = "renew the device lease"
            try:
                self._require_server(doing)
                current = self._read(doing)
                if current is None or current.token != record.token:
                    self.lost = f"taken over by {current.describe(time.time())}" if current else REMOVED
                    return
                with self._guard:
                    if stop.is_set():
                        return
                    # Checked right before the push: the read above may have been slow.
                    left = record.expires - time.time()
                    if left <= self.settings.renew_margin_seconds:
                        self.lost = (
                            f"not renewed in time: {left:.1f}s left of its record, another host may take "
                            "it over"
                        )
                        return
                    renewed = replace(record, expires=time.time() + self.settings.ttl, **self._waiting())
                    self._push(renewed, doing)
                    if not stop.is_set():  # abandon() does not wait for a push: it may end meanwhile
                        self._record = renewed
            except DeviceError as exc:
                # Unreachable for now: keep trying while the record could still be renewed in time.
                if time.time() > record.expires - self.settings.renew_margin_seconds:
                    self.lost = f"not renewed before it expired: {exc.reason}"
                    return

    def _waiting(self) -> dict[str, Any]:
        """The record's note of this host's queue for the device."""
        if self.waiters is None:
            return {}
        try:
            waiting = self.waiters()
        except OSError:  # only a note: it must never stop the heartbeat that keeps the lease ours
            return {}
        return {"waiting": waiting.count, "waiting_since": waiting.since}

    def _read(self, doing: str) -> LeaseRecord | None:
        result = self._shell(["cat", self.owner_path], doing)
        if result.returncode != 0:
            if _MISSING in result.output:
                return None
            raise DeviceError(self.serial, doing, f"cat {self.owner_path}: {result.output.strip()}")
        try:
            return LeaseRecord.parse(result.output.encode())
        except ValueError:
            return None

    def _push(self, record: LeaseRecord, doing: str) -> None:
        try:
            self._device().sync.push(io.BytesIO(record.to_bytes()), self.owner_path, mode=0o644)
        except _ADB_ERRORS as exc:
            raise DeviceError(self.serial, doing, f"push {self.owner_path}: {_reason(exc)}") from exc

    def _shell(self, args: list[str], doing: str) -> adbutils.ShellReturn:
        try:
            # A list: adbutils quotes every word (shlex), nothing here is spliced into a command line.
            return self._device().shell2(args, timeout=self.settings.command_timeout)
        except _ADB_ERRORS as exc:
            raise DeviceError(self.serial, doing, f"{args[0]}: {_reason(exc)}") from exc

    def _require_server(self, doing: str) -> None:
        # adbutils answers a refused connection by starting an adb server of its own: never let it.
        if not self.adb.reachable(timeout=self.settings.command_timeout):
            raise DeviceError(self.serial, doing, f"no adb server answers at {self.adb}")

    def _device(self) -> adbutils.AdbDevice:
        if self._client is None:
            self._client = AdbServerClient(
                self.adb.host, self.adb.port, socket_timeout=self.settings.command_timeout
            )
        # Bounded: adbutils' own 600 s default would otherwise apply to a shell's handshake with the device.
        return BoundedAdbDevice(self._client, self.serial, self.settings.command_timeout)


def _reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else 'no message'}"


# Leases still held when the interpreter exits (an item interrupted past its finally): released then, so
# other hosts need not wait for the expiry. A worker killed outright leaves its lease to expire.
_HELD: weakref.WeakSet[DeviceLease] = weakref.WeakSet()


def _release_held() -> None:
    for lease in list(_HELD):
        try:
            lease.release()
        except DeviceError:
            continue  # unreachable at exit: the record expires by itself after its ttl


atexit.register(_release_held)
