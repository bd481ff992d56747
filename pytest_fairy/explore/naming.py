"""What a label names: the screen a title shows, the feature's words; pure word counting over
`perception.relevance.tokens`, English by words and Chinese by character pairs."""

from __future__ import annotations

import re
from collections.abc import Sequence

from pytest_fairy.explore.vocabulary import SIGN_IN_WORDS
from pytest_fairy.perception.relevance import tokens

# The share of a label's words a screen's title must hold for the label to name that screen, and to
# mention it (an element that mentions the screen it opened did not open a wrong one).
NAMES_SHARE = 2 / 3
MENTIONS_SHARE = 1 / 2


def other_named(label: str, title: str, siblings: Sequence[str]) -> str:
    """The sibling whose label names the screen `title`, which `label` does not: "" if none. A label
    names a title when most of its words are in it (`NAMES_SHARE`), and does not when under half are; a
    sibling names it when, besides, most of the title's words are its own (`上海` does not name the
    results `上海 → 北京`, nor the `我的` tab the home screen `我的家`)."""
    seen = tokens(title)
    if not seen or mentions(label, title):
        return ""
    naming = [s for s in siblings if names(s, title) and share(title, tokens(s)) >= NAMES_SHARE]
    return max(naming, key=lambda s: share(s, seen), default="")


def mentions(label: str, text: str) -> bool:
    """Whether at least half of `label`'s words are in `text` (a screen's title, a feature's words)."""
    return share(label, tokens(text)) >= MENTIONS_SHARE


def signs_in(title: str) -> bool:
    """Whether the screen titled `title` asks to sign in."""
    return any(word in title.casefold() for word in SIGN_IN_WORDS)


def names(label: str, title: str) -> bool:
    """Whether `label` names the screen titled `title`: most of its words are in it, and its numbers
    (`商品 24` does not name `商品 23`)."""
    numbers = set(_NUMBER.findall(label)) <= set(_NUMBER.findall(title))
    return numbers and bool(tokens(title)) and share(label, tokens(title)) >= NAMES_SHARE


_NUMBER = re.compile(r"\d+")


def share(label: str, seen: frozenset[str]) -> float:
    """The share of `label`'s words that are in `seen`."""
    words = tokens(label)
    return len(words & seen) / len(words) if words else 0.0
