from __future__ import annotations

import io
import random
import re

import pytest
from lxml import etree
from PIL import Image

from pytest_fairy.explore.state import StateId
from pytest_fairy.explore.tree import FeatureTree
from pytest_fairy.report.tree_picture import PictureStyle, render_tree_png, render_tree_svg


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
    boxes = {m.group(3): (float(m.group(1)), float(m.group(2))) for m in re.finditer(
        r'<rect x="(\d+)" y="(\d+)" width="\d+" height="\d+" rx="\d+" fill="[^"]+" stroke="[^"]+" '
        r'stroke-width="[\d.]+"( stroke-dasharray="6 3")?/>', svg)}
    page_xy, dialog_xy = boxes[None], boxes[' stroke-dasharray="6 3"']
    assert page_xy[1] == dialog_xy[1], "the dialog is in its page's row"
    assert "×4" in svg  # four self-loops in the dialog
    assert "tap [4] 配送时间" in svg and "back" in svg


def test_empty_tree_renders_a_placeholder() -> None:
    assert "(empty)" in render_tree_svg(FeatureTree())
    assert Image.open(io.BytesIO(render_tree_png(FeatureTree()))).format == "PNG"
