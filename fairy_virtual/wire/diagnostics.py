"""Commands that report on the device: dumpsys, ps, pidof, logcat, screencap, uiautomator dump.

`dumpsys window` prints the `mCurrentFocus=Window{HASH u0 PKG/ACTIVITY}` and `mFocusedApp=` lines that
adbutils' `app_current()` parses; `dumpsys display` carries the `DisplayViewport{valid=true, orientation=..,
deviceWidth=.., deviceHeight=..}` line its `rotation()` reads.
"""

from __future__ import annotations

import hashlib
import io
import struct

from fairy_virtual.wire.shell import Command, Invocation
from fairy_virtual.wire.system import LAUNCHER_PACKAGE
from fairy_virtual.wire.toybox import split_flags

# How often a streaming `logcat` (no -d) looks for new lines.
LOGCAT_POLL_SECONDS = 0.25
DEFAULT_DUMP_PATH = "/sdcard/window_dump.xml"
_STAMP_SHAPE = "MM-DD hh:mm:ss.mmm"  # how a threadtime line begins
_RGBA_8888 = 1
_SRGB = 1
_SYSTEM_PROCESSES = (
    ("root", 1, 0, "init"),
    ("root", 312, 1, "zygote64"),
    ("system", 612, 312, "system_server"),
    ("u0_a52", 1023, 312, "com.android.systemui"),
    ("u0_a81", 1402, 312, LAUNCHER_PACKAGE),
    ("shell", 2301, 1, "adbd"),
)


def _window_hash(text: str) -> str:
    return hashlib.md5(text.encode()).hexdigest()[:7]


def _dumpsys_window(inv: Invocation) -> None:
    app = inv.system.call(inv.system.device.current_app)
    component = f"{app.package}/{app.activity}"
    inv.print("WINDOW MANAGER WINDOWS (dumpsys window windows)")
    inv.print(f"  Window #0 Window{{{_window_hash(component)} u0 {component}}}:")
    session = _window_hash(app.package)
    inv.print(f"    mDisplayId=0 rootTaskId=12 mSession=Session{{{session} 10240:u0a10240}}")
    inv.print(f"  mCurrentFocus=Window{{{_window_hash(component)} u0 {component}}}")
    inv.print(f"  mFocusedApp=ActivityRecord{{{_window_hash(component + 'r')} u0 {component} t12}}")
    locked = "true" if inv.system.call(lambda: inv.system.device.locked) else "false"
    inv.print(f"  mShowingLockscreen={locked} mShowingDream=false mDreamingLockscreen=false")
    inv.print(f"  isStatusBarKeyguard={locked} mKeyguardOccluded=false")


def _dumpsys_display(inv: Invocation) -> None:
    width, height = inv.system.call(inv.system.device.window_size)
    inv.print("DISPLAY MANAGER (dumpsys display)")
    frame = f"Rect(0, 0 - {width}, {height})"
    inv.print(
        f"  mViewports=[DisplayViewport{{type=INTERNAL, valid=true, isActive=true, displayId=0, "
        f"uniqueId='local:0', physicalPort=0, orientation=0, logicalFrame={frame}, "
        f"physicalFrame={frame}, deviceWidth={width}, deviceHeight={height}}}]"
    )
    inv.print(
        f'  mBaseDisplayInfo=DisplayInfo{{"Built-in Screen", displayId 0, real {width} x {height}, '
        "rotation 0, density 440, 60.0 fps}"
    )


def _dumpsys_activity(inv: Invocation) -> None:
    app = inv.system.call(inv.system.device.current_app)
    component = f"{app.package}/{app.activity}"
    pid = inv.system.pid_of(app.package)
    inv.print("ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)")
    inv.print(f"  mResumedActivity: ActivityRecord{{{_window_hash(component + 'r')} u0 {component} t12}}")
    inv.print(f"  ACTIVITY {component} {_window_hash(component + 'a')} pid={pid}")


def _dumpsys_package(inv: Invocation) -> int:
    package = inv.args[2] if len(inv.args) > 2 else ""
    if package not in inv.system.packages():
        inv.error(f"Unable to find package: {package}")
        return 1
    inv.print(
        f"Packages:\n  Package [{package}] ({_window_hash(package)}):"
        "\n    versionCode=1 minSdk=24 targetSdk=34\n    versionName=1.0"
        "\n    pkgFlags=[ HAS_CODE ALLOW_CLEAR_USER_DATA ]"
        "\n    firstInstallTime=2024-01-01 00:00:00\n    lastUpdateTime=2024-01-01 00:00:00"
    )
    return 0


def dumpsys(inv: Invocation) -> int:
    service = inv.args[1] if len(inv.args) > 1 else ""
    if service == "window" and inv.args[2:] in ([], ["windows"]):
        _dumpsys_window(inv)
    elif service == "display":
        _dumpsys_display(inv)
    elif service == "activity" and inv.args[2:] in ([], ["activities"], ["top"]):
        _dumpsys_activity(inv)
    elif service == "package":
        return _dumpsys_package(inv)
    elif service == "power":
        inv.print("POWER MANAGER (dumpsys power)\n  mWakefulness=Awake\n  mHoldingDisplaySuspendBlocker=true")
    elif service == "SurfaceFlinger" and inv.args[2:] == ["--display-id"]:
        inv.print('Display 4619827259835644672 (HWC display 0): port=0 pnpId=GGL displayName="Virtual"')
    elif service == "input_method":
        method = inv.system.settings["secure"]["default_input_method"]
        inv.print(f"  mCurMethodId={method}\n  mInputShown=false")
    else:
        asked = " ".join(inv.args[1:]) or "(none)"
        inv.error(f"Can't find service: {asked} (not emulated by the virtual device)")
        return 1
    return 0


def _processes(inv: Invocation) -> list[tuple[str, int, int, str]]:
    rows = list(_SYSTEM_PROCESSES)
    rows += [("u0_a240", inv.system.pid_of(p), 312, p) for p in inv.system.running_packages()]
    rows += [("shell", p.pid, 2301, p.name) for p in inv.system.shell_processes()]
    return rows


def ps(inv: Invocation) -> int:
    inv.print("USER           PID  PPID     VSZ    RSS WCHAN            ADDR S NAME")
    for user, pid, ppid, name in _processes(inv):
        inv.print(f"{user:<12} {pid:>5} {ppid:>5} 14592884 120432 do_epoll_wait      0 S {name}")
    return 0


def pidof(inv: Invocation) -> int:
    by_name = {name: pid for _, pid, _, name in _processes(inv)}
    pids = [str(by_name[name]) for name in inv.args[1:] if name in by_name]
    if not pids:
        return 1
    inv.print(" ".join(pids))
    return 0


def logcat(inv: Invocation) -> int:
    """`logcat [-c] [-d] [-v threadtime] [-T TIME|COUNT] [-t TIME|COUNT]`: `-T`/`-t` print only the lines
    since TIME (`MM-DD hh:mm:ss.mmm`, or with the year; lines of that very time included) or the last
    COUNT lines; `-t` implies `-d`, `-T` does not."""
    args, since, dump = _since_option(inv.args[1:])
    flags, _ = split_flags([a for a in args if a != "threadtime"])
    device, call = inv.system.device, inv.system.call
    if "c" in flags or "--clear" in inv.args:
        call(device.clear_logcat)
        return 0
    full = device.logcat()  # thread-safe, and read side by side with a dump as on a phone
    inv.out(_lines_since(full, since).encode())
    if "d" in flags or dump:
        return 0
    # Streaming: follow new lines until the host hangs up, as `adb logcat` does.
    sent = len(full)
    while not inv.hangup.wait(LOGCAT_POLL_SECONDS):
        text = call(device.logcat)
        if len(text) < sent:  # cleared meanwhile
            sent = 0
        if len(text) > sent:
            inv.out(text[sent:].encode())
            sent = len(text)
    return 0


def _since_option(args: list[str]) -> tuple[list[str], str | None, bool]:
    """The arguments without `-T X` / `-t X`; X; whether it was `-t` (which implies -d)."""
    rest: list[str] = []
    since, dump = None, False
    words = iter(args)
    for word in words:
        if word in ("-T", "-t"):
            since, dump = next(words, ""), dump or word == "-t"
        else:
            rest.append(word)
    return rest, since, dump


def _lines_since(text: str, since: str | None) -> str:
    if since is None:
        return text
    lines = text.splitlines(keepends=True)
    if since.strip().isdigit():
        return "".join(lines[-int(since) :]) if int(since) else ""
    stamp = since.strip()
    if len(stamp) > 4 and stamp[4] == "-":  # YYYY-MM-DD hh:mm:ss.mmm: the buffer's lines carry no year
        stamp = stamp[5:]
    return "".join(line for line in lines if line[: len(_STAMP_SHAPE)] >= stamp[: len(_STAMP_SHAPE)])


def screencap(inv: Invocation) -> int:
    flags, paths = split_flags(inv.args[1:])
    image = inv.system.call(inv.system.device.screenshot)
    if "p" in flags or (paths and paths[0].endswith(".png")):
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", compress_level=1)
        data = buffer.getvalue()
    else:
        # The raw format of Android 10+: width, height, pixel format, colour space, then RGBA rows.
        rgba = image.convert("RGBA")
        data = struct.pack("<4I", rgba.width, rgba.height, _RGBA_8888, _SRGB) + rgba.tobytes()
    if paths:
        inv.system.fs.write(paths[0], data)
    else:
        inv.out(data)
    return 0


def uiautomator(inv: Invocation) -> int:
    _, operands = split_flags(inv.args[1:])
    if operands[:1] != ["dump"]:
        inv.error("uiautomator: the virtual device supports only: uiautomator dump [--compressed] [FILE]")
        return 1
    path = operands[1] if len(operands) > 1 else DEFAULT_DUMP_PATH
    inv.system.fs.write(path, inv.system.call(inv.system.device.dump_hierarchy).encode("utf-8"))
    inv.print(f"UI hierchary dumped to: {path}")  # sic: Android's own spelling
    return 0


COMMANDS: dict[str, Command] = {
    "dumpsys": dumpsys,
    "ps": ps,
    "pidof": pidof,
    "logcat": logcat,
    "screencap": screencap,
    "uiautomator": uiautomator,
}
