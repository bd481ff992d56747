"""What only looks like evidence: a label that shares a function word, or one of its many words, with the
goal; a screen titled with what the page it came from shows. Each failed a working feature of apps
written from the docs alone."""

from __future__ import annotations

from core_coverage import act, button, look, page, start
from core_dumps import v

from pytest_fairy.explore.decisions import OutcomeKind
from pytest_fairy.perception.relevance import overlap, tokens

SEND = ["visible: Jamie Lee was added to your payees", "tick Save this payee, tap Continue and confirm"]
SEARCH = ["visible: 后天 · 公务舱", "搜索直飞公务舱机票：上海 到 北京，后天出发"]


def test_a_function_word_is_no_likeness() -> None:
    assert overlap("Earn 3% cashback this month", tokens(" ".join(SEND))) == 0
    assert overlap("Save this payee", tokens(" ".join(SEND))) == 2  # save, payee


def test_a_dead_banner_sharing_a_function_word_with_the_goal_is_no_evidence() -> None:
    cov, home = start(page("Home", button("Send"), button("Earn 3% cashback this month")))
    act(cov, 1, home, "Earn 3% cashback this month", OutcomeKind.NO_CHANGE, home)
    assert cov.evidence(SEND) is None


def city(name: str) -> object:
    """A city picker: a clickable text showing the city chosen."""
    return v("TextView", name, id=f"tv_city_{abs(hash(name)) % 1000}", clickable=True)


def test_a_screen_titled_with_two_of_the_pages_values_is_no_wrong_screen() -> None:
    cov, search = start(page("行旅", city("上海"), city("北京"), button("搜索机票")))
    flights = look(page("上海 → 北京", button("CA1501 07:30")), activity="a.Flights")
    act(cov, 1, search, "搜索机票", OutcomeKind.NEW_STATE, flights)
    assert cov.evidence(SEARCH) is None


def test_a_fields_text_names_no_screen() -> None:
    cov, _ = start(page("行旅", v("EditText", "出发城市", id="et_from"), button("搜索机票")))
    typed = look(page("行旅", v("EditText", "上海", id="et_from"), button("搜索机票")))
    flights = look(page("上海出发", button("CA1501 07:30")), activity="a.Flights")
    act(cov, 1, typed, "搜索机票", OutcomeKind.NEW_STATE, flights)
    assert cov.evidence(SEARCH) is None


def test_a_screen_one_button_of_the_page_names_is_still_a_wrong_one() -> None:
    cov, search = start(page("行旅", city("上海"), button("我的行程"), button("搜索机票")))
    trips = look(page("我的行程", v("TextView", "暂无行程", id="empty")), activity="a.Trips")
    act(cov, 1, search, "搜索机票", OutcomeKind.NEW_STATE, trips)
    found = cov.evidence(SEARCH)
    assert str(found) == "step 1 (tap 搜索机票 on 行旅) opened 我的行程 instead, which '我的行程' names"


def test_a_dead_banner_sharing_one_of_its_many_words_with_the_goal_is_no_evidence() -> None:
    cov, home = start(page("行旅", button("国庆特惠 机票低至3折"), button("公务舱机票")))
    act(cov, 1, home, "国庆特惠 机票低至3折", OutcomeKind.NO_CHANGE, home)
    assert cov.evidence(SEARCH) is None
    act(cov, 2, home, "公务舱机票", OutcomeKind.NO_CHANGE, home)  # the feature's own words: it is
    assert str(cov.evidence(SEARCH)) == "step 2 (tap 公务舱机票 on 行旅) changed nothing"


def test_a_tab_whose_label_is_only_part_of_a_title_does_not_name_that_screen() -> None:
    cov, scenes = start(page("场景", button("首页"), button("场景"), button("我的")))
    home = look(page("我的家", button("客厅灯")), activity="a.Home")
    act(cov, 1, scenes, "首页", OutcomeKind.NEW_STATE, home)
    assert cov.evidence(["visible: 客厅灯 · 已开启", "在首页打开客厅灯"]) is None
