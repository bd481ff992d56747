"""A keep the app did not keep (explore/keeps_kept.py): 收藏 said 收藏成功, then 我的收藏 says it holds none. Only
a keep tapped once and never taken back since, and a page of the keep's words with no row on it."""

from __future__ import annotations

from pathlib import Path

from pytest_fairy.explore.decisions import Outcome, OutcomeKind
from pytest_fairy.explore.facts import Control, Facts
from pytest_fairy.explore.keeps_kept import Forgotten, Keeps
from pytest_fairy.explore.tried import Log, Tried
from pytest_fairy.explore.verdict import Verdict
from pytest_fairy.perception.screen import Screen
from tests.explorer.inline_apps import explore_inline
from tests.perception.builder import v
from tests.screens import screen_of

KEEP = Facts(control=Control.BUTTON, toast="收藏成功")
OPEN = Facts(control=Control.BUTTON, retitled=True)


def page(title: str, *texts: str, rows: int = 0) -> Screen:
    views = [v("TextView", (40, 60, 1040, 160), text=title, rid="toolbar_title")]
    views += [
        v("TextView", (40, 300 + 120 * i, 1040, 400 + 120 * i), text=text) for i, text in enumerate(texts)
    ]
    if rows:
        items = [
            v(
                "TextView",
                (0, 900 + 150 * i, 1080, 1040 + 150 * i),
                text=f"房源 {i}",
                rid="row",
                clickable=True,
            )
            for i in range(rows)
        ]
        views.append(
            v(
                "androidx.recyclerview.widget.RecyclerView",
                (0, 900, 1080, 2000),
                *items,
                rid="rv",
                scrollable=True,
            )
        )
    return screen_of(*views)


DETAIL = page("房源详情", "陆家嘴 世茂滨江花园")
MINE = page("我的")
EMPTY = page("我的收藏", "暂无收藏的房源")


def test_a_keep_said_done_then_its_page_empty_is_a_keep_not_kept() -> None:
    keeps = Keeps()
    assert keeps.arrived(3, "btn_fav", "收藏", KEEP, (DETAIL, DETAIL)) is None
    assert keeps.arrived(8, "tab_mine", "我的", OPEN, (DETAIL, MINE)) is None
    forgotten = keeps.arrived(9, "row_fav", "我的收藏", OPEN, (MINE, EMPTY))
    assert str(forgotten) == "showed '暂无收藏的房源', though step 3 (收藏) said '收藏成功'"


def test_what_the_run_may_have_undone_itself_is_no_keep_not_kept() -> None:
    twice = Keeps()  # 收藏 then 收藏 again on one button: the second may have taken the first back
    twice.arrived(3, "btn_fav", "收藏", KEEP, (DETAIL, DETAIL))
    twice.arrived(4, "btn_fav", "收藏", KEEP, (DETAIL, DETAIL))
    assert twice.arrived(9, "row_fav", "我的收藏", OPEN, (MINE, EMPTY)) is None
    undone = Keeps()
    undone.arrived(3, "btn_fav", "收藏", KEEP, (DETAIL, DETAIL))
    undone.arrived(
        4, "btn_unfav", "取消收藏", Facts(control=Control.BUTTON, toast="已取消"), (DETAIL, DETAIL)
    )
    assert undone.arrived(9, "row_fav", "我的收藏", OPEN, (MINE, EMPTY)) is None


def test_only_a_page_of_the_keeps_words_with_no_row_that_says_it_is_empty() -> None:
    for reached in (
        page("我的订单", "暂无订单"),
        page("我的收藏", "暂无收藏的商品", rows=2),
        page("我的收藏", "共 1 套"),
    ):
        keeps = Keeps()
        keeps.arrived(3, "btn_fav", "收藏", KEEP, (DETAIL, DETAIL))
        assert keeps.arrived(9, "row", "open", OPEN, (MINE, reached)) is None, reached.title
    silent = Keeps()  # a keep that said nothing: nothing was said kept
    silent.arrived(3, "btn_fav", "收藏", Facts(control=Control.BUTTON), (DETAIL, DETAIL))
    assert silent.arrived(9, "row_fav", "我的收藏", OPEN, (MINE, EMPTY)) is None


def test_a_keep_of_favourites_by_another_word_is_its_page_and_no_other_keep_is() -> None:
    favourites = page("My favourites", "Nothing saved yet")
    for label in ("Save", "Bookmark"):
        keeps = Keeps()
        keeps.arrived(3, "btn_keep", label, Facts(control=Control.BUTTON, toast="Done"), (DETAIL, DETAIL))
        assert str(keeps.arrived(9, "row_fav", "My favourites", OPEN, (MINE, favourites))).startswith(
            "showed 'Nothing saved yet', though step 3"
        ), label
    profile = screen_of(  # a form's Save saves the form, not a favourite
        v("TextView", (40, 60, 1040, 160), text="Edit profile", rid="toolbar_title"),
        v("EditText", (40, 300, 1040, 400), text="Alex", rid="et_name", clickable=True, focusable=True),
    )
    form = Keeps()
    form.arrived(3, "btn_save", "Save", Facts(control=Control.BUTTON, toast="Saved"), (profile, profile))
    assert form.arrived(9, "row_fav", "My favourites", OPEN, (MINE, favourites)) is None
    cart = Keeps()  # a basket is not favourites
    cart.arrived(3, "btn_cart", "加入购物车", Facts(control=Control.BUTTON, toast="已加入"), (DETAIL, DETAIL))
    assert cart.arrived(9, "row_fav", "My favourites", OPEN, (MINE, favourites)) is None


# Recipes saved to Saved: the broken build says `Recipe saved` and keeps nothing.
RECIPES = """
app: {name: Pantry, package: com.example.pantry, launch: home}
variables: {saved: false, soup: false}
screens:
  - id: home
    activity: .HomeActivity
    title: Pantry
    up: false
    elements:
      - {id: row_pancakes, text: Pancakes, on_tap: [{go: recipe}]}
      - {id: row_soup, text: Tomato soup, on_tap: [{go: soup}]}
      - {class: Button, id: btn_saved, text: Saved recipes, on_tap: [{go: saved}]}
  - id: recipe
    activity: .RecipeActivity
    title: Pancakes
    elements:
      - {class: Button, id: btn_save, text: Save recipe, on_tap: [{set: {saved: true}}, {toast: Recipe saved}]}
  - id: soup
    activity: .RecipeActivity
    title: Tomato soup
    elements:
      - {class: Button, id: btn_save, text: Save recipe, on_tap: [{set: {soup: true}}, {toast: Recipe saved}]}
  - id: saved
    activity: .SavedActivity
    title: Saved recipes
    elements:
      - {text: No saved recipes yet, when: not saved}
      - {text: Pancakes · saved, when: saved}
"""
SPEC = """
app: {name: Pantry, package: com.example.pantry, virtual: app.yaml}
features:
  - name: save a recipe
    goal: open Pancakes, tap Save recipe, then find it under Saved recipes; then save Tomato soup too
    max_steps: 12
    done_when: [{visible: Pancakes · saved}]
"""


def test_the_app_that_says_saved_and_keeps_nothing_fails_at_its_saved_page(tmp_path: Path) -> None:
    # The run saves Tomato soup after it saw Saved recipes empty: what it saw then stands.
    broken = explore_inline(tmp_path, RECIPES.replace("[{set: {saved: true}}, {toast", "[{toast"), SPEC)
    assert broken.verdict is Verdict.FAILED, broken.reason
    assert "showed 'No saved recipes yet', though step 2 (Save recipe) said 'Recipe saved'" in broken.reason
    assert "(reproduced 2/2" in broken.reason, broken.reason
    assert explore_inline(tmp_path, RECIPES, SPEC).verdict is Verdict.PASSED


def test_a_saved_page_empty_once_and_not_on_the_replay_confirms_nothing(tmp_path: Path) -> None:
    # Saved recipes shows its empty text on its first visit only (a count kept over launches): the replay
    # does not see it again, and the item is inconclusive, saying so.
    once = RECIPES.replace("[{set: {saved: true}}, {toast", "[{toast")
    once = once.replace("soup: false}", "soup: false, visits: {initial: 0, persist: true}}")
    once = once.replace(
        "    title: Saved recipes\n", "    title: Saved recipes\n    on_show: [{inc: {visits: 1}}]\n"
    )
    once = once.replace("when: not saved}", 'when: "not saved and visits < 2"}')
    result = explore_inline(tmp_path, once, SPEC.replace("features:", "defaults: {reset: none}\nfeatures:"))
    assert result.verdict is Verdict.INCONCLUSIVE, result.reason
    assert result.reason.startswith("seen once, not reproduced in "), result.reason
    assert "this time Saved recipes did not show 'No saved recipes yet', not: showed" in result.reason


def test_a_keep_found_not_kept_stands_whatever_the_run_did_after() -> None:
    # 收藏 tapped again later changes the app's data; what 我的收藏 showed before it stands all the same:
    # the replay stops at 我的收藏.
    def tapped(
        step: int, label: str, kind: OutcomeKind, facts: Facts, forgotten: Forgotten | None = None
    ) -> Tried:
        return Tried(
            step, f"tap {label}", label, "房源详情", Outcome("tap", kind), "", facts, forgotten=forgotten
        )

    log = Log()
    forgotten = Forgotten("收藏", "收藏成功", 2, "暂无收藏的房源")
    arrival = tapped(4, "我的收藏", OutcomeKind.NEW_STATE, OPEN, forgotten=forgotten)
    for tried in (tapped(2, "收藏", OutcomeKind.CONTENT_CHANGED, KEEP), arrival):
        log.add(tried)
    log.add(tapped(7, "收藏", OutcomeKind.CONTENT_CHANGED, KEEP))
    assert log.evidence(["在房源详情点 收藏，再到 我的收藏 里看到它"]) is arrival


# -- a kept thing its page does not list -----------------------------------------------------------------

SAVED = Facts(control=Control.BUTTON, toast="Saved")
LISBON, HANOI = page("Lisbon", "Lisbon: 6.8k people like it"), page("Hanoi", "Hanoi: 2.3k people like it")


def kept_both() -> Keeps:
    keeps = Keeps()  # one Save button on every destination's page: one ref, two pages
    keeps.arrived(3, "btn_save", "Save", SAVED, (LISBON, LISBON))
    keeps.arrived(6, "btn_save", "Save", SAVED, (HANOI, HANOI))
    return keeps


def test_a_kept_thing_missing_beside_another_kept_one_was_not_kept() -> None:
    forgotten = kept_both().arrived(
        9, "row_fav", "My favourites", OPEN, (MINE, page("My favourites", "Hanoi"))
    )
    assert forgotten is not None and forgotten.missing == "Lisbon"
    assert str(forgotten) == "did not list 'Lisbon', though step 3 (Save) said 'Saved'"


def test_a_page_that_names_no_kept_thing_or_hides_rows_proves_nothing_missing() -> None:
    # Its rows name no kept thing by its page's title (`Hanoian food` is not Hanoi): nothing says how Lisbon
    # would be listed.
    for shown in ("Hanoian food", "Kyoto"):
        assert (
            kept_both().arrived(9, "f", "My favourites", OPEN, (MINE, page("My favourites", shown))) is None
        )
    # Both listed: kept.
    both = page("My favourites", "Hanoi", "Lisbon")
    assert kept_both().arrived(9, "f", "My favourites", OPEN, (MINE, both)) is None
    # A list whose rows reach its bottom edge may hold Lisbon further down.
    rows = [
        v("TextView", (0, 300 + 200 * i, 1080, 500 + 200 * i), text=t, rid="row")
        for i, t in enumerate(("Hanoi", "Kyoto", "Rome", "Oslo", "Paris", "Lima", "Cairo", "Quito", "Tunis"))
    ]
    full = screen_of(
        v("TextView", (40, 60, 1040, 160), text="My favourites", rid="toolbar_title"),
        v(
            "androidx.recyclerview.widget.RecyclerView",
            (0, 300, 1080, 2000),
            *rows,
            rid="rv",
            scrollable=True,
        ),
    )
    assert kept_both().arrived(9, "f", "My favourites", OPEN, (MINE, full)) is None
    # Not a page of the keep's words.
    assert (
        kept_both().arrived(9, "f", "Recently viewed", OPEN, (MINE, page("Recently viewed", "Hanoi"))) is None
    )


def test_a_thing_kept_on_another_kind_of_page_says_nothing_of_how_this_one_is_listed() -> None:
    # Hanoi the hotel, kept from a hotel's page: favourites may list hotels and destinations apart.
    hotel = screen_of(
        v("TextView", (40, 60, 1040, 160), text="Hanoi", rid="toolbar_title"), activity=".HotelActivity"
    )
    keeps = Keeps()
    keeps.arrived(3, "btn_save", "Save", SAVED, (LISBON, LISBON))
    keeps.arrived(6, "btn_save", "Save", SAVED, (hotel, hotel))
    assert keeps.arrived(9, "f", "My favourites", OPEN, (MINE, page("My favourites", "Hanoi"))) is None


def test_a_thing_kept_twice_on_its_page_may_have_been_taken_back() -> None:
    keeps = kept_both()
    keeps.arrived(7, "btn_save", "Save", SAVED, (LISBON, LISBON))  # the second tap may have undone the first
    assert keeps.arrived(9, "f", "My favourites", OPEN, (MINE, page("My favourites", "Hanoi"))) is None


TWO_RECIPES = RECIPES.replace(
    "      - {text: No saved recipes yet, when: not saved}\n      - {text: Pancakes · saved, when: saved}\n",
    "      - {text: No saved recipes yet, when: not saved and not soup}\n"
    "      - {text: Pancakes, when: saved}\n      - {text: Tomato soup, when: soup}\n",
)
BOTH_SPEC = """
app: {name: Pantry, package: com.example.pantry, virtual: app.yaml}
features:
  - name: save two recipes
    goal: open Pancakes and tap Save recipe, open Tomato soup and tap Save recipe, then find both under Saved recipes
    max_steps: 20
    done_when: [{activity: .SavedActivity}, {visible: Pancakes}, {visible: Tomato soup}]
"""


def test_the_app_that_keeps_one_recipe_of_two_fails_at_the_page_that_lists_the_other(tmp_path: Path) -> None:
    assert "{text: Tomato soup, when: soup}" in TWO_RECIPES
    broken = explore_inline(
        tmp_path, TWO_RECIPES.replace("[{set: {saved: true}}, {toast", "[{toast"), BOTH_SPEC
    )
    assert broken.verdict is Verdict.FAILED, broken.reason
    assert "did not list 'Pancakes', though step 2 (Save recipe) said 'Recipe saved'" in broken.reason
    assert "(reproduced 2/2" in broken.reason, broken.reason
    assert explore_inline(tmp_path, TWO_RECIPES, BOTH_SPEC).verdict is Verdict.PASSED


def test_a_kept_thing_the_feature_names_points_to_it_though_its_keep_is_unnamed() -> None:
    # "The saved 'Lisbon' shows in My favourites": not the Save button, but Lisbon is the feature's.
    forgotten = Forgotten("Save", "Saved", 3, "", missing="Lisbon")
    arrival = Tried(
        9,
        "tap My favourites",
        "My favourites",
        "Me",
        Outcome("tap", OutcomeKind.NEW_STATE),
        "",
        OPEN,
        forgotten=forgotten,
    )
    log = Log()
    log.add(Tried(3, "tap Save", "Save", "Lisbon", Outcome("tap", OutcomeKind.CONTENT_CHANGED), "", SAVED))
    log.add(arrival)
    assert log.evidence(["The saved 'Lisbon' shows in My favourites"]) is arrival
    assert str(arrival.against) == "what 'Save' kept lists 'Lisbon'"
