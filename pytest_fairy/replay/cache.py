"""The decision cache: a folder of content-addressed recordings that CI machines can share and merge.

Layout under the cache folder (default `.fairy/cache`, or `--fairy-cache DIR` / ini `fairy_cache`):

    <spec slug>/<feature slug>-<item digest>/<content digest>.json    one version of an item's recording
    <spec slug>/<feature slug>-<item digest>.json                     the one file of the earlier layout

Each version is named by a digest of its own bytes and never written over, so two writers (xdist workers,
CI shards, runners) never touch the same file, and the union of two cache folders (what restoring one CI
cache over another makes) is a valid cache. A load picks the item's newest readable version: the latest
`recorded` time, a tie broken by the greater digest, so every machine picks the same; a file that cannot be
read (half-copied, hand-broken) is passed over with a note, and the next version is used. A version is
written to a temporary file first and renamed, so no reader ever sees half of one. A file of the earlier
layout is read as one more version of its item, superseded by the first version written beside it.

Loading a version marks it used (its modification time): pruning (`pruning.py`) keeps what is used.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from pytest_fairy.errors import FairyError
from pytest_fairy.replay.recording import ForeignRecording, Recording, RecordingError
from pytest_fairy.report.store import slug

DEFAULT_CACHE = Path(".fairy") / "cache"
SLUG_CHARS = 60
CONTENT_DIGEST_BYTES = 8
VERSION_SUFFIX = ".json"
TEMPORARY_SUFFIX = ".tmp"
_OLDEST = datetime.min.replace(tzinfo=UTC)


class CacheError(FairyError):
    """The decision cache cannot be written (a full disk, a folder that refuses files)."""


def content_digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=CONTENT_DIGEST_BYTES).hexdigest()


def recorded_time(text: str) -> datetime:
    """A recording's `recorded` stamp as a comparable time: local stamps of every writer's zone compare
    by the instant they name; an unreadable or missing stamp is the oldest of all."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return _OLDEST
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def now_stamp() -> str:
    """The `recorded` stamp of a new recording: UTC, to the microsecond, so that two versions an item gets
    one after the other are told apart by time, not by the tie-break."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


@dataclass(frozen=True)
class Version:
    """One file of an item: its path and the digest it is known by (its name, or for a file of the earlier
    layout the digest of its bytes); `recording` is None when the file cannot be read, and `problem` says
    why."""

    path: Path
    digest: str
    recording: Recording | None = None
    problem: str = ""
    # Readable, but written by a pytest_fairy that reads another version of the format: not broken.
    foreign: bool = False

    @property
    def order(self) -> tuple[datetime, str]:
        """How versions of one item are ordered, newest last: by `recorded`, then by digest."""
        assert self.recording is not None
        return recorded_time(self.recording.recorded), self.digest


@dataclass(frozen=True)
class Loaded:
    """What a load found: the recording to replay (None: none readable) and its file, and a note per file
    passed over."""

    recording: Recording | None
    path: Path | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)


class DecisionCache:
    def __init__(self, root: Path) -> None:
        self.root = root

    def item_folder(self, spec: str, feature: str) -> Path:
        """Readable names, with a digest of the exact pair so that two names never share a folder."""
        digest = hashlib.blake2b(f"{spec}\x1f{feature}".encode(), digest_size=4).hexdigest()
        return self.root / slug(spec, SLUG_CHARS) / f"{slug(feature, SLUG_CHARS)}-{digest}"

    def legacy_path(self, spec: str, feature: str) -> Path:
        """The item's one file in the earlier layout (read, never written)."""
        folder = self.item_folder(spec, feature)
        return folder.with_name(folder.name + VERSION_SUFFIX)

    def versions(self, spec: str, feature: str) -> list[Version]:
        """Every file of the item, read; readable ones oldest first, then the others."""
        folder = self.item_folder(spec, feature)
        paths = list(folder.glob(f"*{VERSION_SUFFIX}")) if folder.is_dir() else []
        legacy = self.legacy_path(spec, feature)
        found = [read_version(path, spec, feature) for path in [*paths, legacy] if path.is_file()]
        readable = sorted((v for v in found if v.recording is not None), key=lambda v: v.order)
        return readable + [v for v in found if v.recording is None]

    def newest(self, spec: str, feature: str) -> Recording | None:
        """The recording a load would replay, without marking it used or noting what was passed over."""
        readable = [v for v in self.versions(spec, feature) if v.recording is not None]
        return readable[-1].recording if readable else None

    def load(self, spec: str, feature: str) -> Loaded:
        """The item's newest readable version, marked used; a note for each file passed over."""
        notes: list[str] = []
        found = self.versions(spec, feature)
        readable = [v for v in found if v.recording is not None]
        for version in found:
            if version.recording is None and version.problem:
                fallback = "an older version is used" if readable else "no version of it can be read"
                notes.append(f"{version.problem}; passed over, {fallback}")
        if not readable:
            return Loaded(None, None, tuple(notes))
        newest = readable[-1]
        mark_used(newest.path)
        return Loaded(newest.recording, newest.path, tuple(notes))

    def save(self, recording: Recording) -> Path:
        """A new version of the item, named by its content: written to a temporary file, then renamed. The
        same content saved twice is one file."""
        data = recording.to_json().encode("utf-8")
        folder = self.item_folder(recording.spec, recording.feature)
        path = folder / f"{content_digest(data)}{VERSION_SUFFIX}"
        try:
            if path.is_file():
                mark_used(path)
                return path
            try:
                _write_new(folder, path, data)
            except FileNotFoundError:  # the folder, empty, was pruned away by another run meanwhile
                _write_new(folder, path, data)
        except OSError as exc:
            raise CacheError(f"cannot write the recording {path}: {exc}") from exc
        return path


def _write_new(folder: Path, path: Path, data: bytes) -> None:
    """`data` as `path`: whole or not at all, through a temporary file renamed into place."""
    folder.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".", suffix=TEMPORARY_SUFFIX)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def read_version(path: Path, spec: str | None = None, feature: str | None = None) -> Version:
    """One file of an item as a `Version`; `spec` and `feature`, when given, must be the recording's."""
    try:
        data = path.read_bytes()
    except OSError as exc:  # gone meanwhile (pruned by another run), or unreadable
        return Version(path, path.stem, problem=f"cannot read the recording {path}: {exc}")
    digest = path.stem if _is_digest(path.stem) else content_digest(data)
    try:
        recording = Recording.from_json(data.decode("utf-8", errors="replace"), where=str(path))
    except RecordingError as exc:
        return Version(path, digest, problem=str(exc), foreign=isinstance(exc, ForeignRecording))
    if spec is not None and (recording.spec, recording.feature) != (spec, feature):
        wrong = f"{path} records {recording.spec!r} / {recording.feature!r}, not {spec!r} / {feature!r}"
        return Version(path, digest, problem=wrong)
    return Version(path, digest, recording)


def mark_used(path: Path) -> None:
    """A version replayed or written now is young to pruning. A cache on a read-only disk cannot be
    marked; it is read all the same."""
    try:
        os.utime(path)
    except OSError:
        return


def _is_digest(name: str) -> bool:
    return len(name) == 2 * CONTENT_DIGEST_BYTES and all(c in "0123456789abcdef" for c in name)
