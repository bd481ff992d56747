"""Bounds are clipped to the screen where the dump is read: marks, tap points, text, state and drawing
see only on-screen bounds; a node wholly off screen (or empty once clipped) is not visible."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from pytest_fairy.explore.state import identify
from pytest_fairy.perception.hierarchy import Bounds, parse_hierarchy
from pytest_fairy.perception.layers import LayerKind
from pytest_fairy.perception.screen import build_screen
from pytest_fairy.perception.som import LAYER_COLOURS, render_som

from .builder import PKG, H, V, W, decor, dump, nav_bar, status_bar, v

ABSURD = (-500, -500, 99999999, 99999999)
GREY = (200, 200, 200)


def screen_with(*content: V) -> str:
    return dump(status_bar(), decor(*content), nav_bar())


def button(bounds: tuple[int, int, int, int], text: str) -> V:
    return v("Button", bounds, text=text, rid=f"b_{text}", clickable=True)


def test_clip_keeps_what_is_inside_and_cuts_the_rest() -> None:
    screen = Bounds(0, 0, 1080, 2400)
    inside = Bounds(10, 20, 300, 400)
    assert inside.clip(screen) is inside
    assert Bounds(*ABSURD).clip(screen) == screen
    assert Bounds(-50, 2300, 100, 2500).clip(screen) == Bounds(0, 2300, 100, 2400)


def test_clip_of_an_off_screen_or_inverted_box_is_empty_on_the_edge() -> None:
    screen = Bounds(0, 0, 1080, 2400)
    assert Bounds(1200, 100, 1400, 200).clip(screen) == Bounds(1080, 100, 1080, 200)
    assert Bounds(-300, -300, -100, -100).clip(screen) == Bounds(0, 0, 0, 0)
    inverted = Bounds(500, 600, 400, 500).clip(screen)
    assert inverted.area == 0 and screen.left <= inverted.left <= inverted.right <= screen.right


def test_the_screen_starts_at_the_origin_and_ends_at_the_far_corner_of_the_windows() -> None:
    # A dump of a dialog window alone: the screen reaches from (0, 0) to the dialog's far corner.
    dialog = v(
        "FrameLayout",
        (34, 626, 686, 1057),
        button((-40, 700, 200, 800), "left"),
        button((600, 1000, 900, 1200), "right"),
    )
    (root,) = parse_hierarchy(dump(dialog))
    assert root.bounds == Bounds(34, 626, 686, 1057)
    assert [child.bounds for child in root.children] == [
        Bounds(0, 700, 200, 800),
        Bounds(600, 1000, 686, 1057),
    ]


def test_absurd_bounds_are_marked_by_their_on_screen_part() -> None:
    screen = build_screen(
        screen_with(button(ABSURD, "huge"), button((100, 300, 500, 450), "ok")), package=PKG
    )
    huge = next(mark for mark in screen.marks if mark.label == "huge")
    assert huge.bounds == Bounds(0, 0, W, H)
    assert huge.center == (W // 2, H // 2)
    assert "huge" in screen.text


def test_an_element_wholly_off_screen_is_not_visible_nor_marked() -> None:
    offscreen = button((1200, 300, 1500, 450), "away")
    flat = button((100, 2400, 500, 2400), "flat")  # zero height on the bottom edge, as uiautomator writes
    screen = build_screen(screen_with(offscreen, flat, button((100, 300, 500, 450), "ok")), package=PKG)
    assert [mark.label for mark in screen.marks if mark.layer is LayerKind.APP] == ["ok"]
    hidden = [node for node in screen.nodes() if node.text in ("away", "flat")]
    assert len(hidden) == 2 and not any(node.visible for node in hidden)
    assert "away" not in screen.text and "flat" not in screen.text
    assert not screen.find_text("away")


def test_state_and_text_do_not_see_what_lies_off_screen() -> None:
    plain = build_screen(screen_with(button((100, 300, 500, 450), "ok")), package=PKG)
    more = build_screen(
        screen_with(button((100, 300, 500, 450), "ok"), button((-900, 300, -100, 450), "gone")), package=PKG
    )
    assert more.text == plain.text
    assert identify(more) == identify(plain)
    wide = build_screen(screen_with(button((100, 300, 500, 450), "ok"), button(ABSURD, "x")), package=PKG)
    full = build_screen(
        screen_with(button((100, 300, 500, 450), "ok"), button((0, 0, W, H), "x")), package=PKG
    )
    assert identify(wide) == identify(full)


def test_the_absurd_element_is_drawn_on_its_on_screen_part() -> None:
    screen = build_screen(screen_with(button(ABSURD, "huge")), package=PKG)
    (mark,) = [m for m in screen.marks if m.label == "huge"]
    som = render_som(Image.new("RGB", (W, H), GREY), screen)
    colour = LAYER_COLOURS[mark.layer]
    # The outline runs along the screen's edges, where the clipped box lies.
    assert som.full.getpixel((W // 2, H - 1)) == colour
    assert som.full.getpixel((W - 1, H // 2)) == colour


SCREENS = st.tuples(st.integers(1, 3000), st.integers(1, 3000))
COORDS = st.integers(-(10**8), 10**8)


def _clipped_area(box: tuple[int, int, int, int], width: int, height: int) -> int:
    left, top, right, bottom = box
    return max(0, min(right, width) - max(left, 0)) * max(0, min(bottom, height) - max(top, 0))


@settings(max_examples=200, deadline=None)
@given(SCREENS, st.tuples(COORDS, COORDS, COORDS, COORDS))
def test_clipped_bounds_lie_on_screen_and_a_node_is_visible_iff_its_clipped_area_is_positive(
    size: tuple[int, int], box: tuple[int, int, int, int]
) -> None:
    width, height = size
    (root,) = parse_hierarchy(dump(v("FrameLayout", (0, 0, width, height), v("Button", box, text="b"))))
    (node,) = root.children
    b = node.bounds
    assert 0 <= b.left <= b.right <= width and 0 <= b.top <= b.bottom <= height
    assert b.area == _clipped_area(box, width, height)
    assert node.visible == (_clipped_area(box, width, height) > 0)
    if node.visible:
        x, y = b.center
        assert root.bounds.contains(x, y)
