"""One mark per control (`perception/marks.py`): each rule on real dumps of the corpus where one shows it,
and on a screen built small, so each test fails when its rule is deleted; and a property over generated
trees that no two marks are one control by those rules."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_fairy.perception.hierarchy import Bounds
from pytest_fairy.perception.marks import (
    dialog_panel,
    outer_scroller,
    page_wrapper,
    sliver,
    toggle_row,
    wrapper_of,
)
from pytest_fairy.perception.screen import Screen, build_screen
from tests.perception.real_screens.corpus import screen_of

from .builder import (
    LIST_BOTTOM,
    LIST_TOP,
    NAV_TOP,
    PKG,
    STATUS_BAR,
    V,
    W,
    decor,
    dump,
    nav_bar,
    status_bar,
    v,
)

RECYCLER = "androidx.recyclerview.widget.RecyclerView"
PAGER = "androidx.viewpager.widget.ViewPager"


def screen_with(*content: V) -> Screen:
    return build_screen(dump(status_bar(), decor(*content), nav_bar()), package=PKG)


def marked_at(screen: Screen, box: str) -> list[str]:
    """The classes of the marks whose bounds are `box`."""
    return [m.node.short_class for m in screen.marks if str(m.bounds) == box]


# -- a wrapper and the control it wraps --------------------------------------------------------------


def test_a_frame_filled_by_its_button_is_one_mark_on_the_button() -> None:
    button = v("Button", (44, 1004, 1036, 1116), text="登录", rid="login", clickable=True)
    frame = v("FrameLayout", (40, 1000, 1040, 1120), button, rid="login_frame", clickable=True)
    screen = screen_with(v("LinearLayout", (0, STATUS_BAR, W, NAV_TOP), frame))
    assert [(m.node.short_class, m.label) for m in screen.marks] == [("Button", "登录")]


def test_a_named_wrapper_of_a_nameless_view_keeps_the_mark() -> None:
    inner = v("FrameLayout", (60, 300, 360, 560), rid="button_tile_group", clickable=True)
    tile = v("FrameLayout", (60, 300, 360, 560), inner, desc="Go to channel page", clickable=True)
    screen = screen_with(v("LinearLayout", (0, STATUS_BAR, W, NAV_TOP), tile))
    assert [m.label for m in screen.marks] == ["Go to channel page"]


def test_a_real_icon_and_its_frame_are_one_mark() -> None:
    """WeWork's more-panel: a clickable LinearLayout and the ImageView filling it, four times."""
    screen = screen_of("wework__group_chat_more_panel.xml")
    for left in (38, 234, 430, 626):
        assert marked_at(screen, f"[{left},1443][{left + 32},1475]") == ["ImageView"]


def test_a_row_and_a_button_in_it_stay_two_marks() -> None:
    follow = v("TextView", (773, 400, 1032, 490), text="关注", rid="follow", clickable=True)
    name = v("TextView", (200, 400, 700, 490), text="某人")
    row = v("RelativeLayout", (0, 360, W, 560), name, follow, clickable=True)
    screen = screen_with(v("LinearLayout", (0, STATUS_BAR, W, NAV_TOP), row))
    assert len(screen.marks) == 2


# -- a row and its switch ----------------------------------------------------------------------------


def settings_row(checked: bool) -> V:
    title = v("TextView", (48, 420, 800, 480), text="深色模式", rid="title")
    summary = v("TextView", (48, 480, 800, 530), text="夜间更护眼", rid="summary")
    switch = v(
        "Switch", (920, 440, 1036, 510), rid="switch_widget", checkable=True, checked=checked, clickable=True
    )
    return v("LinearLayout", (0, 400, W, 550), title, summary, switch, clickable=True)


def test_a_settings_row_and_its_switch_are_one_mark_that_keeps_the_state() -> None:
    for checked in (True, False):
        screen = screen_with(v("LinearLayout", (0, STATUS_BAR, W, NAV_TOP), settings_row(checked)))
        [mark] = screen.marks
        assert mark.bounds == Bounds(0, 400, W, 550) and mark.label == "深色模式"
        assert mark.node.checkable and mark.node.checked is checked
        assert ("checked" if checked else "unchecked") in screen.text


def test_real_settings_rows_keep_their_switch_and_radio_state() -> None:
    wireless = screen_of("android_settings__wireless_debugging.xml")
    [row] = [m for m in wireless.marks if m.node.short_id == "switch_bar"]
    assert row.node.checkable and row.node.checked
    assert not any(m.node.short_class == "Switch" for m in wireless.marks)
    network = screen_of("android_phone__preferred_network_type.xml")
    choices = [m for m in network.marks if m.node.checkable]
    assert [m.label for m in choices if m.node.checked] == ["5G preferencial"]
    assert len(choices) == 4 and {m.node.short_class for m in choices} == {"LinearLayout"}


# -- what nobody taps --------------------------------------------------------------------------------


def test_a_clickable_page_root_gets_no_mark() -> None:
    rows = [
        v("TextView", (0, 300 + i * 200, W, 500 + i * 200), text=f"笔记 {i}", clickable=True)
        for i in range(3)
    ]
    screen = screen_with(v("LinearLayout", (0, STATUS_BAR, W, NAV_TOP), *rows, rid="root", clickable=True))
    assert [m.label for m in screen.marks] == ["笔记 0", "笔记 1", "笔记 2"]


def test_real_page_wide_wrappers_get_no_mark() -> None:
    for name in ("futu__portfolio_rebalance_history.xml", "tonghuashun__trade_positions.xml"):
        screen = screen_of(name)
        window = screen.app_layer
        assert window is not None
        assert not [m for m in screen.marks if m.bounds.area >= 0.9 * window.bounds.area], name


def test_a_nameless_scrim_with_nothing_inside_stays_the_background() -> None:
    ok = v("Button", (180, 1350, 900, 1450), text="好", clickable=True)
    scrim = v("View", (0, STATUS_BAR, W, NAV_TOP), clickable=True)
    overlay = v(
        "FrameLayout", (0, STATUS_BAR, W, NAV_TOP), scrim, v("LinearLayout", (140, 900, 940, 1500), ok)
    )
    page = v("LinearLayout", (0, STATUS_BAR, W, NAV_TOP), v("TextView", (0, 300, W, 400), text="页"))
    screen = screen_with(page, overlay)
    assert "(background: tapping it may dismiss)" in screen.text


def panel_dialog(*, named: bool = False, buttons: int = 2) -> V:
    """An app's dialog window (off the screen's edges) whose panel is set clickable, holding its buttons."""
    cancel = v("Button", (120, 1300, 520, 1400), text="取消", clickable=True)
    save = v("Button", (560, 1300, 960, 1400), text="保存", clickable=True)
    title = v("TextView", (120, 950, 960, 1020), text="保存草稿？")
    panel = v("LinearLayout", (100, 930, 980, 1420), title, *[cancel, save][2 - buttons :], clickable=True,
              desc="草稿面板" if named else "")  # fmt: skip
    return v("FrameLayout", (60, 900, 1020, 1450), v("FrameLayout", (60, 900, 1020, 1450), panel,
                                                     rid="android:id/content"))  # fmt: skip


def test_a_dialogs_clickable_panel_gets_no_mark() -> None:
    page = decor(v("LinearLayout", (0, STATUS_BAR, W, NAV_TOP), v("TextView", (0, 300, W, 400), text="页")))
    screen = build_screen(dump(status_bar(), page, panel_dialog(), nav_bar()), package=PKG)
    assert screen.has_dialog
    assert [m.label for m in screen.marks] == ["取消", "保存"]
    alone = build_screen(dump(status_bar(), page, panel_dialog(buttons=1), nav_bar()), package=PKG)
    assert [m.label for m in alone.marks] == ["保存"]
    # A panel with no control inside is what there is to tap.
    bare = build_screen(dump(status_bar(), page, panel_dialog(buttons=0), nav_bar()), package=PKG)
    assert [m.node.short_class for m in bare.marks] == ["LinearLayout"]
    # A panel that names itself is something a person can point at: it keeps its mark.
    named = build_screen(dump(status_bar(), page, panel_dialog(named=True), nav_bar()), package=PKG)
    assert "草稿面板" in [m.label for m in named.marks]


def test_a_real_dialogs_panel_gets_no_mark_and_its_controls_keep_theirs() -> None:
    screen = screen_of("umos_vehicle_control__side_mirror_popup_car.xml")
    assert marked_at(screen, "[986,114][1551,922]") == []
    assert marked_at(screen, "[986,834][1258,922]") and marked_at(screen, "[1279,834][1551,922]")


def test_a_page_card_holding_every_control_keeps_its_mark() -> None:
    """On a page, a clickable card with controls inside is a control of its own (it opens something)."""
    like = v("ImageView", (800, 700, 900, 800), desc="赞", clickable=True)
    share = v("ImageView", (920, 700, 1020, 800), desc="分享", clickable=True)
    card = v("FrameLayout", (20, 400, 1060, 820), v("TextView", (40, 420, 700, 500), text="一篇文章"), like, share,
             clickable=True)  # fmt: skip
    screen = screen_with(v("LinearLayout", (0, STATUS_BAR, W, NAV_TOP), card))
    assert len(screen.marks) == 3


def clipped_list(edge: int) -> V:
    """A list whose last row shows only `edge` px at the bottom, its text scrolled out of view."""
    rows = [
        v(
            "LinearLayout",
            (0, top, W, top + 200),
            v("TextView", (40, top + 50, 800, top + 150), text=f"联系人 {i}"),
            clickable=True,
            rid="row",
        )
        for i, top in enumerate((LIST_TOP, LIST_TOP + 200))
    ]
    hidden = v("TextView", (40, LIST_BOTTOM, 800, LIST_BOTTOM), text="联系人 9", visible_to_user=False)
    last = v("LinearLayout", (0, LIST_BOTTOM - edge, W, LIST_BOTTOM), hidden, clickable=True, rid="row")
    return v(RECYCLER, (0, LIST_TOP, W, LIST_BOTTOM), *rows, last, scrollable=True)


def test_a_row_scrolled_nearly_out_of_view_gets_no_mark() -> None:
    for edge, marked in ((16, False), (60, True)):
        box = f"[0,{LIST_BOTTOM - edge}][{W},{LIST_BOTTOM}]"
        assert ("LinearLayout" in marked_at(screen_with(clipped_list(edge)), box)) is marked


def test_a_small_described_icon_and_a_handle_inside_the_page_keep_their_marks() -> None:
    icon = v("ImageView", (17, 1336, 37, 1356), desc="Música", clickable=True)
    handle = v("View", (510, 600, 528, 700), clickable=True)
    screen = screen_with(v("LinearLayout", (0, STATUS_BAR, W, NAV_TOP), icon, handle))
    assert len(screen.marks) == 2


def test_real_slivers_at_a_lists_edge_get_no_mark() -> None:
    screen = screen_of("whatsapp__chat_list.xml")
    assert marked_at(screen, "[0,1399][720,1415]") == [] and marked_at(screen, "[0,1404][104,1415]") == []


def test_a_frame_around_a_disabled_button_gets_no_mark() -> None:
    button = v("Button", (60, 1000, 1020, 1120), text="下一步", clickable=True, enabled=False)
    frame = v("FrameLayout", (40, 980, 1040, 1140), button, clickable=True)
    live = v("Button", (60, 1200, 1020, 1320), text="返回", clickable=True)
    screen = screen_with(v("LinearLayout", (0, STATUS_BAR, W, NAV_TOP), frame, live))
    assert [m.label for m in screen.marks] == ["返回"]


# -- nested scroll containers ------------------------------------------------------------------------


def test_a_pager_filled_by_its_list_is_one_scroll_mark_on_the_list() -> None:
    rows = [
        v("TextView", (0, top, W, top + 200), text=f"消息 {i}", clickable=True)
        for i, top in enumerate(range(LIST_TOP, LIST_TOP + 600, 200))
    ]
    page = v(RECYCLER, (0, LIST_TOP, W, LIST_BOTTOM), *rows, rid="list", scrollable=True)
    pager = v(PAGER, (0, LIST_TOP, W, LIST_BOTTOM), page, rid="pager", scrollable=True)
    screen = screen_with(v("LinearLayout", (0, STATUS_BAR, W, NAV_TOP), pager))
    assert [m.node.short_id for m in screen.marks if m.node.scrollable] == ["list"]


def test_real_nested_scrollers_keep_the_innermost_and_a_shelf_inside_a_feed() -> None:
    tasks = screen_of("google_tasks__task_list.xml")
    scrollers = [m.node.short_id for m in tasks.marks if m.node.scrollable and m.bounds.top >= 170]
    assert scrollers == ["tasks_list"]
    feed = screen_of("youtube__home_feed.xml")
    assert marked_at(feed, "[0,318][1080,1791]") and marked_at(feed, "[0,1297][1080,1791]")


# -- the property ------------------------------------------------------------------------------------

CLASSES = st.sampled_from(
    ["FrameLayout", "LinearLayout", "Button", "Switch", "CheckBox", "ImageView", "TextView", RECYCLER]
)


@st.composite
def trees(draw: st.DrawFn, box: tuple[int, int, int, int], depth: int) -> V:
    left, top, right, bottom = box
    inset = draw(st.sampled_from([0, 0, 4, 30, 200]))
    inner = (left + inset, top + inset, max(left + inset, right - inset), max(top + inset, bottom - inset))
    height = inner[3] - inner[1]
    count = draw(st.integers(0, 3)) if depth > 0 else 0
    children = []
    for i in range(count):
        band = (inner[0], inner[1] + i * height // count, inner[2], inner[1] + (i + 1) * height // count)
        children.append(draw(trees(band, depth - 1)))
    cls = draw(CLASSES)
    checkable = cls in ("Switch", "CheckBox")
    return v(
        cls,
        inner,
        *children,
        text=draw(st.sampled_from(["", "", "设置", "确定"])),
        desc=draw(st.sampled_from(["", "", "更多"])),
        clickable=draw(st.booleans()),
        checkable=checkable,
        checked=checkable and draw(st.booleans()),
        scrollable=cls == RECYCLER and draw(st.booleans()),
        enabled=draw(st.sampled_from([True, True, False])),
    )


@settings(max_examples=80, deadline=None)
@given(trees((0, STATUS_BAR, W, NAV_TOP), 3))
def test_no_two_marks_are_one_control(tree: V) -> None:
    screen = screen_with(tree)
    marked = {id(m.node) for m in screen.marks}
    layers = {m.layer: layer for m in screen.marks for layer in screen.layers if layer.kind is m.layer}
    nodes = [m.node for m in screen.marks]
    for mark in screen.marks:
        node, layer = mark.node, layers[mark.layer]
        assert not page_wrapper(node, layer, nodes) and not sliver(node, layer), mark
        assert not dialog_panel(node, layer, nodes), mark
        assert not outer_scroller(node, marked) and not toggle_row(node, marked), mark
        parent = node.parent
        while parent is not None and id(parent) not in marked:
            parent = parent.parent
        assert parent is None or not wrapper_of(parent, node, marked), (parent, mark)
