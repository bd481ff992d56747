"""The kinds of layer a screen is made of, which of them are modal, and their z-order (`layers.py`)."""

from __future__ import annotations

from enum import StrEnum


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
