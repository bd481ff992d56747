"""The toybox commands of the emulated shell: files (ls, cat, rm, mkdir, chmod, md5sum) and small tools.

Output and error text follow toybox on Android (`md5sum: PATH: No such file or directory`, exit 1).
"""

from __future__ import annotations

import hashlib
import re
import stat
import time

from fairy_virtual.wire.filesystem import FileSystemError, normalize
from fairy_virtual.wire.shell import NOT_FOUND_EXIT, Command, Invocation

# `sleep` in a virtual shell stops early when the host hangs up; this caps one call regardless.
MAX_SLEEP_SECONDS = 60.0


def split_flags(args: list[str]) -> tuple[set[str], list[str]]:
    """Single-letter flags (`-rf` -> {r, f}) and operands; `--` ends the flags."""
    flags: set[str] = set()
    operands: list[str] = []
    options_done = False
    for arg in args:
        if not options_done and arg == "--":
            options_done = True
        elif not options_done and arg.startswith("-") and len(arg) > 1:
            flags.update(arg[1:])
        else:
            operands.append(arg)
    return flags, operands


def echo(inv: Invocation) -> int:
    words = inv.args[1:]
    newline = True
    while words and words[0] == "-n":
        newline, words = False, words[1:]
    inv.print(" ".join(words), end="\n" if newline else "")
    return 0


def true(inv: Invocation) -> int:
    return 0


def false(inv: Invocation) -> int:
    return 1


def cat(inv: Invocation) -> int:
    _, paths = split_flags(inv.args[1:])
    if not paths:
        inv.out(inv.stdin())
        return 0
    status = 0
    for path in paths:
        try:
            inv.out(inv.system.fs.read(path))
        except FileSystemError as exc:
            inv.error(f"cat: {path}: {exc.reason}")
            status = 1
    return status


def _long_line(name: str, mode: int, size: int, mtime: int) -> str:
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(mtime))
    return f"{stat.filemode(mode)} 1 shell shell {size:>8} {when} {name}"


def ls(inv: Invocation) -> int:
    flags, paths = split_flags(inv.args[1:])
    status = 0
    for path in paths or ["."]:
        full = normalize(path, "/")
        entry = inv.system.fs.stat(full)
        if entry is None:
            inv.error(f"ls: {path}: No such file or directory")
            status = 1
            continue
        listing = inv.system.fs.list(full) if entry.is_dir and "d" not in flags else [(path, entry)]
        for name, item in listing:
            if name.startswith(".") and "a" not in flags and item is not entry:
                continue
            inv.print(_long_line(name, item.mode, item.size, item.mtime) if "l" in flags else name)
    return status


def rm(inv: Invocation) -> int:
    flags, paths = split_flags(inv.args[1:])
    status = 0
    for path in paths:
        try:
            inv.system.fs.remove(path, recursive=bool(flags & {"r", "R"}))
        except FileSystemError as exc:
            if "f" in flags and exc.reason == "No such file or directory":
                continue
            inv.error(f"rm: {path}: {exc.reason}")
            status = 1
    return status


def mkdir(inv: Invocation) -> int:
    # Toybox quotes the path (`mkdir: '/x': File exists`) and goes on with the other operands. Tools use
    # the failure of mkdir on an existing directory as an atomic test-and-set (pytest_fairy's lease).
    flags, paths = split_flags(inv.args[1:])
    if not paths:
        inv.error("mkdir: Needs 1 argument")
        return 1
    status = 0
    for path in paths:
        try:
            inv.system.fs.mkdir(path, parents="p" in flags)
        except FileSystemError as exc:
            inv.error(f"mkdir: '{path}': {exc.reason}")
            status = 1
    return status


def touch(inv: Invocation) -> int:
    _, paths = split_flags(inv.args[1:])
    for path in paths:
        if inv.system.fs.stat(path) is None:
            inv.system.fs.write(path, b"")
    return 0


def chmod(inv: Invocation) -> int:
    flags, operands = split_flags(inv.args[1:])
    if len(operands) < 2:
        inv.error("chmod: Need 2 arguments")
        return 1
    mode, paths = operands[0], operands[1:]
    if not re.fullmatch(r"[0-7]{1,4}", mode):
        inv.error(f"chmod: bad mode '{mode}' (the virtual device takes octal modes)")
        return 1
    for path in paths:
        inv.system.fs.chmod(path, int(mode, 8))
    return 0


def md5sum(inv: Invocation) -> int:
    _, paths = split_flags(inv.args[1:])
    status = 0
    for path in paths:
        try:
            inv.print(f"{hashlib.md5(inv.system.fs.read(path)).hexdigest()}  {path}")
        except FileSystemError as exc:
            inv.error(f"{inv.name}: {path}: {exc.reason}")
            status = 1
    return status


def grep(inv: Invocation) -> int:
    flags, operands = split_flags(inv.args[1:])
    if not operands:
        inv.error("grep: Need 1 argument")
        return 2
    pattern = re.compile(operands[0], re.IGNORECASE if "i" in flags else 0)
    data = b"".join(inv.system.fs.read(p) for p in operands[1:]) if operands[1:] else inv.stdin()
    matched = [
        line
        for line in data.decode("utf-8", "replace").splitlines()
        if bool(pattern.search(line)) != ("v" in flags)
    ]
    for line in matched:
        inv.print(line)
    return 0 if matched else 1


def sleep(inv: Invocation) -> int:
    try:
        seconds = float(inv.args[1])
    except (IndexError, ValueError):
        inv.error("sleep: need a number of seconds")
        return 1
    inv.hangup.wait(min(seconds, MAX_SLEEP_SECONDS))
    return 0


def pkill(inv: Invocation) -> int:
    """`pkill [-f] PATTERN`: end the processes started from a shell (the uiautomator server) whose name,
    or with `-f` whole command line, matches the regular expression; exit 1 when none did."""
    flags, operands = split_flags(inv.args[1:])
    if flags - {"f"} or len(operands) != 1:
        inv.error("pkill: the virtual device supports only: pkill [-f] PATTERN")
        return 2
    try:
        killed = inv.system.kill(operands[0], full="f" in flags)
    except re.error as exc:
        inv.error(f"pkill: bad regex '{operands[0]}': {exc}")
        return 2
    return 0 if killed else 1


def id_(inv: Invocation) -> int:
    inv.print(
        "uid=2000(shell) gid=2000(shell) groups=2000(shell),1004(input),1007(log),1015(sdcard_rw)"
        " context=u:r:shell:s0"
    )
    return 0


def whoami(inv: Invocation) -> int:
    inv.print("shell")
    return 0


def toybox(inv: Invocation) -> int:
    """`toybox APPLET ARGS`: run a toybox applet by name, as u2 does with `toybox md5sum`."""
    if len(inv.args) < 2:
        inv.print(" ".join(sorted(COMMANDS)))
        return 0
    applet = COMMANDS.get(inv.args[1])
    if applet is None or applet is toybox:
        inv.error(f"toybox: Unknown command {inv.args[1]}")
        return NOT_FOUND_EXIT
    inv.args = inv.args[1:]
    return applet(inv)


COMMANDS: dict[str, Command] = {
    "echo": echo,
    "true": true,
    "false": false,
    "cat": cat,
    "ls": ls,
    "rm": rm,
    "mkdir": mkdir,
    "touch": touch,
    "chmod": chmod,
    "md5sum": md5sum,
    "md5": md5sum,
    "grep": grep,
    "sleep": sleep,
    "pkill": pkill,
    "id": id_,
    "whoami": whoami,
    "toybox": toybox,
}
