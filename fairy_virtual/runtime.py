"""The virtual app as Android runs it: its process, its task (back stack and the top activity's dialogs),
the system prompts in front of it (permission, ANR, crash), its toasts, its variables, and what the
model's handlers (`on_tap`, `on_show`, ...) do to all of these.

What is on the screen and where a gesture lands is the `Engine` (virtual/engine.py), which drives an
`AppRuntime` through `run` (a handler's effects), the keys and the lifecycle calls. Everything is
deterministic given the seed except the dynamic text tokens that read the wall clock.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from fairy_virtual.clock import DeviceClock
from fairy_virtual.expr import TextContext, evaluate, expand
from fairy_virtual.logcat import Logcat
from fairy_virtual.model import Anr, AppModel, Effect, ExternalScreen, Scalar, Toast
from fairy_virtual.system import (
    ERROR_DIALOG_ACTIVITY,
    LAUNCHER_ACTIVITY,
    LAUNCHER_PACKAGE,
    PERMISSION_ACTIVITY,
    PERMISSION_PACKAGE,
    SYSTEM_PACKAGE,
    SystemPrompt,
    anr_log,
    crash_log,
)
from fairy_virtual.timers import Timers
from fairy_virtual.ui_state import UiState
from fairy_virtual.variables import VARIABLE_ACTIONS, change
from pytest_fairy.errors import UsageError
from pytest_fairy.perception.hierarchy import Bounds

MAX_REDIRECTS = 8  # on_show redirecting to a screen whose on_show redirects... is a model bug
PID_RANGE = (4000, 32000)
SYSTEM_PID = 1489  # system_server


class VirtualAppError(UsageError):
    """The app model misbehaves at run time (e.g. an endless on_show redirect)."""


@dataclass(frozen=True, slots=True)
class OpenDialog:
    dialog_id: str
    anchor: Bounds | None


@dataclass(frozen=True, slots=True)
class ShownToast:
    text: str
    until: float  # clock.monotonic() when it disappears
    since: float = 0.0  # when it appears: Android shows queued toasts one after another


Frame = str | ExternalScreen  # a screen id of the app, or another app's screen on top of it


@dataclass
class Task:
    """The app's task: its activity stack and the dialogs of the top activity."""

    stack: list[Frame] = field(default_factory=list)
    dialogs: list[OpenDialog] = field(default_factory=list)


class AppRuntime:
    """The app's process, task, prompts, toasts and variables; the effects of its handlers."""

    def __init__(self, model: AppModel, *, seed: int, clock: DeviceClock, logcat: Logcat) -> None:
        self.model = model
        self.seed = seed
        self.clock = clock
        self.log = logcat
        self.rng = random.Random(seed)
        self.ui = UiState(model.initial_variables())
        self.task = Task()
        self.pid = 0  # 0: the app process is not running
        self.in_front = False
        self.prompt: SystemPrompt | None = None
        self.toasts: list[ShownToast] = []
        self.frame = 0  # observations so far: dynamic text moves with each
        self.timers = Timers()
        self.fronts = 0  # how often a screen came to front: the timers set meanwhile belong to it
        self._backing = False  # running a screen's or dialog's `on_back`: a `back` in it leaves

    def text_context(self, row: int | None = None) -> TextContext:
        """What dynamic text reads now; `row` is the list row for `{i}`."""
        return TextContext(
            self.frame,
            self.clock.now(),
            self.ui.variables,
            self.model.device.locale,
            self.seed,
            row,
            self.model.app.currency,
        )

    # ---- what is in front ------------------------------------------------------------------------

    def active_toasts(self) -> list[str]:
        """The toast showing now: each lasts its duration on the device's clock, queued ones in turn."""
        now = self.clock.monotonic()
        self.toasts = [t for t in self.toasts if t.until > now]
        return [t.text for t in self.toasts if t.since <= now]

    @property
    def app_visible(self) -> bool:
        return self.pid != 0 and self.in_front and bool(self.task.stack)

    def current(self) -> tuple[str, str]:
        if self.prompt is not None:
            if self.prompt.kind == "permission":
                return PERMISSION_PACKAGE, PERMISSION_ACTIVITY
            return SYSTEM_PACKAGE, ERROR_DIALOG_ACTIVITY
        if not self.app_visible:
            return LAUNCHER_PACKAGE, LAUNCHER_ACTIVITY
        top = self.task.stack[-1]
        if isinstance(top, ExternalScreen):
            return top.package, self._activity(top.activity, top.package)
        return self.model.app.package, self._activity(self.model.screen(top).activity)

    def _activity(self, activity: str, package: str | None = None) -> str:
        pkg = package or self.model.app.package
        return pkg + activity if activity.startswith(".") else activity

    # ---- keys and app lifecycle -----------------------------------------------------------------

    def back(self) -> None:
        """The Back key (or the toolbar's Up): a screen's or dialog's `on_back` when it has one, else the
        dialog closes (if cancelable) or the screen leaves."""
        if self.prompt is not None:
            self.system_action({"permission": "deny", "anr": "wait", "crash": "close_app"}[self.prompt.kind])
            return
        if not self.app_visible:
            return
        handles = self._handles_back()
        if handles and not self._backing:
            self._backing = True
            try:
                self.run(handles, None, None)
            finally:
                self._backing = False
            return
        if self.task.dialogs:
            if self.model.dialog(self.task.dialogs[-1].dialog_id).cancelable:
                self.close_dialog()
            return
        self.finish()

    def finish(self) -> None:
        """The top screen's activity finishes (Back, or a `finish` effect: no `on_back` runs): it leaves
        the back stack with its dialogs; the root one leaves the app in the background, alive."""
        self.task.dialogs.clear()
        self.ui.focused = None
        self.task.stack.pop()
        if not self.task.stack:
            self.in_front = False
            return
        self._show_top()

    def _handles_back(self) -> list[Effect]:
        if self.task.dialogs:
            return self.model.dialog(self.task.dialogs[-1].dialog_id).on_back
        top = self.task.stack[-1]
        return [] if isinstance(top, ExternalScreen) else self.model.screen(top).on_back

    def home(self) -> None:
        self.in_front = False
        if self.prompt is not None and self.prompt.kind != "crash":
            self.prompt = None

    def launch(self, activity: str | None = None) -> None:
        """Start or resume the app; `activity` (already resolved to a screen id) starts that screen."""
        if self.prompt is not None and self.prompt.kind == "crash":
            self.prompt = None
        if self.pid == 0:
            self._start_process()
        resumed = not self.in_front and bool(self.task.stack)
        self.in_front = True
        if activity is not None:
            self._push(activity)
        elif not self.task.stack:
            self._push(self.model.app.launch)
        elif resumed:
            self._show_top()  # back from the launcher: the top screen comes to front again

    def force_stop(self) -> None:
        if self.pid != 0:
            self.log.log(
                "I",
                "ActivityManager",
                f"Force stopping {self.model.app.package} appid=10187 user=0: from pid 13412",
                SYSTEM_PID,
            )
        self._kill()
        if self.prompt is not None and self.prompt.kind != "crash":
            self.prompt = None

    def clear_data(self) -> None:
        """`pm clear`: the app is stopped and everything it kept (a login too) is gone."""
        self.force_stop()
        self.ui = UiState(self.model.initial_variables())

    def saved_data(self) -> dict[str, Scalar]:
        """The persistent variables: what the app keeps on disk, `pm clear` clears."""
        persistent = self.model.persistent_variables()
        return {k: v for k, v in self.ui.variables.items() if k in persistent}

    def restore_data(self, data: object) -> None:
        """`pm clear`, then the persistent variables as `saved_data` kept them."""
        self.clear_data()
        if isinstance(data, dict):
            persistent = self.model.persistent_variables()
            self.ui.variables.update({k: v for k, v in data.items() if k in persistent})

    def screen_for_activity(self, activity: str) -> str | None:
        name = self._activity(activity)
        return next((s.id for s in self.model.screens if self._activity(s.activity) == name), None)

    def _start_process(self) -> None:
        self.pid = self.rng.randint(*PID_RANGE)
        self.log.log(
            "I",
            "ActivityManager",
            f"Start proc {self.pid}:{self.model.app.package}/u0a187 for "
            f"pre-top-activity {{{self.model.app.package}/{self._launch_activity()}}}",
            SYSTEM_PID,
        )

    def _launch_activity(self) -> str:
        return self._activity(self.model.screen(self.model.app.launch).activity)

    def _kill(self) -> None:
        """The process ends: its task, its toasts (shown or waiting their turn) and its memory go with it."""
        self.pid = 0
        self.toasts = []
        self.timers.clear()
        self.in_front = False
        self.task = Task()
        persistent = self.model.persistent_variables()
        fresh = self.model.initial_variables()
        self.ui = UiState({k: (self.ui.variables[k] if k in persistent else v) for k, v in fresh.items()})

    def _push(self, screen_id: str, replace: bool = False, reset: bool = False, depth: int = 0) -> None:
        self.task.dialogs.clear()
        self.ui.focused = None
        if reset:
            self.task.stack.clear()
        elif replace and self.task.stack:
            self.task.stack.pop()
        self.task.stack.append(screen_id)
        self.ui.forget(screen_id)
        self._show_top(depth)

    def _show_top(self, depth: int = 0) -> None:
        """The top screen came to front: log it and run its on_show (redirects replace it)."""
        if depth > MAX_REDIRECTS:
            raise VirtualAppError(f"on_show redirects more than {MAX_REDIRECTS} times: a redirect loop")
        self.fronts += 1
        top = self.task.stack[-1]
        if isinstance(top, ExternalScreen):
            return
        screen = self.model.screen(top)
        self.log.log(
            "I",
            "ActivityTaskManager",
            f"Displayed {self.model.app.package}/{screen.activity}: +{self.rng.randint(180, 650)}ms",
            SYSTEM_PID,
        )
        for effect in screen.on_show:
            if effect.after is not None:
                self._later(effect, None)
                continue
            if not evaluate(effect.when, self.ui.variables):
                continue
            target = effect.go or effect.replace or effect.reset
            if target is not None:  # a redirect: the screen shown instead of this one
                self._push(target, replace=True, reset=effect.reset is not None, depth=depth + 1)
                return
            self._apply(effect, None, None)

    # ---- effects --------------------------------------------------------------------------------

    def run(self, effects: list[Effect], row: int | None, source: Bounds | None) -> None:
        pid = self.pid
        for effect in effects:
            if self.pid != pid or self.pid == 0:
                return  # the process died (crash, restart): the rest of the handler never runs
            if effect.after is not None:
                self._later(effect, row)
            elif evaluate(effect.when, self.ui.variables):
                self._apply(effect, row, source)

    def _later(self, effect: Effect, row: int | None) -> None:
        self.timers.set(self.clock.monotonic() + (effect.after or 0.0), self.pid, self.fronts, effect, row)

    def catch_up(self) -> None:
        """Run the effects whose time has come, in the order they fall due; those whose screen left the
        front (or whose process died) meanwhile are dropped."""
        for timer in self.timers.due(self.clock.monotonic()):
            here = timer.pid == self.pid != 0 and self.app_visible and timer.front == self.fronts
            if here and evaluate(timer.effect.when, self.ui.variables):
                self._apply(timer.effect, timer.row, None)

    def _apply(self, effect: Effect, row: int | None, source: Bounds | None) -> None:
        action = effect.action
        if action in ("go", "replace", "reset"):
            target = effect.go or effect.replace or effect.reset or ""
            self._push(target, replace=action == "replace", reset=action == "reset")
        elif action == "back":
            self.back()
        elif action == "finish":
            self.finish()
        elif action == "dialog" and effect.dialog is not None:
            self.ui.focused = None
            self.ui.forget(f"dialog:{effect.dialog}")
            self.task.dialogs.append(OpenDialog(effect.dialog, source))
        elif action == "close":
            self.close_dialog()
        elif action in VARIABLE_ACTIONS:
            ctx = self.text_context(row)
            change(effect, self.ui.variables, self.model.initial_variables(), lambda text: expand(text, ctx))
        elif action == "toast" and effect.toast is not None:
            self._toast(effect.toast, row)
        elif action == "restart":
            self._kill()
            self.launch()
        elif action == "open" and effect.open is not None:
            self.task.dialogs.clear()
            self.task.stack.append(effect.open)
            self.fronts += 1
        elif action == "permission" and effect.permission is not None:
            perm = effect.permission
            if perm.var is not None and self.ui.variables.get(perm.var):
                self.run(perm.on_allow, row, source)  # granted before: Android does not ask again
            else:
                self.prompt = SystemPrompt("permission", perm, row)
        elif action == "crash" and effect.crash is not None:
            self._crash(effect.crash.exception, effect.crash.message, effect.crash.frames)
        elif action == "anr":
            reason = effect.anr.reason if isinstance(effect.anr, Anr) else Anr().reason
            waited = self.model.device.durations.anr  # input dispatching gives up on the app after this
            self.clock.advance(waited)
            self.log.log(
                "E",
                "ActivityManager",
                anr_log(self.model.app.package, self.pid, self.current()[1], reason, waited),
                SYSTEM_PID,
            )
            self.prompt = SystemPrompt("anr")

    def _toast(self, toast: str | Toast, row: int | None) -> None:
        text = toast if isinstance(toast, str) else toast.text
        duration = self.model.device.toast_duration
        if isinstance(toast, Toast) and toast.duration is not None:
            duration = toast.duration
        ctx = self.text_context(row)
        since = max([self.clock.monotonic(), *(t.until for t in self.toasts)])
        self.toasts.append(ShownToast(expand(text, ctx), since + duration, since))

    def close_dialog(self) -> None:
        if self.task.dialogs:
            self.task.dialogs.pop()
            self.ui.focused = None

    def _crash(self, exception: str, message: str, frames: list[str]) -> None:
        activity = self.current()[1]
        self.log.log(
            "E",
            "AndroidRuntime",
            crash_log(self.model.app.package, self.pid, activity, exception, message, frames),
            self.pid,
        )
        self.log.log("I", "Process", f"Sending signal. PID: {self.pid} SIG: 9", self.pid)
        self._kill()
        self.prompt = SystemPrompt("crash")

    def system_action(self, action: str) -> None:
        prompt = self.prompt
        if action == "launch":
            self.launch()
        elif action == "up":
            self.back()
        elif action in ("allow", "deny") and prompt is not None and prompt.permission is not None:
            self.prompt = None
            perm = prompt.permission
            if perm.var is not None:
                self.ui.variables[perm.var] = action == "allow"
            self.run(perm.on_allow if action == "allow" else perm.on_deny, prompt.row, None)
        elif action == "wait":
            self.prompt = None
        elif action in ("close_app", "app_info"):
            self.prompt = None
            if self.pid != 0:
                self.force_stop()
