"""A wedged uiautomator2 server is restarted through adb, not given up on with its phone.

A phone's uiautomator2 server can stop answering while the phone itself still does (its instrumentation
crashed, its process hangs): adb answers `echo`, the server's `tcp:9008` takes requests and answers none.
uiautomator2 3.x restarts its server only after an HTTP error of its own making and only on a stream it
started itself, so a hung server (a socket timeout) or one started by an earlier run stays wedged. The
driver (`U2Device._run`) then restarts it here: the server process is ended through adb, started again the
way uiautomator2 starts it (`u2.connect`: push `u2.jar` if needed, `app_process ... com.wetest.uia2.Main`,
poll `/ping`), and the failed call is retried once. A restart is bounded by `Deadlines.restart_seconds`,
and one item restarts the server at most `Reconnect.server_restarts` times (`U2Device.begin_item` starts an
item's count), so a server that wedges at every call ends the item inconclusive instead of looping.
"""

from __future__ import annotations

import functools
import http.client
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import adbutils
import uiautomator2 as u2
from uiautomator2.core import AdbHTTPConnection

from pytest_fairy.devices import deadline, events
from pytest_fairy.devices.read_ahead import ReadAhead
from pytest_fairy.errors import DeviceError, FairyError

T = TypeVar("T")
Op = Callable[[u2.Device, adbutils.AdbDevice], T]  # a driver call: `op(u2_device, adb)` (u2_calls.py)

# The class uiautomator2 3.x runs its server as (uiautomator2/core.py `launch_uiautomator`). The last
# letter in brackets keeps the pattern from matching the shell that runs `pkill` (its own command line
# holds the pattern, not the name).
SERVER_PATTERN = "com.wetest.uia2.Mai[n]"
# Failures of the server at the HTTP level: refused, reset, closed without an answer, a bad status.
_HTTP_FAILURES: tuple[type[BaseException], ...] = (
    u2.exceptions.HTTPError,
    http.client.HTTPException,
    ConnectionError,
)
# What the call retried after a restart may fail with, besides a JSON-RPC error: as the driver's `_run`.
RETRY_ERRORS: tuple[type[BaseException], ...] = (
    deadline.DeadlineMissed,
    adbutils.AdbError,
    OSError,
    http.client.HTTPException,
    u2.exceptions.DeviceError,
)
# What a failed restart may raise: those, and whatever uiautomator2 raises while it starts its server.
RESTART_ERRORS: tuple[type[BaseException], ...] = (*RETRY_ERRORS, u2.exceptions.BaseException)
NOTE = "uiautomator2 server restarted"
# How a call retried after a restart ends the item when it fails too.
AGAIN = "and again after its uiautomator2 server was restarted"


def server_failed(exc: BaseException) -> bool:
    """Whether `exc` may be the uiautomator2 server's own failure: no answer in time, or an HTTP error."""
    return deadline.no_answer(exc) or isinstance(exc, _HTTP_FAILURES)


def failure(cause: BaseException, call_seconds: float) -> str:
    """How the call failed, as the item's message starts: `no answer in 20 s`, or the HTTP error."""
    return f"no answer in {call_seconds:g} s" if deadline.no_answer(cause) else deadline.describe(cause)


def note(doing: str) -> str:
    """The step's device note: `uiautomator2 server restarted after 'dump the hierarchy' failed`."""
    return f"{NOTE} after {doing!r} failed"


class ServerNotBack(FairyError):
    """No restart brought the server back (the item used its restarts, or it did not answer): why, as the
    item's inconclusive message words it (internal: the driver turns it into DeviceNotAnswering)."""


@dataclass
class ServerRestarts:
    """The restarts of one connection's uiautomator2 server in the current item."""

    done: int = 0

    def begin_item(self) -> None:
        self.done = 0

    def restart(
        self,
        adb: adbutils.AdbDevice,
        stale: u2.Device | None,
        port: int,
        reconnect: deadline.Reconnect,
        deadlines: deadline.Deadlines,
        failed: str,
    ) -> u2.Device:
        """Stop the server and start it again: a fresh uiautomator2 device whose server answers `/ping`;
        ServerNotBack when this item restarted it `reconnect.server_restarts` times already, or it is not
        back within `deadlines.restart_seconds`. `failed` (`failure()`) starts that message."""
        if self.done >= reconnect.server_restarts:
            times = f"{self.done} time{'' if self.done == 1 else 's'}"
            raise ServerNotBack(
                f"{failed}; its uiautomator2 server was restarted {times} in this item, the limit"
            )
        self.done += 1
        seconds = deadlines.restart_seconds
        try:
            return deadline.within(seconds, lambda: _restart(adb, stale, port), name="restart uiautomator2")
        except RESTART_ERRORS as exc:
            why = "" if deadline.no_answer(exc) else f" ({deadline.describe(exc)})"
            raise ServerNotBack(
                f"{failed}; its uiautomator2 server was restarted through adb and did not answer within "
                f"{seconds:g} s{why}"
            ) from exc


class ServerRestarting:
    """`U2Device`'s part that restarts its uiautomator2 server: a mixin over the driver's own state."""

    _adb_device: adbutils.AdbDevice | None
    _u2: u2.Device | None
    _ahead: ReadAhead
    _note: str
    serial_name: str
    u2_port: int
    reconnect: deadline.Reconnect
    deadlines: deadline.Deadlines
    restarts: ServerRestarts

    def begin_item(self) -> None:
        """An item starts on this connection: its own `reconnect.server_restarts` restarts of the server
        (the pool calls this as it leases the device)."""
        self.restarts.done = 0

    def _silenced(self, doing: str, reason: str = "") -> deadline.DeviceNotAnswering:
        raise NotImplementedError  # the driver's: the device counts as not answering from now on

    def _run(self, doing: str, op: Op[T], *, server: bool = False) -> T:
        raise NotImplementedError  # the driver's: `op` within its deadline, reconnecting

    def _server(self, doing: str, op: Op[T]) -> T:
        """`_run` for an op that calls the uiautomator2 server: one failing while adb answers is restarted."""
        return self._run(doing, op, server=True)

    def _server_silent(self) -> bool:
        """Whether the server fails uiautomator2's own health check, `/ping`, within the probe's time: a
        call stuck elsewhere (a slow shell command, a library) leaves it answering, and is no reason."""
        adb, probe = self._adb_device, self.deadlines.probe_seconds
        try:
            return adb is None or deadline.within(probe, lambda: _ping(adb, self.u2_port, probe)) != b"pong"
        except RETRY_ERRORS:
            return True

    def _restarted(self, doing: str, op: Op[T], cause: BaseException) -> T:
        """The uiautomator2 server failed while adb answers: restarted, and the call retried once."""
        adb, failed = self._adb_device, failure(cause, self.deadlines.call)
        assert adb is not None
        self._ahead.drop()
        try:
            self._u2 = self.restarts.restart(
                adb, self._u2, self.u2_port, self.reconnect, self.deadlines, failed
            )
            self._note = events.joined(self._note, note(doing))  # a step event
            return deadline.within(self.deadlines.call, functools.partial(op, self._u2, adb), name=doing)
        except u2.exceptions.RPCError as exc:
            raise DeviceError(self.serial_name, doing, deadline.describe(exc)) from exc
        except ServerNotBack as exc:
            raise self._silenced(doing, str(exc)) from exc
        except RETRY_ERRORS as exc:
            raise self._silenced(doing, f"{failed}, {AGAIN}") from exc


def _ping(adb: adbutils.AdbDevice, port: int, seconds: float) -> bytes:
    connection = AdbHTTPConnection(adb, port)  # uiautomator2's own: HTTP over the device's tcp:PORT
    connection.timeout = seconds
    try:
        connection.request("GET", "/ping")
        return connection.getresponse().read()
    finally:
        connection.close()


def _restart(adb: adbutils.AdbDevice, stale: u2.Device | None, port: int) -> u2.Device:
    if stale is not None:
        stale.stop_uiautomator(wait=False)  # closes the stream this client started the server on, if any
    # A server started by another client (an earlier run, `python -m uiautomator2`) has no stream of ours.
    adb.shell(["pkill", "-f", SERVER_PATTERN])
    return u2.connect(adb, port=port)
