"""Risky-action matching: Latin words whole, CJK as substrings, longest word wins, spec words extend."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_fairy.spec.risk import RISKY_CATEGORIES, known_categories, normalize_label, risky_category


@pytest.mark.parametrize(
    ("label", "category"),
    [
        ("去支付", "payment"),
        ("立即付款", "payment"),
        ("去结算", "payment"),
        ("Pay", "payment"),
        ("Payment", "payment"),
        ("PAYMENTS", "payment"),
        ("Pay now", "payment"),
        ("Checkout", "payment"),
        ("Check  out", "payment"),
        ("btn_pay", "payment"),
        ("payNowButton", "payment"),
        ("com.shop:id/pay-now", "payment"),
        ("立即pay", "payment"),
        ("Buy now", "purchase"),
        ("立即购买", "purchase"),
        ("提交订单", "purchase"),
        ("Delete", "delete"),
        ("删除地址", "delete"),
        ("Delete account", "delete_account"),
        ("注销账号", "delete_account"),
        ("Uninstall", "uninstall"),
        ("卸载应用", "uninstall"),
        ("Send", "send"),
        ("发送", "send"),
        ("发布动态", "send"),
        ("Log out", "logout"),
        ("Sign Out", "logout"),
        ("退出登录", "logout"),
        ("注销登录", "logout"),  # longer than delete_account's 注销
        ("拨打电话", "call"),
    ],
)
def test_risky_labels(label: str, category: str) -> None:
    assert risky_category(label) == category


@pytest.mark.parametrize(
    "label",
    [
        "display",
        "Display settings",
        "Repay history",
        "Sender",
        "Payday",
        "加入购物车",
        "购物车",
        "recall",
        "Deleted items",
        "Undelete",
        "",
        "   ",
        "OK",
        "确定",
        "返回",
    ],
)
def test_harmless_labels(label: str) -> None:
    assert risky_category(label) is None


def test_spec_words_extend_a_category_and_add_new_ones() -> None:
    extra = {"payment": ["结账"], "share": ["分享到", "share to"]}
    assert risky_category("去结账") is None
    assert risky_category("去结账", extra) == "payment"
    assert risky_category("分享到微信", extra) == "share"
    assert risky_category("Share to WeChat", extra) == "share"
    assert risky_category("Share", extra) is None  # the word is "share to", a whole phrase
    assert known_categories(extra) == (*RISKY_CATEGORIES, "share")


def test_normalize_splits_identifiers() -> None:
    assert normalize_label("btnPayNow") == "btn pay now"
    assert normalize_label("com.shop:id/delete_all") == "com shop id delete all"
    assert normalize_label("  Sign   OUT ") == "sign out"


LOWER = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=8)
ALL_WORDS = {word for words in RISKY_CATEGORIES.values() for word in words}


@given(LOWER, st.sampled_from(["pay", "delete", "send", "call", "logout"]), LOWER)
def test_a_word_glued_inside_a_longer_word_never_matches(before: str, word: str, after: str) -> None:
    glued = before + word + after
    assert risky_category(glued) is None or glued.removesuffix("s") in ALL_WORDS
