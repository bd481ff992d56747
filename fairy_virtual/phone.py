"""`VirtualPhone`: one virtual phone with several apps installed, as a farm's phone has the apps of the suites
that run on it.

    phone = VirtualPhone(["example_suites/food", "example_suites/notes"], serial="farm-1")
    phone.launch("com.example.notes")                   # notes in front; food keeps its state behind

Each app runs on a `VirtualDevice` of its own, all on the phone's serial and one phone clock, so the log's
timestamps and the phone's time run on across apps. The app last launched is in front: it takes the input
and shows in dumps and screenshots; Home, Back and the lock screen are that app's device's. Launching,
stopping and clearing an app go to that app's device, whichever is in front; the log is every app's,
in time order. The phone's size and properties are its first app's device's.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PIL import Image

from fairy_virtual.clock import Clock, DeviceClock, SystemClock
from fairy_virtual.device import ActionLogEntry, VirtualDevice
from fairy_virtual.model import AppModel, Scalar
from pytest_fairy.devices.protocol import AppRef, DeviceInfo, Key

LOG_STAMP = 18  # `MM-DD HH:MM:SS.mmm` opening each log line: the phone's time, ordering the apps' lines


class VirtualPhone:
    def __init__(
        self,
        apps: Sequence[AppModel | str | Path],
        *,
        serial: str = "virtual",
        seed: int = 0,
        latency: bool = True,
        clock: Clock | None = None,
    ) -> None:
        if not apps:
            raise ValueError("a phone needs at least one app")
        self._clock = DeviceClock(clock or SystemClock())
        self._serial = serial
        devices = [
            VirtualDevice(app, serial=serial, seed=seed, latency=latency, clock=self._clock) for app in apps
        ]
        self._apps = {device.app_model.app.package: device for device in devices}
        if len(self._apps) != len(devices):
            raise ValueError("two app models of one phone have the same package")
        self._front = devices[0]
        self.properties = devices[0].properties

    def __repr__(self) -> str:
        return f"VirtualPhone({self._serial!r}, apps={sorted(self._apps)!r})"

    @property
    def serial(self) -> str:
        return self._serial

    @property
    def clock(self) -> DeviceClock:
        return self._clock

    @property
    def front(self) -> VirtualDevice:
        """The device of the app in front."""
        return self._front

    @property
    def apps(self) -> list[str]:
        """The packages of the apps installed, in the order given."""
        return list(self._apps)

    def app(self, package: str) -> VirtualDevice:
        """The device that runs `package` (KeyError when it is not installed)."""
        return self._apps[package]

    @property
    def action_log(self) -> list[ActionLogEntry]:
        """Every call the phone took, in the order it started."""
        return sorted((e for d in self._apps.values() for e in d.action_log), key=lambda e: e.monotonic)

    @property
    def variables(self) -> dict[str, Scalar]:
        return self._front.variables

    # ---- the phone: which app is in front ------------------------------------------------------

    def launch(self, package: str, activity: str | None = None) -> None:
        device = self._apps.get(package)
        if device is None:
            self._front.launch(package, activity)  # the launcher, or the error of a package not installed
            return
        self._front = device
        device.launch(package, activity)

    def stop(self, package: str) -> None:
        if package in self._apps:
            self._apps[package].stop(package)

    def clear_app_data(self, package: str) -> None:
        if package in self._apps:
            self._apps[package].clear_app_data(package)

    def save_app_data(self, package: str) -> object:
        return self._apps[package].save_app_data(package) if package in self._apps else None

    def restore_app_data(self, package: str, data: object) -> None:
        if package in self._apps:
            self._apps[package].restore_app_data(package, data)

    def app_version(self, package: str) -> str:
        return self._apps[package].app_version(package) if package in self._apps else ""

    def installed_packages(self) -> list[str]:
        return sorted({package for d in self._apps.values() for package in d.installed_packages()})

    def logcat(self) -> str:
        lines = [line for d in self._apps.values() for line in d.logcat().splitlines()]
        return "".join(f"{line}\n" for line in sorted(lines, key=lambda line: line[:LOG_STAMP]))

    def clear_logcat(self) -> None:
        for device in self._apps.values():
            device.clear_logcat()

    @property
    def locked(self) -> bool:
        return self._front.locked

    def lock(self, secure: bool = False) -> None:
        for device in self._apps.values():
            device.lock(secure)

    def dismiss_keyguard(self) -> None:
        for device in self._apps.values():
            device.dismiss_keyguard()

    # ---- the app in front ----------------------------------------------------------------------

    def is_test_bed(self) -> bool:
        return True

    def toasts(self) -> list[str]:
        return self._front.toasts()

    def dump_hierarchy(self) -> str:
        return self._front.dump_hierarchy()

    def screenshot(self) -> Image.Image:
        return self._front.screenshot()

    def tap(self, x: int, y: int) -> None:
        self._front.tap(x, y)

    def long_tap(self, x: int, y: int, duration: float = 1.0) -> None:
        self._front.long_tap(x, y, duration)

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration: float = 0.3) -> None:
        self._front.swipe(x1, y1, x2, y2, duration)

    def type_text(self, text: str) -> None:
        self._front.type_text(text)

    def clear_text(self) -> None:
        self._front.clear_text()

    def press(self, key: Key) -> None:
        self._front.press(key)

    def press_keycode(self, code: int) -> None:
        self._front.press_keycode(code)

    def current_app(self) -> AppRef:
        return self._front.current_app()

    def window_size(self) -> tuple[int, int]:
        return self._front.window_size()

    def wait_idle(self, timeout: float) -> bool:
        return self._front.wait_idle(timeout)

    def settle(self) -> None:
        self._front.settle()

    def info(self) -> DeviceInfo:
        return self._front.info()
