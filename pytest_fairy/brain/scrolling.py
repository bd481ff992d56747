"""The lists the offline brain scrolled: how often each, on each page, and which reached their end.

A list is scrolled until a scroll moves nothing (its end); the counts bound scrolling a feed that never
ends (candidates.MAX_SCROLLS_PER_LIST) and say how far a search by scrolling went.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Set


class ListScrolls:
    """Per page, each list's scroll count (by ref) and the lists found at their end."""

    def __init__(self) -> None:
        self._counts: defaultdict[str, defaultdict[str, int]] = defaultdict(lambda: defaultdict(int))
        self._ended: defaultdict[str, set[str]] = defaultdict(set)

    def scrolled(self, state: str, ref: str) -> None:
        self._counts[state][ref] += 1

    def moved(self, state: str, ref: str, *, changed: bool) -> None:
        """The scroll of `ref` on `state` stayed there and `changed` the screen or not (its end)."""
        if not changed:
            self._ended[state].add(ref)

    def counts(self, state: str) -> Mapping[str, int]:
        return self._counts[state]

    def ended(self, state: str) -> Set[str]:
        return self._ended[state]
