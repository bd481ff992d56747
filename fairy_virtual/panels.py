"""Panels over a screen: dialogs, bottom sheets, popups and navigation drawers, laid out as Android
draws them.

A dialog, sheet or popup is a window of its own (a dump lists it as another root, in the app's package);
a navigation drawer is not: like a `DrawerLayout`, it is drawn in the screen's own window, over the
content, which stays in the dump beneath it. Either way the panel takes the touches and a tap outside it
closes it (with `dismiss_on_outside`).
"""

from __future__ import annotations

from fairy_virtual.layout import TOOLBAR_HEIGHT, Layout
from fairy_virtual.model import Dialog, Element
from fairy_virtual.views import View, Window
from pytest_fairy.perception.hierarchy import Bounds

DIALOG_MARGIN = 90
DIALOG_PADDING = 56
POPUP_WIDTH = 600
DRAWER_WIDTH = 840  # Material's modal navigation drawer at 1080 px: the screen less a strip of content
DRAWER_CLASS = "androidx.drawerlayout.widget.DrawerLayout"
NAVIGATION_CLASS = "com.google.android.material.navigation.NavigationView"


def dialog_window(layout: Layout, dialog: Dialog, index: int, anchor: Bounds | None) -> Window:
    """The window of the dialog, sheet or popup `dialog`, the `index`th open; a popup hangs under
    `anchor` (the view tapped to open it)."""
    pad = layout.px(DIALOG_PADDING)
    elements = _header(dialog) + list(dialog.elements)
    width = _panel_width(layout, dialog)
    natural = 2 * pad + layout.stack_height([e for e in elements if layout.shown(e)])
    height = min(natural, layout.height - 2 * layout.px(DIALOG_MARGIN))
    panel = _panel_bounds(layout, dialog, width, height, anchor)
    inner = layout.flow(elements, panel, f"dialog:{dialog.id}", pad, top_pad=pad)
    panel_view = View(
        "android.widget.FrameLayout",
        panel,
        resource_id="android:id/content",
        role="panel",
        children=[
            View(
                "android.widget.LinearLayout",
                panel,
                resource_id=f"{layout.package}:id/dialog_root",
                children=inner,
            )
        ],
    )
    full = Bounds(0, 0, layout.width, layout.height)
    root = (
        panel_view
        if dialog.kind == "popup"
        else View("android.widget.FrameLayout", full, children=[panel_view])
    )
    return Window(
        root,
        layout.package,
        dialog.kind,
        panel=panel,
        dismiss_on_outside=dialog.dismiss_on_outside,
        dim=dialog.kind != "popup",
        accent=layout.model.app.color,
        dialog_index=index,
    )


def with_drawer(layout: Layout, screen: Window, dialog: Dialog, index: int) -> Window:
    """The screen's window with the drawer `dialog` open over its content, the `index`th panel open: the
    content and the drawer are the two children of a `DrawerLayout` (the content stays in the dump)."""
    pad = layout.px(DIALOG_PADDING)
    width = dialog.width if dialog.width is not None else layout.px(DRAWER_WIDTH)
    panel = Bounds(0, 0, min(width, layout.width), layout.height)
    inner = layout.flow(
        _header(dialog) + list(dialog.elements), panel, f"dialog:{dialog.id}", pad, top_pad=pad
    )
    drawer = View(
        NAVIGATION_CLASS, panel, resource_id=f"{layout.package}:id/nav_view", role="panel", children=inner
    )
    content = _content(screen.root)
    content.children = [View(DRAWER_CLASS, content.bounds, children=[*content.children, drawer])]
    return Window(
        screen.root,
        screen.package,
        "drawer",
        panel=panel,
        dismiss_on_outside=dialog.dismiss_on_outside,
        dim=True,
        accent=screen.accent,
        dialog_index=index,
    )


def _content(root: View) -> View:
    """The screen window's `android:id/content` frame (the decor's innermost wrapper)."""
    stack = [root]
    while stack:
        view = stack.pop()
        if view.resource_id == "android:id/content":
            return view
        stack.extend(view.children)
    raise ValueError("a screen window without android:id/content")


def _header(dialog: Dialog) -> list[Element]:
    header: list[Element] = []
    if dialog.title:
        header.append(Element(text=dialog.title, id="dialog_title", style="title"))
    if dialog.message:
        header.append(Element(text=dialog.message, id="dialog_message"))
    return header


def _panel_width(layout: Layout, dialog: Dialog) -> int:
    if dialog.width is not None:
        return min(dialog.width, layout.width)
    if dialog.kind == "sheet":
        return layout.width
    if dialog.kind == "popup":
        return layout.px(POPUP_WIDTH)
    return layout.width - 2 * layout.px(DIALOG_MARGIN)


def _panel_bounds(layout: Layout, dialog: Dialog, width: int, height: int, anchor: Bounds | None) -> Bounds:
    if dialog.kind == "sheet":
        return Bounds(0, layout.height - height, layout.width, layout.height)
    if dialog.kind == "popup":
        below = anchor.bottom if anchor is not None else layout.px(TOOLBAR_HEIGHT)
        right = anchor.right if anchor is not None else layout.width
        left = max(0, min(right - width, layout.width - width))
        top = min(below, layout.height - height)
        return Bounds(left, top, left + width, top + height)
    left = (layout.width - width) // 2
    top = (layout.height - height) // 2
    return Bounds(left, top, left + width, top + height)
