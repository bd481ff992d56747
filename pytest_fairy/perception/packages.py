"""The packages of the system's own windows: permission prompts, system dialogs, system UI, launchers and
input methods, as phone makers ship them."""

from __future__ import annotations

PERMISSION_PACKAGES = frozenset(
    {
        "com.android.permissioncontroller",
        "com.google.android.permissioncontroller",
        "com.android.packageinstaller",
        "com.google.android.packageinstaller",
    }
)
SYSTEM_DIALOG_PACKAGES = frozenset({"android"})
# The system's share sheet and app chooser: a sheet over the app that opened it, in a window of its own.
SYSTEM_SHEET_PACKAGES = frozenset({"com.android.intentresolver"})
SYSTEM_UI_PACKAGES = frozenset({"com.android.systemui"})
LAUNCHER_PACKAGES = frozenset(
    {
        "com.android.launcher",
        "com.android.launcher3",
        "com.google.android.apps.nexuslauncher",
        "com.miui.home",
        "com.huawei.android.launcher",
        "com.sec.android.app.launcher",
        "com.oppo.launcher",
        "com.bbk.launcher2",
        "com.hihonor.android.launcher",
        "net.oneplus.launcher",
    }
)
IME_PACKAGES = frozenset(
    {
        "com.google.android.inputmethod.latin",
        "com.android.inputmethod.latin",
        "com.sohu.inputmethod.sogou",
        "com.baidu.input",
        "com.iflytek.inputmethod",
        "com.samsung.android.honeyboard",
        "com.touchtype.swiftkey",
        "com.tencent.wetype",
        "com.google.android.apps.inputmethod.hindi",
    }
)
# Substrings of a package name that mark a launcher / input method not listed above.
LAUNCHER_HINT = "launcher"
IME_HINTS = ("inputmethod", ".ime", "keyboard")
