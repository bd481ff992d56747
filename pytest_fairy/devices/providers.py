"""Phones booked from a device farm: `--fairy-device stf+http://farm:7100?abi=arm64-v8a&sdk>=30`.

A farm entry of --fairy-device names a provider (the part before `+`), the farm's address and the
requirements a phone must meet. The process that runs items (each xdist worker, or pytest itself without
xdist) books one phone per farm entry at session start, through its provider; the provider hands back an
adb serial, which the pool then leases item by item as any other real device. The booking is kept alive
while items run and given back when the session ends, Ctrl-C and SIGTERM included. Each provider books
with an expiry of the farm's own, so a booking left by a killed runner frees itself.

pytest_fairy ships the STF provider (`pytest_fairy.devices.stf`); a plugin adds others with the
`pytest_fairy_device_provider` hook.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from pytest_fairy.errors import DeviceError, UsageError

# How often the bookings are kept alive: well inside any farm's idle expiry (STF's is minutes).
KEEP_ALIVE_SECONDS = 30.0
# A farm entry with no phone booked is asked again by a later item, at most this often and without
# waiting: a phone freed meanwhile is taken, and an item never waits a whole `fairy_device_wait` again.
REBOOK_SECONDS = 30.0
_FARM = re.compile(r"^(?P<provider>[a-z][a-z0-9]*)\+(?P<scheme>https?)://(?P<rest>.+)$")
_TERM = re.compile(r"^(?P<key>[A-Za-z][A-Za-z0-9_]*)(?P<op>>=|<=|!=|=|>|<)(?P<value>[^&=<>!]+)$")
_NUMERIC_OPS = (">=", "<=", ">", "<")


class FarmRefused(UsageError):
    """The farm refused this run's credentials (401) or cannot be reached: a usage error, one line."""


class NoFarmDevice(DeviceError):
    """No phone of the farm met the requirements and came free in time: the items end inconclusive."""

    def __init__(self, farm: str, requirements: str, reason: str) -> None:
        super().__init__(farm, f"book a phone with {requirements}", reason)
        self.args = (f"farm {farm}: no free phone with {requirements}: {reason}",)

    def __reduce__(self) -> tuple[type, tuple[str, str, str]]:
        return type(self), (self.serial, self.doing.removeprefix("book a phone with "), self.reason)


@dataclass(frozen=True)
class Requirement:
    """One term of a farm entry's query: `abi=arm64-v8a`, `sdk>=30`."""

    key: str
    op: str
    value: str

    def __str__(self) -> str:
        return f"{self.key}{self.op}{self.value}"

    def met_by(self, properties: Mapping[str, object]) -> bool:
        have = properties.get(self.key)
        if have is None:
            return False
        if self.op in _NUMERIC_OPS:
            try:
                number, wanted = float(str(have)), float(self.value)
            except ValueError:
                return False
            return {
                ">=": number >= wanted,
                "<=": number <= wanted,
                ">": number > wanted,
                "<": number < wanted,
            }[self.op]
        equal = str(have).casefold() == self.value.casefold()
        return equal if self.op == "=" else not equal


@dataclass(frozen=True)
class Requirements:
    terms: tuple[Requirement, ...] = ()

    def __str__(self) -> str:
        return "&".join(map(str, self.terms)) or "no requirements"

    def met_by(self, properties: Mapping[str, object]) -> bool:
        return all(term.met_by(properties) for term in self.terms)

    def unmet(self, properties: Mapping[str, object]) -> list[Requirement]:
        return [term for term in self.terms if not term.met_by(properties)]


@dataclass(frozen=True)
class FarmEntry:
    """`stf+https://farm:7100?sdk>=30` read: provider `stf`, address `https://farm:7100`."""

    text: str
    provider: str
    address: str
    requirements: Requirements


def is_farm(device: str) -> bool:
    """Whether a --fairy-device value names a farm (`NAME+http://...`) rather than a serial."""
    return _FARM.match(device) is not None


def parse_farm(text: str) -> FarmEntry:
    """A farm entry read; UsageError saying what is wrong. Credentials never go into the entry: it is
    shown in the header, the reports and `ps`."""
    found = _FARM.match(text.strip())
    if found is None:
        raise UsageError(f"a farm as NAME+http://HOST:PORT?REQUIREMENTS, got {text!r}")
    rest = found["rest"]
    where, _, query = rest.partition("?")
    host = where.split("/", 1)[0]
    if not host or "@" in host:
        raise UsageError(
            "a farm address without credentials in it (the token goes in an environment variable)"
        )
    terms = []
    for raw in filter(None, query.split("&")):
        term = _TERM.match(raw)
        if term is None:
            raise UsageError(f"requirements as KEY=VALUE or KEY>=NUMBER joined by &, got {raw!r}")
        if term["key"].lower() in ("token", "access_token", "password"):
            raise UsageError("no credentials in the farm address (the token goes in an environment variable)")
        requirement = Requirement(term["key"], term["op"], term["value"])
        if requirement.op in _NUMERIC_OPS and not _is_number(requirement.value):
            raise UsageError(f"a number after {requirement.op} in {raw!r}")
        terms.append(requirement)
    address = f"{found['scheme']}://{where.rstrip('/')}"
    return FarmEntry(text.strip(), found["provider"], address, Requirements(tuple(terms)))


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


@runtime_checkable
class DeviceProvider(Protocol):
    """A device farm's booking service, for one farm entry.

    `book` waits up to `timeout` seconds for a phone meeting `requirements`, books it with the farm's own
    expiry, makes it reachable through the adb server in use and returns its adb serial; NoFarmDevice if
    none came free, FarmRefused for credentials the farm refuses. `keep_alive` is called every
    KEEP_ALIVE_SECONDS while the session runs; `release` gives a booked phone back (and never raises for
    one that is already gone). `check` asks the farm, without booking, whether it takes the credentials.
    """

    @property
    def name(self) -> str:
        """For the header and messages: `STF at https://farm:7100`."""
        ...

    def check(self) -> None: ...

    def book(self, requirements: Requirements, timeout: float) -> str: ...

    def keep_alive(self) -> None: ...

    def release(self, serial: str) -> None: ...


@dataclass
class Booking:
    entry: FarmEntry
    provider: DeviceProvider
    serial: str | None = None
    failure: DeviceError | None = None
    tried_at: float | None = None  # the clock's time of the last attempt to book


class FarmBookings:
    """This process's phones from farms: one booking per farm entry, kept alive, released at the end."""

    def __init__(
        self,
        bookings: list[Booking],
        *,
        keep_alive_seconds: float = KEEP_ALIVE_SECONDS,
        rebook_seconds: float = REBOOK_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.bookings = bookings
        self.keep_alive_seconds = keep_alive_seconds
        self.rebook_seconds = rebook_seconds
        self.clock = clock
        self._stop = threading.Event()
        self._keeper: threading.Thread | None = None

    @classmethod
    def of(
        cls, devices: tuple[str, ...], provider_for: Callable[[FarmEntry], DeviceProvider]
    ) -> FarmBookings:
        entries = []
        for device in filter(is_farm, devices):
            try:
                entries.append(parse_farm(device))
            except UsageError as exc:
                raise UsageError(f"--fairy-device {device}: expected {exc}") from None
        return cls([Booking(entry, provider_for(entry)) for entry in entries])

    def __bool__(self) -> bool:
        return bool(self.bookings)

    def check(self) -> None:
        for booking in self.bookings:
            booking.provider.check()

    def book(self, wait: float) -> None:
        """Book a phone for each farm entry; one that finds none is remembered for the items to say so."""
        for booking in self.bookings:
            self._book(booking, wait)

    def _book(self, booking: Booking, wait: float) -> None:
        booking.tried_at = self.clock()
        try:
            booking.serial, booking.failure = booking.provider.book(booking.entry.requirements, wait), None
        except DeviceError as exc:  # NoFarmDevice, or a phone that did not come up: said by each item
            booking.failure = exc
            return
        if self._keeper is None:
            self._keeper = threading.Thread(target=self._keep_alive, name="fairy-farm-keepalive", daemon=True)
            self._keeper.start()

    def serial_of(self, device: str) -> str | DeviceError:
        """The adb serial booked for a farm entry of --fairy-device, or why there is none. An entry without
        a phone (none was free, or it was given back) asks the farm again, without waiting, when the last
        attempt is `rebook_seconds` old."""
        for booking in self.bookings:
            if booking.entry.text == device.strip():
                due = booking.tried_at is not None and self.clock() - booking.tried_at >= self.rebook_seconds
                if booking.serial is None and due and not self._stop.is_set():
                    self._book(booking, wait=0.0)
                if booking.serial is not None:
                    return booking.serial
                return booking.failure or NoFarmDevice(
                    booking.entry.text, str(booking.entry.requirements), "not booked"
                )
        return NoFarmDevice(device, "", "not a farm of this run")

    def farm_of(self, serial: str) -> str | None:
        """The farm a booked phone's adb serial came from, with the requirements it was booked by; None for
        a serial no farm of this process lent."""
        for booking in self.bookings:
            if booking.serial == serial:
                return f"{booking.provider.name} ({booking.entry.requirements})"
        return None

    def describe(self, device: str) -> str:
        for booking in self.bookings:
            if booking.entry.text == device.strip():
                return f"{booking.provider.name} ({booking.entry.requirements}; a phone booked per worker)"
        return device

    def release(self) -> None:
        """Every booking given back; called at session end, also after Ctrl-C / SIGTERM."""
        self._stop.set()
        if self._keeper is not None:
            self._keeper.join(timeout=5.0)
        for booking in self.bookings:
            if booking.serial is not None:
                serial, booking.serial = booking.serial, None
                booking.provider.release(serial)

    def _keep_alive(self) -> None:
        while not self._stop.wait(self.keep_alive_seconds):
            for booking in self.bookings:
                if booking.serial is not None:
                    booking.provider.keep_alive()
