"""Windows that belong to Android, not to the app: launcher, crash / ANR dialogs, permission prompts.

Texts, packages and resource ids follow AOSP (Android 13/14), in English or Chinese per device locale.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from fairy_virtual.model import Permission
from fairy_virtual.views import Target, View, Window
from pytest_fairy.perception.hierarchy import Bounds

LAUNCHER_PACKAGE = "com.android.launcher3"
LAUNCHER_ACTIVITY = "com.android.launcher3.uioverrides.QuickstepLauncher"
PERMISSION_PACKAGE = "com.android.permissioncontroller"
PERMISSION_ACTIVITY = "com.android.permissioncontroller.permission.ui.GrantPermissionsActivity"
SYSTEM_PACKAGE = "android"
ERROR_DIALOG_ACTIVITY = "com.android.server.am.AppErrorDialog"
SYSTEM_PACKAGES = (SYSTEM_PACKAGE, "com.android.systemui", LAUNCHER_PACKAGE, PERMISSION_PACKAGE)

ICON_SIZE = 190
ICON_TOP = 300
SYSTEM_DIALOG_MARGIN = 90
SYSTEM_DIALOG_PADDING = 56
LINE = 130

TEXTS = {
    "en": {
        "crashed": "{app} has stopped",
        "anr": "{app} isn't responding",
        "close_app": "Close app",
        "app_info": "App info",
        "wait": "Wait",
        "allow": "Allow",
        "deny": "Don't allow",
        "permission": "Allow {app} to access {label}?",
        "calendar": "your calendar",
    },
    "zh": {
        "crashed": "“{app}”已停止运行",
        "anr": "“{app}”没有响应",
        "close_app": "关闭应用",
        "app_info": "应用信息",
        "wait": "等待",
        "allow": "允许",
        "deny": "拒绝",
        "permission": "允许“{app}”访问您的{label}吗？",
        "calendar": "日历",
    },
}


@dataclass(frozen=True, slots=True)
class SystemPrompt:
    """A system dialog in front: why it is there and, for permissions, what was asked."""

    kind: Literal["crash", "anr", "permission"]
    permission: Permission | None = None
    row: int | None = None  # list row of the element that asked (for `{i}` in on_allow / on_deny)


class SystemUi:
    def __init__(self, app_name: str, app_color: str, locale: str, size: tuple[int, int]) -> None:
        self.app_name = app_name
        self.app_color = app_color
        self.texts = TEXTS[locale]
        self.width, self.height = size
        self.scale = self.width / 1080

    def px(self, value: int) -> int:
        return round(value * self.scale)

    def launcher(self) -> Window:
        full = Bounds(0, 0, self.width, self.height)
        size = self.px(ICON_SIZE)
        left, top = self.px(80), self.px(ICON_TOP)
        icon = View(
            "android.widget.TextView",
            Bounds(left, top, left + size, top + size + self.px(70)),
            text=self.app_name,
            desc=self.app_name,
            clickable=True,
            focusable=True,
            long_clickable=True,
            role="icon",
            target=Target(key="launcher:app", system="launch"),
        )
        grid = View(
            "android.view.ViewGroup",
            full,
            resource_id=f"{LAUNCHER_PACKAGE}:id/workspace",
            scrollable=True,
            children=[icon],
        )
        root = View(
            "android.widget.FrameLayout",
            full,
            children=[
                View(
                    "android.widget.FrameLayout",
                    full,
                    resource_id=f"{LAUNCHER_PACKAGE}:id/launcher",
                    role="wallpaper",
                    children=[grid],
                )
            ],
        )
        return Window(root, LAUNCHER_PACKAGE, "launcher", accent=self.app_color)

    def prompt(self, prompt: SystemPrompt) -> Window:
        t, app = self.texts, self.app_name
        if prompt.kind == "permission":
            assert prompt.permission is not None
            label = prompt.permission.label or t["calendar"]
            message = prompt.permission.message or t["permission"].format(app=app, label=label)
            return self._dialog(
                PERMISSION_PACKAGE,
                message,
                "permission_message",
                [
                    (t["allow"], "permission_allow_button", "allow"),
                    (t["deny"], "permission_deny_button", "deny"),
                ],
            )
        if prompt.kind == "crash":
            return self._dialog(
                SYSTEM_PACKAGE,
                t["crashed"].format(app=app),
                "alertTitle",
                [
                    (t["app_info"], "aerr_app_info", "app_info"),
                    (t["close_app"], "aerr_close", "close_app"),
                ],
            )
        return self._dialog(
            SYSTEM_PACKAGE,
            t["anr"].format(app=app),
            "alertTitle",
            [
                (t["close_app"], "aerr_close", "close_app"),
                (t["wait"], "aerr_wait", "wait"),
            ],
        )

    def _dialog(
        self, package: str, message: str, message_id: str, buttons: list[tuple[str, str, str]]
    ) -> Window:
        pad, line = self.px(SYSTEM_DIALOG_PADDING), self.px(LINE)
        left, right = self.px(SYSTEM_DIALOG_MARGIN), self.width - self.px(SYSTEM_DIALOG_MARGIN)
        height = 2 * pad + line * (1 + len(buttons))
        top = (self.height - height) // 2
        panel = Bounds(left, top, right, top + height)
        prefix = "android:id/" if package == SYSTEM_PACKAGE else f"{package}:id/"
        title_box = Bounds(left + pad, top + pad, right - pad, top + pad + line)
        children = [
            View(
                "android.widget.TextView",
                title_box,
                text=message,
                resource_id=prefix + message_id,
                style="title",
            )
        ]
        for n, (label, rid, action) in enumerate(buttons, start=1):
            y = top + pad + n * line
            children.append(
                View(
                    "android.widget.Button",
                    Bounds(left + pad, y, right - pad, y + line),
                    text=label,
                    resource_id=prefix + rid,
                    clickable=True,
                    focusable=True,
                    style="link",
                    target=Target(key=f"system:{action}", system=action),
                )
            )
        body = View("android.widget.LinearLayout", panel, children=children)
        root = View(
            "android.widget.FrameLayout",
            Bounds(0, 0, self.width, self.height),
            children=[
                View(
                    "android.widget.FrameLayout",
                    panel,
                    resource_id="android:id/content",
                    role="panel",
                    children=[body],
                )
            ],
        )
        return Window(root, package, "system", panel=panel, dim=True)


def crash_log(package: str, pid: int, activity: str, exception: str, message: str, frames: list[str]) -> str:
    """The AndroidRuntime lines of an uncaught exception on the main thread."""
    short = activity.rsplit(".", 1)[-1]
    app_frames = frames or [f"{activity}.onClick({short}.java:{87 + len(message) % 40})"]
    stack = [
        *app_frames,
        "android.view.View.performClick(View.java:7659)",
        "android.view.View.performClickInternal(View.java:7636)",
        "android.view.View$PerformClick.run(View.java:30156)",
        "android.os.Handler.handleCallback(Handler.java:958)",
        "android.os.Handler.dispatchMessage(Handler.java:99)",
        "android.os.Looper.loopOnce(Looper.java:205)",
        "android.os.Looper.loop(Looper.java:294)",
        "android.app.ActivityThread.main(ActivityThread.java:8177)",
        "java.lang.reflect.Method.invoke(Native Method)",
        "com.android.internal.os.RuntimeInit$MethodAndArgsCaller.run(RuntimeInit.java:552)",
        "com.android.internal.os.ZygoteInit.main(ZygoteInit.java:971)",
    ]
    lines = ["FATAL EXCEPTION: main", f"Process: {package}, PID: {pid}", f"{exception}: {message}"]
    return "\n".join(lines + [f"\tat {frame}" for frame in stack])


def anr_log(package: str, pid: int, activity: str, reason: str, waited: float) -> str:
    """The ANR report: `waited` seconds is how long input dispatching waited for the app."""
    component = f"{package}/{activity.removeprefix(package)}"
    return "\n".join(
        [
            f"ANR in {package} ({component})",
            f"PID: {pid}",
            f"Reason: {reason} (Waited {round(waited * 1000)}ms for MotionEvent)",
            "Parent: " + component,
            "Load: 2.41 / 2.02 / 1.87",
        ]
    )
