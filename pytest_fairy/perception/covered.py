"""Views hidden under a bar their own window draws over the edge of the list that holds them.

A list scrolls under the bars of its page: a toolbar or search box above it, a bottom navigation bar or a
mini player below it, each a view laid out after the list (so drawn above it) over the list's edge. A row
scrolled under such a bar is in the dump, flagged and on screen, but a person sees the bar there and a tap
there lands on the bar; the row is reached by scrolling it out from under.

A later view hides only where it draws, as an overlay window does (`screen.covers`): a dump says nothing of
backgrounds, and a later sibling is often a transparent container (a full-screen frame holding a floating
button, a ViewPager's other page, a layer as large as the screen that draws a bar at its foot). Dump order
is not always drawing order either (elevation, a panel slid out of view). So a view is taken as hidden
(`under_bar`) only on narrow evidence:

- it lies inside a scroll container (the list), its centre on the list;
- a bar is laid out after the list, outside it: a later sibling of the list or of one of its ancestors in
  the same window, or a view inside one but not inside another list (whose rows scroll: a pager's other
  page); it spans the list's whole width, is at most `BAR_MAX` of the list's height, and lies over the
  list's top or bottom edge (within `EDGE` px of it);
- the view's centre is under something the bar draws: the bar or a view in it that is clickable or says
  something (text or description), not its bare container bounds.
"""

from __future__ import annotations

from collections.abc import Iterator

from pytest_fairy.perception.hierarchy import Bounds, Node
from pytest_fairy.perception.layers import Layer

BAR_MAX = 0.25  # of the list's height: a taller view over the list is a panel beside it, not its bar
EDGE = 8  # px: a bar this close to the list's edge lies over it (a divider may sit between)


class BarCover:
    """What the bars of one layer hide, worked out once per list (`under_bar`)."""

    def __init__(self, layer: Layer) -> None:
        self._root = layer.root
        self._excluded = {id(node) for node in layer.excluded}
        self._drawn: dict[int, tuple[Bounds, ...]] = {}

    def under_bar(self, node: Node) -> bool:
        """Whether `node` lies under a bar drawn over the edge of a list holding it (the module doc)."""
        x, y = node.bounds.center
        parent = node.parent
        while parent is not None and parent is not self._root:
            if (
                parent.scrollable
                and parent.bounds.contains(x, y)
                and any(region.contains(x, y) for region in self._bars_over(parent))
            ):
                return True
            parent = parent.parent
        return False

    def _bars_over(self, scroller: Node) -> tuple[Bounds, ...]:
        """Where the bars laid out after `scroller` draw over its top or bottom edge."""
        if id(scroller) not in self._drawn:
            regions: list[Bounds] = []
            for later in _laid_out_after(scroller, self._root):
                for bar in self._bars(later, scroller.bounds):
                    regions.extend(n.bounds for n in self._nodes(bar) if _draws(n))
            self._drawn[id(scroller)] = tuple(regions)
        return self._drawn[id(scroller)]

    def _bars(self, top: Node, box: Bounds) -> Iterator[Node]:
        """The outermost bars over `box`'s edge at or below `top`. The rows of another list (a pager's
        other page, a list beside) are no bars: they scroll."""
        stack = [top]
        while stack:
            node = stack.pop()
            if id(node) in self._excluded or not node.visible:
                continue
            if _bar_over(node.bounds, box):
                yield node
            elif not node.scrollable:
                stack.extend(node.children)

    def _nodes(self, top: Node) -> Iterator[Node]:
        stack = [top]
        while stack:
            node = stack.pop()
            if id(node) not in self._excluded:
                yield node
                stack.extend(node.children)


def _laid_out_after(node: Node, root: Node) -> Iterator[Node]:
    """The later siblings of `node` and of each of its ancestors below `root`: drawn after it."""
    while node.parent is not None and node is not root:
        siblings = node.parent.children
        position = next(i for i, child in enumerate(siblings) if child is node)
        yield from siblings[position + 1 :]
        node = node.parent


def _bar_over(bar: Bounds, box: Bounds) -> bool:
    """A strip across all of `box`'s width, at most `BAR_MAX` of its height, over its top or bottom edge."""
    if bar.left > box.left or bar.right < box.right or bar.height > BAR_MAX * box.height:
        return False
    over_top = bar.top <= box.top + EDGE and bar.bottom > box.top
    over_bottom = bar.bottom >= box.bottom - EDGE and bar.top < box.bottom
    return over_top or over_bottom


def _draws(node: Node) -> bool:
    """A view that shows something where it is: it takes taps or says something."""
    return node.visible and (
        node.clickable or node.long_clickable or bool(node.text.strip() or node.content_desc.strip())
    )
