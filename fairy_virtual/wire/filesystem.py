"""The device's file system, in memory: enough for push / pull, md5sum, ls, rm, mkdir and dump files."""

from __future__ import annotations

import posixpath
import stat
import threading
import time
from dataclasses import dataclass

from pytest_fairy.errors import FairyError

# Directories every Android device has; pushes into /data/local/tmp and /sdcard need them.
STANDARD_DIRECTORIES = (
    "/data/local/tmp",
    "/sdcard/Download",
    "/storage/emulated/0",
    "/system/bin",
    "/vendor",
    "/proc",
)
DEFAULT_FILE_MODE = 0o644
DEFAULT_DIR_MODE = 0o771


class FileSystemError(FairyError):
    """A file operation failed; `reason` is the strerror text a shell would print."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


NO_SUCH_FILE = "No such file or directory"
IS_A_DIRECTORY = "Is a directory"
NOT_A_DIRECTORY = "Not a directory"
NOT_EMPTY = "Directory not empty"
EXISTS = "File exists"


@dataclass(slots=True)
class Entry:
    """A file (data is bytes) or a directory (data is None). `mode` includes the type bits."""

    mode: int
    mtime: int
    data: bytes | None = None

    @property
    def is_dir(self) -> bool:
        return stat.S_ISDIR(self.mode)

    @property
    def size(self) -> int:
        return len(self.data) if self.data is not None else 4096


def normalize(path: str, cwd: str = "/") -> str:
    return posixpath.normpath(posixpath.join(cwd, path)).replace("//", "/")


class MemoryFileSystem:
    """A tree of paths to entries. Thread-safe: sync and shell streams use it at once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: dict[str, Entry] = {"/": self._dir()}
        for directory in STANDARD_DIRECTORIES:
            self.mkdir(directory, parents=True)

    @staticmethod
    def _dir(mode: int = DEFAULT_DIR_MODE) -> Entry:
        return Entry(stat.S_IFDIR | mode, int(time.time()))

    def stat(self, path: str) -> Entry | None:
        with self._lock:
            return self._entries.get(normalize(path))

    def read(self, path: str) -> bytes:
        entry = self.stat(path)
        if entry is None:
            raise FileSystemError(path, NO_SUCH_FILE)
        if entry.data is None:
            raise FileSystemError(path, IS_A_DIRECTORY)
        return entry.data

    def write(self, path: str, data: bytes, mode: int = DEFAULT_FILE_MODE, mtime: int | None = None) -> None:
        full = normalize(path)
        with self._lock:
            parent = self._entries.get(posixpath.dirname(full))
            if parent is None:
                raise FileSystemError(path, NO_SUCH_FILE)
            if not parent.is_dir:
                raise FileSystemError(path, NOT_A_DIRECTORY)
            existing = self._entries.get(full)
            if existing is not None and existing.is_dir:
                raise FileSystemError(path, IS_A_DIRECTORY)
            self._entries[full] = Entry(stat.S_IFREG | (mode & 0o7777), mtime or int(time.time()), data)

    def mkdir(self, path: str, *, parents: bool = False) -> None:
        full = normalize(path)
        with self._lock:
            missing: list[str] = []
            probe = full
            while probe not in self._entries:
                missing.append(probe)
                probe = posixpath.dirname(probe)
            if not self._entries[probe].is_dir:
                raise FileSystemError(path, NOT_A_DIRECTORY)
            if not missing:
                if parents:
                    return
                raise FileSystemError(path, EXISTS)
            if len(missing) > 1 and not parents:
                raise FileSystemError(path, NO_SUCH_FILE)
            for directory in reversed(missing):
                self._entries[directory] = self._dir()

    def remove(self, path: str, *, recursive: bool = False) -> None:
        full = normalize(path)
        with self._lock:
            entry = self._entries.get(full)
            if entry is None:
                raise FileSystemError(path, NO_SUCH_FILE)
            below = [p for p in self._entries if p.startswith(full.rstrip("/") + "/")]
            if entry.is_dir and not recursive:
                raise FileSystemError(path, IS_A_DIRECTORY)
            if full == "/":
                raise FileSystemError(path, "Device or resource busy")
            for doomed in [*below, full]:
                del self._entries[doomed]

    def chmod(self, path: str, mode: int) -> None:
        with self._lock:
            entry = self._entries.get(normalize(path))
            if entry is None:
                raise FileSystemError(path, NO_SUCH_FILE)
            entry.mode = stat.S_IFMT(entry.mode) | (mode & 0o7777)

    def list(self, path: str) -> list[tuple[str, Entry]]:
        """The names directly inside directory `path`, sorted, with their entries."""
        full = normalize(path)
        with self._lock:
            entry = self._entries.get(full)
            if entry is None:
                raise FileSystemError(path, NO_SUCH_FILE)
            if not entry.is_dir:
                raise FileSystemError(path, NOT_A_DIRECTORY)
            prefix = full.rstrip("/") + "/"
            return sorted(
                (p[len(prefix) :], e)
                for p, e in self._entries.items()
                if p.startswith(prefix) and "/" not in p[len(prefix) :] and p != full
            )
