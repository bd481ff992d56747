"""An open exploration: a feature with no done-when, explored for the app's map rather than a target.

With nothing to head for, the offline brain spends each step, where it can, on an action not yet taken on
the screen it stands on: a new transition of the app's map. So, unlike a feature's search:
- an element tried on one screen is still untried on another (the same button on every product page);
- elements come first (those never tried anywhere before those tried elsewhere: their score says so),
  then more rows of a list whose rows all opened one layout, then a scroll (`Tier`); a walk from a screen
  with nothing left heads for a screen with elements first, though one with only rows or scrolls is nearer;
- Back is an action of each screen too, taken once the screen has nothing else left, and walked back for
  on a screen left by its Up button; the start screen's Back leaves the app (and what it keeps in memory):
  once the screen has nothing left it waits for every other screen's work, but more rows of its sampled
  list or a scroll (hundreds, on a long list) do not keep it waiting;
- an element whose every try changed nothing is not tried again elsewhere, nor its rows' siblings once
  `DEAD_AFTER` of them did nothing;
- an element of a kind that stayed on its screen whenever tried (a switch, a row that only shows a toast;
  `element_kind`, learnt over the run) waits until the screen's Back is taken and the other screens'
  ways on are spent: a step that stays finds no new way of the map; so does an element that stayed
  whenever tapped on another state of its page (a menu's category tabs, once the cart's count shows);
- a list is scrolled again only while its last scroll showed a kind of element the page had not shown
  (more rows of the same kind are more of the same);
- another choice on a form (a switch, box or option) makes its submit worth another try when the submit
  led to another page: the booking made for another department is a page of its own;
- once every known screen's actions are taken, screens last seen before the app's data changed (an action
  that did something in place: a toast, a saved item, a switch) are visited again: they may show it (the
  saved recipe listed), and a screen that does is a new one, with every action untried.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Mapping
from enum import IntEnum

from pytest_fairy.brain.candidates import Candidate, best
from pytest_fairy.brain.scrolling import SCROLL_BACK
from pytest_fairy.explore.action import ActionKind
from pytest_fairy.perception.refs import list_row, row_family
from pytest_fairy.perception.screen import Mark, Screen

# Rows of one family that did nothing before their siblings are taken for dead too.
DEAD_AFTER = 1
# A kind of element that stayed on this many screens, and left its screen at most a third as often as it
# stayed, is expected to stay: what stayed on one screen only may be that screen's way (a home page's
# promotions), not the kind's.
STAYS_AFTER = 2
LEFT_SHARE = 3


class Tier(IntEnum):
    """The order an open exploration tries a screen's untried actions in (lowest first)."""

    ELEMENT = 0  # an element not tried on this screen
    SAMPLED_ROW = 1  # a row of a list whose rows all opened one layout
    SCROLL = 2
    STAYS = 3  # an element of a kind expected to stay on its screen: after Back and the other screens' work


def element_kind(mark: Mark) -> str:
    """What an element is, for learning what such elements do: a list row by its family (the rows of one
    list), any other element by its layer, its ref's scope (the id-carrying ancestor: `bottom_nav`,
    `toolbar`, `content`), its class and what it can do (`app:content/Switch/ck`)."""
    node = mark.node
    if list_row(node) is not None:
        return row_family(mark.ref, node)
    scope = mark.ref.split("/", 1)[0] if "/" in mark.ref else ""
    flags = "".join(flag for flag, on in (("c", node.clickable), ("k", node.checkable)) if on)
    return f"{mark.layer.value}:{scope}/{node.short_class}/{flags}"


class OpenExploration:
    """What an open exploration remembers: elements that did nothing, screens Back was taken on, and what
    each list's last scroll showed."""

    def __init__(self) -> None:
        self._did_nothing: Counter[str] = Counter()  # refs and families, by how often they changed nothing
        self._did_something: set[str] = set()
        self._backed: set[str] = set()
        self._kinds: defaultdict[str, set[str]] = defaultdict(set)  # per screen, the families it showed
        self._shown_new: dict[tuple[str, str], bool] = {}  # (screen, list): its last scroll showed a new kind
        # Steps counted by `saw`: when each screen was last seen, and when the app's data last changed.
        self._clock = 0
        self._seen_at: dict[str, int] = {}
        self._data_changed_at = 0
        # Per element kind, how often a tap on one left its screen and how often it stayed.
        self._left: Counter[str] = Counter()
        self._stayed: Counter[str] = Counter()
        self._stayed_on: defaultdict[str, set[str]] = defaultdict(set)
        # Per page, the elements whose every tap there stayed on its state, and those that once left it.
        self._stayed_here: defaultdict[str, set[str]] = defaultdict(set)
        self._left_here: defaultdict[str, set[str]] = defaultdict(set)
        # Per screen, the tier of what it had left when last stood on (less the step chosen there).
        self._left_tier: dict[str, Tier] = {}

    def saw(self, state: str, screen: Screen, *, scrolled: str = "") -> None:
        """The screen `state` shows `screen`; `scrolled`: the list scrolled on it just before."""
        self._clock += 1
        self._seen_at[state] = self._clock
        kinds = {row_family(mark.ref, mark.node) for mark in screen.marks}
        known = self._kinds[state]
        if scrolled:
            self._shown_new[state, scrolled] = not kinds <= known
        known |= kinds

    def acted(self, ref: str, family: str, *, changed: bool) -> None:
        """The element `ref` (of `family`) was tapped: it `changed` the screen or not."""
        if changed:
            self._did_something.update((ref, family))
        else:
            self._did_nothing.update((ref, family))

    def went(self, kind: str, state: str, *, left: bool, ref: str = "", page: str = "") -> None:
        """An element of `kind` (`ref`) was tapped on the screen `state` of `page`: it `left` it (for
        another screen, or a dialog) or stayed."""
        (self._left if left else self._stayed)[kind] += 1
        (self._left_here if left else self._stayed_here)[page].add(ref)
        if not left:
            self._stayed_on[kind].add(state)

    def stayed_on_page(self, page: str, ref: str) -> bool:
        """The element `ref` stayed on its screen whenever tapped on a state of `page`: on another state
        of the page (more in the cart, another delivery time) it would stay again."""
        return ref in self._stayed_here[page] and ref not in self._left_here[page]

    def stays(self, kind: str) -> bool:
        """Elements of `kind` are expected to stay on their screen: most of their taps did, on several
        screens."""
        stayed = self._stayed[kind]
        return len(self._stayed_on[kind]) >= STAYS_AFTER and self._left[kind] * LEFT_SHARE <= stayed

    def tier(self, page: str, candidate: Candidate, kind: str, *, sampled: bool) -> Tier:
        """Where the untried action `candidate` (on a screen of `page`; its element of `kind`) comes in the
        screen's order; `sampled`: a row of a list sampled enough (brain/samples.py)."""
        if candidate.action.kind is ActionKind.SCROLL:
            return Tier.ELEMENT if candidate.key.startswith(SCROLL_BACK) else Tier.SCROLL
        tap = candidate.action.kind in (ActionKind.TAP, ActionKind.LONG_TAP)
        if tap and not candidate.named and (self.stays(kind) or self.stayed_on_page(page, candidate.ref)):
            return Tier.STAYS
        return Tier.SAMPLED_ROW if sampled else Tier.ELEMENT

    def leading(
        self, state: str, untried: list[Candidate], tier_of: Callable[[Candidate], Tier]
    ) -> tuple[list[Candidate], Tier | None]:
        """The untried actions of the screen `state` to choose among now, those of its lowest tier (none
        when only kinds that stay are left: they come after Back and the other screens' ways on), and that
        tier; remembers what the screen has left besides the best of them."""
        tiers = {id(c): tier_of(c) for c in untried}
        lowest = min(tiers.values(), default=None)
        leading = [] if lowest is Tier.STAYS else [c for c in untried if tiers[id(c)] == lowest]
        chosen = best(leading) if leading else None
        left = min((tiers[id(c)] for c in untried if c is not chosen), default=None)
        if left is None:
            self._left_tier.pop(state, None)
        else:
            self._left_tier[state] = left
        return leading, lowest

    def elements_left(self, work: Mapping[str, int]) -> dict[str, int]:
        """`work` less the screens whose untried actions are all rows of a sampled list, scrolls or kinds
        that stay: a screen with an element never tried on it is walked to first."""
        return {state: n for state, n in work.items() if self._left_tier.get(state) is Tier.ELEMENT}

    def changed_data(self) -> None:
        """The last action did something without leaving its screen: the app's data may have changed."""
        self._data_changed_at = self._clock

    def stale(self) -> dict[str, int]:
        """The screens last seen before the app's data last changed (as a walk's work: 1 each)."""
        return {state: 1 for state, seen in self._seen_at.items() if seen < self._data_changed_at}

    def dead(self, ref: str, family: str) -> bool:
        """Not worth a try: it changed nothing each time, or `DEAD_AFTER` of its siblings did not."""
        if ref in self._did_something:
            return False
        return self._did_nothing[ref] > 0 or (
            family != ref and family not in self._did_something and self._did_nothing[family] >= DEAD_AFTER
        )

    def scroll_worth(self, state: str, ref: str, scrolled: int) -> bool:
        """A list is scrolled once, and again while its last scroll showed a new kind of element."""
        return scrolled == 0 or self._shown_new.get((state, ref), False)

    def unbacked(self) -> dict[str, int]:
        """The screens seen whose Back is still untried (as a walk's work: 1 each)."""
        return {state: 1 for state in self._seen_at if state not in self._backed}

    def back_untried(self, state: str) -> bool:
        return state not in self._backed

    def backed(self, state: str) -> None:
        self._backed.add(state)
