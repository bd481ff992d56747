"""The ways a defect's confirmation replays (`explore/reproduction.py`): the shortest known path through the
feature tree, with the moves that set a screen up, and the run's own walk as a second way."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_fairy.explore.recorded_action import RecordedAction
from pytest_fairy.explore.reproduction import Move, Selector, selector_for, ways_to
from pytest_fairy.explore.state import StateId
from pytest_fairy.explore.tree import FeatureTree
from pytest_fairy.perception.screen import build_screen
from tests.perception.real_screens.corpus import names as real_screen_names
from tests.perception.real_screens.corpus import screen_of as real_screen


def state(name: str, content: str = "") -> StateId:
    return StateId(f"a.{name}", name, "", content or name)


class Walk:
    """A run written as steps `(from, action, to)`; each action is a move carried out unless named idle."""

    def __init__(self, first: str) -> None:
        self.tree = FeatureTree()
        self.moves: dict[int, Move] = {}
        self.idle: set[int] = set()
        self.at = state(first)
        self.tree.record(0, None, None, self.at, first, False)

    def step(self, action: str, to: str, *, content: str = "", idle: bool = False, kind: str = "tap") -> None:
        n = len(self.tree.transitions) + 1
        after = state(to, content)
        self.tree.record(n, self.at, action, after, to, False, action_key=f"{kind}|{action}")
        self.moves[n] = Move(n, RecordedAction(kind, ref=action, label=action), None, action, self.at.key, "")
        if idle:
            self.idle.add(n)
        self.at = after

    def ways(self, step: int) -> list[list[str]]:
        return [[m.words for m in way.moves] for way in ways_to(self.tree, self.moves, step, self.idle)]


def test_the_shortest_way_skips_detours_and_the_walk_comes_second() -> None:
    walk = Walk("home")
    walk.step("search", "search")
    walk.step("back", "home")
    walk.step("settings", "settings")
    walk.step("about", "about")
    walk.step("update", "crash")
    assert walk.ways(5) == [
        ["settings", "about", "update"],
        ["search", "back", "settings", "about", "update"],
    ]


def test_a_screen_set_up_before_leaving_it_is_set_up_again_but_not_by_moves_that_did_nothing() -> None:
    walk = Walk("login")
    walk.step("type user", "login", content="user typed")
    walk.step("tap nothing", "login", content="user typed", idle=True)
    walk.step("type password", "login", content="both typed")
    walk.step("log in", "notes")
    walk.step("settings", "settings")
    assert walk.ways(5)[0] == ["type user", "type password", "log in", "settings"]


def test_restarts_are_no_edges_of_the_shortest_way() -> None:
    walk = Walk("home")
    walk.step("open", "detail")
    walk.step("restart", "home", kind="restart")
    walk.step("open", "detail")
    walk.step("share", "crash")
    ways = walk.ways(4)
    assert ways[0] == ["open", "share"]
    assert ways[1] == ["open", "restart", "open", "share"]  # the walk keeps what the run did


def test_a_shortest_way_no_shorter_than_the_walk_is_not_tried_twice() -> None:
    walk = Walk("home")
    walk.step("open", "detail")
    walk.step("share", "crash")
    assert walk.ways(2) == [["open", "share"]]


def test_a_step_not_carried_out_has_no_way() -> None:
    walk = Walk("home")
    walk.step("open", "detail")
    del walk.moves[1]  # denied by the policy: nothing was done
    assert walk.ways(1) == []


@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=30), st.data())
def test_the_shortest_way_is_a_chain_from_the_first_screen_and_never_longer_than_the_walk(
    steps: list[tuple[int, int]], data: st.DataObject
) -> None:
    walk = Walk("s0")
    for action, to in steps:
        walk.step(f"a{action}->{to}", f"s{to}")
    defect = data.draw(st.integers(1, len(steps)))
    ways = ways_to(walk.tree, walk.moves, defect)
    shortest = ways[0]
    assert shortest.moves[-1].step == defect
    assert len(shortest) <= defect  # the walk, when nothing shorter is known
    assert shortest.moves[0].on == state("s0").key
    by_step = {t.step: t for t in walk.tree.transitions}
    for move, after in zip(shortest.moves, shortest.moves[1:], strict=False):
        assert by_step[move.step].to_key == after.on  # each move leads to the screen of the next
    assert [m.step for m in ways[-1].moves] == list(range(1, defect + 1))


DUMP = """<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>
<hierarchy rotation="0">
  <node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.shop"
        content-desc="" clickable="false" enabled="true" bounds="[0,0][1080,2400]">
    <node index="0" text="Buy" resource-id="com.shop:id/buy" class="android.widget.Button" package="com.shop"
          content-desc="" clickable="true" enabled="true" bounds="[0,100][540,200]" />
    <node index="1" text="Buy" resource-id="com.shop:id/buy" class="android.widget.Button" package="com.shop"
          content-desc="" clickable="true" enabled="true" bounds="[540,100][1080,200]" />
    <node index="2" text="Help" resource-id="com.shop:id/link" class="android.widget.TextView"
          package="com.shop" content-desc="" clickable="true" enabled="true" bounds="[0,300][540,400]" />
    <node index="3" text="Terms" resource-id="com.shop:id/link" class="android.widget.TextView"
          package="com.shop" content-desc="" clickable="true" enabled="true" bounds="[540,300][1080,400]" />
    <node index="4" text="" resource-id="" class="android.widget.ImageButton" package="com.shop"
          content-desc="Cart" clickable="true" enabled="true" bounds="[0,500][200,600]" />
    <node index="5" text="" resource-id="" class="android.view.View" package="com.shop"
          content-desc="" clickable="true" enabled="true" bounds="[300,500][500,600]" />
  </node>
</hierarchy>"""


def test_selectors_name_an_element_by_the_fewest_attributes_that_find_it_alone() -> None:
    screen = build_screen(DUMP, package="com.shop")
    by_label = {m.label: m for m in screen.marks}
    assert selector_for(by_label["Cart"].node, screen) == Selector(description="Cart")
    assert selector_for(by_label["Help"].node, screen) == Selector(text="Help")
    buys = [m for m in screen.marks if m.label == "Buy"]
    assert [selector_for(m.node, screen) for m in buys] == [
        Selector(resource_id="com.shop:id/buy", text="Buy", instance=0),
        Selector(resource_id="com.shop:id/buy", text="Buy", instance=1),
    ]
    (nameless,) = [m for m in screen.marks if not m.label]
    # No id, text or description: its class and place among the views of that class (never coordinates).
    assert selector_for(nameless.node, screen) == Selector(class_name="android.view.View", instance=0)


@pytest.mark.parametrize("name", real_screen_names())
def test_on_real_apps_screens_every_selector_finds_its_own_view(name: str) -> None:
    """On public dumps of real apps (tests/perception/real_screens), the selector an exported test uses
    for each marked view finds that view, and no other, as uiautomator counts `instance` (the matching
    views in the dump's order)."""
    screen = real_screen(name)
    nodes = list(screen.nodes())
    for mark in screen.marks:
        selector = selector_for(mark.node, screen)
        assert selector is not None, f"{name}: [{mark.number}] {mark.label} gets no selector"
        found = [n for n in nodes if selector.matches(n)]
        assert found[selector.instance] is mark.node, f"{name}: {selector} finds another view"
