"""An open exploration learns what kinds of element do: a kind that stayed on its screen whenever it was
tried, on several screens (a settings page's rows that only show a toast, its switches), waits until the
screen's other ways on and the other screens' ways are taken. A step that stays finds no way of the map.
"""

from __future__ import annotations

from pathlib import Path

from pytest_fairy.brain.open_exploration import LEFT_SHARE, STAYS_AFTER, OpenExploration
from tests.explorer.inline_apps import Recorded, explore_inline

TOAST_ROW = "app:content/TextView/c"

# Settings: a list of four pages, each with two items that only show a toast; the last has no Up button.
PAGES = ("WLAN", "蓝牙", "显示", "声音")
APP = (
    "app: {package: com.example.settings, name: 设置, launch: home}\n"
    "screens:\n"
    "  - id: home\n"
    "    activity: .HomeActivity\n"
    "    title: 设置\n"
    "    up: false\n"
    "    elements:\n"
    "      - class: RecyclerView\n"
    "        id: settings_list\n"
    "        list:\n"
    "          rows:\n"
    + "".join(
        f"            - {{id: row_title, text: {name}, on_tap: [{{go: page_{i}}}]}}\n"
        for i, name in enumerate(PAGES)
    )
    + "".join(
        f"  - id: page_{i}\n"
        f"    activity: .Page{i}Activity\n"
        f"    title: {name}\n"
        f"    up: {str(name != PAGES[-1]).lower()}\n"
        "    elements:\n"
        f"      - {{id: tv_{i}_a, text: {name}详情, on_tap: [{{toast: 正在加载}}]}}\n"
        f"      - {{id: tv_{i}_b, text: {name}帮助, on_tap: [{{toast: 暂无帮助}}]}}\n"
        for i, name in enumerate(PAGES)
    )
)
SPEC = """
app: {name: 设置, package: com.example.settings, virtual: app.yaml}
features:
  - name: explore the app
    goal: explore every screen
    max_steps: 60
"""


# -- the memory -----------------------------------------------------------------------------------------


def test_a_kind_that_stayed_on_several_screens_is_expected_to_stay() -> None:
    memory = OpenExploration()
    for screen in range(STAYS_AFTER):
        assert not memory.stays(TOAST_ROW)
        memory.went(TOAST_ROW, f"page_{screen}", left=False)
    assert memory.stays(TOAST_ROW)


def test_what_stayed_on_one_screen_only_is_that_screens_way() -> None:
    # A home page's promotions that only show a toast say nothing of the detail page's rows.
    memory = OpenExploration()
    for _ in range(5):
        memory.went(TOAST_ROW, "home", left=False)
    assert not memory.stays(TOAST_ROW)


def test_a_kind_that_often_left_its_screen_is_not_expected_to_stay() -> None:
    memory = OpenExploration()
    for screen in range(STAYS_AFTER):
        memory.went(TOAST_ROW, f"page_{screen}", left=False)
    memory.went(TOAST_ROW, "home", left=True)  # once for two stays: more than a third as often
    assert not memory.stays(TOAST_ROW)
    for screen in range(STAYS_AFTER, LEFT_SHARE):
        memory.went(TOAST_ROW, f"page_{screen}", left=False)
    assert memory.stays(TOAST_ROW)  # once for three stays: a third as often


def test_an_element_that_stayed_on_its_page_is_expected_to_stay_there_unless_it_once_left() -> None:
    memory = OpenExploration()
    memory.went(TOAST_ROW, "menu#1", left=False, ref="tab_snack", page="menu")
    assert memory.stayed_on_page("menu", "tab_snack")
    assert not memory.stayed_on_page("home", "tab_snack") and not memory.stayed_on_page("menu", "tab_drink")
    memory.went(TOAST_ROW, "menu#2", left=True, ref="tab_snack", page="menu")
    assert not memory.stayed_on_page("menu", "tab_snack")


# -- on an app --------------------------------------------------------------------------------------------


def test_rows_expected_to_stay_wait_for_the_ways_on_and_are_tried_at_last(tmp_path: Path) -> None:
    sink = Recorded()
    explore_inline(tmp_path, APP, SPEC, sinks=[sink])
    actions = [(step.title, step.action or "") for step in sink.steps]
    first = {title: action for title, action in reversed(actions)}
    # The first two pages teach that their rows stay; the pages after are left at once, by Up or Back.
    assert [first[name].endswith("详情") for name in PAGES] == [True, True, False, False], first
    assert (first["显示"], first["声音"]) == ("tap [1] Navigate up", "back"), first
    # The rows are not dropped: once every way on is taken, they get their turn.
    tapped = {action.split("] ", 1)[-1] for _, action in actions}
    assert {f"{name}{row}" for name in PAGES for row in ("详情", "帮助")} <= tapped, actions


# -- what stayed on one state of a page -------------------------------------------------------------------

# A menu whose category tabs only change the products listed, whose products' 加入购物车 makes the menu
# another state (the cart's count shows): on that state the tabs are untried, but they stayed on its first.
MENU_APP = """
app: {package: com.example.food, name: 麦当劳, launch: home}
variables: {added: false, category: 汉堡}
screens:
  - id: home
    activity: .HomeActivity
    title: 麦当劳
    up: false
    elements:
      - {id: tv_order, text: 点餐, on_tap: [{go: menu}]}
      - {id: tv_coupons, text: 优惠券, on_tap: [{go: coupons}]}
      - {id: tv_stores, text: 门店, on_tap: [{go: stores}]}
  - id: menu
    activity: .MenuActivity
    title: 点餐
    elements:
      - {id: tab_burger, text: 汉堡, on_tap: [{set: {category: 汉堡}}]}
      - {id: tab_snack, text: 小食, on_tap: [{set: {category: 小食}}]}
      - {id: tab_drink, text: 饮料, on_tap: [{set: {category: 饮料}}]}
      - class: RecyclerView
        id: rv_products
        list:
          rows:
            - {id: tv_product, text: 巨无霸 ¥23, when: "category == '汉堡'", on_tap: [{go: product}]}
            - {id: tv_product, text: 薯条 ¥12, when: "category == '小食'", on_tap: [{go: product}]}
            - {id: tv_product, text: 可乐 ¥9, when: "category == '饮料'", on_tap: [{go: product}]}
      - {id: tv_cart, text: 购物车 (1), when: added}
  - id: product
    activity: .ProductActivity
    title: 商品详情
    elements:
      - {class: Button, id: btn_add, text: 加入购物车, on_tap: [{set: {added: true}}, {toast: 已加入}]}
  - id: coupons
    activity: .CouponsActivity
    title: 优惠券
    elements:
      - {text: 暂无优惠券}
  - id: stores
    activity: .StoresActivity
    title: 门店
    elements:
      - {text: 附近暂无门店}
"""
MENU_SPEC = """
app: {name: 麦当劳, package: com.example.food, virtual: app.yaml}
features:
  - name: explore the app
    goal: explore every screen
    max_steps: 30
"""


def test_what_stayed_on_one_state_of_a_page_waits_on_its_other_states(tmp_path: Path) -> None:
    sink = Recorded()
    explore_inline(tmp_path, MENU_APP, MENU_SPEC, sinks=[sink])
    actions = [(step.title, step.action or "") for step in sink.steps]
    added = next(n for n, (_, action) in enumerate(actions) if action.endswith("加入购物车"))
    coupons = next(n for n, (title, _) in enumerate(actions) if title == "优惠券")
    tabs = [n for n, (_, action) in enumerate(actions) if action.endswith(("汉堡", "小食", "饮料"))]
    assert len([n for n in tabs if n < added]) == 3, actions  # each tried on the menu's first state
    assert added < coupons and not [n for n in tabs if added < n < coupons], actions
