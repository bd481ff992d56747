"""The decision cache: a folder of recordings, one JSON file per (spec, feature), safe to share.

Layout under the cache folder (default `.fairy/cache`, or `--fairy-cache DIR` / ini `fairy_cache`):

    <spec slug>/<feature slug>-<digest>.json    one recording (format: recording.py, docs/replay.md)
    .locks/<same name>.lock                     held while a recording is replaced

The folder can be committed or kept as a CI artifact. Writers (pytest-xdist workers, parallel CI jobs
on one checkout) serialise on a per-file lock and replace the file atomically, so a reader sees either
the old recording or the new one, never half of one.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

from filelock import FileLock, Timeout

from pytest_fairy.errors import FairyError
from pytest_fairy.replay.recording import Recording, RecordingError
from pytest_fairy.report.store import slug

DEFAULT_CACHE = Path(".fairy") / "cache"
LOCK_SECONDS = 30.0  # a writer holds the lock for one file write; longer means a stuck process
SLUG_CHARS = 60


class CacheError(FairyError):
    """The decision cache cannot be read or written (a broken file, a lock never released)."""


class DecisionCache:
    def __init__(self, root: Path) -> None:
        self.root = root

    def path_for(self, spec: str, feature: str) -> Path:
        """Readable names, with a digest of the exact pair so that two names never share a file."""
        digest = hashlib.blake2b(f"{spec}\x1f{feature}".encode(), digest_size=4).hexdigest()
        return self.root / slug(spec, SLUG_CHARS) / f"{slug(feature, SLUG_CHARS)}-{digest}.json"

    def load(self, spec: str, feature: str) -> Recording | None:
        """The recording for this item, or None when there is none yet."""
        path = self.path_for(spec, feature)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise CacheError(f"cannot read the recording {path}: {exc}") from exc
        try:
            recording = Recording.from_json(text, where=str(path))
        except RecordingError as exc:
            raise CacheError(f"{exc} (delete the file to record it anew)") from exc
        if (recording.spec, recording.feature) != (spec, feature):
            raise CacheError(
                f"{path} records {recording.spec!r} / {recording.feature!r}, not {spec!r} / {feature!r}"
            )
        return recording

    def save(self, recording: Recording) -> Path:
        """Replace this item's recording: under its lock, through a temporary file and os.replace."""
        path = self.path_for(recording.spec, recording.feature)
        locks = self.root / ".locks"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            locks.mkdir(parents=True, exist_ok=True)
            with FileLock(str(locks / (path.name + ".lock")), timeout=LOCK_SECONDS):
                handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
                try:
                    with os.fdopen(handle, "w", encoding="utf-8") as out:
                        out.write(recording.to_json())
                        out.flush()
                        os.fsync(out.fileno())
                    os.replace(temporary, path)
                except BaseException:
                    Path(temporary).unlink(missing_ok=True)
                    raise
        except Timeout as exc:
            raise CacheError(f"the lock on {path} was not released within {LOCK_SECONDS:g}s") from exc
        except OSError as exc:
            raise CacheError(f"cannot write the recording {path}: {exc}") from exc
        return path
