"""Set-of-Mark images: sizes, boxes drawn where the marks are, numbers matching the text."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from pytest_fairy.perception.layers import LayerKind
from pytest_fairy.perception.screen import Screen, build_screen
from pytest_fairy.perception.som import LAYER_COLOURS, render_som

from .builder import PKG, alert_window, dump, menu_screen, menu_window, nav_bar, status_bar
from .marks_text import numbers_in

GREY = (200, 200, 200)


def blank(size: tuple[int, int] = (1080, 2400)) -> Image.Image:
    return Image.new("RGB", size, GREY)


def menu() -> Screen:
    return build_screen(menu_screen(), package=PKG)


def test_sizes_full_and_llm() -> None:
    shot = blank()
    som = render_som(shot, menu(), llm_long_edge=1024, jpeg_quality=70)
    assert som.full.size == shot.size
    small = Image.open(io.BytesIO(som.llm_jpeg))
    assert small.format == "JPEG" and max(small.size) == 1024
    assert small.size == (round(1080 * som.scale), 1024) and som.scale == pytest.approx(1024 / 2400)
    other = render_som(shot, menu(), llm_long_edge=768)
    assert max(Image.open(io.BytesIO(other.llm_jpeg)).size) == 768


def test_no_upscaling_for_small_screenshots() -> None:
    som = render_som(blank((540, 1200)), menu(), llm_long_edge=2000)
    assert som.scale == 1.0 and Image.open(io.BytesIO(som.llm_jpeg)).size == (540, 1200)


def test_the_screenshot_is_left_untouched() -> None:
    shot = blank()
    render_som(shot, menu())
    assert shot.getcolors() == [(1080 * 2400, GREY)]


def test_boxes_are_drawn_on_every_mark_in_its_layer_colour() -> None:
    screen = menu()
    som = render_som(blank(), screen)
    colours = set(LAYER_COLOURS.values())
    for mark in screen.marks:
        b = mark.bounds
        edge = [som.full.getpixel((x, b.top + 1)) for x in range(b.left + 2, b.right - 2, 7)]
        assert any(pixel != GREY for pixel in edge), f"no box drawn at mark {mark.number}"
        assert any(pixel in colours for pixel in edge)
    # Nothing is drawn where there is no mark (the status bar is not marked).
    assert som.full.getpixel((500, 30)) == GREY


def test_dialog_marks_use_the_dialog_colour_and_numbers_match_the_text() -> None:
    screen = build_screen(dump(status_bar(), menu_window(), alert_window(), nav_bar()), package=PKG)
    som = render_som(blank(), screen)
    assert numbers_in(screen.text) == {m.number for m in screen.marks}
    for mark in screen.marks:
        assert mark.layer is LayerKind.DIALOG
        b = mark.bounds
        assert som.full.getpixel((b.center[0], b.bottom - 2)) == LAYER_COLOURS[LayerKind.DIALOG]


def test_badges_hold_the_number_and_avoid_each_other() -> None:
    screen = menu()
    with_badges = render_som(blank(), screen).full
    # Every badge is a filled block of a layer colour: count distinct badge-sized blobs by sampling the
    # pixel just inside each box's top-left corner or above it; at least most marks got a visible badge.
    colour = LAYER_COLOURS[LayerKind.APP]
    filled = 0
    for mark in screen.marks:
        b = mark.bounds
        spots = [(b.left + 6, b.top + 6), (b.left + 6, max(0, b.top - 6)), (b.right - 6, b.top + 6),
                 (b.right - 6, max(0, b.top - 6)), (b.left + 6, b.bottom - 6), (b.left + 6, b.bottom + 6)]
        if any(with_badges.getpixel(p) == colour for p in spots):
            filled += 1
    assert filled == len(screen.marks)


def test_a_toast_caption_goes_below_the_screen_and_covers_no_badge() -> None:
    screen = build_screen(menu_screen(), package=PKG, toasts=("已加入购物车",))
    plain, captioned = render_som(blank(), menu()).full, render_som(blank(), screen).full
    assert captioned.width == plain.width and captioned.height > plain.height
    assert captioned.crop((0, 0, *plain.size)).tobytes() == plain.tobytes(), "the screen and its badges as drawn"
    band = captioned.crop((0, plain.height, plain.width, captioned.height))
    assert len(band.getcolors(maxcolors=4096) or ()) > 1, "the band holds the toast's text"


def test_bad_long_edge() -> None:
    with pytest.raises(ValueError, match="llm_long_edge must be positive"):
        render_som(blank(), menu(), llm_long_edge=0)


def test_a_downscaled_screenshot_gets_boxes_at_scaled_positions() -> None:
    screen = menu()
    som = render_som(blank((540, 1200)), screen)
    mark = screen.marks[-1]  # a bottom tab, far from the others' badges
    b = mark.bounds
    assert som.full.getpixel((b.center[0] // 2, b.bottom // 2 - 1)) in set(LAYER_COLOURS.values())
    assert som.full.getpixel((b.center[0] // 2, b.bottom // 2 + 20)) == GREY
