"""Screenshots of the virtual device: the same windows a dump shows, drawn with Pillow.

Widgets are drawn so that a person (or a vision model) tells them apart: filled buttons, underlined
fields, boxes, radio circles, switch tracks, image placeholders. Dialogs darken what is behind them;
toasts are drawn while they last (they are never in a dump, as on a real phone). A frame whose windows
did not change is served from a cache.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from fairy_virtual.views import View, Window
from pytest_fairy.perception.fonts import FontType, font
from pytest_fairy.perception.hierarchy import Bounds

BASE_WIDTH = 1080
TEXT_SIZE, TITLE_SIZE, CAPTION_SIZE, SMALL_SIZE = 42, 52, 34, 30
BACKGROUND = (250, 250, 250)
TEXT = (33, 33, 33)
MUTED = (130, 130, 130)
LINE = (222, 222, 222)
CARD = (240, 240, 240)
DANGER = (211, 47, 47)
WALLPAPER = ((32, 58, 98), (92, 52, 110))
DIM_FACTOR = 0.45  # how dark the screen behind a dialog gets, like Android's default dim amount
RADIUS = 18
TOAST_BOTTOM = 260
TOAST_BACKGROUND = (50, 50, 50)

Color = tuple[int, int, int]


def hex_color(value: str) -> Color:
    value = value.lstrip("#")
    if len(value) != 6:
        return (26, 115, 232)
    return (int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16))


@lru_cache(maxsize=4096)
def _fit(text: str, size: int, width: int) -> str:
    """The text cut with an ellipsis so it fits `width` pixels."""
    if width <= 0:
        return ""
    face = font(size)
    if face.getlength(text) <= width:
        return text
    low, high = 0, len(text)
    while low < high:
        mid = (low + high + 1) // 2
        if face.getlength(text[:mid] + "…") <= width:
            low = mid
        else:
            high = mid - 1
    return text[:low] + "…"


class Renderer:
    def __init__(self, size: tuple[int, int]) -> None:
        self.size = size
        self.scale = size[0] / BASE_WIDTH
        self._dim_table = [round(v * (1 - DIM_FACTOR)) for v in range(256)] * 3
        self._wallpaper: Image.Image | None = None
        self._last: tuple[object, Image.Image] | None = None

    def px(self, value: int) -> int:
        return max(1, round(value * self.scale))

    def render(self, windows: list[Window], toasts: list[str]) -> Image.Image:
        key = (tuple(_signature(w.root) for w in windows), tuple(w.dim for w in windows), tuple(toasts))
        if self._last is not None and self._last[0] == key:
            return self._last[1].copy()
        image = Image.new("RGB", self.size, BACKGROUND)
        for window in windows:
            # A drawer's scrim falls between the screen's content and the drawer, in one window.
            drawer = window.kind == "drawer"
            if window.dim and not drawer:
                image = image.point(self._dim_table)
            draw = ImageDraw.Draw(image)
            if window.kind == "launcher" or window.root.role == "keyguard":  # the lock screen: wallpaper
                image.paste(self._launcher_wallpaper())
                draw = ImageDraw.Draw(image)
            accent = hex_color(window.accent)
            for view in window.root.iter():
                if drawer and view.role == "panel":
                    image = image.point(self._dim_table)
                    draw = ImageDraw.Draw(image)
                self._draw(draw, view, accent)
        if toasts:
            self._toasts(ImageDraw.Draw(image), toasts)
        self._last = (key, image)
        return image.copy()

    def _launcher_wallpaper(self) -> Image.Image:
        if self._wallpaper is None:
            top, bottom = WALLPAPER
            column = Image.new("RGB", (1, 256))
            for y in range(256):
                t = y / 255
                shade = tuple(round(a + (b - a) * t) for a, b in zip(top, bottom, strict=True))
                column.putpixel((0, y), shade)
            self._wallpaper = column.resize(self.size)
        return self._wallpaper

    def _text(
        self,
        draw: ImageDraw.ImageDraw,
        box: Bounds,
        text: str,
        size: int,
        fill: Color,
        center: bool = False,
        inset: int = 0,
    ) -> None:
        if not text:
            return
        size = self.px(size)
        first_line = text.split("\n", 1)[0]
        shown = _fit(first_line, size, box.width - 2 * inset)
        face: FontType = font(size)
        if center:
            draw.text(
                (box.left + box.width // 2, box.top + box.height // 2),
                shown,
                font=face,
                fill=fill,
                anchor="mm",
            )
        else:
            draw.text((box.left + inset, box.top + box.height // 2), shown, font=face, fill=fill, anchor="lm")

    def _draw(self, draw: ImageDraw.ImageDraw, view: View, accent: Color) -> None:
        b = view.bounds
        if b.width <= 0 or b.height <= 0:
            return
        rect = (b.left, b.top, b.right - 1, b.bottom - 1)
        short, role = view.short_class, view.role
        muted = not view.enabled
        if role == "panel":
            draw.rounded_rectangle(rect, radius=self.px(28), fill=(255, 255, 255), outline=LINE)
        elif role == "toolbar":
            draw.rectangle(rect, fill=accent)
        elif role == "icon":
            side = b.width
            draw.rounded_rectangle((b.left, b.top, b.right, b.top + side), radius=self.px(40), fill=accent)
            self._text(
                draw,
                Bounds(b.left, b.top, b.right, b.top + side),
                view.text[:1],
                TITLE_SIZE + 20,
                (255, 255, 255),
                center=True,
            )
            self._text(
                draw,
                Bounds(b.left - 40, b.top + side, b.right + 40, b.bottom),
                view.text,
                SMALL_SIZE,
                (255, 255, 255),
                center=True,
            )
        elif role == "up":
            self._text(draw, b, "←", TITLE_SIZE, (255, 255, 255), center=True)
        elif role == "action":  # a toolbar's action item: its text, or its icon's name, on the bar
            self._text(draw, b, view.text or view.desc, TEXT_SIZE, (255, 255, 255), center=True)
        elif role == "card":
            draw.rounded_rectangle(rect, radius=self.px(RADIUS), fill=CARD)
            self._text(draw, b, view.text, TEXT_SIZE, TEXT, inset=self.px(32))
        elif role == "row":
            draw.line((b.left, b.bottom - 1, b.right, b.bottom - 1), fill=LINE, width=self.px(2))
            self._label(draw, view, accent, muted)
        elif short in ("Button", "ImageButton") and not view.children:
            self._button(draw, view, accent, rect, muted)
        elif short in ("EditText", "AutoCompleteTextView"):
            self._field(draw, view, accent)
        elif short in ("CheckBox", "RadioButton", "Switch", "ToggleButton", "CheckedTextView"):
            self._checkable(draw, view, accent, muted)
        elif short == "ImageView":
            draw.rectangle(rect, fill=(225, 229, 235))
            draw.line((b.left, b.top, b.right, b.bottom), fill=(200, 205, 212), width=self.px(3))
            draw.line((b.left, b.bottom, b.right, b.top), fill=(200, 205, 212), width=self.px(3))
            self._text(draw, b, view.desc or view.text, SMALL_SIZE, MUTED, center=True)
        else:
            self._label(draw, view, accent, muted)

    def _label(self, draw: ImageDraw.ImageDraw, view: View, accent: Color, muted: bool) -> None:
        if not view.text:
            return
        size = {"title": TITLE_SIZE, "caption": CAPTION_SIZE}.get(view.style, TEXT_SIZE)
        color: Color = MUTED if muted or view.style == "caption" else TEXT
        if view.resource_id.endswith(":id/toolbar_title"):
            color = (255, 255, 255)
        elif view.style == "link":
            color = accent
        elif view.style == "danger":
            color = DANGER
        self._text(draw, view.bounds, view.text, size, color, inset=self.px(8) if view.role == "row" else 0)

    def _button(
        self,
        draw: ImageDraw.ImageDraw,
        view: View,
        accent: Color,
        rect: tuple[int, int, int, int],
        muted: bool,
    ) -> None:
        label = view.text or view.desc
        if view.style == "link":
            self._text(draw, view.bounds, label, TEXT_SIZE, MUTED if muted else accent, center=True)
            return
        fill = DANGER if view.style == "danger" else accent
        if view.style == "plain" and view.short_class == "ImageButton":
            fill = CARD
        if muted:
            fill = (200, 200, 200)
        draw.rounded_rectangle(rect, radius=self.px(RADIUS), fill=fill)
        text_color: Color = TEXT if fill == CARD else (255, 255, 255)
        self._text(draw, view.bounds, label, TEXT_SIZE, text_color, center=True)

    def _field(self, draw: ImageDraw.ImageDraw, view: View, accent: Color) -> None:
        b = view.bounds
        line_color = accent if view.focused else (160, 160, 160)
        draw.line(
            (b.left, b.bottom - self.px(6), b.right, b.bottom - self.px(6)),
            fill=line_color,
            width=self.px(4 if view.focused else 2),
        )
        self._text(draw, b, view.text, TEXT_SIZE, MUTED if view.showing_hint else TEXT, inset=self.px(12))
        if view.focused:
            typed = "" if view.showing_hint else _fit(view.text, self.px(TEXT_SIZE), b.width)
            x = b.left + self.px(12) + int(font(self.px(TEXT_SIZE)).getlength(typed)) + self.px(4)
            half = self.px(26)
            draw.line(
                (x, b.top + b.height // 2 - half, x, b.top + b.height // 2 + half),
                fill=accent,
                width=self.px(3),
            )

    def _checkable(self, draw: ImageDraw.ImageDraw, view: View, accent: Color, muted: bool) -> None:
        b = view.bounds
        side = self.px(54)
        cy = b.top + b.height // 2
        color: Color = (180, 180, 180) if muted else accent
        if view.short_class == "Switch":
            w = self.px(100)
            track = (b.right - w, cy - side // 3, b.right, cy + side // 3)
            draw.rounded_rectangle(track, radius=side // 3, fill=color if view.checked else (190, 190, 190))
            knob_x = b.right - side // 2 if view.checked else b.right - w + side // 2
            draw.ellipse(
                (knob_x - side // 2, cy - side // 2, knob_x + side // 2, cy + side // 2),
                fill=(255, 255, 255),
                outline=(150, 150, 150),
            )
            self._text(
                draw, Bounds(b.left, b.top, b.right - w - self.px(16), b.bottom), view.text, TEXT_SIZE, TEXT
            )
            return
        box = (b.left, cy - side // 2, b.left + side, cy + side // 2)
        if view.short_class == "RadioButton":
            draw.ellipse(box, outline=color, width=self.px(5))
            if view.checked:
                inset = self.px(14)
                draw.ellipse((box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset), fill=color)
        else:
            draw.rectangle(box, outline=color, width=self.px(5), fill=color if view.checked else None)
            if view.checked:
                tick = (
                    box[0] + side * 0.2,
                    cy,
                    box[0] + side * 0.42,
                    box[3] - side * 0.22,
                    box[2] - side * 0.18,
                    box[1] + side * 0.22,
                )
                draw.line(tick, fill=(255, 255, 255), width=self.px(6))
        self._text(
            draw,
            Bounds(b.left + side + self.px(24), b.top, b.right, b.bottom),
            view.text,
            TEXT_SIZE,
            MUTED if muted else TEXT,
        )

    def _toasts(self, draw: ImageDraw.ImageDraw, toasts: list[str]) -> None:
        width, height = self.size
        y = height - self.px(TOAST_BOTTOM)
        for text in reversed(toasts):
            face = font(self.px(TEXT_SIZE))
            w = min(width - self.px(120), int(face.getlength(text)) + self.px(96))
            box = Bounds((width - w) // 2, y - self.px(120), (width + w) // 2, y)
            draw.rounded_rectangle(
                (box.left, box.top, box.right, box.bottom), radius=self.px(60), fill=TOAST_BACKGROUND
            )
            self._text(draw, box, text, TEXT_SIZE, (255, 255, 255), center=True)
            y -= self.px(150)


def _signature(view: View) -> tuple[object, ...]:
    return (
        view.class_name,
        view.bounds,
        view.text,
        view.desc,
        view.checked,
        view.focused,
        view.enabled,
        view.role,
        view.style,
        view.showing_hint,
        tuple(_signature(c) for c in view.children),
    )
