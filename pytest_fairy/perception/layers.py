"""Window layers: what is drawn over what, and whether it blocks what lies below.

A dump lists one root per window, in an order that is not reliable, so the z-order is decided by kind
(the app at the bottom, its dialogs above it, the keyboard above those, system dialogs on top) and, within
a kind, by area (larger below). Kinds are recognised in this order:

1. Windows of a known system package: permission controller -> PERMISSION, `android` -> SYSTEM_DIALOG
   (crash / ANR), launchers -> LAUNCHER, input methods -> KEYBOARD, `com.android.systemui` -> SYSTEM_UI.
2. Of the remaining windows the base one (the app's largest window, else the largest) is APP; every other
   window is an overlay, named by class / resource-id hints (BottomSheet, PopupWindow, Dialog,
   parentPanel, alertTitle...) and otherwise by geometry: its panel (the window root itself, or the
   smaller container inside a full-screen dim root) anchored to the bottom edge is a BOTTOM_SHEET,
   horizontally centred is a DIALOG, anywhere else (a menu next to its anchor) a POPUP.
3. In-window dialogs: apps often draw a dialog inside their own window as a full-screen overlay
   container, placed after the page content (so drawn above it), holding a smaller panel. Such a
   container is split out of the APP layer into its own DIALOG (or BOTTOM_SHEET) layer. Heuristic: a
   descendant of the app root that covers at least `OVERLAY_MIN_COVER` of the root, has an earlier sibling
   with content, and leads (through full-size wrappers and empty scrim views) to one panel no larger than
   `PANEL_MAX_FRACTION` of the overlay that is horizontally centred or bottom-anchored.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum

from pytest_fairy.perception.hierarchy import Bounds, Node


class LayerKind(StrEnum):
    APP = "app"
    DIALOG = "dialog"
    POPUP = "popup"
    BOTTOM_SHEET = "bottom_sheet"
    PERMISSION = "permission"
    SYSTEM_DIALOG = "system_dialog"
    KEYBOARD = "keyboard"
    SYSTEM_UI = "system_ui"
    LAUNCHER = "launcher"


# Kinds that stop taps from reaching what is below: the tap lands on the dialog's scrim.
MODAL_KINDS = frozenset(
    {LayerKind.DIALOG, LayerKind.BOTTOM_SHEET, LayerKind.PERMISSION, LayerKind.SYSTEM_DIALOG}
)

# Bottom -> top. Popups sit above dialogs because a spinner or menu opened from a dialog is drawn over it.
Z_RANK: dict[LayerKind, int] = {
    LayerKind.LAUNCHER: 0,
    LayerKind.APP: 1,
    LayerKind.SYSTEM_UI: 2,
    LayerKind.BOTTOM_SHEET: 3,
    LayerKind.DIALOG: 3,
    LayerKind.POPUP: 4,
    LayerKind.PERMISSION: 5,
    LayerKind.KEYBOARD: 6,
    LayerKind.SYSTEM_DIALOG: 7,
}

PERMISSION_PACKAGES = frozenset(
    {
        "com.android.permissioncontroller",
        "com.google.android.permissioncontroller",
        "com.android.packageinstaller",
        "com.google.android.packageinstaller",
    }
)
SYSTEM_DIALOG_PACKAGES = frozenset({"android"})
SYSTEM_UI_PACKAGES = frozenset({"com.android.systemui"})
LAUNCHER_PACKAGES = frozenset(
    {
        "com.android.launcher",
        "com.android.launcher3",
        "com.google.android.apps.nexuslauncher",
        "com.miui.home",
        "com.huawei.android.launcher",
        "com.sec.android.app.launcher",
        "com.oppo.launcher",
        "com.bbk.launcher2",
        "com.hihonor.android.launcher",
        "net.oneplus.launcher",
    }
)
IME_PACKAGES = frozenset(
    {
        "com.google.android.inputmethod.latin",
        "com.android.inputmethod.latin",
        "com.sohu.inputmethod.sogou",
        "com.baidu.input",
        "com.iflytek.inputmethod",
        "com.samsung.android.honeyboard",
        "com.touchtype.swiftkey",
        "com.tencent.wetype",
        "com.google.android.apps.inputmethod.hindi",
    }
)
# Substrings of a package name that mark a launcher / input method not listed above.
LAUNCHER_HINT = "launcher"
IME_HINTS = ("inputmethod", ".ime", "keyboard")

# Substrings (case-insensitive) of class names or resource-ids, checked near the top of an overlay.
BOTTOM_SHEET_HINTS = ("bottomsheet", "bottom_sheet")
POPUP_HINTS = ("popupwindow", "popupdecorview", "listpopup", "dropdownlistview", "menupopup", "popup_menu")
DIALOG_HINTS = ("alertdialog", "dialog", "parentpanel", "alerttitle")
CONTENT_ID = "android:id/content"  # an activity's content frame: a dialog's when its window is small
HINT_SEARCH_DEPTH = 3

FULL_SCREEN_FRACTION = 0.9  # a root covering this much of the screen is full-screen (a dim root)
OVERLAY_MIN_COVER = 0.9  # an in-window overlay covers this much of its app window
PANEL_MAX_FRACTION = 0.7  # a dialog panel is at most this much of its overlay
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


def _system_kind(root: Node, app_package: str) -> LayerKind | None:
    package = root.package
    if package in PERMISSION_PACKAGES:
        return LayerKind.PERMISSION
    if package in SYSTEM_DIALOG_PACKAGES:
        return LayerKind.SYSTEM_DIALOG
    if package in SYSTEM_UI_PACKAGES:
        return LayerKind.SYSTEM_UI
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
    return any(n.text or n.content_desc or n.interactive for n in node.iter())


def _is_scrim(node: Node, overlay: Bounds) -> bool:
    """An empty view as large as the overlay: the dim background (often clickable, to dismiss)."""
    return (
        not node.children
        and not node.text
        and not node.content_desc
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


def _in_window_overlays(app_root: Node, screen: Bounds) -> list[tuple[Node, LayerKind]]:
    """Full-screen overlay containers drawn inside the app window over earlier siblings (module doc, 3)."""
    found: list[tuple[Node, LayerKind]] = []
    stack = [app_root]
    while stack:
        node = stack.pop()
        matched = False
        parent = node.parent
        if (
            node is not app_root
            and parent is not None
            and (node.bounds.area >= OVERLAY_MIN_COVER * app_root.bounds.area > 0)
        ):
            position = next(i for i, c in enumerate(parent.children) if c is node)
            if any(_has_content(sibling) for sibling in parent.children[:position]):
                panel = find_panel(node)
                if panel is not None:
                    kind = _hint_kind(panel) or _geometry_kind(panel.bounds, node.bounds)
                    if kind is not LayerKind.POPUP:
                        found.append((node, kind))
                        matched = True
        if not matched:
            stack.extend(node.children)
    return found


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
        kind = _system_kind(root, app_package)
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
        overlays = _in_window_overlays(base, screen)
        layers.append(Layer(LayerKind.APP, base, base.package, tuple(node for node, _ in overlays)))
        layers.extend(Layer(kind, node, node.package or base.package) for node, kind in overlays)
        for root in candidates:
            if root is not base:
                layers.append(Layer(_overlay_kind(root, screen), root, root.package))
    return sorted(layers, key=_sort_key)
