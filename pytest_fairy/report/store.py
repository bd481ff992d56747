"""The session store: every step written to disk as it happens, so a killed run leaves what it saw.

Layout under the artifacts folder (default `.fairy/`):

    sessions/index.jsonl                      one line per session: id, start time, device, brain
                                              (the newest `fairy_keep_sessions` folders are kept)
    sessions/<session>/<item>/steps.jsonl     one line per step, appended and flushed as it happens
                                              (<item>: the item id made safe, and a digest of it)
    sessions/<session>/<item>/step-NNN.webp   the step's Set-of-Mark screenshot (as the policy keeps them)
    sessions/<session>/<item>/result.json     the verdict, reason, figures and summary
    sessions/<session>/<item>/tree.json|.png  the feature tree discovered
    sessions/<session>/<item>/progress.png    states found, loops escaped and cost over the steps
    sessions/<session>/<item>/final.webp      the last screen (as the policy keeps them)
    sessions/<session>/<item>/reproduction.txt  an app defect's way, confirmed or not (`exports.py`), with
                                              test_reproduce_<feature>.py and <feature>.maestro.yaml

Every file is written through `pytest_fairy.report.atomic`: whole or not at all. A write that fails (disk
full, read-only) raises ArtifactError from start() or step(), which ends the item inconclusive with the
reason; after that the item's store writes only what still fits and raises no more.

A step's line is on disk when step() returns, before any other sink hears of the step (the store is the
explorer's first sink): a killed run loses at most the step being taken. Its screenshot is still being
encoded then: the store writes it from the encoder's thread once the bytes are there, so the loop never
waits. A write that failed there is raised by the next step(), by kept() or by finish(), which first wait
for every screenshot still being written; result.json is written last and says the verdict every other
record of the item says (`explore.record.tell_result`), inconclusive when something could not be kept.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path, PurePosixPath
from typing import Any

from pytest_fairy.errors import ArtifactError
from pytest_fairy.explore.decisions import Plan
from pytest_fairy.explore.record import Exploration, StepRecord
from pytest_fairy.explore.target import Target
from pytest_fairy.explore.verdict import Verdict
from pytest_fairy.report import atomic
from pytest_fairy.report.exports import exports
from pytest_fairy.report.policy import ArtifactPolicy
from pytest_fairy.report.progress_chart import ProgressTally, progress_png
from pytest_fairy.report.screenshots import place
from pytest_fairy.report.store_format import result_document, step_line, target_document
from pytest_fairy.report.tree_picture import tree_png

_UNSAFE = re.compile(r"[^\w.-]+")


# An item folder's readable part; a digest of the whole item id follows it.
ITEM_NAME_CHARS = 60


def slug(text: str, limit: int = 80) -> str:
    """A file-name-safe form of an item id (CJK letters are kept: they are word characters)."""
    return _UNSAFE.sub("_", text).strip("_")[:limit] or "item"


def item_folder_name(item_id: str) -> str:
    """An item's folder: its id made safe and cut to `ITEM_NAME_CHARS`, then a digest of the whole id, so
    that two items never share a folder however long their ids (`test_food.yaml_delivery_time-1a2b3c4d`)."""
    digest = hashlib.blake2b(item_id.encode(), digest_size=4).hexdigest()
    return f"{slug(_readable(item_id), ITEM_NAME_CHARS)}-{digest}"


def _readable(item_id: str) -> str:
    """The part of an item id a folder is named by: a spec outside the rootdir (`../../work/todo/x.yaml`,
    or an absolute path) by its folder and file name, not the chain of `..` that leads there."""
    path, sep, rest = item_id.partition("::")
    parts = PurePosixPath(path).parts
    if ".." in parts or PurePosixPath(path).is_absolute():
        path = "/".join(part for part in parts if part not in ("..", "/"))
        path = "/".join(PurePosixPath(path).parts[-2:])
    return f"{path}{sep}{rest}"


def new_session_id(now_ns: int | None = None) -> str:
    """`20261127_052419_169238`: the local time to the microsecond, of one reading of the clock, so that
    session folders sort by name as they were made (pruning keeps the newest by name)."""
    seconds, nanos = divmod(time.time_ns() if now_ns is None else now_ns, 1_000_000_000)
    return time.strftime("%Y%m%d_%H%M%S", time.localtime(seconds)) + f"_{nanos // 1000:06d}"


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

    def prune(self, keep: int, spare: Path | None = None) -> list[Path]:
        """Remove the oldest session folders, so that `keep` remain with this session's (0: keep all),
        never `spare` (a baseline being compared against) or a folder that holds it; the folders removed.
        A folder that cannot be removed is left as it is."""
        root = self.root / "sessions"
        if keep <= 0 or not root.is_dir():
            return []
        older = sorted(
            (p for p in root.iterdir() if p.is_dir() and p.name != self.session_id),
            key=lambda p: p.name,
            reverse=True,
        )[keep - 1 :]
        spared = spare.resolve() if spare is not None else None
        removed = []
        for folder in older:
            if spared is not None and (spared == folder.resolve() or folder.resolve() in spared.parents):
                continue
            shutil.rmtree(folder, ignore_errors=True)
            if not folder.exists():
                removed.append(folder)
        return removed

    def item(self, item_id: str, policy: ArtifactPolicy = ArtifactPolicy.ON) -> ItemStore:
        return ItemStore(self.folder / item_folder_name(item_id), policy)


class ItemStore:
    """The StepSink that keeps one item's steps on disk."""

    def __init__(self, folder: Path, policy: ArtifactPolicy = ArtifactPolicy.ON) -> None:
        self.folder = folder
        self.policy = policy
        self._started = False
        # The first write that failed: the item ends inconclusive on it, and this store raises no more.
        self.failed: ArtifactError | None = None
        # A failure on the encoder's thread, not raised yet: the loop's next call into the store raises it.
        self._unraised: ArtifactError | None = None
        self._lock = threading.Lock()
        self._writing_steps: list[threading.Event] = []
        self._screenshots: list[Path] = []
        self._progress = ProgressTally()  # the chart's few numbers per step, drawn at finish

    def start(self, target: Target, plan: Plan) -> None:
        with self._writing():
            atomic.make_folder(self.folder)
            self._write_json("target.json", target_document(target, plan))
        self._started = True

    def step(self, record: StepRecord) -> None:
        """The step's line, appended now; its screenshot, written once encoded."""
        if not self._started:
            raise RuntimeError("ItemStore.step() before start()")
        self._progress.add(record)
        self._raise_unraised()
        if self.failed is not None:  # the item is ending on the first failure; a late step is not kept
            return
        shot = record.screenshot
        none = not self.policy.writes() or (shot.done() and not shot.data())
        name = "" if none else f"step-{record.step:03d}.{shot.format.extension}"
        with self._writing():
            atomic.append_line(
                self.folder / "steps.jsonl", json.dumps(step_line(record, name), ensure_ascii=False)
            )
        if name:
            written = threading.Event()
            self._writing_steps.append(written)
            shot.when_ready(lambda _: self._write_screenshot(record, self.folder / name, written))
            self._raise_unraised()  # a screenshot encoded already was written at once

    def _write_screenshot(self, record: StepRecord, path: Path, written: threading.Event) -> None:
        """On the encoder's thread: the step's screenshot, at the name its line gave it."""
        try:
            with self._lock:
                if self.failed is not None:
                    return
                try:
                    try:
                        record.screenshot.data()
                    except Exception as exc:  # the encoder failed: the item cannot keep its screenshot
                        raise ArtifactError(path, f"the screenshot could not be encoded: {exc}") from exc
                    place(record.screenshot, path)
                    self._screenshots.append(path)
                except ArtifactError as exc:
                    self.failed = self._unraised = exc
        finally:
            written.set()

    def _raise_unraised(self) -> None:
        unraised = self._take_unraised()
        if unraised is not None:
            raise unraised

    def _take_unraised(self) -> ArtifactError | None:
        with self._lock:
            unraised, self._unraised = self._unraised, None
        return unraised

    def wait_for_steps(self) -> None:
        """Until every step told so far is on disk (or failed)."""
        for written in self._writing_steps:
            written.wait()

    def kept(self) -> None:
        """Until every step told so far is on disk; raises the failure of one that could not be written."""
        self.wait_for_steps()
        self._raise_unraised()

    def finish(self, result: Exploration) -> None:
        """The tree, the exports, the last screen, then the result (`kept()` has raised a step's failure
        before: the result says it). After an earlier failure, what still fits is written and nothing is
        raised (the result already says why it ended); a first failure here is raised, and the result
        written says it."""
        self.wait_for_steps()
        try:
            self._finish(result)
        except ArtifactError as exc:
            first, self.failed = self.failed is None, self.failed or exc
            with suppress(ArtifactError):
                self._write_json("result.json", result_document(result.unkept(exc) if first else result))
            if first:
                raise
        self._raise_unraised()

    def _finish(self, result: Exploration) -> None:
        atomic.make_folder(self.folder)
        atomic.write_text(self.folder / "tree.json", result.tree.to_json())
        if result.reproduction is not None:
            for name, text in exports(result.reproduction, result.target.feature).items():
                atomic.write_text(self.folder / name, text)
        atomic.write_bytes(self.folder / "tree.png", tree_png(result))
        chart = progress_png(self._progress.figures, result)
        if chart:  # else a ChartWarning said why; the verdict stands
            atomic.write_bytes(self.folder / "progress.png", chart)
        keep = self.policy.keeps(passed=result.verdict is Verdict.PASSED)
        final = result.final_screenshot
        if keep and self.policy.writes() and final.data():
            place(final, self.folder / f"final.{final.format.extension}")
        if not keep:  # retain-on-failure, and the item passed: its screenshots served while it ran
            for path in self._screenshots:
                path.unlink(missing_ok=True)
        self._write_json("result.json", result_document(result))  # last: the verdict, once all else is kept

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
