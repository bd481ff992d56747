"""What the app said it kept: a keep (收藏, Add to favourites, 加入购物车) that said it succeeded (its toast),
followed by its page of kept things (我的收藏, Favourites, 购物车) saying it is empty, is a thing the app did
not keep (`Contradiction.FORGOTTEN`). So is one made on a page titled with what it keeps (`Lisbon`), when
that page of kept things lists another thing the run kept from a page of the same activity, by that page's
title (`Hanoi`), shows every row it holds (its lists end above their bottom edge), and names the first
nowhere.

Only a keep tapped once: a second tap of the same element may have undone the first (收藏 / 取消收藏 on one
button). Only a page whose title shares the keep's words (or names favourites, as a keep of `Save` or
`Bookmark` on a page with no field to fill does: `My favourites`), showing no row and an empty-state text
(暂无收藏, No saved recipes yet), or the rows above, and reached with no tap of an undo (取消收藏, Remove)
since the keep: the run's own doing explains nothing of what it shows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pytest_fairy.explore.facts import Control, Facts, seen_texts
from pytest_fairy.explore.vocabulary import KEEP_WORDS, says
from pytest_fairy.perception.refs import list_row
from pytest_fairy.perception.relevance import loose_overlap, names_whole, tokens, with_forms
from pytest_fairy.perception.screen import Screen

# A page of kept things saying it holds none: 暂无收藏的房源, 还没有收藏, No saved recipes yet, Your wishlist
# is empty, Nothing here yet.
EMPTY = re.compile(r"暂无|还没有|空空如也|\bno\b.*\byet\b|\bnothing\b.*\byet\b|\bis empty\b", re.IGNORECASE)
# Words for one kind of keep, whichever of them a keep and its page use: `Save` and `My favourites`.
FAVOURITES = frozenset({"save", "favourite", "favorite", "bookmark", "wishlist", "收藏"})
# Labels of a keep: 收藏, 加入购物车, Follow, Save recipe, Bookmark.
KEEPING = KEEP_WORDS | FAVOURITES
# Labels that take back what a keep did.
UNDO_WORDS = frozenset({"取消", "移除", "删除", "remove", "unfollow", "unlike", "unsave", "delete"})


@dataclass(frozen=True, slots=True)
class Forgotten:
    """A keep the app did not keep: step `step` tapped `label`, which said `said`; its page showed `empty`,
    or did not list `missing`, the title of the page the keep was made on."""

    label: str
    said: str
    step: int
    empty: str
    missing: str = ""

    def __str__(self) -> str:
        if self.missing:
            return f"did not list '{self.missing}', though step {self.step} ({self.label}) said '{self.said}'"
        return f"showed '{self.empty}', though step {self.step} ({self.label}) said '{self.said}'"


class Keeps:
    """The keeps the run made, each tapped once and said to succeed."""

    def __init__(self) -> None:
        self._kept: dict[str, Forgotten] = {}  # by the element's ref; `empty` filled once found
        self._again: set[str] = set()  # keeps tapped more than once: the second may have undone the first
        self._favourites: set[str] = set()  # keeps of a favourite: not a form's Save
        # The keeps made on a titled page, by (ref, the page's title), with that page's activity: what its
        # page of kept things lists.
        self._titled: dict[tuple[str, str], tuple[Forgotten, str]] = {}
        self._titled_again: set[tuple[str, str]] = set()

    def arrived(
        self, step: int, ref: str, label: str, facts: Facts, screens: tuple[Screen, Screen]
    ) -> Forgotten | None:
        """The action of `step` on `ref` (`label`) led from `screens[0]` to `screens[1]`: a keep it made,
        or one its page shows the app did not keep."""
        acted_on, reached = screens
        if facts.control is Control.BUTTON and says(label, UNDO_WORDS):
            self._kept.clear()  # something was taken back: what the pages show is the run's doing
            self._titled.clear()
            return None
        if facts.control is Control.BUTTON and says(label, KEEPING) and not facts.retitled:
            self._keep_titled(step, (ref, acted_on.title), label, facts, acted_on.activity)
            if ref in self._kept or ref in self._again:
                self._kept.pop(ref, None)
                self._again.add(ref)
            elif facts.toast and not facts.error:
                self._kept[ref] = Forgotten(label, facts.toast, step, "")
                if _favourites(label) and not any(m.node.editable for m in acted_on.marks):
                    self._favourites.add(ref)
            return None
        if reached.title == acted_on.title:
            return None
        unlisted = self._unlisted(reached)
        if unlisted is not None or any(list_row(m.node) is not None for m in reached.marks):
            return unlisted
        empty = next((text for text in seen_texts(reached) if EMPTY.search(text)), "")
        if not empty:
            return None
        title = with_forms(tokens(reached.title))
        for found, keep in self._kept.items():
            if loose_overlap(keep.label, title) or found in self._favourites and title & FAVOURITES:
                del self._kept[found]
                return Forgotten(keep.label, keep.said, keep.step, empty)
        return None

    def _keep_titled(self, step: int, key: tuple[str, str], label: str, facts: Facts, activity: str) -> None:
        """The keep `key` (its ref, its page's title) was tapped at `step` on a page of `activity`."""
        if key in self._titled or key in self._titled_again:
            self._titled.pop(key, None)
            self._titled_again.add(key)
        elif key[1] and facts.toast and not facts.error:
            self._titled[key] = (Forgotten(label, facts.toast, step, "", missing=key[1]), activity)

    def _unlisted(self, reached: Screen) -> Forgotten | None:
        """A keep whose thing a page of kept things with every row shown does not name, while it names
        another the run kept on a page of the same activity (a destination beside a destination, not a
        hotel that may be listed apart), by the title of the page it was kept on."""
        if len(self._titled) < 2:
            return None  # nothing else kept to show how the page names what it keeps
        texts = seen_texts(reached)
        listed = {
            activity
            for (_, title), (_, activity) in self._titled.items()
            if any(names_whole(text, title) for text in texts)
        }
        if not listed or not _every_row_shown(reached):
            return None
        page = with_forms(tokens(reached.title))
        for (ref, title), (keep, activity) in self._titled.items():
            kept_here = loose_overlap(keep.label, page) or ref in self._favourites and page & FAVOURITES
            if kept_here and activity in listed and not any(title in text for text in texts):
                del self._titled[ref, title]
                return keep
        return None


def _every_row_shown(screen: Screen) -> bool:
    """Each list on `screen` ends above its bottom edge: it holds no row below what it shows."""
    lists = [m.node for m in screen.marks if m.node.scrollable]
    lists += [row.parent for m in screen.marks if (row := list_row(m.node)) is not None and row.parent]
    return all(
        max((child.bounds.bottom for child in node.children), default=0) < node.bounds.bottom
        for node in lists
    )


def _favourites(label: str) -> bool:
    """The keep `label` names a favourite (`Save`, `Bookmark`, `收藏`)."""
    return bool(with_forms(tokens(label)) & FAVOURITES)
