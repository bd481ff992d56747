"""Window layers: what is drawn over what, and whether it blocks what lies below.

A dump lists one root per window, in an order that is not reliable, so the z-order is decided by kind
(the app at the bottom, its dialogs above it, the keyboard above those, system dialogs on top) and, within
a kind, by area (larger below). Kinds are recognised in this order:

1. Windows with nothing a person can see or act on (no text, no description, nothing interactive: the
   gesture-navigation strips, decor and transparent windows real phones list) -> DECOR, whatever their
   package or shape: they are not marked, hide nothing and block nothing.
2. Windows of a known system package: permission controller -> PERMISSION, `android` -> SYSTEM_DIALOG
   (crash / ANR), launchers -> LAUNCHER, input methods -> KEYBOARD, `com.android.systemui` -> SYSTEM_UI,
   or SHADE when it covers the screen (the notification shade, control centre, lock screen): a shade is
   modal and marked, the bars are neither.
3. Of the remaining windows the base one (the app's largest window, else the largest) is APP, unless alone
   and a dialog or popup by its own evidence (`_lone_kind`: `uiautomator dump` captures the focused window
   only). A smaller window of another package (a chat head, an edge panel, a floating ball) is DECOR. Every
   other window is an overlay, named by class / resource-id hints (BottomSheet, PopupWindow, Dialog,
   parentPanel, alertTitle...) and otherwise by geometry: its panel (the window root itself, or the smaller
   container inside a full-screen dim root) anchored to the bottom edge is a BOTTOM_SHEET, horizontally
   centred is a DIALOG, anywhere else (a menu next to its anchor) a POPUP.
4. In-window dialogs: apps often draw a dialog inside their own window as a full-screen overlay
   container, placed after the page content (so drawn above it), holding a smaller panel. Such a
   container is split out of the APP layer into its own DIALOG (or BOTTOM_SHEET) layer when there is
   evidence it is one: a descendant of the app root that covers at least `OVERLAY_MIN_COVER` of the root,
   has an earlier sibling with content, leads (through full-size wrappers and empty scrim views) to one
   panel no larger than `PANEL_MAX_FRACTION` of the overlay that is horizontally centred or bottom-anchored
   and has content, and is modal by its own account: a scrim (an empty view as large as the overlay, the
   dim a tap outside lands on), a clickable overlay, or a dialog / bottom-sheet name. A transparent
   container around a bar at the bottom (a comment box over a video) is part of the page.
5. An open navigation drawer: a `DrawerLayout`'s child after its content, against its left or right edge,
   as tall as it and at least half as wide, is split out as a DRAWER layer. It is modal: the content stays
   in the dump beneath it, but a tap there lands on the drawer's scrim and closes it.

A modal layer blocks everything below it (taps land on its scrim); what others hide is `screen.covers`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum

from pytest_fairy.perception.hierarchy import Bounds, Node, screen_bounds
from pytest_fairy.perception.packages import (
    IME_HINTS,
    IME_PACKAGES,
    LAUNCHER_HINT,
    LAUNCHER_PACKAGES,
    PERMISSION_PACKAGES,
    SYSTEM_DIALOG_PACKAGES,
    SYSTEM_UI_PACKAGES,
)


class LayerKind(StrEnum):
    APP = "app"
    DIALOG = "dialog"
    POPUP = "popup"
    BOTTOM_SHEET = "bottom_sheet"
    PERMISSION = "permission"
    SYSTEM_DIALOG = "system_dialog"
    KEYBOARD = "keyboard"
    SYSTEM_UI = "system_ui"
    SHADE = "shade"  # the notification shade, control centre or lock screen, over everything
    LAUNCHER = "launcher"
    DRAWER = "drawer"  # a navigation drawer open over the page, in the app's own window
    DECOR = "decor"  # a window with nothing to see or act on, or another app's floating window


# Kinds that stop taps from reaching what is below: the tap lands on the dialog's scrim.
MODAL_KINDS = frozenset(
    {
        LayerKind.DIALOG,
        LayerKind.BOTTOM_SHEET,
        LayerKind.DRAWER,
        LayerKind.PERMISSION,
        LayerKind.SYSTEM_DIALOG,
        LayerKind.SHADE,
    }
)

# Bottom -> top. Popups sit above dialogs because a spinner or menu opened from a dialog is drawn over it.
Z_RANK: dict[LayerKind, int] = {
    LayerKind.LAUNCHER: 0,
    LayerKind.APP: 1,
    LayerKind.DECOR: 2,
    LayerKind.SYSTEM_UI: 2,
    LayerKind.BOTTOM_SHEET: 3,
    LayerKind.DIALOG: 3,
    LayerKind.DRAWER: 3,
    LayerKind.POPUP: 4,
    LayerKind.PERMISSION: 5,
    LayerKind.KEYBOARD: 6,
    LayerKind.SYSTEM_DIALOG: 7,
    LayerKind.SHADE: 8,
}

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


@dataclass(frozen=True, slots=True)
class Layer:
    """One window (or a dialog split out of one). `excluded` are subtrees moved into layers of their own."""

    kind: LayerKind
    root: Node
    package: str
    excluded: tuple[Node, ...] = ()

    @property
    def modal(self) -> bool:
        return self.kind in MODAL_KINDS

    @property
    def bounds(self) -> Bounds:
        return self.root.bounds

    def nodes(self) -> Iterator[Node]:
        """The nodes of this layer in document order, without the excluded subtrees."""
        skip = {id(node) for node in self.excluded}
        stack = [self.root]
        while stack:
            node = stack.pop()
            if id(node) in skip:
                continue
            yield node
            stack.extend(reversed(node.children))


def _system_kind(root: Node, app_package: str, screen: Bounds) -> LayerKind | None:
    package = root.package
    if not _has_content(root):
        return LayerKind.DECOR
    if package in PERMISSION_PACKAGES:
        return LayerKind.PERMISSION
    if package in SYSTEM_DIALOG_PACKAGES:
        return LayerKind.SYSTEM_DIALOG
    if package in SYSTEM_UI_PACKAGES:
        return LayerKind.SHADE if _full_screen(root, screen) else LayerKind.SYSTEM_UI
    if package in IME_PACKAGES or package in LAUNCHER_PACKAGES:
        return LayerKind.KEYBOARD if package in IME_PACKAGES else LayerKind.LAUNCHER
    if package == app_package:
        return None  # the app under test merely has a name like an IME's or a launcher's
    if any(hint in package for hint in IME_HINTS):
        return LayerKind.KEYBOARD
    if LAUNCHER_HINT in package:
        return LayerKind.LAUNCHER
    return None


def _hint_kind(node: Node) -> LayerKind | None:
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


def _has_content(node: Node) -> bool:
    """Something a person can see or act on: a text, a description, an interactive view."""
    return any((n.text or n.content_desc or n.interactive) and n.visible for n in node.iter())


def _modal_evidence(container: Node, panel: Node) -> bool:
    """An in-window overlay says it is modal: a scrim beside the panel, a clickable (tap outside to
    dismiss) container, or a dialog / bottom-sheet name on the container or the panel."""
    if container.clickable or any(_is_scrim(n, container.bounds) for n in container.iter() if n is not panel):
        return True
    hinted = _hint_kind(container) or _hint_kind(panel)
    return hinted in (LayerKind.DIALOG, LayerKind.BOTTOM_SHEET)


def _is_scrim(node: Node, overlay: Bounds) -> bool:
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
        children = [c for c in node.children if c.bounds.area > 0 and not _is_scrim(c, container.bounds)]
        if len(children) != 1:
            return None
        child = children[0]
        if child.bounds.area <= PANEL_MAX_FRACTION * area:
            return child
        node = child
    return None


def _geometry_kind(panel: Bounds, screen: Bounds) -> LayerKind:
    width = max(1, screen.width)
    near_bottom = panel.bottom >= screen.bottom - BOTTOM_EDGE_FRACTION * screen.height
    if near_bottom and panel.width >= FULL_SCREEN_FRACTION * width:
        return LayerKind.BOTTOM_SHEET
    centre_offset = abs((panel.left + panel.right) / 2 - (screen.left + screen.right) / 2)
    if centre_offset <= CENTER_TOLERANCE * width:
        return LayerKind.DIALOG
    return LayerKind.POPUP


def _full_screen(node: Node, screen: Bounds) -> bool:
    return node.bounds.area >= FULL_SCREEN_FRACTION * screen.area


def _overlay_kind(root: Node, screen: Bounds) -> LayerKind:
    hinted = _hint_kind(root)
    if hinted is not None:
        return hinted
    if not _full_screen(root, screen):
        if any(node.resource_id == CONTENT_ID for node in root.iter()):
            return LayerKind.DIALOG
        return _geometry_kind(root.bounds, screen)
    return _geometry_kind((find_panel(root) or root).bounds, root.bounds)


def _overlay_shaped(root: Node, screen: Bounds) -> bool:
    """A window that looks like a dialog / sheet rather than an activity (used to pick the app window)."""
    if not _full_screen(root, screen):
        return True
    return _hint_kind(root) is not None or find_panel(root) is not None


def _lone_kind(root: Node) -> LayerKind | None:
    """The kind of a dump's only app window when it is no page, else None. Such a dump names no screen; a
    page's window starts at its corner. Off the corner, the framework's dialog views make a dialog (a sheet
    by name); off both edges and without a toolbar (a page in a floating window has one), a window filled
    by a content frame is a `Dialog`'s, one not (list rows may hold their own) a `PopupWindow`'s."""
    box = root.bounds
    if box.left <= 0 and box.top <= 0:
        return None
    ids = {node.short_id for node in root.iter()} | {node.resource_id for node in root.iter()}
    if ids & DIALOG_IDS or ids & DIALOG_BUTTON_IDS:
        return LayerKind.BOTTOM_SHEET if "design_bottom_sheet" in ids else LayerKind.DIALOG
    if box.left <= 0 or box.top <= 0 or any("toolbar" in i.lower() or i == "action_bar" for i in ids):
        return None
    frame = any(n.resource_id == CONTENT_ID and 2 * n.bounds.area >= box.area for n in root.iter())
    return LayerKind.DIALOG if frame else LayerKind.POPUP


def _in_window_overlays(app_root: Node, screen: Bounds) -> list[tuple[Node, LayerKind]]:
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
            kind = _scrimmed_overlay(node) or _overlay_over_content(node)
        if kind is not None:
            found.append((node, kind))
        else:
            stack.extend(node.children)
    return found


def _open_drawer(node: Node) -> Node | None:
    """The open drawer of a `DrawerLayout`: a child after its content, against its left or right edge, as
    tall as it and narrower, with something in it. (A closed drawer is not in a dump at all.)"""
    if "DrawerLayout" not in node.class_name:
        return None
    box = node.bounds
    for child in node.children[1:]:
        b = child.bounds
        edge = b.left == box.left or b.right == box.right
        tall = b.height >= FULL_SCREEN_FRACTION * box.height
        if edge and tall and DRAWER_MIN_WIDTH * box.width <= b.width < box.width and _has_content(child):
            return child
    return None


def _scrimmed_overlay(node: Node) -> LayerKind | None:
    """A container holding a scrim and content beside it: a dialog or sheet drawn over whatever is below
    (which may not be in the dump at all: a sheet's own activity)."""
    scrims = [c for c in node.children if _is_scrim(c, node.bounds) and _dismisses(c)]
    content = [c for c in node.children if c not in scrims and _has_content(c)]
    if not scrims or not content:
        return None
    box = Bounds(
        min(c.bounds.left for c in content),
        min(c.bounds.top for c in content),
        max(c.bounds.right for c in content),
        max(c.bounds.bottom for c in content),
    )
    hinted = _hint_kind(node)
    if hinted is None and box.area > PANEL_MAX_FRACTION * node.bounds.area:
        return None  # an unnamed overlay must show a panel, not fill the screen
    kind = hinted or _geometry_kind(box, node.bounds)
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
    if not any(_has_content(sibling) for sibling in parent.children[:position]):
        return None
    panel = find_panel(node)
    if panel is None or not _has_content(panel) or not _modal_evidence(node, panel):
        return None
    kind = _hint_kind(panel) or _geometry_kind(panel.bounds, node.bounds)
    return kind if kind is not LayerKind.POPUP else None


def _fingerprint(root: Node) -> str:
    return "\x1f".join(f"{n.class_name}|{n.resource_id}|{n.text}|{n.content_desc}" for n in root.iter())


def _sort_key(layer: Layer) -> tuple[int, int, int, int, str, str]:
    # Everything here comes from the layer itself, never from its position in the file, so that the
    # same windows in another order give the same layers.
    b = layer.bounds
    return (Z_RANK[layer.kind], -b.area, b.top, b.left, layer.package, _fingerprint(layer.root))


def detect_layers(windows: list[Node], app_package: str = "") -> list[Layer]:
    """The layers of a dump, bottom -> top. `app_package` picks the app window when several could be."""
    screen = screen_bounds(windows)
    layers: list[Layer] = []
    candidates: list[Node] = []
    for root in windows:
        kind = _system_kind(root, app_package, screen)
        if kind is None:
            candidates.append(root)
        else:
            layers.append(Layer(kind, root, root.package))
    if candidates:
        base = max(
            candidates,
            key=lambda r: (
                bool(app_package) and r.package == app_package,
                not _overlay_shaped(r, screen),
                r.bounds.area,
                -r.bounds.top,
                r.package,
                _fingerprint(r),
            ),
        )
        lone = _lone_kind(base) if len(candidates) == 1 else None
        overlays = _in_window_overlays(base, screen) if lone is None else []
        layers.append(Layer(lone or LayerKind.APP, base, base.package, tuple(node for node, _ in overlays)))
        layers.extend(Layer(kind, node, node.package or base.package) for node, kind in overlays)
        for root in candidates:
            if root is base:
                continue
            floating = root.package != base.package and not _full_screen(root, screen)
            kind = LayerKind.DECOR if floating else _overlay_kind(root, screen)
            layers.append(Layer(kind, root, root.package))
    return sorted(layers, key=_sort_key)
