"""Layers from evidence, not from shape: a window or container hides what is behind it only
if it shows something and covers it. Each rule is taken from a real phone's dump in the corpus
(tests/perception/real_screens); here each is built small, so a test fails when its rule is deleted."""

from __future__ import annotations

from pytest_fairy.perception.layers import LayerKind as K
from pytest_fairy.perception.screen import Screen, build_screen

from .builder import (
    NAV_TOP,
    PKG,
    STATUS_BAR,
    V,
    W,
    decor,
    dump,
    menu_page,
    menu_window,
    nav_bar,
    status_bar,
    v,
)


def screen_of(*windows: V) -> Screen:
    return build_screen(dump(status_bar(), *windows, nav_bar()), activity=".MenuActivity", package=PKG)


def gesture_strip(left: int, right: int) -> V:
    """The empty edge windows of gesture navigation (package "gesture" on Honor / Huawei phones)."""
    return v("View", (left, STATUS_BAR, right, NAV_TOP), pkg="gesture")


def test_empty_gesture_windows_hide_nothing_and_are_no_dialog() -> None:
    plain = screen_of(menu_window())
    with_strips = screen_of(menu_window(), gesture_strip(0, 38), gesture_strip(W - 38, W))
    assert [m.label for m in with_strips.marks] == [m.label for m in plain.marks]
    assert not with_strips.has_dialog
    assert {layer.kind for layer in with_strips.layers} >= {K.DECOR}


def test_another_apps_floating_window_is_decor_not_a_dialog() -> None:
    edge_panel = v("FrameLayout", (1038, 391, W, 691),
                   v("ImageView", (1038, 391, W, 691), desc="Edge panels", clickable=True),
                   pkg="com.samsung.android.app.cocktailbarservice")
    screen = screen_of(menu_window(), edge_panel)
    assert not screen.has_dialog
    assert "Edge panels" not in [m.label for m in screen.marks]


def test_a_full_screen_system_ui_window_is_the_shade_marked_and_modal() -> None:
    tiles = [v("Switch", (60 + i * 250, 400, 280 + i * 250, 600), desc=name, checkable=True, clickable=True,
               pkg="com.android.systemui") for i, name in enumerate(("Wi-Fi", "蓝牙", "手电筒"))]
    shade = v("FrameLayout", (0, 0, W, 2400), *tiles, pkg="com.android.systemui")
    screen = screen_of(menu_window(), shade)
    assert [m.label for m in screen.marks] == ["Wi-Fi", "蓝牙", "手电筒"]
    assert screen.has_dialog and screen.top_layer.kind is K.SHADE


def test_a_transparent_container_around_a_bar_at_the_bottom_is_part_of_the_page() -> None:
    """TikTok's comment bar over the video: full-screen container, panel at the bottom, no scrim."""
    bar = v("LinearLayout", (0, 2200, W, NAV_TOP),
            v("EditText", (20, 2210, 800, 2320), text="Add comment...", clickable=True),
            v("ImageView", (820, 2210, 1060, 2320), desc="Send gift", clickable=True))
    page = menu_page()
    overlay = v("FrameLayout", (0, STATUS_BAR, W, NAV_TOP), bar, rid="comment_container")
    screen = screen_of(decor(page, overlay))
    assert not screen.has_dialog
    labels = [m.label for m in screen.marks]
    assert "Add comment..." in labels and "Send gift" in labels and "搜索商品" in labels


def test_an_empty_overlay_container_is_no_dialog() -> None:
    """Instagram's camera tool container: full-screen, nothing in it to see or tap."""
    empty_panel = v("FrameLayout", (200, 900, 880, 1500), v("View", (200, 900, 880, 1500)))
    overlay = v("FrameLayout", (0, STATUS_BAR, W, NAV_TOP), v("View", (0, STATUS_BAR, W, NAV_TOP), clickable=True),
                empty_panel, rid="tool_menu_container")
    screen = screen_of(decor(menu_page(), overlay))
    assert not screen.has_dialog and "搜索商品" in [m.label for m in screen.marks]


def test_a_sheet_with_its_scrim_is_modal_even_with_nothing_behind_it_in_the_dump() -> None:
    """Instagram's contact sheet: a dimmer described "Dismiss" beside the sheet's title and rows."""
    rows = [v("LinearLayout", (0, 1998 + i * 150, W, 2148 + i * 150), v("TextView", (44, 2023 + i * 150, 1036, 2072 + i * 150),
              text=label), clickable=True) for i, label in enumerate(("Email", "Call"))]
    sheet = v("FrameLayout", (0, STATUS_BAR, W, NAV_TOP),
              v("Button", (0, STATUS_BAR, W, NAV_TOP), desc="Dismiss", rid="background_dimmer", clickable=True),
              v("TextView", (44, 1893, 1036, 1997), text="Contact"),
              v("RecyclerView", (0, 1998, W, NAV_TOP), *rows), rid="bottom_sheet_container")
    screen = screen_of(decor(sheet))
    assert screen.has_dialog and screen.top_layer.kind is K.BOTTOM_SHEET
    # The dimmer is marked too: tapping outside is how a person leaves a sheet.
    assert [m.label for m in screen.marks] == ["Dismiss", "Email", "Call"]


def test_an_unnamed_full_size_view_beside_content_is_no_scrim() -> None:
    """A background view that is neither clickable nor named a scrim: the page, not a dialog."""
    background = v("View", (0, STATUS_BAR, W, NAV_TOP), rid="bg")
    content = v("LinearLayout", (0, 900, W, 1500), v("Button", (100, 1000, 980, 1200), text="开始", clickable=True))
    screen = screen_of(decor(v("FrameLayout", (0, STATUS_BAR, W, NAV_TOP), background, content)))
    assert not screen.has_dialog and [m.label for m in screen.marks] == ["开始"]


def test_the_rows_of_a_list_view_are_marked_though_not_flagged_clickable() -> None:
    rows = [v("LinearLayout", (600, 400 + i * 96, 1000, 496 + i * 96),
              v("TextView", (620, 420 + i * 96, 980, 470 + i * 96), text=lang)) for i, lang in
            enumerate(("Português", "English", "Español"))]
    screen = screen_of(decor(v("ListView", (600, 400, 1000, 688), *rows)))
    assert [m.label for m in screen.marks] == ["Português", "English", "Español"]


def test_rows_of_a_web_page_with_an_html_id_are_marked() -> None:
    """A payment page in a WebView: no element is flagged clickable; its method rows carry HTML ids."""

    def method(i: int, rid: str, name: str) -> V:
        top = 500 + i * 200
        return v("android.view.View", (55, top, 1012, top + 190),
                 v("TextView", (231, top + 40, 574, top + 90), text=name),
                 v("TextView", (616, top + 40, 900, top + 90), text="Rp 30.900", rid=f"#{rid}Amount"), rid=f"#{rid}")

    page = v("android.webkit.WebView", (0, 88, W, 2334),
             *(method(i, rid, name) for i, (rid, name) in enumerate((("BPISAKU", "i.saku"), ("GOPAY", "GoPay")))))
    marks = screen_of(decor(page)).marks
    assert [m.bounds.top for m in marks] == [500, 700]  # the rows, not their narrow amount labels
