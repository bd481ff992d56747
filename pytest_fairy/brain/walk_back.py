"""The app as the offline brain learnt it, and walks along it back to pages with work left.

Each navigating action that led from one page to another is an edge (an action that stays on its page
forgets the edge it once made). A walk takes the first step of the shortest known path to a page with
work left among the paths whose first element the screen shows, by the element's stable ref (never a
position), and keeps heading there until it arrives or `MAX_WALK_STEPS` steps pass without new work.
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

    def stood_on(self, state: str, *, outside: bool) -> None:
        """The brain stands on `state`, `outside` the app (another app in front)."""
        if outside:
            self._foreign.add(state)

    def learn(self, before: str, key: str, kind: ActionKind, ref: str, after: str) -> None:
        """The action `key` (`kind` on `ref`) on page `before` led to page `after`."""
        if before != after and kind in NAVIGABLE:
            self._edges[before][key] = (after, kind, ref)
        elif before == after:
            self._edges[before].pop(key, None)  # it led somewhere once; not any more
        if kind is ActionKind.BACK and after in self._foreign:
            self._exits.add(before)

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
        queue: deque[tuple[str, Hop | None]] = deque([(start, None)])
        seen = {start}
        while queue:
            state, first = queue.popleft()
            # Only pages the brain has stood on count: a crash dialog or another app is no destination.
            if first is not None and work.get(state, 0) > 0:
                self._steps += 1
                self.heading = state
                return Hop(first.action, first.key, first.ref, state)
            for key, (to, kind, ref) in self._edges[state].items():
                hop = first or _hop(kind, key, ref, to, screen)
                if to not in seen and hop is not None:
                    seen.add(to)
                    queue.append((to, hop))
        return None


def _hop(kind: ActionKind, key: str, ref: str, to: str, screen: Screen) -> Hop | None:
    """A remembered action made concrete on this screen, by the element's stable ref (never a position):
    None when the screen does not show it."""
    if kind is ActionKind.BACK:
        return Hop(Action(ActionKind.BACK), key, ref, to)
    mark = screen.marks_by_ref.get(ref)
    return Hop(Action(kind, mark.number), key, ref, to) if mark is not None else None
