"""The Screen model: marks (numbering, modality, occlusion), lookups, the way out of a dialog, the title."""

from __future__ import annotations

import pytest

from pytest_fairy.perception.layers import LayerKind
from pytest_fairy.perception.screen import Mark, Screen, build_screen

from .builder import (
    PKG,
    V,
    alert_window,
    decor,
    delivery_overlay,
    dump,
    form_window,
    ime_window,
    launcher_window,
    menu_screen,
    menu_window,
    nav_bar,
    permission_window,
    popup_window,
    sheet_window,
    status_bar,
    system_window,
    v,
)

K = LayerKind


def screen_with(*windows: V, activity: str = ".MenuActivity", seed: int | None = None) -> Screen:
    return build_screen(dump(status_bar(), *windows, nav_bar(), seed=seed), activity=activity, package=PKG)


def test_marks_are_numbered_in_reading_order_with_refs_and_layers() -> None:
    screen = build_screen(menu_screen(), activity=".MenuActivity", package=PKG)
    assert [m.number for m in screen.marks] == list(range(1, len(screen.marks) + 1))
    assert screen.mark(1).label == "转到上一层级" and screen.mark(2).label == "搜索商品"
    tops = [m.bounds.top for m in screen.marks]
    assert tops == sorted(tops)
    assert all(m.layer is K.APP for m in screen.marks)
    # System bars are chrome: their views get no mark (the explorer presses keys instead).
    assert not any(m.node.package == "com.android.systemui" for m in screen.marks)
    row = screen.marks_by_ref["menu_list/item_root[巨无霸 1号]"]
    assert row.label == "巨无霸 1号" and row.center == row.bounds.center
    assert screen.activity == ".MenuActivity" and screen.package == PKG


def test_mark_lookup_error_says_the_range() -> None:
    screen = screen_with(menu_window())
    with pytest.raises(KeyError, match=rf"no mark \[99\] on this screen: marks are 1..{len(screen.marks)}"):
        screen.mark(99)
    with pytest.raises(KeyError, match=r"no mark \[0\]"):
        screen.mark(0)


@pytest.mark.parametrize(
    ("window", "kind"),
    [(alert_window(), K.DIALOG), (permission_window(), K.PERMISSION), (system_window(), K.SYSTEM_DIALOG),
     (sheet_window(), K.BOTTOM_SHEET)],
)
def test_nothing_below_a_modal_layer_is_marked(window: V, kind: LayerKind) -> None:
    screen = screen_with(menu_window(), window)
    assert screen.marks and {m.layer for m in screen.marks} == {kind}
    assert screen.top_layer.kind is kind and screen.has_dialog
    assert [layer.kind for layer in screen.dialog_layers] == [kind]
    assert screen.find_text("巨无霸 1号"), "the app below is still part of the screen"


def test_in_window_dialog_marks_only_the_dialog() -> None:
    screen = screen_with(menu_window(overlay=delivery_overlay()))
    assert [m.label for m in screen.marks] == ["尽快送达", "预约送餐", "取消", "确定"]
    assert {m.layer for m in screen.marks} == {K.DIALOG}
    assert screen.title == "菜单"  # the page's name, not the dialog's


def test_a_popup_is_marked_first_and_hides_what_it_covers() -> None:
    screen = screen_with(menu_window(), popup_window())
    assert [m.label for m in screen.marks[:3]] == ["分享", "收藏", "举报"]
    assert {m.layer for m in screen.marks[:3]} == {K.POPUP}
    labels = [m.label for m in screen.marks]
    # The tabs 饮品 / 甜品 are under the popup (at x >= 600): a tap there would hit the popup.
    assert "小食" in labels and "饮品" not in labels and "甜品" not in labels
    assert screen.top_layer.kind is K.POPUP and screen.has_dialog


def test_the_keyboard_hides_what_is_under_it_and_is_not_a_dialog() -> None:
    screen = screen_with(menu_window(), ime_window(top=1500))
    assert screen.marks and all(m.bounds.center[1] < 1500 for m in screen.marks)
    assert all(m.layer is K.APP for m in screen.marks)
    assert screen.top_layer.kind is K.APP
    assert not screen.has_dialog and screen.dialog_layers == []


def test_nodes_and_find_text() -> None:
    screen = screen_with(form_window(), alert_window(), seed=2)
    assert sum(1 for _ in screen.nodes()) == sum(1 for w in screen.windows for _ in w.iter())
    assert [n.text for n in screen.find_text("登录 & 注册", exact=True)] == ["登录 & 注册"]
    assert {n.text for n in screen.find_text("登录")} >= {"登录", "登录 & 注册"}
    assert screen.find_text("登录", exact=True)[0].text == "登录"
    assert screen.find_text("电池电量", exact=False), "content-desc counts too"
    assert screen.find_text("确定要清空") and not screen.find_text("确定要清空", exact=True)
    assert not screen.find_text("no such text")


def test_find_text_skips_views_not_visible_to_the_user() -> None:
    screen = build_screen(menu_screen(offset=150), package=PKG)
    # Row 0 is scrolled so that its name is out of view (dumped with visible-to-user="false").
    assert not screen.find_text("巨无霸 1号")
    assert screen.find_text("¥12.00")


def way_out(*windows: V) -> Mark:
    mark = screen_with(*windows).dismiss_mark()
    assert mark is not None, "expected a way out of the dialog"
    return mark


def test_dismiss_prefers_close_then_cancel_then_acknowledge() -> None:
    assert way_out(menu_window(), alert_window(close_icon=True)).node.short_id == "iv_close"
    assert way_out(menu_window(), alert_window()).label == "取消"
    assert way_out(menu_window(), alert_window(buttons=("知道了",))).label == "知道了"
    assert way_out(menu_window(), alert_window(buttons=("好的", "去看看"))).label == "好的"
    assert way_out(menu_window(), alert_window(buttons=("OK", "Facebook"))).label == "OK"  # no 'ok' in it
    assert way_out(menu_window(overlay=delivery_overlay())).label == "取消"
    assert way_out(menu_window(), sheet_window()).label == "取消"


def test_dismiss_for_permission_and_system_dialogs() -> None:
    assert way_out(menu_window(), permission_window()).label == "仅在使用该应用时允许"
    assert way_out(menu_window(), system_window("crash")).label == "Close app"
    assert way_out(menu_window(), system_window("anr")).label == "Close app"


def test_no_way_out_gives_none() -> None:
    assert screen_with(menu_window()).dismiss_mark() is None
    assert screen_with(menu_window(), popup_window()).dismiss_mark() is None
    no_buttons = alert_window(buttons=("立即更新",))  # the positive button: no way out, whatever its id
    assert screen_with(menu_window(), no_buttons).dismiss_mark() is None


def test_title_from_toolbar_then_large_text_then_activity() -> None:
    assert screen_with(menu_window()).title == "菜单"
    plain = decor(v("LinearLayout", (0, 63, 1080, 2337),
                    v("TextView", (40, 100, 400, 150), text="小字"),
                    v("TextView", (40, 160, 800, 300), text="个人中心"),
                    v("TextView", (40, 1800, 800, 2200), text="很高的底部文字")))
    assert screen_with(plain).title == "个人中心"
    empty = decor(v("View", (0, 63, 1080, 2337), clickable=True))
    assert screen_with(empty, activity="com.example.food.ui.ProfileActivity").title == "ProfileActivity"


def test_launcher_screen_without_app() -> None:
    screen = build_screen(dump(status_bar(), launcher_window(), nav_bar()))
    assert [layer.kind for layer in screen.layers][0] is K.LAUNCHER
    assert screen.package == "" and not screen.has_dialog
    assert [m.label for m in screen.marks] == ["美食", "设置", "相机", "电话"]


def test_disabled_controls_get_no_mark_but_stay_in_the_text() -> None:
    screen = screen_with(form_window())
    assert "登录" not in [m.label for m in screen.marks]
    assert 'Button "登录" disabled' in screen.text
