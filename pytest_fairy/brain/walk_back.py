"""The app as the offline brain learnt it, and walks along it back to pages with work left.

Each navigating action that led from one page to another is an edge (an action that stays on its page
forgets the edge it once made). Back leads to the page the current one was opened from by a tap, where
the map's Back edge was learnt on another way in (a product page opened from home after a restart, not
from the list it once was), unless the page's Back once led elsewhere than that. A walk takes the first
step of the shortest known path to a page with work left among the paths whose first element the screen
shows, by the element's stable ref (never a position), and keeps heading there until it arrives or
`MAX_WALK_STEPS` steps pass without new work.
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Mapping
from dataclasses import dataclass

from pytest_fairy.explore.action import Action, ActionKind
from pytest_fairy.perception.screen import Screen

# Walking back to unfinished pages gives up after this many steps without finding new work.
MAX_WALK_STEPS = 8
NAVIGABLE = frozenset({ActionKind.TAP, ActionKind.LONG_TAP, ActionKind.BACK})
OPENS = frozenset({ActionKind.TAP, ActionKind.LONG_TAP})


@dataclass(frozen=True, slots=True)
class Hop:
    """One step of a walk: the action, the key and ref it is remembered by, and the page walked to."""

    action: Action
    key: str
    ref: str
    towards: str


class WalkBack:
    """Where actions led (`learn`), which pages' back leaves the app, and the walk under way."""

    def __init__(self) -> None:
        self._edges: defaultdict[str, dict[str, tuple[str, ActionKind, str]]] = defaultdict(dict)
        self._exits: set[str] = set()  # pages whose back leaves the app: backing out of them ends the run
        self._foreign: set[str] = set()  # states seen outside the app
        self._steps = 0
        self.heading: str | None = None  # the page a walk under way goes to
        # Since the app last started, the page each page was opened from by a tap; per page, whether its
        # Back led to the page it was opened from.
        self._opened_from: dict[str, str] = {}
        self._returns: dict[str, bool] = {}

    def stood_on(self, state: str, *, outside: bool) -> None:
        """The brain stands on `state`, `outside` the app (another app in front): a walk to it has arrived."""
        if state == self.heading:
            self.heading = None
        if outside:
            self._foreign.add(state)

    def learn(
        self, before: str, key: str, kind: ActionKind, ref: str, after: str, *, in_place: bool = False
    ) -> None:
        """The action `key` (`kind` on `ref`) on page `before` led to page `after`; `in_place`: another
        state of the same screen (`Like` become `Liked`), whose Back leads where the first one's did."""
        if kind is ActionKind.RESTART:
            self._opened_from.clear()
        elif kind is ActionKind.BACK and before in self._opened_from:
            self._returns[before] = after == self._opened_from[before]
        elif in_place:
            if before in self._opened_from and after != self._opened_from[before]:
                self._opened_from[after] = self._opened_from[before]
        elif kind in OPENS and before != after and after not in self._ancestors(before):
            self._opened_from[after] = before  # a tap back to a page it was opened from (Up) opens nothing
        if before != after and kind in NAVIGABLE:
            self._edges[before][key] = (after, kind, ref)
        elif before == after:
            self._edges[before].pop(key, None)  # it led somewhere once; not any more
        if kind is ActionKind.BACK and after in self._foreign:
            self._exits.add(before)

    def started(self) -> None:
        """The app was started anew: no page is open over another."""
        self._opened_from.clear()

    def _ancestors(self, state: str) -> set[str]:
        """The pages `state` was opened from, one over the other, since the app started."""
        found: set[str] = set()
        while state in self._opened_from and state not in found:
            found.add(state)
            state = self._opened_from[state]
        return found | {state}

    def leads_away(self, state: str, key: str) -> bool:
        """The action `key` on page `state` led to another page the last time it was taken."""
        return key in self._edges[state]

    def inside(self, work: dict[str, int]) -> dict[str, int]:
        """`work` less the pages seen outside the app."""
        return {state: n for state, n in work.items() if state not in self._foreign}

    def exits(self, state: str) -> bool:
        """Back from `state` left the app."""
        return state in self._exits

    def found_work(self) -> None:
        """New work found: walks may go on for another `MAX_WALK_STEPS`."""
        self._steps = 0

    def arrived(self) -> None:
        self.heading = None

    def first_hop(self, start: str, work: Mapping[str, int], screen: Screen) -> Hop | None:
        """The first step of the shortest known path from `start` to a page with work left; None when no
        known path leads there or the walk went on too long. A path starts with an element on `screen`:
        one the page shows only in another of its states (收藏 where 已收藏 shows) is no way from here."""
        if self._steps >= MAX_WALK_STEPS:
            return None
        # Each page on the way with the page its Back leads to, when known: the one it was opened from.
        Way = tuple[str, Hop | None, str | None]
        queue: deque[Way] = deque([(start, None, self._opened_from.get(start))])
        seen = {start}
        while queue:
            state, first, back_to = queue.popleft()
            # Only pages the brain has stood on count: a crash dialog or another app is no destination.
            if first is not None and work.get(state, 0) > 0:
                self._steps += 1
                self.heading = state
                return Hop(first.action, first.key, first.ref, state)
            for key, (to, kind, ref) in self._edges[state].items():
                if kind is ActionKind.BACK and back_to is not None and self._returns.get(state, True):
                    to = back_to
                hop = first or _hop(kind, key, ref, to, screen)
                if to not in seen and hop is not None:
                    seen.add(to)
                    queue.append((to, hop, state if kind in OPENS else self._opened_from.get(to)))
        return None


def _hop(kind: ActionKind, key: str, ref: str, to: str, screen: Screen) -> Hop | None:
    """A remembered action made concrete on this screen, by the element's stable ref (never a position):
    None when the screen does not show it."""
    if kind is ActionKind.BACK:
        return Hop(Action(ActionKind.BACK), key, ref, to)
    mark = screen.marks_by_ref.get(ref)
    return Hop(Action(kind, mark.number), key, ref, to) if mark is not None else None
