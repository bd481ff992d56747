"""State families: pages of one layout that differ only in what they show.

A shop's product pages, a feed's posts, a contact's profile: one layout, filled with other content. Told
apart by their text, 300 products would be 300 states, and the explorer would take every one for new
ground. A family is the pages of one activity, with or without a dialog alike, whose layouts
(`state.layout_of`: the kinds of view shown, text left out) overlap by at least `FAMILY_SIMILARITY`
(Jaccard): a promotion badge on some products, a missing rating on others, keep them in the family. The
first `limit` pages of a family stay states of their own (a settings page and its sub-page may share a
layout and still differ in purpose); from then on a page of the family is recorded as its first member's
state with a content of its own, so the tree counts it as a content variant of that state, the loop
guard sees a visit to a known state, and the brain reads "moved to a known page" rather than "new page".
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field

from pytest_fairy.explore.state import StateId

FAMILY_LIMIT = 3  # states a family keeps apart before its further pages fold into its first one
FAMILY_SIMILARITY = 0.85  # Jaccard overlap of two layouts for their pages to be one family


@dataclass
class _Family:
    activity: str
    dialog: bool
    layout: frozenset[str]
    members: list[StateId] = field(default_factory=list)
    folded: set[str] = field(default_factory=set)  # structure hashes of the pages folded into it

    def takes(self, state: StateId, layout: frozenset[str], similarity: float) -> bool:
        if state.activity != self.activity or state.has_dialog != self.dialog:
            return False
        return alike(self.layout, layout, similarity)


def sampled(led_to: Sequence[frozenset[str]], sample: int) -> bool:
    """Rows of one list are sampled once the last `sample` of them tried (distinct rows, oldest first in
    `led_to`, each the layout of the page it led to) led to pages of one layout: the others would too.
    The offline brain stops opening such rows; the coverage counts them as tried."""
    last = led_to[-sample:]
    return len(last) >= sample and all(alike(last[0], layout) for layout in last[1:])


def alike(a: frozenset[str], b: frozenset[str], similarity: float = FAMILY_SIMILARITY) -> bool:
    """Two layouts (`state.layout_of`) of one family: they overlap by at least `similarity` (Jaccard)."""
    union = len(a | b)
    return union > 0 and len(a & b) / union >= similarity


class Families:
    def __init__(self, limit: int = FAMILY_LIMIT, similarity: float = FAMILY_SIMILARITY) -> None:
        if limit < 1:
            raise ValueError(f"a state family keeps at least 1 state apart, got {limit}")
        if not 0 < similarity <= 1:
            raise ValueError(f"family similarity is a fraction in (0, 1], got {similarity}")
        self.limit = limit
        self.similarity = similarity
        self._families: list[_Family] = []
        self._of: dict[str, _Family] = {}  # state key -> its family

    def canonical(self, state: StateId, layout: frozenset[str]) -> StateId:
        """The state the explorer records for `state` (whose screen has `layout`): itself, or its
        family's first member with a content of its own."""
        if state.key in self._of or not layout:
            return state
        family = next((f for f in self._families if f.takes(state, layout, self.similarity)), None)
        if family is None:
            family = _Family(state.activity, state.has_dialog, layout)
            self._families.append(family)
        if len(family.members) < self.limit:
            family.members.append(state)
            self._of[state.key] = family
            return state
        family.folded.add(state.structure_hash)
        first = family.members[0]
        content = hashlib.blake2b(
            f"{state.structure_hash}\x1f{state.content_hash}".encode(), digest_size=8
        ).hexdigest()
        return StateId(first.activity, first.structure_hash, first.dialog_hash, content)

    def size(self, state: StateId) -> int:
        """How many distinct pages of `state`'s family were seen, kept apart and folded (1: no family)."""
        family = self._of.get(state.key)
        return 1 if family is None else len(family.members) + len(family.folded)
