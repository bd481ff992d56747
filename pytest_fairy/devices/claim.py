"""A real device held for one item: this host's lock, then the lease on the device itself.

The lock (pytest_fairy.devices.lock) keeps this host's processes apart and costs nothing but a file; the lease
(pytest_fairy.devices.lease) is what runners on other hosts of a farm see. `DevicePool` claims devices through
this, and a device either is held by both or by neither.
"""

from __future__ import annotations

import time
import warnings
from typing import TYPE_CHECKING

from pytest_fairy.errors import DeviceError

if TYPE_CHECKING:
    from pytest_fairy.devices.lease import DeviceLease
    from pytest_fairy.devices.lock import DeviceLock
    from pytest_fairy.devices.queue import DeviceQueue

# While waiting for a device, an adb error in asking about its lease counts as "busy, ask again" (a
# farm host's adb server that hiccups); this many in a row and the device is down for the item.
LEASE_ERROR_LIMIT = 3


class DeviceClaim:
    """A real device held for one item: the host's `DeviceLock` first (cheap; this host's processes), then
    the `DeviceLease` on the device (other hosts), when leases are on. Released in reverse order.

    The device is asked at most every `lease.settings.poll` seconds (an adb round trip, maybe to another
    host); the lock file is tried at every poll of `acquire_first`. A device that cannot be asked is
    asked again at the next poll, up to `error_limit` times in a row.
    """

    def __init__(
        self,
        serial: str,
        lock: DeviceLock,
        lease: DeviceLease | None,
        *,
        error_limit: int = LEASE_ERROR_LIMIT,
    ) -> None:
        self.serial = serial
        self.lock = lock
        self.lease = lease
        self.error_limit = error_limit
        self._next_ask = 0.0
        self._busy_on_device = False
        self._errors: list[DeviceError] = []  # the consecutive ones, the latest last

    @property
    def key(self) -> str:
        return self.lock.key

    @property
    def queue(self) -> DeviceQueue:
        return self.lock.queue

    @property
    def held(self) -> bool:
        return self.lock.held and (self.lease is None or self.lease.held)

    def try_acquire(self) -> bool:
        """Both, or neither. DeviceError when the device could not be asked about its lease `error_limit`
        times in a row (fewer: False, as for a busy device)."""
        if self.held:
            return True
        if self.lease is not None and time.monotonic() < self._next_ask:
            return False
        if not self.lock.try_acquire():
            self._busy_on_device = False
            return False
        if self.lease is None:
            return True
        try:
            taken = self.lease.try_acquire()
        except DeviceError as exc:
            self._errors.append(exc)
            if len(self._errors) >= self.error_limit:
                self.lock.release()
                raise
            taken = False  # unreadable for now: busy, ask again at the next poll
        else:
            self._errors.clear()
        if taken:
            return True
        self.lock.release()
        self._busy_on_device = True
        self._next_ask = time.monotonic() + self.lease.settings.poll
        return False

    def owner(self) -> str:
        if self._busy_on_device and self.lease is not None:
            if self._errors:
                return f"nobody known: the device did not answer when asked ({self._errors[-1]})"
            return f"{self.lease.owner()}, by its lease on the device"
        return self.lock.owner()

    def release(self, *, answering: bool = True, reconnected: bool = False) -> None:
        """The lease, then the lock. A lease that cannot be removed is a warning, not an error of the item:
        it expires by itself. A device that stopped answering (`answering=False`) is not asked again: its
        lease is left to expire, and the lock is released at once. `reconnected`: the driver reconnected
        to the device during the item (it restarted, or its connection dropped), which explains a lease
        that vanished from it."""
        try:
            if self.lease is not None and answering:
                self._release_lease(self.lease, reconnected=reconnected)
            elif self.lease is not None:
                self._abandon_lease(self.lease)
        finally:
            self.lock.release()

    @staticmethod
    def _abandon_lease(lease: DeviceLease) -> None:
        from pytest_fairy.devices.lease import LeaseWarning

        if lease.abandon():
            warnings.warn(
                f"device {lease.serial} stopped answering: its lease stays on it until it expires "
                f"(within {lease.settings.ttl:.0f}s)",
                LeaseWarning,
                stacklevel=3,
            )

    @staticmethod
    def _release_lease(lease: DeviceLease, *, reconnected: bool) -> None:
        from pytest_fairy.devices.lease import VANISHED, LeaseWarning

        try:
            lease.release()
        except DeviceError as exc:
            warnings.warn(
                f"{exc}; it expires by itself within {lease.settings.ttl:.0f}s", LeaseWarning, stacklevel=2
            )
        if lease.lost in VANISHED and reconnected:
            warnings.warn(
                f"device {lease.serial} restarted during the item (the driver reconnected to it) and the "
                f"lease on the device went with the restart ({lease.lost}); no other host is known to have "
                "taken it",
                LeaseWarning,
                stacklevel=2,
            )
        elif lease.lost:
            warnings.warn(
                f"device {lease.serial}: the lease on the device stopped being ours during the item "
                f"({lease.lost}); another host may have driven it too",
                LeaseWarning,
                stacklevel=2,
            )
