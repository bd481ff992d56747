"""A picture of the feature tree for the report: screens as boxes, dialogs beside their page, arrows
labelled with actions, the recent path highlighted. No graphviz: `tree_layout` places the boxes and gives
every arrow label a slot of its own (labels never overlap each other nor the boxes); this module draws
that layout as a PNG (Pillow) or an SVG. Self-loops are drawn as a small loop with a count, not as arrows.
"""

from __future__ import annotations

import io
import math
from xml.sax.saxutils import escape

from PIL import Image, ImageDraw

from pytest_fairy.explore.record import Exploration
from pytest_fairy.explore.tree import FeatureTree
from pytest_fairy.perception.fonts import font, font_path
from pytest_fairy.report.tree_layout import Box, PictureStyle, Point, TreeLayout, bezier, tree_layout
from pytest_fairy.text import one_line

__all__ = ["PictureStyle", "TreeLayout", "render_tree_png", "render_tree_svg", "tree_layout", "tree_png"]


def render_tree_svg(tree: FeatureTree, style: PictureStyle | None = None) -> str:
    style = style or PictureStyle()
    layout = tree_layout(tree, style)
    family = "WenQuanYi Micro Hei, Noto Sans CJK SC, PingFang SC, Microsoft YaHei, sans-serif"
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{layout.width}" height="{layout.height}" '
        f'viewBox="0 0 {layout.width} {layout.height}" font-family="{family}">',
        "<defs>"
        f'<marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" '
        f'orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{style.edge}"/></marker>'
        f'<marker id="arrow-path" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" '
        f'orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{style.path_edge}"/></marker></defs>',
        '<rect width="100%" height="100%" fill="white"/>',
        *(
            f'<text x="{style.margin}" y="{style.margin + i * (style.font_size + 6)}" '
            f'font-size="{style.font_size + 2}" fill="{style.text}">{escape(line)}</text>'
            for i, line in enumerate(layout.title.splitlines())
        ),
    ]
    for edge in layout.edges:
        (x0, y0), (cx, cy), (x1, y1) = edge.points
        colour, width = (style.path_edge, 2.5) if edge.on_path else (style.edge, 1.2)
        marker = "arrow-path" if edge.on_path else "arrow"
        out.append(
            f'<path d="M{x0:.1f},{y0:.1f} Q{cx:.1f},{cy:.1f} {x1:.1f},{y1:.1f}" fill="none" '
            f'stroke="{colour}" stroke-width="{width}" marker-end="url(#{marker})"/>'
        )
    for edge in layout.edges:
        left, top, right, bottom = edge.label_box
        out.append(
            f'<text x="{(left + right) / 2:.1f}" y="{bottom - 5:.1f}" font-size="{style.label_size}" '
            f'text-anchor="middle" fill="{style.text}" stroke="white" stroke-width="3" '
            f'paint-order="stroke">{escape(edge.label)}</text>'
        )
    for box in layout.boxes:
        fill, border, radius, width = _box_look(box, style)
        dashes = ' stroke-dasharray="6 3"' if box.info.is_dialog else ""
        out.append(
            f'<rect x="{box.x}" y="{box.y}" width="{style.box_width}" height="{style.box_height}" '
            f'rx="{radius}" fill="{fill}" stroke="{border}" stroke-width="{width}"{dashes}/>'
        )
        for i, line in enumerate(_box_lines(box, style)):
            size = style.font_size - i * 2
            out.append(
                f'<text x="{box.x + 10}" y="{box.y + 24 + i * 20}" font-size="{size}" '
                f'fill="{style.text}">{escape(line)}</text>'
            )
        if box.loop_label is not None:
            lx, ly = box.x + style.box_width, box.y + 12
            out.append(
                f'<path d="M{lx},{ly} c22,-18 22,22 0,18" fill="none" stroke="{style.edge}" '
                f'stroke-width="1.5" marker-end="url(#arrow)"/>'
            )
            left, _, _, bottom = box.loop_label
            out.append(
                f'<text x="{left:.1f}" y="{bottom - 4:.1f}" font-size="{style.label_size}" '
                f'fill="{style.text}">×{box.loops}</text>'
            )
    out.append("</svg>")
    return "\n".join(out)


def tree_png(result: Exploration) -> bytes:
    """The feature tree picture of an exploration, drawn once however many sinks (store, Allure) want it:
    they are handed the same result one after the other."""
    global _last_drawn
    if _last_drawn is None or _last_drawn[0] is not result:
        _last_drawn = (result, render_tree_png(result.tree))
    return _last_drawn[1]


_last_drawn: tuple[Exploration, bytes] | None = None


def render_tree_png(tree: FeatureTree, style: PictureStyle | None = None) -> bytes:
    style = style or PictureStyle()
    layout = tree_layout(tree, style)
    image = Image.new("RGB", (layout.width, layout.height), "white")
    draw = ImageDraw.Draw(image)
    draw.text(
        (style.margin, style.margin - style.font_size),
        layout.title,
        fill=style.text,
        font=font(style.font_size + 2),
    )
    for edge in layout.edges:
        colour, width = (style.path_edge, 3) if edge.on_path else (style.edge, 1)
        samples = [bezier(edge.points, t / 16) for t in range(17)]
        draw.line(samples, fill=colour, width=width)
        _arrow_head(draw, samples[-2], samples[-1], colour)
    for box in layout.boxes:
        fill, border, radius, stroke = _box_look(box, style)
        draw.rounded_rectangle(
            (box.x, box.y, box.x + style.box_width, box.y + style.box_height),
            radius=radius,
            fill=fill,
            outline=border,
            width=math.ceil(stroke),
        )
        for i, line in enumerate(_box_lines(box, style)):
            size = style.font_size - i * 2
            draw.text((box.x + 10, box.y + 8 + i * 20), line, fill=style.text, font=font(size))
        if box.loop_label is not None:
            lx, ly = box.x + style.box_width, box.y + 4
            draw.arc((lx - 10, ly, lx + 14, ly + 22), start=270, end=180, fill=style.edge, width=2)
            left, top, _, _ = box.loop_label
            draw.text((left, top), f"×{box.loops}", fill=style.text, font=font(style.label_size))
    for edge in layout.edges:
        left, top, right, bottom = edge.label_box
        draw.rectangle((left, top, right, bottom), fill="white", outline=style.edge)
        draw.text((left + 3, top + 2), edge.label, fill=style.text, font=font(style.label_size))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False)
    return buffer.getvalue()


def _arrow_head(draw: ImageDraw.ImageDraw, before: Point, tip: Point, colour: str) -> None:
    angle = math.atan2(tip[1] - before[1], tip[0] - before[0])
    size = 10
    left = (tip[0] - size * math.cos(angle - 0.4), tip[1] - size * math.sin(angle - 0.4))
    right = (tip[0] - size * math.cos(angle + 0.4), tip[1] - size * math.sin(angle + 0.4))
    draw.polygon([tip, left, right], fill=colour)


def _box_look(box: Box, style: PictureStyle) -> tuple[str, str, int, float]:
    fill = style.dialog_fill if box.info.is_dialog else style.screen_fill
    border = style.dialog_border if box.info.is_dialog else style.border
    width = 1.5
    if box.start:
        border, width = style.start_border, 3.0
    if box.current:
        border, width = style.current_border, 3.0
    return fill, border, 14 if box.info.is_dialog else 3, width


def _box_lines(box: Box, style: PictureStyle) -> list[str]:
    info = box.info
    heading = info.title or info.name
    room = style.box_width - 20
    marks = " (start)" if box.start else ""
    marks += " (now)" if box.current else ""
    return [
        _fit(heading, room, style.font_size),
        _fit(f"{info.visits} visits{marks} · {info.name}", room, style.font_size - 2),
    ]


def _fit(text: str, room: float, size: int) -> str:
    """Cut `text` so that it fits `room` pixels in the report font."""
    measure = font(size)
    text = " ".join(text.split())
    if font_path() is None or measure.getlength(text) <= room:
        return text if font_path() is not None else one_line(text, int(room // (size * 0.6)))
    while text and measure.getlength(text + "…") > room:
        text = text[:-1]
    return text + "…"
