"""Where the feature tree picture puts things: a small layered layout of our own, no graphviz.

States are placed in rows by BFS depth from the start state (states reached only after a restart start
their own BFS); a dialog state sits right after its parent page (the page with the same activity and
structure below it, else the state it was first entered from). Wide layers wrap, so 60 states stay
readable.

Arrow labels never overlap, by construction rather than by luck: as in a Sugiyama layout, where an edge's
label is a node of its own, every label gets a slot in a *channel*, the band between two rows of boxes
that no box enters. A channel holds lanes of labels; a label goes into the first lane with room for it at
(or near) the middle of its arrow, else opens a new lane, and the channel grows to hold its lanes. The
arrow is then bent through its label. A self-loop's count sits in the gap right of its box.

`tree_layout` is pure: the renderers draw what it returns, and tests check its geometry.
"""

from __future__ import annotations

import math
from collections import Counter, deque
from dataclasses import dataclass, field

from pytest_fairy.explore.tree import FeatureTree, StateInfo
from pytest_fairy.perception.fonts import font
from pytest_fairy.text import one_line

Point = tuple[float, float]
Rect = tuple[float, float, float, float]  # left, top, right, bottom
Span = tuple[float, float]  # left, right
_GAP = 8  # px between two labels side by side in a lane


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

    @property
    def lane_pitch(self) -> int:
        """Height of one lane of arrow labels in a channel: a label box and a 2 px gap."""
        return self.label_size + 8


@dataclass(frozen=True, slots=True)
class Box:
    info: StateInfo
    x: int
    y: int
    start: bool
    current: bool
    loops: int
    rect: Rect
    loop_label: Rect | None  # where "×N" of the self-loops goes


@dataclass(frozen=True, slots=True)
class Edge:
    points: list[Point]  # a quadratic Bézier: start, control, end; its middle is the label's centre
    label: str
    on_path: bool
    label_box: Rect


@dataclass
class TreeLayout:
    width: int
    height: int
    title: str
    boxes: list[Box] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)

    def label_boxes(self) -> list[Rect]:
        """Every piece of text outside a state box: arrow labels and self-loop counts."""
        loops = [b.loop_label for b in self.boxes if b.loop_label is not None]
        return [e.label_box for e in self.edges] + loops


@dataclass
class _Slot:
    edge: tuple[str, str]
    label: str
    on_path: bool
    channel: int
    lane: int
    left: float
    width: float


def tree_layout(tree: FeatureTree, style: PictureStyle | None = None) -> TreeLayout:
    style = style or PictureStyle()
    path = tree.path
    title = (
        f"Feature tree: {len(tree.states)} states, {len(tree.transitions)} transitions, "
        f"{tree.steps} steps.\nBlue: screens; orange, rounded: dialogs; blue arrows: the last "
        f"{style.highlight_steps} steps, numbered"
    )
    if not path:
        return TreeLayout(style.margin * 2 + 600, style.margin * 2 + style.header, title + " (empty)")
    rows = _rows(tree, style)
    row_of = {key: r for r, row in enumerate(rows) for key in row}
    loops = Counter(t.from_key for t in tree.transitions if t.self_loop)
    loop_font = font(style.label_size)
    loop_counts = {key: loop_font.getlength(f"×{n}") + 2 for key, n in loops.items()}
    # The gap right of a box holds its self-loop count, with room to spare before the next box.
    gap_x = max([style.gap_x, *(math.ceil(16 + size + 8) for size in loop_counts.values())])
    pitch_x = style.box_width + gap_x
    widest = max(len(r) for r in rows)
    width = style.margin * 2 + widest * pitch_x - gap_x + 40
    # A narrow tree must not cut its own legend off.
    legend = max(font(style.font_size + 2).getlength(line) for line in title.splitlines())
    width = max(width, style.margin * 2 + math.ceil(legend))
    column_x: dict[str, float] = {}
    for row in rows:
        offset = (widest - len(row)) * pitch_x // 2
        for c, key in enumerate(row):
            column_x[key] = style.margin + offset + c * pitch_x

    slots = _slots(tree, style, row_of, column_x, width)
    lanes = [0] * (len(rows) + 1)  # channel c is the band above row c; channel len(rows) is below the last
    for slot in slots:
        lanes[slot.channel] = max(lanes[slot.channel], slot.lane + 1)
    heights = [lanes[c] * style.lane_pitch + (16 if lanes[c] else 0) for c in range(len(lanes))]
    for c in range(1, len(rows)):
        heights[c] = max(heights[c], style.gap_y)  # room for the arrows between rows, labelled or not
    channel_top, row_y, y = [], [], style.margin + style.header
    for c in range(len(rows) + 1):
        channel_top.append(y)
        y += heights[c]
        row_y.append(y)
        y += style.box_height
    height = row_y[len(rows)] + style.margin

    start, current = path[0], path[-1]
    boxes: dict[str, Box] = {}
    for key, r in row_of.items():
        x, y = int(column_x[key]), row_y[r]
        right, bottom = x + style.box_width, y + style.box_height
        loop_label = None
        if loops[key]:
            lx = right + 16
            loop_label = (lx, y + 4, lx + loop_counts[key], y + 6 + style.label_size)
        rect = (x, y, right, bottom)
        boxes[key] = Box(tree.states[key], x, y, key == start, key == current, loops[key], rect, loop_label)
    layout = TreeLayout(width, height, title, [boxes[key] for row in rows for key in row])
    for slot in slots:
        free = heights[slot.channel] - lanes[slot.channel] * style.lane_pitch
        top = channel_top[slot.channel] + free / 2 + slot.lane * style.lane_pitch
        label_box = (slot.left, top, slot.left + slot.width, top + style.lane_pitch - 2)
        a, b = slot.edge
        layout.edges.append(Edge(_curve(boxes[a], boxes[b], label_box), slot.label, slot.on_path, label_box))
    # Highlighted edges last, so they are drawn on top.
    layout.edges.sort(key=lambda e: e.on_path)
    return layout


def _slots(
    tree: FeatureTree, style: PictureStyle, row_of: dict[str, int], column_x: dict[str, float], width: int
) -> list[_Slot]:
    """One label slot per arrow (all transitions between two states share one arrow): its channel, lane
    and left edge. Within a lane no two slots come closer than _GAP."""
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
    measure = font(style.label_size)
    taken: dict[int, list[list[Span]]] = {}  # channel -> lanes -> occupied intervals
    slots: list[_Slot] = []
    for a, b in actions:
        counter = actions[(a, b)]
        action, _ = counter.most_common(1)[0]
        label = one_line(action, style.label_chars)
        if (a, b) in on_path:
            label = f"{on_path[(a, b)]}. {label}"
        total = sum(counter.values())
        label += f" ×{total}" if total > 1 else ""
        channel = _channel(row_of[a], row_of[b], column_x[a] < column_x[b])
        label_width = measure.getlength(label) + 6
        middle = (column_x[a] + column_x[b] + style.box_width) / 2
        lowest, highest = style.margin, width - style.margin - label_width
        wanted = min(max(middle - label_width / 2, lowest), highest)
        lanes = taken.setdefault(channel, [])
        lane, left = _lane(lanes, wanted, label_width, lowest, highest, style.box_width / 2)
        lanes[lane].append((left, left + label_width))
        slots.append(_Slot((a, b), label, (a, b) in on_path, channel, lane, left, label_width))
    return slots


def _channel(row_a: int, row_b: int, rightwards: bool) -> int:
    """The channel that carries the label of an arrow from row_a to row_b: the middle one it crosses;
    within a row, below it when the arrow points right and above when it points left, so an arrow and
    its way back never share a lane."""
    if row_a == row_b:
        return row_a + 1 if rightwards else row_a
    low, high = sorted((row_a, row_b))
    return (low + 1 + high) // 2


def _lane(
    lanes: list[list[Span]], wanted: float, size: float, lowest: float, highest: float, reach: float
) -> tuple[int, float]:
    """The first lane with room for the label near `wanted`, and its left edge there; else a new lane."""
    for lane, used in enumerate(lanes):
        left = _free_place(used, wanted, size, lowest, highest, reach)
        if left is not None:
            return lane, left
    lanes.append([])
    return len(lanes) - 1, wanted


def _free_place(
    used: list[Span], wanted: float, size: float, lowest: float, highest: float, reach: float
) -> float | None:
    """The left edge nearest `wanted` (and within `reach` of it) where [left, left + size] keeps _GAP from
    every interval in `used`, or None."""
    candidates = [wanted] + [end + _GAP for _, end in used] + [begin - _GAP - size for begin, _ in used]
    fits = [
        left
        for left in candidates
        if lowest <= left <= highest
        and abs(left - wanted) <= reach
        and all(left + size + _GAP <= begin or left >= end + _GAP for begin, end in used)
    ]
    return min(fits, key=lambda left: abs(left - wanted), default=None)


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


def _border_point(rect: Rect, towards: Point) -> Point:
    cx, cy = (rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2
    dx, dy = towards[0] - cx, towards[1] - cy
    if dx == 0 and dy == 0:
        return cx, cy
    half_w, half_h = (rect[2] - rect[0]) / 2, (rect[3] - rect[1]) / 2
    scale = min(half_w / abs(dx) if dx else math.inf, half_h / abs(dy) if dy else math.inf)
    return cx + dx * scale, cy + dy * scale


def _curve(a: Box, b: Box, label: Rect) -> list[Point]:
    """A quadratic Bézier from a's border to b's whose middle (t = 0.5) is the label's centre."""
    middle = ((label[0] + label[2]) / 2, (label[1] + label[3]) / 2)
    start, end = _border_point(a.rect, middle), _border_point(b.rect, middle)
    # B(0.5) = (start + 2 control + end) / 4
    control = (2 * middle[0] - (start[0] + end[0]) / 2, 2 * middle[1] - (start[1] + end[1]) / 2)
    return [start, control, end]


def bezier(points: list[Point], t: float) -> Point:
    (x0, y0), (cx, cy), (x1, y1) = points
    u = 1 - t
    return u * u * x0 + 2 * u * t * cx + t * t * x1, u * u * y0 + 2 * u * t * cy + t * t * y1
