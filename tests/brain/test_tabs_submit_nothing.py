"""A tab is a way to another page, not a form's submit: a page's field is not filled before one is tapped.

A button that submits wants the page's form filled first (brain/offline.py); a bottom navigation drawn with
buttons opens a page anew, its search field empty again, and each tab tapped from it would be one more
search typed. Tabs are told by their row (`screen.in_tab_row`).
"""

from __future__ import annotations

from pathlib import Path

from pytest_fairy.perception.screen import in_tab_row
from tests.explorer.inline_apps import Recorded, explore_inline
from tests.perception.builder import v
from tests.screens import screen_of

TABS = """
      - class: LinearLayout
        id: bottom_nav
        orientation: horizontal
        dock: bottom
        children:
          - {class: Button, id: tab_home, text: 首页, weight: 1, on_tap: [{replace: home}]}
          - {class: Button, id: tab_orders, text: 订单, weight: 1, on_tap: [{replace: orders}]}
          - {class: Button, id: tab_me, text: 我的, weight: 1, on_tap: [{replace: me}]}"""

APP = f"""
app: {{package: com.example.tabs, name: 外卖, launch: home}}
screens:
  - id: home
    activity: .HomeActivity
    title: 首页
    up: false
    elements:
      - {{class: EditText, id: et_search, hint: 搜索商家, on_enter: [{{toast: 暂无结果}}]}}
      - {{id: tv_shop, text: 面馆, on_tap: [{{go: shop}}]}}{TABS}
  - id: shop
    activity: .ShopActivity
    title: 面馆
    elements:
      - {{text: 牛肉面}}
  - id: orders
    activity: .OrdersActivity
    title: 订单
    up: false
    elements:
      - {{text: 暂无订单}}{TABS}
  - id: me
    activity: .MeActivity
    title: 我的
    up: false
    elements:
      - {{id: tv_settings, text: 设置, on_tap: [{{toast: 暂不可用}}]}}{TABS}
"""
SPEC = """
app: {name: 外卖, package: com.example.tabs, virtual: app.yaml}
features:
  - name: explore the app
    goal: explore every screen
    max_steps: 30
"""


def test_a_search_field_is_typed_into_once_though_its_page_is_opened_anew_by_each_tab(tmp_path: Path) -> None:
    sink = Recorded()
    explore_inline(tmp_path, APP, SPEC, sinks=[sink])
    actions = [s.action or "" for s in sink.steps]
    home_tabs = [
        a
        for s, a in zip(sink.steps, actions, strict=True)
        if s.title == "首页" and a.startswith("tap") and "面馆" not in a
    ]
    assert len(home_tabs) >= 2, actions  # the home page was left by its tabs more than once
    assert sum(a.startswith("type") for a in actions) == 1, actions


def test_a_row_of_three_buttons_is_a_row_of_tabs_and_a_lone_submit_is_not() -> None:
    tabs = [
        v("Button", (360 * n, 2200, 360 * (n + 1), 2300), text=t, clickable=True) for n, t in enumerate("ABC")
    ]
    screen = screen_of(*tabs, v("Button", (40, 600, 1040, 720), text="Search", clickable=True))
    kinds = {mark.label: in_tab_row(mark.node) for mark in screen.marks}
    assert kinds == {"A": True, "B": True, "C": True, "Search": False}
