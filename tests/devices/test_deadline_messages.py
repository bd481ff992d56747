"""Messages that point at the right step: an item whose device stopped answering after step N says
"after step N", never "before any step" (pytest_fairy.report.allure.where_shown builds that pointer)."""

from __future__ import annotations

from pytest_fairy.explore.decisions import Plan
from pytest_fairy.explore.record import Exploration
from pytest_fairy.explore.state import StateId
from pytest_fairy.explore.target import Target
from pytest_fairy.explore.tree import FeatureTree
from pytest_fairy.explore.verdict import Verdict
from pytest_fairy.report.allure import where_shown

REASON = "device error: device 127.0.0.1:5555 stopped answering (take a screenshot, no answer in 20 s)"
HOME, CART = StateId("Home", "aaaa1111"), StateId("Cart", "bbbb2222")


def ended(tree: FeatureTree, steps: int) -> Exploration:
    target = Target(app_name="Shop", package="com.shop", feature="cart", goal="add to cart")
    return Exploration(
        target=target, verdict=Verdict.INCONCLUSIVE, reason=REASON, plan=Plan(root="cart"), tree=tree,
        steps=steps, summary="",
    )


def first_screen_only() -> FeatureTree:
    tree = FeatureTree()
    tree.record(0, None, None, HOME, "Home", False)
    return tree


def test_a_device_lost_after_step_one_names_step_one() -> None:
    # Step 1's tap was taken; the device stopped answering before the screen it led to was read.
    assert where_shown(ended(first_screen_only(), steps=1)) == (
        "the run ended after step 1, before the screen it led to was recorded"
    )


def test_only_a_run_without_steps_ended_before_any_step() -> None:
    assert where_shown(ended(first_screen_only(), steps=0)) == "seen on the app's first screen, before any step"


def test_steps_after_the_last_screen_read_are_named_with_that_screen() -> None:
    tree = first_screen_only()
    tree.record(1, HOME, "tap [2] Cart", CART, "Cart", False)
    assert where_shown(ended(tree, steps=3)) == (
        "the run ended after step 3, before the screen it led to was recorded; the last screen reached: "
        "see the report step '1. tap [2] Cart → Cart [state_cart_bbbb2222]'"
    )
    assert where_shown(ended(tree, steps=1)) == (
        "the run ended after step 1: see the report step '1. tap [2] Cart → Cart [state_cart_bbbb2222]'"
    )
