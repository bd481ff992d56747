"""Which adbd services the virtual device offers, and the shell service's v1 / v2 framing.

Services: `shell:CMD` and `exec:CMD` (v1: stdout and stderr mixed, raw, closed at the end),
`shell,v2,...:CMD` (v2 frames: 1 stdout, 2 stderr, 3 exit code; stdin frames 0 and close-stdin 4 read),
`sync:`, and `tcp:PORT` for device ports something listens on (the uiautomator server). Everything else,
including an interactive shell with no command, is refused with CLSE as adbd refuses what it lacks.
"""

from __future__ import annotations

import struct
from collections.abc import Callable

from fairy_virtual.wire.diagnostics import COMMANDS as DIAGNOSTICS_COMMANDS
from fairy_virtual.wire.framework import COMMANDS as FRAMEWORK_COMMANDS
from fairy_virtual.wire.shell import Command, Shell
from fairy_virtual.wire.sync import SyncService
from fairy_virtual.wire.system import AndroidSystem
from fairy_virtual.wire.toybox import COMMANDS as TOYBOX_COMMANDS
from fairy_virtual.wire.transport import ServiceHandler, Stream, StreamClosed
from fairy_virtual.wire.u2server import app_process

# What the device tells the host it can do (the `features=` of its CNXN banner).
FEATURES = ("shell_v2", "cmd", "stat_v2", "ls_v2", "fixed_push_mkdir")
COMMANDS: dict[str, Command] = {
    **TOYBOX_COMMANDS,
    **FRAMEWORK_COMMANDS,
    **DIAGNOSTICS_COMMANDS,
    "app_process": app_process,
}
_FRAME = struct.Struct("<BI")
STDIN, STDOUT, STDERR, EXIT, CLOSE_STDIN, WINDOW_SIZE = 0, 1, 2, 3, 4, 5
# How long a v2 shell waits, after its exit frame, for the host's close-stdin frame before closing.
EXIT_LINGER_SECONDS = 1.0


def banner(properties: dict[str, str]) -> str:
    fields = [
        f"{key}={properties.get(key, '')}"
        for key in ("ro.product.name", "ro.product.model", "ro.product.device")
    ]
    return "device::" + ";".join([*fields, "features=" + ",".join(FEATURES)])


class ShellV2Input:
    """The host's side of a v2 shell: stdin frames until close-stdin."""

    def __init__(self, stream: Stream) -> None:
        self._stream = stream
        self.closed = False
        self._data = bytearray()

    def pump(self) -> None:
        """Read one frame from the host; on end of stream, count stdin as closed."""
        try:
            kind, length = _FRAME.unpack(self._stream.read_exact(_FRAME.size))
            payload = self._stream.read_exact(length) if length else b""
        except StreamClosed:
            self.closed = True
            return
        if kind == STDIN:
            self._data += payload
        elif kind == CLOSE_STDIN:
            self.closed = True

    def read_all(self) -> bytes:
        while not self.closed:
            self.pump()
        return bytes(self._data)


def _v1_stdin(stream: Stream) -> Callable[[], bytes]:
    def read_all() -> bytes:
        data = bytearray()
        while chunk := stream.read():
            data += chunk
        return bytes(data)

    return read_all


class ShellService:
    def __init__(self, system: AndroidSystem, command_line: str, v2: bool) -> None:
        self.system = system
        self.command_line = command_line
        self.v2 = v2

    def __call__(self, stream: Stream) -> None:
        shell = Shell(self.system, COMMANDS, stream.closed)
        if not self.v2:
            shell.run(self.command_line, stream.write, stream.write, _v1_stdin(stream))
            return

        def frame(kind: int) -> Callable[[bytes], None]:
            return lambda data: stream.write(_FRAME.pack(kind, len(data)) + data) if data else None

        host = ShellV2Input(stream)
        status = shell.run(self.command_line, frame(STDOUT), frame(STDERR), host.read_all)
        stream.write(_FRAME.pack(EXIT, 1) + bytes([status & 0xFF]))
        # adb sends close-stdin after reading the exit code; read it so the stream ends acknowledged.
        if not host.closed and stream.wait_readable(EXIT_LINGER_SECONDS):
            host.pump()


def resolver(system: AndroidSystem) -> Callable[[str], ServiceHandler | None]:
    def resolve(service: str) -> ServiceHandler | None:
        if service.startswith(("shell:", "shell,", "exec:")):
            options, _, command_line = service.partition(":")
            if not command_line.strip():
                return None  # interactive shells need a pty: not offered
            return ShellService(system, command_line, v2="v2" in options.split(",")[1:])
        if service == "sync:":
            return SyncService(system).serve
        if service.startswith("tcp:"):
            port, _, host = service[4:].partition(":")
            if port.isdigit() and host in ("", "localhost", "127.0.0.1"):
                return system.listener(int(port))
        return None

    return resolve
