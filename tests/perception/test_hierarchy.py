"""Parsing dumps: real-format XML, escaping, NAF, missing attributes, and clear errors for broken ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_fairy.errors import PerceptionError
from pytest_fairy.perception.hierarchy import Bounds, Node, parse_hierarchy

from .builder import menu_screen

DUMPS = Path(__file__).parent / "dumps"


@pytest.mark.parametrize(
    ("xml", "message"),
    [
        ("", "empty hierarchy dump"),
        ("   \n\t", "empty hierarchy dump"),
        ("ERROR: could not get idle state.", "not well-formed XML"),
        ("<hierarchy><node bounds='[0,0][1,1]'>", "not well-formed XML"),
        ("<html><body/></html>", "root <html>, expected <hierarchy>"),
        ("<hierarchy rotation='0'></hierarchy>", "has no window"),
        ("<hierarchy><node text='&nbsp;' /></hierarchy>", "not well-formed XML"),
    ],
)
def test_broken_dumps_raise_perception_error_saying_what(xml: str, message: str) -> None:
    with pytest.raises(PerceptionError, match=message):
        parse_hierarchy(xml)


def test_bad_bounds_name_the_node_and_line() -> None:
    xml = (
        "<hierarchy>\n<node class='android.widget.FrameLayout' bounds='[0,0][1080,2400]'>\n"
        "<node resource-id='com.x:id/buy' class='android.widget.Button' bounds='[0,0]-[10,10]' />"
        "</node></hierarchy>"
    )
    with pytest.raises(PerceptionError, match=r"bad bounds '\[0,0\]-\[10,10\]'.*com\.x:id/buy.*line 3"):
        parse_hierarchy(xml)


def test_hand_written_dump_with_escapes_naf_and_missing_attributes() -> None:
    (window,) = parse_hierarchy((DUMPS / "escaped_naf.xml").read_text(encoding="utf-8"))
    title, fab, code, quote, hidden, bare = window.children
    assert title.text == "笔记 & 待办"
    assert code.text == "if a < b && c > d"
    assert quote.text == '他说："你好" \U0001f600'
    assert fab.naf and fab.clickable and fab.interactive and not title.naf
    # Missing attributes take the defaults of a plain, enabled, visible view.
    assert code.package == "" and code.resource_id == "" and code.enabled and code.visible
    assert not code.clickable
    # Odd values: a non-numeric index, upper-case booleans, spaces inside bounds.
    assert quote.index == 0 and quote.clickable
    assert quote.bounds == Bounds(40, 420, 1040, 520)
    assert not hidden.visible
    assert bare.class_name == "" and bare.bounds == Bounds(0, 0, 0, 0)
    assert [n.depth for n in (window, title)] == [0, 1] and title.parent is window


def test_bytes_with_declaration_and_every_window_root() -> None:
    roots = parse_hierarchy(menu_screen().encode("utf-8"))
    assert [r.package for r in roots] == ["com.android.systemui", "com.example.food", "com.android.systemui"]
    assert sum(1 for r in roots for _ in r.iter()) > 70


def test_absurdly_deep_nesting_is_a_perception_error() -> None:
    depth = 1500  # deeper than Python recursion allows, shallower than libxml2 refuses
    xml = "<hierarchy>" + "<node bounds='[0,0][1,1]'>" * depth + "</node>" * depth + "</hierarchy>"
    with pytest.raises(PerceptionError, match="nested too deeply"):
        parse_hierarchy(xml)


def test_bounds_geometry() -> None:
    b = Bounds.parse("[10,20][110,220]")
    assert (b.width, b.height, b.area, b.center) == (100, 200, 20000, (60, 120))
    assert Bounds.parse("[10,20][5,5]").area == 0  # inverted boxes are empty, not negative
    assert b.intersection(Bounds(100, 200, 300, 300)) == Bounds(100, 200, 110, 220)
    assert b.intersection(Bounds(500, 500, 600, 600)) is None


@pytest.mark.parametrize(
    ("class_name", "checkable", "pressed"),
    [
        ("android.widget.Button", False, True),
        ("android.widget.ImageButton", False, True),
        ("com.google.android.material.button.MaterialButton", False, True),
        ("com.google.android.material.floatingactionbutton.FloatingActionButton", False, True),
        ("android.widget.RadioButton", True, False),  # an option, not a button to press
        ("android.widget.ToggleButton", True, False),
        ("androidx.appcompat.widget.ButtonBarLayout", False, False),  # the row a dialog's buttons sit in
        ("android.widget.TextView", False, False),
    ],
)
def test_a_push_button_is_pressed_not_checked_and_not_the_layout_buttons_sit_in(
    class_name: str, checkable: bool, pressed: bool
) -> None:
    assert Node(class_name=class_name, checkable=checkable).push_button is pressed
