"""The real-screens corpus: public uiautomator dumps of real apps (dumps/, sources in SOURCES.md) and what a
person sees on each (expected.yaml, written by reading the dumps, not from pytest_fairy's rules).

`measure()` holds perception against it: which of the actionable elements a person sees got a mark, and
whether a real dialog, sheet, popup or shade is recognised as modal (and nothing else is). A mark covers an
expected element when their boxes overlap by half (IoU >= 0.5), or when each one's centre lies inside
the other (a row marked where its only clickable child was expected, and the other way round).

The corpus has two splits: the held-out dumps listed in heldout.txt, scored only by the benchmark and by a
threshold test and never used to tune perception rules, and the tuned split (all the others), whose misses
are the ones to look at when changing a rule. `summarise()` gives the figures of any set of measured dumps.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from pytest_fairy.perception.layers import LayerKind
from pytest_fairy.perception.screen import Screen, build_screen

HERE = Path(__file__).resolve().parent
DUMPS = HERE / "dumps"
HELD_OUT = HERE / "heldout.txt"
MODAL_SURFACES = frozenset({"dialog", "sheet", "popup", "shade"})
_BOX = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")
# how a note says the dump holds the modal's window alone, nothing behind it
_ALONE = re.compile(r"window only|window alone|-only dump")
Box = tuple[int, int, int, int]


@cache
def expected() -> dict[str, Any]:
    return dict(yaml.safe_load((HERE / "expected.yaml").read_text(encoding="utf-8")))


def box(text: str) -> Box:
    found = _BOX.fullmatch(text.strip())
    assert found, text
    left, top, right, bottom = map(int, found.groups())
    return left, top, right, bottom


def _iou(a: Box, b: Box) -> float:
    inter = max(0, min(a[2], b[2]) - max(a[0], b[0])) * max(0, min(a[3], b[3]) - max(a[1], b[1]))
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def _centre_in(a: Box, b: Box) -> bool:
    x, y = (a[0] + a[2]) / 2, (a[1] + a[3]) / 2
    return b[0] <= x <= b[2] and b[1] <= y <= b[3]


def covers(mark: Box, element: Box) -> bool:
    return _iou(mark, element) >= 0.5 or (_centre_in(mark, element) and _centre_in(element, mark))


@dataclass(frozen=True)
class Measured:
    name: str
    expected: int  # actionable elements a person sees
    found: int  # of those, the ones a mark covers
    marks: int
    marks_on_expected: int  # marks that cover an expected element
    modal: str  # what the person sees in front: none, dialog, sheet, popup, shade
    window_only: bool  # a dump of the modal's window alone: nothing behind it to tell it from
    has_dialog: bool  # what perception says

    @property
    def recall(self) -> float:
        return self.found / self.expected if self.expected else 1.0

    @property
    def modal_ok(self) -> bool:
        if self.modal == "none":
            return not self.has_dialog
        return self.window_only or self.has_dialog


def screen_of(name: str) -> Screen:
    return build_screen((DUMPS / name).read_bytes().decode("utf-8"))


@cache
def measure(name: str) -> Measured:
    entry = expected()[name]
    screen = screen_of(name)
    marks = [(m.bounds.left, m.bounds.top, m.bounds.right, m.bounds.bottom) for m in screen.marks]
    wanted = [box(item["bounds"]) for item in entry.get("actionable") or []]
    return Measured(
        name=name,
        expected=len(wanted),
        found=sum(1 for element in wanted if any(covers(m, element) for m in marks)),
        marks=len(marks),
        marks_on_expected=sum(1 for m in marks if any(covers(m, element) for element in wanted)),
        modal=entry["modal"],
        window_only=entry["modal"] in MODAL_SURFACES and bool(_ALONE.search(entry.get("note") or "")),
        # The corpus's modal surfaces are dialogs, sheets, popups and shades; an open drawer is none of them
        # (expected.yaml's header), though perception takes it as modal too.
        has_dialog=any(layer.kind is not LayerKind.DRAWER for layer in screen.dialog_layers),
    )


def names() -> list[str]:
    return sorted(expected())


@cache
def heldout_names() -> list[str]:
    """The held-out split: scored, never tuned on."""
    lines = HELD_OUT.read_text(encoding="utf-8").splitlines()
    return sorted(line.strip() for line in lines if line.strip() and not line.startswith("#"))


def tuned_names() -> list[str]:
    """The tuned split: every dump not held out."""
    held = set(heldout_names())
    return [name for name in names() if name not in held]


SPLITS = {"whole": names, "tuned": tuned_names, "held-out": heldout_names}


@dataclass(frozen=True)
class Summary:
    dumps: int
    found: int
    expected: int
    marks: int
    marks_on_expected: int
    lowest_recall: float
    lowest_dump: str
    alone: int  # modal surfaces dumped as their window alone
    alone_recognised: int  # of those, the ones perception takes for a dialog
    modal: int  # modal surfaces dumped with what is behind them
    modal_recognised: int
    false_modal: tuple[str, ...]  # screens with nothing in front taken for a dialog

    @property
    def recall(self) -> float:
        return self.found / self.expected if self.expected else 1.0

    @property
    def precision(self) -> float:
        """Marks covering an expected element, over all marks."""
        return self.marks_on_expected / self.marks if self.marks else 1.0


def summarise(measured: list[Measured]) -> Summary:
    lowest = min(measured, key=lambda m: (m.recall, m.name))
    alone = [m for m in measured if m.modal in MODAL_SURFACES and m.window_only]
    modal = [m for m in measured if m.modal in MODAL_SURFACES and not m.window_only]
    return Summary(
        dumps=len(measured),
        found=sum(m.found for m in measured),
        expected=sum(m.expected for m in measured),
        marks=sum(m.marks for m in measured),
        marks_on_expected=sum(m.marks_on_expected for m in measured),
        lowest_recall=lowest.recall,
        lowest_dump=lowest.name,
        alone=len(alone),
        alone_recognised=sum(m.has_dialog for m in alone),
        modal=len(modal),
        modal_recognised=sum(m.has_dialog for m in modal),
        false_modal=tuple(m.name for m in measured if m.modal == "none" and m.has_dialog),
    )
