"""What a person can act on: the flags a dump gives, and the two places real apps leave them out.

A node is actionable when it is enabled, visible, has an area and is clickable, long-clickable,
checkable, scrollable or editable (`Node.interactive`). Two kinds of views take taps without saying so:

- The items of an AdapterView (`ListView`, `GridView`, `ExpandableListView`, a spinner's drop-down list):
  the list dispatches item clicks itself, so its rows report `clickable="false"`. A child of such a list
  that shows something is actionable.
- Rows of a web page: Chrome exposes an element as clickable only when it sees a click listener, so a
  page built with delegated handlers shows none. Inside a WebView, an element with an HTML id (a
  resource-id without an Android package) that spans at least `WEB_ROW_MIN_WIDTH` of the page, shows
  text, and holds no actionable or id-bearing row of its own is a row a person taps.
"""

from __future__ import annotations

from pytest_fairy.perception.hierarchy import Node

ADAPTER_VIEWS = frozenset({"ListView", "GridView", "ExpandableListView", "DropDownListView", "AbsListView"})
WEBVIEW = "WebView"
WEB_ROW_MIN_WIDTH = 0.5  # of the WebView's width


def actionable(node: Node) -> bool:
    """Whether a person can act on `node` (see the module doc)."""
    if not node.visible or node.bounds.area <= 0 or not node.enabled:
        return False
    return node.interactive or _adapter_item(node) or _web_row(node)


def _shows(node: Node) -> bool:
    return any(n.text or n.content_desc for n in node.iter())


def _adapter_item(node: Node) -> bool:
    parent = node.parent
    return parent is not None and parent.short_class in ADAPTER_VIEWS and _shows(node)


def _web_id(node: Node) -> bool:
    return bool(node.resource_id) and ":" not in node.resource_id


def _webview_of(node: Node) -> Node | None:
    ancestor = node.parent
    while ancestor is not None:
        if ancestor.short_class == WEBVIEW:
            return ancestor
        ancestor = ancestor.parent
    return None


def _web_row(node: Node) -> bool:
    if not _web_id(node) or not _shows(node):
        return False
    page = _webview_of(node)
    if page is None or node.bounds.width < WEB_ROW_MIN_WIDTH * page.bounds.width:
        return False
    wide = WEB_ROW_MIN_WIDTH * page.bounds.width
    inner = (n for n in node.iter() if n is not node)
    return not any(n.interactive or (_web_id(n) and _shows(n) and n.bounds.width >= wide) for n in inner)
