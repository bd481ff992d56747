"""The progress chart: states found, loops escaped, cost and the failed step over the steps, drawn once at
an item's end into its store folder and its Allure page, and never the reason an item ends otherwise."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path

import pytest
from PIL import Image, ImageColor

from pytest_fairy.explore.decisions import Plan, Usage
from pytest_fairy.explore.record import Exploration, StepRecord
from pytest_fairy.explore.target import Target
from pytest_fairy.explore.tree import FeatureTree
from pytest_fairy.explore.verdict import Verdict
from pytest_fairy.report import progress_chart
from pytest_fairy.report.allure import PROGRESS_CHART
from pytest_fairy.report.progress_chart import (
    ChartStyle,
    ChartWarning,
    ProgressTally,
    StepFigures,
    plot,
    progress_png,
    render_progress_png,
)
from pytest_fairy.report.store import ItemStore
from tests.report.conftest import AllureRun

STYLE = ChartStyle()
TARGET = Target(app_name="Shop", package="com.shop", feature="cart", goal="add to cart")


def record(step: int, state: str, reached: str, *, escape: bool = False, cost: float = 0.0) -> StepRecord:
    return StepRecord(
        step=step, state=state, title="", screen_text="", action="tap [1] x", reasoning="", reached=reached,
        escape=escape, usage=Usage(calls=step if cost else 0, cost_usd=cost),
    )  # fmt: skip


def figures(*records: StepRecord) -> tuple[StepFigures, ...]:
    tally = ProgressTally()
    for each in records:
        tally.add(each)
    return tally.figures


# home → menu (new), menu → menu, menu → home (seen), home → cart (new, an escape), cart → pay (new).
WALK = (
    record(1, "home", "menu"),
    record(2, "menu", "menu"),
    record(3, "menu", "home"),
    record(4, "home", "cart", escape=True),
    record(5, "cart", "pay"),
)


def image(data: bytes) -> Image.Image:
    picture = Image.open(io.BytesIO(data))
    assert picture.format == "PNG"
    return picture.convert("RGB")


def pixels_of(picture: Image.Image, colour: str) -> int:
    wanted = ImageColor.getrgb(colour)
    return sum(count for count, rgb in picture.getcolors(maxcolors=1 << 20) or [] if rgb == wanted)


def result(at_step: int | None = None, verdict: Verdict = Verdict.PASSED) -> Exploration:
    return Exploration(
        target=TARGET, verdict=verdict, reason="done", plan=Plan(root="cart"), tree=FeatureTree(), steps=5,
        summary="", at_step=at_step,
    )  # fmt: skip


LONG = tuple(StepFigures(i, 1 + i // 4, i % 9 == 0, i / 1e4) for i in range(1, 301))


@pytest.mark.parametrize(
    "shown",
    [(), figures(WALK[0]), figures(*WALK), LONG],
    ids=["no steps", "one step", "five steps", "300 steps"],
)
@pytest.mark.parametrize("at_step", [None, 0, 1, 400])
def test_the_chart_is_a_small_png_whatever_it_is_given(
    shown: tuple[StepFigures, ...], at_step: int | None
) -> None:
    assert image(render_progress_png(shown, at_step)).size == (800, 300)


def test_the_figures_count_the_screens_seen_so_far_and_carry_escapes_and_cost() -> None:
    walk = figures(*WALK[:4], record(5, "cart", "pay", cost=0.25), record(6, "pay", "pay", cost=math.nan))
    assert [f.states for f in walk] == [2, 2, 2, 3, 4, 4]
    assert [f.escape for f in walk] == [False, False, False, True, False, False]
    assert walk[4].cost_usd == 0.25 and walk[5].cost_usd == 0.0, "a cost that is no number is drawn as none"


def test_the_states_line_rises_exactly_at_the_steps_that_found_a_state() -> None:
    shown = plot(figures(*WALK), at_step=None)
    ys = [y for _, y in shown.states]
    rose = [step for step, (before, after) in enumerate(zip(ys, ys[1:], strict=False), 2) if after < before]
    assert rose == [4, 5]
    assert [x for x, _ in shown.states] == sorted({x for x, _ in shown.states}), "a column per step"
    picture = image(render_progress_png(figures(*WALK), None))
    states = ImageColor.getrgb(STYLE.states)
    (x2, y2), (x3, _), (x4, y4) = shown.states[1:4]
    assert picture.getpixel((round((x2 + x3) / 2), round(y2))) == states, "flat where nothing new was found"
    assert picture.getpixel((round(x4), round((y2 + y4) / 2))) == states, "the rise at step 4"


def test_a_loop_escape_is_a_marker_on_the_states_line_at_its_step() -> None:
    shown = plot(figures(*WALK), at_step=None)
    assert shown.escapes == (shown.states[3],)
    picture = image(render_progress_png(figures(*WALK), None))
    x, y = shown.escapes[0]
    assert picture.getpixel((round(x), round(y))) == ImageColor.getrgb(STYLE.escape)


def test_no_cost_line_nor_cost_axis_when_nothing_was_spent() -> None:
    free = figures(*WALK)
    assert plot(free, None).cost == ()
    assert pixels_of(image(render_progress_png(free, None)), STYLE.cost) == 0


def test_a_cost_line_on_its_own_axis_when_an_llm_was_paid() -> None:
    paid = figures(*(record(r.step, r.state, r.reached, cost=0.01 * r.step) for r in WALK))
    shown = plot(paid, None)
    assert len(shown.cost) == len(paid) and shown.cost_top == pytest.approx(0.05)
    left, top, right, bottom = shown.area
    assert shown.cost[-1][1] == pytest.approx(top) and shown.cost[0][1] < bottom, "scaled to its own axis"
    picture = image(render_progress_png(paid, None))
    (x0, y0), (x1, y1) = shown.cost[:2]
    assert picture.getpixel((round((x0 + x1) / 2), round((y0 + y1) / 2))) == ImageColor.getrgb(STYLE.cost)
    assert pixels_of(picture.crop((right + 1, 0, STYLE.width, STYLE.height)), STYLE.cost) > 0, "its labels"


def test_the_step_a_failure_names_is_a_vertical_line_at_that_step() -> None:
    walk = figures(*WALK)
    shown = plot(walk, at_step=3)
    assert shown.failed_x == shown.states[2][0]
    left, top, right, bottom = shown.area
    picture = image(render_progress_png(walk, 3))
    red = ImageColor.getrgb(STYLE.failed)
    column = [picture.getpixel((round(shown.failed_x), y)) for y in range(top + 20, bottom)]
    assert column.count(red) > 0.8 * len(column), "a line from top to bottom, under the states line"
    elsewhere = picture.crop((round(shown.states[3][0]) + 3, top + 1, right, bottom))
    assert pixels_of(elsewhere, STYLE.failed) == 0
    assert pixels_of(image(render_progress_png(walk, None)), STYLE.failed) == 0, "no failure, no line"
    assert plot(walk, at_step=0).failed_x == left, "a failure on the first screen: before step 1"


def test_the_chart_is_drawn_once_for_all_the_sinks_of_an_item(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[int] = []
    real = render_progress_png

    def counted(shown: tuple[StepFigures, ...], at_step: int | None) -> bytes:
        drawn.append(len(shown))
        return real(shown, at_step)

    monkeypatch.setattr(progress_chart, "render_progress_png", counted)
    monkeypatch.setattr(progress_chart, "_last_drawn", None)
    walk, ended = figures(*WALK), result()
    first = progress_png(walk, ended)
    assert progress_png(figures(*WALK), ended) is first and drawn == [5]
    assert progress_png(walk, result(at_step=2)) != first and drawn == [5, 5]


def test_a_chart_that_cannot_be_drawn_leaves_the_verdict_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(shown: tuple[StepFigures, ...], at_step: int | None) -> bytes:
        raise OSError("cannot open resource")

    monkeypatch.setattr(progress_chart, "render_progress_png", broken)
    monkeypatch.setattr(progress_chart, "_last_drawn", None)
    store = ItemStore(tmp_path / "item")
    store.start(TARGET, Plan(root="cart"))
    for step in WALK[:2]:
        store.step(step)
    with pytest.warns(ChartWarning, match="could not be drawn: OSError"):
        store.finish(result())
    kept = json.loads((tmp_path / "item" / "result.json").read_text(encoding="utf-8"))
    assert kept["verdict"] == "passed"
    assert (tmp_path / "item" / "tree.png").exists() and not (tmp_path / "item" / "progress.png").exists()


# -- a real run: the store and Allure ------------------------------------------------------------------------


def test_every_item_of_a_run_has_its_chart_in_its_folder_and_on_its_allure_page(
    allure_run: AllureRun,
) -> None:
    items = [p for p in (allure_run.results.parent / "fairy" / "sessions").glob("*/*") if p.is_dir()]
    assert len(items) == len(allure_run.by_name()) >= 6
    for item in items:
        assert image((item / "progress.png").read_bytes()).size == (800, 300), item.name
    for name, test in allure_run.by_name().items():
        (chart,) = [a for a in test["attachments"] if a["name"] == PROGRESS_CHART]
        assert chart["type"] == "image/png", name
        picture = image((allure_run.results / chart["source"]).read_bytes())
        states = pixels_of(picture, STYLE.states)
        assert picture.size == (800, 300) and states > 100, name
        failed = pixels_of(picture, STYLE.failed)
        # A failure's step is a red line (with its label and legend); other items have no red at all.
        assert (failed > 200) if test["status"] == "failed" else (failed == 0), name
