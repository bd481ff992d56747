"""A small chart of an exploration over its steps, for the item's report page and folder: states found so far
(a line), loops escaped (markers on it), the cost so far with an LLM brain (a line with its own axis) and the
step a failure names (a vertical line). Sinks keep a few numbers per step as the steps go (`ProgressTally`,
never a screenshot); the chart is drawn once, when the item ends, with Pillow in the tree picture's colours.
"""

from __future__ import annotations

import io
import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from pytest_fairy.errors import FairyWarning
from pytest_fairy.explore.record import Exploration, StepRecord
from pytest_fairy.perception.fonts import FontType, font

Point = tuple[float, float]


class ChartWarning(FairyWarning):
    """The progress chart could not be drawn: the item keeps its verdict, its report has no chart."""


@dataclass(frozen=True, slots=True)
class StepFigures:
    """What the chart shows of one step."""

    step: int
    states: int  # distinct screens seen up to this step's outcome, the first screen included
    escape: bool  # the step was the loop guard's escape
    cost_usd: float  # spent so far


class ProgressTally:
    """The chart's figures, added as each step is told to a sink."""

    def __init__(self) -> None:
        self._seen: set[str] = set()
        self._rows: list[StepFigures] = []

    def add(self, record: StepRecord) -> None:
        self._seen.update(name for name in (record.state, record.reached) if name)
        cost = record.usage.cost_usd
        self._rows.append(
            StepFigures(record.step, len(self._seen), record.escape, cost if math.isfinite(cost) else 0.0)
        )

    @property
    def figures(self) -> tuple[StepFigures, ...]:
        return tuple(self._rows)


@dataclass(frozen=True, slots=True)
class ChartStyle:
    width: int = 800
    height: int = 300
    # The plot area's distance from each side: room for the title, legend and axis labels.
    left: int = 52
    right: int = 78
    top: int = 64
    bottom: int = 34
    title_size: int = 15
    font_size: int = 12
    states: str = "#1a73e8"
    escape: str = "#e8710a"
    cost: str = "#188038"
    failed: str = "#d93025"
    grid: str = "#eceff1"
    axis: str = "#9aa0a6"
    text: str = "#202124"


@dataclass(frozen=True, slots=True)
class Plot:
    """The chart in pixels: what `render_progress_png` draws, and what its tests check."""

    area: tuple[int, int, int, int]  # left, top, right, bottom
    states_top: int  # the value at the top of the states axis
    states: tuple[Point, ...]  # a point per step; drawn as steps: a rise at the step that found a state
    escapes: tuple[Point, ...]
    cost_top: float  # 0.0: no cost line and no cost axis
    cost: tuple[Point, ...]
    failed_x: float | None
    x_ticks: tuple[tuple[int, float], ...]  # (step, x) of the labelled steps
    y_ticks: tuple[tuple[int, float], ...]  # (states, y) of the labelled counts


def plot(figures: Sequence[StepFigures], at_step: int | None, style: ChartStyle | None = None) -> Plot:
    style = style or ChartStyle()
    left, top, right, bottom = style.left, style.top, style.width - style.right, style.height - style.bottom
    last = max([1, *(f.step for f in figures)])
    most = max([1, *(f.states for f in figures)])
    stride = _stride(most, 5)
    states_top = stride * math.ceil(most / stride)
    cost_top = max([0.0, *(f.cost_usd for f in figures)])
    x_stride = _stride(last, 10)

    def x(step: int) -> float:
        if step < 1:  # a failure on the first screen, before any step
            return float(left)
        at = left + (right - left) * (step - 1) / (last - 1) if last > 1 else (left + right) / 2
        return min(max(at, left), right)

    def y(value: float, scale: float) -> float:
        return bottom - (bottom - top) * value / scale

    return Plot(
        area=(left, top, right, bottom),
        states_top=states_top,
        states=tuple((x(f.step), y(f.states, states_top)) for f in figures),
        escapes=tuple((x(f.step), y(f.states, states_top)) for f in figures if f.escape),
        cost_top=cost_top,
        cost=tuple((x(f.step), y(f.cost_usd, cost_top)) for f in figures) if cost_top > 0 else (),
        failed_x=x(at_step) if at_step is not None else None,
        x_ticks=tuple((step, x(step)) for step in sorted({1, *range(x_stride, last + 1, x_stride)})),
        y_ticks=tuple((value, y(value, states_top)) for value in range(0, states_top + 1, stride)),
    )


def render_progress_png(
    figures: Sequence[StepFigures], at_step: int | None, style: ChartStyle | None = None
) -> bytes:
    """The chart of `figures`; `at_step`: the step a failed verdict names (0: the first screen), else None."""
    style = style or ChartStyle()
    shown = plot(figures, at_step, style)
    left, top, right, bottom = shown.area
    image = Image.new("RGB", (style.width, style.height), "white")
    draw = ImageDraw.Draw(image)
    small = font(style.font_size)
    draw.text((left, 8), _title(figures), fill=style.text, font=font(style.title_size))
    _legend(draw, shown, style, (left, 34))
    _label(draw, (8, top - 20), "states", style.text, small)
    for value, at in shown.y_ticks:
        draw.line([(left, at), (right, at)], fill=style.grid)
        _label(draw, (left - 6, at - 7), str(value), style.text, small, align=1.0)
    if shown.cost:
        _label(draw, (right + 6, top - 20), "cost USD", style.cost, small)
        for share in (0.0, 0.5, 1.0):
            at = bottom - (bottom - top) * share
            _label(draw, (right + 6, at - 7), _dollars(shown.cost_top * share), style.cost, small)
    for step, at in shown.x_ticks:
        draw.line([(at, bottom), (at, bottom + 4)], fill=style.axis)
        _label(draw, (at, bottom + 6), str(step), style.text, small, align=0.5)
    _label(draw, (right, bottom + 18), "step", style.text, small, align=1.0)
    draw.rectangle((left, top, right, bottom), outline=style.axis)
    if shown.failed_x is not None:
        draw.line([(shown.failed_x, top), (shown.failed_x, bottom)], fill=style.failed, width=2)
        label = "failed on the first screen" if (at_step or 0) < 1 else f"failed at step {at_step}"
        width = draw.textlength(label, font=small)
        lx = shown.failed_x + 5 if shown.failed_x + 5 + width < right else shown.failed_x - 5 - width
        draw.text((lx, top + 3), label, fill=style.failed, font=small)
    if shown.cost:
        _line(draw, list(shown.cost), style.cost, 2)
    if shown.states:
        stairs = [shown.states[0]]
        for (_, y0), (x1, y1) in zip(shown.states, shown.states[1:], strict=False):
            stairs += [(x1, y0), (x1, y1)]
        _line(draw, stairs, style.states, 3)
    for cx, cy in shown.escapes:
        draw.ellipse((cx - 5, cy - 5, cx + 5, cy + 5), fill=style.escape, outline="white")
    if not figures:
        _label(draw, ((left + right) / 2, (top + bottom) / 2 - 7), "no steps taken", style.text, small, 0.5)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False)
    return buffer.getvalue()


def progress_png(figures: Sequence[StepFigures], result: Exploration) -> bytes:
    """The chart of an item, drawn once however many sinks (store, Allure) want it: they are handed the same
    figures and result one after the other.

    b"" when it could not be drawn, with a `ChartWarning` saying why: the chart is a reading aid, and the
    exploration it shows has its verdict already; its drawing must never change that verdict."""
    global _last_drawn
    key = (tuple(figures), result.at_step)
    if _last_drawn is None or _last_drawn[0] != key:
        try:
            drawn = render_progress_png(key[0], result.at_step)
        except Exception as exc:  # whatever failed in the drawing, the item's own outcome stands
            warnings.warn(ChartWarning(f"the progress chart could not be drawn: {exc!r}"), stacklevel=2)
            drawn = b""
        _last_drawn = (key, drawn)
    return _last_drawn[1]


_last_drawn: tuple[tuple[tuple[StepFigures, ...], int | None], bytes] | None = None


def _title(figures: Sequence[StepFigures]) -> str:
    if not figures:
        return "progress over the steps"
    last = figures[-1]
    escaped = _count(sum(f.escape for f in figures), "loop") + " escaped"
    cost = f" · {_dollars(last.cost_usd)}" if last.cost_usd > 0 else ""
    return f"{_count(last.step, 'step')} · {_count(last.states, 'state')} · {escaped}{cost}"


def _legend(draw: ImageDraw.ImageDraw, shown: Plot, style: ChartStyle, at: Point) -> None:
    small = font(style.font_size)
    x, y = at
    line, dot, bar = (0, 6, 18, 8), (4, 2, 14, 12), (8, 0, 10, 14)
    entries = [("states found", style.states, line), ("loop escaped", style.escape, dot)]
    if shown.cost:
        entries.append(("cost so far (right axis)", style.cost, line))
    if shown.failed_x is not None:
        entries.append(("the step the failure names", style.failed, bar))
    for label, colour, (x0, y0, x1, y1) in entries:
        shape = draw.ellipse if (x0, y0, x1, y1) == dot else draw.rectangle
        shape((x + x0, y + y0, x + x1, y + y1), fill=colour)
        draw.text((x + 24, y), label, fill=style.text, font=small)
        x += 24 + draw.textlength(label, font=small) + 18


def _label(
    draw: ImageDraw.ImageDraw, at: Point, text: str, colour: str, face: FontType, align: float = 0.0
) -> None:
    """`text` at `at`, which is its left end (`align` 0), middle (0.5) or right end (1)."""
    x, y = at
    draw.text((x - align * draw.textlength(text, font=face), y), text, fill=colour, font=face)


def _line(draw: ImageDraw.ImageDraw, points: list[Point], colour: str, width: int) -> None:
    if len(points) == 1:  # one step: a dot, as a line of one point would not show
        (cx, cy), r = points[0], width + 1
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour)
    else:
        draw.line(points, fill=colour, width=width, joint="curve")


def _stride(top: int, marks: int) -> int:
    """A round distance between axis labels (1, 2, 5, 10, 20, ...), so that `top` gets at most `marks`."""
    base = 1
    while True:
        for factor in (1, 2, 5):
            if top / (base * factor) <= marks:
                return base * factor
        base *= 10


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _dollars(value: float) -> str:
    return f"${value:.4f}" if value < 1 else f"${value:.2f}"
