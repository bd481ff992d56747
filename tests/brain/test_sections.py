"""A feature search on a page where nothing is the feature's: the app's sections (a bottom navigation's
tabs not yet opened) before the page's own unrelated elements and lists (brain/candidates.py)."""

from __future__ import annotations

from dataclasses import replace

from pytest_fairy.brain.candidates import Focus, best, find_candidates
from pytest_fairy.explore.target import Target
from tests.claude import synthetic
from tests.perception.builder import v
from tests.screens import button, screen_of

TABS = ("首页", "找房", "消息", "我的")


def home(*, tabs_top: int = 2240, last: str = "新房 · 限时优惠", title: str = "首页", menu: bool = False) -> object:
    """A home page titled `title` (with the toolbar's drawer button, `menu`): a city picker, two
    promotions (the second `last`), then a row of four tabs at `tabs_top`."""
    width = 1080 // len(TABS)
    tabs = [
        v("TextView", (n * width, tabs_top, (n + 1) * width, tabs_top + 160), text=label, clickable=True)
        for n, label in enumerate(TABS)
    ]
    drawer = [v("ImageButton", (0, 60, 150, 180), desc="菜单", clickable=True)] if menu else []
    return (
        *drawer,
        v("TextView", (160, 60, 1080, 180), text=title, rid="toolbar_title"),
        button("上海", 0),
        button("整租 · 精选好房", 1),
        button(last, 2),
        v("LinearLayout", (0, tabs_top, 1080, tabs_top + 160), *tabs),
    )


def first(goal: str, tried: dict[str, int] | None = None, **page: object) -> str:
    screen = screen_of(*home(**page))  # type: ignore[arg-type]
    target = Target(app_name="安居租房", package="com.anju", feature="f", goal=goal, done_hints=("每天 8:30-21:30",))
    ctx = replace(synthetic.context(1, screen=screen), target=target, unmet_oracles=("visible: 每天 8:30-21:30",))
    known = {m.ref: n for m in screen.marks for label, n in (tried or {}).items() if m.label == label}
    chosen = best(find_candidates(ctx, Focus.of(target), known, {}))
    mark = screen.mark(chosen.action.mark) if chosen.action.mark is not None else None
    return mark.label if mark is not None else str(chosen.action)


def test_where_nothing_is_the_features_a_section_not_yet_opened_comes_first() -> None:
    goal = "能在 app 里查到客服热线每天的服务时间"
    assert first(goal) == "找房"  # 首页, the page shown, is its own tab
    assert first(goal, {"找房": 1, "消息": 1}) == "我的"


def test_an_element_that_matches_the_feature_comes_before_the_sections() -> None:
    assert first("在 整租 里找一套精选好房") == "整租 · 精选好房"
    # One that only resembles its words too: `Flashcards` for "the flashcard word el pan".
    assert first("The English meaning of the flashcard word el pan is shown", last="Flashcards") == "Flashcards"


def test_a_row_of_tabs_high_on_the_page_is_no_section_of_the_app() -> None:
    assert first("能在 app 里查到客服热线每天的服务时间", tabs_top=800) == "上海"


def test_the_drawer_the_toolbar_opens_is_a_section_too() -> None:
    assert first("找到骑行月卡的到期日期", menu=True) == "菜单"  # first in reading order
    assert first("找到骑行月卡的到期日期", {"菜单": 1}, menu=True) == "找房"


def test_on_a_page_the_feature_names_its_own_elements_and_lists_come_first() -> None:
    # "在交易记录里找到…": standing on 交易记录, the row is further down its list, not in another section.
    assert first("在交易记录里找到今年 1 月到账的 年终奖金", title="交易记录") == "上海"
