"""`U2Device`: a real Android device behind the `Device` protocol, driven through an adb server with
adbutils (shell, app control) and uiautomator2 (hierarchy, screenshots, gestures, typing, toasts):
    device = U2Device.connect("emulator-5554", AdbServerAddress.parse("127.0.0.1:5037"))
    print(device.current_app(), device.window_size())

Every adbutils / uiautomator2 exception is translated here into `DeviceError` (the serial and what was
being done). When a call fails and the device no longer answers, the driver reconnects (bounded attempts
with backoff, `Reconnect`) and retries the call; a device that stays away raises `DeviceLost`. Every call
has a deadline (`Deadlines`, ini `fairy_device_timeout`, pytest_fairy/devices/deadline.py): a device that
misses it and does not answer again within one more limit raises `DeviceNotAnswering`; a uiautomator2
server that stops answering while adb answers is restarted instead (pytest_fairy/devices/u2_restart.py).

Each action (tap, long tap, swipe, typing, a key) returns once the UI settled: uiautomator's waitForIdle,
else two equal dumps, bounded by `settling` (pytest_fairy/devices/settle.py). `logcat()` reads only the
lines since its last read (pytest_fairy/devices/logcat.py).
"""

from __future__ import annotations

import functools
import http.client
import re
import time
from dataclasses import dataclass, field
from typing import TypeVar

import adbutils
import uiautomator2 as u2
from PIL import Image

from pytest_fairy.devices import deadline, events, u2_calls, u2_restart
from pytest_fairy.devices import typing as typist
from pytest_fairy.devices.adb_server import AdbServerAddress
from pytest_fairy.devices.deadline import Reconnect, is_network_serial
from pytest_fairy.devices.identity import another_phone, identity_of
from pytest_fairy.devices.logcat import LogcatReader
from pytest_fairy.devices.protocol import AppRef, DeviceInfo, DeviceLost, Key
from pytest_fairy.devices.read_ahead import ReadAhead
from pytest_fairy.devices.settle import Settled, SettleLimits, settle
from pytest_fairy.errors import DeviceError

T = TypeVar("T")
_reason = deadline.describe

U2_SERVER_PORT = 9008
LAUNCHER_CATEGORY = "android.intent.category.LAUNCHER"
# Signs in `am start` / `monkey` output that the launch did not happen (both may exit 0 regardless).
_LAUNCH_FAILED = ("Error:", "Error type", "No activities found", "monkey aborted", "Exception")
_VERSION_NAME = re.compile(r"versionName=(\S+)")
# Failures that may mean the device (or the adb server) went away; anything else is a plain error.
_TRANSPORT_ERRORS: tuple[type[BaseException], ...] = (
    adbutils.AdbError,
    OSError,
    http.client.HTTPException,
    u2.exceptions.DeviceError,
)
_MISSED_OR_TRANSPORT: tuple[type[BaseException], ...] = (deadline.DeadlineMissed, *_TRANSPORT_ERRORS)
_REATTACH_ERRORS: tuple[type[BaseException], ...] = (DeviceError, *_MISSED_OR_TRANSPORT)
_KEYS = {Key.BACK: "back", Key.HOME: "home", Key.ENTER: "enter"}


@dataclass
class U2Device(u2_restart.ServerRestarting):
    """One device on one adb server. Construction does no I/O: use :meth:`connect`, or :meth:`open`."""

    serial_name: str
    adb: AdbServerAddress = field(default_factory=AdbServerAddress.from_env)
    reconnect: Reconnect = field(default_factory=Reconnect)
    u2_port: int = U2_SERVER_PORT
    # May typing install uiautomator2's IME APK and switch the keyboard (ini fairy_allow_ime_install)?
    allow_ime_install: bool = False
    deadlines: deadline.Deadlines = field(default_factory=deadline.Deadlines)
    # How long to wait for the UI to settle after each action (ini fairy_settle_seconds / fairy_settle_cap).
    settling: SettleLimits = field(default_factory=SettleLimits)
    lost: bool = False
    _identity: tuple[str, ...] = field(default=(), init=False, repr=False)  # `identity.py`
    # Why the device counts as not answering (it missed a deadline and did not come back), else None.
    silence: deadline.DeviceNotAnswering | None = None
    reconnects: int = 0
    restarts: u2_restart.ServerRestarts = field(default_factory=u2_restart.ServerRestarts)  # `begin_item`
    _adb_device: adbutils.AdbDevice | None = field(default=None, repr=False)
    _u2: u2.Device | None = field(default=None, repr=False)
    _installed: set[str] = field(default_factory=set, repr=False)
    _note: str = field(default="", repr=False)
    _log: LogcatReader = field(default_factory=LogcatReader, repr=False)
    _no_idle_wait: bool = field(default=False, repr=False)  # the u2 server has no waitForIdle
    _moved: bool = field(default=False, repr=False)  # an action since the UI last settled
    _ahead: ReadAhead = field(default_factory=ReadAhead, repr=False)

    @classmethod
    def connect(cls, serial: str, adb: AdbServerAddress | None = None, **options: object) -> U2Device:
        device = cls(serial, adb or AdbServerAddress.from_env(), **options)  # type: ignore[arg-type]
        device.open()
        return device

    def open(self) -> None:
        """Attach to the device and start (or find) its uiautomator2 server; note which phone it is."""
        self._adb_device, self._u2 = self._attach()
        self._identity = identity_of(self._adb_device, self.serial)

    def _attach(self) -> tuple[adbutils.AdbDevice, u2.Device]:
        if not self.adb.reachable(self.deadlines.probe_seconds):
            raise DeviceError(self.serial_name, "connect", f"no adb server answers at {self.adb}")
        try:
            limit = self.deadlines.call
            adb_device = deadline.BoundedAdbDevice(self.adb.client(limit), self.serial_name, limit)
            return adb_device, u2.connect(adb_device, port=self.u2_port)
        except (*_TRANSPORT_ERRORS, u2.exceptions.BaseException) as exc:
            raise DeviceError(self.serial_name, "start the uiautomator2 server", _reason(exc)) from exc

    def close(self) -> None:
        """Forget the connection (the uiautomator2 server keeps running on the device for the next user)."""
        self._ahead.drop()
        self._u2 = None
        self._adb_device = None

    # ---- the Device protocol --------------------------------------------------------------------

    @property
    def serial(self) -> str:
        return self.serial_name

    def dump_hierarchy(self) -> str:
        """The dump read ahead with the app in front, else now, with the screenshot and log beside it."""
        ahead = self._ahead.take("dump", self.deadlines.call)
        self._read_ahead("screenshot", "logcat")
        return str(ahead) if ahead is not None else self._server("dump the hierarchy", u2_calls.dump)

    def screenshot(self) -> Image.Image:
        ahead = self._ahead.take("screenshot", self.deadlines.call)
        return ahead if ahead is not None else self._server("take a screenshot", u2_calls.screenshot)

    def tap(self, x: int, y: int) -> None:
        self._act(f"tap {x},{y}", lambda d, _: d.click(int(x), int(y)))

    def long_tap(self, x: int, y: int, duration: float = 1.0) -> None:
        self._act(f"long tap {x},{y}", lambda d, _: d.long_click(int(x), int(y), duration))

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration: float = 0.3) -> None:
        doing = f"swipe {x1},{y1} -> {x2},{y2}"
        self._act(doing, lambda d, _: d.swipe(int(x1), int(y1), int(x2), int(y2), duration))

    def type_text(self, text: str) -> None:
        # Clipboard paste, plain ASCII as one quoted word of `input text`, or (opted in) uiautomator2's IME:
        # never a shell line built from the text; how it was typed is the step's note (take_note).
        typed = self._act(
            f"type {len(text)} characters",
            lambda d, adb: typist.type_text(
                d, adb, text, serial=self.serial, allow_ime_install=self.allow_ime_install
            ),
        )
        self._note = events.joined(self._note, typed)

    def clear_text(self) -> None:
        # Part of typing: the text typed next settles the UI once for both (a settle floor paid once).
        self._act("clear the focused field", u2_calls.clear_focused, settle=False)

    def take_note(self) -> str:
        """What the calls since the last note said (the typing method, each reconnect), once: the
        explorer puts it in the step record."""
        note, self._note = self._note, ""
        return note

    def press(self, key: Key) -> None:
        self._act(f"press {key}", lambda d, _: d.press(_KEYS[Key(key)]))

    def launch(self, package: str, activity: str | None = None) -> None:
        self._require_installed(package)
        if activity:
            command = ["am", "start", "-a", "android.intent.action.MAIN", "-c", LAUNCHER_CATEGORY]
            command += ["-n", f"{package}/{activity}"]
        else:
            command = ["monkey", "-p", package, "-c", LAUNCHER_CATEGORY, "1"]
        doing = f"launch {package}" + (f"/{activity}" if activity else "")
        self._ahead.drop()
        result = self._run(doing, lambda _, adb: adb.shell2(command, timeout=self.deadlines.call))
        failed = [line for line in result.output.splitlines() if line.strip().startswith(_LAUNCH_FAILED)]
        if result.returncode != 0 or failed:
            raise DeviceError(self.serial, doing, "; ".join(failed) or result.output.strip() or "failed")

    def stop(self, package: str) -> None:
        self._ahead.drop()
        self._run(f"stop {package}", lambda _, adb: adb.app_stop(package))

    def clear_app_data(self, package: str) -> None:
        """`pm clear`: the app stopped and its data gone (`AppData`, the spec's `reset: data`)."""
        out = self.shell(["pm", "clear", package], doing=f"clear the data of {package}")
        if "Success" not in out:
            raise DeviceError(self.serial, f"clear the data of {package}", out.strip() or "pm clear failed")

    def current_app(self) -> AppRef:
        """The app in front; the rest of a look at the screen (dump, screenshot, log) starts beside it."""
        self._read_ahead("dump", "screenshot", "logcat")
        return self._run("read the app in front", u2_calls.current_app)

    def window_size(self) -> tuple[int, int]:
        def size(_: u2.Device, adb: adbutils.AdbDevice) -> tuple[int, int]:
            found = adb.window_size()
            return int(found.width), int(found.height)

        return self._run("read the window size", size)

    def toasts(self) -> list[str]:
        """The toast uiautomator2's watcher saw since the last call, each reported once (`Toasts`)."""
        return self._server("read the last toast", u2_calls.last_toast)

    def info(self) -> DeviceInfo:
        def props(_: u2.Device, adb: adbutils.AdbDevice) -> DeviceInfo:
            return DeviceInfo(
                serial=self.serial,
                model=adb.getprop("ro.product.model"),
                android_version=adb.getprop("ro.build.version.release"),
                sdk=adb.getprop("ro.build.version.sdk"),
            )

        return self._run("read the device properties", props)

    def app_version(self, package: str) -> str:
        text = self.shell(["dumpsys", "package", package], doing=f"read the version of {package}")
        found = _VERSION_NAME.search(text)
        return found.group(1) if found else ""

    def logcat(self) -> str:
        """The lines since the last clear: only those since the last read cross the wire."""
        ahead = self._ahead.take("logcat", self.deadlines.call)
        return self._log.take(ahead if ahead is not None else self._run("read logcat", self._read_log))

    def clear_logcat(self) -> None:
        self.shell(["logcat", "-c"], doing="clear logcat")
        self._log.clear()

    # ---- settling -------------------------------------------------------------------------------

    def settle(self) -> Settled:
        """Wait until the UI settled after the last action: how it ended. Each action already did, so
        this costs nothing after one; a UI that did not settle within the cap is noted in the step."""
        if not self._moved:
            return Settled.IDLE
        self._moved = False
        how = settle(
            self.settling,
            idle=None if self._no_idle_wait else self._wait_idle,
            observe=lambda: hash(self._server("dump the hierarchy", u2_calls.dump)),
        )
        self._note = events.joined(self._note, how.note(self.settling))
        return how

    def _act(self, doing: str, op: u2_restart.Op[T], *, settle: bool = True) -> T:
        """An action: drops what was read ahead; returns once the UI settled (else the next action waits)."""
        self._ahead.drop()
        result = self._server(doing, op)
        self._moved = True
        if settle:
            self.settle()
        return result

    def _read_ahead(self, *kinds: str) -> None:
        """Start the reads of `kinds` not started yet beside the foreground call, on the connection as it
        is (a failed one is done again in the foreground, which reconnects)."""
        device, adb = self._u2, self._adb_device
        if device is None or adb is None or self.lost or self.silence is not None:
            return
        reads: dict[str, u2_restart.Op[object]] = {
            "dump": u2_calls.dump,
            "screenshot": u2_calls.screenshot,
            "logcat": self._read_log,
        }
        for kind in kinds:
            if not self._ahead.pending(kind):
                self._ahead.start(kind, functools.partial(reads[kind], device, adb))

    def _read_log(self, _: u2.Device, adb: adbutils.AdbDevice) -> str:
        return u2_calls.text(adb.shell(self._log.command(), encoding=None))

    def _wait_idle(self, seconds: float) -> bool | None:
        said = self._server("wait for the UI to settle", lambda d, _: u2_calls.wait_idle(d, seconds))
        self._no_idle_wait = said is None  # asked once: an older server never grows the method
        return said

    # ---- extras ---------------------------------------------------------------------------------

    def shell(self, args: list[str], *, doing: str) -> str:
        """Run a command given as a list of words (each one quoted): its output, decoded leniently."""
        self._ahead.drop()  # a command may change the screen
        return self._run(doing, lambda _, adb: u2_calls.text(adb.shell(args, encoding=None)))

    def is_installed(self, package: str) -> bool:
        out = self.shell(["pm", "path", package], doing=f"look for package {package}")
        return out.strip().startswith("package:")

    @property
    def uiautomator(self) -> u2.Device:
        """The underlying uiautomator2 device, for what the `Device` protocol does not cover."""
        if self._u2 is None:
            raise DeviceError(self.serial, "use the device", "not connected: call open() first")
        return self._u2

    # ---- plumbing -------------------------------------------------------------------------------

    def _require_installed(self, package: str) -> None:
        if package in self._installed:
            return
        if not self.is_installed(package):
            raise DeviceError(
                self.serial,
                f"launch {package}",
                f"package {package} is not installed on {self.serial}: install the app "
                f"(adb -s {self.serial} install APP.apk) or correct app.package in the spec",
            )
        self._installed.add(package)

    def _run(self, doing: str, op: u2_restart.Op[T], *, server: bool = False) -> T:
        """Do `op` within its deadline, translating errors; reconnect and retry when the device stopped
        answering. After a missed deadline, the reconnects and retries together get one more limit."""
        if self.silence is not None:
            raise self.silence.again()
        if self.lost:
            raise DeviceLost(self.serial, doing, "the device was lost earlier in this run")
        late: deadline.Allowance | None = None  # started by the first missed deadline
        for retry in range(self.reconnect.retries_per_call + 1):
            if self._u2 is None or self._adb_device is None:
                self._come_back(doing, None, late)
            device, adb = self._u2, self._adb_device
            assert device is not None and adb is not None
            limit = self.deadlines.call if late is None else late.left()
            try:
                return deadline.within(limit, functools.partial(op, device, adb), name=doing)
            except u2.exceptions.RPCError as exc:
                raise DeviceError(self.serial, doing, _reason(exc)) from exc
            except _MISSED_OR_TRANSPORT as exc:
                if deadline.no_answer(exc):
                    late = late or deadline.Allowance(self.deadlines.call)  # the probe below spends it too
                answers = self._answers() if server and u2_restart.server_failed(exc) else None
                if answers and self._server_silent():  # adb answers, its uiautomator2 server does not
                    return self._restarted(doing, op, exc)
                if late is not None and deadline.no_answer(exc):
                    if retry == self.reconnect.retries_per_call or not late.left():
                        raise self._silenced(doing) from exc
                elif self._answers() if answers is None else answers:
                    raise DeviceError(self.serial, doing, _reason(exc)) from exc
                elif retry == self.reconnect.retries_per_call:
                    self.lost = True
                    raise DeviceLost(self.serial, doing, f"stopped answering again: {_reason(exc)}") from exc
                self._come_back(doing, exc, late)
        raise AssertionError("unreachable: the loop returns or raises")

    def _silenced(self, doing: str, reason: str = "") -> deadline.DeviceNotAnswering:
        """The device missed its deadline and did not answer again: lost, and every later call says so."""
        self.lost = True
        self.close()
        reason = reason or f"no answer in {self.deadlines.call:g} s"
        self.silence = deadline.DeviceNotAnswering(self.serial, doing, reason)
        return self.silence

    def _answers(self) -> bool:
        """Whether the device answers a trivial shell command: tells a failed call from a lost device."""
        probe, adb = self.deadlines.probe_seconds, self._adb_device
        return adb is not None and self.adb.reachable(probe) and deadline.echoes(adb, probe)

    def _come_back(self, doing: str, cause: BaseException | None, late: deadline.Allowance | None) -> None:
        """Reconnect with bounded attempts and backoff; DeviceLost when the device stays away. After a
        missed deadline (`late`), the attempts stop when its budget is spent: DeviceNotAnswering."""
        self.close()
        last = _reason(cause) if cause else "not connected"
        started = time.monotonic()
        for attempt, delay in enumerate(self.reconnect.delays(), 1):
            if late is not None and late.left() <= delay:
                break
            time.sleep(delay)
            limit = self.deadlines.call if late is None else late.left()
            try:
                self._adb_device, self._u2 = deadline.within(limit, self._reattach, name="reconnect")
            except _REATTACH_ERRORS as exc:
                last = exc.reason if isinstance(exc, DeviceError) else _reason(exc)
                continue
            self.reconnects += 1
            self._note = events.joined(self._note, events.reconnected(doing, attempt))  # a step event
            if other := another_phone(self._identity, identity_of(self._adb_device, self.serial)):
                self.lost = True  # before the failed call is retried on it
                raise DeviceLost(self.serial, doing, other) from cause
            return
        if late is not None:
            raise self._silenced(doing) from cause
        self.lost = True
        raise DeviceLost(
            self.serial,
            doing,
            f"lost and not back after {self.reconnect.attempts} reconnect attempts over "
            f"{time.monotonic() - started:.1f}s (last: {last})",
        ) from cause

    def _reattach(self) -> tuple[adbutils.AdbDevice, u2.Device]:
        if not self.adb.reachable(self.deadlines.probe_seconds):
            raise DeviceError(self.serial, "reconnect", f"no adb server answers at {self.adb}")
        client = self.adb.client(self.deadlines.call)
        if is_network_serial(self.serial):
            # adb forgets a network device whose connection dropped; `adb connect` brings it back.
            client.connect(self.serial, timeout=self.reconnect.wait_seconds)
        client.wait_for(self.serial, state="device", timeout=self.reconnect.wait_seconds)
        return self._attach()
