"""An element worth another try may have scrolled away: a list keeps where it was left while its screen
lives, so the feature's row, tapped before the app's data changed on a page opened from the list's screen,
is above the screen when Back brings the explorer to the list again.
The change made the list's page another state; the list is scrolled back to the row (brain/scrolling.py),
so that a row that still opens the wrong page after the change is evidence against the app."""

from __future__ import annotations

from pathlib import Path

from pytest_fairy.brain.scrolling import ListScrolls
from pytest_fairy.explore.action import Direction
from tests.explorer.inline_apps import Recorded, explore_inline

CITIES = ("Kyoto", "Lisbon", "Hanoi", "Prague", "Havana", "Oslo")


def _rows(special: str, at: int) -> str:
    rows = [
        f"          - {{id: row_{n}, text: {CITIES[n % len(CITIES)]} {n}, on_tap: [{{go: detail}}]}}"
        for n in range(1, 41)
    ]
    rows.insert(
        at,
        f"          - {{id: row_special, text: 'Staff Favourite: Edinburgh', on_tap: [{{go: {special}}}]}}",
    )
    return "\n".join(rows)


def app(special: str, *, guide_on_home: bool = False) -> str:
    """`guide_on_home`: the city guide is on the home screen, not docked on the list's: the list is opened
    anew after the change, from its top."""
    home_guide = (
        "      - {id: tv_city, text: Edinburgh city guide, on_tap: [{go: city}]}" if guide_on_home else ""
    )
    # Near the list's end when the list is opened anew: seen only where the list was left.
    at = 38 if guide_on_home else 8
    list_guide = (
        ""
        if guide_on_home
        else "      - {id: tv_city, text: Edinburgh city guide, dock: bottom, on_tap: [{go: city}]}"
    )
    return f"""
app: {{name: RoamBook, package: com.example.roam, launch: home}}
variables: {{saved: false}}
screens:
  - id: home
    activity: .MainActivity
    title: RoamBook
    up: false
    elements:
      - {{id: tv_browse, text: Browse destinations, on_tap: [{{go: browse}}]}}
{home_guide}
  - id: browse
    activity: .BrowseActivity
    title: Browse destinations
    elements:
      - {{text: 1 saved destination, when: saved}}
      - class: RecyclerView
        id: rv_browse
        list:
          rows:
{_rows(special, at)}
{list_guide}
  - id: detail
    activity: .DetailActivity
    title: Details
    elements:
      - {{text: No more details for this destination}}
  - id: special
    activity: .SpecialActivity
    title: 'Staff Favourite: Edinburgh'
    elements:
      - {{text: Staff Favourite feature - all about Edinburgh}}
  - id: city
    activity: .CityActivity
    title: Edinburgh
    elements:
      - {{class: Button, id: btn_save, text: Save, on_tap: [{{set: {{saved: true}}}}, {{toast: Saved}}]}}
"""


SPEC = """
app: {name: RoamBook, package: com.example.roam, virtual: app.yaml}
features:
  - name: open the Staff Favourite row
    goal: "open Browse destinations, scroll to 'Staff Favourite: Edinburgh' and open it to read its feature"
    max_steps: 40
    done_when:
      - visible: Staff Favourite feature - all about Edinburgh
"""


def explored(
    tmp_path: Path, special: str, *, guide_on_home: bool = False
) -> tuple[str, str, list[tuple[str, str]]]:
    sink = Recorded()
    result = explore_inline(tmp_path, app(special, guide_on_home=guide_on_home), SPEC, sinks=[sink])
    return result.verdict.value, result.reason, [(s.title, s.action or "") for s in sink.steps]


def test_a_row_scrolled_away_is_scrolled_back_to_after_the_change_and_fails_the_feature(
    tmp_path: Path,
) -> None:
    verdict, reason, steps = explored(tmp_path, "detail")
    special = [n for n, (_, action) in enumerate(steps) if "Staff Favourite" in action]
    saved = steps.index(("Edinburgh", "tap [2] Save"))
    assert special[0] < saved < special[-1], steps
    assert any("up" in action for _, action in steps[saved : special[-1]]), steps  # scrolled back up to it
    assert verdict == "failed", (reason, steps)
    assert "Staff Favourite" in reason, reason


def test_a_list_opened_anew_is_scrolled_down_again_to_the_row(tmp_path: Path) -> None:
    # The list's screen is opened anew after the change: its list shows its top, not where it was left.
    verdict, reason, steps = explored(tmp_path, "detail", guide_on_home=True)
    special = [n for n, (_, action) in enumerate(steps) if "Staff Favourite" in action]
    saved = steps.index(("Edinburgh", "tap [2] Save"))
    assert special[0] < saved < special[-1], steps
    assert verdict == "failed", (reason, steps)
    assert "Staff Favourite" in reason, reason


def test_a_row_the_goal_does_not_name_is_not_scrolled_back_to(tmp_path: Path) -> None:
    # The row carries the goal's words but the goal does not name it: a scroll back to it costs more
    # than another try is worth.
    spec = SPEC.replace("scroll to 'Staff Favourite: Edinburgh' and open it", "find the Edinburgh staff pick")
    sink = Recorded()
    explore_inline(tmp_path, app("detail"), spec, sinks=[sink])
    steps = [(s.title, s.action or "") for s in sink.steps]
    saved = steps.index(("Edinburgh", "tap [2] Save"))
    assert not any(action.startswith("scroll") and action.endswith(" up") for _, action in steps[saved:]), (
        steps
    )


def test_the_working_row_passes(tmp_path: Path) -> None:
    verdict, reason, steps = explored(tmp_path, "special")
    assert verdict == "passed", (reason, steps)


# -- where a list stands ---------------------------------------------------------------------------------


def scrolled(scrolls: ListScrolls, moves: str) -> None:
    """`moves`: one letter per scroll of the list on page `feed`: d / u moved down / up, D / U moved nothing."""
    for move in moves:
        scrolls.moved("feed#1", "feed", "List", changed=move.islower(), up=move in "uU")


def test_an_element_above_the_screen_is_scrolled_up_to_and_one_below_down_to() -> None:
    scrolls = ListScrolls()
    scrolled(scrolls, "dd")
    scrolls.saw("feed", ["row_8"])
    scrolled(scrolls, "ddd")
    assert scrolls.towards("feed", ["row_8"]) is Direction.UP
    scrolled(scrolls, "uuu")
    assert scrolls.towards("feed", ["row_8"]) is None  # where it was seen: it is on screen, or gone
    scrolled(scrolls, "u")
    assert scrolls.towards("feed", ["row_8"]) is Direction.DOWN


def test_the_nearest_element_is_scrolled_to_first_and_one_never_seen_is_not() -> None:
    scrolls = ListScrolls()
    scrolls.saw("feed", ["row_1"])
    scrolled(scrolls, "ddd")
    scrolls.saw("feed", ["row_30"])
    scrolled(scrolls, "u")
    assert scrolls.towards("feed", ["row_1", "row_30"]) is Direction.DOWN
    assert scrolls.towards("feed", ["row_99"]) is None
    assert scrolls.towards("other", ["row_1"]) is None


def test_a_scroll_up_that_moves_nothing_is_the_top_and_one_that_moves_leaves_the_end() -> None:
    scrolls = ListScrolls()
    scrolls.saw("feed", ["row_1"])
    scrolled(scrolls, "dddD")
    assert "List" in scrolls.ended("feed#1")
    scrolled(scrolls, "u")
    assert "List" not in scrolls.ended("feed#1")
    # The app showed the list from its top anew: the first scroll up moves nothing, and the row is below.
    scrolls.saw("feed", ["row_5"])
    scrolled(scrolls, "U")
    assert scrolls.towards("feed", ["row_5"]) is Direction.DOWN
    assert scrolls.towards("feed", ["row_1"]) is None


def test_a_page_come_back_to_stands_where_its_rows_on_screen_were_last_seen() -> None:
    scrolls = ListScrolls()
    scrolls.saw("feed", ["row_1", "row_2", "row_3"])
    scrolled(scrolls, "d")
    scrolls.saw("feed", ["row_3", "row_4", "row_5"])  # a scroll keeps a row of the last screen in view
    scrolled(scrolls, "ddD")
    scrolls.saw("feed", ["row_9", "row_10"])
    assert "List" in scrolls.ended("feed#1")
    # Back uncovers the page where it was left: its rows were last seen there.
    scrolls.arrived("feed", ["row_9", "row_10"], ["List"])
    assert scrolls.towards("feed", ["row_5"]) is Direction.UP
    assert "List" in scrolls.ended("feed#1")
    # The page opened anew shows its top: row_3 was last seen one scroll down, row_1 at the top.
    scrolls.arrived("feed", ["row_1", "row_2", "row_3"], ["List"])
    assert scrolls.towards("feed", ["row_9"]) is Direction.DOWN
    assert "List" not in scrolls.ended("feed#1")
    scrolls.saw("feed", ["row_1", "row_2", "row_3"])
    assert scrolls.towards("feed", ["row_4"]) is Direction.DOWN


def test_a_page_whose_rows_on_screen_were_never_seen_keeps_where_its_list_stood() -> None:
    scrolls = ListScrolls()
    scrolls.saw("feed", ["row_1"])
    scrolled(scrolls, "dd")
    scrolls.arrived("feed", ["row_77"], ["List"])
    assert scrolls.towards("feed", ["row_1"]) is Direction.UP
