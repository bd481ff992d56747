"""Rows of one list, sampled rather than tapped one by one.

The rows of a list (one family: `refs.row_family`) that opened pages of one layout are samples of each
other: once `FAMILY_SAMPLE` of them did, another row is worth a tap only when the feature is about it -
the goal names it whole and no tried row had its label (`商品 300`; but the `More options` of every row
is named by "open an episode's More options" once and for all), or it carries the feature's words with
words no tried row had (`故宫 22` after `故宫 10` has none). Remembers, per family, where each row led and
the labels and words of the rows tried.
"""

from __future__ import annotations

from collections import defaultdict

from pytest_fairy.explore.families import sampled
from pytest_fairy.explore.state import layout_of
from pytest_fairy.perception.refs import family, row_family
from pytest_fairy.perception.relevance import tokens
from pytest_fairy.perception.screen import Screen

# Rows of a list that all open the same page are sampled this many times, not tapped one by one.
FAMILY_SAMPLE = 2


class Samples:
    """What the rows of each family led to, and which of their words were tried."""

    def __init__(self) -> None:
        self._layouts: dict[str, frozenset[str]] = {}  # the layout of each page stood on
        self._family_of: dict[str, str] = {}  # each element's family, by ref
        # Per family, the page each of its rows led to (latest last); the words and labels of rows tried.
        self._led_to: defaultdict[str, dict[str, str]] = defaultdict(dict)
        self._words: defaultdict[str, set[frozenset[str]]] = defaultdict(set)
        self._labels: defaultdict[str, set[str]] = defaultdict(set)

    def stood_on(self, state: str, screen: Screen) -> None:
        """The page `state` (first seen as `screen`): its layout, what its rows lead to is compared by."""
        if state not in self._layouts:
            self._layouts[state] = layout_of(screen)

    def see(self, screen: Screen) -> None:
        """The families of the elements on `screen`."""
        self._family_of.update((mark.ref, row_family(mark.ref, mark.node)) for mark in screen.marks)

    def led(self, ref: str, state: str) -> None:
        """The element `ref` led to the page `state`: one sample per element, its latest."""
        led_to = self._led_to[self.family(ref)]
        led_to.pop(ref, None)
        led_to[ref] = state

    def tried(self, ref: str, label: str) -> None:
        self._words[self.family(ref)].add(row_words(label))
        self._labels[self.family(ref)].add(label)

    def worth(self, ref: str, label: str, *, relevant: bool, named: bool) -> bool | None:
        """Whether the row `ref` labelled `label` is worth a tap once its family is sampled; None while it
        is not (the row is judged like any element)."""
        siblings = self.family(ref)
        led_to = [self._layouts.get(state, frozenset()) for state in self._led_to[siblings].values()]
        if not sampled(led_to, FAMILY_SAMPLE):
            return None
        named = named and label not in self._labels[siblings]
        return relevant and (named or row_words(label) not in self._words[siblings])

    def family(self, ref: str) -> str:
        """The family of the element `ref`, as its row was seen (`refs.row_family`)."""
        return self._family_of.get(ref) or family(ref)


def row_words(label: str) -> frozenset[str]:
    """A row's words without its numbers: `故宫 22` and `故宫 10` say the same."""
    return frozenset(word for word in tokens(label) if not word.isdigit())
