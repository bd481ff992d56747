"""The offline brain's memory, part by part: the frontier of each page, the walk back along what it
learnt of the app, the sampling of a list's rows and the scrolling of lists."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pytest_fairy.brain.candidates import Candidate
from pytest_fairy.brain.frontier import Frontier
from pytest_fairy.brain.offline import OfflineBrain
from pytest_fairy.brain.samples import FAMILY_SAMPLE, Samples, row_words
from pytest_fairy.brain.scrolling import ListScrolls
from pytest_fairy.brain.walk_back import MAX_WALK_STEPS, WalkBack
from pytest_fairy.explore.action import Action, ActionKind
from pytest_fairy.explore.decisions import Outcome, OutcomeKind
from pytest_fairy.explore.guard import GuardVerdict, VerdictKind
from tests.claude import synthetic
from tests.perception.builder import v
from tests.screens import button, screen_of


def candidate(key: str, kind: ActionKind = ActionKind.TAP, **flags: bool) -> Candidate:
    ref = key.split("|", 1)[1]
    text = "qa" if kind is ActionKind.TYPE else None
    return Candidate(0, 0, Action(kind, 1, text=text), key, "", ref=ref, **flags)


# -- the frontier ---------------------------------------------------------------------------------------


def test_a_field_filled_makes_the_pages_submit_fresh_again() -> None:
    frontier = Frontier()
    frontier.take("form", candidate("tap|Save", submits=True))
    assert frontier.tried("form", "tap|Save")
    frontier.take("form", candidate("type|Name", ActionKind.TYPE))
    assert not frontier.tried("form", "tap|Save")
    assert frontier.reopened("form", "tap|Save")
    assert frontier.tried("form", "type|Name")


def test_a_field_filled_reopens_only_its_own_pages_submit() -> None:
    frontier = Frontier()
    frontier.take("login", candidate("tap|Sign in", submits=True))
    frontier.take("search", candidate("type|Query", ActionKind.TYPE))
    assert frontier.tried("login", "tap|Sign in")


def test_tries_anywhere_count_elements_not_scrolls() -> None:
    frontier = Frontier()
    frontier.take("a", candidate("tap|Size M"))
    frontier.take("b", candidate("scroll|List", ActionKind.SCROLL))
    assert not frontier.new_anywhere("Size M")
    assert frontier.new_anywhere("List")


def test_reopened_keys_count_as_work_left_on_their_page() -> None:
    frontier = Frontier()
    frontier.take("cart", candidate("tap|Checkout"))
    frontier.count("cart", ways_on=1, toggles=0)
    assert frontier.open["cart"] == 0
    frontier.reopen("cart", {"tap|Checkout"})
    assert frontier.open["cart"] == 1
    assert not frontier.tried("cart", "tap|Checkout")
    assert frontier.pages_left("home") and not frontier.pages_left("cart")


def test_a_reopened_key_is_fresh_on_the_other_states_of_its_page_only() -> None:
    frontier = Frontier()
    frontier.stood_on("loans", "LoansActivity|My loans")
    frontier.take("loans", candidate("tap|row_1"))
    frontier.reopen("loans", {"tap|row_1"})
    # The change that reopened it made the page another state (a notice above the list).
    frontier.stood_on("loans+notice", "LoansActivity|My loans")
    frontier.stood_on("history", "LoansActivity|History")
    assert frontier.reopened("loans+notice", "tap|row_1")
    assert not frontier.reopened("history", "tap|row_1")
    assert not frontier.reopened("unknown", "tap|row_1")
    frontier.take("loans+notice", candidate("tap|row_1"))  # taken on the page: not fresh on its states
    frontier.stood_on("loans+other", "LoansActivity|My loans")
    assert not frontier.reopened("loans+other", "tap|row_1")


def test_a_field_filled_reopens_the_submit_of_its_own_state_only() -> None:
    frontier = Frontier()
    frontier.stood_on("search", "SearchActivity|Search")
    frontier.stood_on("search+results", "SearchActivity|Search")
    frontier.take("search", candidate("tap|Go", submits=True))
    frontier.take("search", candidate("type|Query", ActionKind.TYPE))
    assert frontier.reopened("search", "tap|Go")
    assert not frontier.reopened("search+results", "tap|Go")


def test_a_toggle_taken_is_one_toggle_less_on_its_page() -> None:
    frontier = Frontier()
    frontier.count("settings", ways_on=0, toggles=2)
    frontier.take("settings", candidate("tap|Dark mode", toggle=True))
    assert frontier.toggles["settings"] == 1
    assert frontier.work_elsewhere("home") and not frontier.work_elsewhere("settings")


def test_spent_keys_are_tried_without_a_try() -> None:
    frontier = Frontier()
    frontier.spend("dialog", ["tap|OK"])
    assert frontier.tried("dialog", "tap|OK") and frontier.new_anywhere("OK")


def test_what_a_loop_cut_short_is_given_back_once_before_the_brain_gives_up() -> None:
    frontier = Frontier()
    frontier.spend("home", ["scroll|deals|0", "type|search"], cut=True)
    frontier.spend("dialog", ["tap|OK"])  # a dialog closed: no try owed
    assert frontier.tried("home", "scroll|deals|0") and frontier.open.get("home", 0) == 0
    assert frontier.restore_cut()
    assert not frontier.tried("home", "scroll|deals|0") and not frontier.tried("home", "type|search")
    assert frontier.open["home"] == 2 and frontier.tried("dialog", "tap|OK")
    assert not frontier.restore_cut()  # given back once


# -- the walk back ---------------------------------------------------------------------------------------

HOME = screen_of(button("Orders", 0), button("Settings", 1))
SETTINGS = screen_of(button("About", 0))


def test_the_walk_takes_the_shortest_known_path_by_ref() -> None:
    walk = WalkBack()
    walk.learn("home", "tap|Button[Orders]", ActionKind.TAP, "Button[Orders]", "orders")
    walk.learn("orders", "tap|Button[Detail]", ActionKind.TAP, "Button[Detail]", "detail")
    walk.learn("home", "tap|Button[Settings]", ActionKind.TAP, "Button[Settings]", "detail")
    hop = walk.first_hop("home", {"detail": 1}, HOME)
    assert hop is not None
    assert hop.key == "tap|Button[Settings]" and hop.towards == "detail"  # one hop, not two
    assert hop.action == Action(ActionKind.TAP, 2)  # Settings' number on this screen
    assert walk.heading == "detail"


def test_a_walk_has_arrived_once_the_brain_stands_on_its_page() -> None:
    # The page it walked to had work, taken at once; once done there, the brain does not head back to it.
    walk = WalkBack()
    walk.learn("home", "tap|Button[Orders]", ActionKind.TAP, "Button[Orders]", "orders")
    assert walk.first_hop("home", {"orders": 1}, HOME) is not None
    walk.stood_on("home", outside=False)
    assert walk.heading == "orders"  # still on the way
    walk.stood_on("orders", outside=False)
    assert walk.heading is None


def test_an_action_that_stays_on_its_page_forgets_where_it_once_led() -> None:
    walk = WalkBack()
    walk.learn("home", "tap|Button[Orders]", ActionKind.TAP, "Button[Orders]", "orders")
    walk.learn("home", "tap|Button[Orders]", ActionKind.TAP, "Button[Orders]", "home")
    assert walk.first_hop("home", {"orders": 1}, HOME) is None


def test_no_walk_to_a_page_without_work_or_through_an_element_not_on_screen() -> None:
    walk = WalkBack()
    walk.learn("home", "tap|Button[Orders]", ActionKind.TAP, "Button[Orders]", "orders")
    assert walk.first_hop("home", {"orders": 0}, HOME) is None
    assert walk.first_hop("home", {"orders": 1}, SETTINGS) is None


def test_a_path_whose_first_element_is_not_on_screen_gives_way_to_another() -> None:
    # The page showed `Like` once (it led to `liked`) and shows `Settings` now: the nearer page
    # with work is out of reach from this screen, the one behind Settings is not.
    walk = WalkBack()
    walk.learn("home", "tap|Button[Like]", ActionKind.TAP, "Button[Like]", "liked")
    walk.learn("home", "tap|Button[Settings]", ActionKind.TAP, "Button[Settings]", "settings")
    walk.learn("settings", "tap|Button[About]", ActionKind.TAP, "Button[About]", "about")
    hop = walk.first_hop("home", {"liked": 1, "about": 1}, HOME)
    assert hop is not None
    assert hop.key == "tap|Button[Settings]" and hop.towards == "about"


def test_a_walk_gives_up_after_its_steps_until_new_work_is_found() -> None:
    walk = WalkBack()
    walk.learn("home", "tap|Button[Orders]", ActionKind.TAP, "Button[Orders]", "orders")
    for _ in range(MAX_WALK_STEPS):
        assert walk.first_hop("home", {"orders": 1}, HOME) is not None
    assert walk.first_hop("home", {"orders": 1}, HOME) is None
    walk.found_work()
    assert walk.first_hop("home", {"orders": 1}, HOME) is not None


def test_back_into_another_app_marks_the_page_an_exit() -> None:
    walk = WalkBack()
    walk.stood_on("launcher", outside=True)
    walk.learn("home", "back|", ActionKind.BACK, "", "launcher")
    walk.learn("detail", "back|", ActionKind.BACK, "", "home")
    assert walk.exits("home") and not walk.exits("detail")


def test_a_back_edge_is_walked_without_a_mark() -> None:
    walk = WalkBack()
    walk.learn("detail", "back|", ActionKind.BACK, "", "home")
    hop = walk.first_hop("detail", {"home": 2}, SETTINGS)
    assert hop is not None and hop.action == Action(ActionKind.BACK)


def tap(walk: WalkBack, page: str, label: str, to: str, *, in_place: bool = False) -> None:
    walk.learn(page, f"tap|Button[{label}]", ActionKind.TAP, f"Button[{label}]", to, in_place=in_place)


def back(walk: WalkBack, page: str, to: str) -> None:
    walk.learn(page, "back|", ActionKind.BACK, "", to)


def restart(walk: WalkBack, page: str) -> None:
    walk.learn(page, "restart", ActionKind.RESTART, "", "home")


def learnt_product_page(walk: WalkBack) -> None:
    """A product page opened from the list, its Back to the list; then, after a restart, from home."""
    tap(walk, "home", "Orders", "list")
    tap(walk, "list", "Item", "product")
    back(walk, "product", "list")
    back(walk, "list", "home")
    restart(walk, "home")
    tap(walk, "home", "Settings", "product")


def test_back_leads_to_the_page_the_current_one_was_opened_from() -> None:
    walk = WalkBack()
    learnt_product_page(walk)
    # The map's Back edge leads to the list; the product page was opened from home this time.
    hop = walk.first_hop("product", {"home": 1, "list": 1}, SETTINGS)
    assert hop is not None and hop.action == Action(ActionKind.BACK) and hop.towards == "home"


def test_on_a_path_a_page_opened_by_a_tap_is_left_by_back_for_the_page_before_it() -> None:
    walk = WalkBack()
    for page, label, to in (("home", "Shop", "shop"), ("shop", "More", "more"), ("more", "Orders", "list")):
        tap(walk, page, label, to)
    tap(walk, "list", "Item", "product")
    back(walk, "product", "list")
    tap(walk, "home", "Settings", "product")
    restart(walk, "product")
    # Settings then Back is two steps by the map's edges, but Back from a product page opened from home
    # leads home: the way to the list is the longer one through the shop.
    home = screen_of(button("Shop", 0), button("Settings", 1))
    hop = walk.first_hop("home", {"list": 1}, home)
    assert hop is not None and hop.key == "tap|Button[Shop]"


def test_a_page_changed_in_place_is_left_by_back_as_before() -> None:
    # `Like` became `Liked`: another state of the page opened from the list, not a page opened over it.
    walk = WalkBack()
    tap(walk, "list", "Item", "product")
    back(walk, "product", "list")
    tap(walk, "list", "Item", "product")
    tap(walk, "product", "Like", "liked", in_place=True)
    back(walk, "liked", "list")
    tap(walk, "list", "Item", "liked")
    tap(walk, "liked", "Liked", "product", in_place=True)
    hop = walk.first_hop("product", {"list": 1, "liked": 1}, SETTINGS)
    assert hop is not None and hop.action == Action(ActionKind.BACK) and hop.towards == "list"
    # Opened from home this time, then liked: Back from the liked page leads home too.
    restart(walk, "product")
    tap(walk, "home", "Settings", "product")
    tap(walk, "product", "Like", "liked", in_place=True)
    hop = walk.first_hop("liked", {"list": 1, "home": 1}, SETTINGS)
    assert hop is not None and hop.action == Action(ActionKind.BACK) and hop.towards == "home"


@pytest.mark.parametrize("how", ["restart", "a feature's launch"])
def test_after_a_restart_no_page_is_open_over_another(how: str) -> None:
    walk = WalkBack()
    walk.stood_on("launcher", outside=True)
    back(walk, "home", "launcher")
    tap(walk, "login", "Sign in", "home")
    if how == "restart":
        restart(walk, "home")
    else:
        walk.started()
    assert walk.first_hop("home", {"login": 1}, HOME) is None  # Back leaves the app, as before


def test_a_page_whose_back_led_elsewhere_than_where_it_was_opened_from_keeps_its_back_edge() -> None:
    walk = WalkBack()
    learnt_product_page(walk)
    back(walk, "product", "list")  # not home, where it was opened from
    back(walk, "list", "home")
    restart(walk, "home")
    tap(walk, "home", "Settings", "product")
    hop = walk.first_hop("product", {"home": 1, "list": 1}, SETTINGS)
    assert hop is not None and hop.towards == "list"


def test_a_tap_back_to_the_page_a_page_was_opened_from_opens_nothing() -> None:
    # Up returns to the list: the list was not opened from the product page, and its Back is its own.
    walk = WalkBack()
    tap(walk, "home", "Orders", "list")
    back(walk, "list", "home")
    tap(walk, "home", "Orders", "list")
    tap(walk, "list", "Item", "product")
    tap(walk, "product", "Up", "list")
    hop = walk.first_hop("list", {"home": 1}, SETTINGS)
    assert hop is not None and hop.action == Action(ActionKind.BACK) and hop.towards == "home"


# -- sampled rows ----------------------------------------------------------------------------------------


def rows_screen() -> tuple[Samples, dict[str, str]]:
    rows = [
        v(
            "LinearLayout",
            (0, 200 + i * 150, 1080, 340 + i * 150),
            v("TextView", (40, 210 + i * 150, 1000, 330 + i * 150), text=t),
            rid=f"row_{i}",
            clickable=True,
        )
        for i, t in enumerate(("故宫 10", "故宫 22", "长城 5", "颐和园 7"))
    ]
    screen = screen_of(*rows)
    samples = Samples()
    samples.see(screen)
    return samples, {mark.label: mark.ref for mark in screen.marks}


def test_rows_are_judged_alone_until_enough_of_them_opened_one_layout() -> None:
    samples, refs = rows_screen()
    detail = screen_of(button("Buy", 0))
    for i, label in enumerate(("故宫 10", "长城 5")[:FAMILY_SAMPLE]):
        assert samples.worth(refs["颐和园 7"], "颐和园 7", relevant=False, named=False) is None
        samples.stood_on(f"detail{i}", detail)
        samples.tried(refs[label], label)
        samples.led(refs[label], f"detail{i}")
    assert samples.worth(refs["颐和园 7"], "颐和园 7", relevant=False, named=False) is False


def test_a_sampled_lists_row_is_worth_a_tap_for_the_features_new_words_or_its_whole_name() -> None:
    samples, refs = rows_screen()
    detail = screen_of(button("Buy", 0))
    for i, label in enumerate(("故宫 10", "长城 5")):
        samples.stood_on(f"detail{i}", detail)
        samples.tried(refs[label], label)
        samples.led(refs[label], f"detail{i}")
    assert samples.worth(refs["颐和园 7"], "颐和园 7", relevant=True, named=False) is True
    assert samples.worth(refs["故宫 22"], "故宫 22", relevant=True, named=False) is False  # 故宫 10's words
    assert samples.worth(refs["故宫 22"], "故宫 22", relevant=True, named=True) is True


def test_rows_that_opened_pages_of_different_layouts_are_no_samples_of_each_other() -> None:
    samples, refs = rows_screen()
    samples.stood_on("detail", screen_of(button("Buy", 0)))
    samples.stood_on("map", screen_of(v("EditText", (0, 200, 1080, 300), rid="where", clickable=True)))
    samples.led(refs["故宫 10"], "detail")
    samples.led(refs["长城 5"], "map")
    assert samples.worth(refs["颐和园 7"], "颐和园 7", relevant=False, named=False) is None


def test_a_rows_words_leave_out_its_numbers() -> None:
    assert row_words("故宫 22") == row_words("故宫 10")


# -- scrolled lists --------------------------------------------------------------------------------------


def test_a_scroll_that_moved_nothing_found_the_lists_end_on_that_page_only() -> None:
    scrolls = ListScrolls()
    scrolls.scrolled("feed", "List")
    scrolls.moved("feed", "Feed", "List", changed=True)
    assert "List" not in scrolls.ended("feed")
    scrolls.scrolled("feed", "List")
    scrolls.moved("feed", "Feed", "List", changed=False)
    assert "List" in scrolls.ended("feed") and "List" not in scrolls.ended("other")
    assert scrolls.counts("feed") == {"List": 2}


def test_the_offline_brain_takes_what_a_loop_cut_short_before_it_gives_up() -> None:
    """The guard saw the start page go round: its list's scroll was spent and a button taken. Once nothing
    else is left, the scroll gets its step rather than the run ending with the list unread."""
    rows = [v("TextView", (0, 400 + n * 200, 1080, 600 + n * 200), text=f"今日特价 {n}") for n in range(12)]
    home = screen_of(button("筛选", 0), v("RecyclerView", (0, 400, 1080, 2200), *rows, rid="rv_deals",
                                          scrollable=True))
    brain = OfflineBrain()
    first = synthetic.context(1, screen=home, warning=GuardVerdict(VerdictKind.WARN, "going round"))
    first = replace(first, target=replace(first.target, package=home.package))
    brain.plan(first.target, home)
    assert brain.decide(first).action == Action(ActionKind.TAP, 1)  # the way off the page, not the scroll
    again = replace(first, step=2, warning=None, last=Outcome("tap [1] 筛选", OutcomeKind.NO_CHANGE))
    decision = brain.decide(again)
    assert decision.action is not None and decision.action.kind is ActionKind.SCROLL, decision
