"""How a person reads a screen: what an element is called, and the order the eye takes through it.

Shared by the marks, their refs, the compressed text and the screen's title; it reads nodes only, so
every one of them can import it.
"""

from __future__ import annotations

from pytest_fairy.perception.hierarchy import Bounds, Node

UNMEASURED = Bounds(0, 0, 0, 0)


def _descendant_label(node: Node) -> str:
    """The first visible text inside `node`; else a text the dump gives no box at all (`[0,0][0,0]`:
    WeChat's tab labels are drawn but never measured), never one scrolled out of view."""
    fallback = ""
    for child in node.iter():
        if child is node or not (child.text or child.content_desc):
            continue
        label = "***" if child.password else (child.text or child.content_desc)
        if child.visible:
            return label
        if not fallback and child.bounds == UNMEASURED:
            fallback = label
    return fallback


def node_label(node: Node) -> str:
    """What a person would call the element: own text / desc, else the first text inside it, else its id."""
    if node.password and node.text:
        return "***"
    # A list is not named after the rows it happens to show: they scroll.
    inner = "" if node.scrollable else _descendant_label(node)
    return node.text or node.content_desc or inner or node.short_id


def reading_order(nodes: list[Node]) -> list[Node]:
    """Top to bottom, then left to right; a parent before its child at the same spot, else file order."""
    position = {id(node): i for i, node in enumerate(nodes)}
    return sorted(nodes, key=lambda n: (n.bounds.top, n.bounds.left, n.depth, position[id(n)]))
