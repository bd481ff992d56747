"""Artifact writes that never leave half a file: every JSON, JSONL and PNG artifact goes through here.

A whole file is written to a temporary file in the same folder and moved over the name with `os.replace`,
so a reader sees the old file or the new one, never a 0-byte or cut JSON. A line appended to a JSONL file
is one write; if it fails the file is cut back to its former length, so no half line stays. (No fsync:
these survive a full or read-only disk, not a power cut.)

An `OSError` (ENOSPC, EROFS, EACCES, ...) becomes an :class:`~pytest_fairy.errors.ArtifactError` naming
the file: the explorer ends the item inconclusive with it, and the plugin never shows a traceback.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from pytest_fairy.errors import ArtifactError


def write_bytes(path: Path, data: bytes) -> None:
    """Replace `path` with `data`, whole or not at all."""
    try:
        _replace(path, data)
    except OSError as exc:
        raise ArtifactError(path, _why(exc)) from exc


def write_text(path: Path, text: str) -> None:
    write_bytes(path, text.encode("utf-8"))


def write_json(path: Path, data: Any) -> None:
    write_text(path, json.dumps(data, ensure_ascii=False, indent=2))


def append_line(path: Path, line: str) -> None:
    """Append `line` and a newline to `path` (made if missing), whole or not at all."""
    try:
        _append(path, (line + "\n").encode("utf-8"))
    except OSError as exc:
        raise ArtifactError(path, _why(exc)) from exc


def make_folder(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ArtifactError(folder, _why(exc)) from exc


def check_writable(folder: Path) -> None:
    """Raise ArtifactError unless files can be made in `folder`, or in the nearest folder above it that
    exists (a folder not there yet is not made: a run without fairy items leaves nothing behind)."""
    existing = folder
    while not existing.exists() and existing.parent != existing:
        existing = existing.parent
    try:
        if not existing.is_dir():
            raise NotADirectoryError(20, "Not a directory", str(existing))
        handle, probe = tempfile.mkstemp(dir=existing, prefix=".fairy-probe-", suffix=".tmp")
        os.close(handle)
        os.unlink(probe)
    except OSError as exc:
        raise ArtifactError(folder, _why(exc) + ("" if existing == folder else f" ({existing})")) from exc


def _replace(path: Path, data: bytes) -> None:
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        try:
            _put(handle, data)
        finally:
            os.close(handle)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _append(path: Path, data: bytes) -> None:
    handle = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
    try:
        size = os.fstat(handle).st_size
        try:
            _put(handle, data)
        except BaseException:
            os.ftruncate(handle, size)  # no half line; a file this write made goes, no 0-byte file stays
            if size == 0:
                path.unlink(missing_ok=True)
            raise
    finally:
        os.close(handle)


def _put(handle: int, data: bytes) -> None:
    """Every byte of `data` to `handle` (the one place bytes reach the disk, and the tests' seam)."""
    view = memoryview(data)
    while view:
        view = view[os.write(handle, view) :]


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc)
