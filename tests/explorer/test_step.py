"""The step's phases that need no device and no brain: what an action did, what a step takes after the
risk policy and the project's review, the explorer's own ways out, and what the course counts."""

from __future__ import annotations

from pytest_fairy.explore.action import Action, ActionKind
from pytest_fairy.explore.decisions import (
    ESCAPE_PREFIX,
    RETURN_PREFIX,
    Decision,
    Origin,
    OutcomeKind,
    StepContext,
)
from pytest_fairy.explore.guard import Escape, GuardVerdict, VerdictKind
from pytest_fairy.explore.mission import Mission
from pytest_fairy.explore.oracles import Finding, Observation
from pytest_fairy.explore.policy import RiskPolicy
from pytest_fairy.explore.record import StepRecord
from pytest_fairy.explore.state import StateId
from pytest_fairy.explore.step import (
    Attempt,
    Course,
    Reading,
    choose,
    escape_from,
    outcome_of,
    read_oracles,
    return_step,
)
from pytest_fairy.explore.target import Target
from pytest_fairy.explore.tree import RecordResult
from pytest_fairy.perception.screen import Screen
from pytest_fairy.spec.model import Oracle, OracleKind
from tests.screens import button, screen_of

# [1] 菜单, [2] 订阅 (a purchase: the default policy denies it), [3] 设置
SHOP = screen_of(button("菜单", 0), button("订阅", 1), button("设置", 2))
MENU, SUBSCRIBE, SETTINGS = 1, 2, 3
TAP_MENU = Decision(Action(ActionKind.TAP, MENU), "the menu is the feature")
HOME, MENU_PAGE = StateId(".Home", "h1"), StateId(".Menu", "m1")
NOTHING_NEW = RecordResult(new_state=False, new_transition=False, content_changed=False)
TARGET = Target(app_name="shop", package="com.example.shop", feature="menu", goal="browse the menu")


def reviewing(answer: str | Action | None, asked: list[int] | None = None) -> Mission:
    def review(action: Action, screen: Screen, step: int) -> str | Action | None:
        if asked is not None:
            asked.append(step)
        return answer

    return Mission(review=review)


# -- choose: the risk policy, then the review -------------------------------------------------------------


def test_an_allowed_action_is_taken_as_decided() -> None:
    choice = choose(TAP_MENU, SHOP, Mission(), 1)
    assert choice.decided is TAP_MENU and choice.taken is TAP_MENU
    assert choice.words == "tap [1] 菜单" and choice.key.startswith("tap|")
    assert choice.denial == "" and choice.error == ""


def test_a_risky_action_is_denied_and_the_review_is_not_asked() -> None:
    asked: list[int] = []
    choice = choose(Decision(Action(ActionKind.TAP, SUBSCRIBE), "subscribe"), SHOP, reviewing(None, asked), 4)
    assert choice.denial.startswith("denied: '订阅' looks like a purchase action")
    assert asked == []
    allowed = Mission(policy=RiskPolicy(allowed=frozenset({"purchase"})))
    assert choose(Decision(Action(ActionKind.TAP, SUBSCRIBE), "subscribe"), SHOP, allowed, 4).denial == ""


def test_a_review_veto_denies_with_its_reason() -> None:
    asked: list[int] = []
    assert choose(TAP_MENU, SHOP, reviewing("not today", asked), 7).denial == "vetoed: not today"
    assert asked == [7], "the review is told the step number"
    assert choose(TAP_MENU, SHOP, reviewing(""), 7).denial == "vetoed: (no reason given)"


def test_a_review_rewrite_is_taken_with_the_hook_as_its_origin() -> None:
    choice = choose(TAP_MENU, SHOP, reviewing(Action(ActionKind.TAP, SETTINGS)), 2)
    assert choice.decided is TAP_MENU
    assert choice.taken.origin is Origin.HOOK and choice.taken.action == Action(ActionKind.TAP, SETTINGS)
    assert choice.taken.reasoning == "the menu is the feature (rewritten by a hook: the brain chose tap [1] 菜单)"
    assert choice.words == "tap [3] 设置" and choice.denial == ""


def test_a_rewrite_obeys_the_policy_too() -> None:
    choice = choose(TAP_MENU, SHOP, reviewing(Action(ActionKind.TAP, SUBSCRIBE)), 2)
    assert choice.taken.origin is Origin.HOOK
    assert choice.denial.startswith("denied: '订阅' looks like a purchase action")


def test_a_mark_not_on_the_screen_is_an_error_of_the_step_not_an_exception() -> None:
    choice = choose(Decision(Action(ActionKind.TAP, 99), "a stale mark"), SHOP, reviewing("never asked"), 1)
    assert choice.error == "mark [99] is not on this screen (it has 1..3)"
    assert choice.words == choice.key == "tap [99] ?" and choice.denial == ""


# -- the explorer's own decisions -----------------------------------------------------------------------


def test_escapes_say_they_are_escapes_by_origin_and_in_words() -> None:
    back = escape_from(GuardVerdict(VerdictKind.ESCAPE, "same state 4 steps", escape=Escape.BACK), SHOP)
    restart = escape_from(GuardVerdict(VerdictKind.ESCAPE, "still looping", escape=Escape.RESTART), SHOP)
    assert back.origin is restart.origin is Origin.ESCAPE
    assert back.action == Action(ActionKind.BACK) and back.reasoning == f"{ESCAPE_PREFIX}: same state 4 steps; go back"
    assert restart.action == Action(ActionKind.RESTART) and restart.reasoning.endswith("; restart the app")
    # No dialog to dismiss on this screen: back instead, saying why.
    dismiss = escape_from(GuardVerdict(VerdictKind.ESCAPE, "x", escape=Escape.DISMISS_DIALOG), SHOP)
    assert dismiss.action == Action(ActionKind.BACK) and "no close button" in dismiss.reasoning


def test_a_return_step_goes_back_outside_a_dialog() -> None:
    way_out = return_step(SHOP, "'menu' is complete")
    assert way_out.origin is Origin.RETURN and way_out.action == Action(ActionKind.BACK)
    assert way_out.reasoning == f"{RETURN_PREFIX}: 'menu' is complete; go back"


# -- what an action did, and what the course counts -----------------------------------------------------


def attempt(*, denial: str = "", error: str = "", escape: bool = False) -> Attempt:
    record = StepRecord(step=1, state=HOME.name, title="", screen_text="", action="tap [1] 菜单",
                        reasoning="", escape=escape)  # fmt: skip
    return Attempt("tap [1] 菜单", "tap|menu||", HOME, record, denial, error)


def test_the_outcome_says_what_the_attempt_did() -> None:
    new = RecordResult(new_state=True, new_transition=True, content_changed=False)
    content = RecordResult(new_state=False, new_transition=False, content_changed=True)
    assert outcome_of(None, HOME, new) is None
    assert outcome_of(attempt(denial="denied: no"), HOME, NOTHING_NEW).kind is OutcomeKind.DENIED  # type: ignore[union-attr]
    assert outcome_of(attempt(error="mark [9]"), HOME, NOTHING_NEW).kind is OutcomeKind.FAILED  # type: ignore[union-attr]
    assert outcome_of(attempt(), MENU_PAGE, new).kind is OutcomeKind.NEW_STATE  # type: ignore[union-attr]
    assert outcome_of(attempt(), MENU_PAGE, NOTHING_NEW).kind is OutcomeKind.STATE_CHANGED  # type: ignore[union-attr]
    assert outcome_of(attempt(), HOME, content).kind is OutcomeKind.CONTENT_CHANGED  # type: ignore[union-attr]
    assert outcome_of(attempt(), HOME, NOTHING_NEW).kind is OutcomeKind.NO_CHANGE  # type: ignore[union-attr]


def test_the_course_counts_steps_and_escapes_and_keeps_the_attempt_until_it_arrives() -> None:
    course = Course().acted(attempt()).acted(attempt(escape=True))
    assert (course.steps, course.escapes) == (2, 1)
    assert course.awaiting is not None and course.awaiting.record.escape
    assert Course(steps=2, awaiting=attempt()).saw(_ctx(oracles_met=False)).oracles_seen is False
    seen = Course().saw(_ctx(oracles_met=True)).saw(_ctx(oracles_met=False))
    assert seen.oracles_seen, "once the oracles held, the course remembers it"


# -- the oracles -----------------------------------------------------------------------------------------


def test_the_oracles_read_defects_checks_and_done_when_conditions() -> None:
    observed = Observation(SHOP, "", HOME.name)
    assert read_oracles(Mission(), TARGET, observed) == Reading((), (), False), "no done-when: never met"
    done = Mission(done_when=(Oracle(kind=OracleKind.VISIBLE, value="菜单"),))
    assert read_oracles(done, TARGET, observed) == Reading((), (), True)
    missing = Mission(done_when=(Oracle(kind=OracleKind.VISIBLE, value="购物车"),))
    assert read_oracles(missing, TARGET, observed).unmet == ("visible: 购物车 (no view shows '购物车')",)
    finding = Finding("custom", "the menu is empty", "")
    checked = Mission(checks=(lambda _: [finding],))
    assert read_oracles(checked, TARGET, observed).findings == (finding,)


def _ctx(*, oracles_met: bool) -> StepContext:
    from dataclasses import replace

    from tests.claude import synthetic

    return replace(synthetic.context(2), oracles_met=oracles_met)
