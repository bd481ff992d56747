"""Stable element refs: a name for an element that survives scrolling, refreshes and re-dumps.

Mark numbers are positional and change whenever the screen does; a ref does not depend on coordinates.
A ref is built from up to three parts joined by `/`:

- the scope: the short resource-id of the nearest id-carrying ancestor (of the row, if in a list),
- the row: for an element inside a list (a descendant of a scrollable container), the list row it lives
  in, named by its id / class and its first stable text, so the ref does not depend on the row's y or
  on which rows happen to be on screen,
- the element itself: its short id if it has one (`btn_add`, `tv_points`: its text may be a counter),
  else its short class with its stable text in brackets (`Button[确定]`); an element with neither text
  nor id gets its index among same-kind siblings (`ImageView@2`). Where ids collide (`tab_item` four
  times) the text is added (`tab_item[首页]`).

Changing numbers (prices, clocks, dates, counters such as `(3)` or `99+`) are replaced by `#` so they
do not enter the ref, and a text that is nothing but such numbers (`¥22.00`, `12:30`) is left out
altogether; short numbers inside names (`巨无霸 2号`, `第1步`) are kept since they tell elements apart.
Refs are made unique within a screen: colliding refs gain text, then their raw text (all digits kept),
and an ordinal (`#2`, `#3` in reading order) settles what is still equal.
"""

from __future__ import annotations

import difflib
import re
from collections import defaultdict
from collections.abc import Sequence
from typing import Protocol

from pytest_fairy.perception.hierarchy import Node
from pytest_fairy.perception.marks import Mark
from pytest_fairy.perception.reading import node_label

REF_TEXT_MAX = 24  # characters of text kept in a ref
FUZZY_MIN_SIMILARITY = 0.5  # label similarity a fuzzy match needs when the old element had a label

# Numbers that change while the element stays the same: prices, clocks, dates, percentages, counters
# ("(3)", "99+", "3件", "1.2km") and long numbers. Short numbers inside names ("巨无霸 2号", "第1步",
# "Note 3") are kept: they tell elements apart.
_DYNAMIC = re.compile(
    r"""[¥$€£]\s*\d[\d,.]*
      | \d[\d,.]*\s*(?:元|块)
      | \d{1,2}:\d{2}(?::\d{2})?
      | \d{4}[-/.年]\d{1,2}[-/.月]\d{1,2}日?
      | \d{1,2}月\d{1,2}日
      | \d+(?:\.\d+)?\s*%
      | [(（\[]\s*\d+\+?\s*[)）\]]
      | \+\d+ | \d+\+
      | \d+[.,]\d+
      | \d{3,}
      | \d+\s*(?:件|条|人|次|个|份|分钟|小时|天|秒|米|公里|km|min|sec|m|s)(?![a-z])""",
    re.VERBOSE | re.IGNORECASE,
)
# The same without bare long numbers: in a row's name (`商品 110`, `Order 20431`) they tell rows apart.
_CHANGING = re.compile(_DYNAMIC.pattern.replace("| \\d{3,}\n", ""), re.VERBOSE | re.IGNORECASE)
_SPACE = re.compile(r"\s+")
_ALL_DIGITS = re.compile(r"\d+")
_SYMBOLS = re.compile(r"[\W_]+")


def _is_dynamic(text: str) -> bool:
    """Text that is nothing but changing numbers (`¥22.00`, `12:30`, `99+`, `42`): it names nothing."""
    rest = _SYMBOLS.sub("", _DYNAMIC.sub("", text))
    return not rest or rest.isdigit()


def name_text(text: str) -> str:
    """Text as a list row's name: changing numbers (prices, clocks, counters with their unit) replaced by
    `#`, the numbers that tell rows apart kept (`商品 7`, `商品 110`); "" for text that is nothing but
    changing numbers."""
    if not text or not _SYMBOLS.sub("", _CHANGING.sub("", text)):
        return ""
    return _CHANGING.sub("#", _SPACE.sub(" ", text).strip())


_REF_TEXT = re.compile(r"\[[^\]]*\]")
_ID_INDEX = re.compile(r"([A-Za-z][_-])\d+(?=\[|/|$)")  # `row_12`, `item-3`: an index ending an id
_ROW_INDEX = re.compile(r"([A-Za-z])\d+(?=\[|/|$)")  # in a list row, `row0` too


def family(ref: str) -> str:
    """The ref with its texts, ordinals and the index at the end of an id taken out: the rows of one list
    share it (`rv/item[商品 7]/tv_name` -> `rv/item[]/tv_name`; `rv/row_12[Lisbon]` -> `rv/row_#[]`, a
    row tagged with its position, as Compose test tags often are)."""
    return _ID_INDEX.sub(r"\1#", _REF_TEXT.sub("[]", ref).split("#", 1)[0])


def _clean(text: str, keep_digits: bool) -> str:
    text = _SPACE.sub(" ", text).strip()
    if not keep_digits:
        text = _DYNAMIC.sub("#", text)
    return text[:REF_TEXT_MAX]


def stable_text(node: Node, *, keep_digits: bool = False, descend: bool = True) -> str:
    """The node's text, content-desc, or (for a container, when `descend`) first stable descendant text."""
    for own in (node.text, node.content_desc):
        if own and not node.password and not _is_dynamic(own):
            return _clean(own, keep_digits)
    if not descend or node.scrollable:
        return ""  # what a list shows scrolls away: it does not name the list
    stack = list(reversed(node.children))
    while stack:
        child = stack.pop()
        for text in (child.text, child.content_desc):
            if text and not child.password and not _is_dynamic(text):
                return _clean(text, keep_digits)
        if not child.scrollable:
            stack.extend(reversed(child.children))
    return ""


def _key(node: Node) -> str:
    return node.short_id or node.short_class or "node"


def row_family(ref: str, node: Node) -> str:
    """`family(ref)`; for an element of a list row, digits ending an id are an index too (`m2_row0`,
    `m2_row1`: one family), as rows of one list are alike."""
    found = family(ref)
    return _ROW_INDEX.sub(r"\1#", found) if list_row(node) is not None else found


def list_row(node: Node) -> Node | None:
    """The list row holding `node` (the child of the nearest scrollable ancestor), or None."""
    child = node
    parent = node.parent
    while parent is not None:
        if parent.scrollable:
            return child
        child, parent = parent, parent.parent
    return None


def _part(node: Node, keep_digits: bool, with_text: bool) -> str:
    text = stable_text(node, keep_digits=keep_digits) if with_text else ""
    key = _key(node)
    if text:
        return f"{key}[{text}]"
    parent = node.parent
    if parent is None or node.resource_id:
        return key
    same = [c for c in parent.children if _key(c) == key and not stable_text(c)]
    return f"{key}@{next(i for i, c in enumerate(same) if c is node)}" if len(same) > 1 else key


def _scope(node: Node) -> str:
    parent = node.parent
    while parent is not None:
        if parent.resource_id:
            return parent.short_id
        parent = parent.parent
    return ""


# How much a ref says, raised only for refs that collide: 0 = an element with an id is named by the id
# alone (its text may be a counter: "积分 12"), 1 = with its text (digits normalised), 2 = digits kept.
ID_ONLY, WITH_TEXT, WITH_DIGITS = 0, 1, 2


def raw_ref(node: Node, *, level: int = WITH_TEXT) -> str:
    """The ref of `node` at a `level` of detail, before it is made unique within its screen.

    A list row always carries its text: rows share their ids, and which rows are on screen changes.
    """
    row = list_row(node)
    keep_digits = level >= WITH_DIGITS
    parts = [_scope(row if row is not None else node)]
    if row is not None and row is not node:
        parts.append(_part(row, keep_digits, with_text=True))
    with_text = level >= WITH_TEXT or not node.resource_id or node is row
    parts.append(_part(node, keep_digits, with_text))
    return "/".join(p for p in parts if p)


def make_refs(nodes: Sequence[Node]) -> list[str]:
    """Refs for `nodes` (given in reading order), unique among them."""
    refs = [raw_ref(node, level=ID_ONLY) for node in nodes]
    for level in (WITH_TEXT, WITH_DIGITS):
        groups: dict[str, list[int]] = defaultdict(list)
        for i, ref in enumerate(refs):
            groups[ref].append(i)
        for members in groups.values():
            if len(members) > 1:
                for i in members:
                    refs[i] = raw_ref(nodes[i], level=level)
    seen: dict[str, int] = defaultdict(int)
    taken = set(refs)
    unique: list[str] = []
    for ref in refs:
        seen[ref] += 1
        if seen[ref] == 1:
            unique.append(ref)
            continue
        ordinal = seen[ref]
        while f"{ref}#{ordinal}" in taken:
            ordinal += 1
        taken.add(f"{ref}#{ordinal}")
        unique.append(f"{ref}#{ordinal}")
    return unique


def _similarity(a: str, b: str) -> float:
    if not a and not b:
        return 1.0
    return difflib.SequenceMatcher(None, a, b).ratio()


def _numbered_siblings(a: str, b: str) -> bool:
    # Had only changing numbers differed, the refs would have matched exactly; labels that differ in
    # their digits alone are numbered items ("巨无霸 1号" / "巨无霸 2号"), not one element changed.
    return a != b and _ALL_DIGITS.sub("#", a) == _ALL_DIGITS.sub("#", b)


def _distance(a: Mark, b: Mark) -> int:
    (ax, ay), (bx, by) = a.center, b.center
    return abs(ax - bx) + abs(ay - by)


class Marked(Protocol):
    """What refs are matched between: a :class:`~pytest_fairy.perception.screen.Screen` is one. Named
    here rather than imported, since the screen is built with refs and so imports this module."""

    @property
    def marks(self) -> Sequence[Mark]: ...


def match_refs(old: Marked, new: Marked) -> dict[str, Mark]:
    """Old ref -> the mark on `new` that is the same element: exact ref first, then a fuzzy match.

    The fuzzy match takes a mark of the same id / class in the same kind of layer, with the most similar
    label (at least `FUZZY_MIN_SIMILARITY` when the old element had one, and not one that differs only in
    its digits), nearest on screen on a tie.
    Each new mark is matched at most once.
    """
    matched: dict[str, Mark] = {}
    used: set[int] = set()
    by_ref = {mark.ref: mark for mark in new.marks}
    for mark in old.marks:
        found = by_ref.get(mark.ref)
        if found is not None and found.number not in used:
            matched[mark.ref] = found
            used.add(found.number)
    for mark in old.marks:
        if mark.ref in matched:
            continue
        best: tuple[float, int, Mark] | None = None
        for candidate in new.marks:
            if candidate.number in used or candidate.layer != mark.layer:
                continue
            if _key(candidate.node) != _key(mark.node):
                continue
            score = _fuzzy_score(_context(mark), _context(candidate))
            if score is None:
                continue
            ranked = (score, -_distance(mark, candidate), candidate)
            if best is None or ranked[:2] > best[:2]:
                best = ranked
        if best is not None:
            matched[mark.ref] = best[2]
            used.add(best[2].number)
    return matched


def _context(mark: Mark) -> tuple[str, str]:
    """(the label of the list row holding the element, the element's label)."""
    row = list_row(mark.node)
    return (node_label(row) if row is not None and row is not mark.node else "", mark.label)


def _fuzzy_score(old: tuple[str, ...], new: tuple[str, ...]) -> float | None:
    """The summed label similarity of the parts, or None when a part is too different to be the same."""
    total = 0.0
    for a, b in zip(old, new, strict=True):
        score = _similarity(a, b)
        if a and score < FUZZY_MIN_SIMILARITY or _numbered_siblings(a, b):
            return None
        total += score
    return total
