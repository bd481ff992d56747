from __future__ import annotations

import re

import pytest
from core_dumps import V, dump, v, window
from core_screens import ACTIVITY, PKG, dish, menu_page, row, time_dialog
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_fairy.explore.state import StateId, StateIdentifier, identify, short_activity
from pytest_fairy.perception.screen import build_screen


def state(*windows: V, activity: str = ACTIVITY) -> StateId:
    return identify(build_screen(dump(*windows), activity=activity))


def test_dialog_open_and_closed_are_two_states() -> None:
    closed, opened = state(menu_page()), state(menu_page(), time_dialog())
    assert closed.key != opened.key
    assert closed.structure_hash == opened.structure_hash  # the page below is the same page
    assert closed.dialog_hash == "" and opened.dialog_hash
    assert not closed.has_dialog and opened.has_dialog


def test_toggling_a_radio_in_the_dialog_changes_content_not_state() -> None:
    asap, later = state(menu_page(), time_dialog()), state(menu_page(), time_dialog(later=True))
    assert asap.key == later.key
    assert asap.content_hash != later.content_hash


def test_different_screens_are_different_states() -> None:
    cart = window(PKG, v("TextView", "购物车", id="title"),
                  v("Button", "去结算", id="checkout", clickable=True))
    assert state(menu_page()).key != state(cart).key
    assert state(menu_page()).key != state(menu_page(extra_title="优惠券")).key
    menu = state(menu_page(), activity="a.MenuActivity")
    assert menu.key != state(menu_page(), activity="a.CartActivity").key


@settings(max_examples=40, deadline=None)
@given(
    hour=st.integers(0, 23), minute=st.integers(0, 59), count=st.integers(0, 999),
    yuan=st.integers(0, 9999), fen=st.integers(0, 99), eta=st.integers(1, 120),
    currency=st.sampled_from(["¥", "￥", "$"]),
)
def test_dynamic_text_changes_neither_state_nor_content(
    hour: int, minute: int, count: int, yuan: int, fen: int, eta: int, currency: str
) -> None:
    base = state(menu_page(), time_dialog())
    changed = state(
        menu_page(clock=f"{hour}:{minute:02d}", cart=f"购物车({count})", total=f"{currency}{yuan}.{fen}",
                  eta=f"预计 {eta}分钟 送达"),
        time_dialog(eta=f"{hour}:{minute:02d}"),
    )
    assert changed.key == base.key
    assert changed.content_hash == base.content_hash


def test_window_order_does_not_matter() -> None:
    assert state(menu_page(), time_dialog()) == state(time_dialog(), menu_page())


@settings(max_examples=40, deadline=None)
@given(first=st.integers(0, 150), rows=st.integers(3, 12))
def test_scrolling_a_list_stays_in_the_same_state(first: int, rows: int) -> None:
    top, scrolled = state(menu_page()), state(menu_page(first=first, rows=rows))
    assert scrolled.key == top.key
    if first > 0:
        assert scrolled.content_hash != top.content_hash  # other rows came into view


def numbered_list(first: int, rows: int, *, header: bool = False) -> V:
    """A product list whose rows differ only by their number (`商品 7`), with prices and times."""
    items = [
        v("LinearLayout", "", v("TextView", f"商品 {i}", id="name"), v("TextView", f"¥{i}.00", id="price"),
          v("TextView", f"{i}分钟前", id="ago"), id="item", clickable=True)
        for i in range(first, first + rows)
    ]
    head = [v("ImageView", desc="今日推荐", id="banner", clickable=True)] if header else []
    return window(PKG, v("TextView", "全部商品", id="title"),
                  v("androidx.recyclerview.widget.RecyclerView", "", *head, *items, id="list", scrollable=True))


@settings(max_examples=40, deadline=None)
@given(first=st.integers(2, 290), rows=st.integers(2, 12))
def test_rows_named_by_numbers_scroll_as_new_content_in_the_same_state(first: int, rows: int) -> None:
    top, scrolled = state(numbered_list(1, rows)), state(numbered_list(first, rows))
    assert scrolled.key == top.key
    assert scrolled.content_hash != top.content_hash  # 商品 8.. are not 商品 1..
    further = state(numbered_list(first + rows, rows))
    assert further.key == top.key and further.content_hash != scrolled.content_hash  # 商品 110.. too
    # The header scrolled away: the same list at another offset.
    assert state(numbered_list(1, rows, header=True)).key == top.key


def test_prices_and_times_in_rows_are_no_new_content() -> None:
    def page(price: str, ago: str) -> V:
        rows = [v("LinearLayout", "", v("TextView", f"商品 {i}", id="name"), v("TextView", price, id="p"),
                  v("TextView", ago, id="ago"), id="item", clickable=True) for i in range(1, 6)]
        return window(PKG, v("androidx.recyclerview.widget.RecyclerView", "", *rows, id="list", scrollable=True))

    assert state(page("¥1.00", "3分钟前")) == state(page("¥9.50", "12分钟前"))


def test_a_list_of_other_rows_is_another_state() -> None:
    orders = window(PKG, v("TextView", "全部商品", id="title"), v(
        "androidx.recyclerview.widget.RecyclerView", "",
        *[v("LinearLayout", "", v("TextView", f"订单 {i}", id="order_no"), v("Button", "再来一单", id="again",
            clickable=True), id="order", clickable=True) for i in range(5)], id="list", scrollable=True))
    assert state(orders).key != state(numbered_list(1, 5)).key


def test_a_row_clipped_at_the_list_edge_is_ignored() -> None:
    clipped = row(7)
    clipped.children = clipped.children[:1]  # only its name is laid out at the bottom edge
    clipped.bounds = (0, 1700, 1080, 1760)
    page = menu_page()
    page.children[5].bounds = (0, 1000, 1080, 1720)
    page.children[5].children.append(clipped)
    reference = menu_page()
    reference.children[5].bounds = (0, 1000, 1080, 1720)
    assert state(page).key == state(reference).key


@pytest.mark.parametrize("count", [37, 40])
def test_long_non_scrolling_groups_hash_by_shape_beyond_the_first_rows(count: int) -> None:
    def grid(rows: int) -> V:
        cells = [v("TextView", dish(i), id="cat", clickable=True) for i in range(rows)]
        return window(PKG, v("TextView", "全部分类", id="title"), v("LinearLayout", "", *cells))

    assert state(grid(count)).key == state(grid(30)).key


def test_the_first_rows_of_a_static_group_keep_their_text() -> None:
    a = window(PKG, v("LinearLayout", "", *[v("TextView", t, id="tab") for t in ("汉堡", "小食", "饮料")]))
    b = window(PKG, v("LinearLayout", "", *[v("TextView", t, id="tab") for t in ("我的", "订单", "设置")]))
    assert state(a).key != state(b).key


def test_typed_text_and_selection_are_content() -> None:
    base = state(menu_page())
    typed = state(menu_page(search="巨无霸"))
    tab = state(menu_page(tab=2))
    assert typed.key == base.key and typed.content_hash != base.content_hash
    assert tab.key == base.key and tab.content_hash != base.content_hash


def test_long_free_text_counts_by_length_class_only() -> None:
    note = "这家店的汉堡很好吃，薯条也很脆，下次还会再来。配送小哥非常准时，包装完好无损，五星好评推荐大家"
    other = "送餐很快，餐品温度合适，汉堡分量足，可乐没有洒出来，整体体验很好，会推荐给朋友和同事一起来吃饭"
    assert len(note) == len(other)
    a = state(window(PKG, v("TextView", "评价", id="title"), v("TextView", note, id="review")))
    b = state(window(PKG, v("TextView", "评价", id="title"), v("TextView", other, id="review")))
    assert a.key == b.key


def test_keyboard_and_system_ui_are_ignored() -> None:
    keyboard = window("com.sohu.inputmethod.sogou", v("View", "", v("Button", "发送", clickable=True)),
                      bounds=(0, 1600, 1080, 2400))
    status = window("com.android.systemui", v("TextView", "12:31", id="clock"), bounds=(0, 0, 1080, 80))
    assert state(menu_page(search="巨"), keyboard, status) == state(menu_page(search="巨"))


def test_an_in_window_dialog_is_a_dialog_state() -> None:
    # Seed 001's dialog was drawn inside the app window: a full-screen scrim over the page with a panel.
    page = menu_page()
    scrim = v("View", "", id="view_dialog_bg", clickable=True, bounds=(0, 0, 1080, 2400))
    panel = v("LinearLayout", "", *time_dialog().children, id="dialog_panel", bounds=(90, 800, 990, 1600))
    overlay = v("FrameLayout", "", scrim, panel, id="dialog_root", bounds=(0, 0, 1080, 2400))
    with_overlay = window(PKG, v("FrameLayout", "", *page.children), overlay)
    without = window(PKG, v("FrameLayout", "", *page.children))
    assert state(with_overlay).has_dialog
    assert state(with_overlay).key != state(without).key


def test_name_is_readable() -> None:
    opened = state(menu_page(), time_dialog())
    assert re.fullmatch(r"state_productmdslist_[0-9a-f]{8}\+dlg_[0-9a-f]{8}", opened.name)
    assert str(opened) == opened.name
    assert re.fullmatch(r"state_productmdslist_[0-9a-f]{8}", state(menu_page()).name)
    assert StateId.from_dict(opened.to_dict()) == opened


@pytest.mark.parametrize(("activity", "short"), [
    ("com.mcd.ProductListActivity", "productlist"),
    ("com.mcd/.ui.MainActivity", "main"),
    ("Activity", "activity"),
    ("", "screen"),
    ("com.x.Settings$Inner", "inner"),
])
def test_short_activity(activity: str, short: str) -> None:
    assert short_activity(activity) == short


@pytest.mark.parametrize(("text", "normal"), [
    ("¥12.5", "<price>"), ("$3.99", "<price>"), ("合计 28.5元", "合计 <price>"),
    ("3分钟前", "<ago>"), ("3 minutes ago", "<ago>"), ("刚刚", "<ago>"),
    ("12:30", "<time>"), ("下午3点", "<time>"), ("2025-12-20", "<date>"), ("12月20日", "<date>"),
    ("购物车(3)", "购物车(#)"), ("已售 1,234", "已售 #"), ("  确定  ", "确定"),
    ("x" * 41, "<text~64>"),
])
def test_normalize_text(text: str, normal: str) -> None:
    assert StateIdentifier().normalize_text(text) == normal
