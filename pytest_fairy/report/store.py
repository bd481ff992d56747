"""The session store: every step written to disk as it happens, so a killed run leaves what it saw.

Layout under the artifacts folder (default `.fairy/`):

    sessions/index.jsonl                      one line per session: id, start time, device, brain
    sessions/<session>/<item>/steps.jsonl     one line per step, appended and flushed as it happens
    sessions/<session>/<item>/step-NNN.png    the step's Set-of-Mark screenshot
    sessions/<session>/<item>/result.json     the verdict, reason, figures and summary
    sessions/<session>/<item>/tree.json|.png  the feature tree discovered
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import asdict
from pathlib import Path
from typing import IO, Any

from pytest_fairy.explore.decisions import Plan
from pytest_fairy.explore.record import Exploration, StepRecord
from pytest_fairy.explore.target import Target
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
        """Create the session folder and add it to the index. Safe to call from every xdist worker."""
        self.folder.mkdir(parents=True, exist_ok=True)
        marker = self.folder / ".indexed"
        try:
            marker.touch(exist_ok=False)
        except FileExistsError:
            return
        line = json.dumps({"session": self.session_id, "started": time.time(), **facts}, ensure_ascii=False)
        # One short append per session: O_APPEND writes of a line are not interleaved by other writers.
        with (self.root / "sessions" / "index.jsonl").open("a", encoding="utf-8") as index:
            index.write(line + "\n")

    def item(self, item_id: str) -> ItemStore:
        return ItemStore(self.folder / slug(item_id))


class ItemStore:
    """The StepSink that keeps one item's steps on disk."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._steps: IO[str] | None = None

    def start(self, target: Target, plan: Plan) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self._write_json("target.json", {"target": _plain(asdict(target)), "plan": _plain(asdict(plan))})
        self._steps = (self.folder / "steps.jsonl").open("a", encoding="utf-8")

    def step(self, record: StepRecord) -> None:
        if self._steps is None:
            raise RuntimeError("ItemStore.step() before start()")
        screenshot = self.folder / f"step-{record.step:03d}.png"
        screenshot.write_bytes(record.som_png)
        fields = {k: v for k, v in asdict(record).items() if k != "som_png"}
        fields["screenshot"] = screenshot.name
        self._steps.write(json.dumps(_plain(fields), ensure_ascii=False) + "\n")
        self._steps.flush()

    def finish(self, result: Exploration) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        if self._steps is not None:
            self._steps.close()
            self._steps = None
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
        (self.folder / "tree.json").write_text(result.tree.to_json(), encoding="utf-8")
        (self.folder / "tree.png").write_bytes(tree_png(result))
        if result.final_png:
            (self.folder / "final.png").write_bytes(result.final_png)

    def _write_json(self, name: str, data: dict[str, Any]) -> None:
        (self.folder / name).write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")


def _plain(value: Any) -> Any:
    """JSON-friendly copies of tuples, sets and enums inside dataclass dumps."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        items = [_plain(v) for v in value]
        return sorted(items) if isinstance(value, set | frozenset) else items
    return value
