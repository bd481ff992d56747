"""Android framework commands of the emulated shell: input, am, monkey, pm, wm, getprop, settings, ime, cmd.

Each drives the device through `AndroidSystem.call` and prints what the real tool prints, closely enough
for adbutils and uiautomator2 to parse it. Anything the virtual device cannot do is an error with a
message, never a silent success.
"""

from __future__ import annotations

import hashlib
from functools import partial

from fairy_virtual.wire.shell import Command, Invocation
from fairy_virtual.wire.system import SYSTEM_PACKAGES
from fairy_virtual.wire.toybox import split_flags
from pytest_fairy.errors import DeviceError

DEFAULT_DENSITY = 440
SWIPE_DEFAULT_MS = 300
# The KEYCODE_* names `input keyevent` accepts, by code (android.view.KeyEvent).
KEYCODES: dict[str, int] = {
    "HOME": 3,
    "BACK": 4,
    "CALL": 5,
    "ENDCALL": 6,
    "DPAD_UP": 19,
    "DPAD_DOWN": 20,
    "DPAD_LEFT": 21,
    "DPAD_RIGHT": 22,
    "DPAD_CENTER": 23,
    "VOLUME_UP": 24,
    "VOLUME_DOWN": 25,
    "POWER": 26,
    "CAMERA": 27,
    "TAB": 61,
    "SPACE": 62,
    "ENTER": 66,
    "DEL": 67,
    "MENU": 82,
    "SEARCH": 84,
    "ESCAPE": 111,
    "FORWARD_DEL": 112,
    "MOVE_HOME": 122,
    "MOVE_END": 123,
    "VOLUME_MUTE": 164,
    "APP_SWITCH": 187,
    "SLEEP": 223,
    "WAKEUP": 224,
}
_INPUT_SOURCES = {
    "touchscreen",
    "touchpad",
    "keyboard",
    "mouse",
    "stylus",
    "trackball",
    "dpad",
    "gamepad",
    "joystick",
    "touchnavigation",
    "rotaryencoder",
}
# Options of `am start` that take a value; the value is skipped, not interpreted.
_AM_VALUE_OPTIONS = {"-a", "-c", "-d", "-t", "-f", "--user", "-p"}
_AM_PAIR_OPTIONS = {"-e", "--es", "--ei", "--ez", "--el", "--ef", "--eu", "--ecn", "--esa", "--eia"}


def without_user(args: list[str]) -> list[str]:
    """`args` without a `--user ID` option (pm, settings and am accept one; there is only user 0)."""
    kept: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg == "--user":
            skip = True
        else:
            kept.append(arg)
    return kept


def keycode(name: str) -> int | None:
    if name.isdigit():
        return int(name)
    return KEYCODES.get(name.upper().removeprefix("KEYCODE_"))


def _coordinates(values: list[str]) -> list[int]:
    return [round(float(v)) for v in values]


def input_(inv: Invocation) -> int:
    args = inv.args[1:]
    if args and args[0] in _INPUT_SOURCES:
        args = args[1:]
    if args[:1] == ["-d"]:
        args = args[2:]
    if not args:
        inv.error("Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]")
        return 1
    command, rest = args[0], args[1:]
    device = inv.system.device
    try:
        if command == "tap" and len(rest) == 2:
            x, y = _coordinates(rest)
            inv.system.call(lambda: device.tap(x, y))
        elif command in ("swipe", "draganddrop") and len(rest) in (4, 5):
            x1, y1, x2, y2 = _coordinates(rest[:4])
            seconds = (int(rest[4]) if len(rest) == 5 else SWIPE_DEFAULT_MS) / 1000
            inv.system.call(lambda: device.swipe(x1, y1, x2, y2, seconds))
        elif command == "keyevent" and rest:
            longpress = "--longpress" in rest
            for name in (r for r in rest if r != "--longpress"):
                code = keycode(name)
                if code is None:
                    inv.error(f"Error: Unknown keycode: {name}")
                    return 1
                for _ in range(2 if longpress else 1):
                    inv.system.call(partial(device.press_keycode, code))
        elif command == "text" and len(rest) == 1:
            return _input_text(inv, rest[0])
        else:
            inv.error(f"Error: Unknown command or wrong arguments: input {' '.join(args)}")
            return 1
    except ValueError as exc:
        inv.error(f"Error: bad number in 'input {' '.join(args)}': {exc}")
        return 1
    return 0


def _input_text(inv: Invocation, text: str) -> int:
    # Real `input text` maps characters through the virtual keyboard's key map: only printable ASCII exists
    # there, so Chinese or emoji fail on a phone and must fail here too.
    typed = text.replace("%s", " ")
    unmappable = next((ch for ch in typed if not (" " <= ch <= "~")), None)
    if unmappable is not None:
        inv.error("Exception occurred while executing 'text':")
        inv.error(
            f"java.lang.IllegalArgumentException: no key mapping for character {unmappable!r};"
            " use uiautomator2 send_keys / set_text for text outside ASCII"
        )
        return 1
    inv.system.call(lambda: inv.system.device.type_text(typed))
    return 0


def _component(package: str, activity: str) -> str:
    return f"{package}/{activity}"


def am(inv: Invocation) -> int:
    sub, args = (inv.args[1], inv.args[2:]) if len(inv.args) > 1 else ("", [])
    device, call = inv.system.device, inv.system.call
    if sub in ("start", "start-activity"):
        component, wait, stop, i = None, False, False, 0
        while i < len(args):
            arg = args[i]
            if arg == "-n" and i + 1 < len(args):
                component, i = args[i + 1], i + 2
            elif arg in _AM_VALUE_OPTIONS:
                i += 2
            elif arg in _AM_PAIR_OPTIONS:
                i += 3
            else:
                wait, stop, i = wait or arg == "-W", stop or arg == "-S", i + 1
        if component is None or "/" not in component:
            inv.error(
                f"Error: Activity not started, unable to resolve Intent {{ {' '.join(args)} }}"
                " (the virtual device starts activities by -n PKG/ACTIVITY)"
            )
            return 1
        package, activity = component.split("/", 1)
        if activity.startswith("."):
            activity = package + activity
        inv.print(f"Starting: Intent {{ cmp={component} }}")
        if stop:
            call(lambda: device.stop(package))
        try:
            call(lambda: device.launch(package, activity))
        except DeviceError as exc:
            inv.error(exc.reason)  # already worded as am words it ("Error: Activity class {..} ...")
            return 1
        if wait:
            inv.print(f"Status: ok\nLaunchState: COLD\nActivity: {component}\nTotalTime: 0\nWaitTime: 0")
            inv.print("Complete")
        return 0
    if sub == "force-stop" and args:
        call(lambda: device.stop(args[-1]))
        return 0
    if sub == "broadcast":
        action = args[args.index("-a") + 1] if "-a" in args[:-1] else ""
        # No receiver in the virtual device answers, which real Android reports as result=0.
        inv.print(f"Broadcasting: Intent {{ act={action} flg=0x400000 }}\nBroadcast completed: result=0")
        return 0
    inv.error(f"am: unknown or unsupported command: {' '.join(inv.args[1:]) or '(none)'}")
    return 1


def monkey(inv: Invocation) -> int:
    flags, _ = split_flags(inv.args[1:])
    args = inv.args[1:]
    if "p" not in flags or args[-1:] != ["1"]:
        inv.error(
            "monkey: the virtual device only runs the launch idiom: monkey -p PKG -c "
            "android.intent.category.LAUNCHER 1"
        )
        return 1
    package = args[args.index("-p") + 1]
    if package not in inv.system.packages():
        inv.print("** No activities found to run, monkey aborted.")
        return 251
    inv.system.call(lambda: inv.system.device.launch(package))
    inv.print("Events injected: 1")
    inv.print("## Network stats: elapsed time=12ms (0ms mobile, 0ms wifi, 12ms not connected)")
    return 0


def _apk_path(package: str) -> str:
    digest = hashlib.md5(package.encode()).hexdigest()
    return f"/data/app/~~{digest[:22]}==/{package}-{digest[10:32]}==/base.apk"


def pm(inv: Invocation) -> int:
    sub, args = (inv.args[1], inv.args[2:]) if len(inv.args) > 1 else ("", [])
    if sub == "list" and args[:1] == ["packages"]:
        flags, filters = split_flags(without_user(args[1:]))
        packages = inv.system.packages()
        if "3" in flags:
            packages = [p for p in packages if p not in SYSTEM_PACKAGES]
        if "s" in flags:
            packages = [p for p in packages if p in SYSTEM_PACKAGES]
        for package in packages:
            if not filters or filters[0] in package:
                inv.print(f"package:{_apk_path(package)}={package}" if "f" in flags else f"package:{package}")
        return 0
    if sub == "path" and args:
        if args[0] not in inv.system.packages():
            return 1
        inv.print(f"package:{_apk_path(args[0])}")
        return 0
    if sub == "clear" and args:
        inv.system.call(lambda: inv.system.device.clear_app_data(args[0]))  # stopped, its data gone
        inv.print("Success")
        return 0
    inv.error(f"pm: unknown or unsupported command: {' '.join(inv.args[1:]) or '(none)'}")
    return 1


def wm(inv: Invocation) -> int:
    sub = inv.args[1] if len(inv.args) > 1 else ""
    if sub == "size" and len(inv.args) == 2:
        width, height = inv.system.call(inv.system.device.window_size)
        inv.print(f"Physical size: {width}x{height}")
        return 0
    if sub == "dismiss-keyguard" and len(inv.args) == 2:
        inv.system.call(inv.system.device.dismiss_keyguard)  # a PIN lock stays, silently, as on a phone
        return 0
    if sub == "density" and len(inv.args) == 2:
        inv.print(f"Physical density: {DEFAULT_DENSITY}")
        return 0
    inv.error(f"wm: unknown or unsupported command: {' '.join(inv.args[1:]) or '(none)'}")
    return 1


def getprop(inv: Invocation) -> int:
    properties = {"ro.serialno": inv.system.serial, **inv.system.device.properties}
    if len(inv.args) > 1:
        inv.print(properties.get(inv.args[1], inv.args[2] if len(inv.args) > 2 else ""))
    else:
        for key in sorted(properties):
            inv.print(f"[{key}]: [{properties[key]}]")
    return 0


def settings(inv: Invocation) -> int:
    args = without_user(inv.args[1:])
    if len(args) < 2 or args[1] not in inv.system.settings:
        inv.error(
            "usage: settings [--user NUM] get|put|delete|list NAMESPACE [KEY [VALUE]]"
            " (NAMESPACE is one of system, secure, global)"
        )
        return 1
    verb, table = args[0], inv.system.settings[args[1]]
    if verb == "get" and len(args) == 3:
        inv.print(table.get(args[2], "null"))
    elif verb == "put" and len(args) >= 4:
        table[args[2]] = args[3]
    elif verb == "delete" and len(args) == 3:
        inv.print(f"Deleted {int(table.pop(args[2], None) is not None)} rows")
    elif verb == "list" and len(args) == 2:
        for key in sorted(table):
            inv.print(f"{key}={table[key]}")
    else:
        inv.error(f"settings: bad arguments: {' '.join(inv.args[1:])}")
        return 1
    return 0


def ime(inv: Invocation) -> int:
    sub, args = (inv.args[1], inv.args[2:]) if len(inv.args) > 1 else ("", [])
    system = inv.system
    installed = list(system.installed_imes)
    if sub == "list":
        for method in installed if "-a" in args else system.enabled_imes:
            inv.print(method if "-s" in args else f"{method}:\n  mId={method}")
        return 0
    if sub in ("enable", "disable", "set") and args:
        method = args[-1]
        if method not in installed:
            inv.error(f"Unknown input method {method} cannot be {sub}d for user #0")
            return 1
        if sub == "enable" and method not in system.enabled_imes:
            system.enabled_imes.append(method)
        elif sub == "disable" and method in system.enabled_imes:
            system.enabled_imes.remove(method)
        elif sub == "set":
            system.settings["secure"]["default_input_method"] = method
        inv.print(f"Input method {method}: {'selected' if sub == 'set' else sub + 'd'} for user #0")
        return 0
    inv.error(f"ime: unknown or unsupported command: {' '.join(inv.args[1:]) or '(none)'}")
    return 1


# `cmd SERVICE ...` reaches the same code as the old per-service tools.
_CMD_SERVICES: dict[str, Command] = {
    "package": pm,
    "activity": am,
    "input": input_,
    "settings": settings,
    "window": wm,
    "input_method": ime,
}


def cmd(inv: Invocation) -> int:
    if len(inv.args) < 2 or inv.args[1] not in _CMD_SERVICES:
        inv.error(f"cmd: Can't find service: {inv.args[1] if len(inv.args) > 1 else '(none)'}")
        return 20
    inv.args = [inv.args[1], *inv.args[2:]]
    return _CMD_SERVICES[inv.args[0]](inv)


COMMANDS: dict[str, Command] = {
    "input": input_,
    "am": am,
    "monkey": monkey,
    "pm": pm,
    "wm": wm,
    "getprop": getprop,
    "settings": settings,
    "ime": ime,
    "cmd": cmd,
}
