"""Deadlines of a real device's calls: nothing the driver asks a phone may wait without bound.

A frozen phone (or a stuck USB hub) keeps its connection open and answers nothing. Two layers keep that
from hanging a run:

- **sockets**: every adb request, shell command, sync transfer and uiautomator2 HTTP call reads its
  socket with `Deadlines.call` seconds at most (`BoundedAdbDevice`). adbutils' own default, 600 s, would
  otherwise override the client's socket timeout on every call that names none, and uiautomator2's HTTP
  socket comes from adbutils, so its own per-call limit never applies. This module is the one place that
  subclasses adbutils' device; tests/devices/test_adbutils_contract.py checks what it overrides (adbutils
  2.12).
- **watchdog**: each attempt of a driver operation runs under `within()`, which stops waiting at the
  deadline whatever the libraries do inside (their own retries, polls and sleeps included).

A device that missed a deadline gets `Deadlines.call` seconds more, in all, to reconnect and retry; then it
is `DeviceNotAnswering`, and every later call, and every later item's lease, fails at once with the same
message. So one step of an item waits at most about twice the limit for a device that stopped answering.
A uiautomator2 server that stopped answering while adb still does is restarted instead (`u2_restart.py`):
its restart waits `Deadlines.restart_seconds` at most, and the call is then retried once.
"""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

import adbutils

from pytest_fairy.devices.protocol import DeviceLost
from pytest_fairy.devices.settings import DEFAULT_DEVICE_TIMEOUT
from pytest_fairy.errors import FairyError

T = TypeVar("T")

# How long "is it there?" may take: a TCP probe of the adb server, `echo ok` on the device.
PROBE_SECONDS = 3.0
# How long a restarted uiautomator2 server may take to answer `/ping` (a phone's takes a few seconds).
U2_RESTART_SECONDS = 15.0
# How many times one item may restart the uiautomator2 server: one that wedges at every call ends the item.
U2_RESTARTS_PER_ITEM = 2
# What adbutils passes when its caller names no timeout (adbutils/_device_base.py: 10 minutes).
_ADBUTILS_DEFAULT_TIMEOUT = 600
_NETWORK_SERIAL = re.compile(r"^[\w.\-\[\]:]+:\d+$")


@dataclass(frozen=True)
class Deadlines:
    """The limits of one device: `call` (ini `fairy_device_timeout`) bounds each adb, shell, sync and
    uiautomator2 call, each attempt of a driver operation, and, after a missed deadline, the reconnect
    attempts and retries together; `probe` bounds a health check and `restart` a restart of the
    uiautomator2 server, until it answers again (neither longer than `call`: a short deadline is chosen to
    give a silent device up fast)."""

    call: float = DEFAULT_DEVICE_TIMEOUT
    probe: float = PROBE_SECONDS
    restart: float = U2_RESTART_SECONDS

    @property
    def probe_seconds(self) -> float:
        return min(self.probe, self.call)

    @property
    def restart_seconds(self) -> float:
        return min(self.restart, self.call)


@dataclass(frozen=True)
class Reconnect:
    """How hard to try when a device stops answering: `attempts` tries, waiting `first_delay`, then
    `backoff` times longer each time (at most `max_delay`); each try waits up to `wait_seconds` for adb to
    list the device again."""

    attempts: int = 4
    first_delay: float = 0.5
    backoff: float = 2.0
    max_delay: float = 4.0
    wait_seconds: float = 5.0
    # How many times one call is retried after successful reconnects before it counts as lost.
    retries_per_call: int = 2
    # How many times one item may restart a uiautomator2 server that stopped answering while adb answers.
    server_restarts: int = U2_RESTARTS_PER_ITEM

    def delays(self) -> Iterator[float]:
        delay = self.first_delay
        for _ in range(self.attempts):
            yield delay
            delay = min(delay * self.backoff, self.max_delay)


def is_network_serial(serial: str) -> bool:
    """`HOST:PORT` serials are `adb connect`ed devices: the driver may connect them again itself."""
    return bool(_NETWORK_SERIAL.match(serial))


def describe(exc: BaseException) -> str:
    """An exception in one line: its type and the first line of its message."""
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else 'no message'}"


class DeadlineMissed(FairyError):
    """The watchdog stopped waiting for a call (internal: the driver turns it into DeviceNotAnswering)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"no answer in {seconds:g} s")
        self.seconds = seconds


class DeviceNotAnswering(DeviceLost):
    """The device missed a deadline and did not answer again: the item is inconclusive, and later calls
    and items on this device fail at once with this same message."""

    def __init__(self, serial: str, doing: str, reason: str) -> None:
        super().__init__(serial, doing, reason)
        self.args = (f"device {serial} stopped answering ({doing}, {reason})",)

    def again(self) -> DeviceNotAnswering:
        """A fresh copy to raise for a later call or item: the same message, a new traceback."""
        return DeviceNotAnswering(self.serial, self.doing, self.reason)


def no_answer(exc: BaseException) -> bool:
    """Whether `exc` is a missed deadline (the watchdog's, or a socket's timeout) rather than a failure."""
    return isinstance(exc, DeadlineMissed | TimeoutError | adbutils.AdbTimeout)


class Allowance:
    """Seconds left of a fixed allowance, counted from its creation."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._end = time.monotonic() + seconds

    def left(self) -> float:
        return max(0.0, self._end - time.monotonic())


def echoes(adb: adbutils.AdbDevice, probe: float) -> bool:
    """Whether the device answers `echo ok` within `probe` seconds: it is there, whatever else failed."""
    try:
        echo = within(probe, lambda: str(adb.shell(["echo", "ok"], timeout=probe)))
    except (DeadlineMissed, adbutils.AdbError, OSError):
        return False
    return echo.strip() == "ok"


def within(seconds: float, call: Callable[[], T], *, name: str = "call") -> T:
    """`call()`'s result or exception, or DeadlineMissed once `seconds` passed without either.

    The call runs in a daemon thread; one that misses its deadline is left to end on its own socket
    timeout, its result dropped.
    """
    if seconds <= 0:
        raise DeadlineMissed(0.0)
    outcome: list[tuple[bool, Any]] = []
    done = threading.Event()

    def run() -> None:
        try:
            outcome.append((True, call()))
        except BaseException as exc:  # handed to the caller's thread as it is
            outcome.append((False, exc))
        finally:
            done.set()

    threading.Thread(target=run, name=f"fairy: {name}", daemon=True).start()
    if not done.wait(seconds):
        raise DeadlineMissed(seconds)
    ok, value = outcome[0]
    if ok:
        return value  # type: ignore[no-any-return]
    raise value


class BoundedAdbDevice(adbutils.AdbDevice):
    """An AdbDevice whose every request reads its socket for `limit` seconds at most.

    adbutils opens each request with `open_transport(timeout=600)` unless told otherwise (shell
    handshakes, `app_current`, `window_size`, `getprop`, `app_stop`, and the device-port sockets
    uiautomator2's HTTP runs over); those 600 s replace the client's socket timeout. Here a timeout the
    caller did not choose becomes `limit`, and a longer one is cut to it. A long-lived shell stream
    (uiautomator2's server process, whose output is read as it comes) is left to block after its handshake.

    Device-port sockets also get TCP_NODELAY: uiautomator2 writes each request's headers and body
    separately, and Nagle's algorithm would hold the body until the delayed ACK, about 40 ms a call.
    """

    def __init__(self, client: adbutils.AdbClient, serial: str, limit: float) -> None:
        self.limit = limit
        super().__init__(client, serial=serial)

    def open_transport(
        self, command: str | None = None, timeout: float | None = _ADBUTILS_DEFAULT_TIMEOUT
    ) -> adbutils.AdbConnection:
        bounded = self.limit if timeout in (None, _ADBUTILS_DEFAULT_TIMEOUT) else min(timeout, self.limit)
        return super().open_transport(command, timeout=bounded)

    def open_shell(self, cmdargs: str | list[str] | tuple[str, ...]) -> adbutils.AdbConnection:
        connection = super().open_shell(cmdargs)
        # `shell()` sets its own (bounded) timeout on what it reads to the end; a stream keeps none.
        connection.conn.settimeout(None)
        return connection

    def shell(  # type: ignore[override]
        self,
        cmdargs: str | list[str] | tuple[str, ...],
        stream: bool = False,
        timeout: float | None = _ADBUTILS_DEFAULT_TIMEOUT,
        encoding: str | None = "utf-8",
        rstrip: bool = True,
    ) -> Any:
        bounded = self.limit if timeout in (None, _ADBUTILS_DEFAULT_TIMEOUT) else min(timeout, self.limit)
        return super().shell(cmdargs, stream=stream, timeout=bounded, encoding=encoding, rstrip=rstrip)

    def create_connection(self, network: adbutils.Network, address: int | str) -> socket.socket:
        sock = super().create_connection(network, address)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.settimeout(self.limit)
        return sock


class _ServerConnection(adbutils.AdbConnection):
    """A connection to the adb server that fails when nothing answers, where adbutils' own runs
    `adb start-server` (on the default port, whatever the client's) and tries again."""

    def _safe_connect(self) -> socket.socket:
        return self._create_socket()  # type: ignore[no-any-return]


class AdbServerClient(adbutils.AdbClient):
    """An adbutils client of one adb server that never starts a server: one that is gone is an
    AdbConnectionError (a DeviceError where the driver translates it), never a server of our own left
    running after pytest exits."""

    def __init__(self, host: str, port: int, socket_timeout: float | None = None) -> None:
        super().__init__(host=host, port=port, socket_timeout=socket_timeout)
        self._timeout = socket_timeout

    def make_connection(self, timeout: float | None = None) -> adbutils.AdbConnection:
        timeout = timeout or self._timeout
        try:
            connection = _ServerConnection(self.host, self.port)
        except TimeoutError:
            raise adbutils.AdbTimeout("connect to adb server timeout") from None
        if timeout:
            connection.conn.settimeout(timeout)
        return connection
