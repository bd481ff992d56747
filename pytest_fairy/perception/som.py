"""Set-of-Mark: the screenshot with a numbered box on every mark, for the report and for the LLM.

Boxes and badges are drawn once, on the full-size image, with sizes chosen so that after the downscale
to the LLM's size a badge is still legible (`LLM_MIN_FONT_PX`). A badge goes to the first of a few
positions around its box (inside top-left, above, the other corners, below) that does not cover an
earlier badge, so that neighbouring numbers stay readable; when all are taken it goes inside top-left.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from pytest_fairy.perception.fonts import font
from pytest_fairy.perception.hierarchy import Bounds
from pytest_fairy.perception.layers import LayerKind
from pytest_fairy.perception.screen import Mark, Screen

LLM_MIN_FONT_PX = 13  # badge text height after the downscale to the LLM's size
FULL_MIN_FONT_PX = 18  # badge text height on the full image, when there is no downscale
LLM_MIN_LINE_PX = 1.5  # box outline width after the downscale
BADGE_PAD_FRACTION = 0.2  # padding around the number, as a fraction of the font size
DEFAULT_LONG_EDGE = 1024
DEFAULT_JPEG_QUALITY = 75

# Distinct colours per layer, so the reader sees at a glance which marks belong to the dialog.
LAYER_COLOURS: dict[LayerKind, tuple[int, int, int]] = {
    LayerKind.APP: (230, 25, 75),
    LayerKind.DIALOG: (0, 130, 200),
    LayerKind.POPUP: (145, 30, 180),
    LayerKind.BOTTOM_SHEET: (0, 150, 130),
    LayerKind.DRAWER: (0, 130, 200),  # modal like a dialog, and named with it
    LayerKind.PERMISSION: (245, 130, 48),
    LayerKind.SYSTEM_DIALOG: (128, 0, 0),
    LayerKind.KEYBOARD: (128, 128, 0),
    LayerKind.SYSTEM_UI: (90, 90, 90),
    LayerKind.LAUNCHER: (60, 120, 60),
    LayerKind.SHADE: (90, 90, 90),  # system UI drawn over the app; the bars themselves are never marked
    LayerKind.DECOR: (90, 90, 90),  # never marked
}
# The colours in words, as the model is told them (prompts/system.md): it must be able to tell a dialog's
# marks from the app's behind it by what it sees.
LAYER_COLOUR_NAMES: dict[LayerKind, str] = {
    LayerKind.APP: "red",
    LayerKind.DIALOG: "blue",
    LayerKind.POPUP: "purple",
    LayerKind.BOTTOM_SHEET: "teal",
    LayerKind.DRAWER: "blue",
    LayerKind.PERMISSION: "orange",
    LayerKind.SYSTEM_DIALOG: "dark red",
    LayerKind.KEYBOARD: "olive",
    LayerKind.SYSTEM_UI: "grey",
    LayerKind.LAUNCHER: "green",
    LayerKind.SHADE: "grey",
    LayerKind.DECOR: "grey",
}
BADGE_TEXT_COLOUR = (255, 255, 255)
TOAST_CAPTION_COLOUR = (40, 40, 40)


def colour_legend() -> str:
    """`red: the app; blue: a dialog; ...` for the prompt."""
    words = {
        LayerKind.APP: "the app",
        LayerKind.DIALOG: "a dialog or navigation drawer",
        LayerKind.POPUP: "a popup or menu",
        LayerKind.BOTTOM_SHEET: "a bottom sheet",
        LayerKind.PERMISSION: "a permission request",
        LayerKind.SYSTEM_DIALOG: "a system dialog",
        LayerKind.KEYBOARD: "the keyboard",
        LayerKind.LAUNCHER: "the launcher",
        LayerKind.SHADE: "the notification shade or lock screen",
    }
    return "; ".join(f"{LAYER_COLOUR_NAMES[kind]}: {words[kind]}" for kind in LayerKind if kind in words)


@dataclass(frozen=True)
class SomImages:
    """`full`: screenshot size, for the report. `llm_jpeg`: downscaled by `scale`, for the LLM."""

    full: Image.Image
    llm_jpeg: bytes
    scale: float


Rect = tuple[int, int, int, int]


def _overlaps(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _badge_positions(box: Rect, w: int, h: int, size: tuple[int, int]) -> list[Rect]:
    left, top, right, bottom = box
    corners = [
        (left, top),
        (left, top - h),
        (right - w, top),
        (right - w, top - h),
        (left, bottom - h),
        (left, bottom),
        (right - w, bottom - h),
        (right - w, bottom),
    ]
    width, height = size
    rects = []
    for x, y in corners:
        x = min(max(0, x), max(0, width - w))
        y = min(max(0, y), max(0, height - h))
        rects.append((x, y, x + w, y + h))
    return rects


def _to_image(bounds: Bounds, sx: float, sy: float) -> Rect:
    return (
        round(bounds.left * sx),
        round(bounds.top * sy),
        round(bounds.right * sx) - 1,
        round(bounds.bottom * sy) - 1,
    )


def draw_marks(image: Image.Image, marks: list[Mark], screen_size: tuple[int, int], scale: float) -> None:
    """Draw the boxes and badges of `marks` on `image` in place.

    Dump coordinates are screen pixels; a screenshot taken at a lower resolution than the screen (some
    drivers downscale) is drawn on with coordinates scaled to fit. The dump's extent alone cannot tell a
    small screen from a dump without full-screen windows, so an image that holds the dump is not scaled.
    """
    width, height = screen_size
    fits = width <= image.width and height <= image.height
    sx = sy = 1.0 if fits or not width or not height else min(image.width / width, image.height / height)
    font_px = max(FULL_MIN_FONT_PX, math.ceil(LLM_MIN_FONT_PX / scale))
    line = max(2, math.ceil(LLM_MIN_LINE_PX / scale))
    pad = max(2, round(font_px * BADGE_PAD_FRACTION))
    draw = ImageDraw.Draw(image)
    boxes = [(_to_image(mark.bounds, sx, sy), LAYER_COLOURS[mark.layer]) for mark in marks]
    # The largest boxes first, so that a list's outline does not hide its rows'.
    for box, colour in sorted(boxes, key=lambda b: -(b[0][2] - b[0][0]) * (b[0][3] - b[0][1])):
        draw.rectangle(box, outline=colour, width=line)
    placed: list[Rect] = []
    for mark, (box, colour) in zip(marks, boxes, strict=True):
        badge = _badge(str(mark.number), colour, font_px, pad)
        options = _badge_positions(box, badge.width, badge.height, image.size)
        rect = next((r for r in options if not any(_overlaps(r, p) for p in placed)), options[0])
        placed.append(rect)
        image.paste(badge, rect[:2])


@lru_cache(maxsize=1024)
def _badge(label: str, colour: tuple[int, int, int], font_px: int, pad: int) -> Image.Image:
    """A number on its coloured plate. Cached: the same few dozen badges are drawn at every step, and
    rendering text is most of the cost of a Set-of-Mark image."""
    face = font(font_px)
    x0, y0, x1, y1 = (math.floor(v) for v in face.getbbox(label))
    badge = Image.new("RGB", (x1 - x0 + 2 * pad, y1 - y0 + 2 * pad), colour)
    ImageDraw.Draw(badge).text((pad - x0, pad - y0), label, fill=BADGE_TEXT_COLOUR, font=face)
    return badge


def caption_toasts(image: Image.Image, toasts: tuple[str, ...], scale: float) -> Image.Image:
    """`image` with the screen's toasts in a band added below it: a real phone's toast may be gone by the
    time the screenshot is taken, and the model must still see it (legible at the LLM's scale). Below the
    screen, not over it: drawn over the screen it would hide the marks' badges under it."""
    font_px = max(FULL_MIN_FONT_PX, math.ceil(LLM_MIN_FONT_PX / scale))
    text = "toast: " + " | ".join(" ".join(t.split()) for t in toasts)
    pad = font_px // 2
    band = font_px + 2 * pad
    captioned = Image.new("RGB", (image.width, image.height + band), TOAST_CAPTION_COLOUR)
    captioned.paste(image, (0, 0))
    draw = ImageDraw.Draw(captioned)
    draw.text((pad, image.height + pad), text, fill=BADGE_TEXT_COLOUR, font=font(font_px))
    return captioned


def render_som(
    screenshot: Image.Image,
    screen: Screen,
    *,
    llm_long_edge: int = DEFAULT_LONG_EDGE,
    jpeg_quality: int = DEFAULT_JPEG_QUALITY,
) -> SomImages:
    """The Set-of-Mark images of `screen` over `screenshot` (which is not modified)."""
    if llm_long_edge <= 0:
        raise ValueError(f"llm_long_edge must be positive, got {llm_long_edge}")
    full = screenshot.convert("RGB")  # a copy: the caller's screenshot stays clean
    scale = min(1.0, llm_long_edge / max(full.size))
    bounds = screen.bounds
    draw_marks(full, screen.marks, (bounds.right, bounds.bottom), scale)
    if screen.toasts:
        full = caption_toasts(full, screen.toasts, scale)
    small = full
    if scale < 1.0:
        size = (max(1, round(full.width * scale)), max(1, round(full.height * scale)))
        # An integer reduction first, then a box filter for the rest: the cheapest area-averaging
        # downscale of a 1080x2400 frame (this runs every step); badges are sized to stay legible.
        factor = max(1, int(1 / scale))
        small = full.reduce(factor) if factor > 1 else full
        small = small.resize(size, Image.Resampling.BOX)
    buffer = io.BytesIO()
    small.save(buffer, format="JPEG", quality=jpeg_quality)
    return SomImages(full, buffer.getvalue(), scale)
