"""How well an element's label matches what a feature is about. Works for English and Chinese.

Latin text is compared by whole lowercase words; CJK text by character bigrams (and single characters
for one-character labels), since Chinese has no spaces to split on.
"""

from __future__ import annotations

import re
from functools import lru_cache

_LATIN_WORD = re.compile(r"[a-z0-9]+")
_CJK_RUN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
# English function words: shared by a label and a goal by chance (`Earn 3% cashback this month` and
# "tick Save this payee"), they say nothing of what either is about.
STOP_WORDS = frozenset(
    {
        *("the", "a", "an", "and", "or", "to", "of", "in", "on", "for", "with", "it", "its"),
        *("this", "that", "these", "those", "is", "are", "was", "were", "be", "been", "as", "at", "by"),
        *("from", "into", "then", "than", "so", "if", "i", "me", "you", "your", "we", "our", "us", "they"),
        *("their", "them", "he", "she", "his", "her", "will", "can", "do", "does", "did", "has", "have"),
    }
)


def tokens(text: str) -> frozenset[str]:
    """The words of `text` that say what it is about: its English words but function words and numbers,
    its Chinese character pairs. A text of function words alone keeps them: the `Me` tab is about `Me`."""
    lowered = text.lower()
    words = [w for w in _LATIN_WORD.findall(lowered) if not w.isdigit()]
    found = {w for w in words if w not in STOP_WORDS}
    if not found and not _CJK_RUN.search(text):
        found = set(words)
    for run in _CJK_RUN.findall(text):
        if len(run) == 1:
            found.add(run)
        found.update(run[i : i + 2] for i in range(len(run) - 1))
    return frozenset(found)


def plain(text: str) -> str:
    """`text`'s words (letters, digits, Han) in order, case aside, one space between them whatever stood
    there: `Serious · 30 XP a day` and "Serious (30 XP a day)" read alike."""
    return " ".join(re.findall(r"\w+", text.casefold()))


def names_whole(text: str, label: str, start: int = 0) -> re.Match[str] | None:
    """Where `text` names `label` whole, as `plain` reads both (from `start` in `plain(text)`): `商品 300`,
    not `商品 3`; `Download`, not `Downloads`."""
    words = plain(label)
    if not words:
        return None
    return re.compile(rf"(?<![0-9a-z]){re.escape(words)}(?![0-9a-z])").search(plain(text), start)


def overlap(label: str, topic: frozenset[str]) -> int:
    """The number of the label's tokens that also occur in the topic."""
    return len(tokens(label) & topic)


@lru_cache(maxsize=4096)
def forms(word: str) -> frozenset[str]:
    """An English word and the base forms its ending may have been added to: `archived` -> archive,
    `updates` -> update, `saving` -> save, `copies` -> copy. Conservative: words of four letters or more,
    base forms of three or more; other words (and Chinese) stand alone."""
    found = {word}
    if len(word) < 4 or not word.isascii() or not word.isalpha() or word in _UNINFLECTED:
        return frozenset(found)
    for ending, replacements in _ENDINGS:
        if word.endswith(ending):
            stem = word[: -len(ending)]
            found.update(stem + extra for extra in replacements)
            if len(stem) > 2 and stem[-1] == stem[-2] and ending in ("ed", "ing"):
                found.add(stem[:-1])  # stopped -> stop, shopping -> shop
    return frozenset(f for f in found if len(f) >= 3)


# Words whose ending is no inflection (`news` is not a plural of `new`).
_UNINFLECTED = frozenset({"news", "address", "process", "access", "status", "always", "series", "during"})
# Endings of English inflections and what the base form may end with instead.
_ENDINGS = (
    ("ies", ("y",)),
    ("ied", ("y",)),
    ("es", ("", "e")),
    ("s", ("",)),
    ("ed", ("", "e")),
    ("ing", ("", "e")),
)


@lru_cache(maxsize=256)
def with_forms(words: frozenset[str]) -> frozenset[str]:
    """`words` and their base forms (`forms`). Cached: the brain asks for its feature's words at every
    mark of every step."""
    return frozenset().union(*(forms(w) for w in words)) if words else frozenset()


def loose_overlap(label: str, topic: frozenset[str]) -> int:
    """How many of the label's words occur in `topic` (built `with_forms`), in any of their forms: `Archive`
    matches a goal that says `archived`, `Saved` one that says `save`."""
    return sum(1 for word in tokens(label) if forms(word) & topic)
