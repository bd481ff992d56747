"""What is left to try on each page the offline brain stood on: its frontier.

A page's element is tried once (its key: the kind of action and the element's ref); it is fresh again
when something gave it a new meaning: a field filled makes the page's submit buttons worth another try,
and a change of the app's data reopens the feature's elements (brain/retries.py), on every state of their
page. Beside the keys, the frontier counts what each page has left, in two kinds: elements that may lead
somewhere (`open`) and toggles that only change the page (`toggles`); walks back steer by these counts.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping

from pytest_fairy.brain.candidates import Candidate
from pytest_fairy.explore.action import ActionKind
from pytest_fairy.explore.decisions import StepContext

DIALOG = "+dialog"  # a page's name with a dialog up


def page_of(ctx: StepContext) -> str:
    """The page a state shows, whatever the app's data puts on it: its activity, title and whether a dialog
    is up."""
    dialog = DIALOG if ctx.state.has_dialog else ""
    return f"{ctx.state.activity}|{ctx.screen.title}{dialog}"


class Frontier:
    """Per page, the keys tried and the keys fresh again; per element, how often it was tried anywhere."""

    def __init__(self) -> None:
        self._tried: defaultdict[str, set[str]] = defaultdict(set)
        self._reopened: defaultdict[str, set[str]] = defaultdict(set)
        self._submits: defaultdict[str, set[str]] = defaultdict(set)
        self._anywhere: defaultdict[str, int] = defaultdict(int)
        # Each state's page (its activity, title, dialog): a change of the app's data may make a page another
        # state (My loans with a reservation listed), whose elements are the page's still. What a change
        # reopened on a page, until it is taken on any state of it.
        self._page_of: dict[str, str] = {}
        self._reopened_on_page: defaultdict[str, set[str]] = defaultdict(set)
        # What each page had left when last seen, less the step chosen there: navigation and toggles.
        self.open: dict[str, int] = {}
        self.toggles: dict[str, int] = {}
        # Per state, the keys a loop cut short (`spend(..., cut=True)`), never taken since.
        self._cut: defaultdict[str, set[str]] = defaultdict(set)

    @property
    def tried_anywhere(self) -> Mapping[str, int]:
        """How often each element (by ref) was tried on any page (scrolls not counted)."""
        return self._anywhere

    def tried(self, state: str, key: str) -> bool:
        return key in self._tried[state]

    def stood_on(self, state: str, page: str) -> None:
        """The state `state` shows the page `page`."""
        self._page_of[state] = page

    def page_of(self, state: str) -> str:
        return self._page_of.get(state, "")

    def fresh_again(self, state: str) -> set[str]:
        """The keys fresh again on `state` (reopened there or on its page) and not taken since."""
        page = self._page_of.get(state)
        again = self._reopened[state] | (self._reopened_on_page[page] if page is not None else set())
        return again - self._tried[state]

    def reopened(self, state: str, key: str) -> bool:
        """Tried here before, and fresh again since (a form filled, the app's data changed); or tried on
        another state of this page before the app's data changed, and not taken on the page since."""
        page = self._page_of.get(state)
        return key in self._reopened[state] or (page is not None and key in self._reopened_on_page[page])

    def new_anywhere(self, ref: str) -> bool:
        return self._anywhere.get(ref, 0) == 0

    def take(self, state: str, candidate: Candidate) -> None:
        """The brain tries `candidate` on the page `state`."""
        self._tried[state].add(candidate.key)
        if state in self._page_of:
            self._reopened_on_page[self._page_of[state]].discard(candidate.key)
        if candidate.toggle:
            self.toggles[state] = max(0, self.toggles.get(state, 0) - 1)
        if candidate.action.kind is not ActionKind.SCROLL:
            self._anywhere[candidate.ref] += 1
        if candidate.submits:
            self._submits[state].add(candidate.key)
        if candidate.action.kind is ActionKind.TYPE:
            # A field filled: the page's submit buttons may do something new now.
            self._reopen(state, set(self._submits[state]))

    def option_chosen(self, state: str, worth: Callable[[str], bool]) -> None:
        """A switch, box or option of the page's form was set: its submit buttons that are `worth` another
        try (by key) may do something new."""
        self._reopen(state, {key for key in self._submits[state] if worth(key)})

    def spend(self, state: str, keys: Iterable[str], *, cut: bool = False) -> None:
        """Count `keys` as tried on `state` without trying them (a dialog closed; `cut`: a loop cut short,
        which `restore_cut` gives back)."""
        keys = set(keys)
        if cut:
            self._cut[state] |= keys - self._tried[state]
        self._tried[state].update(keys)

    def restore_cut(self) -> bool:
        """The keys loops cut short, never taken, untried again and counted as work left on their states:
        with nothing else left, they are worth their step before the brain gives up. Whether any were."""
        cut = {state: keys for state, keys in self._cut.items() if keys}
        self._cut.clear()
        for state, keys in cut.items():
            self._tried[state] -= keys
            self.open[state] = self.open.get(state, 0) + len(keys)
        return bool(cut)

    def reopen(self, state: str, keys: set[str]) -> None:
        """The app's data changed: `keys`, tried on `state`, are fresh again and counted as work left, on
        every state of its page."""
        self._reopen(state, keys)
        if state in self._page_of:
            self._reopened_on_page[self._page_of[state]] |= keys
        self.open[state] = self.open.get(state, 0) + len(keys)

    def _reopen(self, state: str, keys: set[str]) -> None:
        self._tried[state] -= keys
        self._reopened[state] |= keys

    def count(self, state: str, ways_on: int, toggles: int) -> None:
        """What `state` has left besides the step about to be chosen there: `ways_on` elements that may
        lead somewhere (one of them is taken now, if any), `toggles` that only change the page."""
        self.open[state] = max(0, ways_on - 1)
        self.toggles[state] = toggles

    def work_elsewhere(self, here: str) -> bool:
        """Some other page has untried elements, navigation or toggles."""
        return any(n > 0 for work in (self.open, self.toggles) for s, n in work.items() if s != here)

    def pages_left(self, here: str) -> bool:
        """Some other page still has untried navigation, though no known path may lead there yet."""
        return any(count > 0 for state, count in self.open.items() if state != here)
