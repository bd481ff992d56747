"""The hierarchy XML: the real uiautomator dump format, for every screen of both example apps."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree
from virtual_helpers import FOOD, FOOD_PACKAGE, NOTES, NOTES_PACKAGE, find, nodes, tap

from fairy_virtual import VirtualDevice, load_app_model, parse_app_model, render
from fairy_virtual.dump import dump_xml
from fairy_virtual.views import View, Window
from pytest_fairy.perception.hierarchy import Bounds, parse_hierarchy

NOTES_MODEL = load_app_model(NOTES)
REAL_ORDER = [
    "index", "text", "resource-id", "class", "package", "content-desc", "checkable", "checked", "clickable",
    "enabled", "focusable", "focused", "scrollable", "long-clickable", "password", "selected",
    "visible-to-user", "bounds",
]


def all_screens() -> list[tuple[Path, str, str, str]]:
    cases = []
    for path in (FOOD, NOTES):
        model = load_app_model(path)
        cases += [(path, model.app.package, s.id, model.activity_name(s.activity)) for s in model.screens]
    return cases


def check_format(xml: str) -> etree._Element:
    declaration = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"
    assert xml.startswith(declaration + '\n<hierarchy rotation="0">')
    root = etree.fromstring(xml.encode("utf-8"))
    assert root.tag == "hierarchy" and root.get("rotation") == "0"
    for element in root.iter("node"):
        assert list(element.attrib) == REAL_ORDER
        parent = element.getparent()
        if parent is not None and parent is not root:
            siblings = [c for c in parent if c.tag == "node"]
            assert int(element.get("index", "-1")) == siblings.index(element)
    parse_hierarchy(xml)
    return root


@pytest.mark.parametrize(("path", "package", "screen", "activity"), all_screens(),
                         ids=[f"{c[0].name}-{c[2]}" for c in all_screens()])
def test_every_screen_dumps_in_the_real_format(path: Path, package: str, screen: str, activity: str) -> None:
    device = VirtualDevice(path, latency=False)
    device.launch(package, activity)
    root = check_format(device.dump_hierarchy())
    windows = [w for w in root if w.tag == "node"]
    assert windows and all(w.get("index") == "0" for w in windows)
    assert {n.get("package") for n in root.iter("node")} <= {package, "com.android.chrome", "com.tencent.mm"}


def test_dialog_is_a_separate_window_root_over_the_screen(food: VirtualDevice) -> None:
    tap(food, "麦乐送")
    screen, dialog = parse_hierarchy(food.dump_hierarchy())
    assert screen.bounds == dialog.bounds == Bounds(0, 0, 1080, 2400)
    assert dialog.class_name == "android.widget.FrameLayout" and dialog.package == FOOD_PACKAGE
    panel = dialog.children[0]
    assert panel.bounds.area < dialog.bounds.area
    assert "请选择您的送达时间" in [n.text for n in dialog.iter()]
    assert "请选择您的送达时间" not in [n.text for n in screen.iter()]
    assert "汉堡" in [n.text for n in screen.iter()]


def test_escaping_and_utf8() -> None:
    text = 'a & b < c > "d"\nnext'
    view = View("android.widget.TextView", Bounds(0, 0, 100, 50), text=text, desc="麦当劳™")
    xml = dump_xml([Window(view, "com.x", "app")])
    assert 'text="a &amp; b &lt; c &gt; &quot;d&quot;&#10;next"' in xml
    assert 'content-desc="麦当劳™"' in xml
    (root,) = parse_hierarchy(xml)
    assert root.text == 'a & b < c > "d"\nnext'


@settings(max_examples=40, deadline=None)
@given(st.text(min_size=1, max_size=30))
def test_typed_text_arrives_literally(text: str) -> None:
    device = VirtualDevice(NOTES_MODEL, latency=False)
    device.launch(NOTES_PACKAGE)
    device.tap(*find(device, "et_username").bounds.center)
    device.type_text(text)
    assert device.variables["username"] == text
    field = find(device, "et_username")
    # XML cannot carry most control characters; uiautomator's dumper shows them as ".".
    assert field.text == re.sub("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff"
                                "\ufdd0-\ufddf\ufffe\uffff]", ".", text)


SHOP = """
app: {name: Shop, package: com.example.shop, launch: menu}
screens:
  - id: menu
    activity: .MenuActivity
    title: Menu
    elements:
      - {id: tv_head, text: Drinks}
      - class: RecyclerView
        id: rv_drinks
        list: {rows: 30, row_height: 180, row: {text: "Drink {i}"}}
      - {class: Button, id: btn_cart, text: Cart (0), dock: bottom}
      - class: LinearLayout
        id: tab_bar
        orientation: horizontal
        dock: bottom
        children:
          - {text: Home, clickable: true, on_tap: []}
          - {text: Order, clickable: true, on_tap: [], selected: true}
      - {id: card_box, style: card, padding: 20, children: [{text: Line one}, {text: Line two}], bounds: [0, 700, 1080, 1000]}
"""


def test_no_status_bar_the_flow_below_the_toolbar_and_docked_views_stacked_in_order() -> None:
    device = VirtualDevice(parse_app_model(SHOP), latency=False)
    device.launch("com.example.shop")
    assert find(device, "toolbar").bounds == Bounds(0, 0, 1080, 168)  # the window starts at the top
    assert find(device, "tv_head").bounds == Bounds(40, 208, 1040, 318)
    # Docked views stack up from the bottom edge in the order written: the last one is the lowest.
    assert find(device, "tab_bar").bounds == Bounds(40, 2290, 1040, 2400)  # a TextView's height, 110
    assert find(device, "btn_cart").bounds == Bounds(40, 2146, 1040, 2290)
    assert find(device, "rv_drinks").bounds == Bounds(40, 342, 1040, 2146)  # 1804 px: 10 rows and 4 px
    rows = [n for n in nodes(device) if n.text.startswith("Drink ")]
    assert len(rows) == 11 and rows[-1].bounds.height == 4


def test_a_card_holding_children_is_drawn_behind_them_as_tall_as_they_are() -> None:
    app = SHOP.replace(", bounds: [0, 700, 1080, 1000]}", "}")  # in the flow, below the list
    device = VirtualDevice(parse_app_model(app), latency=False)
    device.launch("com.example.shop")
    card, one = find(device, "card_box").bounds, find(device, "Line one").bounds
    assert card.height == 2 * 20 + 110 + 24 + 110 and one.top == card.top + 20
    assert device.screenshot().getpixel((card.left + 10, card.top + 10)) == render.CARD
