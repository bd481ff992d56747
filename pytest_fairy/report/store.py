"""The session store: every step written to disk as it happens, so a killed run leaves what it saw.

Layout under the artifacts folder (default `.fairy/`):

    sessions/index.jsonl                      one line per session: id, start time, device, brain
    sessions/<session>/<item>/steps.jsonl     one line per step, appended and flushed as it happens
    sessions/<session>/<item>/step-NNN.png    the step's Set-of-Mark screenshot
    sessions/<session>/<item>/result.json     the verdict, reason, figures and summary
    sessions/<session>/<item>/tree.json|.png  the feature tree discovered

Every file is written through `pytest_fairy.report.atomic`: whole or not at all. A write that fails (disk
full, read-only) raises ArtifactError from start() or step(), which ends the item inconclusive with the
reason; after that the item's store writes only what still fits and raises no more.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import asdict
from pathlib import Path
from typing import Any

from pytest_fairy.errors import ArtifactError
from pytest_fairy.explore.decisions import Plan
from pytest_fairy.explore.record import Exploration, StepRecord
from pytest_fairy.explore.target import Target
from pytest_fairy.report import atomic
from pytest_fairy.report.tree_picture import tree_png

_UNSAFE = re.compile(r"[^\w.-]+")


def slug(text: str, limit: int = 80) -> str:
    """A file-name-safe form of an item id (CJK letters are kept: they are word characters)."""
    return _UNSAFE.sub("_", text).strip("_")[:limit] or "item"


def new_session_id() -> str:
    return time.strftime("%Y%m%d_%H%M%S") + f"_{time.time_ns() % 1_000_000:06d}"


class SessionStore:
    def __init__(self, root: Path, session_id: str) -> None:
        self.root = root
        self.session_id = session_id
        self.folder = root / "sessions" / session_id

    def open_session(self, **facts: Any) -> None:
        """Create the session folder and add it to the index. Safe to call from every xdist worker.
        Best effort: if the disk is full, the item's own first write says so and ends it inconclusive."""
        try:
            atomic.make_folder(self.folder)
            (self.folder / ".indexed").touch(exist_ok=False)
        except (ArtifactError, OSError):  # indexed already (FileExistsError), or the disk refuses
            return
        line = json.dumps({"session": self.session_id, "started": time.time(), **facts}, ensure_ascii=False)
        # One short append per session: O_APPEND writes of a line are not interleaved by other writers.
        with suppress(ArtifactError):
            atomic.append_line(self.root / "sessions" / "index.jsonl", line)

    def item(self, item_id: str) -> ItemStore:
        return ItemStore(self.folder / slug(item_id))


class ItemStore:
    """The StepSink that keeps one item's steps on disk."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._started = False
        # The first write that failed: the item ends inconclusive on it, and this store raises no more.
        self.failed: ArtifactError | None = None

    def start(self, target: Target, plan: Plan) -> None:
        with self._writing():
            atomic.make_folder(self.folder)
            self._write_json("target.json", {"target": _plain(asdict(target)), "plan": _plain(asdict(plan))})
        self._started = True

    def step(self, record: StepRecord) -> None:
        if not self._started:
            raise RuntimeError("ItemStore.step() before start()")
        if self.failed is not None:  # the item is ending on the first failure; a late step is not kept
            return
        with self._writing():
            screenshot = self.folder / f"step-{record.step:03d}.png"
            atomic.write_bytes(screenshot, record.som_png)
            fields = {k: v for k, v in asdict(record).items() if k != "som_png"}
            fields["screenshot"] = screenshot.name
            atomic.append_line(self.folder / "steps.jsonl", json.dumps(_plain(fields), ensure_ascii=False))

    def finish(self, result: Exploration) -> None:
        """The result, tree and last screen. After an earlier failure, what still fits is written and
        nothing is raised (the result already says why it ended); a first failure here is raised."""
        try:
            self._finish(result)
        except ArtifactError as exc:
            if self.failed is None:
                self.failed = exc
                raise

    def _finish(self, result: Exploration) -> None:
        atomic.make_folder(self.folder)
        self._write_json(
            "result.json",
            {
                "verdict": result.verdict.value,
                "reason": result.reason,
                "steps": result.steps,
                "states": len(result.tree.states),
                "transitions": len(result.tree.transitions),
                "escapes": result.escapes,
                "seconds": round(result.seconds, 3),
                "usage": asdict(result.usage),
                "findings": [asdict(f) for f in result.findings],
                "summary": result.summary,
            },
        )
        atomic.write_text(self.folder / "tree.json", result.tree.to_json())
        atomic.write_bytes(self.folder / "tree.png", tree_png(result))
        if result.final_png:
            atomic.write_bytes(self.folder / "final.png", result.final_png)

    def _write_json(self, name: str, data: dict[str, Any]) -> None:
        atomic.write_json(self.folder / name, data)

    @contextmanager
    def _writing(self) -> Iterator[None]:
        """Remember the first failed write, and raise it: the explorer ends the item on it."""
        try:
            yield
        except ArtifactError as exc:
            self.failed = self.failed or exc
            raise


def _plain(value: Any) -> Any:
    """JSON-friendly copies of tuples, sets and enums inside dataclass dumps."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        items = [_plain(v) for v in value]
        return sorted(items) if isinstance(value, set | frozenset) else items
    return value
