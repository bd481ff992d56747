"""Dialogs, sheets and drawers an app draws inside its own window (`layers.py`, points 4 and 5).

An app often draws a dialog inside its window as a full-screen overlay container placed after the page
content, holding a smaller panel; a DrawerLayout draws its open drawer over the content. Each found is
split out of the APP layer into a layer of its own, with its kind.
"""

from __future__ import annotations

from pytest_fairy.perception.hierarchy import Bounds, Node
from pytest_fairy.perception.layer_kind import LayerKind
from pytest_fairy.perception.panels import (
    DRAWER_MIN_WIDTH,
    FULL_SCREEN_FRACTION,
    OVERLAY_MIN_COVER,
    PANEL_MAX_FRACTION,
    SCRIM_NAMES,
    find_panel,
    geometry_kind,
    has_content,
    hint_kind,
    is_scrim,
)

# What a drawer's scrim is called (its description or id): React Navigation's 'Close drawer', Compose's
# 'Close navigation menu', a 'scrim' or 'touch_outside' id.
CLOSING_WORDS = ("close", "dismiss", "关闭", *SCRIM_NAMES)


def in_window_overlays(app_root: Node, screen: Bounds) -> list[tuple[Node, LayerKind]]:
    """Full-screen overlay containers drawn inside the app window (module doc, 4)."""
    found: list[tuple[Node, LayerKind]] = []
    stack = [app_root]
    while stack:
        node = stack.pop()
        drawer = _open_drawer(node)
        if drawer is not None:
            found.append((drawer, LayerKind.DRAWER))
            stack.extend(child for child in node.children if child is not drawer)
            continue
        kind = None
        if node is not app_root and node.bounds.area >= OVERLAY_MIN_COVER * app_root.bounds.area > 0:
            kind = _scrimmed_overlay(node) or _overlay_over_content(node) or _overlay_alone(node, app_root)
        if kind is not None:
            found.append((node, kind))
        else:
            stack.extend(node.children)
    return found


def _open_drawer(node: Node) -> Node | None:
    """The open drawer of a `DrawerLayout`, or of any container drawn the same way with the scrim that closes
    it beneath (React Navigation's 'Close drawer', Compose's navigation drawer): a child after its content,
    against its left or right edge, as tall as it and narrower, with something in it. (A closed drawer is
    not in a dump at all.)"""
    framework = "DrawerLayout" in node.class_name
    box = node.bounds
    for position, child in enumerate(node.children[1:], start=1):
        b = child.bounds
        edge = b.left == box.left or b.right == box.right
        tall = b.height >= FULL_SCREEN_FRACTION * box.height
        if not (edge and tall and DRAWER_MIN_WIDTH * box.width <= b.width < box.width and has_content(child)):
            continue
        if framework or any(_closes(n, box) for sibling in node.children[:position] for n in sibling.iter()):
            return child
    return None


def _closes(view: Node, box: Bounds) -> bool:
    """A scrim over the whole container that says a tap on it closes the drawer. Said, not only clickable:
    a map is a clickable full-size view too."""
    said = f"{view.content_desc} {view.resource_id}".casefold()
    return is_scrim(view, box) and any(word in said for word in CLOSING_WORDS)


def _scrimmed_overlay(node: Node) -> LayerKind | None:
    """A container holding a scrim and content beside it: a dialog or sheet drawn over whatever is below
    (which may not be in the dump at all: a sheet's own activity)."""
    scrims = [c for c in node.children if is_scrim(c, node.bounds) and _dismisses(c)]
    content = [c for c in node.children if c not in scrims and has_content(c)]
    if not scrims or not content:
        return None
    # The panel each content child leads to: a dialog may sit deep in full-size wrappers (Flutter).
    panels = [(find_panel(c) or c).bounds for c in content]
    box = Bounds(
        min(b.left for b in panels),
        min(b.top for b in panels),
        max(b.right for b in panels),
        max(b.bottom for b in panels),
    )
    hinted = hint_kind(node)
    if hinted is None and box.area > PANEL_MAX_FRACTION * node.bounds.area:
        return None  # an unnamed overlay must show a panel, not fill the screen
    kind = hinted or geometry_kind(box, node.bounds)
    return kind if kind is not LayerKind.POPUP else None


def _dismisses(scrim: Node) -> bool:
    """A scrim a tap outside the panel lands on: clickable, or named for it (touch_outside, dimmer)."""
    name = scrim.resource_id.lower()
    return scrim.clickable or any(word in name for word in SCRIM_NAMES)


def _overlay_over_content(node: Node) -> LayerKind | None:
    """A container after page content, leading to one centred or bottom panel, modal by its own account."""
    parent = node.parent
    if parent is None:
        return None
    position = next(i for i, c in enumerate(parent.children) if c is node)
    if not any(has_content(sibling) for sibling in parent.children[:position]):
        return None
    panel = find_panel(node)
    if panel is None or not has_content(panel) or not _modal_evidence(node, panel):
        return None
    kind = hint_kind(panel) or geometry_kind(panel.bounds, node.bounds)
    return kind if kind is not LayerKind.POPUP else None


def _overlay_alone(node: Node, app_root: Node) -> LayerKind | None:
    """A dialog or sheet that is its window's whole content (an activity with a dialog's or sheet's theme,
    whatever lies below not in the dump): a clickable container (a tap outside dismisses) holding all there
    is to see, leading to one panel against the bottom edge across the width, or one that calls itself a
    dialog or sheet. A centred panel without that name is not taken: a page wrapped in a clickable view
    that hides the keyboard looks the same."""
    if not node.clickable or any(has_content(n) for n in _outside(app_root, node)):
        return None
    panel = find_panel(node)
    if panel is None or not has_content(panel):
        return None
    named = hint_kind(panel) or _named_kind(panel)
    if named in (LayerKind.DIALOG, LayerKind.BOTTOM_SHEET):
        return named
    kind = geometry_kind(panel.bounds, node.bounds)
    return kind if kind is LayerKind.BOTTOM_SHEET else None


def _named_kind(panel: Node) -> LayerKind | None:
    """A panel whose description names its kind (an accessibility pane title: `Dialog`, `Bottom sheet`)."""
    said = panel.content_desc.casefold()
    if any(hint in said.replace(" ", "") for hint in ("bottomsheet", "sheet")):
        return LayerKind.BOTTOM_SHEET
    return LayerKind.DIALOG if "dialog" in said else None


def _outside(root: Node, inner: Node) -> list[Node]:
    """The children of `root`'s subtree that are beside `inner`, not above or inside it."""
    beside: list[Node] = []
    node: Node | None = inner
    while node is not None and node is not root:
        parent = node.parent
        if parent is not None:
            beside.extend(c for c in parent.children if c is not node)
        node = parent
    return beside


def _modal_evidence(container: Node, panel: Node) -> bool:
    """An in-window overlay says it is modal: a scrim beside the panel, a clickable (tap outside to
    dismiss) container, or a dialog / bottom-sheet name on the container or the panel."""
    if container.clickable or any(is_scrim(n, container.bounds) for n in container.iter() if n is not panel):
        return True
    hinted = hint_kind(container) or hint_kind(panel)
    return hinted in (LayerKind.DIALOG, LayerKind.BOTTOM_SHEET)
