"""The goal read in order (brain/goal_order.py): what it names after its last step done, and where that is;
and the offline brain heading there once nothing on its page is what the feature's words point to."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from fairy_virtual import VirtualDevice
from pytest_fairy import load_spec
from pytest_fairy.brain.goal_order import GoalOrder
from pytest_fairy.brain.offline import OfflineBrain
from pytest_fairy.explore.briefing import mission_of, target_of
from pytest_fairy.explore.explorer import Explorer
from tests.explorer.inline_apps import Recorded, explore_inline

DOWNLOAD = "open Science Weekly, open an episode's More options, tap Download, then find it in Downloads (from the menu)"
FAVOURITE = "在老街牛肉面的商家详情页点收藏，然后到“我的”页的我的收藏里能看到这家店"


def test_before_a_step_of_the_goal_is_done_all_it_names_is_ahead_the_first_named_first() -> None:
    order = GoalOrder(DOWNLOAD)
    assert order.ahead("Downloads") and order.ahead("Science Weekly")
    assert order.where("Science Weekly") < order.where("Download") < order.where("Downloads")
    assert order.where("Settings") > order.where("Downloads")  # not named: after everything
    order.stood_on("show", "Science Weekly", {"Downloads"})
    assert order.places("library") == {}  # no place to walk to before a step is done


def test_the_goal_names_an_element_whatever_its_punctuation() -> None:
    order = GoalOrder("In Profile, change the daily goal to Serious (30 XP a day) and save it")
    assert order.where("Serious · 30 XP a day") < order.where("Save")
    assert not order.ahead("Casual · 10 XP a day")


def test_after_a_step_what_the_goal_names_later_is_ahead_and_what_it_named_before_is_not() -> None:
    order = GoalOrder(DOWNLOAD)
    order.done("Download")
    assert order.ahead("Downloads") and order.ahead("Menu")  # a sentence's `menu` names the Menu button
    assert not order.ahead("More options") and not order.ahead("Science Weekly")
    assert not order.ahead("Down")  # words whole


def test_chinese_labels_are_found_inside_the_sentence() -> None:
    order = GoalOrder(FAVOURITE)
    order.done("收藏")
    assert order.ahead("我的") and order.ahead("我的收藏")
    assert not order.ahead("老街牛肉面")


def test_a_menu_opened_on_the_way_to_what_the_goal_names_before_it_is_no_step_of_the_goal() -> None:
    goal = "Delete the entry, then open Recently deleted from the menu and Restore it: back in the Journal"
    order = GoalOrder(goal)
    order.done("Delete")
    order.done("Menu", shown=["Journal", "Tags", "Recently deleted", "Settings"])
    assert order.where("Recently deleted") < order.where("Journal")  # the item before the list's title
    order.done("Recently deleted")
    assert not order.ahead("Menu") and order.ahead("Restore")

    order = GoalOrder(goal)
    order.done("Delete")
    order.done("Menu")  # it opened no menu: the sentence's order stands
    assert not order.ahead("Recently deleted") and order.ahead("Journal")

    order = GoalOrder(DOWNLOAD)  # More options opens a sheet of what the goal names after it
    order.done("More options", shown=["Download", "Share episode"])
    assert not order.ahead("Science Weekly") and order.ahead("Download")


def test_a_label_the_goal_does_not_name_moves_nothing() -> None:
    order = GoalOrder(DOWNLOAD)
    order.done("Download")
    order.done("Share episode")
    order.done("+")
    assert order.ahead("Downloads")


def test_places_are_pages_with_an_element_ahead_and_pages_named_ahead_not_seen_since() -> None:
    order = GoalOrder("follow one of the results and see it in the Library")
    order.stood_on("library", "Library", {"Search podcasts"})
    order.stood_on("results", "Search", {"Follow", "Navigate up"})
    order.done("Follow")
    assert order.places("results") == {"library": 1}  # named by its title, not seen since the follow
    order.stood_on("library", "Library", {"Search podcasts"})
    assert order.places("results") == {}

    order = GoalOrder(DOWNLOAD)
    order.stood_on("library", "Library", {"Menu", "Search podcasts"})
    order.stood_on("show", "Science Weekly", {"More options"})
    order.done("Download")
    assert order.places("show") == {"library": 1}
    assert order.places("library") == {}  # here is no place to walk to
    order.stood_on("library", "Library", {"Search podcasts"})  # the Menu was tried
    assert order.places("show") == {}


def test_back_towards_a_place_is_taken_once_per_page_and_step_of_the_goal() -> None:
    order = GoalOrder(FAVOURITE)
    assert order.may_back("shop") and not order.may_back("shop")
    order.done("收藏")
    assert order.may_back("shop")


WORDS = ("Open", "Library", "Search", "Follow", "Downloads", "Menu", "Settings", "Save")


@given(st.permutations(WORDS), st.lists(st.sampled_from(WORDS), max_size=12))
def test_what_is_behind_stays_behind(goal_words: list[str], done: list[str]) -> None:
    order = GoalOrder(" then ".join(goal_words).lower())
    behind: set[str] = set()
    for label in done:
        order.done(label)
        now_behind = {word for word in WORDS if not order.ahead(word)}
        assert behind <= now_behind
        behind = now_behind


APP = """
app: {name: Podwave, package: com.example.podwave, launch: library}
variables: {followed: ''}
screens:
  - id: library
    activity: .MainActivity
    title: Library
    up: false
    actions:
      - {class: ImageButton, id: action_search, desc: Search podcasts, on_tap: [{go: discover}]}
    elements:
      - {id: tv_show, text: The Daily Byte}
      - {id: tv_followed, text: "{var:followed}", when: "followed != ''"}
  - id: discover
    activity: .DiscoverActivity
    title: Discover
    elements:
      - {class: EditText, id: et_query, hint: Search podcasts}
      - {class: Button, id: btn_search, text: Search, on_tap: [{go: results}]}
      - {id: row_top1, text: Design Matters, on_tap: [{go: show}]}
      - {id: row_top2, text: The Long Run, on_tap: [{go: show}]}
      - {id: row_top3, text: Planet Notes, on_tap: [{go: show}]}
  - id: results
    activity: .SearchActivity
    title: Search
    elements:
      - class: LinearLayout
        orientation: horizontal
        children:
          - {id: tv_result1, text: Gardening Weekly, weight: 3}
          - {class: Button, id: btn_follow1, text: Follow, on_tap: [{set: {followed: Gardening Weekly}}, {toast: Followed}]}
      - class: LinearLayout
        orientation: horizontal
        children:
          - {id: tv_result2, text: The Gardening Hour, weight: 3}
          - {class: Button, id: btn_follow2, text: Follow, on_tap: [{set: {followed: The Gardening Hour}}, {toast: Followed}]}
  - id: show
    activity: .ShowActivity
    title: Show
    elements:
      - {class: Button, id: btn_play, text: Play latest, on_tap: [{toast: Playing}]}
      - {class: Button, id: btn_share, text: Share, on_tap: [{toast: Link copied}]}
      - {class: Button, id: btn_rate, text: Rate, on_tap: [{toast: Thanks}]}
"""

SPEC = """
app: {name: Podwave, package: com.example.podwave, virtual: app.yaml}
features:
  - name: follow a podcast found by search
    goal: search Discover for gardening podcasts, follow one of the results and see it in the Library
    inputs:
      Search podcasts: gardening
    max_steps: 12
    done_when:
      - visible: Gardening
      - activity: .MainActivity
"""


def test_after_the_goals_step_the_page_it_names_next_comes_before_the_pages_other_elements(
    tmp_path: Path,
) -> None:
    steps = passed_steps(tmp_path, APP, SPEC)
    follow = next(n for n, (_, action) in enumerate(steps) if "Follow" in action)
    assert not any("Design Matters" in action for _, action in steps[follow:]), steps


def test_a_tab_that_opens_the_page_it_names_is_a_way_and_no_step_of_the_goal() -> None:
    order = GoalOrder("在「分类」页的「粮油调味」里找到「五常大米」，加入购物车，然后打开购物车确认它在里面")
    order.done("购物车", opened="购物车")
    assert order.where("分类") < order.where("粮油调味")  # no step done: the goal's first step is still first
    order.done("粮油调味")
    assert order.ahead("加入购物车") and order.ahead("购物车") and not order.ahead("分类")


UNTUNED = Path(__file__).resolve().parents[1] / "untuned"


def test_what_the_feature_waits_for_is_looked_for_in_the_lists_before_what_the_goal_names_later() -> None:
    # 粮油调味 chosen, the rice far below the fold, and the 购物车 tab (which the goal names after it) on
    # screen: the list is looked through first, as what the goal names next is there.
    spec = load_spec(UNTUNED / "catalog_below_fold" / "test_catalog_below_fold.yaml")
    feature = next(f for f in spec.features if f.name == "add rice to cart")
    device = VirtualDevice(UNTUNED / "catalog_below_fold" / "app.yaml", latency=False)
    sink = Recorded()
    result = Explorer(device, OfflineBrain(), sinks=[sink]).explore(
        target_of(spec, feature), mission_of(spec, feature)
    )
    steps = [(s.title, s.action or "") for s in sink.steps]
    assert result.verdict.value == "passed", (result.reason, steps)
    grain = next(n for n, (_, action) in enumerate(steps) if "粮油调味" in action)
    assert "scroll" in steps[grain + 1][1], steps


PARKING = """
app: {name: 易停车, package: com.example.park, launch: home}
variables: {paid: false, lot: ''}
screens:
  - id: home
    activity: .MainActivity
    title: 易停车
    up: false
    elements:
      - {id: tv_current, text: 当前停车：人民广场停车场, when: "not paid"}
      - {class: Button, id: btn_go_fee, text: 去缴费, when: "not paid", on_tap: [{go: fee}]}
      - {id: row_lot_1, text: 人民广场停车场 · 空位 36, on_tap: [{set: {lot: 人民广场停车场}}, {go: lot}]}
      - {id: row_lot_2, text: 新天地停车场 · 空位 8, on_tap: [{set: {lot: 新天地停车场}}, {go: lot}]}
      - {class: TextView, id: tab_mine, text: 我的, clickable: true, dock: bottom, on_tap: [{replace: mine}]}
  - id: lot
    activity: .LotActivity
    title: 停车场详情
    elements:
      - {id: tv_lot, text: "{var:lot}"}
      - {class: Button, id: btn_fav, text: 收藏, on_tap: [{toast: 已收藏}]}
      - {class: Button, id: btn_share, text: 分享, on_tap: [{toast: 已复制链接}]}
  - id: fee
    activity: .FeeActivity
    title: 停车缴费
    elements:
      - {id: tv_amount, text: 人民广场停车场 应缴 ¥20.00}
      - {class: Button, id: btn_pay, text: 确认缴费, on_tap: [{set: {paid: true}}, {go: fee_done}]}
  - id: fee_done
    activity: .DoneActivity
    title: 缴费成功
    up: false
    elements:
      - {class: Button, id: btn_home, text: 返回首页, on_tap: [{reset: home}]}
  - id: mine
    activity: .MineActivity
    title: 我的
    up: false
    elements:
      - {class: TextView, id: row_records, text: 缴费记录, clickable: true, on_tap: [{go: records}]}
  - id: records
    activity: .RecordsActivity
    title: 缴费记录
    elements:
      - {text: 暂无缴费记录, when: "not paid"}
      - {text: 今天 人民广场停车场 ¥20.00, when: paid}
"""

PARKING_SPEC = """
app: {name: 易停车, package: com.example.park, virtual: app.yaml}
features:
  - name: 停车缴费记录
    goal: 在首页为当前停车去缴费并确认，然后在 我的 > 缴费记录 里看到这笔缴费
    allow: [payment]
    max_steps: 30
    done_when:
      - visible: 今天 人民广场停车场 ¥20.00
"""


def test_once_the_goals_step_is_done_what_it_names_next_comes_before_what_only_shares_its_words(
    tmp_path: Path,
) -> None:
    # After the payment, 人民广场停车场's row carries the done-when's words, but the goal goes on to 我的.
    steps = passed_steps(tmp_path, PARKING, PARKING_SPEC)
    home = next(n for n, (_, action) in enumerate(steps) if "返回首页" in action)
    assert "我的" in steps[home + 1][1], steps


def passed_steps(folder: Path, app: str, spec: str) -> list[tuple[str, str]]:
    """The steps (page title, action) of the spec's feature explored on `app`, which passed."""
    sink = Recorded()
    result = explore_inline(folder, app, spec, sinks=[sink])
    steps = [(s.title, s.action or "") for s in sink.steps]
    assert result.verdict.value == "passed", (result.reason, steps)
    return steps


JOURNAL = """
app: {name: Daybook, package: com.example.daybook, launch: journal}
variables: {deleted: false}
screens:
  - id: journal
    activity: .MainActivity
    title: Journal
    up: false
    actions:
      - {class: ImageButton, id: action_menu, desc: Menu, on_tap: [{dialog: drawer}]}
    elements:
      - {id: row_coffee, text: Coffee with Maya, when: "not deleted", on_tap: [{go: entry}]}
      - {id: row_market, text: Rainy Sunday at the market}
  - id: entry
    activity: .EntryActivity
    title: Entry
    elements:
      - {class: Button, id: btn_delete, text: Delete, on_tap: [{set: {deleted: true}}, back]}
  - id: trash
    activity: .TrashActivity
    title: Trash
    elements:
      - {id: row_deleted, text: Coffee with Maya, when: "deleted", on_tap: [{go: deleted_entry}]}
  - id: deleted_entry
    activity: .DeletedEntryActivity
    title: Deleted entry
    elements:
      - {class: Button, id: btn_restore, text: Restore,
         on_tap: [{set: {deleted: false}}, {reset: journal}, {toast: Moved back to Journal}]}
  - id: tags
    activity: .TagsActivity
    title: Tags
    elements:
      - {id: tag_travel, text: "#travel"}
dialogs:
  - id: drawer
    kind: drawer
    elements:
      - {id: nav_journal, text: Journal, on_tap: [close]}
      - {id: nav_tags, text: Tags, on_tap: [{go: tags}]}
      - {id: nav_trash, text: Recently deleted, on_tap: [{go: trash}]}
"""

JOURNAL_SPEC = """
app: {name: Daybook, package: com.example.daybook, virtual: app.yaml}
features:
  - name: restore a deleted entry
    goal: "Delete the entry 'Coffee with Maya', then open Recently deleted from the menu and Restore it: it is back in the Journal"
    max_steps: 12
    allow: [delete]
    done_when:
      - visible: Moved back to Journal
      - visible: Coffee with Maya
"""


def test_a_menu_taken_on_the_way_to_what_the_goal_names_before_it_leads_there_next(tmp_path: Path) -> None:
    steps = passed_steps(tmp_path, JOURNAL, JOURNAL_SPEC)
    menu = next(n for n, (_, action) in enumerate(steps) if "Menu" in action)
    assert "Recently deleted" in steps[menu + 1][1], steps
