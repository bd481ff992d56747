"""The way the goal names, from its first step: the element it names first before a row that only shares
its words, never the tab of the page already shown, and the row it quotes looked for down the list before
what it names after that row."""

from __future__ import annotations

from pathlib import Path

from tests.brain.test_goal_order import passed_steps

ROWS = [
    f"{area} {name} {size}"
    for area, name, size in (
        ("静安寺", "静安枫景苑", "1室1厅"),
        ("南京西路", "德义大楼", "2室1厅"),
        ("陆家嘴", "世茂滨江花园", "2室1厅"),
        ("张江", "汤臣豪园", "1室1厅"),
        ("徐家汇", "汇翠花园", "2室2厅"),
        ("漕河泾", "田林十二村", "1室1厅"),
        ("大宁", "大宁金座", "3室2厅"),
        ("世纪公园", "联洋年华", "2室1厅"),
        ("莘庄", "莘城苑", "2室1厅"),
        ("中山公园", "兆丰花园", "2室1厅"),
        ("古北", "古北国际花园", "3室2厅"),
        ("七宝", "万科城市花园", "3室2厅"),
        ("金桥", "金桥新城", "1室1厅"),
        ("徐汇滨江", "云锦东方", "2室2厅"),
        ("天山", "天山河畔花园", "1室1厅"),
        ("虹桥镇", "虹桥新城", "2室1厅"),
        ("张江", "长泰东郊", "3室2厅"),
        ("徐家汇", "东方曼哈顿", "1室1厅"),
        ("静安寺", "嘉里华庭", "3室2厅"),
        ("七宝", "七宝新村", "1室1厅"),
        ("中山公园", "长宁来福士", "1室1厅"),
        ("莘庄", "春申城", "3室2厅"),
        ("世纪公园", "仁恒河滨城", "2室2厅"),
        ("漕河泾", "华富大厦", "2室1厅"),
    )
]
ROW_LINES = "\n".join(
    f"          - {{text: {row}, height: 160, on_tap: [{{set: {{listing: {row}}}}}, {{go: detail}}]}}"
    for row in ROWS
)
TABS = """\
      - class: LinearLayout
        orientation: horizontal
        dock: bottom
        children:
          - {class: TextView, id: tab_home, text: 首页, clickable: true, on_tap: [{replace: home}]}
          - {class: TextView, id: tab_find, text: 找房, clickable: true, on_tap: [{replace: find}]}
          - {class: TextView, id: tab_mine, text: 我的, clickable: true, on_tap: [{replace: mine}]}"""
RENTAL = f"""
app: {{name: 安居, package: com.example.rental, launch: home}}
variables: {{listing: '', saved: ''}}
screens:
  - id: home
    activity: .MainActivity
    title: 安居租房
    up: false
    elements:
      - {{text: 为你推荐, style: caption}}
      - {{text: 中山公园 兆丰花园 2室1厅, on_tap: [{{set: {{listing: 中山公园 兆丰花园 2室1厅}}}}, {{go: detail}}]}}
{TABS}
  - id: find
    activity: .MainActivity
    title: 找房
    up: false
    elements:
      - class: RecyclerView
        id: rv_listings
        list:
          row_height: 240
          rows:
{ROW_LINES}
{TABS}
  - id: detail
    activity: .DetailActivity
    title: 房源详情
    elements:
      - {{text: "{{var:listing}}", style: title}}
      - {{class: Button, id: btn_save, text: 收藏, on_tap: [{{set: {{saved: "{{var:listing}}"}}}}, {{toast: 收藏成功}}]}}
  - id: mine
    activity: .MineActivity
    title: 我的
    up: false
    elements:
      - {{text: 我的收藏, clickable: true, on_tap: [{{go: saved}}]}}
{TABS}
  - id: saved
    activity: .SavedActivity
    title: 我的收藏
    elements:
      - {{text: "收藏：{{var:saved}}", when: "saved != ''"}}
"""


def spec(goal: str, done: str) -> str:
    return f"""
app: {{name: 安居, package: com.example.rental, virtual: app.yaml}}
features:
  - name: f
    goal: {goal}
    max_steps: 20
    done_when: [{{visible: "{done}"}}]
"""


def test_the_element_the_goal_names_first_comes_before_a_row_that_shares_the_rows_words(
    tmp_path: Path,
) -> None:
    # 中山公园 兆丰花园 2室1厅 on the home page shares 2室1厅 with the quoted row; the goal's first step is 找房.
    goal = "在 找房 列表里打开「陆家嘴 世茂滨江花园 2室1厅」，点 收藏，再到 我的 > 我的收藏 里看到它"
    steps = passed_steps(tmp_path, RENTAL, spec(goal, "收藏：陆家嘴 世茂滨江花园 2室1厅"))
    assert steps[0][1].endswith("找房"), steps
    # Standing on 找房, its own tab opens nothing: never tapped there.
    assert not any(title == "找房" and action.endswith("] 找房") for title, action in steps), steps


def test_the_row_the_goal_quotes_next_is_looked_for_down_the_list_first(tmp_path: Path) -> None:
    # Row 22, far below the fold; 我的, which the goal names after it, is on screen all the while.
    goal = "在 找房 列表靠后的位置找到「莘庄 春申城 3室2厅」，点 收藏，然后到 我的 > 我的收藏"
    steps = passed_steps(tmp_path, RENTAL, spec(goal, "收藏：莘庄 春申城 3室2厅"))
    row = next(n for n, (_, action) in enumerate(steps) if "春申城" in action)
    assert all(action.startswith("scroll") for _, action in steps[1:row]) and row > 1, steps


def test_a_tab_already_tried_keeps_no_list_from_being_looked_through(tmp_path: Path) -> None:
    # The goal names 找房 (the tab tried, the page shown) and nothing else here: the list is looked through
    # for what the done-when waits for (no row on screen shares its words), rather than the other tabs.
    goal = "在 找房 页往下找到 春申城"
    steps = passed_steps(tmp_path, RENTAL, spec(goal, "春申城"))
    assert steps[0][1].endswith("找房") and steps[1][1].startswith("scroll"), steps
