"""How spec problems word what they quote: a value shown briefly, and a did-you-mean for a misspelt name.

Shared by the schema's validators (spec/model.py) and the loader's messages (spec/loader.py), so that a
problem reads the same wherever it is found.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Any

MAX_SHOWN_VALUE = 40
SUGGESTION_CUTOFF = 0.6


def suggest(word: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=SUGGESTION_CUTOFF)
    return f" (did you mean {close[0]!r}?)" if close else ""


def shown(value: Any) -> str:
    if value is None:
        return "nothing (an empty value)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        text = value if len(value) <= MAX_SHOWN_VALUE else value[:MAX_SHOWN_VALUE] + "..."
        return f"text {text!r}"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return f"{type(value).__name__} {value!s:.{MAX_SHOWN_VALUE}}"
