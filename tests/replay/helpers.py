"""Helpers for replay and regression tests: the food spec, a changed build of its app, and a Claude
stand-in that answers the way a model would, from the screen it is sent (stateless, so several xdist
workers can share it)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pytest_fairy.replay.cache import DecisionCache, read_version
from tests.claude import answers
from tests.claude.fake_api import Reply, tool_reply
from tests.claude.stages import stage_of
from tests.specs import DELIVERY_TIME, FOOD_APP_BLOCK

ROOT = Path(__file__).resolve().parents[2]
FOOD_APP = ROOT / "example_suites" / "food" / "app.yaml"
FAKE_KEY = "sk-ant-test-replay-0000"

DELIVERY_SPEC = FOOD_APP_BLOCK + DELIVERY_TIME + "    must_not: [{must_not}]\n"

# The delivery-time dialog with one more line of text: a new build where exactly that screen changed.
DIALOG_HEAD = (
    "    title: 请选择您的送达时间\n    dismiss_on_outside: false\n    cancelable: false\n    elements:\n"
)
NOTICE = "      - {class: TextView, id: tv_peak_notice, text: 高峰时段送达可能延迟}\n"


def spec(must_not: str = "crash") -> str:
    return DELIVERY_SPEC.replace("{must_not}", must_not)


def change_the_dialog(project: pytest.Pytester) -> None:
    path = project.path / "food" / "app.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count(DIALOG_HEAD) == 1, "the food app's delivery_time dialog is not where it was"
    path.write_text(text.replace(DIALOG_HEAD, DIALOG_HEAD + NOTICE), encoding="utf-8")


def screen_text(request: dict[str, Any]) -> str:
    content = request["messages"][-1]["content"]
    return "\n".join(block["text"] for block in content if block.get("type") == "text")


def mark_of(screen: str, label: str, suffix: str = "") -> int | None:
    found = re.search(r"^\s*\[(\d+)\] \w+ \"" + re.escape(label) + '"' + re.escape(suffix), screen, re.M)
    return int(found.group(1)) if found else None


def delivery_time_model(request: dict[str, Any]) -> Reply:
    """Choose 预约送餐 in the dialog, confirm it; get to the dialog from home through 麦乐送."""
    stage = stage_of(request)
    if stage in ("plan", "judge"):
        return tool_reply(stage, answers.PLAN if stage == "plan" else answers.JUDGE)
    if stage == "summarize":
        return tool_reply("summarize", answers.SUMMARY)
    screen = screen_text(request)
    for label, suffix in (("预约送餐", " unchecked"), ("确定", ""), ("麦乐送", "")):
        mark = mark_of(screen, label, suffix)
        if mark is not None:
            return tool_reply("next_action", answers.action(mark=mark, why=f"tap {label}"))
    return tool_reply("next_action", answers.action(kind="done", mark=None))


def sessions(project: pytest.Pytester) -> list[Path]:
    """Session folders in the order the runs started (the index's order: two runs may share a second)."""
    root = project.path / ".fairy" / "sessions"
    lines = (root / "index.jsonl").read_text(encoding="utf-8").splitlines()
    return [root / json.loads(line)["session"] for line in lines]


def recordings(project: pytest.Pytester) -> list[Path]:
    """The version of each item's recording a load replays (the newest readable), in item order."""
    return newest_versions(project.path / ".fairy" / "cache")


def newest_versions(root: Path) -> list[Path]:
    newest = []
    for folder in sorted({path.parent for path in root.rglob("*.json")}):
        versions = [read_version(path) for path in folder.glob("*.json")]
        readable = sorted((v for v in versions if v.recording is not None), key=lambda v: v.order)
        newest.append(readable[-1].path)
    return newest


def newest_file(cache: DecisionCache, spec: str, feature: str) -> Path:
    """The file of the version a load of this item replays."""
    readable = [v for v in cache.versions(spec, feature) if v.recording is not None]
    return readable[-1].path


def edit_newest(
    cache: DecisionCache, spec: str, feature: str, change: Callable[[dict[str, Any]], None]
) -> Path:
    """Edit the item's newest version by hand, in place (its name then no longer is its content's digest,
    which a load does not mind)."""
    path = newest_file(cache, spec, feature)
    document = json.loads(path.read_text(encoding="utf-8"))
    change(document)
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    return path


def stages(bodies: list[dict[str, Any]]) -> list[str]:
    return [stage_of(body) for body in bodies]


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))
