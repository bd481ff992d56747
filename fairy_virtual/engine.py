"""The virtual device's screen and the user's hands: the windows a dump or screenshot shows, and where a
tap, swipe or typed text lands in them.

Gestures are hit-tested against the same windows a dump shows, topmost window first; what the element hit
does is the app's business (`AppRuntime`, virtual/runtime.py), as are the keys and the app's lifecycle,
which the engine hands on.

The lock screen is the engine's too: while `keyguard` is set, a full-screen `com.android.systemui` window
covers everything and takes every touch and keystroke (it is the top window, with nothing to hit or
type into), Back and Home do nothing, and the keyguard is the window in front.
"""

from __future__ import annotations

from collections.abc import Callable

from fairy_virtual.clock import DeviceClock
from fairy_virtual.layout import Layout
from fairy_virtual.logcat import Logcat
from fairy_virtual.model import AppModel, ExternalScreen
from fairy_virtual.panels import dialog_window, with_drawer
from fairy_virtual.runtime import AppRuntime, VirtualAppError
from fairy_virtual.system import SystemUi
from fairy_virtual.ui_state import UiState
from fairy_virtual.variables import coerce
from fairy_virtual.views import View, Window, find, hit, scrollable_at, swipeable_at
from pytest_fairy.perception.hierarchy import Bounds

__all__ = ["Engine", "VirtualAppError"]  # VirtualAppError: the device imports it from here

SYSTEMUI_PACKAGE = "com.android.systemui"
KEYGUARD_ACTIVITY = "com.android.systemui.keyguard.KeyguardActivity"
KEYGUARD_HINTS = {
    ("en", "swipe"): "Swipe up to open",
    ("en", "secure"): "Enter PIN to unlock",
    ("zh", "swipe"): "向上滑动即可打开",
    ("zh", "secure"): "输入 PIN 码即可解锁",
}


class Engine:
    def __init__(
        self, model: AppModel, *, seed: int, clock: DeviceClock, logcat: Logcat, size: tuple[int, int]
    ) -> None:
        self.model = model
        self.size = size
        self.app = AppRuntime(model, seed=seed, clock=clock, logcat=logcat)
        self.system = SystemUi(model.app.name, model.app.color, model.device.locale, size)
        self.clock = clock
        self.keyguard: str | None = None  # the lock screen showing: "swipe" or "secure" (a PIN)

    @property
    def ui(self) -> UiState:
        return self.app.ui

    # ---- observation ----------------------------------------------------------------------------

    def windows(self, observe: bool = False) -> list[Window]:
        """The windows on screen, bottom first. An observation (dump / screenshot) moves dynamic text."""
        app = self.app
        if observe:
            app.frame += 1
        layout = Layout(self.model, app.ui, app.text_context(), self.size)
        windows: list[Window] = []
        if app.app_visible:
            top = app.task.stack[-1]
            if isinstance(top, ExternalScreen):
                windows.append(layout.external_window(top))
            else:
                windows.append(layout.screen_window(self.model.screen(top), len(app.task.stack) == 1))
                for i, shown in enumerate(app.task.dialogs):
                    dialog = self.model.dialog(shown.dialog_id)
                    if dialog.kind == "drawer" and i == 0:
                        windows[-1] = with_drawer(layout, windows[-1], dialog, i)
                    else:
                        windows.append(dialog_window(layout, dialog, i, shown.anchor))
        else:
            windows.append(self.system.launcher())
        if app.prompt is not None:
            windows.append(self.system.prompt(app.prompt))
        if self.keyguard is not None:
            windows.append(self._keyguard_window(self.keyguard))
        return windows

    def _keyguard_window(self, kind: str) -> Window:
        """The lock screen as a Pixel dumps it: systemui's keyguard views over the whole screen."""
        width, height = self.size
        ids = f"{SYSTEMUI_PACKAGE}:id/"

        def text(view_id: str, words: str, top: int, bottom: int) -> View:
            return View(
                "android.widget.TextView",
                Bounds(0, top, width, bottom),
                text=words,
                resource_id=ids + view_id,
            )

        clock = text(
            "keyguard_clock", self.clock.now().strftime("%H:%M"), height // 6, height // 6 + height // 10
        )
        hint = KEYGUARD_HINTS[(self.model.device.locale, kind)]
        indication = text("keyguard_indication_text", hint, height - height // 8, height - height // 16)
        full = Bounds(0, 0, width, height)
        root = View(
            "android.widget.FrameLayout",
            full,
            resource_id=ids + "keyguard_root_view",
            role="keyguard",
            children=[
                View(
                    "android.widget.FrameLayout",
                    full,
                    resource_id=ids + "keyguard_status_view",
                    children=[clock, indication],
                )
            ],
        )
        return Window(root, SYSTEMUI_PACKAGE, "system")

    # ---- the lock screen ------------------------------------------------------------------------

    def lock(self, secure: bool) -> None:
        self.keyguard = "secure" if secure else "swipe"

    def dismiss_keyguard(self) -> None:
        """`wm dismiss-keyguard`: lifts a swipe lock; a PIN lock stays (a phone asks for the PIN)."""
        if self.keyguard == "swipe":
            self.keyguard = None

    def active_toasts(self) -> list[str]:
        return self.app.active_toasts()

    def current(self) -> tuple[str, str]:
        """The package and activity in front."""
        if self.keyguard is not None:
            return SYSTEMUI_PACKAGE, KEYGUARD_ACTIVITY
        return self.app.current()

    # ---- gestures -------------------------------------------------------------------------------

    def tap(self, x: int, y: int, long: bool = False) -> None:
        windows = self.windows()
        top = windows[-1]
        if top.panel is not None and not top.panel.contains(x, y):
            if top.modal and top.dismiss_on_outside and top.dialog_index is not None:
                self.app.close_dialog()
            return  # a modal window swallows taps outside its panel
        view = hit(top.root, x, y, long)
        if view is None or not view.enabled or view.target is None:
            return
        target = view.target
        if target.system is not None:
            self.app.system_action(target.system)
            return
        element = target.element
        assert element is not None
        if long:
            self.app.run(element.on_long_tap, target.row, view.bounds)
            return
        if element.editable or view.short_class in ("EditText", "AutoCompleteTextView"):
            self.ui.focused = target.key
        if view.checkable:
            self._toggle(view)
        self.app.run(element.on_tap, target.row, view.bounds)
        self.app.run(list(target.row_effects), target.row, view.bounds)

    def _toggle(self, view: View) -> None:
        assert view.target is not None and view.target.element is not None
        element = view.target.element
        if element.group is not None and element.value is not None:
            declared = self.app.model.initial_variables().get(element.group)
            self.ui.variables[element.group] = coerce(declared, element.value)
        elif element.var is not None:
            self.ui.variables[element.var] = not view.checked
        else:
            self.ui.checked[view.target.key] = not view.checked

    def swipe(self, x1: int, y1: int, x2: int, y2: int) -> None:
        top = self.windows()[-1]
        if top.panel is not None and not top.panel.contains(x1, y1):
            return
        dx, dy = x2 - x1, y1 - y2  # swipe up: content moves up, the offset grows
        if abs(dx) > abs(dy):
            row = swipeable_at(top.root, x1, y1)
            if row is not None and row.target is not None:
                self.app.run(list(row.target.swipe_effects), row.target.row, row.bounds)
            return
        view = scrollable_at(top.root, x1, y1)
        if view is None or view.target is None:
            return
        key = view.target.key
        self.ui.scroll[key] = max(0, min(view.target.scroll_extent, self.ui.scroll.get(key, 0) + dy))

    def type_text(self, text: str) -> None:
        self._edit(lambda held: held + text)

    def clear_text(self) -> None:
        self._edit(lambda held: "")

    def delete_char(self) -> None:
        self._edit(lambda held: held[:-1])

    def _edit(self, change: Callable[[str], str]) -> None:
        """The focused field's text changed by a key or a paste; like a phone, with no field focused it
        goes nowhere."""
        field_view = self._focused_field()
        if field_view is None or field_view.target is None or field_view.target.element is None:
            return
        element, key = field_view.target.element, field_view.target.key
        if element.var is not None:
            self.ui.variables[element.var] = change(str(self.ui.variables.get(element.var, "")))
        else:
            self.ui.texts[key] = change(self.ui.texts.get(key, ""))

    def enter(self) -> None:
        field_view = self._focused_field()
        if field_view is not None and field_view.target is not None and field_view.target.element is not None:
            self.app.run(field_view.target.element.on_enter, field_view.target.row, field_view.bounds)

    def _focused_field(self) -> View | None:
        if self.ui.focused is None or self.app.prompt is not None or not self.app.app_visible:
            return None
        return find(self.windows()[-1:], self.ui.focused)

    # ---- keys and the app's lifecycle: the app's business ------------------------------------------

    def back(self) -> None:
        if self.keyguard is None:
            self.app.back()

    def home(self) -> None:
        if self.keyguard is None:
            self.app.home()

    def launch(self, activity: str | None = None) -> None:
        """Start or resume the app; `activity` (already resolved to a screen id) starts that screen."""
        self.app.launch(activity)

    def force_stop(self) -> None:
        self.app.force_stop()

    def clear_data(self) -> None:
        self.app.clear_data()

    def saved_data(self, package: str) -> object:
        return self.app.saved_data() if package == self.app.model.app.package else {}

    def restore_data(self, data: object) -> None:
        self.app.restore_data(data)

    def screen_for_activity(self, activity: str) -> str | None:
        return self.app.screen_for_activity(activity)
