"""The keyboard hides only what it draws: an input method's window may reach far over the app while it
draws its keys, or only a toolbar, and taps elsewhere in its window reach the app.

Real dumps in dumps/ (sources in dumps/SOURCES.md): Gboard's stylus toolbar, whose window spans
[0,900][1080,2400] while it draws a column [21,900][169,1590] (the boxes below are read from the dumps),
and a docked Gboard filling its window. Built small too, so each test fails when its rule is deleted."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_fairy.perception.actionable import actionable
from pytest_fairy.perception.hierarchy import Bounds
from pytest_fairy.perception.layers import LayerKind as K
from pytest_fairy.perception.marks import one_mark_per_control
from pytest_fairy.perception.screen import Screen, build_screen

from .builder import IME_PKG, NAV_TOP, V, W, dump, menu_window, nav_bar, status_bar, v

DUMPS = Path(__file__).parent / "dumps"
STYLUS_DUMPS = (
    "keyboard__adipec_search_results_stylus_toolbar.xml",
    "keyboard__adipec_search_stylus_toolbar.xml",
    "keyboard__adipec_search_tabs_stylus_toolbar.xml",
)
STYLUS_WINDOW = Bounds(0, 900, 1080, 2400)
STYLUS_TOOLBAR = Bounds(21, 900, 169, 1590)


def screen_of(name: str) -> Screen:
    return build_screen((DUMPS / name).read_bytes().decode("utf-8"))


def app_views_under(screen: Screen, box: Bounds) -> list[tuple[str, bool]]:
    """The app's controls (actionable views that are a control of their own: `one_mark_per_control`)
    whose centre lies in `box`, each with whether it has a mark."""
    layer = screen.app_layer
    assert layer is not None
    marked = {id(mark.node) for mark in screen.marks}
    controls = {id(n) for n in one_mark_per_control(layer, [n for n in layer.nodes() if actionable(n)])}
    return [
        (f"{node.short_id or node.short_class} {node.bounds}", id(node) in marked)
        for node in layer.nodes()
        if id(node) in controls and box.contains(*node.bounds.center)
    ]


@pytest.mark.parametrize("name", STYLUS_DUMPS)
def test_the_app_under_the_keyboards_window_but_not_its_toolbar_keeps_its_marks(name: str) -> None:
    screen = screen_of(name)
    keyboard = next(layer for layer in screen.layers if layer.kind is K.KEYBOARD)
    assert keyboard.bounds == STYLUS_WINDOW
    beside = [(view, marked) for view, marked in app_views_under(screen, STYLUS_WINDOW)
              if not STYLUS_TOOLBAR.contains(*Bounds.parse(view.split(" ")[-1]).center)]
    assert beside, "the dump has app views under the keyboard's window, beside its toolbar"
    assert [view for view, marked in beside if not marked] == []


@pytest.mark.parametrize("name", STYLUS_DUMPS[:2])
def test_the_app_under_the_keyboards_toolbar_has_no_mark(name: str) -> None:
    under = app_views_under(screen_of(name), STYLUS_TOOLBAR)
    # The favourite switches at the rows' left edge, from [8,999][92,1083] down.
    assert len(under) == 4
    assert [view for view, marked in under if marked] == []


def test_a_docked_keyboard_hides_all_of_its_window() -> None:
    screen = screen_of("keyboard__avito_search_gboard.xml")
    keyboard = next(layer for layer in screen.layers if layer.kind is K.KEYBOARD)
    assert keyboard.bounds == Bounds(0, 1167, 1080, 1920)
    assert screen.marks and not [m for m in screen.marks if keyboard.bounds.contains(*m.center)]


def floating_toolbar(top: int) -> V:
    """An input method's window from `top` down that draws one button column at its right edge, inside
    window-sized wrappers (Gboard's stylus toolbar, on the other side)."""
    column = v("LinearLayout", (880, top, 1060, top + 600),
               v("ImageView", (890, top + 10, 1050, top + 130), desc="Use voice typing", pkg=IME_PKG,
                 clickable=True), pkg=IME_PKG)
    inner = v("FrameLayout", (0, top, 1060, NAV_TOP), column, pkg=IME_PKG)
    return v("FrameLayout", (0, top, W, NAV_TOP), v("FrameLayout", (0, top, W, NAV_TOP), inner, pkg=IME_PKG),
             pkg=IME_PKG)


def test_a_keyboard_window_hides_only_the_views_it_draws_over() -> None:
    plain = build_screen(dump(status_bar(), menu_window(), nav_bar()))
    screen = build_screen(dump(status_bar(), menu_window(), nav_bar(), floating_toolbar(1500)))
    under = [m.ref for m in plain.marks if 880 <= m.center[0] < 1060 and 1500 <= m.center[1] < 2100]
    assert len(under) == 3, "the menu's add buttons under the toolbar column"
    beside = [m.ref for m in plain.marks if m.ref not in under]
    assert any(m.center[1] >= 1500 for m in plain.marks if m.ref in beside), "rows under the window"
    assert [m.ref for m in screen.marks if m.layer is K.APP] == beside
