"""The `sync:` service: push, pull, stat and list over the device's in-memory file system.

Requests are a 4-byte id, a u32 length and a path. Served: STAT, STA2/LST2 (feature stat_v2), LIST, LIS2
(feature ls_v2), SEND (then DATA.. DONE), RECV, QUIT. A failed transfer answers FAIL + message, which adb
prints as `adb: error: ...`.
"""

from __future__ import annotations

import errno
import posixpath
import stat
import struct
import zlib

from fairy_virtual.wire.filesystem import FileSystemError, MemoryFileSystem
from fairy_virtual.wire.system import AndroidSystem
from fairy_virtual.wire.transport import Stream, StreamClosed

MAX_PATH = 1024
MAX_DATA_CHUNK = 64 * 1024  # SYNC_DATA_MAX in adb
_REQUEST = struct.Struct("<4sI")
_STAT_V1 = struct.Struct("<4s3I")
# id, error, dev, ino, mode, nlink, uid, gid, size, atime, mtime, ctime
_STAT_V2 = struct.Struct("<4sIQQIIIIQqqq")
_DENT_V1 = struct.Struct("<4s4I")
_DENT_V2 = struct.Struct("<4sIQQIIIIQqqqI")
_SHELL_UID = 2000


class SyncService:
    """One sync session on one stream."""

    def __init__(self, system: AndroidSystem) -> None:
        self.fs: MemoryFileSystem = system.fs
        self._handlers = {
            "STAT": self._stat_v1,
            "STA2": self._stat_v2,
            "LST2": self._stat_v2,
            "LIST": self._list_v1,
            "LIS2": self._list_v2,
            "SEND": self._send,
            "RECV": self._recv,
        }

    def serve(self, stream: Stream) -> None:
        while True:
            first = stream.read(_REQUEST.size)
            if not first:
                return  # the host ended the session without QUIT
            header = first + stream.read_exact(_REQUEST.size - len(first))
            ident, length = _REQUEST.unpack(header)
            command = ident.decode("ascii", "replace")
            if command == "QUIT":
                return
            if length > MAX_PATH:
                self._fail(stream, f"path too long ({length} bytes)")
                return
            path = stream.read_exact(length).decode("utf-8", "replace")
            handler = self._handlers.get(command)
            if handler is None:
                self._fail(stream, f"unknown sync command {command!r}")
                return
            handler(stream, path, command)

    @staticmethod
    def _fail(stream: Stream, message: str) -> None:
        data = message.encode()
        stream.write(b"FAIL" + struct.pack("<I", len(data)) + data)

    def _stat_v1(self, stream: Stream, path: str, _command: str) -> None:
        entry = self.fs.stat(path)
        if entry is None:
            stream.write(_STAT_V1.pack(b"STAT", 0, 0, 0))
        else:
            stream.write(_STAT_V1.pack(b"STAT", entry.mode, entry.size & 0xFFFFFFFF, entry.mtime))

    def _stat_v2(self, stream: Stream, path: str, command: str) -> None:
        entry = self.fs.stat(path)
        if entry is None:
            stream.write(_STAT_V2.pack(command.encode(), errno.ENOENT, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
            return
        inode = zlib.crc32(path.encode())
        stream.write(
            _STAT_V2.pack(
                command.encode(),
                0,
                1,
                inode,
                entry.mode,
                1,
                _SHELL_UID,
                _SHELL_UID,
                entry.size,
                entry.mtime,
                entry.mtime,
                entry.mtime,
            )
        )

    def _listing(self, path: str) -> list[tuple[str, int, int, int]]:
        entry = self.fs.stat(path)
        if entry is None or not entry.is_dir:
            return []
        here = [(".", entry.mode, entry.size, entry.mtime), ("..", stat.S_IFDIR | 0o755, 4096, entry.mtime)]
        return here + [(name, e.mode, e.size, e.mtime) for name, e in self.fs.list(path)]

    def _list_v1(self, stream: Stream, path: str, _command: str) -> None:
        for name, mode, size, mtime in self._listing(path):
            raw = name.encode()
            stream.write(_DENT_V1.pack(b"DENT", mode, size & 0xFFFFFFFF, mtime, len(raw)) + raw)
        stream.write(_DENT_V1.pack(b"DONE", 0, 0, 0, 0))

    def _list_v2(self, stream: Stream, path: str, _command: str) -> None:
        for name, mode, size, mtime in self._listing(path):
            raw = name.encode()
            stream.write(
                _DENT_V2.pack(
                    b"DNT2", 0, 1, 0, mode, 1, _SHELL_UID, _SHELL_UID, size, mtime, mtime, mtime, len(raw)
                )
                + raw
            )
        stream.write(_DENT_V2.pack(b"DONE", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    def _send(self, stream: Stream, spec: str, _command: str) -> None:
        path, _, mode_text = spec.rpartition(",")
        if not path:
            path, mode_text = spec, "33188"
        data = bytearray()
        while True:
            ident, value = _REQUEST.unpack(stream.read_exact(_REQUEST.size))
            if ident == b"DATA":
                if value > MAX_DATA_CHUNK:
                    self._fail(stream, f"DATA chunk of {value} bytes exceeds {MAX_DATA_CHUNK}")
                    raise StreamClosed("sync: oversized DATA chunk")
                data += stream.read_exact(value)
            elif ident == b"DONE":
                break
            else:
                self._fail(stream, f"expected DATA or DONE during SEND, got {ident!r}")
                raise StreamClosed("sync: bad SEND sequence")
        try:
            mode = int(mode_text) if mode_text.isdigit() else 0o644
            # As adbd's handle_send_file does (secure_mkdirs): missing parent folders are made.
            self.fs.mkdir(posixpath.dirname(posixpath.normpath(path)) or "/", parents=True)
            self.fs.write(path, bytes(data), mode=mode & 0o7777, mtime=value or None)
        except FileSystemError as exc:
            self._fail(stream, f"failed to write {path}: {exc.reason}")
            return
        stream.write(b"OKAY" + struct.pack("<I", 0))

    def _recv(self, stream: Stream, path: str, _command: str) -> None:
        entry = self.fs.stat(path)
        if entry is None or entry.data is None:
            reason = "No such file or directory" if entry is None else "Is a directory"
            self._fail(stream, f"{path}: {reason}")
            return
        data = entry.data
        for start in range(0, len(data), MAX_DATA_CHUNK):
            chunk = data[start : start + MAX_DATA_CHUNK]
            stream.write(b"DATA" + struct.pack("<I", len(chunk)) + chunk)
        stream.write(b"DONE" + struct.pack("<I", 0))
