"""The goal read in order: what it names first is the first step; once a step it names is done, what it
names after that step is where to go.

"open an episode's More options, tap Download, then find the episode in Downloads (from the menu)": after
`Download` did something, the episode list's other menus are behind; `menu` and `Downloads` are ahead.
A goal's words name an element by its label (`Follow` for "follow one of the results": case aside, as a
sentence writes it, whatever the punctuation between the label's words) and a page by its title ("see it
among the shows in the Library"). The offline brain takes, of the elements on its page the goal names
ahead, the first named; on a page where nothing the feature's words point to is left, it heads for a known
page with an element the goal names ahead, or a page the goal names ahead that it has not stood on since
the step was done. A name the goal quotes (找到「莘庄 春申城 3室2厅」) that comes next and is not on screen is
`sought`: the lists are looked through for it before what the goal names after it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from pytest_fairy.brain.field_values import QUOTED
from pytest_fairy.perception.relevance import names_whole, plain

# A label shorter than this (`+`, `大`) is no name a sentence can be read for.
MIN_LABEL = 2


class GoalOrder:
    """Where the run stands in the goal's sentence, and the places that hold what it names ahead."""

    def __init__(self, goal: str = "", given: Iterable[str] = ()) -> None:
        self._goal = plain(goal)
        # The names the goal quotes (找到「莘庄 春申城 3室2厅」), but the test data it gives (type 'banana').
        typed = {plain(value) for value in given}
        self._quotes = [
            q for q in (plain(next(p for p in f if p)) for f in QUOTED.findall(goal)) if q not in typed
        ]
        self._at = -1  # the end of the last step of the goal done; -1: none yet
        self._labels: dict[str, set[str]] = {}  # per state, the labels of its elements left untried
        self._titles: dict[str, str] = {}  # per state, its page's title
        self._visited: set[str] = set()  # states stood on since the last step of the goal was done
        self._backed: set[str] = set()  # states backed out of, towards a place, since then
        self._ways: set[int] = set()  # where the goal names a menu taken on the way to what it names before

    def _find(self, label: str) -> re.Match[str] | None:
        """The first place after the last step done where the goal names `label` whole, as
        `relevance.plain` reads both (`Serious · 30 XP a day` in "Serious (30 XP a day)")."""
        if len(plain(label)) < MIN_LABEL:
            return None
        found = names_whole(self._goal, label, self._at + 1)
        while found is not None and found.start() in self._ways:
            found = names_whole(self._goal, label, found.end())
        return found

    def ahead(self, label: str) -> bool:
        """The goal names `label` after the last step of it done (anywhere, before one is)."""
        return self._find(label) is not None

    def where(self, label: str) -> int:
        """Where the goal names `label` next, after the last step of it done (its length when it does not):
        of the elements it names ahead, the first named is the next step."""
        found = self._find(label)
        return found.start() if found is not None else len(self._goal)

    def sought(self, shown: str, labels: Iterable[str]) -> str:
        """The name the goal quotes and names next, before any of `labels` (the elements here), when it is
        not `shown` (on screen): perhaps a row further down a list, looked for before what comes after it.
        "" when there is none."""
        text = plain(shown)
        missing = sorted((self.where(name), name) for name in self._quotes if name not in text)
        here = min((self.where(label) for label in labels), default=len(self._goal))
        return missing[0][1] if missing and missing[0][0] < here else ""

    def done(self, label: str, opened: str = "", shown: Iterable[str] = ()) -> None:
        """The element `label` was tapped and did something (`opened`: the title of the page it led to, if
        it left its page; `shown`: the labels of a menu or dialog it opened): where the goal names it next
        is done; unless it only opened the page it names (the 购物车 tab), or a menu holding what the goal
        names before it ("open Recently deleted from the menu"): a way to the goal's steps, which come
        before."""
        name, title = label.strip().casefold(), opened.strip().casefold()
        if title and name and (title in name or name in title):
            return
        found = self._find(label)
        if found is not None and any(self.where(other) < found.start() for other in shown):
            self._ways.add(found.start())  # taken: not a step to come once what it holds is done
            return
        if found is not None:
            self._at = found.end() - 1
            self._visited.clear()
            self._backed.clear()

    def stood_on(self, state: str, title: str, untried: set[str]) -> None:
        """The page `state` (titled `title`) has the elements labelled `untried` left."""
        self._titles[state] = title
        self._labels[state] = untried
        self._visited.add(state)

    def places(self, here: str) -> dict[str, int]:
        """The states, other than `here`, with an element the goal names ahead left, or whose title it names
        ahead and not stood on since the last step of the goal was done (as a walk's work: 1 each)."""
        if self._at < 0:
            return {}
        places = {s: 1 for s, labels in self._labels.items() if any(self.ahead(label) for label in labels)}
        places |= {s: 1 for s, title in self._titles.items() if s not in self._visited and self.ahead(title)}
        places.pop(here, None)
        return places

    def may_back(self, state: str) -> bool:
        """Back out of `state` towards a place no known path leads to: once per state and step of the goal."""
        first = state not in self._backed
        self._backed.add(state)
        return first
