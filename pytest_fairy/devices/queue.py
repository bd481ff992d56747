"""`DeviceQueue`: the order in which this host's processes asked for a busy device.

A holder releases its device between items and asks for it again at once; a waiter that merely polls the
lock loses that race every time and starves. So a waiter takes a ticket, and a device that falls free goes
to the oldest ticket: a process may take it only if no older live ticket waits for it, and a holder that
wants its device back after an item queues behind the waiters like anyone else.

A ticket is a file in the device's queue folder, beside its lock file, named by when it was asked for:

    ~/.cache/pytest_fairy/locks/127.0.0.1_5037_emulator-5554-1a2b3c4d5e.queue/
        1767225690123456789-18844-9f3e.ticket     # asked at that time (ns), by pid 18844

Its owner holds an OS lock (`flock`) on it for as long as it waits, so a ticket whose owner died (killed,
crashed) is recognised by its lock being free: it is skipped and removed, and never blocks the device.
The ticket is locked under a temporary name and then renamed into place, so no one sees it unlocked.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

SUFFIX = ".ticket"


@dataclass(frozen=True, order=True)
class TicketName:
    """When a ticket was asked for (host epoch ns) and by which process: the order of the queue."""

    asked_ns: int
    pid: int
    nonce: str = ""

    @classmethod
    def parse(cls, name: str) -> TicketName | None:
        """None for anything but a ticket's file name (a ticket still being made, a stray file)."""
        if not name.endswith(SUFFIX):
            return None
        parts = name[: -len(SUFFIX)].split("-")
        if len(parts) != 3 or not parts[0].isdigit() or not parts[1].isdigit():
            return None
        return cls(int(parts[0]), int(parts[1]), parts[2])

    @property
    def file_name(self) -> str:
        return f"{self.asked_ns}-{self.pid}-{self.nonce}{SUFFIX}"

    @property
    def asked(self) -> float:
        """The asking time in epoch seconds."""
        return self.asked_ns / 1e9


@dataclass
class Ticket:
    """One waiter's place in one device's queue, held (locked) until `withdraw()`."""

    queue: DeviceQueue
    name: TicketName
    _file: IO[bytes] | None = field(default=None, repr=False)

    @property
    def path(self) -> Path:
        return self.queue.folder / self.name.file_name

    def withdraw(self) -> None:
        """Leave the queue: the file goes, then its lock (a reader never sees it free and still ours)."""
        if self._file is None:
            return
        with contextlib.suppress(OSError):
            self.path.unlink()
        self._file.close()  # releases the flock
        self._file = None


@dataclass(frozen=True)
class Waiting:
    """Who waits for a device right now: how many, and since when the oldest has (epoch seconds)."""

    count: int
    since: float | None

    def describe(self, now: float) -> str:
        if not self.count or self.since is None:
            return "none waiting"
        return f"{self.count} waiting, the oldest for {max(0.0, now - self.since):.0f}s"


@dataclass(frozen=True)
class DeviceQueue:
    """The queue of one device: a folder of tickets. No I/O until used."""

    folder: Path

    def join(self) -> Ticket:
        """A ticket at the end of the queue, held by this process until withdrawn."""
        self.folder.mkdir(parents=True, exist_ok=True)
        name = TicketName(time.time_ns(), os.getpid(), uuid.uuid4().hex[:8])
        making = self.folder / f".{name.file_name}.new"
        handle = open(making, "wb")  # noqa: SIM115 - held open: its flock marks the ticket as live
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            making.rename(self.folder / name.file_name)
        except OSError:
            handle.close()
            with contextlib.suppress(OSError):
                making.unlink()
            raise
        return Ticket(self, name, handle)

    def live(self) -> list[TicketName]:
        """The tickets of waiters still alive, oldest first; those of dead waiters are removed."""
        try:
            names = [TicketName.parse(entry.name) for entry in os.scandir(self.folder)]
        except FileNotFoundError:
            return []
        return [name for name in sorted(n for n in names if n is not None) if self._alive(name)]

    def first(self, ticket: Ticket | None) -> bool:
        """Whether the holder of `ticket` (None: a process that has not queued) may take the device when it
        is free: no older live ticket waits for it."""
        for name in self.live():
            return ticket is not None and name == ticket.name
        return True

    def waiting(self, *, but_pid: int | None = None) -> Waiting:
        """Who waits, but process `but_pid` (a holder's note leaves out its own ticket, withdrawn next)."""
        names = [name for name in self.live() if name.pid != but_pid]
        return Waiting(len(names), names[0].asked if names else None)

    def _alive(self, name: TicketName) -> bool:
        path = self.folder / name.file_name
        try:
            handle = open(path, "rb")  # noqa: SIM115 - closed below, whatever the flock says
        except FileNotFoundError:
            return False  # withdrawn meanwhile
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return True  # its owner holds it: waiting
        finally:
            handle.close()
        # Nobody holds it: its owner died without withdrawing. Names are unique: this removes only it.
        with contextlib.suppress(OSError):
            path.unlink()
        return False
