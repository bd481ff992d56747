"""Reading mark numbers back out of the compressed text: `[n]` and `(marks 3-5,9)`."""

from __future__ import annotations

import re

_SINGLE = re.compile(r"\[(\d+)\]")
_LIST = re.compile(r"\(marks ([\d,\-]+)\)")


def numbers_in(text: str) -> set[int]:
    found = {int(n) for n in _SINGLE.findall(text)}
    for spans in _LIST.findall(text):
        for span in spans.split(","):
            start, _, end = span.partition("-")
            found.update(range(int(start), int(end or start) + 1))
    return found
