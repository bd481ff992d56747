"""`DeviceLock`: one process at a time on a device, across xdist workers and separate jobs on one host.

An OS-level file lock (`filelock`) per device in a folder outside pytest's basetemp (the user's cache
folder by default), so two pytest runs on one machine exclude each other too, and a worker that dies
releases its device with its file descriptors. Beside each lock, its `DeviceQueue` (devices/queue.py):
`acquire_first` hands a device that falls free to the process that has waited longest for it.

    with DeviceLock.in_folder(default_lock_dir(), "127.0.0.1:5037/emulator-5554") as lock:
        ...  # this process has the device
"""

from __future__ import annotations

import hashlib
import os
import re
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Protocol, TypeVar

import filelock

from pytest_fairy.devices.queue import DeviceQueue, Ticket
from pytest_fairy.errors import FairyError

# How often a waiting worker looks again whether a device became free.
POLL_SECONDS = 0.1
# How often a waiting worker says so (`waiting for emulator-5554, held by ...`), after its first line.
SAY_SECONDS = 10.0
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


class LockTimeout(FairyError):
    """No device became free before the deadline; the message names the devices and who holds them."""


class Claim(Protocol):
    """Something that holds a device: a `DeviceLock`, or the pool's lock-then-lease pair."""

    @property
    def key(self) -> str: ...

    @property
    def queue(self) -> DeviceQueue: ...

    def try_acquire(self) -> bool: ...

    def owner(self) -> str: ...


C = TypeVar("C", bound=Claim)


def default_lock_dir() -> Path:
    """`$XDG_CACHE_HOME/pytest_fairy/locks`, else `~/.cache/pytest_fairy/locks`."""
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "pytest_fairy" / "locks"


@dataclass
class DeviceLock:
    """The lock of one device, named by `key` (the adb server and the serial). No I/O until acquired."""

    folder: Path
    key: str
    _lock: filelock.FileLock | None = field(default=None, repr=False)

    @classmethod
    def in_folder(cls, folder: Path, key: str) -> DeviceLock:
        return cls(folder, key)

    @property
    def path(self) -> Path:
        # Readable, and a digest of the exact key: `a:b` and `a_b` must not share a lock.
        digest = hashlib.sha1(self.key.encode()).hexdigest()[:10]
        return self.folder / f"{_UNSAFE.sub('_', self.key)[:80]}-{digest}.lock"

    @property
    def owner_path(self) -> Path:
        """Who holds the lock, for the message of a worker that waits in vain. Informational only."""
        return self.path.with_suffix(".owner")

    @property
    def queue(self) -> DeviceQueue:
        """The processes of this host waiting for the device, oldest first."""
        return DeviceQueue(self.path.with_suffix(".queue"))

    @property
    def held(self) -> bool:
        return self._lock is not None and self._lock.is_locked

    def try_acquire(self) -> bool:
        """Take the lock if it is free right now."""
        if self.held:
            return True
        self.folder.mkdir(parents=True, exist_ok=True)
        lock = filelock.FileLock(str(self.path), thread_local=False)
        try:
            lock.acquire(timeout=0)
        except filelock.Timeout:
            return False
        self._lock = lock
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        # Written whole, then renamed: a waiter reading it meanwhile sees the last owner, never an empty file.
        written = self.owner_path.with_name(f"{self.owner_path.name}.{os.getpid()}")
        written.write_text(f"pid {os.getpid()} on {socket.gethostname()} ({worker})\n")
        os.replace(written, self.owner_path)
        return True

    def release(self) -> None:
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def owner(self) -> str:
        try:
            return self.owner_path.read_text().strip() or "unknown"
        except OSError:
            return "unknown"

    def __enter__(self) -> DeviceLock:
        if not self.try_acquire():
            raise LockTimeout(f"device {self.key} is in use by {self.owner()}")
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()


def acquire_first(
    locks: Sequence[C],
    *,
    wait_seconds: float,
    poll: float = POLL_SECONDS,
    say: Callable[[str], None] | None = None,
    say_every: float = SAY_SECONDS,
) -> C:
    """The first of `locks` (in order of preference) that is free, waiting up to `wait_seconds` for one.
    An error of a claim's `try_acquire` (a device that cannot be asked) ends the wait at once.

    First come, first served: a device is taken only if no older live ticket of its queue waits for it.
    A process that finds none free takes a ticket on each (its place in their queues) until it gets one;
    while it waits, `say` hears a line at once and then every `say_every` seconds."""
    if not locks:
        raise LockTimeout("no devices to wait for")
    deadline = time.monotonic() + wait_seconds
    tickets: list[Ticket | None] = [None] * len(locks)
    next_line = 0.0
    try:
        while True:
            for lock, ticket in zip(locks, tickets, strict=True):
                if lock.queue.first(ticket) and lock.try_acquire():
                    return lock
            now = time.monotonic()
            if now >= deadline:
                holders = ", ".join(f"{lock.key} (held by {lock.owner()})" for lock in locks)
                raise LockTimeout(
                    f"no device became free within {wait_seconds:.0f}s: {holders}. Raise fairy_device_wait, "
                    "or run fewer xdist workers than devices"
                )
            if tickets[0] is None:
                tickets = [lock.queue.join() for lock in locks]
            if say is not None and now >= next_line:
                say(f"waiting for {_holders(locks)}")
                next_line = now + say_every
            time.sleep(poll)
    finally:
        for ticket in tickets:
            if ticket is not None:
                ticket.withdraw()


def _holders(locks: Sequence[Claim]) -> str:
    """`emulator-5554, held by pid 18844 on ci-7 (gw0) (3 waiting)` for each device, `; `-separated."""
    parts = (f"{_serial(c.key)}, held by {c.owner()} ({c.queue.waiting().count} waiting)" for c in locks)
    return "; ".join(parts)


def _serial(key: str) -> str:
    """The device of a lock key (`ADB_SERVER/SERIAL`)."""
    return key.rsplit("/", 1)[-1]
