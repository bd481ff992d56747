"""The risk policy has no side doors: every action aimed at a risky element obeys it (tap, long tap,
typing, scrolling), whichever of its text, content-desc, resource-id or inner label carries the risky
word, and an action a project's review hook puts in place of the brain's obeys it too."""

from __future__ import annotations

import pytest

from pytest_fairy.explore.action import Action, ActionKind, Direction
from pytest_fairy.explore.decisions import Decision, Origin
from pytest_fairy.explore.mission import Mission
from pytest_fairy.explore.policy import RiskPolicy
from pytest_fairy.explore.step import choose
from pytest_fairy.perception.screen import Screen
from tests.perception.builder import v
from tests.screens import button, screen_of


def row(top: int, **label: str) -> object:
    return v("Button", (40, top, 1040, top + 120), clickable=True, long_clickable=True, **label)


# One element per way a word can be carried; [5] is a harmless field, [6] a harmless list.
SCREEN = screen_of(
    row(200, text="去支付"),  # text
    row(350, text="Photo", desc="Delete photo"),  # content-desc, not the label a person reads
    row(500, text="Message", rid="btn_send"),  # resource-id, not the label
    v("LinearLayout", (40, 650, 1040, 770), v("TextView", (60, 660, 500, 760), text="退出登录"),
      clickable=True),  # a row read by the text inside it  # fmt: skip
    v("EditText", (40, 800, 1040, 920), text="", rid="search_box", clickable=True, focusable=True),
    v("RecyclerView", (0, 950, 1080, 2200), button("菜单", 6), scrollable=True, rid="menu_list"),
)
PAY, DELETE, SEND, LOGOUT, SEARCH = 1, 2, 3, 4, 5


def number_of(screen: Screen, ref_part: str) -> int:
    return next(m.number for m in screen.marks if ref_part in (m.node.short_id + m.label))


def test_the_screen_is_what_the_tests_assume() -> None:
    labels = {m.number: m.label for m in SCREEN.marks}
    assert labels[PAY] == "去支付" and labels[DELETE] == "Photo" and labels[SEND] == "Message"
    assert labels[LOGOUT] == "退出登录" and labels[SEARCH] == "search_box"


@pytest.mark.parametrize(
    ("mark", "category"),
    [(PAY, "payment"), (DELETE, "delete"), (SEND, "send"), (LOGOUT, "logout")],
    ids=["text", "content-desc", "resource-id", "inner label"],
)
@pytest.mark.parametrize("kind", [ActionKind.TAP, ActionKind.LONG_TAP, ActionKind.TYPE, ActionKind.SCROLL])
def test_every_action_on_a_risky_element_is_denied(kind: ActionKind, mark: int, category: str) -> None:
    if kind is ActionKind.TYPE:
        action = Action(kind, mark, text="hello")
    elif kind is ActionKind.SCROLL:
        action = Action(kind, mark, direction=Direction.DOWN)
    else:
        action = Action(kind, mark)
    denial = RiskPolicy().check(action, SCREEN)
    assert denial is not None and f"looks like a {category} action" in denial
    assert RiskPolicy(allowed=frozenset({category})).check(action, SCREEN) is None


def test_harmless_elements_and_actions_on_no_element_go_ahead() -> None:
    policy = RiskPolicy()
    typing = Action(ActionKind.TYPE, SEARCH, text="delete")
    assert policy.check(typing, SCREEN) is None, "the text typed is not the element"
    menu_list = number_of(SCREEN, "menu_list")
    assert policy.check(Action(ActionKind.SCROLL, menu_list, direction=Direction.DOWN), SCREEN) is None
    for action in (Action(ActionKind.SCROLL, direction=Direction.DOWN), Action(ActionKind.BACK),
                   Action(ActionKind.ENTER), Action(ActionKind.RESTART)):  # fmt: skip
        assert policy.check(action, SCREEN) is None


def test_an_allowed_word_does_not_let_another_category_through() -> None:
    both = screen_of(row(200, text="Pay", rid="btn_delete_card"))
    tap = Action(ActionKind.TAP, 1)
    assert RiskPolicy(allowed=frozenset({"payment"})).check(tap, both) == (
        "denied: 'Pay' looks like a delete action, which this feature does not allow "
        "(add `allow: [delete]` to the feature to permit it)"
    )
    assert RiskPolicy(allowed=frozenset({"payment", "delete"})).check(tap, both) is None


def test_the_typing_that_opens_a_risky_field_goes_through_choose_and_is_denied() -> None:
    choice = choose(Decision(Action(ActionKind.TYPE, SEND, text="hi"), "type a message"), SCREEN, Mission(), 3)
    assert choice.denial.startswith("denied: 'Message' looks like a send action")


@pytest.mark.parametrize(
    "rewrite",
    [Action(ActionKind.TYPE, PAY, text="1234"), Action(ActionKind.LONG_TAP, DELETE),
     Action(ActionKind.SCROLL, SEND, direction=Direction.LEFT)],
    ids=["type", "long_tap", "scroll"],
)  # fmt: skip
def test_a_hook_rewrite_obeys_the_policy_whatever_its_kind(rewrite: Action) -> None:
    def review(action: Action, screen: Screen, step: int) -> Action:
        return rewrite

    harmless = Decision(Action(ActionKind.TAP, SEARCH), "search")
    choice = choose(harmless, SCREEN, Mission(review=review), 2)
    assert choice.taken.origin is Origin.HOOK and choice.taken.action == rewrite
    assert choice.denial.startswith("denied: "), choice


def test_enter_obeys_the_policy_as_an_action_on_the_focused_field() -> None:
    """Enter submits the focused field: a chat box whose id says send sends."""
    chat = v("EditText", (40, 800, 1040, 920), text="", rid="chat_send_input", focusable=True, focused=True)
    focused = screen_of(row(200, text="返回"), chat)
    denial = RiskPolicy().check(Action(ActionKind.ENTER), focused)
    assert denial is not None and "looks like a send action" in denial
    assert RiskPolicy(allowed=frozenset({"send"})).check(Action(ActionKind.ENTER), focused) is None
    unfocused = screen_of(row(200, text="返回"), v("EditText", (40, 800, 1040, 920), text="", rid="chat_send_input"))
    assert RiskPolicy().check(Action(ActionKind.ENTER), unfocused) is None
