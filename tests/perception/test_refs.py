"""Stable refs: unique per screen, unchanged by scrolling and by dynamic text; matching across screens."""

from __future__ import annotations

from pytest_fairy.perception.refs import family, make_refs, match_refs, raw_ref, row_family, stable_text
from pytest_fairy.perception.screen import Screen, build_screen

from .builder import PKG, alert_window, dump, menu_screen, menu_window, nav_bar, status_bar, v


def screen(**kwargs: object) -> Screen:
    return build_screen(menu_screen(**kwargs), package=PKG)  # type: ignore[arg-type]


def refs_by_label(s: Screen) -> dict[str, str]:
    return {m.ref: m.label for m in s.marks}


def test_refs_are_unique_within_a_screen() -> None:
    for s in (screen(), screen(offset=777), screen(rows=3)):
        refs = [m.ref for m in s.marks]
        assert len(refs) == len(set(refs))


def test_row_refs_survive_scrolling_by_pixels_and_rows() -> None:
    before = screen()
    for offset in (37, ROW_PX := 200, 3 * ROW_PX + 90):
        after = screen(offset=offset)
        assert len({m.label for m in after.marks} & {m.label for m in before.marks}) >= 5
        for mark in after.marks:
            old = before.marks_by_ref.get(mark.ref)
            if old is not None:
                assert old.label == mark.label, f"{mark.ref} moved from {old.label!r} to {mark.label!r}"
        # Rows seen on both screens keep their ref although their y changed and rows came and went.
        rows = [m for m in after.marks if m.ref.startswith("menu_list/item_root[") and m.ref.count("/") == 1]
        same_rows = [m for m in rows if m.label in {b.label for b in before.marks}]
        assert same_rows and all(m.ref in before.marks_by_ref for m in same_rows)
        assert all(before.marks_by_ref[m.ref].bounds != m.bounds for m in same_rows)


def test_dynamic_text_does_not_change_refs() -> None:
    before = screen()
    after = screen(prices={0: "¥99.50", 1: "¥0.00", 2: "售罄"})
    assert [m.ref for m in before.marks] == [m.ref for m in after.marks]


def test_fixed_elements_keep_refs_when_the_list_scrolls() -> None:
    before, after = screen(), screen(offset=1234)
    for ref in ("toolbar/ImageButton[转到上一层级]", "root/search", "tabs/TextView[小食]",
                "root/menu_list", "bottom_nav/tab_item[购物车]"):
        assert ref in before.marks_by_ref and ref in after.marks_by_ref


def test_refs_normalise_digits_and_drop_number_only_text() -> None:
    price = v("TextView", (0, 0, 10, 10), text="¥22.00", rid="price")
    clock = v("TextView", (0, 0, 10, 10), text="12:30")
    counted = v("Button", (0, 0, 10, 10), text="购物车 (3)")
    frame = v("FrameLayout", (0, 0, 1080, 2400), price, clock, counted)
    nodes = build_screen(dump(frame)).windows[0].children
    assert stable_text(nodes[0]) == "" and stable_text(nodes[1]) == ""
    assert stable_text(nodes[2]) == "购物车 #"
    assert raw_ref(nodes[2]) == "Button[购物车 #]"
    assert raw_ref(nodes[2], level=2) == "Button[购物车 (3)]"


def test_collisions_fall_back_to_raw_text_then_to_an_ordinal() -> None:
    frame = v("FrameLayout", (0, 0, 1080, 2400),
              v("Button", (0, 0, 100, 100), text="第1步", clickable=True),
              v("Button", (0, 100, 100, 200), text="第2步", clickable=True),
              v("Button", (0, 200, 100, 300), text="确定", clickable=True),
              v("Button", (0, 300, 100, 400), text="确定", clickable=True),
              v("ImageView", (0, 400, 100, 500), clickable=True),
              v("ImageView", (0, 500, 100, 600), clickable=True))
    nodes = build_screen(dump(frame)).windows[0].children
    assert make_refs(nodes) == ["Button[第1步]", "Button[第2步]", "Button[确定]", "Button[确定]#2",
                                "ImageView@0", "ImageView@1"]


def test_an_element_with_a_unique_id_is_named_by_the_id_alone() -> None:
    def home(points: str) -> Screen:
        frame = v("FrameLayout", (0, 0, 1080, 2400),
                  v("TextView", (40, 100, 500, 200), text=points, rid="tv_points", clickable=True),
                  *(v("TextView", (i * 270, 2200, (i + 1) * 270, 2300), text=t, rid="tab", clickable=True)
                    for i, t in enumerate(("首页", "我的"))))
        return build_screen(dump(frame))

    before, after = home("积分 1"), home("积分 2")
    expected = ["tv_points", "tab[首页]", "tab[我的]"]
    assert [m.ref for m in before.marks] == [m.ref for m in after.marks] == expected


def test_match_refs_exact_after_scrolling() -> None:
    old, new = screen(), screen(offset=2 * 200)
    matched = match_refs(old, new)
    for ref, mark in matched.items():
        assert old.marks_by_ref[ref].label == mark.label
    assert matched["menu_list/item_root[板烧鸡腿堡 1号]"].ref == "menu_list/item_root[板烧鸡腿堡 1号]"
    # 巨无霸 1号 scrolled away, and 巨无霸 2号 came in: a different dish, not a match.
    assert "menu_list/item_root[巨无霸 1号]" not in matched
    assert "menu_list/item_root[巨无霸 2号]" in new.marks_by_ref
    # Nor is its add button the add button of another row.
    assert "menu_list/item_root[巨无霸 1号]/btn_add" not in matched
    assert len(set(id(m) for m in matched.values())) == len(matched)


def test_match_refs_fuzzy_on_changed_text() -> None:
    def with_buttons(*labels: str) -> Screen:
        buttons = [v("Button", (40, 300 + i * 150, 1040, 420 + i * 150), text=t, rid="action", clickable=True)
                   for i, t in enumerate(labels)]
        return build_screen(dump(status_bar(), v("FrameLayout", (0, 0, 1080, 2400), *buttons), nav_bar()))

    old = with_buttons("去结算", "继续购物")
    new = with_buttons("去结算(共3件)", "继续购物吧")
    matched = match_refs(old, new)
    assert {ref: m.label for ref, m in matched.items()} == {
        "action[去结算]": "去结算(共3件)", "action[继续购物]": "继续购物吧",
    }
    unrelated = with_buttons("删除账号")
    assert match_refs(old, unrelated) == {}, "a fuzzy match needs similar text"


def test_match_refs_respects_layers() -> None:
    page = build_screen(dump(menu_window(), alert_window()), package=PKG)
    plain = build_screen(dump(menu_window()), package=PKG)
    # The dialog's 确定 is not the same element as anything on the page without the dialog.
    assert all(m.layer == page.marks_by_ref[ref].layer for ref, m in match_refs(page, plain).items())
    assert match_refs(page, plain) == {}


def test_rows_share_a_family_whether_named_by_text_or_tagged_with_their_index() -> None:
    assert family("rv/item[商品 7]/tv_name") == family("rv/item[商品 8]/tv_name") == "rv/item[]/tv_name"
    assert family("m4_rv/m4_row_1[Marrakesh 1]") == family("m4_rv/m4_row_12[Kyoto 12]") == "m4_rv/m4_row_#[]"
    assert family("rv/card-3/tv_title") == family("rv/card-40/tv_title")
    # A row of another id is of its own family; digits inside an id's word are not an index.
    assert family("m2_rv/m2_row_special[编辑精选]") != family("m2_rv/m2_row_1[麻婆豆腐 1]")
    assert family("content/btn_step2") != family("content/btn_step3")


def test_in_a_list_an_id_ending_in_digits_is_a_rows_index() -> None:
    """Rows `m5_row0`, `m5_row1` of one list are one family; buttons `btn_step2`, `btn_step3` of a page
    are not."""
    rows = [v("TextView", (0, 300 + 150 * i, 1080, 450 + 150 * i), text=name, rid=f"m5_row{i}", clickable=True)
            for i, name in enumerate(("故宫", "丽江古城", "鼓浪屿"))]
    steps = [v("Button", (0, 1000 + 150 * i, 1080, 1150 + 150 * i), text=f"第{i}步", rid=f"btn_step{i}", clickable=True)
             for i in (2, 3)]
    page = v("FrameLayout", (0, 0, 1080, 2400), v("RecyclerView", (0, 300, 1080, 900), *rows, rid="m5_rv",
             scrollable=True), *steps)
    shown = build_screen(dump(page), package=PKG)
    families = {m.label: row_family(m.ref, m.node) for m in shown.marks if m.label}
    assert families["故宫"] == families["丽江古城"] == families["鼓浪屿"]
    assert families["第2步"] != families["第3步"]
