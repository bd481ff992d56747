"""The options of a form or a dialog (brain/choices.py): the one the goal names is chosen before the
confirm, in its own group (a grid of amounts is one group, a header starts another), named in the goal's
own punctuation; a group with nothing chosen gets a choice, and a form's "please choose" button is filled
with its fields, before the submit."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_fairy.brain.choices import group_of, names_option
from tests.brain.test_goal_order import passed_steps
from tests.perception.builder import V, v
from tests.screens import screen_of

WALLET = """
app: {name: 轻骑, package: com.example.wallet, launch: wallet}
variables: {balance: 18, amount: 20, area: 不限, layout: 不限, p_area: 不限, p_layout: 不限, date: '', picked: '', name: ''}
screens:
  - id: wallet
    activity: .WalletActivity
    title: 钱包
    elements:
      - {id: tv_balance, text: "账户余额 {var:balance} 元"}
      - {class: Button, id: btn_top_up, text: 充值, on_tap: [{dialog: amounts}]}
      - {class: Button, id: btn_filter, text: 筛选, on_tap: [{dialog: filter}]}
      - {class: Button, id: btn_book, text: 预约看房, on_tap: [{go: booking}]}
      - {id: tv_filter, text: "筛选：{var:area} · {var:layout}"}
  - id: booking
    activity: .BookingActivity
    title: 预约看房
    elements:
      - {class: EditText, id: et_name, hint: 看房人姓名, var: name}
      - {class: Button, id: btn_date, text: 看房日期：请选择, when: "date == ''", on_tap: [{dialog: dates}]}
      - {class: Button, id: btn_date_set, text: "看房日期：{var:date}", when: "date != ''", on_tap: [{dialog: dates}]}
      - class: Button
        id: btn_submit
        text: 提交预约
        on_tap:
          - {when: "date == ''", toast: 请选择看房日期}
          - {when: "date != '' and name != ''", go: booked}
  - id: booked
    activity: .BookedActivity
    title: 预约结果
    elements:
      - {text: "预约已提交 · {var:date}"}
dialogs:
  - id: amounts
    kind: sheet
    title: 选择充值金额
    elements:
      - class: LinearLayout
        orientation: horizontal
        children:
          - {class: RadioButton, id: rb_10, text: 10 元, group: amount, value: 10}
          - {class: RadioButton, id: rb_20, text: 20 元, group: amount, value: 20}
      - class: LinearLayout
        orientation: horizontal
        children:
          - {class: RadioButton, id: rb_50, text: 50 元, group: amount, value: 50}
          - {class: RadioButton, id: rb_100, text: 100 元, group: amount, value: 100}
      - {class: Button, id: btn_pay, text: 确认充值, on_tap: [{calc: {balance: balance + amount}}, close]}
  - id: filter
    kind: sheet
    title: 筛选
    elements:
      - {text: 区域, style: caption}
      - class: LinearLayout
        orientation: horizontal
        children:
          - {class: RadioButton, id: rb_any_area, text: 不限, group: p_area, value: 不限}
          - {class: RadioButton, id: rb_pudong, text: 浦东新区, group: p_area, value: 浦东新区}
          - {class: RadioButton, id: rb_xuhui, text: 徐汇区, group: p_area, value: 徐汇区}
      - {text: 户型, style: caption}
      - class: LinearLayout
        orientation: horizontal
        children:
          - {class: RadioButton, id: rb_any_layout, text: 不限, group: p_layout, value: 不限}
          - {class: RadioButton, id: rb_one, text: 1室, group: p_layout, value: 1室}
          - {class: RadioButton, id: rb_two, text: 2室, group: p_layout, value: 2室}
      - {class: Button, id: btn_filter_ok, text: 确定, on_tap: [{set: {area: "{var:p_area}", layout: "{var:p_layout}"}}, close]}
  - id: dates
    kind: sheet
    title: 选择看房日期
    elements:
      - {class: RadioButton, id: rb_sat, text: 11月29日 周六, group: picked, value: 11月29日 周六}
      - {class: RadioButton, id: rb_sun, text: 11月30日 周日, group: picked, value: 11月30日 周日}
      - {class: Button, id: btn_date_ok, text: 确定, on_tap: [{when: "picked != ''", set: {date: "{var:picked}"}}, close]}
"""

# The date picker of an app that shows the date picked apart from its button.
KEPT_OLD = """\
      - {class: Button, id: btn_date, text: 看房日期：请选择, when: "date == ''", on_tap: [{dialog: dates}]}
      - {class: Button, id: btn_date_set, text: "看房日期：{var:date}", when: "date != ''", on_tap: [{dialog: dates}]}
"""
KEPT = """\
      - {class: Button, id: btn_date, text: 看房日期：请选择, on_tap: [{dialog: dates}]}
      - {id: tv_date, text: "{var:date}"}
"""


def spec(goal: str, done: str, inputs: str = "") -> str:
    return f"""
app: {{name: 轻骑, package: com.example.wallet, virtual: app.yaml}}
features:
  - name: f
    goal: {goal}
    allow: [payment]
    max_steps: 12
    done_when: [{{visible: "{done}"}}]
    {inputs}
"""


def test_the_amount_the_goal_names_is_chosen_in_its_grid_before_the_confirm(tmp_path: Path) -> None:
    # 20 元 is chosen already; 50 元, which the goal names, is the grid's other row: one group of four. The
    # confirm carries more of the goal's words than 50 元 does; still 50 元 is no toggle for later.
    goal = "在钱包页点击充值，在弹出的金额面板里选择 50 元并确认充值，账户余额从 18 元变为 68 元"
    steps = passed_steps(tmp_path, WALLET, spec(goal, "账户余额 68 元"))
    assert [action for _, action in steps] == ["tap [1] 充值", "tap [3] 50 元", "tap [5] 确认充值"], steps


def test_each_group_gets_the_option_the_goal_names_before_the_confirm(tmp_path: Path) -> None:
    goal = "用 筛选，把区域设为 浦东新区、户型设为 2室"
    steps = passed_steps(tmp_path, WALLET, spec(goal, "筛选：浦东新区 · 2室"))
    chosen = [action.split("] ", 1)[1] for _, action in steps[1:]]
    assert chosen == ["浦东新区", "2室", "确定"], steps


@pytest.mark.parametrize("keeps_its_label", [False, True])
def test_a_forms_please_choose_is_filled_before_its_submit_and_a_choice_made_in_it(
    tmp_path: Path, keeps_its_label: bool
) -> None:
    # The button shows the date once picked, or (an app that shows it elsewhere) still asks to choose one:
    # picked once, it is filled, and the submit comes next.
    app = WALLET.replace(KEPT_OLD, KEPT) if keeps_its_label else WALLET
    goal = "点 预约看房，填好看房人姓名，选一个看房日期，然后 提交预约"
    steps = passed_steps(tmp_path, app, spec(goal, "预约已提交", "inputs: {看房人姓名: 王芳}"))
    actions = [action.split("] ", 1)[1] for _, action in steps]
    assert actions.index("看房日期：请选择") < actions.index("提交预约") == len(actions) - 1, steps
    assert actions[actions.index("看房日期：请选择") + 1] == "11月29日 周六", (
        steps
    )  # not 确定 with none chosen


def test_an_option_is_named_by_its_words_in_the_goals_own_punctuation() -> None:
    goal = "In Profile, change the daily goal to Serious (30 XP a day) and save it"
    assert names_option(goal, "Serious · 30 XP a day")
    assert not names_option(goal, "Casual · 10 XP a day") and not names_option(goal, "Serious · 3")
    assert names_option("选择 50 元并确认充值", "50 元") and not names_option("选择 50 元并确认充值", "20 元")


@given(st.lists(st.sampled_from(["Serious", "·", "(", ")", "30", "XP", ",", "a", "day", "-"]), min_size=1))
def test_punctuation_between_an_options_words_never_hides_it(parts: list[str]) -> None:
    words = [part for part in parts if part.isalnum()]
    assert not words or names_option(f"set it to {' '.join(parts)} now", " · ".join(words))


def test_rows_of_radios_one_after_the_other_are_one_group_and_a_header_starts_another() -> None:
    def row(y: int, *texts: str) -> V:
        radios = (
            v("RadioButton", (x, y, x + 300, y + 100), text=text, clickable=True, checkable=True)
            for x, text in zip((0, 400), texts, strict=True)
        )
        return v("LinearLayout", (0, y, 1080, y + 100), *radios)

    grid = screen_of(
        row(200, "10", "20"),
        row(300, "50", "100"),
        v("TextView", (0, 400, 1080, 500), text="户型"),
        row(500, "1室", "2室"),
    )
    group = {mark.label: group_of(mark.node) for mark in grid.marks}
    assert group["10"] == group["20"] == group["50"] == group["100"] != group["1室"] == group["2室"]
