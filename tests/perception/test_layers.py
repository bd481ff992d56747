"""Layer detection: every kind, z-order by kind and area whatever the window order, in-window dialogs."""

from __future__ import annotations

import itertools

import pytest

from pytest_fairy.perception.hierarchy import Node, parse_hierarchy
from pytest_fairy.perception.layers import Layer, LayerKind, detect_layers

from .builder import (
    NAV_TOP,
    PKG,
    STATUS_BAR,
    V,
    W,
    alert_window,
    decor,
    delivery_overlay,
    dump,
    ime_window,
    launcher_window,
    menu_page,
    menu_window,
    nav_bar,
    permission_window,
    popup_window,
    sheet_window,
    status_bar,
    system_window,
    v,
)


def kinds(layers: list[Layer]) -> list[LayerKind]:
    return [layer.kind for layer in layers]


def layers_of(*windows: V, app_package: str = PKG, seed: int | None = None) -> list[Layer]:
    return detect_layers(parse_hierarchy(dump(*windows, seed=seed)), app_package)


K = LayerKind


@pytest.mark.parametrize(
    ("window", "kind"),
    [
        (alert_window(), K.DIALOG),
        (sheet_window(hinted=True), K.BOTTOM_SHEET),
        (sheet_window(hinted=False), K.BOTTOM_SHEET),  # by geometry: a bottom-anchored panel
        (popup_window(), K.POPUP),
        (permission_window(), K.PERMISSION),
        (system_window("crash"), K.SYSTEM_DIALOG),
        (system_window("anr"), K.SYSTEM_DIALOG),
        (ime_window(), K.KEYBOARD),
    ],
)
def test_each_kind_of_window_over_the_app(window: V, kind: LayerKind) -> None:
    layers = layers_of(status_bar(), menu_window(), nav_bar(), window)
    assert kinds(layers) == [K.APP, K.SYSTEM_UI, K.SYSTEM_UI, kind]
    assert layers[-1].root.package == (window.pkg or PKG)


def test_modal_kinds_block_what_is_below() -> None:
    modal = {kind for kind in K if Layer(kind, Node(), "").modal}
    assert modal == {K.DIALOG, K.BOTTOM_SHEET, K.DRAWER, K.PERMISSION, K.SYSTEM_DIALOG, K.SHADE}


def test_launcher_is_the_base_when_no_app_is_open() -> None:
    layers = layers_of(nav_bar(), launcher_window(), status_bar(), app_package="")
    assert kinds(layers) == [K.LAUNCHER, K.SYSTEM_UI, K.SYSTEM_UI]


def test_a_dialog_without_hints_is_recognised_by_its_centred_panel_over_a_dim_root() -> None:
    panel = v("LinearLayout", (140, 900, 940, 1500), v("TextView", (180, 950, 900, 1050), text="领取优惠券"),
              v("Button", (180, 1350, 900, 1450), text="立即领取", clickable=True))
    dim_root = v("FrameLayout", (0, 0, 1080, 2400), v("FrameLayout", (0, 0, 1080, 2400), panel))
    layers = layers_of(status_bar(), menu_window(), dim_root)
    assert kinds(layers) == [K.APP, K.SYSTEM_UI, K.DIALOG]
    assert layers[0].root.children[0].children[0].resource_id.endswith("android:id/content")


def test_z_order_does_not_depend_on_window_order() -> None:
    windows = [status_bar(), menu_window(), nav_bar(), alert_window(), ime_window(), system_window("anr"),
               popup_window()]
    expected = [K.APP, K.SYSTEM_UI, K.SYSTEM_UI, K.DIALOG, K.POPUP, K.KEYBOARD, K.SYSTEM_DIALOG]
    reference = None
    for order in itertools.islice(itertools.permutations(windows), 0, None, 97):
        layers = layers_of(*order)
        assert kinds(layers) == expected
        shape = [(layer.kind, layer.bounds, layer.package) for layer in layers]
        assert reference is None or shape == reference
        reference = shape


def test_within_a_kind_the_larger_layer_is_below() -> None:
    small = alert_window()
    large = v("FrameLayout", (40, 600, 1040, 1800), v("FrameLayout", (40, 600, 1040, 1800),
              v("TextView", (80, 650, 1000, 750), text="更新提示"), rid="android:id/content"))
    for seed in range(4):
        layers = layers_of(menu_window(), small, large, seed=seed)
        dialogs = [layer for layer in layers if layer.kind is K.DIALOG]
        assert [d.bounds.area for d in dialogs] == sorted((d.bounds.area for d in dialogs), reverse=True)


def test_a_dialog_over_a_dim_is_sized_by_its_panel_not_its_dim() -> None:
    # A menu window still open (a framed panel, no dim), and a dialog opened from it over a full-screen dim:
    # the dialog's panel is the smaller of the two, so it is above, and only it takes taps.
    menu = v("FrameLayout", (400, 340, 1040, 1352), v("TextView", (456, 396, 984, 526), text="附近门店",
             clickable=True), rid="android:id/content")
    panel = v("LinearLayout", (90, 928, 990, 1472), v("TextView", (146, 984, 934, 1114), text="需要权限"),
              v("Button", (146, 1272, 934, 1416), text="知道了", clickable=True))
    dim_root = v("FrameLayout", (0, 0, 1080, 2400), v("FrameLayout", (0, 0, 1080, 2400), panel))
    for seed in range(4):
        layers = layers_of(menu_window(), menu, dim_root, seed=seed)
        assert kinds(layers) == [K.APP, K.DIALOG, K.DIALOG]
        assert {n.text for n in layers[-1].nodes()} >= {"需要权限", "知道了"}


def test_the_app_window_is_chosen_by_package_size_and_shape() -> None:
    # A full-screen bottom-sheet window of the app's own package is not mistaken for the app.
    for seed in range(4):
        layers = layers_of(sheet_window(), menu_window(), seed=seed)
        assert kinds(layers) == [K.APP, K.BOTTOM_SHEET]
        assert layers[0].root.children, "the app layer is the decor window"


def test_an_app_whose_name_looks_like_a_keyboard_is_still_the_app() -> None:
    pkg = "com.acme.keyboardtrainer"
    layers = layers_of(decor(menu_page(), pkg=pkg), ime_window(), app_package=pkg)
    assert kinds(layers) == [K.APP, K.KEYBOARD]
    # Without the hint, the name alone says keyboard: the exact lists and hints are documented guesses.
    assert kinds(layers_of(decor(menu_page(), pkg=pkg), app_package=""))[0] is K.KEYBOARD


def test_in_window_dialog_is_split_out_of_the_app_layer() -> None:
    layers = layers_of(status_bar(), menu_window(overlay=delivery_overlay()), nav_bar())
    assert kinds(layers) == [K.APP, K.SYSTEM_UI, K.SYSTEM_UI, K.DIALOG]
    app, dialog = layers[0], layers[-1]
    assert dialog.root.resource_id.endswith("id/overlay") and dialog.modal
    assert app.excluded == (dialog.root,)
    app_texts = {n.text for n in app.nodes()}
    dialog_texts = {n.text for n in dialog.nodes()}
    assert "请选择您的送达时间" in dialog_texts and "请选择您的送达时间" not in app_texts
    assert "巨无霸 1号" in app_texts and "巨无霸 1号" not in dialog_texts


def test_in_window_bottom_sheet_and_non_overlays() -> None:
    sheet_panel = v("LinearLayout", (0, 1600, 1080, 2337),
                    v("TextView", (40, 1650, 1040, 1750), text="选择规格"),
                    v("Button", (40, 2200, 1040, 2320), text="加入购物车", clickable=True))
    scrim = v("View", (0, 63, 1080, 2337), clickable=True)
    overlay = v("FrameLayout", (0, 63, 1080, 2337), scrim, sheet_panel)
    layers = layers_of(menu_window(overlay=overlay))
    assert kinds(layers) == [K.APP, K.BOTTOM_SHEET]
    # A floating button in a full-size container is not a dialog: its panel is neither centred nor
    # bottom-wide, and the first full-screen content has no earlier sibling.
    fab = v("FrameLayout", (0, 63, 1080, 2337), v("ImageButton", (880, 2000, 1040, 2160), clickable=True))
    assert kinds(layers_of(menu_window(overlay=fab))) == [K.APP]
    assert kinds(layers_of(menu_window())) == [K.APP]
    assert layers_of(menu_window())[0].excluded == ()


def test_only_system_windows_still_give_layers() -> None:
    layers = layers_of(system_window("crash"), status_bar(), app_package="")
    assert kinds(layers) == [K.SYSTEM_UI, K.SYSTEM_DIALOG]


def drawer_layout(*children: V) -> V:
    return v("androidx.drawerlayout.widget.DrawerLayout", (0, STATUS_BAR, W, NAV_TOP), menu_page(), *children)


def navigation(right: int, *, left: int = 0) -> V:
    return v("com.google.android.material.navigation.NavigationView", (left, STATUS_BAR, right, NAV_TOP),
             v("CheckedTextView", (left + 40, 200, right - 40, 320), text="收件箱", clickable=True),
             v("CheckedTextView", (left + 40, 340, right - 40, 460), text="归档", clickable=True),
             rid="nav_view")


def test_an_open_navigation_drawer_is_a_modal_layer_over_the_page_it_covers() -> None:
    layers = layers_of(decor(drawer_layout(navigation(840))))
    assert kinds(layers) == [K.APP, K.DRAWER]
    app, drawer = layers
    assert drawer.modal and drawer.root.resource_id.endswith("id/nav_view")
    assert {n.text for n in drawer.nodes()} >= {"收件箱", "归档"}
    assert "收件箱" not in {n.text for n in app.nodes()} and "巨无霸 1号" in {n.text for n in app.nodes()}
    # From the right edge too (an end drawer).
    assert kinds(layers_of(decor(drawer_layout(navigation(W, left=W - 840))))) == [K.APP, K.DRAWER]


def test_a_drawer_layouts_other_children_are_no_drawer() -> None:
    """A second child as wide as the layout (a sheet host), a narrow rail, one off its edges: the page."""
    wide = v("FrameLayout", (0, STATUS_BAR, W, NAV_TOP), v("TextView", (40, 200, 1000, 300), text="提示"))
    assert kinds(layers_of(decor(drawer_layout(wide)))) == [K.APP]
    assert kinds(layers_of(decor(drawer_layout(navigation(300))))) == [K.APP]
    assert kinds(layers_of(decor(drawer_layout(navigation(940, left=100))))) == [K.APP]
    assert kinds(layers_of(decor(drawer_layout()))) == [K.APP]
