"""An open exploration (a feature with no done-when): every screen's every action is worth a step.

The rules one by one on the `OpenExploration` memory, then on a small app explored both ways: as an open
exploration, and as a feature whose done-when is never met (the search for a target keeps its own rules).
"""

from __future__ import annotations

from pathlib import Path

from pytest_fairy.brain.open_exploration import DEAD_AFTER, OpenExploration
from pytest_fairy.brain.samples import FAMILY_SAMPLE
from pytest_fairy.explore.record import StepRecord
from tests.explorer.inline_apps import Recorded, explore_inline
from tests.perception.builder import V, v
from tests.screens import button, screen_of


def clips(first: int, last: int) -> list[V]:
    """Rows of one list, `片段 {first}` up to `片段 {last - 1}`."""
    list_view = v("RecyclerView", (0, 200, 1080, 2000), rid="com.x:id/rv_clips", scrollable=True)
    for row, i in enumerate(range(first, last)):
        top = 200 + row * 150
        list_view.children.append(
            v("TextView", (0, top, 1080, top + 140), text=f"片段 {i}", rid="com.x:id/tv_clip", clickable=True)
        )
    return [list_view]


# -- the memory -----------------------------------------------------------------------------------------


def test_an_element_that_changed_nothing_is_not_tried_elsewhere() -> None:
    memory = OpenExploration()
    memory.acted("content/btn_like", "content/btn_like", changed=False)
    assert memory.dead("content/btn_like", "content/btn_like")
    assert not memory.dead("content/btn_share", "content/btn_share")


def test_an_element_that_did_something_once_stays_worth_a_try() -> None:
    memory = OpenExploration()
    memory.acted("content/btn_save", "content/btn_save", changed=False)
    memory.acted("content/btn_save", "content/btn_save", changed=True)
    assert not memory.dead("content/btn_save", "content/btn_save")


def test_rows_whose_siblings_changed_nothing_are_dead_too() -> None:
    memory = OpenExploration()
    for i in range(1, DEAD_AFTER + 1):
        memory.acted(f"rv_videos/item[视频 {i}]", "rv_videos/item", changed=False)
    assert memory.dead("rv_videos/item[视频 9]", "rv_videos/item")
    # A sibling that did something keeps the family alive.
    memory.acted("rv_videos/item[视频 5]", "rv_videos/item", changed=True)
    assert not memory.dead("rv_videos/item[视频 9]", "rv_videos/item")


def test_a_list_is_scrolled_again_only_while_its_scrolls_show_a_new_kind_of_element() -> None:
    memory = OpenExploration()
    memory.saw("home", screen_of(*clips(1, 6)))
    assert memory.scroll_worth("home", "rv_clips", scrolled=0)
    more_rows = clips(6, 11)
    memory.saw("home", screen_of(*more_rows), scrolled="rv_clips")
    assert not memory.scroll_worth("home", "rv_clips", scrolled=1)
    memory.saw("home", screen_of(*more_rows, button("用户协议", 12)), scrolled="rv_clips")
    assert memory.scroll_worth("home", "rv_clips", scrolled=2)


def test_back_is_an_action_of_each_screen_taken_once() -> None:
    memory = OpenExploration()
    assert memory.back_untried("detail")
    memory.backed("detail")
    assert not memory.back_untried("detail") and memory.back_untried("home")


# -- on an app --------------------------------------------------------------------------------------------

# Two articles with the same share button, the second with a like button too; a list of clips that show nothing when tapped; a search field
# with nothing to submit it.
APP = """
app: {package: com.example.cover, name: 覆盖, launch: home}
variables: {played: 0}
screens:
  - id: home
    activity: .HomeActivity
    title: 首页
    elements:
      - {class: EditText, id: et_search, hint: 搜索}
      - {id: tv_a, text: 文章一, on_tap: [{go: a}]}
      - {id: tv_b, text: 文章二, on_tap: [{go: b}]}
      - class: RecyclerView
        id: rv_clips
        height: 900
        list:
          rows: 40
          row: {id: tv_clip, text: "片段 {i}"}
          on_tap: [{set: {played: "{i}"}}]
  - id: a
    activity: .ArticleActivity
    title: 文章一
    elements:
      - {text: 第一篇的正文}
      - {class: Button, id: btn_share, text: 分享, on_tap: [{dialog: share}]}
  - id: b
    activity: .OtherArticleActivity
    title: 文章二
    elements:
      - {text: 第二篇的正文}
      - {class: Button, id: btn_share, text: 分享, on_tap: [{dialog: share}]}
      - {class: Button, id: btn_like, text: 点赞, on_tap: [{toast: 已点赞}]}
dialogs:
  - id: share
    title: 分享到
    elements: [{class: Button, text: 关闭, on_tap: [close]}]
"""
OPEN_SPEC = """
app: {name: 覆盖, package: com.example.cover, virtual: app.yaml}
features:
  - name: explore the app
    goal: explore every screen
    max_steps: 40
"""
# The same, as a feature looking for a text that never shows.
SEARCH_SPEC = OPEN_SPEC.replace("    max_steps: 40", "    max_steps: 40\n    done_when: [{visible: 不存在的文字}]")


def explored(tmp_path: Path, spec: str) -> list[StepRecord]:
    tmp_path.mkdir(exist_ok=True)
    sink = Recorded()
    explore_inline(tmp_path, APP, spec, sinks=[sink])
    return sink.steps


def actions_on(steps: list[StepRecord], title: str) -> list[str]:
    return [s.action or "" for s in steps if s.title == title]


def test_an_open_exploration_tries_the_same_element_on_each_screen(tmp_path: Path) -> None:
    steps = explored(tmp_path, OPEN_SPEC)
    assert any("分享" in a for a in actions_on(steps, "文章一")), [s.action for s in steps]
    assert any("分享" in a for a in actions_on(steps, "文章二")), [s.action for s in steps]


def test_a_features_search_tries_an_element_once_across_screens(tmp_path: Path) -> None:
    steps = explored(tmp_path, SEARCH_SPEC)
    shares = [s for s in steps if s.action and "分享" in s.action]
    assert len(shares) == 1, [s.action for s in steps]


def test_an_open_exploration_goes_back_from_a_screen_once_its_elements_are_tried(tmp_path: Path) -> None:
    # Back from the start screen leaves the app: a way the app has, taken once, after each of the
    # screen's elements; the search for a feature's target never takes it.
    home = actions_on(explored(tmp_path / "open", OPEN_SPEC), "首页")
    assert home.count("back") == 1, home
    back = home.index("back")
    for element in ("文章一", "文章二", "片段 1", "搜索"):
        assert any(element in action for action in home[:back]), home
    assert "back" not in actions_on(explored(tmp_path / "search", SEARCH_SPEC), "首页")


def test_an_open_exploration_skips_the_siblings_of_rows_that_did_nothing(tmp_path: Path) -> None:
    steps = explored(tmp_path, OPEN_SPEC)
    clips = [a for a in actions_on(steps, "首页") if "片段" in a]
    assert len(clips) == DEAD_AFTER, clips


def test_an_open_exploration_scrolls_a_list_of_one_kind_once(tmp_path: Path) -> None:
    steps = explored(tmp_path, OPEN_SPEC)
    scrolls = [a for a in actions_on(steps, "首页") if a.startswith("scroll")]
    assert len(scrolls) == 1, actions_on(steps, "首页")




def test_an_open_exploration_tries_what_no_screen_had_before_what_another_screen_had(tmp_path: Path) -> None:
    on_b = actions_on(explored(tmp_path, OPEN_SPEC), "文章二")
    assert [a.split("] ")[-1] for a in on_b[:2]] == ["点赞", "分享"], on_b


# A list whose rows all open one layout, above a link to another screen.
ROWS_APP = """
app: {package: com.example.rows, name: 列表, launch: home}
variables: {current: 0}
screens:
  - id: home
    activity: .HomeActivity
    title: 首页
    elements:
      - class: RecyclerView
        id: rv_news
        height: 900
        list:
          rows: 8
          row: {id: tv_news, text: "新闻 {i}"}
          on_tap: [{set: {current: "{i}"}}, {go: news}]
      - {id: tv_settings, text: 设置, on_tap: [{go: settings}]}
  - id: news
    activity: .NewsActivity
    title: 新闻
    elements:
      - {text: "第 {var:current} 条新闻"}
  - id: settings
    activity: .SettingsActivity
    title: 设置
    elements:
      - {text: 版本 1.0}
"""
ROWS_SPEC = OPEN_SPEC.replace("覆盖, package: com.example.cover", "列表, package: com.example.rows")


def test_an_open_exploration_takes_more_rows_of_a_sampled_list_after_the_other_screens(tmp_path: Path) -> None:
    sink = Recorded()
    explore_inline(tmp_path, ROWS_APP, ROWS_SPEC, sinks=[sink])
    home = [a.split("] ")[-1] for a in actions_on(sink.steps, "首页") if a.startswith("tap")]
    settings = home.index("设置")
    assert home[:settings] == [f"新闻 {i}" for i in range(1, FAMILY_SAMPLE + 1)], home
    assert len(home) > settings + 1 and home[settings + 1].startswith("新闻"), home  # and more rows after


def test_the_start_screens_back_is_taken_before_more_rows_of_a_sampled_list(tmp_path: Path) -> None:
    # Leaving the app is one of the start screen's own ways: more rows that open one page (hundreds, on a
    # long list) do not keep it waiting.
    sink = Recorded()
    explore_inline(tmp_path, ROWS_APP, ROWS_SPEC, sinks=[sink])
    home = actions_on(sink.steps, "首页")
    more = next(i for i, a in enumerate(home) if a.endswith(f"新闻 {FAMILY_SAMPLE + 1}"))
    assert "back" in home[:more], home


# A shop: a list of goods that all open one product page, whose only way on is the cart; the cart's and
# the home screen's tab bar leads to the categories, whose options are tried last of the tab bar's screens.
WALK_APP = """
app: {package: com.example.walk, name: 小铺, launch: home}
variables: {cat: a}
screens:
  - id: home
    activity: .HomeActivity
    title: 小铺
    up: false
    elements:
      - class: RecyclerView
        id: rv_goods
        height: 1200
        list:
          rows: 8
          row: {id: tv_goods, text: "好物 {i}"}
          on_tap: [{go: product}]
      - &nav
        class: LinearLayout
        id: bottom_nav
        orientation: horizontal
        dock: bottom
        children:
          - {class: TextView, id: tab_home, text: 首页, clickable: true, on_tap: [{replace: home}]}
          - {class: TextView, id: tab_category, text: 分类, clickable: true, on_tap: [{replace: category}]}
          - {class: TextView, id: tab_cart, text: 购物车, clickable: true, on_tap: [{replace: cart}]}
  - id: product
    activity: .ProductActivity
    title: 商品详情
    elements:
      - {class: Button, id: btn_cart, text: 去购物车, on_tap: [{go: cart}]}
  - id: cart
    activity: .CartActivity
    title: 购物车
    up: false
    elements:
      - {text: 购物车是空的}
      - *nav
  - id: category
    activity: .CategoryActivity
    title: 分类
    up: false
    elements:
      - class: RadioGroup
        children:
          - {class: RadioButton, id: cat_a, text: 蔬菜, group: cat, value: a}
          - {class: RadioButton, id: cat_b, text: 水果, group: cat, value: b}
      - *nav
"""
WALK_SPEC = OPEN_SPEC.replace("覆盖, package: com.example.cover", "小铺, package: com.example.walk")


def test_a_walk_heads_for_elements_never_tried_before_more_rows_of_a_sampled_list(tmp_path: Path) -> None:
    # From a product page with nothing left, the home screen (one hop) has only more rows of the sampled
    # list; the categories (two hops, through the cart) have options never tried: they come first.
    sink = Recorded()
    explore_inline(tmp_path, WALK_APP, WALK_SPEC, sinks=[sink])
    taps = [s.action.split("] ")[-1] for s in sink.steps if s.action and s.action.startswith("tap")]
    assert "好物 4" in taps and "水果" in taps, taps
    assert taps.index("水果") < taps.index("好物 4"), taps
