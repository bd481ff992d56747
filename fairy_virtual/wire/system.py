"""`AndroidSystem`: everything around the app that a shell, sync and the uiautomator server share.

The wire front drives a device only through `pytest_fairy.devices.protocol.Device` plus the few extras in
:class:`WiredDevice`; every device call goes through :meth:`AndroidSystem.call` so streams served on
different threads never drive the device at the same time.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable
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
        # A switch for tests: set, the uiautomator server takes each request and never answers it, as a
        # wedged one does (the connection stays open until the host gives up).
        self.u2_wedged = threading.Event()
        self._listeners: dict[int, ServiceHandler] = {}
        self._pids: dict[str, int] = {}
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
