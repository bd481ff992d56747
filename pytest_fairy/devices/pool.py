"""Where devices come from: a device per item, and never two processes on one real device at once.

- Virtual devices (`virtual`, `virtual:APP.yaml`) are in-process: each worker owns its own instances, one
  per app model (as apps installed side by side on a phone), and nothing needs locking.
- Real devices (adb serials) are held per item by a `DeviceClaim`: the host's cross-process `DeviceLock`,
  then (`fairy_device_lease`, on by default) a `DeviceLease` on the device itself, which runners on other
  hosts of a farm see too. xdist worker gwN prefers devices[N % len] and falls back to any free one,
  waiting up to `device_wait` seconds. The connection (a `U2Device`) is kept by the worker between items;
  a device that was lost is dropped. A device that stopped answering (it missed its deadline,
  `fairy_device_timeout`) is released without asking it anything; this worker's later items ask it once
  more, for a few seconds, and fail with the same reason while it still does not answer (another device
  takes them, if any), or take it again with a fresh connection once it does.
"""

from __future__ import annotations

import functools
import os
import re
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pytest_fairy.devices.claim import DeviceClaim
from pytest_fairy.devices.protocol import Device, DeviceLost
from pytest_fairy.devices.providers import FarmBookings, is_farm
from pytest_fairy.devices.settings import VIRTUAL, DeviceSettings, is_virtual
from pytest_fairy.errors import DeviceError

if TYPE_CHECKING:  # the driver imports adbutils and uiautomator2: only real-device runs pay for that
    from pytest_fairy.devices.deadline import Deadlines, DeviceNotAnswering
    from pytest_fairy.devices.driver import AdbServerAddress, Reconnect
    from pytest_fairy.devices.lease import DeviceLease, LeaseSettings

# The diagnostics at session start skip their active checks (u2 server, screen) on a device another
# run holds (its lock here, or its lease on the device); they wait this long for it before doing so.
DIAGNOSE_LOCK_SECONDS = 2.0
_WORKER_NUMBER = re.compile(r"(\d+)$")


class DevicePool:
    def __init__(
        self,
        config: DeviceSettings,
        rootpath: Path,
        *,
        open_virtual: Callable[[Path, str], Device],
        worker: str | None = None,
        lease_settings: LeaseSettings | None = None,
        session: str | None = None,
        say: Callable[[str], None] | None = None,
    ) -> None:
        self.config = config
        # Opens the virtual device of an app model with a serial: the plugin's, which parses each model once.
        self.open_virtual = open_virtual
        self.rootpath = rootpath
        self.worker = os.environ.get("PYTEST_XDIST_WORKER", "") if worker is None else worker
        # How the device leases behave (None: the defaults of pytest_fairy.devices.lease); `session` goes into
        # their owner records, for a person who finds a lease on a device.
        self.lease_settings = lease_settings
        self.session = session or uuid.uuid4().hex[:12]
        # Hears `waiting for emulator-5554, held by ...` while an item waits for a busy device (the
        # plugin's: to the terminal).
        self.say = say
        self._virtual: dict[Path, Device] = {}
        # The claims of the real devices leased right now, by serial.
        self._held: dict[str, DeviceClaim] = {}
        # Real devices, connected on first use; typed loosely so a virtual-only run never imports the driver.
        self._real: dict[str, Device] = {}
        # Real devices that stopped answering, and why: later items ask them again (`_answers_again`).
        self._silent: dict[str, DeviceNotAnswering] = {}
        self._abandoned: dict[str, DeviceLease] = {}  # the leases left on the devices in `_silent`
        # Phones booked from farms (`stf+http://...` devices): none until `use_farms`.
        self.farms = FarmBookings([])

    # ---- farms: their entries of --fairy-device become the serials of booked phones ------------------

    def use_farms(self, farms: FarmBookings) -> None:
        self.farms = farms

    def book_farms(self) -> None:
        """This process's phones from the farms, waiting up to `device_wait` for each; released by close()."""
        self.farms.book(self.config.device_wait)

    def _serials(self, order: list[str]) -> list[str]:
        """`order` with each farm entry as the serial booked for it. A farm that got no phone is left out,
        and is what the item says when nothing else is left."""
        serials: list[str] = []
        failures: list[DeviceError] = []
        for device in order:
            booked = self.farms.serial_of(device) if is_farm(device) else device
            if isinstance(booked, DeviceError):
                failures.append(booked)
            else:
                serials.append(booked)
        if not serials and failures:
            raise failures[0]
        return serials

    # ---- session start ---------------------------------------------------------------------------

    def diagnose(self) -> None:
        """Check every real device before any item runs; a pytest.UsageError that says what to do."""
        from pytest_fairy.devices.diagnostics import DeviceUnusable, diagnose

        for serial in self.config.real_devices:
            if is_farm(serial):  # booked later, by the process that runs items
                continue
            claim = self._claim(serial)
            try:
                # The adb checks first: they connect a network serial, which its lease needs.
                diagnose(serial, self.adb, active=False)
                # Another run (this host's or another's) is on it: only the passive checks, its lease kept.
                device = diagnose(serial, self.adb, active=True) if self._try_claim(claim) else None
            except DeviceUnusable as exc:
                raise pytest.UsageError(f"--fairy-device {serial}: {exc}") from None
            finally:
                claim.release()
            if device is not None:
                device.reconnect = self._reconnect()
                device.deadlines = self._deadlines()
                device.allow_ime_install = self.config.allow_ime_install
                self._real[serial] = device

    # ---- items -----------------------------------------------------------------------------------

    @contextmanager
    def lease(self, app_model: Path | None, serial: str | None = None) -> Iterator[Device]:
        """The device for one item, held until the `with` block ends.

        `app_model` is the item's virtual app (None: its spec names none); `serial` pins the device
        (matrix mode), otherwise the worker's preferred device or any free one is taken.
        """
        order = self._serials([serial] if serial else self._preference())
        virtual = [d for d in order if is_virtual(d) and self._app_model(d, app_model) is not None]
        real = [d for d in order if not is_virtual(d)]
        if virtual and (is_virtual(order[0]) or not real):
            yield self._virtual_device(self._app_model(virtual[0], app_model))  # type: ignore[arg-type]
            return
        if not real:
            raise pytest.UsageError(
                "the virtual device needs an app model: name one in the spec (app.virtual) or with "
                "--fairy-device virtual:PATH/app.yaml"
            )
        with self._real_lease(real, fallback=bool(virtual)) as device:
            if device is None:  # every real device busy, and a virtual one can take the item
                yield self._virtual_device(self._app_model(virtual[0], app_model))  # type: ignore[arg-type]
            else:
                yield device

    def lease_lost(self, device: Device) -> str:
        """Why the lease on `device` stopped being this run's while it was held ("" if it did not): another
        host may have driven the device meanwhile, so what the item saw cannot be trusted."""
        claim = self._held.get(device.serial)
        return claim.lease.lost if claim is not None and claim.lease is not None else ""

    def close(self) -> None:
        """At session end, after Ctrl-C / SIGTERM too: connections closed, then farm phones given back."""
        try:
            for device in self._real.values():
                _close(device)
            self._real.clear()
        finally:
            self.farms.release()

    # ---- plumbing --------------------------------------------------------------------------------

    @property
    def lock_dir(self) -> Path:
        from pytest_fairy.devices.lock import default_lock_dir

        return self.config.lock_dir or default_lock_dir()

    @property
    def adb(self) -> AdbServerAddress:
        from pytest_fairy.devices.driver import AdbServerAddress

        return (
            AdbServerAddress.parse(self.config.adb_server)
            if self.config.adb_server
            else AdbServerAddress.from_env()
        )

    def _preference(self) -> list[str]:
        """The devices in this worker's order of preference: devices[N % len] first, then the rest."""
        devices = list(self.config.devices)
        found = _WORKER_NUMBER.search(self.worker)
        start = int(found.group(1)) % len(devices) if found else 0
        return devices[start:] + devices[:start]

    def _lock_key(self, serial: str) -> str:
        # One serial can exist on two adb servers of a farm (emulator-5554 on each host).
        return f"{self.adb}/{serial}"

    def _claim(self, serial: str) -> DeviceClaim:
        from pytest_fairy.devices.lock import DeviceLock

        lock = DeviceLock(self.lock_dir, self._lock_key(serial))
        lease = None
        if self.config.device_lease:
            from pytest_fairy.devices.lease import DeviceLease, LeaseSettings

            settings = self.lease_settings or LeaseSettings()
            worker = self.worker or "main"
            # The record notes who of this host queues for the device (not this process: it is the holder).
            waiters = functools.partial(lock.queue.waiting, but_pid=os.getpid())
            lease = DeviceLease(
                serial, self.adb, settings, session=self.session, worker=worker, waiters=waiters
            )
        return DeviceClaim(serial, lock, lease)

    def _try_claim(self, claim: DeviceClaim) -> bool:
        """For the diagnostics: the claim if it comes within DIAGNOSE_LOCK_SECONDS. A device that cannot
        be asked about its lease is not claimed; the checks that follow say what is wrong with it."""
        from pytest_fairy.devices.lock import LockTimeout, acquire_first

        try:
            acquire_first([claim], wait_seconds=DIAGNOSE_LOCK_SECONDS)
        except (LockTimeout, DeviceError):
            return False
        return True

    @contextmanager
    def _real_lease(self, serials: list[str], *, fallback: bool) -> Iterator[Device | None]:
        from pytest_fairy.devices.lock import acquire_first

        remaining = [s for s in serials if s not in self._silent or self._answers_again(s)]
        if not remaining:  # every one stopped answering earlier: say so at once, or let a virtual one take it
            if fallback:
                yield None
                return
            raise self._silent[serials[0]].again()
        failures: list[str] = [str(self._silent[s]) for s in serials if s in self._silent]
        while remaining:
            claims = [self._claim(s) for s in remaining]
            try:
                if fallback:
                    # Only a device nobody queues for: a waiter's turn is not taken by an item that has a
                    # virtual device to go to.
                    claim = next((c for c in claims if c.queue.first(None) and c.try_acquire()), None)
                else:
                    claim = acquire_first(claims, wait_seconds=self.config.device_wait, say=self.say)
            except DeviceError as exc:
                if exc.serial not in remaining:
                    raise
                # Its lease could not be read: down for this item, as a device that does not connect.
                failures.append(str(exc))
                remaining.remove(exc.serial)
                continue
            if claim is None:  # every one busy, and a virtual device can take the item
                yield None
                return
            serial = claim.serial
            answering, reconnected = True, False
            try:
                try:
                    device = self._connected(serial)
                except DeviceError as exc:
                    # Down for this item: another device may take it, and the next item tries again.
                    failures.append(str(exc))
                    remaining.remove(serial)
                    continue
                self._held[serial] = claim
                reconnects = getattr(device, "reconnects", 0)
                # A driver kept between items: this item gets its own allowance of server restarts.
                getattr(device, "begin_item", lambda: None)()
                try:
                    yield device
                finally:
                    self._held.pop(serial, None)
                    reconnected = getattr(device, "reconnects", 0) > reconnects
                    silence = getattr(device, "silence", None)
                    if silence is not None:
                        self._silent[serial], answering = silence, False
                    if getattr(device, "lost", False):
                        _close(self._real.pop(serial, device))
                return
            finally:
                claim.release(answering=answering, reconnected=reconnected)
                if not answering and claim.lease is not None:
                    self._abandoned[serial] = claim.lease
        if len(serials) == 1:  # its failures name it already: "device S: take the device lease: ..."
            raise DeviceLost(serials[0], "it is gone", "; ".join(f.split(": ", 1)[-1] for f in failures))
        raise DeviceLost(", ".join(serials), "every one is gone", "; ".join(failures))

    def _answers_again(self, serial: str) -> bool:
        """A device that stopped answering earlier, asked once more (`probe_seconds` at most): one that
        answers a trivial shell command is taken again, with a fresh connection; else it stays given up."""
        from pytest_fairy.devices.deadline import BoundedAdbDevice

        probe = self._deadlines().probe_seconds
        if not self.adb.reachable(probe):
            return False
        try:
            # Bounded: adbutils' own 600 s default would apply to the shell's handshake with a hung phone.
            answer = BoundedAdbDevice(self.adb.client(probe), serial, probe).shell(
                ["echo", "ok"], timeout=probe
            )
        except Exception:  # noqa: BLE001 - any failure of the probe: still not answering
            return False
        if str(answer).strip() != "ok":
            return False
        left = self._abandoned.pop(serial, None)
        if left is not None:
            try:
                left.reclaim()
            except DeviceError:
                self._abandoned[serial] = left
                return False
        del self._silent[serial]
        given_up = self._real.pop(serial, None)
        if given_up is not None:
            _close(given_up)
        return True

    def _connected(self, serial: str) -> Device:
        if serial not in self._real:
            from pytest_fairy.devices.driver import U2Device

            self._real[serial] = U2Device.connect(
                serial,
                self.adb,
                reconnect=self._reconnect(),
                allow_ime_install=self.config.allow_ime_install,
                deadlines=self._deadlines(),
                settling=self.config.settle,
            )
        return self._real[serial]

    def _reconnect(self) -> Reconnect:
        from pytest_fairy.devices.driver import Reconnect

        return Reconnect(attempts=self.config.reconnect_attempts)

    def _deadlines(self) -> Deadlines:
        from pytest_fairy.devices.deadline import Deadlines

        return Deadlines(call=self.config.device_timeout)

    def _app_model(self, device: str, app_model: Path | None) -> Path | None:
        if device.startswith(VIRTUAL + ":"):
            return self._resolve(device.split(":", 1)[1])
        return app_model

    def _virtual_device(self, app_model: Path) -> Device:
        app_model = app_model.resolve()
        if app_model not in self._virtual:
            serial = f"virtual-{app_model.parent.name if app_model.name == 'app.yaml' else app_model.stem}"
            self._virtual[app_model] = self.open_virtual(app_model, serial)
        return self._virtual[app_model]

    def _resolve(self, raw: str) -> Path:
        path = Path(raw)
        return path if path.is_absolute() else self.rootpath / path


def _close(device: Device) -> None:
    close = getattr(device, "close", None)
    if close is not None:
        close()
