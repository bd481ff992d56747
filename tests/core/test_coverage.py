"""Coverage: what a "never saw" failure stands on. Each rule that counts an element as tried, and each
that keeps a list open, has a test here that fails when the rule is deleted."""

from __future__ import annotations

from core_coverage import PKG, RV, act, button, look, page, start
from core_dumps import V, v, window

from pytest_fairy.explore.coverage import Coverage
from pytest_fairy.explore.decisions import Outcome, OutcomeKind
from pytest_fairy.explore.state import StateId
from pytest_fairy.perception.screen import Screen


def test_an_untried_element_is_left_and_a_tried_one_is_not() -> None:
    cov, home = start(page("设置", button("通知"), button("关于")))
    assert cov.left() == ["on 设置: '通知', '关于' not tried"]
    act(cov, 1, home, "通知", OutcomeKind.NO_CHANGE, home)
    act(cov, 2, home, "关于", OutcomeKind.NO_CHANGE, home)
    assert cov.left() == []


def test_the_same_element_tried_on_another_screen_counts_there_too() -> None:
    cov, home = start(page("首页", button("我的")))
    mine = look(page("我的", button("我的"), button("设置")), activity="a.Mine")
    act(cov, 1, home, "我的", OutcomeKind.NEW_STATE, mine)
    act(cov, 2, mine, "设置", OutcomeKind.NO_CHANGE, mine)
    assert cov.left() == []  # the bottom bar's 我的 was tried on 首页


def test_what_the_policy_denies_counts_as_tried() -> None:
    cov, _ = start(page("订单", button("立即支付")))
    assert cov.left() == []


def rows(first: int, count: int) -> V:
    items = [
        v("LinearLayout", "", v("TextView", f"商品 {i}", id="tv_name"), id="item", clickable=True)
        for i in range(first, first + count)
    ]
    return v(RV, "", *items, id="rv_goods", scrollable=True)


def test_a_list_is_left_until_a_scroll_moves_nothing() -> None:
    cov, top = start(page("全部商品", rows(1, 4)))
    assert "list rv_goods on 全部商品 not scrolled past 商品 4" in cov.left()
    further = look(page("全部商品", rows(5, 4)))
    act(cov, 1, top, "rv_goods", OutcomeKind.CONTENT_CHANGED, further, action="scroll")
    assert "list rv_goods on 全部商品 not scrolled past 商品 8" in cov.left()
    act(cov, 2, further, "rv_goods", OutcomeKind.NO_CHANGE, further, action="scroll")
    assert not [line for line in cov.left() if line.startswith("list")]


def detail(name: str, *extra: V) -> tuple[StateId, Screen]:
    return look(
        page("商品详情", v("TextView", name, id="tv_title"), button("收藏"), *extra), activity="a.Detail"
    )


def test_rows_of_one_layout_are_covered_once_two_led_to_pages_of_one_layout() -> None:
    cov, listing = start(page("全部商品", rows(1, 4)))
    act(cov, 1, listing, "商品 1", OutcomeKind.NEW_STATE, detail("商品 1"))
    assert any("'商品 2', '商品 3', '商品 4'" in line for line in cov.left())
    act(cov, 2, listing, "商品 2", OutcomeKind.NEW_STATE, detail("商品 2"))
    assert not [line for line in cov.left() if "商品 3" in line]


def test_a_row_with_words_of_its_own_that_the_feature_asks_for_is_no_sample() -> None:
    special = v("LinearLayout", "", v("TextView", "商品 5 · 限时特价", id="tv_name"), id="item", clickable=True)
    listing_rows = rows(1, 4)
    listing_rows.children.append(special)
    cov = Coverage(words="find the 限时特价 product and open it")
    listing = look(page("全部商品", listing_rows))
    cov.saw(*listing, in_app=True)
    act(cov, 1, listing, "商品 1", OutcomeKind.NEW_STATE, detail("商品 1"))
    act(cov, 2, listing, "商品 2", OutcomeKind.NEW_STATE, detail("商品 2"))
    # 商品 3 and 4 are sampled: they share every word of theirs with 商品 1 and 2.
    assert "on 全部商品: '商品 5 · 限时特价' not tried" in cov.left()


def test_rows_that_led_to_pages_of_other_layouts_are_no_sample_of_each_other() -> None:
    cov, listing = start(page("设置", rows(1, 3)))
    act(cov, 1, listing, "商品 1", OutcomeKind.NEW_STATE, detail("商品 1"))
    other = look(
        page("通知", *[v("Switch", f"开关 {i}", id=f"sw_{i}", checkable=True) for i in range(6)]),
        activity="a.Notify",
    )
    act(cov, 2, listing, "商品 2", OutcomeKind.NEW_STATE, other)
    assert any("'商品 3'" in line for line in cov.left())


def test_a_way_out_counts_once_the_screen_was_left() -> None:
    cov, home = start(page("首页", button("设置")))
    settings = look(page("设置", button("Navigate up"), button("通知")), activity="a.Settings")
    act(cov, 1, home, "设置", OutcomeKind.NEW_STATE, settings)
    act(cov, 2, settings, "通知", OutcomeKind.NO_CHANGE, settings)
    assert cov.left() == ["on 设置: 'Navigate up' not tried"]
    cov.acted(3, settings[0], "back|||", "back", Outcome("back", OutcomeKind.STATE_CHANGED), home[0])
    assert cov.left() == []


def choice_dialog(checked: str) -> V:
    radios = [
        v("RadioButton", name, id=f"rb_{i}", checkable=True, clickable=True, checked=name == checked)
        for i, name in enumerate(("尽快送达", "预约送餐"))
    ]
    return window(
        PKG,
        v("TextView", "送达时间", id="dialog_title"),
        *radios,
        button("确定"),
        bounds=(100, 800, 980, 1600),
    )


def test_a_dialogs_choices_count_once_it_was_seen_and_left() -> None:
    cov, home = start(page("首页", button("送达时间 >")))
    dialog = look(page("首页", button("送达时间 >")), choice_dialog("尽快送达"))
    act(cov, 1, home, "送达时间 >", OutcomeKind.NEW_STATE, dialog)
    assert any("'预约送餐'" in line for line in cov.left())
    act(cov, 2, dialog, "确定", OutcomeKind.STATE_CHANGED, home)
    assert cov.left() == []


def test_the_checked_radio_of_a_group_counts_as_tried() -> None:
    tabs = [
        v("RadioButton", name, id=f"tab_{i}", checkable=True, clickable=True, checked=i == 0)
        for i, name in enumerate(("可使用", "已使用"))
    ]
    cov, coupons = start(page("优惠券", v("RadioGroup", "", *tabs, id="rg")))
    assert cov.left() == ["on 优惠券: '已使用' not tried"]


def test_screens_of_other_apps_are_not_the_features_to_exhaust() -> None:
    cov, _ = start(page("首页"))
    cov.saw(*look(window("com.android.chrome", button("同意"))), in_app=False)
    assert cov.left() == []




def test_an_element_of_the_feature_the_policy_denied_is_named_as_what_the_run_could_not_know() -> None:
    cov, today = start(page("Today", button("Buy milk"), button("Add task")))
    assert cov.unknown(["visible: (edited)", "rename the task Buy milk"]) == [
        "'Buy milk' on Today denied by the risk policy, never tried"
    ]
    assert cov.unknown(["visible: 3 tasks", "add a task"]) == []  # not the feature's


def test_what_a_step_led_to_is_the_title_its_screen_showed_not_its_folded_familys_first() -> None:
    """Pages of one layout fold into one state (`families`): 商品 24's page is 商品 23's state, not its title."""
    cov, home = start(page("好物清单", button("商品 23"), button("商品 24")))
    first = look(page("商品 23", button("收藏")), activity="a.Goods")
    second = look(page("商品 24", button("收藏")), activity="a.Goods")
    act(cov, 1, home, "商品 23", OutcomeKind.NEW_STATE, first)
    act(cov, 2, home, "商品 24", OutcomeKind.STATE_CHANGED, (first[0], second[1]))  # folded into 商品 23's
    assert [cov.at(1).led_to, cov.at(2).led_to] == ["商品 23", "商品 24"]
