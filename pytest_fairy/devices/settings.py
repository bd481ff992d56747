"""Which devices a run uses and how it holds them: read from options by the plugin, used by the pool."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pytest_fairy.devices.settle import SettleLimits

VIRTUAL = "virtual"
# With more xdist workers than devices, a worker waits this long for one to become free (one item's time).
DEFAULT_DEVICE_WAIT = 3600.0
# Tries to get a real device back after it stopped answering (pytest_fairy.devices.driver.Reconnect).
DEFAULT_RECONNECT_ATTEMPTS = 4
# Seconds each adb, shell, sync and uiautomator2 call of a real device may take (devices/deadline.py).
DEFAULT_DEVICE_TIMEOUT = 20.0


def is_virtual(device: str) -> bool:
    """`virtual` or `virtual:APP.yaml`: the built-in in-process device."""
    return device == VIRTUAL or device.startswith(VIRTUAL + ":")


@dataclass(frozen=True)
class DeviceSettings:
    """The devices named with --fairy-device, and for real ones: the adb server ("" =
    ANDROID_ADB_SERVER_HOST/PORT or 127.0.0.1:5037), a feature per device with --fairy-matrix, the lock
    folder, the wait for a free device, reconnect tries, whether to lease the device itself, whether
    typing may install and switch to uiautomator2's input method, and the deadline of each device call."""

    devices: tuple[str, ...] = (VIRTUAL,)
    adb_server: str = ""
    matrix: bool = False
    lock_dir: Path | None = None
    device_wait: float = DEFAULT_DEVICE_WAIT
    reconnect_attempts: int = DEFAULT_RECONNECT_ATTEMPTS
    # A lease on each real device besides this host's lock, seen by other hosts (pytest_fairy.devices.lease).
    device_lease: bool = True
    # Typing may install uiautomator2's IME APK and switch the keyboard (pytest_fairy.devices.typing).
    allow_ime_install: bool = False
    # Seconds a device call may take before the device counts as not answering (fairy_device_timeout).
    device_timeout: float = DEFAULT_DEVICE_TIMEOUT
    # How long a real device waits for its UI to settle after an action (fairy_settle_seconds / _cap).
    settle: SettleLimits = SettleLimits()

    @property
    def virtual(self) -> bool:
        return all(is_virtual(d) for d in self.devices)

    @property
    def real_devices(self) -> tuple[str, ...]:
        return tuple(d for d in self.devices if not is_virtual(d))

    def device_line(self) -> str:
        line = ", ".join("virtual (in-process)" if d == VIRTUAL else d for d in self.devices)
        if self.real_devices:
            line += f" (adb server {self.adb_server or 'from ANDROID_ADB_SERVER_PORT, else 127.0.0.1:5037'}"
            line += "; matrix: every feature on every device)" if self.matrix else ")"
        return line
