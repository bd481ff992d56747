"""The uiautomator hierarchy as Python objects: `Bounds`, `Node`, and `parse_hierarchy`.

A dump holds one top-level `<node>` per window (the app, each dialog or popup, the IME, system UI);
their order in the file is not reliable, so layer detection (see `layers.py`) decides the z-order.
Appium's page source (`driver.page_source`: each view an element named by its class, `displayed` for
`visible-to-user`) is read the same way, so a team's saved Appium pages work too.

Bounds are clipped to the screen once, here, as nodes are read: the screen is the rectangle from the
origin to the far corner of the window roots (a dump names no screen size). Everything after - layers,
marks and their tap points, the text, state hashing, the Set-of-Mark drawing - sees on-screen bounds
only: an element partly off screen keeps its on-screen part, and one wholly off screen (or of zero area
once clipped: uiautomator writes `[0,0][0,0]` or a flat box on the edge for views it cannot see) is not
visible, like one the dump flags `visible-to-user="false"`. Real phones do report absurd bounds
(`[-500,-500][99999999,99999999]`); drawing them unclipped cost a second a step.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, cast

from lxml import etree

from pytest_fairy.errors import PerceptionError

_BOUNDS = re.compile(r"\[\s*(-?\d+)\s*,\s*(-?\d+)\s*\]\s*\[\s*(-?\d+)\s*,\s*(-?\d+)\s*\]")


@dataclass(frozen=True, slots=True)
class Bounds:
    left: int
    top: int
    right: int
    bottom: int

    @classmethod
    def parse(cls, text: str) -> Bounds:
        match = _BOUNDS.fullmatch(text.strip())
        if match is None:
            raise PerceptionError(f"bad bounds {text!r}: expected [x1,y1][x2,y2]")
        return cls(*map(int, match.groups()))

    def __str__(self) -> str:
        return f"[{self.left},{self.top}][{self.right},{self.bottom}]"

    @property
    def width(self) -> int:
        return max(0, self.right - self.left)

    @property
    def height(self) -> int:
        return max(0, self.bottom - self.top)

    @property
    def area(self) -> int:
        return self.width * self.height

    @property
    def center(self) -> tuple[int, int]:
        return (self.left + self.right) // 2, (self.top + self.bottom) // 2

    def contains(self, x: int, y: int) -> bool:
        return self.left <= x < self.right and self.top <= y < self.bottom

    def clip(self, screen: Bounds) -> Bounds:
        """These bounds cut to `screen`: every edge inside it, right >= left and bottom >= top (an
        inverted or wholly outside box becomes an empty one on the screen's edge)."""
        if screen.left <= self.left <= self.right <= screen.right and (
            screen.top <= self.top <= self.bottom <= screen.bottom
        ):
            return self  # nearly every node of a real dump
        left = min(max(self.left, screen.left), screen.right)
        top = min(max(self.top, screen.top), screen.bottom)
        right = min(max(self.right, left), screen.right)
        bottom = min(max(self.bottom, top), screen.bottom)
        return Bounds(left, top, right, bottom)

    def intersection(self, other: Bounds) -> Bounds | None:
        left, top = max(self.left, other.left), max(self.top, other.top)
        right, bottom = min(self.right, other.right), min(self.bottom, other.bottom)
        if right <= left or bottom <= top:
            return None
        return Bounds(left, top, right, bottom)


@dataclass(eq=False, slots=True)
class Node:
    """One view. Attribute names follow the dump with dashes turned into underscores."""

    index: int = 0
    text: str = ""
    resource_id: str = ""
    class_name: str = ""
    package: str = ""
    content_desc: str = ""
    checkable: bool = False
    checked: bool = False
    clickable: bool = False
    enabled: bool = True
    focusable: bool = False
    focused: bool = False
    scrollable: bool = False
    long_clickable: bool = False
    password: bool = False
    selected: bool = False
    visible: bool = True
    # NAF ("not accessibility friendly"): uiautomator's flag for a clickable view with no text or desc.
    naf: bool = False
    bounds: Bounds = field(default_factory=lambda: Bounds(0, 0, 0, 0))
    children: list[Node] = field(default_factory=list)
    parent: Node | None = field(default=None, repr=False)
    depth: int = 0

    @property
    def editable(self) -> bool:
        return "EditText" in self.class_name or "AutoCompleteTextView" in self.class_name

    @property
    def interactive(self) -> bool:
        """An element the explorer can act on: it gets a Set-of-Mark number."""
        return self.enabled and (
            self.clickable or self.long_clickable or self.checkable or self.editable or self.scrollable
        )

    @property
    def push_button(self) -> bool:
        """A button to press (Button, ImageButton, MaterialButton...): not a checkable one (a radio, a
        toggle), nor a layout named for buttons (ButtonBarLayout)."""
        return self.short_class.endswith("Button") and not self.checkable

    @property
    def short_class(self) -> str:
        return self.class_name.rsplit(".", 1)[-1]

    @property
    def short_id(self) -> str:
        return self.resource_id.rsplit("/", 1)[-1]

    @property
    def label(self) -> str:
        """What a person would call this element: its text, else content-desc, else its id."""
        return self.text or self.content_desc or self.short_id

    def iter(self) -> Iterator[Node]:
        """This node and all below it, in document (pre-)order."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))


def screen_bounds(windows: list[Node]) -> Bounds:
    """The screen as the union of the window roots (the status bar and nav bar span it on real dumps)."""
    if not windows:
        return Bounds(0, 0, 0, 0)
    return Bounds(
        min(w.bounds.left for w in windows),
        min(w.bounds.top for w in windows),
        max(w.bounds.right for w in windows),
        max(w.bounds.bottom for w in windows),
    )


# A container this much of its window's area, showing nothing itself, is a layout wrapper: what its window
# draws is what lies inside it.
WRAPPER_MIN_AREA = 0.9


def drawn_regions(root: Node) -> tuple[Bounds, ...]:
    """Where a window draws, as far as its dump tells: the bounds of its visible views, except that a
    wrapper as large as the window (and showing nothing itself) stands for what is inside it. A view's own
    background is not in a dump; a window's wrappers span it whole even where nothing is drawn (an input
    method's window reaches up over the app while it draws only a toolbar), so they are looked through."""
    limit = WRAPPER_MIN_AREA * root.bounds.area
    regions: list[Bounds] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if not node.visible:
            continue
        if node.bounds.area >= limit and not (node.text or node.content_desc or node.interactive):
            stack.extend(reversed(node.children))
        else:
            regions.append(node.bounds)
    return tuple(regions)


# The boolean attributes of a dump node, in the dump's order.
BOOL_ATTRIBUTES = (
    "checkable",
    "checked",
    "clickable",
    "enabled",
    "focusable",
    "focused",
    "scrollable",
    "long-clickable",
    "password",
    "selected",
)


_TRUE = "true"


def _where(element: etree._Element) -> str:
    get = element.attrib.get
    what = get("resource-id") or get("class") or "node"
    return f"<node {what}> on line {element.sourceline}"


def _flag(value: str) -> bool:
    # The common spellings first: this runs for every attribute of every node of every dump.
    if value == _TRUE:
        return True
    if value == "false":
        return False
    return value.strip().lower() == _TRUE


_BOOL_FIELDS = tuple((attr, attr.replace("-", "_")) for attr in BOOL_ATTRIBUTES)


def _bounds_of(element: etree._Element, text: str | None) -> Bounds:
    try:
        return Bounds.parse(text) if text else Bounds(0, 0, 0, 0)
    except PerceptionError as exc:
        raise PerceptionError(f"{exc} in {_where(element)}") from exc


def _screen_of(roots: list[etree._Element]) -> Bounds:
    """The screen: from the origin to the far corner of the window roots."""
    corners = [_bounds_of(root, root.attrib.get("bounds")) for root in roots]
    right = max((b.right for b in corners), default=0)
    return Bounds(0, 0, right, max((b.bottom for b in corners), default=0))


def _node_from(element: etree._Element, parent: Node | None, depth: int, screen: Bounds) -> Node:
    attrs = dict(element.attrib)  # one copy out of lxml: cheaper than a lookup per attribute
    get = attrs.get
    bounds = _bounds_of(element, get("bounds")).clip(screen)
    index_text = get("index") or "0"
    if not index_text.isdigit():
        index_text = index_text.strip()
    flags = {name: _flag(attrs[attr]) for attr, name in _BOOL_FIELDS if attr in attrs}
    node = Node(
        # Some dumpers write an empty or odd index; it only orders siblings, so 0 is a safe stand-in.
        index=int(index_text) if index_text.lstrip("-").isdigit() else 0,
        text=get("text", ""),
        resource_id=get("resource-id", ""),
        class_name=get("class", ""),
        package=get("package", ""),
        content_desc=get("content-desc", ""),
        bounds=bounds,
        visible=bounds.area > 0 and _flag(get("visible-to-user") or get("displayed") or _TRUE),
        naf=_flag(get("NAF", "")),
        parent=parent,
        depth=depth,
        # Only the boolean fields of _BOOL_FIELDS: mypy cannot tell from a dict's keys.
        **cast(dict[str, Any], flags),
    )
    node.children = [_node_from(child, node, depth + 1, screen) for child in element if _is_view(child)]
    return node


def _is_view(element: etree._Element) -> bool:
    """A view of the dump: `<node>` in uiautomator's format; in Appium's page source the element is named
    by its class (`<android.widget.FrameLayout ... bounds=...>`)."""
    return element.tag == "node" or (isinstance(element.tag, str) and "bounds" in element.attrib)


def parse_hierarchy(xml: str | bytes) -> list[Node]:
    """The window roots of a dump, in file order. Raises PerceptionError on an empty or broken dump."""
    data = xml.encode("utf-8") if isinstance(xml, str) else xml
    if not data.strip():
        raise PerceptionError("empty hierarchy dump")
    try:
        root = etree.fromstring(data, parser=etree.XMLParser(resolve_entities=False, huge_tree=True))
    except etree.XMLSyntaxError as exc:
        raise PerceptionError(f"hierarchy dump is not well-formed XML: {exc}") from exc
    if root.tag != "hierarchy":
        raise PerceptionError(f"hierarchy dump has root <{root.tag}>, expected <hierarchy>")
    roots = [child for child in root if _is_view(child)]
    screen = _screen_of(roots)
    try:
        windows = [_node_from(child, None, 0, screen) for child in roots]
    except RecursionError as exc:
        raise PerceptionError("hierarchy dump is nested too deeply to be a real view tree") from exc
    if not windows:
        raise PerceptionError("hierarchy dump has no window (<hierarchy> without <node>)")
    return windows
