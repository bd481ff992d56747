from __future__ import annotations

import io
import itertools
import random
import re

import pytest
from lxml import etree
from PIL import Image

from pytest_fairy.explore.state import StateId
from pytest_fairy.explore.tree import FeatureTree
from pytest_fairy.report.tree_layout import Rect, bezier
from pytest_fairy.report.tree_picture import PictureStyle, render_tree_png, render_tree_svg, tree_layout


def sid(i: int, dialog: bool = False, content: int = 0) -> StateId:
    return StateId(f"com.mcd.Page{i}Activity", f"{i:016x}", "d" * 16 if dialog else "", f"c{content}")


def grown_tree(states: int, seed: int = 1) -> FeatureTree:
    """A walk that discovers `states` states (every 4th a dialog over the page before it), with back
    steps, self-loops and revisits, as an exploration does."""
    rng = random.Random(seed)
    tree = FeatureTree()
    known = [sid(0)]
    tree.record(1, None, None, known[0], "首页", False)
    previous, step = known[0], 1
    while len(known) < states or step < states * 2:
        step += 1
        if len(known) < states and rng.random() < 0.6:
            n = len(known)
            dialog = n % 4 == 3
            now = StateId(previous.activity, previous.structure_hash, f"{n:016x}", "c0") if dialog else sid(n)
            known.append(now)
            title, action = (f"弹窗 {n}" if dialog else f"页面 {n} 商品详情"), f"tap [{n % 9}] 按钮{n}"
        else:
            now = rng.choice(known) if rng.random() < 0.7 else previous
            title, action = "", "back" if now is not previous else "tap [1] 预约送餐"
        tree.record(step, previous, action, now, title, now.has_dialog)
        previous = now
    return tree


@pytest.mark.parametrize("states", [1, 10, 40])
def test_png_renders(states: int) -> None:
    tree = grown_tree(states)
    assert len(tree.states) == states
    data = render_tree_png(tree)
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    assert image.width >= 300 and image.height >= 100
    # Not a blank canvas: boxes and text put many colours on it.
    assert len(image.convert("RGB").getcolors(maxcolors=1 << 16) or []) > 20
    if states == 40:
        style = PictureStyle()
        assert image.width <= style.margin * 2 + style.per_row * (style.box_width + style.gap_x) + 40


@pytest.mark.parametrize("states", [1, 10, 40])
def test_svg_renders(states: int) -> None:
    tree = grown_tree(states)
    svg = render_tree_svg(tree)
    root = etree.fromstring(svg.encode("utf-8"))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    rects = root.findall(".//{http://www.w3.org/2000/svg}rect")
    assert len(rects) == states + 1  # one per state plus the background
    texts = "".join(root.itertext())
    assert "首页" in texts
    dashed = [r for r in rects if r.get("stroke-dasharray")]
    assert len(dashed) == sum(info.is_dialog for info in tree.states.values())
    if states > 1:
        assert len(root.findall(".//{http://www.w3.org/2000/svg}path")) >= states - 1
    # The arrow labels are drawn where the layout put them.
    label_boxes = [edge.label_box for edge in tree_layout(tree).edges]
    drawn = [t for t in root.iter("{http://www.w3.org/2000/svg}text") if t.get("text-anchor") == "middle"]
    assert len(drawn) == len(label_boxes)
    for text, (left, top, right, bottom) in zip(drawn, label_boxes, strict=True):
        assert left < float(text.get("x", "nan")) < right and top < float(text.get("y", "nan")) <= bottom


def test_dialogs_sit_beside_their_page_and_loops_are_counted() -> None:
    tree = FeatureTree()
    menu = sid(0)
    dialog = StateId(menu.activity, menu.structure_hash, "a" * 16, "c0")
    tree.record(1, None, None, menu, "麦乐送", False)
    tree.record(2, menu, "tap [4] 配送时间", dialog, "请选择您的送达时间", True)
    for step in range(3, 7):
        tree.record(step, dialog, "tap [2] 预约送餐", dialog, "", True)
    tree.record(7, dialog, "back", menu, "", False)
    svg = render_tree_svg(tree)
    boxes = {
        m.group(3): (float(m.group(1)), float(m.group(2)))
        for m in re.finditer(
            r'<rect x="(\d+)" y="(\d+)" width="\d+" height="\d+" rx="\d+" fill="[^"]+" stroke="[^"]+" '
            r'stroke-width="[\d.]+"( stroke-dasharray="6 3")?/>',
            svg,
        )
    }
    page_xy, dialog_xy = boxes[None], boxes[' stroke-dasharray="6 3"']
    assert page_xy[1] == dialog_xy[1], "the dialog is in its page's row"
    assert "×4" in svg  # four self-loops in the dialog
    # Within a row, an arrow's label goes below the row when it points right, above when it points left:
    # the way there and the way back never share a band.
    layout = tree_layout(tree)
    row = layout.boxes[0].rect
    labels = {edge.label.split(". ", 1)[-1]: edge.label_box for edge in layout.edges}
    there, back = labels["tap [4] 配送时间"], labels["back"]
    assert layout.boxes[0].x < layout.boxes[1].x, "the page, then its dialog"
    assert there[1] >= row[3] and back[3] <= row[1]
    assert "tap [4] 配送时间" in svg and "back" in svg


def test_empty_tree_renders_a_placeholder() -> None:
    assert "(empty)" in render_tree_svg(FeatureTree())
    assert Image.open(io.BytesIO(render_tree_png(FeatureTree()))).format == "PNG"


def overlap(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


NARROW = PictureStyle(box_width=60, gap_x=20)  # labels wider than the boxes: pushed in at the canvas edges


@pytest.mark.parametrize(
    ("states", "seed", "style"),
    [
        (10, 1, PictureStyle()),
        (40, 2, PictureStyle()),
        (60, 1, PictureStyle()),
        (60, 2, PictureStyle()),
        (60, 3, PictureStyle()),
        (60, 1, NARROW),
        (60, 4, NARROW),
    ],
)
def test_labels_overlap_neither_each_other_nor_the_boxes(states: int, seed: int, style: PictureStyle) -> None:
    tree = grown_tree(states, seed)
    layout = tree_layout(tree, style)
    labels, boxes = layout.label_boxes(), [box.rect for box in layout.boxes]
    assert len(boxes) == states
    assert len(labels) == len(layout.edges) + sum(1 for box in layout.boxes if box.loops)
    assert any(box.loops for box in layout.boxes), "self-loop counts are checked too"
    for i, label in enumerate(labels):
        assert not [other for other in labels[i + 1 :] if overlap(label, other)], label
        assert not [box for box in boxes if overlap(label, box)], label
    for i, box in enumerate(boxes):
        assert not [other for other in boxes[i + 1 :] if overlap(box, other)], box
    for left, top, right, bottom in labels + boxes:
        assert 0 <= left < right <= layout.width and 0 <= top < bottom <= layout.height
    for left, _, right, _ in [edge.label_box for edge in layout.edges] + boxes:
        assert style.margin <= left and right <= layout.width - style.margin  # the margins stay clear
    # Rows keep the arrows room between them, and the picture stays a sane size: as wide as six boxes,
    # no taller than two gaps a row.
    rows = sorted({box.y for box in layout.boxes})
    assert all(b - a >= style.box_height + style.gap_y for a, b in itertools.pairwise(rows))
    # The labels between two rows are centred in the band between them.
    for upper, lower in itertools.pairwise(rows):
        band = [label for label in labels if upper + style.box_height <= label[1] and label[3] <= lower]
        if band:
            above = min(label[1] for label in band) - (upper + style.box_height)
            below = lower - max(label[3] for label in band)
            assert abs(above - below) <= 3, (upper, lower)
    gap_x = max(style.gap_x, 60)  # room for a self-loop's count
    assert layout.width <= style.margin * 2 + style.per_row * (style.box_width + gap_x) + 40
    assert layout.height <= style.margin * 2 + style.header + len(rows) * (style.box_height + 2 * style.gap_y)


def test_each_label_sits_on_its_arrow_near_its_middle() -> None:
    style = PictureStyle()
    layout = tree_layout(grown_tree(60), style)
    by_name = {box.info.key: box for box in layout.boxes}
    for edge in layout.edges:
        left, top, right, bottom = edge.label_box
        mx, my = bezier(edge.points, 0.5)
        assert (mx, my) == pytest.approx(((left + right) / 2, (top + bottom) / 2)), edge.label
        ends = [box for box in by_name.values() if on_border(edge.points[0], box.rect)]
        assert ends, f"{edge.label} starts on a box's border"
        assert [box for box in by_name.values() if on_border(edge.points[-1], box.rect)]
        # Near the middle between the two boxes it joins, unless pushed in from the canvas edge.
        start, end = ends[0], next(b for b in by_name.values() if on_border(edge.points[-1], b.rect))
        middle = (start.x + end.x + style.box_width) / 2
        # Between rows, in the band halfway: as many rows between the label and either end, give or take one.
        high, low = sorted((start.y, end.y))
        if high != low:
            label_y = (top + bottom) / 2
            above = len({b.y for b in by_name.values() if high < b.y < label_y})
            below = len({b.y for b in by_name.values() if label_y < b.y < low})
            assert high < label_y < low and abs(above - below) <= 1, edge.label
        at_edge = left <= style.margin or right >= layout.width - style.margin
        assert at_edge or abs((left + right) / 2 - middle) <= style.box_width / 2 + 1, edge.label


def on_border(point: tuple[float, float], rect: Rect) -> bool:
    x, y = point
    inside = rect[0] - 0.01 <= x <= rect[2] + 0.01 and rect[1] - 0.01 <= y <= rect[3] + 0.01
    return inside and min(abs(x - rect[0]), abs(x - rect[2]), abs(y - rect[1]), abs(y - rect[3])) < 0.01
