"""`AndroidSystem`: everything around the app that a shell, sync and the uiautomator server share.

The wire front drives a device only through `pytest_fairy.devices.protocol.Device` plus the few extras in
:class:`WiredDevice`; every device call goes through :meth:`AndroidSystem.call` so streams served on
different threads never drive the device at the same time.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, TypeVar, runtime_checkable

from fairy_virtual.wire.filesystem import DEFAULT_FILE_MODE, MemoryFileSystem
from fairy_virtual.wire.transport import ServiceHandler
from pytest_fairy.devices.protocol import Device, Diagnostics
from pytest_fairy.errors import DeviceError

T = TypeVar("T")

LAUNCHER_PACKAGE = "com.android.launcher3"
SYSTEM_PACKAGES = (
    "android",
    "com.android.systemui",
    LAUNCHER_PACKAGE,
    "com.android.settings",
    "com.android.permissioncontroller",
    "com.android.inputmethod.latin",
    "com.android.shell",
)
DEFAULT_IME = "com.android.inputmethod.latin/.LatinIME"
# The settings a fresh device answers for; u2 reads default_input_method before typing.
DEFAULT_SETTINGS: dict[str, dict[str, str]] = {
    "secure": {"default_input_method": DEFAULT_IME, "enabled_input_methods": DEFAULT_IME},
    "system": {
        "screen_brightness": "128",
        "screen_brightness_mode": "0",
        "pointer_location": "0",
        "show_touches": "0",
    },
    "global": {"airplane_mode_on": "0", "adb_enabled": "1", "stay_on_while_plugged_in": "0"},
}
FIRST_APP_PID = 10240
# Processes started from a shell (the uiautomator server) get pids from here on, a new one per start.
FIRST_SHELL_PID = 20480
# How long `pkill` waits for a process it signalled to be gone (its device port closed).
KILL_WAIT_SECONDS = 2.0
# Settings whose change switches the keyboard: recorded in `AndroidSystem.changes`.
INPUT_METHOD_SETTINGS = ("default_input_method", "enabled_input_methods")


@runtime_checkable
class WiredDevice(Device, Diagnostics, Protocol):
    """A `Device` with its `Diagnostics` and what an adbd front needs beyond them (VirtualDevice provides
    these)."""

    properties: dict[str, str]

    def press_keycode(self, code: int) -> None: ...

    def installed_packages(self) -> list[str]: ...

    def toasts(self) -> list[str]: ...

    def clear_app_data(self, package: str) -> None: ...

    @property
    def locked(self) -> bool: ...  # the lock screen shows (`dumpsys window`)

    def dismiss_keyguard(self) -> None: ...  # `wm dismiss-keyguard`

    def wait_idle(self, timeout: float) -> bool: ...  # uiautomator's waitForIdle


class _RecordedSettings(dict[str, str]):
    """A settings table that records writes of the input-method settings in `changes`."""

    def __init__(self, values: dict[str, str], changes: list[str]) -> None:
        super().__init__(values)
        self._changes = changes

    def __setitem__(self, key: str, value: str) -> None:
        if key in INPUT_METHOD_SETTINGS and self.get(key) != value:
            self._changes.append(f"settings secure {key} {value}")
        super().__setitem__(key, value)


class _RecordedImes(list[str]):
    """The enabled input methods, recording each one enabled or disabled in `changes`."""

    def __init__(self, values: list[str], changes: list[str]) -> None:
        super().__init__(values)
        self._changes = changes

    def append(self, method: str) -> None:
        self._changes.append(f"ime enable {method}")
        super().append(method)

    def remove(self, method: str) -> None:
        self._changes.append(f"ime disable {method}")
        super().remove(method)


class _RecordedFileSystem(MemoryFileSystem):
    """The file system, recording every APK written (pushed to be installed) in `changes`."""

    def __init__(self, changes: list[str]) -> None:
        self._changes = changes
        super().__init__()

    def write(self, path: str, data: bytes, mode: int = DEFAULT_FILE_MODE, mtime: int | None = None) -> None:
        if path.endswith(".apk"):
            self._changes.append(f"push {path} (an APK to install)")
        super().write(path, data, mode, mtime)


@dataclass
class ShellProcess:
    """A long-lived process started from a shell (the uiautomator server's `app_process`): what `ps` lists
    and `pkill` ends. `killed` asks it to end; `gone` says it did (its device port is closed)."""

    pid: int
    command_line: str
    killed: threading.Event = field(default_factory=threading.Event)
    gone: threading.Event = field(default_factory=threading.Event)

    @property
    def name(self) -> str:
        return self.command_line.split(" ", 1)[0].rsplit("/", 1)[-1]


class AndroidSystem:
    """One emulated phone: its device, file system, settings, clipboard and listening device ports."""

    def __init__(self, device: WiredDevice) -> None:
        self.device = device
        self._device_lock = threading.RLock()
        self._lock = threading.Lock()
        # What changed on the phone beyond the app: an APK pushed to be installed, an input method enabled,
        # disabled or selected. A test run that only explores leaves it empty.
        self.changes: list[str] = []
        self.fs: MemoryFileSystem = _RecordedFileSystem(self.changes)
        self.settings: dict[str, dict[str, str]] = {ns: dict(v) for ns, v in DEFAULT_SETTINGS.items()}
        self.settings["secure"] = _RecordedSettings(DEFAULT_SETTINGS["secure"], self.changes)
        # Only the stock keyboard: u2 then types through its clipboard route, which needs no APK.
        self.installed_imes: tuple[str, ...] = (DEFAULT_IME,)
        self.enabled_imes: list[str] = _RecordedImes([DEFAULT_IME], self.changes)
        # The clipboard holds what Android's does: UTF-16 text, so any Python str (lone surrogates too).
        self.clipboard: str | None = None
        # Android 10+ lets only the focused app or the input method read the clipboard: False makes
        # uiautomator2's getClipboard answer null, as on such a device.
        self.clipboard_readable = True
        # Switches for tests. A wedged uiautomator server takes each request and never answers it (the
        # connection stays open until the host gives up, or the server process is killed).
        # `u2_wedged` set: every server is wedged, now and after any restart.
        self.u2_wedged = threading.Event()
        # The running server answers this many more JSON-RPC requests (None: all); the next one wedges it,
        # `/ping` too, until it is killed. Each server started later begins with `u2_answers_after_start`.
        self.u2_answers_left: int | None = None
        self.u2_answers_after_start: int | None = None
        self._u2_stuck = False
        self._listeners: dict[int, ServiceHandler] = {}
        self._pids: dict[str, int] = {}
        self._processes: dict[int, ShellProcess] = {}
        self._next_pid = FIRST_SHELL_PID
        self.stopping = threading.Event()

    @property
    def serial(self) -> str:
        return self.device.serial

    def call(self, doing: Callable[[], T]) -> T:
        """Run one device operation with the device to ourselves."""
        with self._device_lock:
            return doing()

    # ---- device-side TCP ports (tcp:PORT services)
    def listen(self, port: int, handler: ServiceHandler) -> bool:
        """Start serving device port `port`; False when something already listens there."""
        with self._lock:
            if port in self._listeners:
                return False
            self._listeners[port] = handler
            return True

    def unlisten(self, port: int) -> None:
        with self._lock:
            self._listeners.pop(port, None)

    def listener(self, port: int) -> ServiceHandler | None:
        with self._lock:
            return self._listeners.get(port)

    def listener_ports(self) -> list[int]:
        with self._lock:
            return sorted(self._listeners)

    # ---- processes, as `ps` and `pidof` show them
    def pid_of(self, name: str) -> int:
        """A stable pid per process name, like a real device assigns one per launch."""
        with self._lock:
            if name not in self._pids:
                self._pids[name] = FIRST_APP_PID + 37 * len(self._pids)
            return self._pids[name]

    def spawn(self, command_line: str) -> ShellProcess:
        with self._lock:
            process = ShellProcess(self._next_pid, command_line)
            self._processes[process.pid] = process
            self._next_pid += 1
            return process

    def exited(self, process: ShellProcess) -> None:
        with self._lock:
            self._processes.pop(process.pid, None)
        process.gone.set()

    def shell_processes(self) -> list[ShellProcess]:
        with self._lock:
            return sorted(self._processes.values(), key=lambda p: p.pid)

    def kill(self, pattern: str, *, full: bool) -> int:
        """`pkill [-f] PATTERN`: end the shell processes whose name (or, `full`, command line) matches the
        regular expression, each gone before this returns; how many."""
        found = re.compile(pattern)
        chosen = [p for p in self.shell_processes() if found.search(p.command_line if full else p.name)]
        for process in chosen:
            process.killed.set()
        for process in chosen:
            process.gone.wait(KILL_WAIT_SECONDS)
        return len(chosen)

    # ---- the uiautomator server's health (the test switches above)
    def u2_server_started(self) -> None:
        with self._lock:
            self.u2_answers_left, self._u2_stuck = self.u2_answers_after_start, False

    def u2_answers(self, *, rpc: bool) -> bool:
        """Whether the running uiautomator server answers a request; JSON-RPC ones count toward its wedge."""
        with self._lock:
            if rpc and self.u2_answers_left == 0:
                self._u2_stuck = True
            if self.u2_wedged.is_set() or self._u2_stuck:
                return False
            if rpc and self.u2_answers_left is not None:
                self.u2_answers_left -= 1
            return True

    def running_packages(self) -> list[str]:
        """Apps with a process: the one in front, when it is not the launcher."""
        try:
            front = self.call(self.device.current_app).package
        except DeviceError:
            return []
        return [front] if front and front not in SYSTEM_PACKAGES else []

    def packages(self) -> list[str]:
        return sorted({*SYSTEM_PACKAGES, *self.call(self.device.installed_packages)})

    def md5(self, path: str) -> str:
        return hashlib.md5(self.fs.read(path)).hexdigest()
