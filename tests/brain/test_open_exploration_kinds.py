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
