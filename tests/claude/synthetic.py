"""A synthetic exploration for the Claude brain's tests and benchmark: step contexts as the explorer
builds them (a real FeatureTree and LoopGuard behind the recent-states and tree texts), over a dozen
pages visited in a loop that keeps finding a new page now and then, as a long run does."""

from __future__ import annotations

import io
from collections.abc import Iterator
from functools import cache

from PIL import Image

from pytest_fairy.explore.decisions import Outcome, OutcomeKind, Plan, StepContext
from pytest_fairy.explore.guard import GuardLimits, LoopGuard, VerdictKind
from pytest_fairy.explore.run import BRAIN_SUMMARY
from pytest_fairy.explore.state import StateId
from pytest_fairy.explore.target import Target
from pytest_fairy.explore.tree import FeatureTree
from pytest_fairy.perception.screen import Screen
from tests.screens import button, screen_of

TARGET = Target(
    app_name="麦当劳",
    package="com.example.app",
    feature="delivery ordering",
    goal="麦乐送点餐功能: browse the menu, choose a product, add it to the cart",
    description="fast-food ordering app",
    start="home screen",
    sub_features=("menu browsing", "product options", "delivery time"),
    done_hints=("购物车",),
    max_steps=1000,
)
PLAN = Plan(root="delivery ordering", sub_features=TARGET.sub_features,
            steps=("tap [2] 麦乐送 -> the delivery menu", "tap a product -> its options"))
PAGES = 12


def jpeg(width: int = 360, height: int = 800, colour: str = "white") -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(buffer, "JPEG", quality=70)
    return buffer.getvalue()


@cache
def page(number: int) -> Screen:
    labels = ("返回", f"分类 {number}", "麦乐送", f"商品 {number}", "加入购物车")
    return screen_of(*(button(label, row) for row, label in enumerate(labels)),
                     activity=f".Page{number}Activity")


def state_of(number: int) -> StateId:
    return StateId(f"com.example.app.Page{number}Activity", f"{number:08x}structure", "", f"{number:08x}c")


def context(step: int, *, screen: Screen | None = None, last: Outcome | None = None, warning=None,
            som: bytes = b"", immediate: bytes = b"", unmet: tuple[str, ...] = ("visible: 购物车",),
            oracles_met: bool = False) -> StepContext:
    """One hand-made context on page 1, for round-trip tests."""
    return StepContext(
        step=step, target=TARGET, plan=PLAN, screen=screen or page(1), som_jpeg=som or jpeg(),
        state=state_of(1), last=last, recent_states="Recent states (oldest first):\n  step 1: state_page1",
        tree_summary="1 states, 0 transitions", warning=warning, unmet_oracles=unmet,
        oracles_met=oracles_met, immediate_jpeg=immediate,
    )


def run(steps: int, som: bytes | None = None) -> Iterator[StepContext]:
    """The contexts of a `steps`-long exploration, built the way the explorer builds them."""
    image = som if som is not None else jpeg()
    tree = FeatureTree()
    tree.add_feature(TARGET.feature)
    guard = LoopGuard(GuardLimits(stagnation_stop=10 * steps + 100))
    before: StateId | None = None
    action: str | None = None
    for step in range(1, steps + 1):
        # Mostly a walk over known pages; every seventh step opens a page never seen before.
        number = step if step % 7 == 0 else step % PAGES
        state = state_of(number)
        screen = page(number % PAGES)
        change = tree.record(step=step - 1, before=before, action=action, after=state, title=screen.title,
                             is_dialog=False, action_key=action)
        last = None
        if action is not None:
            kind = (OutcomeKind.NEW_STATE if change.new_state else OutcomeKind.STATE_CHANGED
                    if before is not None and before.key != state.key else OutcomeKind.NO_CHANGE)
            last = Outcome(action, kind, state.name)
        verdict = guard.observe(step=step - 1, state=state, action_key=action, succeeded=True,
                                new_state=change.new_state, new_transition=change.new_transition)
        yield StepContext(
            step=step, target=TARGET, plan=PLAN, screen=screen, som_jpeg=image, state=state, last=last,
            recent_states=guard.evidence(), tree_summary=tree.summary_text(limits=BRAIN_SUMMARY),
            warning=None if verdict.kind is VerdictKind.OK else verdict,
            unmet_oracles=("visible: 购物车",), oracles_met=False,
            loop_facts=guard.evidence(path=False), visits=tree.states[state.key].visits,
        )
        before, action = state, f"tap [{1 + step % 5}] {screen.marks[step % 5].label}"
