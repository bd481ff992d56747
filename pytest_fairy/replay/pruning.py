"""Pruning the decision cache: once a session, at its end, by the process that runs last.

What is removed, in this order (`prune_cache`):

1. files nothing will read again: versions of an item older than its newest readable one (superseded),
   files that are not recordings at all (half-copied, broken: a load passes them over), and temporary
   files a killed writer left;
2. items none of whose files was used for `fairy_cache_max_age_days` (a load marks the version it replays
   as used, a save the version it writes; a file's modification time is when it was last used);
3. while the cache is larger than `fairy_cache_max_mb`: whole items, the least recently used first.

A file used by this session (written or replayed since it started) is never removed, whatever the limits
say: the recording a run just wrote is the one the next run needs. A recording of another version of the
format (a newer pytest_fairy sharing the cache) is not broken: only age and size remove it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pytest_fairy.replay.cache import TEMPORARY_SUFFIX, VERSION_SUFFIX, Version, read_version

DAY_SECONDS = 86400.0
MEGABYTE = 1024 * 1024
# A CI cache that is not restored for a week is evicted by GitHub anyway; a recording nobody replayed for a
# month is of a feature no longer run or of screens long changed.
DEFAULT_MAX_AGE_DAYS = 30.0
# A recording is 7 KB at the median and 71 KB at most (12,595 recordings the test suites wrote): 100 MB holds
# over ten thousand items, and restores in seconds.
DEFAULT_MAX_MB = 100.0
MTIME_SLACK_SECONDS = 2.0


@dataclass(frozen=True)
class CacheLimits:
    """How old and how large the cache may grow; 0 switches a limit off."""

    max_age_days: float = DEFAULT_MAX_AGE_DAYS
    max_mb: float = DEFAULT_MAX_MB


@dataclass(frozen=True)
class Pruned:
    """What a prune removed, by rule, and the bytes over the size limit it had to keep (used this run)."""

    superseded: tuple[Path, ...] = ()
    aged: tuple[Path, ...] = ()
    evicted: tuple[Path, ...] = ()
    freed: int = 0
    kept_over: int = 0

    @property
    def removed(self) -> tuple[Path, ...]:
        return self.superseded + self.aged + self.evicted

    def line(self) -> str:
        """One line for the end of the run ("" when nothing was removed and nothing is over)."""
        parts = []
        if self.superseded:
            parts.append(f"{len(self.superseded)} superseded or unreadable")
        if self.aged:
            parts.append(f"{len(self.aged)} unused too long")
        if self.evicted:
            parts.append(f"{len(self.evicted)} of the least recently used items, over the size limit")
        line = f"removed {', '.join(parts)} ({self.freed / MEGABYTE:.1f} MB)" if parts else ""
        if self.kept_over:
            over = f"{self.kept_over / MEGABYTE:.1f} MB over the size limit kept: used by this run"
            line = f"{line}; {over}" if line else over
        return line


class CachePruning:
    """Registered for the run: prunes the cache folder `cache` to `limits` once, at the end of the session,
    in the process that ends last (the controller under xdist, after every worker), and says what it
    removed at the end of the terminal summary."""

    def __init__(self, cache: Path, limits: CacheLimits) -> None:
        self.cache = cache
        self.limits = limits
        self.started = time.time()
        self.pruned: Pruned | None = None

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        self.started = time.time()

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        config = session.config
        if hasattr(config, "workerinput") or config.option.collectonly:
            return
        # Less a little: some file systems keep modification times to the second or two.
        used_since = self.started - MTIME_SLACK_SECONDS
        self.pruned = prune_cache(self.cache, self.limits, used_since=used_since)

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        line = self.pruned.line() if self.pruned is not None else ""
        if line:
            terminalreporter.write_line(f"fairy: decision cache {self.cache}: {line}")


@dataclass
class _File:
    path: Path
    size: int
    used: float  # modification time: when the file was last written or replayed


def prune_cache(root: Path, limits: CacheLimits, *, used_since: float, now: float | None = None) -> Pruned:
    """Prune the cache folder `root` (see the module's rules). `used_since`: the time this session started;
    a file used since then is kept."""
    now = time.time() if now is None else now
    items = _items(root)
    superseded: list[_File] = []
    for files in items.values():
        superseded += [f for f in _garbage(files) if f.used < used_since]
    superseded = _remove(superseded, items)
    aged: list[_File] = []
    if limits.max_age_days > 0:
        cutoff = now - limits.max_age_days * DAY_SECONDS
        for files in items.values():
            if _last_used(files) < min(cutoff, used_since):
                aged += files
        aged = _remove(aged, items)
    evicted: list[_File] = []
    kept_over = 0
    if limits.max_mb > 0:
        limit = int(limits.max_mb * MEGABYTE)
        total = sum(f.size for files in items.values() for f in files)
        # The least recently used item first; an item this session used is never evicted.
        for key in sorted(items, key=lambda k: (_last_used(items[k]), str(k))):
            if total <= limit:
                break
            files = items[key]
            if _last_used(files) >= used_since:
                continue
            evicted += files
            total -= sum(f.size for f in files)
        evicted = _remove(evicted, items)
        kept_over = max(0, sum(f.size for files in items.values() for f in files) - limit)
    _tidy(root)
    freed = sum(f.size for f in [*superseded, *aged, *evicted])
    return Pruned(
        tuple(f.path for f in superseded),
        tuple(f.path for f in aged),
        tuple(f.path for f in evicted),
        freed,
        kept_over,
    )


def _items(root: Path) -> dict[Path, list[_File]]:
    """Every file of the cache by item: `<spec>/<item>/*` and the earlier layout's `<spec>/<item>.json`,
    the item named by its folder."""
    items: dict[Path, list[_File]] = {}
    if not root.is_dir():
        return items
    for spec in (p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")):
        for entry in spec.iterdir():
            if entry.is_dir():
                files = [p for p in entry.iterdir() if p.is_file()]
                items.setdefault(entry, []).extend(f for f in map(_file, files) if f is not None)
            elif entry.suffix == VERSION_SUFFIX:
                found = _file(entry)
                if found is not None:
                    items.setdefault(entry.with_suffix(""), []).append(found)
    return items


def _last_used(files: list[_File]) -> float:
    return max((f.used for f in files), default=0.0)


def _file(path: Path) -> _File | None:
    try:
        stat = path.stat()
    except OSError:  # removed meanwhile by another run
        return None
    return _File(path, stat.st_size, stat.st_mtime)


def _garbage(files: list[_File]) -> list[_File]:
    """The files of one item nothing will read: versions older than its newest readable one, broken files,
    temporary files."""
    garbage = [f for f in files if f.path.name.endswith(TEMPORARY_SUFFIX)]
    versions = [f for f in files if f.path.suffix == VERSION_SUFFIX]
    if not versions:
        return garbage
    read = {f.path: read_version(f.path) for f in versions}
    readable = sorted((v for v in read.values() if v.recording is not None), key=_order)
    newest = readable[-1].path if readable else None
    for f in versions:
        version = read[f.path]
        broken = version.recording is None and not version.foreign
        if broken or (version.recording is not None and f.path != newest):
            garbage.append(f)
    return garbage


def _order(version: Version) -> tuple[object, ...]:
    return version.order


def _remove(files: list[_File], items: dict[Path, list[_File]]) -> list[_File]:
    """Remove `files` from disk and from `items`; the ones removed (a file the disk refuses to remove
    stays, and counts as kept)."""
    removed = []
    for f in files:
        try:
            f.path.unlink(missing_ok=True)
        except OSError:
            continue
        removed.append(f)
    gone = {f.path for f in removed}
    for key in list(items):
        items[key] = [f for f in items[key] if f.path not in gone]
        if not items[key]:
            del items[key]
    return removed


def _tidy(root: Path) -> None:
    """Folders left empty go too."""
    if not root.is_dir():
        return
    for spec in (p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")):
        for folder in (p for p in spec.iterdir() if p.is_dir()):
            _rmdir(folder)
        _rmdir(spec)


def _rmdir(folder: Path) -> None:
    try:
        folder.rmdir()
    except OSError:  # not empty, or gone
        return
