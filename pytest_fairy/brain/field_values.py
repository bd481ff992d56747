"""What the offline brain types into a field: the spec's input for it, else its secret, else a plausible value
of the kind the field asks for (an email, a phone number, a name), in the screen's language - never the
same word for every field.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pytest_fairy.explore.target import Target
from pytest_fairy.perception.screen import Mark
from pytest_fairy.spec.secrets import placeholder

# What a field asks for, by the words of its label, hint or id, and a plausible value of that kind (the
# spec's `inputs` give the real ones): one for a screen in Chinese, one for a screen in another language.
PLAUSIBLE_VALUES = (
    (("password", "密码", "pwd"), ("Passw0rd!", "Passw0rd!")),
    (("email", "邮箱", "mail"), ("qa@example.com", "qa@example.com")),
    (("phone", "mobile", "手机", "电话"), ("13800138000", "+1 555 0100")),
    (
        ("amount", "quantity", "qty", "number", "count", "price", "age", "数量", "金额", "价格", "年龄"),
        ("2", "2"),
    ),
    (("user", "name", "账号", "用户", "昵称"), ("qa_tester", "qa_tester")),
    (("search", "搜索", "查找", "keyword", "关键词"), ("", "")),  # what the goal quotes
    (("title", "标题"), ("测试标题 test", "Test title")),
    (("code", "验证码"), ("123456", "123456")),
    (("address", "地址"), ("上海市黄浦区人民大道 1 号", "1 Main Street, Springfield")),
)
DEFAULT_TEXT = ("测试内容 test input", "Test input")
# Text a goal quotes: 'banana', "banana", “香蕉”, 「香蕉」.
QUOTED = re.compile(r"'([^']+)'|\"([^\"]+)\"|“([^”]+)”|「([^」]+)」")
# Fields that ask for one of the spec's secrets (None: a password field), and the words its name holds.
SECRET_FIELDS: tuple[tuple[tuple[str, ...] | None, tuple[str, ...]], ...] = (
    (None, ("PASSWORD", "PASSWD", "PWD", "PASS")),
    (
        ("user", "account", "账号", "用户", "phone", "手机", "email", "邮箱", "login"),
        ("USER", "ACCOUNT", "LOGIN", "EMAIL", "PHONE", "NAME"),
    ),
)


def text_for(mark: Mark, target: Target, *, chinese: bool = True) -> str:
    """What to type into the field `mark`: the spec's input for it, else its secret, else a plausible value
    of the kind it asks for, in the screen's language (`chinese` or not). "" when the spec keeps it empty."""
    node = mark.node
    given = target.input_for(mark.label, node.text, node.content_desc, node.resource_id, node.short_id)
    if given is not None:
        return given
    hint = f"{node.resource_id} {node.text} {node.content_desc}".lower()
    if (secret := _secret_for(mark, hint, target.secrets)) is not None:
        return placeholder(secret)  # the device seam types its value
    if node.password:
        return "Passw0rd!"
    language = 0 if chinese else 1
    for words, values in PLAUSIBLE_VALUES:
        if any(word in hint for word in words):
            return values[language] or _query(target, hint)
    return DEFAULT_TEXT[language]


def _query(target: Target, field: str) -> str:
    """A query for a search field the spec gives none for: what the goal quotes ("type 'banana'",
    搜索“红烧肉”), unless it is what the done-when waits for (typed, that text would show on screen as if
    the app had shown it); else the feature's first word."""
    waited = " ".join(target.done_hints).casefold()
    for quoted in QUOTED.findall(target.goal):
        text = next(part for part in quoted if part).strip()
        if text and text.casefold() not in waited and text.casefold() not in field:
            return text
    return (target.feature.split() or ["test"])[0]


def _secret_for(mark: Mark, hint: str, secrets: Sequence[str]) -> str | None:
    """The spec's secret a field asks for: a password field the secret named like a password, an account
    field (user, name, phone, email) the one named like an account."""
    for words, names in SECRET_FIELDS:
        asked = mark.node.password if words is None else any(word in hint for word in words)
        if asked:
            return next((s for s in secrets if any(n in s.upper() for n in names)), None)
    return None
