"""What the offline brain tries again once the app's data changed.

What an element does may depend on the app's data: Checkout does nothing while the cart is empty, and
My favourites is empty until a recipe was saved. An element of the feature tried before such a change
(a commit such as Save or 加入购物车, a keep such as 收藏, a switch toggled, that did something) is worth
one more try after it - and the evidence of the run (explore/evidence.py) counts only what was tried
since. Each change reopens them once, and only `MAX_ROUNDS` changes do: a Save that is itself of the
feature would otherwise reopen itself for ever. A key reopened on a page is fresh on every state of that
page (brain/frontier.py): the change may have made the page another state, as a reservation listed above
the loans does. A submit the app refused (`Invalid email address`, `Something went wrong`) kept nothing,
and reopens nothing: as in the evidence, it is no change of data, and spends none of the rounds.
"""

from __future__ import annotations

from collections import defaultdict

from pytest_fairy.explore.facts import shown_anew
from pytest_fairy.explore.vocabulary import COMMIT_WORDS, KEEP_WORDS, refuses, says
from pytest_fairy.perception.screen import Screen

# Changes of the app's data after which the feature's elements are tried again, at most.
MAX_ROUNDS = 3


class Retries:
    """The feature's elements tried on each page since the last change of the app's data."""

    def __init__(self) -> None:
        self._tried: defaultdict[str, set[str]] = defaultdict(set)
        self._rounds = 0

    def tried(self, state: str, key: str) -> None:
        """The feature's element `key` was tried on the page `state`."""
        self._tried[state].add(key)

    def after(
        self,
        label: str,
        toggle: bool,
        did_something: bool,
        key: str,
        left_page: bool = False,
        refused: bool = False,
    ) -> dict[str, set[str]]:
        """The action `key` on the element `label` (a switch: `toggle`) was taken: when it changed the
        app's data, the keys to try again, by page (not its own); else nothing. A keep that led to a page
        of another title (`我的收藏`, `left_page`) opened it, and one the app `refused`: no change of data."""
        keeps = says(label, COMMIT_WORDS) or says(label, KEEP_WORDS) and not left_page
        changed = did_something and not refused and (toggle or keeps)
        if not changed or self._rounds >= MAX_ROUNDS:
            return {}
        self._rounds += 1
        again = {state: keys - {key} for state, keys in self._tried.items() if keys - {key}}
        self._tried.clear()
        return again


def refused(before: Screen, after: Screen) -> bool:
    """The action that led from `before` to `after` was refused: an error or a validation message shows
    that was not there before (whoever's input it was: either way nothing was kept)."""
    return any(refuses(text, tester=True) for text in shown_anew(before, after))
