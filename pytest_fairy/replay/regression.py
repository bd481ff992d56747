"""The build-to-build gate: each item's feature tree against its baseline, reported and enforced.

With `--fairy-baseline DIR` (a previous run's session folder, or a committed copy: `<item>/tree.json`
and, for crash comparison, `<item>/result.json`), every item's tree is diffed with its baseline's
(treediff.py). The diff is written beside the item's steps (`diff.json`, `diff.png`), attached to Allure
as a picture and JSON, and printed in the terminal summary. With `must_not: [lose_screens]` in the
spec, or `--fairy-fail-on-lost-screens`, screens of the baseline that are gone fail the item.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from pytest_fairy.errors import UsageError
from pytest_fairy.explore.oracles import Finding
from pytest_fairy.explore.record import Exploration
from pytest_fairy.explore.tree import FeatureTree, TreeError
from pytest_fairy.explore.verdict import Verdict
from pytest_fairy.replay.settings import ReplaySettings
from pytest_fairy.report import atomic
from pytest_fairy.report.store import item_folder_name, slug
from pytest_fairy.report.store_format import FormatError, findings_of
from pytest_fairy.report.treediff import TreeDiff, diff_trees, render_diff_png

DIFF_PROPERTY = "fairy-diff"
LOST_SCREENS = "lose_screens"
CRASH_KINDS = frozenset({"crash", "anr"})
LOST_NAMED = 8  # gone screens named in the failure message; the diff has them all
_DIGITS = re.compile(r"\d+")


class BaselineError(UsageError):
    """A baseline that is there but cannot be read."""


@dataclass(frozen=True)
class Baseline:
    tree: FeatureTree
    crashes: tuple[str, ...]
    folder: Path


def crash_signatures(findings: Iterable[Finding]) -> tuple[str, ...]:
    """Crash / ANR findings as comparable lines: pids, counters and times do not make a crash new."""
    return tuple(f"{f.kind}: {_DIGITS.sub('#', f.message)}" for f in findings if f.kind in CRASH_KINDS)


def load_baseline(root: Path, item_id: str, *, package: str = "", feature: str = "") -> Baseline | None:
    """The baseline of one item (None when the baseline run did not have it). It is found by the item's
    id; else, since an id depends on where pytest was started (its rootdir), by the app's package and the
    feature's name, when exactly one item of the baseline ran that feature. A session written before item
    folders carried a digest names them by the safe id alone."""
    folder = root / item_folder_name(item_id)
    if not folder.is_dir():
        folder = root / slug(item_id)
    if not folder.is_dir() and package and feature:
        folder = _folder_of_feature(root, package, feature) or folder
    tree_file = folder / "tree.json"
    if not tree_file.is_file():
        return None
    try:
        tree = FeatureTree.from_json(tree_file.read_text(encoding="utf-8"))
    except (OSError, TreeError) as exc:
        raise BaselineError(f"baseline {tree_file}: {exc}") from exc
    crashes: tuple[str, ...] = ()
    result_file = folder / "result.json"
    if result_file.is_file():
        try:
            crashes = crash_signatures(findings_of(json.loads(result_file.read_text(encoding="utf-8"))))
        except (OSError, ValueError, AttributeError, FormatError) as exc:
            raise BaselineError(f"baseline {result_file}: unreadable findings: {exc}") from exc
    return Baseline(tree, crashes, folder)


def _folder_of_feature(root: Path, package: str, feature: str) -> Path | None:
    """The one item folder of `root` whose target.json names this app and feature (None: none, or two)."""
    found = []
    for target_file in root.glob("*/target.json"):
        try:
            target = json.loads(target_file.read_text(encoding="utf-8")).get("target", {})
        except (OSError, ValueError, AttributeError):
            continue  # not an item folder this version can read: it names no feature
        if isinstance(target, dict) and (target.get("package"), target.get("feature")) == (package, feature):
            found.append(target_file.parent)
    return found[0] if len(found) == 1 else None


def review(
    item: pytest.Item,
    result: Exploration,
    settings: ReplaySettings,
    folder: Path,
    *,
    lose_screens: bool = False,
    allure: bool = False,
) -> Exploration:
    """Diff `result` with the item's baseline (if one is configured); fail it on lost screens if asked."""
    if settings.baseline is None:
        return result
    gated = lose_screens or settings.fail_on_lost_screens
    try:
        baseline = load_baseline(
            settings.baseline, item.nodeid, package=result.target.package, feature=result.target.feature
        )
    except BaselineError as exc:
        item.user_properties.append((DIFF_PROPERTY, f"baseline unreadable: {exc}"))
        return _ungated(result, f"baseline unreadable: {exc}") if gated else result
    if baseline is None:
        missing = f"no baseline for this item in {settings.baseline}"
        item.user_properties.append((DIFF_PROPERTY, missing))
        return _ungated(result, missing) if gated else result
    diff = diff_trees(
        baseline.tree,
        result.tree,
        baseline_crashes=baseline.crashes,
        current_crashes=crash_signatures(result.findings),
    )
    picture = render_diff_png(diff, baseline.tree, result.tree)
    atomic.make_folder(folder)
    document = json.dumps(diff.to_dict() | {"baseline": str(baseline.folder)}, ensure_ascii=False, indent=2)
    atomic.write_text(folder / "diff.json", document)  # whole or not at all; a full disk: inconclusive
    atomic.write_bytes(folder / "diff.png", picture)
    if allure:
        _attach(picture, document)
    item.user_properties.append((DIFF_PROPERTY, "\n".join(diff.lines())))
    if (lose_screens or settings.fail_on_lost_screens) and diff.gone:
        return _lost(result, diff)
    return result


def _ungated(result: Exploration, why: str) -> Exploration:
    """The lost-screens gate could not look: a pass is not a pass (fail closed); a defect stays one."""
    if result.verdict is not Verdict.PASSED:
        return result
    reason = f"the lost-screens gate could not check: {why}"
    return replace(result, verdict=Verdict.INCONCLUSIVE, reason=reason)


def _lost(result: Exploration, diff: TreeDiff) -> Exploration:
    """Lost screens fail the item; an inconclusive run stays inconclusive (it may just not have got there)."""
    names = ", ".join(str(s) for s in diff.gone[:LOST_NAMED])
    more = f" and {len(diff.gone) - LOST_NAMED} more" if len(diff.gone) > LOST_NAMED else ""
    finding = Finding(LOST_SCREENS, f"{len(diff.gone)} screens of the baseline are gone: {names}{more}",
                      "\n".join(diff.lines()))  # fmt: skip
    if result.verdict is Verdict.INCONCLUSIVE:
        return replace(result, findings=(*result.findings, finding))
    reason = finding.message if result.verdict is Verdict.PASSED else f"{result.reason}; {finding.message}"
    return replace(result, verdict=Verdict.FAILED, reason=reason, findings=(*result.findings, finding))


def _attach(picture: bytes, document: str) -> None:
    import allure
    from allure_commons.types import AttachmentType

    allure.attach(picture, name="build-to-build diff", attachment_type=AttachmentType.PNG)
    allure.attach(document, name="build-to-build diff (json)", attachment_type=AttachmentType.JSON)


def write_diff_summary(terminalreporter: Any) -> None:
    """The terminal summary's diff section: one block per item that was compared with a baseline."""
    blocks: list[tuple[str, str]] = []
    for reports in terminalreporter.stats.values():
        for report in reports:
            if getattr(report, "when", "") != "call":
                continue
            for name, value in getattr(report, "user_properties", ()):
                if name == DIFF_PROPERTY:
                    blocks.append((report.nodeid, value))
    if not blocks:
        return
    terminalreporter.write_sep("-", "fairy build-to-build diff")
    for nodeid, text in sorted(blocks):
        first, *rest = text.splitlines()
        terminalreporter.write_line(f"{nodeid}: {first}")
        for line in rest:
            terminalreporter.write_line(line)
