import pytest

from pytest_fairy.explore.action import Action, ActionError, ActionKind, Direction
from pytest_fairy.explore.policy import RiskPolicy
from tests.screens import button, screen_of


@pytest.fixture
def shop():
    return screen_of(
        button("去支付", 0), button("Display settings", 1), button("删除地址", 2), button("菜单", 3)
    )


def mark_of(screen, text):
    return next(m.number for m in screen.marks if m.label == text)


def test_pay_is_denied_with_the_category_and_the_way_to_allow_it(shop):
    denial = RiskPolicy().check(Action(ActionKind.TAP, mark_of(shop, "去支付")), shop)
    assert denial is not None
    assert "payment" in denial and "allow: [payment]" in denial


def test_allowed_category_goes_ahead_unless_forbidden(shop):
    pay = Action(ActionKind.TAP, mark_of(shop, "去支付"))
    assert RiskPolicy(allowed=frozenset({"payment"})).check(pay, shop) is None
    assert RiskPolicy(allowed=frozenset({"payment"}), forbidden=frozenset({"payment"})).check(pay, shop)


def test_harmless_labels_and_non_tap_actions_pass(shop):
    policy = RiskPolicy()
    assert policy.check(Action(ActionKind.TAP, mark_of(shop, "Display settings")), shop) is None
    assert policy.check(Action(ActionKind.TAP, mark_of(shop, "菜单")), shop) is None
    assert policy.check(Action(ActionKind.BACK), shop) is None


def test_extra_words_from_the_spec_extend_the_table(shop):
    policy = RiskPolicy(extra_words={"ordering": ["菜单"]})
    assert "ordering" in (policy.check(Action(ActionKind.TAP, mark_of(shop, "菜单")), shop) or "")


def test_actions_need_their_mark_and_text():
    with pytest.raises(ActionError):
        Action(ActionKind.TAP)
    with pytest.raises(ActionError):
        Action(ActionKind.TYPE, 1)


def test_unknown_mark_is_an_action_error_naming_the_range(shop):
    with pytest.raises(ActionError, match=r"mark \[99\] is not on this screen"):
        Action(ActionKind.TAP, 99).key(shop)


def test_describe_and_key(shop):
    number = mark_of(shop, "删除地址")
    assert Action(ActionKind.TAP, number).describe(shop) == f"tap [{number}] 删除地址"
    assert Action(ActionKind.SCROLL, direction=Direction.DOWN).describe() == "scroll down"
    key = Action(ActionKind.TAP, number).key(shop)
    assert key.startswith("tap|") and shop.mark(number).ref in key


def test_text_typed_into_a_password_field_is_never_written_down():
    screen = screen_of(
        button("用户名", 0, editable=True),
        button("密码", 1, editable=True, password=True),
    )
    user, secret = (mark_of(screen, label) for label in ("用户名", "***"))
    assert Action(ActionKind.TYPE, user, "qa_tester").describe(screen) == f"type [{user}] 用户名 'qa_tester'"
    words = Action(ActionKind.TYPE, secret, "Passw0rd!").describe(screen)
    assert "Passw0rd" not in words and words.endswith("'••••••'")
    key = Action(ActionKind.TYPE, secret, "Passw0rd!").key(screen)
    assert "Passw0rd" not in key
    # Two passwords are still two actions to the loop guard.
    assert key != Action(ActionKind.TYPE, secret, "other").key(screen)
