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

from pytest_fairy.devices.protocol import Device, Diagnostics
from pytest_fairy.errors import DeviceError
from pytest_fairy.virtual.wire.filesystem import MemoryFileSystem
from pytest_fairy.virtual.wire.transport import ServiceHandler

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


@runtime_checkable
class WiredDevice(Device, Diagnostics, Protocol):
    """A `Device` with its `Diagnostics` and what an adbd front needs beyond them (VirtualDevice provides
    these)."""

    properties: dict[str, str]

    def press_keycode(self, code: int) -> None: ...

    def installed_packages(self) -> list[str]: ...


class AndroidSystem:
    """One emulated phone: its device, file system, settings, clipboard and listening device ports."""

    def __init__(self, device: WiredDevice) -> None:
        self.device = device
        self._device_lock = threading.RLock()
        self._lock = threading.Lock()
        self.fs = MemoryFileSystem()
        self.settings: dict[str, dict[str, str]] = {ns: dict(v) for ns, v in DEFAULT_SETTINGS.items()}
        # Only the stock keyboard: u2 then types through its clipboard route, which needs no APK.
        self.installed_imes: tuple[str, ...] = (DEFAULT_IME,)
        self.enabled_imes: list[str] = [DEFAULT_IME]
        self.clipboard: str | None = None
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
