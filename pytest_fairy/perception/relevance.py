"""How well an element's label matches what a feature is about. Works for English and Chinese.

Latin text is compared by whole lowercase words; CJK text by character bigrams (and single characters
for one-character labels), since Chinese has no spaces to split on.
"""

from __future__ import annotations

import re

_LATIN_WORD = re.compile(r"[a-z0-9]+")
_CJK_RUN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
STOP_WORDS = frozenset({"the", "a", "an", "and", "or", "to", "of", "in", "on", "for", "with", "it", "its"})


def tokens(text: str) -> frozenset[str]:
    lowered = text.lower()
    found = {w for w in _LATIN_WORD.findall(lowered) if w not in STOP_WORDS and not w.isdigit()}
    for run in _CJK_RUN.findall(text):
        if len(run) == 1:
            found.add(run)
        found.update(run[i : i + 2] for i in range(len(run) - 1))
    return frozenset(found)


def overlap(label: str, topic: frozenset[str]) -> int:
    """The number of the label's tokens that also occur in the topic."""
    return len(tokens(label) & topic)
