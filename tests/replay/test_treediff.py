"""The build-to-build diff on hand-made feature trees: screens and transitions changed, added, gone."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from pytest_fairy.explore.state import StateId
from pytest_fairy.explore.tree import FeatureTree
from pytest_fairy.report.treediff import diff_trees, render_diff_png

HOME = StateId("app.HomeActivity", "home0000")
MENU = StateId("app.MenuActivity", "menu0000")
MENU_V2 = StateId("app.MenuActivity", "menu2222")
DIALOG = StateId("app.MenuActivity", "menu0000", "dlg00000")
DIALOG_V2 = StateId("app.MenuActivity", "menu2222", "dlg22222")
CART = StateId("app.CartActivity", "cart0000")
ABOUT = StateId("app.AboutActivity", "about000")
TITLES = {
    "home": "首页",
    "menu": "菜单",
    "dlg0": "送达时间",
    "dlg2": "送达时间",
    "cart": "购物车",
    "abou": "关于",
}


def walk(*path: tuple[StateId, str]) -> FeatureTree:
    """A tree from a walk: each state with the action key that led to it ("" for the first)."""
    tree = FeatureTree()
    before: StateId | None = None
    for step, (state, action) in enumerate(path):
        title = TITLES[(state.dialog_hash or state.structure_hash)[:4]]
        tree.record(step, before, action or None, state, title, state.has_dialog, action_key=action or None)
        before = state
    return tree


BASE = walk(
    (HOME, ""), (MENU, "tap|btn_menu"), (DIALOG, "tap|tv_time"), (MENU, "tap|btn_ok"), (CART, "tap|cart")
)


def test_the_same_walk_is_clean() -> None:
    diff = diff_trees(BASE, walk((HOME, ""), (MENU, "tap|btn_menu"), (DIALOG, "tap|tv_time"),
                                 (MENU, "tap|btn_ok"), (CART, "tap|cart")))  # fmt: skip
    assert diff.clean and diff.unchanged == 4
    assert diff.lines() == ["no change (4 screens as in the baseline)"]


def test_screens_reached_the_same_way_are_changed_not_lost_and_new() -> None:
    diff = diff_trees(BASE, walk((HOME, ""), (MENU_V2, "tap|btn_menu"), (DIALOG_V2, "tap|tv_time"),
                                 (MENU_V2, "tap|btn_ok"), (CART, "tap|cart")))  # fmt: skip
    assert [(c.before.key, c.after.key) for c in diff.changed] == [
        (MENU.key, MENU_V2.key),
        (DIALOG.key, DIALOG_V2.key),
    ]
    assert diff.added == diff.gone == () and diff.unchanged == 2
    assert diff.transitions_added == diff.transitions_gone == diff.transitions_changed == ()


def test_a_screen_no_longer_reached_is_gone_and_its_way_there_changed() -> None:
    diff = diff_trees(BASE, walk((HOME, ""), (MENU, "tap|btn_menu"), (DIALOG, "tap|tv_time"),
                                 (MENU, "tap|btn_ok"), (MENU, "tap|cart")))  # fmt: skip
    assert [s.key for s in diff.gone] == [CART.key] and diff.added == () and diff.changed == ()
    (changed,) = diff.transitions_changed
    assert (changed.action, changed.was, changed.target) == ("tap|cart", CART.name, MENU.name)
    assert 'gone: state_cart_cart0000 "购物车"' in "\n".join(diff.lines())


def test_new_screens_and_new_crashes_are_added() -> None:
    now = walk((HOME, ""), (MENU, "tap|btn_menu"), (DIALOG, "tap|tv_time"), (MENU, "tap|btn_ok"),
               (CART, "tap|cart"), (ABOUT, "tap|about"))  # fmt: skip
    diff = diff_trees(BASE, now, baseline_crashes=["crash: old"], current_crashes=["crash: old", "anr: new"])
    assert [s.key for s in diff.added] == [ABOUT.key] and diff.gone == ()
    assert [(t.source, t.action, t.target) for t in diff.transitions_added] == [
        (CART.name, "tap|about", ABOUT.name)
    ]
    assert diff.new_crashes == ("anr: new",)
    assert diff.to_dict()["screens"]["added"][0]["title"] == "关于"


def test_an_unreached_screen_is_matched_by_its_look_when_the_way_there_changed() -> None:
    # The menu is now entered by another button: same activity and title, so the same screen, changed.
    diff = diff_trees(BASE, walk((HOME, ""), (MENU_V2, "tap|tab_order")))
    assert [(c.before.key, c.after.key) for c in diff.changed] == [(MENU.key, MENU_V2.key)]
    assert {s.key for s in diff.gone} == {DIALOG.key, CART.key}


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from([HOME, MENU, MENU_V2, DIALOG, DIALOG_V2, CART, ABOUT]), min_size=1, max_size=8),
       st.lists(st.sampled_from(["tap|a", "tap|b", "back"]), min_size=8, max_size=8))  # fmt: skip
def test_every_screen_is_accounted_for_once(states: list[StateId], actions: list[str]) -> None:
    now = walk(*((s, "" if i == 0 else actions[i]) for i, s in enumerate(states)))
    diff = diff_trees(BASE, now)
    kept = {c.before.key for c in diff.changed} | {s.key for s in diff.gone}
    assert len(kept) == len(diff.changed) + len(diff.gone)
    assert diff.unchanged + len(kept) == len(BASE.states)
    assert diff.unchanged + len(diff.changed) + len(diff.added) == len(now.states)
    assert diff_trees(now, now).clean


def test_the_picture_is_a_png_with_both_trees() -> None:
    now = walk((HOME, ""), (MENU_V2, "tap|btn_menu"), (ABOUT, "tap|about"))
    png = render_diff_png(diff_trees(BASE, now), BASE, now)
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.width > 600 and image.height > 200
