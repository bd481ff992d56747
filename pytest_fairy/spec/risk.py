"""Risky-action categories and the words that give them away: the one table the policy and the spec share.

An element whose label matches a category's word is a risky target: tapping it may spend money, destroy
data or reach other people. The policy denies such taps unless the feature allows the category; the spec
validates its `allow` / `forbid` lists against these names and may add words (top-level `risky_words`).

Matching rules (documented in docs/spec-format.md):
- Latin words match as whole words, case-insensitively, after splitting identifiers (`btn_pay`, `payNow`
  and `pay-now` all contain the word `pay`; `display` does not). A trailing plural `s` is accepted.
- Words with CJK characters match as substrings (`去支付` contains `支付`): CJK text has no spaces.
- When several words match, the longest one decides (`注销登录` is logout, not the `注销` of
  delete_account; `Delete account` is delete_account, not delete); ties go to the earlier category.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType

RISKY_CATEGORIES: dict[str, tuple[str, ...]] = {
    "payment": (
        "pay",
        "payment",
        "pay now",
        "checkout",
        "check out",
        "top up",
        "recharge",
        "支付",
        "付款",
        "结算",
        "买单",
        "充值",
    ),
    "purchase": (
        "buy",
        "buy now",
        "purchase",
        "place order",
        "order now",
        "subscribe",
        "购买",
        "下单",
        "提交订单",
        "订阅",
        "开通会员",
    ),
    "delete": (
        "delete",
        "remove",
        "erase",
        "clear all",
        "clear data",
        "删除",
        "移除",
        "清空",
        "清除数据",
    ),
    "delete_account": (
        "delete account",
        "delete my account",
        "remove account",
        "close account",
        "deactivate account",
        "注销",
        "注销账号",
        "注销账户",
        "删除账号",
    ),
    "uninstall": ("uninstall", "卸载"),
    "send": ("send", "publish", "发送", "发布", "发表"),
    "logout": (
        "logout",
        "log out",
        "log off",
        "sign out",
        "signout",
        "退出登录",
        "退出账号",
        "登出",
        "注销登录",
    ),
    "call": ("call", "dial", "拨打", "呼叫"),
}

CATEGORY_NAME = re.compile(r"[a-z][a-z0-9_]*")

NO_EXTRA_WORDS: Mapping[str, Sequence[str]] = MappingProxyType({})

# Identifiers are split into words before matching: snake_case, kebab-case, camelCase, dots, slashes.
_IDENT_SEPARATORS = re.compile(r"[_\-./:]+")
_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
# A Latin word ends where no Latin letter or digit follows: CJK next to it is a boundary ("立即pay").
_LATIN = r"[a-z0-9\u00c0-\u024f]"
_CJK = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\u3040-\u30ff]")


def is_cjk(text: str) -> bool:
    return _CJK.search(text) is not None


@dataclass(frozen=True, slots=True)
class _Word:
    category: str
    word: str
    order: int
    pattern: re.Pattern[str] | None  # None: CJK, matched as a substring of the casefolded label

    def matches(self, label: str) -> bool:
        if self.pattern is None:
            return self.word in label
        return self.pattern.search(label) is not None


def _compile(category: str, word: str, order: int) -> _Word:
    folded = " ".join(word.casefold().split())
    if is_cjk(folded):
        return _Word(category, folded, order, None)
    body = r"\s+".join(re.escape(part) for part in folded.split(" "))
    pattern = re.compile(rf"(?<!{_LATIN})(?:{body})s?(?!{_LATIN})") if body else None
    return _Word(category, folded, order, pattern)


@lru_cache(maxsize=32)
def _table(extra: tuple[tuple[str, tuple[str, ...]], ...]) -> tuple[_Word, ...]:
    categories: dict[str, list[str]] = {name: list(words) for name, words in RISKY_CATEGORIES.items()}
    for name, words in extra:
        categories.setdefault(name, []).extend(words)
    compiled: list[_Word] = []
    for order, (name, category_words) in enumerate(categories.items()):
        compiled.extend(_compile(name, word, order) for word in category_words if word.strip())
    return tuple(compiled)


def normalize_label(label: str) -> str:
    """The label as matching sees it: identifiers split into words, casefolded, single-spaced."""
    spaced = _IDENT_SEPARATORS.sub(" ", _CAMEL_BOUNDARY.sub(" ", label))
    return " ".join(spaced.casefold().split())


def risky_category(label: str, extra: Mapping[str, Sequence[str]] = NO_EXTRA_WORDS) -> str | None:
    """The risky category `label` belongs to, or None. `extra` adds words (and categories) to the table.

    >>> risky_category("去支付"), risky_category("Display settings"), risky_category("btnPayNow")
    ('payment', None, 'payment')
    """
    text = normalize_label(label)
    if not text:
        return None
    key = tuple(sorted((name, tuple(words)) for name, words in extra.items()))
    best: _Word | None = None
    for word in _table(key):
        if not word.matches(text):
            continue
        if best is None or (len(word.word), -word.order) > (len(best.word), -best.order):
            best = word
    return best.category if best else None


def known_categories(extra: Mapping[str, Sequence[str]] = NO_EXTRA_WORDS) -> tuple[str, ...]:
    """Every category name: the built-in ones, then those `extra` adds, in table order."""
    return (*RISKY_CATEGORIES, *(name for name in extra if name not in RISKY_CATEGORIES))
