"""`VirtualDevice`: a headless Android phone running one virtual app, behind the `Device` protocol.

Thread-safe: every call holds one lock, so calls from several threads (the adbd wire front serves
several connections) happen one at a time, as on a real device; only the latency of reads (a dump, a
screenshot, the log) passes side by side, as a phone's uiautomator server answers them on threads of
their own. `action_log` records every call with
its start and end times so a device farm can check that two sessions never overlapped.

UI settling: with `device.latency.settle` > 0, an input action's result is not on screen at once. For that
long after the action, a dump or screenshot shows the screen as it was before it (a phone's animation);
`wait_idle(timeout)` (uiautomator's waitForIdle, served over the wire) waits it out on the device's clock,
so a test with a ManualClock sees exactly whether and how long a driver waited.

Time: every call takes the phone the time `device.durations` gives it (a tap and its reaction, typing by
the character, an app's start, a dump...). The run does not wait for it: the device's own clock
(`DeviceClock`: the clock given, plus that time) moves on at once. A call's time passes before it acts (a
tap lands when the finger lifts, a launched app shows once it has started), a read's after the moment it
shows. So toasts and the UI's settling end as many actions later as on a phone, however fast the run.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, TypeVar

from PIL import Image

from fairy_virtual.clock import Clock, DeviceClock, SystemClock
from fairy_virtual.dump import dump_xml
from fairy_virtual.engine import Engine, VirtualAppError
from fairy_virtual.loader import load_app_model
from fairy_virtual.logcat import Logcat
from fairy_virtual.model import AppModel, Durations, Element, Scalar
from fairy_virtual.render import Renderer
from fairy_virtual.system import LAUNCHER_PACKAGE, SYSTEM_PACKAGES
from fairy_virtual.views import Window
from pytest_fairy.devices.protocol import AppRef, DeviceInfo, Key
from pytest_fairy.errors import DeviceError

KEYCODE_HOME, KEYCODE_BACK, KEYCODE_ENTER, KEYCODE_DEL = 3, 4, 66, 67

DEFAULT_PROPERTIES = {
    "ro.product.model": "Pixel 7",
    "ro.product.brand": "google",
    "ro.product.name": "panther",
    "ro.product.device": "panther",
    "ro.product.manufacturer": "Google",
    "ro.product.cpu.abi": "arm64-v8a",
    "ro.build.version.release": "14",
    "ro.build.version.sdk": "34",
    "ro.build.type": "user",
    "ro.build.id": "UQ1A.240205.004",
    "ro.build.fingerprint": "google/panther/panther:14/UQ1A.240205.004/11269751:user/release-keys",
    "ro.sf.lcd_density": "420",
}
LOCALES = {"zh": "zh-CN", "en": "en-US"}

T = TypeVar("T")
# What a person does with the phone in hand: what counts towards `device.lock_after_actions`.
INPUT_ACTIONS = frozenset({"tap", "long_tap", "swipe", "type_text", "clear_text", "press", "press_keycode"})
Cost = Literal["dump", "screenshot", "action", "logcat", "none"]
# Reads whose latency passes side by side with other calls' (a dump and a screenshot at once).
SIDE_BY_SIDE = frozenset({"dump", "screenshot", "logcat"})


@dataclass(frozen=True, slots=True)
class ActionLogEntry:
    """One device call. `monotonic` / `wall` are when it started, `finished` (monotonic) when it ended, on
    the host's clock (the clock given to the device, without the phone's time its calls took)."""

    monotonic: float
    wall: float
    action: str
    args: tuple[object, ...]
    finished: float


class VirtualDevice:
    """A virtual phone running `app` (an AppModel, or a path to app.yaml or its directory).

    Starts at the launcher with the app not running, like a phone after boot; `launch(package)` opens it.
    `latency=False` makes every call answer at once (tests); otherwise each call waits as long as the
    model's `device.latency` says, through `clock.sleep`. Either way the device's `clock` moves by the time
    each call takes a phone (`device.durations`).
    """

    def __init__(
        self,
        app: AppModel | str | Path,
        *,
        serial: str = "virtual",
        seed: int = 0,
        latency: bool = True,
        size: tuple[int, int] | None = None,
        clock: Clock | None = None,
    ) -> None:
        self.app_model = app if isinstance(app, AppModel) else load_app_model(app)
        self._serial = serial
        self._latency = latency
        # A phone's clock given as it is: the clock of a phone with several apps (`phone.VirtualPhone`).
        self._clock = clock if isinstance(clock, DeviceClock) else DeviceClock(clock or SystemClock())
        self._size = size or self.app_model.device.size
        self._lock = threading.RLock()
        self._logcat = Logcat(self._clock)
        self._engine = Engine(
            self.app_model, seed=seed, clock=self._clock, logcat=self._logcat, size=self._size
        )
        self._renderer = Renderer(self._size)
        self.action_log: list[ActionLogEntry] = []
        self._inputs = 0  # input actions so far, for `device.lock_after_actions`
        # While the UI settles after an input action: the windows and toasts shown before it, and until when.
        self._before: tuple[list[Window], list[str]] | None = None
        self._settles_at = 0.0
        self.properties: dict[str, str] = {
            **DEFAULT_PROPERTIES,
            "ro.serialno": serial,
            "ro.product.locale": LOCALES[self.app_model.device.locale],
            **self.app_model.device.properties,
        }

    def __repr__(self) -> str:
        return f"VirtualDevice({self._serial!r}, app={self.app_model.app.package!r})"

    @property
    def serial(self) -> str:
        return self._serial

    @property
    def clock(self) -> DeviceClock:
        """The phone's time: the clock given to the device, plus the time its calls took on the phone."""
        return self._clock

    @property
    def variables(self) -> dict[str, Scalar]:
        """The app's variables right now (read-only view for tests and debugging)."""
        return dict(self._engine.ui.variables)

    @property
    def locked(self) -> bool:
        """Whether the lock screen shows (`dumpsys window` says mShowingLockscreen=true)."""
        return self._engine.keyguard is not None

    def lock(self, secure: bool = False) -> None:
        """Lock the screen as a phone locks itself: a swipe lock, or with `secure` a PIN lock."""
        self._call("lock", (secure,), "none", lambda: self._engine.lock(secure))

    def dismiss_keyguard(self) -> None:
        """`adb shell wm dismiss-keyguard`: lifts a swipe lock; a PIN lock stays."""
        self._call("dismiss_keyguard", (), "action", self._engine.dismiss_keyguard, self._times.key)

    def is_test_bed(self) -> bool:
        """A device made for tests (`devices.protocol.TestBed`): each item starts from a fresh app."""
        return True

    def toasts(self) -> list[str]:
        """The toasts on screen right now, oldest first (screenshots show them; dumps never do)."""
        return self._engine.active_toasts()

    # ---- the Device protocol --------------------------------------------------------------------

    def dump_hierarchy(self) -> str:
        return self._call("dump", (), "dump", lambda: dump_xml(self._shown()[0]), self._times.dump)

    def screenshot(self) -> Image.Image:
        def shoot() -> Image.Image:
            return self._renderer.render(*self._shown())

        return self._call("screenshot", (), "screenshot", shoot, self._times.screenshot)

    def tap(self, x: int, y: int) -> None:
        self._call("tap", (x, y), "action", lambda: self._engine.tap(int(x), int(y)), self._times.tap)

    def long_tap(self, x: int, y: int, duration: float = 1.0) -> None:
        self._call(
            "long_tap",
            (x, y, duration),
            "action",
            lambda: self._engine.tap(int(x), int(y), long=True),
            duration + self._times.tap,
        )

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration: float = 0.3) -> None:
        self._call(
            "swipe",
            (x1, y1, x2, y2, duration),
            "action",
            lambda: self._engine.swipe(int(x1), int(y1), int(x2), int(y2)),
            duration + self._times.swipe,
        )

    def type_text(self, text: str) -> None:
        typing = len(text) * self._times.type_char
        self._call("type_text", (text,), "action", lambda: self._engine.type_text(text), typing)

    def clear_text(self) -> None:
        self._call("clear_text", (), "action", self._engine.clear_text, self._times.key)

    def press(self, key: Key) -> None:
        actions = {Key.BACK: self._engine.back, Key.HOME: self._engine.home, Key.ENTER: self._engine.enter}
        self._call("press", (str(key),), "action", actions[Key(key)], self._times.key)

    def press_keycode(self, code: int) -> None:
        """`input keyevent CODE`: 3 home, 4 back, 66 enter, 67 del; other codes do nothing here."""
        actions: dict[int, Callable[[], None]] = {
            KEYCODE_HOME: self._engine.home,
            KEYCODE_BACK: self._engine.back,
            KEYCODE_ENTER: self._engine.enter,
            KEYCODE_DEL: self._engine.delete_char,
        }
        self._call("press_keycode", (code,), "action", actions.get(int(code), lambda: None), self._times.key)

    def launch(self, package: str, activity: str | None = None) -> None:
        def start() -> None:
            if package == LAUNCHER_PACKAGE:
                self._engine.home()
                return
            if package != self.app_model.app.package:
                raise DeviceError(
                    self._serial,
                    f"launch {package}",
                    f"Error: Activity not started, unable to resolve Intent for package {package}",
                )
            screen = None
            if activity is not None:
                screen = self._engine.screen_for_activity(activity)
                if screen is None:
                    raise DeviceError(
                        self._serial,
                        f"launch {package}/{activity}",
                        f"Error: Activity class {{{package}/{activity}}} does not exist.",
                    )
            self._engine.launch(screen)

        self._call("launch", (package, activity), "action", start, self._times.launch)

    def stop(self, package: str) -> None:
        def force_stop() -> None:
            if package == self.app_model.app.package:
                self._engine.force_stop()

        self._call("stop", (package,), "action", force_stop, self._times.stop)

    def clear_app_data(self, package: str) -> None:
        """`adb shell pm clear PACKAGE`: the app stopped, its variables (persistent ones too) as new."""

        def clear() -> None:
            if package == self.app_model.app.package:
                self._engine.clear_data()

        self._call("clear_app_data", (package,), "action", clear, self._times.clear_data)

    def save_app_data(self, package: str) -> object:
        """What `pm clear` would lose, kept: the app's persistent variables (a login)."""
        return self._call("save_app_data", (package,), "none", lambda: self._engine.saved_data(package))

    def restore_app_data(self, package: str, data: object) -> None:
        """`pm clear`, then the data kept by `save_app_data` put back: the app as it was then, stopped."""

        def restore() -> None:
            if package == self.app_model.app.package:
                self._engine.restore_data(data)

        self._call("restore_app_data", (package,), "action", restore, self._times.clear_data)

    def current_app(self) -> AppRef:
        return self._call("current_app", (), "none", lambda: AppRef(*self._engine.current()))

    def window_size(self) -> tuple[int, int]:
        return self._size

    def wait_idle(self, timeout: float) -> bool:
        """uiautomator's waitForIdle: wait until the UI has settled after the last input action, at most
        `timeout` seconds; whether it has."""

        def wait() -> bool:
            left = self._settles_at - self._clock.monotonic()
            if self._before is None or left <= 0:
                return True
            self._clock.sleep(min(left, timeout))
            return left <= timeout

        return self._call("wait_idle", (timeout,), "none", wait)

    def settle(self) -> None:
        """After an action, until the UI is idle (in process, where the explorer calls it)."""
        self.wait_idle(max(self.app_model.device.latency.settle, 0.0))

    def logcat(self) -> str:
        return self._call("logcat", (), "logcat", self._logcat.text)

    def clear_logcat(self) -> None:
        self._call("clear_logcat", (), "none", self._logcat.clear)

    def info(self) -> DeviceInfo:
        props = self.properties
        return DeviceInfo(
            serial=self._serial,
            model=props.get("ro.product.model", ""),
            android_version=props.get("ro.build.version.release", ""),
            sdk=props.get("ro.build.version.sdk", ""),
        )

    def app_version(self, package: str) -> str:
        return self.app_model.app.version if package == self.app_model.app.package else ""

    # ---- extras for the wire front --------------------------------------------------------------

    def installed_packages(self) -> list[str]:
        model = self.app_model
        roots = [s.elements + s.actions for s in model.screens] + [d.elements for d in model.dialogs]
        externals = {
            effect.open.package
            for elements in roots
            for element in _all_elements(elements)
            for effect in element.on_tap + element.on_long_tap + element.on_enter
            if effect.open is not None
        }
        return sorted({self.app_model.app.package, *SYSTEM_PACKAGES, *externals})

    # ---- plumbing -------------------------------------------------------------------------------

    @property
    def _times(self) -> Durations:
        return self.app_model.device.durations

    def _call(
        self, action: str, args: tuple[object, ...], cost: Cost, body: Callable[[], T], takes: float = 0.0
    ) -> T:
        """Run `body` as the device call `action`: its latency waited, `takes` seconds of the phone's time
        passed (before an action acts, after a read looked), the settling and the action log kept."""
        host = self._clock.base
        started, wall, phone_started = host.monotonic(), host.now().timestamp(), self._clock.monotonic()
        reads = cost in SIDE_BY_SIDE
        waits = self._latency and cost != "none"
        if waits and reads:
            # A phone's uiautomator server serves reads on threads of their own: only the answers take turns.
            self._clock.sleep(getattr(self.app_model.device.latency, cost))
            waits = False
        with self._lock:
            try:
                if waits:
                    self._clock.sleep(getattr(self.app_model.device.latency, cost))
                if not reads:
                    self._take(takes, phone_started)
                settling = self._latency and action in INPUT_ACTIONS and self.app_model.device.latency.settle
                if settling and self._before is None:
                    self._before = (self._engine.windows(), self._engine.active_toasts())
                self._engine.app.catch_up()  # what the app set to happen by now has happened
                result = body()
                if reads:
                    self._take(takes, phone_started)
                if settling:
                    self._settles_at = self._clock.monotonic() + self.app_model.device.latency.settle
                self._count_input(action)
                return result
            except VirtualAppError as exc:
                raise DeviceError(self._serial, action, str(exc)) from exc
            finally:
                self.action_log.append(ActionLogEntry(started, wall, action, args, host.monotonic()))

    def _take(self, seconds: float, started: float) -> None:
        """The call takes `seconds` of the phone's time since it `started`: what it really waited counts."""
        self._clock.advance(seconds - (self._clock.monotonic() - started))

    def _shown(self) -> tuple[list[Window], list[str]]:
        """What a dump or screenshot shows: the screen before the last action while the UI settles."""
        if self._before is not None and self._clock.monotonic() < self._settles_at:
            return self._before
        self._before = None
        return self._engine.windows(observe=True), self._engine.active_toasts()

    def _count_input(self, action: str) -> None:
        """The phone locks itself once, after `device.lock_after_actions` input actions."""
        if action not in INPUT_ACTIONS:
            return
        self._inputs += 1
        spec = self.app_model.device
        if spec.lock_after_actions is not None and self._inputs == spec.lock_after_actions:
            self._engine.lock(spec.lock_secure)


def _all_elements(elements: list[Element]) -> list[Element]:
    found: list[Element] = []
    for element in elements:
        found.append(element)
        found.extend(_all_elements(element.children))
        if element.row_list is not None:
            rows = element.row_list
            found.extend(_all_elements([rows.row] if rows.row is not None else []))
            found.extend(_all_elements(rows.rows if isinstance(rows.rows, list) else []))
    return found
