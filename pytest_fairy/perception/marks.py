"""A mark: an element the explorer may act on, numbered as drawn on the Set-of-Mark screenshot, and the
rules that give each control a person sees one mark.

Its own module, below the screen, because the refs that name marks and match them across screens are
built before the screen that holds them.

A dump flags more views than a person has controls: a clickable row and the switch inside it, a clickable
frame and the button filling it, nested lists, a page-wide clickable wrapper. `one_mark_per_control`
takes the actionable views of one layer (`actionable.actionable`, not hidden by a layer above) and drops
those that are no control of their own, each by a named rule:

- `under_bar` (`covered.py`): a view in a list whose centre is under a bar the window draws later over the
  list's edge (a toolbar, a search box, a bottom navigation bar, a mini player): a person sees the bar
  there and a tap lands on it. The bar hides only where it draws (a view in it that is clickable or says
  something), never by its bare container bounds;
- `page_wrapper`: a clickable view spanning its window, naming nothing itself, with marks inside it;
- `dialog_panel`: a dialog's, sheet's or popup's clickable panel, naming nothing itself, holding every
  other mark of its layer (set clickable so that a tap on its padding does not fall through);
- `sliver`: a nameless strip: a row scrolled nearly out of view, a hairline hit area;
- `wraps_disabled`: a clickable container whose only control is disabled;
- `wrapper_of`: a clickable parent filled by one clickable child (the child keeps the mark);
- `toggle_row`: a clickable row holding only a switch / checkbox / radio: the row keeps the mark and takes
  the control's checked state, so what reads `mark.node.checked` still sees the setting;
- `outer_scroller`: a scroll container filled by a scroll container inside it (the inner keeps the mark).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pytest_fairy.perception.covered import BarCover
from pytest_fairy.perception.hierarchy import Bounds, Node
from pytest_fairy.perception.layers import Layer, LayerKind
from pytest_fairy.perception.reading import UNMEASURED, node_label

PAGE_WRAPPER_MIN = 0.9  # of its layer's area: a clickable this large is the page, not a control on it
SLIVER_MIN = 24  # px: a nameless view this thin where a list's or window's edge cuts it is a row's edge
HAIRLINE = 8  # px: a nameless view this thin is tapped nowhere
NEAR_BOUNDS = 0.8  # of the parent's area: a child this large is the same touch target as its parent
FILL = 0.8  # of the outer scroll container's area: an inner one this large is what a swipe there moves
# Layers with a panel of their own in front of the page.
PANEL_KINDS = frozenset({LayerKind.DIALOG, LayerKind.BOTTOM_SHEET, LayerKind.POPUP})


@dataclass(frozen=True, slots=True, repr=False)
class Mark:
    """A numbered element on the screen (the number drawn on the Set-of-Mark screenshot)."""

    number: int
    node: Node
    ref: str
    layer: LayerKind

    def __repr__(self) -> str:
        return f"Mark([{self.number}] {self.ref!r} {self.layer} {self.node.short_class} {self.bounds})"

    @property
    def bounds(self) -> Bounds:
        return self.node.bounds

    @property
    def center(self) -> tuple[int, int]:
        return self.node.bounds.center

    @property
    def label(self) -> str:
        return node_label(self.node)


def one_mark_per_control(layer: Layer, nodes: list[Node]) -> list[Node]:
    """`nodes` (the actionable views of `layer` a tap reaches) less the ones that are no control of their
    own (the module doc), in their order. A toggle row takes its control's state (`toggle_row`)."""
    candidates = {id(node) for node in nodes}
    bars = BarCover(layer)
    kept = [
        node
        for node in nodes
        if not (
            bars.under_bar(node)
            or page_wrapper(node, layer, nodes)
            or dialog_panel(node, layer, nodes)
            or sliver(node, layer)
            or wraps_disabled(node, candidates)
        )
    ]
    # Until nothing merges: a row that took its switch's state may itself be all an outer row holds.
    while dropped := _merged(kept):
        kept = [node for node in kept if id(node) not in dropped]
    return kept


def _merged(kept: list[Node]) -> set[int]:
    """The marks among `kept` that are one control with another one (`wrapper_of`, `outer_scroller`,
    `toggle_row`); a toggle row takes the state of the controls it absorbs."""
    marked = {id(node) for node in kept}
    dropped: set[int] = set()
    for node in kept:
        parent = _marked_ancestor(node, marked)
        if parent is not None and wrapper_of(parent, node, marked):
            dropped.add(id(node) if _named_only_by(parent, node) else id(parent))
        if outer_scroller(node, marked):
            dropped.add(id(node))
    if dropped:
        return dropped
    for row in reversed(kept):  # the innermost rows first
        controls = toggle_row(row, marked)
        if controls:
            dropped.update(id(control) for control in controls)
            marked.difference_update(id(control) for control in controls)
            if not row.checkable:
                # The row is the toggle a person taps: it carries the setting's state for what reads marks.
                row.checkable = True
                row.checked = any(control.checked for control in controls)
    return dropped


def _own_name(node: Node) -> bool:
    return bool(node.text.strip() or node.content_desc.strip())


def _readable(node: Node) -> bool:
    """Whether `node` shows text a person reads: its own or a descendant's, on screen (or drawn but
    unmeasured, `reading.UNMEASURED`)."""
    return any(_own_name(n) and (n.visible or n.bounds == UNMEASURED) for n in node.iter())


def _inside(node: Node, ancestor: Node) -> bool:
    parent = node.parent
    while parent is not None:
        if parent is ancestor:
            return True
        parent = parent.parent
    return False


def _marked_ancestor(node: Node, marked: set[int]) -> Node | None:
    parent = node.parent
    while parent is not None and id(parent) not in marked:
        parent = parent.parent
    return parent


def _outside(parent: Node, child: Node) -> Iterable[Node]:
    """The nodes below `parent` that are not `child` nor below it."""
    stack = [c for c in parent.children if c is not child]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(c for c in node.children if c is not child)


def page_wrapper(node: Node, layer: Layer, nodes: list[Node]) -> bool:
    """A clickable view spanning `PAGE_WRAPPER_MIN` of its window, naming nothing itself, with other
    marks inside it: a page-wide container (a list screen's root, a launcher's page, a camera page
    behind a gallery) set clickable to swallow stray taps. Its controls are marked; a tap on the
    container itself lands on one of them or on nothing. A nameless full-window view with nothing inside
    it stays: it is a scrim, which the text names as the background a tap outside a dialog lands on."""
    if node.scrollable or node.editable or node.checkable or _own_name(node):
        return False
    if node.bounds.area < PAGE_WRAPPER_MIN * layer.bounds.area:
        return False
    return any(other is not node and _inside(other, node) for other in nodes)


def dialog_panel(node: Node, layer: Layer, nodes: list[Node]) -> bool:
    """A dialog's, sheet's or popup's panel set clickable (so that a tap on its padding neither falls
    through nor dismisses): nameless itself, holding every other mark of its layer, one at least. Inside
    a window smaller than the screen it spans less than `PAGE_WRAPPER_MIN` of it (the window has margins),
    but it is no more a control than a page wrapper is."""
    if layer.kind not in PANEL_KINDS or node.scrollable or node.editable or node.checkable or _own_name(node):
        return False
    others = [other for other in nodes if other is not node]
    return bool(others) and all(_inside(other, node) for other in others)


def sliver(node: Node, layer: Layer) -> bool:
    """A view showing nothing to read that is thinner than `HAIRLINE` px, or thinner than `SLIVER_MIN`
    px where the edge of its window or of a list cuts it: a row scrolled nearly out of view, a hit area
    of a hairline. A person scrolls the row into view rather than aim at a strip they cannot identify.
    A small icon that says what it is (a description) stays, and so does a narrow nameless handle
    inside the page (a rail's grip)."""
    thin = min(node.bounds.width, node.bounds.height)
    if thin >= SLIVER_MIN or _readable(node):
        return False
    return thin < HAIRLINE or _cut(node, layer)


def _cut(node: Node, layer: Layer) -> bool:
    """Whether the thin side of `node` lies on the edge of its window or of a scrolling ancestor."""
    b = node.bounds
    edges = [layer.bounds]
    parent = node.parent
    while parent is not None:
        if parent.scrollable:
            edges.append(parent.bounds)
        parent = parent.parent
    if b.height <= b.width:
        return any(b.top == e.top or b.bottom == e.bottom for e in edges)
    return any(b.left == e.left or b.right == e.right for e in edges)


def wraps_disabled(node: Node, candidates: set[int]) -> bool:
    """A clickable container, naming nothing itself, whose only controls are disabled and whose texts
    are theirs: a frame around a greyed-out button. Tapping it does what tapping the button does:
    nothing."""
    if not (node.clickable or node.long_clickable) or _own_name(node) or node.scrollable:
        return False
    inner = [n for n in node.iter() if n is not node]
    disabled = [n for n in inner if not n.enabled and (n.clickable or n.checkable or n.editable)]
    if not disabled or any(id(n) in candidates or (n.enabled and n.interactive) for n in inner):
        return False
    return all(not _own_name(n) or any(n is d or _inside(n, d) for d in disabled) for n in inner)


def wrapper_of(parent: Node, child: Node, marked: set[int]) -> bool:
    """`parent` only wraps `child`: the child fills `NEAR_BOUNDS` of it and nothing else under the
    parent is marked or names anything. One touch target for a person; the finger lands on the child."""
    if parent.scrollable or child.scrollable or not parent.bounds.area:
        return False
    if child.bounds.area < NEAR_BOUNDS * parent.bounds.area:
        return False
    return not any(id(n) in marked or _own_name(n) for n in _outside(parent, child))


def _named_only_by(parent: Node, child: Node) -> bool:
    """The wrapper keeps the mark when it alone says what the control is (its own text or description)
    and the child is a plain, nameless view; a checkable child keeps its state."""
    return _own_name(parent) and not _readable(child) and not child.checkable


def toggle_row(row: Node, marked: set[int]) -> list[Node]:
    """The switches / checkboxes / radios a clickable `row` toggles, when they are all it holds that is
    marked: a settings row and its switch are one control for a person (the row's tap flips the
    switch). Empty when `row` is no such row."""
    if not row.clickable or row.scrollable or row.editable:
        return []
    inner = [n for n in row.iter() if n is not row and id(n) in marked]
    controls = [n for n in inner if n.checkable and not n.scrollable]
    if not controls or any(not n.checkable and not any(_inside(n, c) for c in controls) for n in inner):
        return []
    return controls


def outer_scroller(node: Node, marked: set[int]) -> bool:
    """A scroll container filled (`FILL` of its area) by a marked scroll container inside it: a pager
    holding a list, a scroll view around a pager around a list. A swipe there moves the innermost, the
    one holding the rows; the outer ones are one surface for a person."""
    if not node.scrollable or not node.bounds.area:
        return False
    return any(
        id(n) in marked and n.scrollable and n.bounds.area >= FILL * node.bounds.area
        for n in node.iter()
        if n is not node
    )
