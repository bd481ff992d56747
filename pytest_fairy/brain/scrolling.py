"""The lists the offline brain scrolled: how often each, on each page, which reached their end, and how
far down each stands.

A list is scrolled until a scroll moves nothing (its end); the counts bound scrolling a feed that never
ends (candidates.MAX_SCROLLS_PER_LIST) and say how far a search by scrolling went. Where a list stands
(scrolls down that moved it, less those up) is kept per page, not per state: a change of the app's data
makes the page another state, and the app keeps the list where it was left while the page lives. Each
element is remembered at the position it was last on screen at, so one worth another try that the goal
names, no longer on screen, is scrolled back to, up or down (a row that only shares the goal's words is
not worth the scrolls). Coming to the page from another, the list stands where the rows on screen were
last seen (Back uncovers it where it was left; a page opened anew shows its top); a scroll up that moves
nothing is the list's top, position 0 again.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Set

from pytest_fairy.brain.candidates import Candidate, scrolls_list
from pytest_fairy.explore.action import Action, ActionKind, Direction
from pytest_fairy.perception.screen import Screen

# Scrolling a list back to an element worth another try (the app's data changed since it was tried) that
# is no longer on screen: before the page's other elements, which a retry of the feature's own waits for
# no more than a visible one would.
RETRY_SCROLL_SCORE = 60
SCROLL_BACK = "scroll-back|"  # the key of such a scroll, by list and how many came before on its page


class ListScrolls:
    """Per state, each list's scroll count (by ref) and the lists found at their end; per page, where its
    lists stand and where each element was seen."""

    def __init__(self) -> None:
        self._counts: defaultdict[str, defaultdict[str, int]] = defaultdict(lambda: defaultdict(int))
        self._ended: defaultdict[str, set[str]] = defaultdict(set)
        self._position: defaultdict[str, int] = defaultdict(int)
        self._seen_at: defaultdict[str, dict[str, int]] = defaultdict(dict)
        self._backs: defaultdict[str, int] = defaultdict(int)
        self._named: set[str] = set()  # the elements the goal names, by ref

    def scrolled(self, state: str, ref: str) -> None:
        """A scroll down of `ref` on `state` for more rows."""
        self._counts[state][ref] += 1

    def scrolled_back(self, page: str) -> None:
        """A scroll of a list on `page` back to an element."""
        self._backs[page] += 1

    def back_to_named(
        self, screen: Screen, state: str, page: str, candidates: list[Candidate], again: Set[str]
    ) -> list[Candidate]:
        """On `screen` (the state `state` of `page`), scrolls back to where an element the goal names and
        worth another try (its key in `again`) was seen, when neither it nor any other element worth another
        try is among `candidates`; else none. Notes what is on screen, where the lists stand."""
        shown = {mark.ref for mark in screen.marks}
        self.saw(page, shown)
        self._named.update(c.ref for c in candidates if c.named)
        hidden = {key.split("|", 1)[-1] for key in again} & self._named - shown
        if not hidden or again & {c.key for c in candidates}:
            return []
        way = self.towards(page, hidden)
        return [] if way is None else scrolls_back(screen, way, self._backs[page], self._ended[state])

    def moved(self, state: str, page: str, ref: str, *, changed: bool, up: bool = False) -> None:
        """The scroll of `ref` on `state` (of `page`), `up` or down, stayed there and `changed` the screen
        or not (its top, its end)."""
        if changed:
            self._position[page] += -1 if up else 1
            if up:  # off its end, on every state (one at its top may be the state its end showed)
                for ended in self._ended.values():
                    ended.discard(ref)
        elif up:
            self._position[page] = 0
        else:
            self._ended[state].add(ref)

    def arrived(self, page: str, rows: Iterable[str], lists: Iterable[str]) -> None:
        """The brain came to `page` from another page, the list rows `rows` of its lists `lists` on screen:
        the lists stand at the lowest position one of those rows was last seen at (a row near the top is
        seen from several positions), and a list above where it was left is off its end."""
        seen_at = self._seen_at[page]
        known = [seen_at[ref] for ref in rows if ref in seen_at]
        if not known or min(known) == self._position[page]:
            return
        if min(known) < self._position[page]:
            for ended in self._ended.values():
                ended.difference_update(lists)
        self._position[page] = min(known)

    def saw(self, page: str, refs: Iterable[str]) -> None:
        """The elements `refs` are on screen on `page`, where its lists stand now."""
        position = self._position[page]
        self._seen_at[page].update((ref, position) for ref in refs)

    def towards(self, page: str, refs: Iterable[str]) -> Direction | None:
        """Which way the lists of `page` scroll to bring back the nearest of `refs` (not on screen) that
        was seen on it at another position; None when none was."""
        position, seen_at = self._position[page], self._seen_at[page]
        away = [seen_at[ref] - position for ref in refs if seen_at.get(ref, position) != position]
        if not away:
            return None
        return Direction.DOWN if min(away, key=lambda n: (abs(n), n)) > 0 else Direction.UP

    def counts(self, state: str) -> Mapping[str, int]:
        return self._counts[state]

    def ended(self, state: str) -> Set[str]:
        return self._ended[state]


def scrolls_back(screen: Screen, direction: Direction, backs: int, ended: Set[str]) -> list[Candidate]:
    """Scroll each list on `screen` `direction` (not down a list at its end), back to an element worth
    another try that was on screen at another position of the list (`backs`: how often the page's lists
    were scrolled back before)."""
    found = []
    for order, mark in enumerate(screen.marks):
        if scrolls_list(mark) and not (direction is Direction.DOWN and mark.ref in ended):
            action = Action(ActionKind.SCROLL, mark.number, direction=direction)
            name = mark.label or mark.node.short_id or "list"
            why = f"scroll '{name}' {direction} back to an element worth another try"
            key = f"{SCROLL_BACK}{mark.ref}|{backs}"
            found.append(Candidate(RETRY_SCROLL_SCORE, order, action, key, why, mark.ref, relevant=True))
    return found
