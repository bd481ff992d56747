"""A picture of the feature tree for the report: screens as boxes, dialogs beside their page, arrows
labelled with actions, the recent path highlighted. No graphviz: a small layered layout of our own.

Layout: states are placed in rows by BFS depth from the start state (states reached only after a restart
start their own BFS); a dialog state sits right after its parent page (the page with the same activity
and structure below it, else the state it was first entered from). Wide layers wrap, so 40 states stay
readable. Self-loops are drawn as a small loop with a count, not as arrows.
"""

from __future__ import annotations

import io
import math
from collections import Counter, deque
from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from PIL import Image, ImageDraw

from pytest_fairy.explore.record import Exploration
from pytest_fairy.explore.tree import FeatureTree, StateInfo
from pytest_fairy.perception.fonts import font, font_path

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class PictureStyle:
    box_width: int = 220
    box_height: int = 60
    gap_x: int = 70
    gap_y: int = 100
    margin: int = 40
    header: int = 40
    per_row: int = 6
    font_size: int = 15
    label_size: int = 12
    label_chars: int = 18
    curve: float = 28.0
    highlight_steps: int = 12
    screen_fill: str = "#e8f0fe"
    dialog_fill: str = "#fff3e0"
    border: str = "#5f6368"
    dialog_border: str = "#e8710a"
    start_border: str = "#188038"
    current_border: str = "#d93025"
    edge: str = "#9aa0a6"
    path_edge: str = "#1a73e8"
    text: str = "#202124"


@dataclass(frozen=True, slots=True)
class _Box:
    info: StateInfo
    x: int
    y: int
    start: bool
    current: bool
    loops: int


@dataclass(frozen=True, slots=True)
class _Edge:
    points: list[Point]
    label: str
    on_path: bool


@dataclass
class _Layout:
    width: int
    height: int
    title: str
    boxes: list[_Box] = field(default_factory=list)
    edges: list[_Edge] = field(default_factory=list)


def render_tree_svg(tree: FeatureTree, style: PictureStyle | None = None) -> str:
    style = style or PictureStyle()
    layout = _layout(tree, style)
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
        mx, my = _bezier(edge.points, 0.5)
        out.append(
            f'<text x="{mx:.1f}" y="{my:.1f}" font-size="{style.label_size}" text-anchor="middle" '
            f'fill="{style.text}" stroke="white" stroke-width="3" paint-order="stroke">'
            f"{escape(edge.label)}</text>"
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
        if box.loops:
            lx, ly = box.x + style.box_width, box.y + 12
            out.append(
                f'<path d="M{lx},{ly} c22,-18 22,22 0,18" fill="none" stroke="{style.edge}" '
                f'stroke-width="1.5" marker-end="url(#arrow)"/>'
            )
            out.append(
                f'<text x="{lx + 20}" y="{ly - 2}" font-size="{style.label_size}" '
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
    layout = _layout(tree, style)
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
        samples = [_bezier(edge.points, t / 16) for t in range(17)]
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
        if box.loops:
            lx, ly = box.x + style.box_width, box.y + 4
            draw.arc((lx - 10, ly, lx + 14, ly + 22), start=270, end=180, fill=style.edge, width=2)
            draw.text((lx + 16, ly), f"×{box.loops}", fill=style.text, font=font(style.label_size))
    for edge in layout.edges:
        mx, my = _bezier(edge.points, 0.5)
        label_font = font(style.label_size)
        half = label_font.getlength(edge.label) / 2
        draw.rectangle((mx - half - 2, my - style.label_size + 1, mx + half + 2, my + 3), fill="white")
        draw.text((mx - half, my - style.label_size), edge.label, fill=style.text, font=label_font)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False)
    return buffer.getvalue()


def _layout(tree: FeatureTree, style: PictureStyle) -> _Layout:
    path = tree.path
    title = (
        f"Feature tree: {len(tree.states)} states, {len(tree.transitions)} transitions, "
        f"{len(path)} steps.\nBlue: screens; orange, rounded: dialogs; blue arrows: the last "
        f"{style.highlight_steps} steps, numbered"
    )
    if not path:
        return _Layout(style.margin * 2 + 600, style.margin * 2 + style.header, title + " (empty)")
    rows = _rows(tree, style)
    loops = Counter(t.from_key for t in tree.transitions if t.self_loop)
    start, current = path[0], path[-1]
    boxes: dict[str, _Box] = {}
    pitch_x, pitch_y = style.box_width + style.gap_x, style.box_height + style.gap_y
    widest = max(len(r) for r in rows)
    width = style.margin * 2 + widest * pitch_x - style.gap_x + 40
    # A narrow tree must not cut its own legend off.
    legend = max(font(style.font_size + 2).getlength(line) for line in title.splitlines())
    width = max(width, style.margin * 2 + math.ceil(legend))
    for r, row in enumerate(rows):
        offset = (widest - len(row)) * pitch_x // 2
        for c, key in enumerate(row):
            x = style.margin + offset + c * pitch_x
            y = style.margin + style.header + r * pitch_y
            boxes[key] = _Box(tree.states[key], x, y, key == start, key == current, loops[key])
    height = style.margin * 2 + style.header + len(rows) * pitch_y - style.gap_y
    layout = _Layout(width, height, title, list(boxes.values()))
    recent = tree.transitions[-style.highlight_steps :]
    recent_from = recent[0].step if recent else 0
    actions: dict[tuple[str, str], Counter[str]] = {}
    on_path: dict[tuple[str, str], int] = {}
    for t in tree.transitions:
        if t.self_loop:
            continue
        actions.setdefault((t.from_key, t.to_key), Counter())[t.action or "?"] += 1
        if t.step >= recent_from:
            # The latest step that walked the edge: the number the report's step titles carry.
            on_path[(t.from_key, t.to_key)] = t.step
    for (a, b), counter in actions.items():
        action, _ = counter.most_common(1)[0]
        label = _cut(action, style.label_chars)
        if (a, b) in on_path:
            label = f"{on_path[(a, b)]}. {label}"
        total = sum(counter.values())
        label += f" ×{total}" if total > 1 else ""
        layout.edges.append(_Edge(_curve(boxes[a], boxes[b], style), label, (a, b) in on_path))
    # Highlighted edges last, so they are drawn on top.
    layout.edges.sort(key=lambda e: e.on_path)
    return layout


def _rows(tree: FeatureTree, style: PictureStyle) -> list[list[str]]:
    order = list(tree.states)  # first-seen order
    neighbours: dict[str, list[str]] = {key: [] for key in order}
    entered_from: dict[str, str] = {}
    for t in tree.transitions:
        if not t.self_loop:
            if t.to_key not in neighbours[t.from_key]:
                neighbours[t.from_key].append(t.to_key)
            entered_from.setdefault(t.to_key, t.from_key)
    pages = {_page_key(key): key for key in order if not tree.states[key].is_dialog}
    parent: dict[str, str] = {}
    for key in order:
        if tree.states[key].is_dialog:
            host = pages.get(_page_key(key)) or entered_from.get(key)
            if host is not None and host != key and not tree.states[host].is_dialog:
                parent[key] = host
    depth: dict[str, int] = {}
    for root in [tree.path[0], *order]:
        if root in depth:
            continue
        depth[root] = 0
        queue = deque([root])
        while queue:
            key = queue.popleft()
            for nxt in neighbours[key]:
                if nxt not in depth:
                    depth[nxt] = depth[key] + 1
                    queue.append(nxt)
    layers: dict[int, list[str]] = {}
    for key in sorted(depth, key=lambda k: (depth[k], tree.states[k].first_seen)):
        if key in parent:
            continue
        layers.setdefault(depth[key], []).append(key)
        # Dialogs right after their page, in the same layer.
        layers[depth[key]].extend(d for d in order if parent.get(d) == key)
    rows: list[list[str]] = []
    for level in sorted(layers):
        members = layers[level]
        rows.extend(members[i : i + style.per_row] for i in range(0, len(members), style.per_row))
    return rows


def _page_key(key: str) -> str:
    # StateId.key is "activity|structure|dialog": the page under a dialog shares the first two parts.
    return key.rsplit("|", 1)[0]


def _centre(box: _Box, style: PictureStyle) -> Point:
    return box.x + style.box_width / 2, box.y + style.box_height / 2


def _border_point(box: _Box, towards: Point, style: PictureStyle) -> Point:
    cx, cy = _centre(box, style)
    dx, dy = towards[0] - cx, towards[1] - cy
    if dx == 0 and dy == 0:
        return cx, cy
    scale = min(
        style.box_width / 2 / abs(dx) if dx else math.inf, style.box_height / 2 / abs(dy) if dy else math.inf
    )
    return cx + dx * scale, cy + dy * scale


def _curve(a: _Box, b: _Box, style: PictureStyle) -> list[Point]:
    (ax, ay), (bx, by) = _centre(a, style), _centre(b, style)
    length = math.hypot(bx - ax, by - ay) or 1.0
    # Bend to the right of the direction of travel, so A->B and B->A do not overlap.
    bend_x, bend_y = -(by - ay) / length * style.curve, (bx - ax) / length * style.curve
    control = ((ax + bx) / 2 + bend_x, (ay + by) / 2 + bend_y)
    return [_border_point(a, control, style), control, _border_point(b, control, style)]


def _bezier(points: list[Point], t: float) -> Point:
    (x0, y0), (cx, cy), (x1, y1) = points
    u = 1 - t
    return u * u * x0 + 2 * u * t * cx + t * t * x1, u * u * y0 + 2 * u * t * cy + t * t * y1


def _arrow_head(draw: ImageDraw.ImageDraw, before: Point, tip: Point, colour: str) -> None:
    angle = math.atan2(tip[1] - before[1], tip[0] - before[0])
    size = 10
    left = (tip[0] - size * math.cos(angle - 0.4), tip[1] - size * math.sin(angle - 0.4))
    right = (tip[0] - size * math.cos(angle + 0.4), tip[1] - size * math.sin(angle + 0.4))
    draw.polygon([tip, left, right], fill=colour)


def _box_look(box: _Box, style: PictureStyle) -> tuple[str, str, int, float]:
    fill = style.dialog_fill if box.info.is_dialog else style.screen_fill
    border = style.dialog_border if box.info.is_dialog else style.border
    width = 1.5
    if box.start:
        border, width = style.start_border, 3.0
    if box.current:
        border, width = style.current_border, 3.0
    return fill, border, 14 if box.info.is_dialog else 3, width


def _box_lines(box: _Box, style: PictureStyle) -> list[str]:
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
        return text if font_path() is not None else _cut(text, int(room // (size * 0.6)))
    while text and measure.getlength(text + "…") > room:
        text = text[:-1]
    return text + "…"


def _cut(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
