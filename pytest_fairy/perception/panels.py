"""What a window or a container says about itself: names that give its kind away (BottomSheet, PopupWindow,
Dialog, alertTitle...), whether it holds anything to see, its scrim, the smaller panel inside a full-size
container, and the kind a panel's place on the screen gives it. Used by `layers.py` for whole windows and
by `overlays.py` for dialogs drawn inside the app's window.
"""

from __future__ import annotations

from pytest_fairy.perception.hierarchy import Bounds, Node
from pytest_fairy.perception.layer_kind import LayerKind

# Substrings (case-insensitive) of class names or resource-ids, checked near the top of an overlay.
BOTTOM_SHEET_HINTS = ("bottomsheet", "bottom_sheet")
POPUP_HINTS = ("popupwindow", "popupdecorview", "listpopup", "dropdownlistview", "menupopup", "popup_menu")
DIALOG_HINTS = ("alertdialog", "dialog", "parentpanel", "alerttitle")
SCRIM_NAMES = ("touch_outside", "dimmer", "scrim", "outside", "dim_background", "mask")
CONTENT_ID = "android:id/content"  # an activity's content frame: a dialog's when its window is small
# The views of an AlertDialog (framework, AppCompat) and a Material sheet: by short id, buttons by full id.
DIALOG_IDS = frozenset({"alertTitle", "parentPanel", "buttonPanel", "design_bottom_sheet"})
DIALOG_BUTTON_IDS = frozenset({"android:id/button1", "android:id/button2", "android:id/button3"})
HINT_SEARCH_DEPTH = 3

FULL_SCREEN_FRACTION = 0.9  # a root covering this much of the screen is full-screen (a dim root)
OVERLAY_MIN_COVER = 0.9  # an in-window overlay covers this much of its app window
PANEL_MAX_FRACTION = 0.7  # a dialog panel is at most this much of its overlay
# An open drawer spans at least this much of its DrawerLayout's width, `FULL_SCREEN_FRACTION` of its height.
DRAWER_MIN_WIDTH = 0.5
CENTER_TOLERANCE = 0.08  # |panel centre - screen centre| / screen width for "centred"
# How close to the bottom edge (as a fraction of the height) a bottom sheet ends: it may stop above a
# navigation bar, which is 48-144 px on phones.
BOTTOM_EDGE_FRACTION = 0.07


def hint_kind(node: Node) -> LayerKind | None:
    """A kind named by class or resource-id within the first few levels of `node`."""
    found: set[LayerKind] = set()
    for candidate in node.iter():
        if candidate.depth - node.depth > HINT_SEARCH_DEPTH:
            continue
        words = f"{candidate.class_name} {candidate.resource_id}".lower()
        if any(hint in words for hint in BOTTOM_SHEET_HINTS):
            found.add(LayerKind.BOTTOM_SHEET)
        elif any(hint in words for hint in POPUP_HINTS):
            found.add(LayerKind.POPUP)
        elif any(hint in words for hint in DIALOG_HINTS):
            found.add(LayerKind.DIALOG)
    for kind in (LayerKind.BOTTOM_SHEET, LayerKind.POPUP, LayerKind.DIALOG):
        if kind in found:
            return kind
    return None


def has_content(node: Node) -> bool:
    """Something a person can see or act on: a text, a description, an interactive view."""
    return any((n.text or n.content_desc or n.interactive) and n.visible for n in node.iter())


def is_scrim(node: Node, overlay: Bounds) -> bool:
    """An empty view as large as the overlay: the dim background (often clickable, to dismiss, and then
    it may be described as such: "Dismiss", "关闭")."""
    return (
        not node.children
        and not node.text
        and (not node.content_desc or node.clickable)
        and (node.bounds.area >= OVERLAY_MIN_COVER * overlay.area)
    )


def find_panel(container: Node) -> Node | None:
    """The single smaller panel inside a full-size container, through full-size wrappers; else None."""
    node = container
    area = container.bounds.area
    while area > 0:
        children = [c for c in node.children if c.bounds.area > 0 and not is_scrim(c, container.bounds)]
        if len(children) != 1:
            return None
        child = children[0]
        if child.bounds.area <= PANEL_MAX_FRACTION * area:
            return child
        node = child
    return None


def geometry_kind(panel: Bounds, screen: Bounds) -> LayerKind:
    width = max(1, screen.width)
    near_bottom = panel.bottom >= screen.bottom - BOTTOM_EDGE_FRACTION * screen.height
    if near_bottom and panel.width >= FULL_SCREEN_FRACTION * width:
        return LayerKind.BOTTOM_SHEET
    centre_offset = abs((panel.left + panel.right) / 2 - (screen.left + screen.right) / 2)
    if centre_offset <= CENTER_TOLERANCE * width:
        return LayerKind.DIALOG
    return LayerKind.POPUP


def full_screen(node: Node, screen: Bounds) -> bool:
    return node.bounds.area >= FULL_SCREEN_FRACTION * screen.area
