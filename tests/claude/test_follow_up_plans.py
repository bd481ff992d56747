"""Longer queued plans: labels quoted with prices and counters that have moved since, the queue's
statistics, and whole plans on the virtual food app - a tour of list rows taken with fewer calls than
actions, and the same tour dropped at the first screen that is not the one the model expected."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from fairy_virtual import VirtualDevice
from fairy_virtual.clock import ManualClock
from pytest_fairy.brain.claude import ClaudeBrain, ClaudeSettings
from pytest_fairy.brain.follow_ups import DropReason, FollowUpQueue, find_label
from pytest_fairy.brain.tools import DEFAULT_MAX_FOLLOW_UPS, FollowUp, PageExpectation, tools_param
from pytest_fairy.explore.action import Action, ActionKind
from pytest_fairy.explore.decisions import Outcome, OutcomeKind
from pytest_fairy.explore.explorer import Explorer
from pytest_fairy.explore.mission import Mission
from pytest_fairy.explore.target import Target
from pytest_fairy.explore.verdict import Verdict
from pytest_fairy.spec.model import Oracle, OracleKind
from tests.claude import answers, synthetic
from tests.claude.conftest import brain_on
from tests.claude.fake_api import FakeMessagesAPI, Reply, tool_reply
from tests.claude.stages import stage_of
from tests.claude.test_follow_ups import CONFIRM, OTHER, WARNING, Steps, after, started
from tests.claude.test_round_trips import user_text
from tests.screens import button, screen_of

FOOD = Path(__file__).resolve().parents[2] / "example_suites" / "food"
DIALOG_TITLE = "请选择您的送达时间"

# -- labels whose dynamic parts moved -----------------------------------------------------------------


def test_a_short_label_is_never_found_inside_a_longer_one() -> None:
    screen = screen_of(button("我的", 0), button("会员码", 1), button("Book now", 2), button("Address", 3))
    for short in ("我", "码", "OK", "Add"):
        assert find_label(screen, short) is None, short
    assert find_label(screen, "会员") is not None  # two CJK characters say enough
    assert find_label(screen_of(button("OK", 0), button("Book now", 1)), "OK") is not None  # exact


def test_a_label_quoted_with_an_old_price_or_count_still_finds_its_element() -> None:
    screen = screen_of(button("巨无霸 ¥27.6", 0), button("麦香鱼 ¥18.0", 1), button("积分 105", 2),
                       button("购物车 (2)", 3))
    assert find_label(screen, "巨无霸 ¥26.9").number == 1  # type: ignore[union-attr]
    assert find_label(screen, "积分 31").number == 3  # type: ignore[union-attr]
    assert find_label(screen, "购物车 (0)").number == 4  # type: ignore[union-attr]


def test_dynamic_parts_never_pick_between_elements_or_stand_for_a_name() -> None:
    stores = screen_of(button("麦当劳 2 号店", 0), button("麦当劳 3 号店", 1), button("12:30", 2))
    assert find_label(stores, "麦当劳 2 号店").number == 1  # type: ignore[union-attr]  # exact first
    assert find_label(stores, "麦当劳 1 号店") is None  # two rows match once numbers are ignored
    assert find_label(stores, "13:00") is None  # a bare time names nothing: no fuzzy match to 12:30
    assert find_label(screen_of(button("¥12", 0)), "¥15") is None


NAMES = st.lists(st.text(alphabet="巨无霸麦香鱼辣鸡腿堡板烧吉士", min_size=2, max_size=5), min_size=1,
                 max_size=6, unique=True)
PRICES = st.decimals(min_value=1, max_value=99, places=1)


@given(NAMES, st.data())
def test_every_row_is_found_again_after_its_price_moved(names: list[str], data: st.DataObject) -> None:
    # Names that contain one another would be ambiguous without their price; the model then is asked.
    if any(a != b and a in b for a in names for b in names):
        return
    old = [f"{name} ¥{data.draw(PRICES)}" for name in names]
    screen = screen_of(*(button(f"{name} ¥{data.draw(PRICES)}", row) for row, name in enumerate(names)))
    for row, label in enumerate(old):
        mark = find_label(screen, label)
        assert mark is not None and mark.number == row + 1


# -- what the queue counts -----------------------------------------------------------------------------


def test_the_statistics_count_taken_completed_dropped_and_pending() -> None:
    queue = FollowUpQueue()
    started(queue, FollowUp(ActionKind.TAP, CONFIRM, None, None, PageExpectation.SAME, None, "confirmed"))
    assert queue.next(after()) is not None  # plan 1 runs to its end
    started(queue, *[FollowUp(ActionKind.TAP, CONFIRM, None, None, PageExpectation.SAME, None, "x")] * 3)
    assert queue.next(after(kind=OutcomeKind.NO_CHANGE)) is None  # plan 2 stops at once: 3 lost
    started(queue, FollowUp(ActionKind.BACK, None, None, None, PageExpectation.OTHER, None, "back"))
    assert queue.next(after(screen=OTHER)) is not None  # plan 3 done as well

    stats = queue.stats
    assert (stats.plans, stats.queued, stats.taken, stats.completed) == (3, 5, 2, 2)
    assert stats.dropped == {DropReason.NO_CHANGE: 3} and stats.stopped == {DropReason.NO_CHANGE: 1}
    assert stats.pending == 0
    assert "2 taken, 3 dropped (3 action had no effect)" in str(stats)

    started(queue, FollowUp(ActionKind.BACK, None, None, None, PageExpectation.OTHER, None, "back"))
    assert queue.stats.pending == 1  # the run may end before it
    queue.reset()
    assert queue.stats.plans == 0


def test_a_guard_warning_and_a_denial_still_drop_a_long_plan() -> None:
    tour = [FollowUp(ActionKind.TAP, CONFIRM, None, None, PageExpectation.SAME, None, "x")] * 5
    for ctx, reason in ((after(warning=WARNING), DropReason.GUARD),
                        (after(kind=OutcomeKind.DENIED, denial="payment"), DropReason.DENIED)):
        queue = FollowUpQueue()
        started(queue, *tour)
        assert queue.next(ctx) is None
        assert queue.stats.dropped == {reason: 5}


def test_the_default_queue_fits_a_tour_of_three_rows() -> None:
    assert ClaudeSettings().max_queued_actions == DEFAULT_MAX_FOLLOW_UPS == 5
    description = tools_param()[1]["input_schema"]["properties"]["then"]["description"]
    assert description.startswith("At most 5 actions") and "open a row, back, open the next" in description


# -- whole plans on the virtual food app ----------------------------------------------------------------


def _explore(brain: ClaudeBrain, steps: Steps) -> Any:
    target = Target(app_name="麦当劳", package="com.mcdonalds.gma.cn", feature="menu browsing",
                    goal="open the products of the 汉堡 list one by one", max_steps=12)
    device = VirtualDevice(FOOD, latency=False, clock=ManualClock())
    return Explorer(device, brain, sinks=[steps]).explore(target, Mission())


# The model has seen the home page; it opens 麦乐送, expects the delivery-time dialog it was told about,
# confirms it, then tours two rows of the list. The prices it quotes are stale on purpose.
TOUR = [
    answers.follow_up(CONFIRM, page="another page", visible=DIALOG_TITLE, expected="the menu"),
    answers.follow_up("巨无霸 ¥99.9", page="another page", visible="汉堡", expected="its detail page"),
    answers.follow_up(None, "back", page="another page", visible="商品详情", expected="the menu again"),
    answers.follow_up("麦辣鸡腿堡 ¥99.9", page="another page", visible="汉堡", expected="its detail page"),
    answers.follow_up(None, "back", page="another page", visible="商品详情", expected="the menu again"),
]


def replace_visible(follow_up: dict[str, Any], visible: str) -> dict[str, Any]:
    return {**follow_up, "when_visible": visible}


def test_a_tour_of_list_rows_takes_six_actions_on_one_call(api: FakeMessagesAPI) -> None:
    api.responder = answers.scripted_model([answers.action("tap", 4, why="open 麦乐送", then=TOUR), answers.action("done", None)])
    brain = brain_on(api, ClaudeSettings(timeout_seconds=5.0, max_retries=0))
    steps = Steps()
    result = _explore(brain, steps)

    assert result.verdict is Verdict.PASSED, result.reason
    assert [s.action.split("¥")[0].strip() for s in steps.records] == [
        "tap [4] 麦乐送", "tap [3] 确定", "tap [6] 巨无霸", "back", "tap [8] 麦辣鸡腿堡", "back"]
    assert [s.reached.split("_")[1] for s in steps.records] == [
        "productmdslist", "productmdslist", "productdetail", "productmdslist", "productdetail", "productmdslist"]
    stages = [stage_of(body) for body in api.bodies]
    assert stages == ["plan", "next_action", "next_action", "judge", "summarize"]
    assert len(stages) < result.steps == 6
    stats = brain.queue_stats
    assert (stats.taken, stats.completed, sum(stats.dropped.values())) == (5, 1, 0)
    assert "All 6 actions of your queued plan were taken" in user_text(api.bodies[2])


def test_the_tour_is_dropped_where_the_screen_is_not_the_expected_one(api: FakeMessagesAPI) -> None:
    # The model expects a row to open a 门店详情 page; it opens 商品详情: back to the model there.
    wrong = [*TOUR[:2], replace_visible(TOUR[2], "门店详情"), *TOUR[3:]]
    api.responder = answers.scripted_model([answers.action("tap", 4, then=wrong), answers.action("done", None)])
    brain = brain_on(api, ClaudeSettings(timeout_seconds=5.0, max_retries=0))
    steps = Steps()
    result = _explore(brain, steps)

    assert [s.action.split("¥")[0].strip() for s in steps.records] == ["tap [4] 麦乐送", "tap [3] 确定", "tap [6] 巨无霸"]
    assert result.steps == 3 and brain.queue_stats.taken == 2
    assert brain.queue_stats.dropped == {DropReason.NOT_VISIBLE: 3}
    text = user_text(api.bodies[2])
    assert "## The current screen: 商品详情" in text
    assert "Your queued plan stopped before step 4/6 (back): '门店详情' is not on the screen" in text


def test_a_plan_survives_a_step_where_the_prices_changed_but_not_a_denial(api: FakeMessagesAPI) -> None:
    """On hand-made screens: the checkout button is risky; a plan through it stops at the denial."""
    basket = screen_of(button("巨无霸 ¥25.0", 0), button("去结算", 1), activity=".CartActivity")
    repriced = screen_of(button("巨无霸 ¥26.0", 0), button("去结算", 1), activity=".CartActivity")
    api.push(tool_reply("next_action", answers.action("tap", 1, then=[
        answers.follow_up("去结算", page="same page"), answers.follow_up("巨无霸 ¥25.0", page="another page")])))
    brain = brain_on(api)
    brain.decide(synthetic.context(3, screen=basket))
    moved = replace(synthetic.context(4, screen=repriced), last=Outcome("tap [1] 巨无霸 ¥25.0",
                                                                          OutcomeKind.CONTENT_CHANGED))
    second = brain.decide(moved)
    assert second.action == Action(ActionKind.TAP, 2)
    denied = replace(synthetic.context(5, screen=repriced),
                     last=Outcome("tap [2] 去结算", OutcomeKind.DENIED, "payment"), denial="payment")
    api.push(tool_reply("next_action", answers.action("back", None)))
    assert brain.decide(denied).action == Action(ActionKind.BACK)
    assert brain.queue_stats.dropped == {DropReason.DENIED: 1}
    assert "was denied (payment)" in user_text(api.bodies[-1])


def test_the_judge_is_asked_again_on_a_screen_only_after_new_ground(api: FakeMessagesAPI) -> None:
    # 送达时间 is on the menu page, which the plan passes twice (and once under the dialog).
    judged: list[str] = []
    model = answers.scripted_model([answers.action("tap", 4, then=TOUR[:3]), answers.action("done", None)])

    def respond(request: dict[str, Any]) -> Reply:
        if stage_of(request) != "judge":
            return model(request)
        judged.append(user_text(request).rsplit("## The current screen: ", 1)[-1].split(")", 1)[0])
        return tool_reply("judge", {**answers.JUDGE, "verdict": "continue", "feature_completed": False})

    api.responder = respond
    brain = brain_on(api, ClaudeSettings(timeout_seconds=5.0, max_retries=0))
    steps = Steps()
    target = Target(app_name="麦当劳", package="com.mcdonalds.gma.cn", feature="menu browsing",
                    goal="open a product of the 汉堡 list", max_steps=12)
    mission = Mission(done_when=(Oracle(kind=OracleKind.VISIBLE, value="送达时间"),))
    device = VirtualDevice(FOOD, latency=False, clock=ManualClock())
    Explorer(device, brain, sinks=[steps]).explore(target, mission)

    assert [s.reached.split("_")[1] for s in steps.records] == [
        "productmdslist", "productmdslist", "productdetail", "productmdslist"]
    # The oracle held after steps 1, 2 and 4. Steps 2 and 4 show the same menu, but the product page was
    # found in between, so the menu is judged again (new ground may change the judge's mind); then the
    # final judgement when the model is done. tests/explorer checks no progress means no second ask.
    assert len(judged) == 4 and judged[0] != judged[1] == judged[2] == judged[3], judged
