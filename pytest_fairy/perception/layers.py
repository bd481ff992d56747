"""Window layers: what is drawn over what, and whether it blocks what lies below.

A dump lists one root per window, in an order that is not reliable, so the z-order is decided by kind
(the app at the bottom, its dialogs above it, the keyboard above those, system dialogs on top) and, within
a kind, by the area it draws (larger below; a full-screen dim root draws its panel). Kinds are recognised
in this order:

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
4. In-window dialogs (`overlays.py`): apps often draw a dialog inside their own window as a full-screen
   overlay container, placed after the page content (so drawn above it), holding a smaller panel. Such a
   container is split out of the APP layer into its own DIALOG (or BOTTOM_SHEET) layer when there is
   evidence it is one: a descendant of the app root that covers at least `OVERLAY_MIN_COVER` of the root,
   has an earlier sibling with content, leads (through full-size wrappers and empty scrim views) to one
   panel no larger than `PANEL_MAX_FRACTION` of the overlay that is horizontally centred or bottom-anchored
   and has content, and is modal by its own account: a scrim (an empty view as large as the overlay, the
   dim a tap outside lands on), a clickable overlay, or a dialog / bottom-sheet name. A transparent
   container around a bar at the bottom (a comment box over a video) is part of the page.
5. An open navigation drawer (`overlays.py`): a `DrawerLayout`'s child after its content, against its left
   or right edge, as tall as it and at least half as wide, is split out as a DRAWER layer. It is modal: the
   content stays in the dump beneath it, but a tap there lands on the drawer's scrim and closes it.

The kinds and their z-order are `layer_kind.py`; the names, scrims and panel geometry these rules read are
`panels.py`.

A modal layer blocks everything below it (taps land on its scrim); what others hide is `screen.covers`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from pytest_fairy.perception.hierarchy import Bounds, Node, screen_bounds
from pytest_fairy.perception.layer_kind import MODAL_KINDS, Z_RANK, LayerKind
from pytest_fairy.perception.overlays import in_window_overlays
from pytest_fairy.perception.packages import (
    IME_HINTS,
    IME_PACKAGES,
    LAUNCHER_HINT,
    LAUNCHER_PACKAGES,
    PERMISSION_PACKAGES,
    SYSTEM_DIALOG_PACKAGES,
    SYSTEM_SHEET_PACKAGES,
    SYSTEM_UI_PACKAGES,
)
from pytest_fairy.perception.panels import (
    CONTENT_ID,
    DIALOG_BUTTON_IDS,
    DIALOG_IDS,
    find_panel,
    full_screen,
    geometry_kind,
    has_content,
    hint_kind,
)

__all__ = ["MODAL_KINDS", "Layer", "LayerKind", "detect_layers"]


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
    if not has_content(root):
        return LayerKind.DECOR
    if package in PERMISSION_PACKAGES:
        return LayerKind.PERMISSION
    if package in SYSTEM_DIALOG_PACKAGES:
        return LayerKind.SYSTEM_DIALOG
    if package in SYSTEM_SHEET_PACKAGES:
        return LayerKind.BOTTOM_SHEET
    if package in SYSTEM_UI_PACKAGES:
        return LayerKind.SHADE if full_screen(root, screen) else LayerKind.SYSTEM_UI
    if package in IME_PACKAGES or package in LAUNCHER_PACKAGES:
        return LayerKind.KEYBOARD if package in IME_PACKAGES else LayerKind.LAUNCHER
    if package == app_package:
        return None  # the app under test merely has a name like an IME's or a launcher's
    if any(hint in package for hint in IME_HINTS):
        return LayerKind.KEYBOARD
    if LAUNCHER_HINT in package:
        return LayerKind.LAUNCHER
    return None


def _overlay_kind(root: Node, screen: Bounds) -> LayerKind:
    hinted = hint_kind(root)
    if hinted is not None:
        return hinted
    if not full_screen(root, screen):
        if any(node.resource_id == CONTENT_ID for node in root.iter()):
            return LayerKind.DIALOG
        return geometry_kind(root.bounds, screen)
    return geometry_kind((find_panel(root) or root).bounds, root.bounds)


def _overlay_shaped(root: Node, screen: Bounds) -> bool:
    """A window that looks like a dialog / sheet rather than an activity (used to pick the app window)."""
    if not full_screen(root, screen):
        return True
    return hint_kind(root) is not None or find_panel(root) is not None


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


def _fingerprint(root: Node) -> str:
    return "\x1f".join(f"{n.class_name}|{n.resource_id}|{n.text}|{n.content_desc}" for n in root.iter())


def _sort_key(layer: Layer, screen: Bounds) -> tuple[int, int, int, int, str, str]:
    # Everything here comes from the layer itself, never from its position in the file, so that the
    # same windows in another order give the same layers.
    b = layer.bounds
    return (
        Z_RANK[layer.kind],
        -_drawn(layer, screen).area,
        b.top,
        b.left,
        layer.package,
        _fingerprint(layer.root),
    )


def _drawn(layer: Layer, screen: Bounds) -> Bounds:
    """What an overlay draws: the panel of a window that covers the screen (its dim around a dialog), else
    the window. A dim's size says nothing of the dialog's, which a popup beside it may exceed."""
    if layer.kind is LayerKind.APP or not full_screen(layer.root, screen):
        return layer.bounds
    panel = find_panel(layer.root)
    return panel.bounds if panel is not None else layer.bounds


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
        overlays = in_window_overlays(base, screen) if lone is None else []
        layers.append(Layer(lone or LayerKind.APP, base, base.package, tuple(node for node, _ in overlays)))
        layers.extend(Layer(kind, node, node.package or base.package) for node, kind in overlays)
        for root in candidates:
            if root is base:
                continue
            floating = root.package != base.package and not full_screen(root, screen)
            kind = LayerKind.DECOR if floating else _overlay_kind(root, screen)
            layers.append(Layer(kind, root, root.package))
    return sorted(layers, key=lambda layer: _sort_key(layer, screen))
