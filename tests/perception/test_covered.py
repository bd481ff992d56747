"""Views hidden under a bar drawn later in their own window (`perception/covered.py`, the `under_bar` rule of
`one_mark_per_control`): on real dumps of the corpus where a bar hides list rows, and on screens built
small, each failing when the rule is deleted; and the look-alikes that must keep their marks (a transparent
full-screen layer holding a floating button, a nameless shadow strip, a pager's other page, a page that
does not scroll)."""

from __future__ import annotations

from pytest_fairy.perception.screen import Screen, build_screen
from tests.perception.real_screens.corpus import screen_of

from .builder import NAV_TOP, PKG, STATUS_BAR, V, W, decor, dump, nav_bar, status_bar, v

RECYCLER = "androidx.recyclerview.widget.RecyclerView"
PAGER = "androidx.viewpager.widget.ViewPager"
ROW = 200
BAR_TOP = 2200  # a bottom bar over the foot of a list that runs to NAV_TOP: over the last row's centre only


def screen_with(*content: V) -> Screen:
    return build_screen(dump(status_bar(), decor(*content), nav_bar()), package=PKG)


def rows(top: int = STATUS_BAR, bottom: int = NAV_TOP) -> list[V]:
    """Clickable rows of `ROW` px from `top`, the last one cut by `bottom`, each named 行 n."""
    return [
        v(
            "LinearLayout",
            (0, y, W, min(y + ROW, bottom)),
            v("TextView", (40, y, 600, min(y + 80, bottom)), text=f"行 {i}"),
            rid="row",
            clickable=True,
        )
        for i, y in enumerate(range(top, bottom, ROW))
    ]


def a_list(top: int = STATUS_BAR, bottom: int = NAV_TOP, *, rid: str = "list") -> V:
    return v(RECYCLER, (0, top, W, bottom), *rows(top, bottom), rid=rid, scrollable=True)


def row_labels(screen: Screen) -> list[str]:
    return [m.label for m in screen.marks if m.node.short_id == "row"]


def last_row() -> str:
    return f"行 {len(range(STATUS_BAR, NAV_TOP, ROW)) - 1}"


def bottom_bar(top: int = BAR_TOP, *, rid: str = "bottom_nav") -> V:
    """A bottom navigation bar of four clickable tabs across the width."""
    return v(
        "LinearLayout",
        (0, top, W, NAV_TOP),
        *(
            v(
                "FrameLayout",
                (i * 270, top, (i + 1) * 270, NAV_TOP),
                v("TextView", (i * 270 + 60, top + 100, i * 270 + 210, NAV_TOP - 10), text=name),
                rid="tab",
                clickable=True,
            )
            for i, name in enumerate(("首页", "发现", "消息", "我的"))
        ),
        rid=rid,
    )


# -- a bar drawn later hides the rows under it ---------------------------------------------------------


def test_a_row_scrolled_under_a_bottom_bar_drawn_later_gets_no_mark() -> None:
    page = v("FrameLayout", (0, STATUS_BAR, W, NAV_TOP), a_list(), bottom_bar(), rid="page")
    screen = screen_with(page)
    labels = row_labels(screen)
    # The last row's centre is under the tabs (a tap there opens a tab); the rows above keep their marks.
    assert labels == [f"行 {i}" for i in range(len(range(STATUS_BAR, NAV_TOP, ROW)) - 1)]
    assert [m.label for m in screen.marks if m.node.short_id == "tab"] == ["首页", "发现", "消息", "我的"]


def test_a_row_under_a_search_box_laid_out_over_the_list_top_gets_no_mark() -> None:
    """Google Maps' side panel: the search box is drawn over the panel's own title row."""
    search = v(
        "FrameLayout",
        (0, STATUS_BAR, W, STATUS_BAR + 150),
        v("EditText", (20, STATUS_BAR + 10, W - 20, STATUS_BAR + 140), text="搜索", clickable=True),
        rid="search_box_container",
    )
    screen = screen_with(v("FrameLayout", (0, STATUS_BAR, W, NAV_TOP), a_list(), search, rid="page"))
    assert "行 0" not in row_labels(screen)
    assert "行 1" in row_labels(screen)


def test_a_bar_in_a_transparent_full_screen_layer_hides_only_where_the_bar_is() -> None:
    """A layer as large as the screen that draws only a mini player at its foot."""
    player = v(
        "LinearLayout",
        (0, BAR_TOP, W, NAV_TOP),
        v("TextView", (200, BAR_TOP + 40, 800, BAR_TOP + 120), text="正在播放"),
        rid="play_bar",
        clickable=True,
    )
    layer = v("FrameLayout", (0, STATUS_BAR, W, NAV_TOP), player, rid="player_layer")
    screen = screen_with(v("FrameLayout", (0, STATUS_BAR, W, NAV_TOP), a_list(), layer, rid="page"))
    labels = row_labels(screen)
    assert last_row() not in labels
    assert len(labels) == len(range(STATUS_BAR, NAV_TOP, ROW)) - 1


def test_the_spotlight_feed_icons_under_the_bottom_navigation_get_no_mark() -> None:
    """The third card's like / bookmark / share icons lie under the bottom navigation bar (a later sibling
    of the feed's page); the icons of the cards above keep their marks."""
    screen = screen_of("spotlight__publisher_feed_bluestacks.xml")
    icons = sorted((m.label, m.bounds.top) for m in screen.marks if m.label in ("Like", "Bookmark", "Share"))
    assert [top for _, top in icons] == [922, 1411] * 3
    assert not [m for m in screen.marks if m.bounds.top == 1900]


def test_the_spoon_cards_under_the_mini_player_get_no_mark() -> None:
    """The second shelf's cards scrolled under the mini player get none; the player keeps its own."""
    screen = screen_of("spoon__live_home_ko.xml")
    assert not [m for m in screen.marks if m.bounds.top in (1979, 2242)]
    assert any(str(m.bounds) == "[0,2155][1080,2365]" for m in screen.marks)


# -- what looks like a bar drawn later but hides nothing -------------------------------------------------


def test_a_transparent_full_screen_layer_holding_only_a_fab_hides_no_row() -> None:
    fab = v("ImageButton", (880, NAV_TOP - 200, 1040, NAV_TOP - 40), desc="新建", rid="fab", clickable=True)
    layer = v("FrameLayout", (0, STATUS_BAR, W, NAV_TOP), fab, rid="fab_layer")
    screen = screen_with(v("FrameLayout", (0, STATUS_BAR, W, NAV_TOP), a_list(), layer, rid="page"))
    assert len(row_labels(screen)) == len(range(STATUS_BAR, NAV_TOP, ROW))
    assert "新建" in [m.label for m in screen.marks]


def test_a_nameless_strip_over_the_list_foot_hides_no_row() -> None:
    """A shadow or gradient drawn over the list's edge: the dump says nothing is drawn there to see."""
    shade = v("View", (0, BAR_TOP, W, NAV_TOP), rid="bottom_shadow")
    screen = screen_with(v("FrameLayout", (0, STATUS_BAR, W, NAV_TOP), a_list(), shade, rid="page"))
    assert last_row() in row_labels(screen)


def test_buttons_floating_over_the_list_foot_hide_only_the_rows_under_them() -> None:
    """A bottom strip holding two buttons with the list showing between them (ChatGPT's drawer foot)."""
    strip = v(
        "LinearLayout",
        (0, BAR_TOP, W, NAV_TOP),
        v("Button", (40, BAR_TOP + 30, 300, NAV_TOP - 30), text="聊天", clickable=True),
        v("Button", (880, BAR_TOP + 30, 1040, NAV_TOP - 30), desc="设置", clickable=True),
        rid="foot",
    )
    screen = screen_with(v("FrameLayout", (0, STATUS_BAR, W, NAV_TOP), a_list(), strip, rid="page"))
    assert last_row() in row_labels(screen)  # its centre (540, ...) is between the buttons


def test_a_pagers_other_page_laid_out_later_hides_no_row() -> None:
    """A ViewPager's next page is a later sibling of the shown one, with rows at the same places."""
    first = a_list(rid="page_one")
    second = v(
        RECYCLER,
        (0, STATUS_BAR, W, NAV_TOP),
        v("LinearLayout", (0, STATUS_BAR, W, STATUS_BAR + ROW), rid="other_row", clickable=True),
        v("LinearLayout", (0, NAV_TOP - ROW, W, NAV_TOP), rid="other_row", clickable=True),
        rid="page_two",
        scrollable=True,
    )
    pager = v(PAGER, (0, STATUS_BAR, W, NAV_TOP), first, second, rid="pager", scrollable=True)
    screen = screen_with(pager)
    labels = row_labels(screen)
    assert "行 0" in labels and last_row() in labels


def test_a_bar_over_a_page_that_does_not_scroll_hides_nothing() -> None:
    """Only a list scrolls its rows under a bar; a fixed page is laid out around its bars."""
    page = v("LinearLayout", (0, STATUS_BAR, W, NAV_TOP), *rows(), rid="static_page")
    screen = screen_with(v("FrameLayout", (0, STATUS_BAR, W, NAV_TOP), page, bottom_bar(), rid="page"))
    assert last_row() in row_labels(screen)


def test_a_bar_narrower_than_the_list_hides_nothing() -> None:
    """A pill at the list's foot with margins at its sides is no bar across the list: the rows show on
    either side of it."""
    pill = v(
        "LinearLayout",
        (200, BAR_TOP, 880, NAV_TOP),
        v("TextView", (220, BAR_TOP + 20, 860, NAV_TOP - 20), text="筛选"),
        rid="pill",
        clickable=True,
    )
    screen = screen_with(v("FrameLayout", (0, STATUS_BAR, W, NAV_TOP), a_list(), pill, rid="page"))
    assert last_row() in row_labels(screen)


def test_a_strip_across_the_middle_of_the_list_is_no_bar_over_its_edge() -> None:
    strip = v(
        "LinearLayout",
        (0, 1100, W, 1240),
        v("TextView", (40, 1120, 1040, 1220), text="新消息"),
        rid="middle_strip",
        clickable=True,
    )
    screen = screen_with(v("FrameLayout", (0, STATUS_BAR, W, NAV_TOP), a_list(), strip, rid="page"))
    assert len(row_labels(screen)) == len(range(STATUS_BAR, NAV_TOP, ROW))


def test_a_strip_over_a_quarter_of_a_short_list_is_no_bar() -> None:
    """A camera's mode strip reported after a short gallery grid it is drawn behind (Instagram's new post):
    a strip that tall over a list that short is a panel of its own, not the list's bar."""
    grid = a_list(top=1700, rid="grid")
    strip = v(
        "LinearLayout",
        (0, NAV_TOP - 180, W, NAV_TOP),
        v("Button", (300, NAV_TOP - 160, 540, NAV_TOP - 20), text="STORY", clickable=True),
        v("Button", (540, NAV_TOP - 160, 780, NAV_TOP - 20), text="REEL", clickable=True),
        rid="mode_strip",
    )
    screen = screen_with(v("FrameLayout", (0, STATUS_BAR, W, NAV_TOP), grid, strip, rid="page"))
    assert len(row_labels(screen)) == len(range(1700, NAV_TOP, ROW))
