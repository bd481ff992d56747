"""What a device lease is made of, beside the `DeviceLease` that takes and renews it (devices/lease.py):
the owner record written on the device, the limits a lease is held under, and this process's sightings
of lease directories that have no record.

A record is one line of JSON; one read while it is being rewritten does not parse (`LeaseRecord.parse`
raises ValueError) and the lease treats it as no record.
"""

from __future__ import annotations

import json
import os
import socket
import threading
from dataclasses import asdict, dataclass
from pathlib import Path

DEFAULT_LEASE_DIR = "/data/local/tmp/pytest_fairy.lease"
# The holder's record lives this long unless renewed: what another host waits after a holder dies.
DEFAULT_TTL_SECONDS = 90.0
# How often a waiting worker asks the device again: each ask is an adb round trip, maybe to another host.
DEFAULT_POLL_SECONDS = 1.0
# One lease command (mkdir, push, cat, rm): a device that does not answer must not hang the worker.
DEFAULT_COMMAND_SECONDS = 10.0


@dataclass(frozen=True)
class LeaseSettings:
    """The limits of a lease. `heartbeat` (None: `ttl / 3`) must be well below `ttl`: a record is renewed
    `ttl / heartbeat` times before it could expire."""

    ttl: float = DEFAULT_TTL_SECONDS
    heartbeat: float | None = None
    poll: float = DEFAULT_POLL_SECONDS
    command_timeout: float = DEFAULT_COMMAND_SECONDS
    path: str = DEFAULT_LEASE_DIR
    # A renewal is pushed only while the record has this long left (None: the heartbeat, at most half
    # of what a record has left at a renewal on time): a push that lands after the expiry could overwrite
    # the record of a host that took the lease over.
    renew_margin: float | None = None

    def __post_init__(self) -> None:
        if not 0 < self.heartbeat_seconds < self.ttl:
            raise ValueError(
                f"a lease needs 0 < heartbeat < ttl: heartbeat {self.heartbeat_seconds}, ttl {self.ttl}"
            )
        if not 0 <= self.renew_margin_seconds < self.ttl - self.heartbeat_seconds:
            raise ValueError(
                "a lease needs 0 <= renew_margin < ttl - heartbeat: renew_margin "
                f"{self.renew_margin_seconds}, ttl {self.ttl}, heartbeat {self.heartbeat_seconds}"
            )

    @property
    def heartbeat_seconds(self) -> float:
        return self.ttl / 3 if self.heartbeat is None else self.heartbeat

    @property
    def renew_margin_seconds(self) -> float:
        if self.renew_margin is not None:
            return self.renew_margin
        return min(self.heartbeat_seconds, (self.ttl - self.heartbeat_seconds) / 2)


@dataclass(frozen=True)
class LeaseRecord:
    """Who holds a lease and until when. `token` is unique per acquisition; `namespace` says where `pid`
    is meaningful (boot id and pid namespace; "" where /proc does not tell). `waiting` processes of the
    holder's host queue for the device (devices/queue.py), the oldest since `waiting_since` (epoch
    seconds): informational, for a person or a runner of another host that finds the lease, as of the
    holder's last write (taking the lease, then each renewal)."""

    host: str
    pid: int
    worker: str
    session: str
    token: str
    expires: float
    namespace: str = ""
    waiting: int = 0
    waiting_since: float | None = None

    def to_bytes(self) -> bytes:
        return (json.dumps(asdict(self), sort_keys=True) + "\n").encode()

    @classmethod
    def parse(cls, data: bytes) -> LeaseRecord:
        """ValueError on anything but a whole record (a record being rewritten reads as a partial one)."""
        try:
            fields = json.loads(data)
            return cls(
                host=str(fields["host"]),
                pid=int(fields["pid"]),
                worker=str(fields["worker"]),
                session=str(fields["session"]),
                token=str(fields["token"]),
                expires=float(fields["expires"]),
                namespace=str(fields.get("namespace", "")),
                waiting=int(fields.get("waiting", 0)),
                waiting_since=None if fields.get("waiting_since") is None else float(fields["waiting_since"]),
            )
        except (ValueError, TypeError, KeyError) as exc:
            raise ValueError(f"not a lease record: {data[:80]!r}") from exc

    def holder_died(self) -> bool:
        """The holder was a process of this machine (same pid namespace) that is no longer running: its
        lease is free at once rather than after its expiry (a SIGKILLed run, an xdist worker that crashed)."""
        if not self.namespace or self.namespace != process_namespace() or self.host != socket.gethostname():
            return False
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return True
        except OSError:  # EPERM: it exists, under another user
            return False
        return False

    def describe(self, now: float) -> str:
        left = self.expires - now
        when = f"expires in {left:.0f}s" if left >= 0 else f"expired {-left:.0f}s ago"
        queued = ""
        if self.waiting and self.waiting_since is not None:
            oldest = max(0.0, now - self.waiting_since)
            queued = f", {self.waiting} more waiting on {self.host} (the oldest for {oldest:.0f}s)"
        who = f"pid {self.pid} on {self.host} ({self.worker or 'main'}, session {self.session})"
        return f"{who}, {when}{queued}"


def process_namespace() -> str:
    """Where a pid names this process: the boot id and the pid namespace ("" where /proc does not tell).
    Two containers with one hostname (host networking) are told apart by the namespace."""
    try:
        boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
        return f"{boot}/{os.readlink('/proc/self/ns/pid')}"
    except OSError:
        return ""


class OwnerlessSightings:
    """When this process first saw each lease directory without an owner record. Kept apart from the
    `DeviceLease` objects because the pool makes a new one per item: a countdown that started over with
    each would never reach the `ttl` under a short fairy_device_wait, and the directory would block the
    device for good."""

    def __init__(self) -> None:
        self._since: dict[tuple[str, str, str], float] = {}
        self._lock = threading.Lock()

    def seconds_seen(self, key: tuple[str, str, str], now: float) -> float:
        """How long `key` (adb server, serial, lease path) has been seen with no record; 0 at first sight."""
        with self._lock:
            return now - self._since.setdefault(key, now)

    def forget(self, key: tuple[str, str, str]) -> None:
        """A record was seen (or written): the next ownerless sighting starts a new countdown."""
        with self._lock:
            self._since.pop(key, None)


# Shared by every lease of this process: see OwnerlessSightings.
OWNERLESS = OwnerlessSightings()
