"""Coverage: what the run has tried of what it reached, and what each action did.

A feature whose done-when oracles never held is an app defect only when the explorer has exhausted the
part of the app it could reach - every actionable element of every screen reached in the app tried or
denied by the policy, every list scrolled until a scroll moved nothing, every dialog's choices seen - and
one of its actions is positive evidence against the feature (`evidence`). Otherwise the run cannot tell
a broken app from an unfinished search, and says what it left (`list rv_products on 全部商品 not scrolled
past 商品 12`) or what it could not know (`'Submit' on Contact support tried only with 'I agree'
unticked`).

What counts as tried, element by element:
- an action on it on this screen, a denial included, or on the same element (same ref) on another screen
  (the bottom bar of every page, the size options of every product: the brain tries them once);
- an element the risk policy would deny (the brain does not spend a step finding that out);
- a list row whose siblings (rows of one layout, `refs.family`) were sampled: the last `ROW_SAMPLE`
  of them tried led to pages of one layout (`families.sampled`; the page they were on, for rows that do
  nothing), so the others would too; unless the row has words of its own (beyond those the sampled rows
  share) that the feature's words hold: `商品 150 · 限时特价` when the goal asks for 限时特价 is its own
  candidate, not a sample of `商品 12`;
- a way out (Navigate up, 关闭, 取消) of a screen the run left;
- the choices (radio buttons, check boxes) of a dialog the run saw and left;
- the checked radio button of a group (tapping it does nothing).

Pure bookkeeping: the loop hands in each screen it arrives at and the action that led there.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from pytest_fairy.explore.action import Action, ActionKind
from pytest_fairy.explore.decisions import Outcome, OutcomeKind
from pytest_fairy.explore.facts import Facts, facts_of, field_texts, usable
from pytest_fairy.explore.families import sampled
from pytest_fairy.explore.keeps_kept import Keeps
from pytest_fairy.explore.naming import names
from pytest_fairy.explore.policy import RiskPolicy
from pytest_fairy.explore.settings_kept import Settings
from pytest_fairy.explore.state import StateId, layout_of
from pytest_fairy.explore.tried import MOVED_ON, Log, Tried
from pytest_fairy.explore.vocabulary import LEAVING_LABELS, asks_empty, tells_to_fill
from pytest_fairy.perception.refs import list_row, row_family
from pytest_fairy.perception.relevance import overlap, tokens
from pytest_fairy.perception.screen import Mark, Screen

# Rows of one layout count as covered once this many of them opened pages of one layout.
ROW_SAMPLE = 2
# What the "left" part of a verdict names at most; the rest is counted.
LEFT_SHOWN = 4
CARRIED_OUT = MOVED_ON | {OutcomeKind.CONTENT_CHANGED, OutcomeKind.NO_CHANGE}


@dataclass
class _Page:
    """One state as the run saw it: its elements by ref (label), its lists, its rows' families."""

    name: str
    title: str
    layout: frozenset[str]
    elements: dict[str, str] = field(default_factory=dict)
    lists: dict[str, str] = field(default_factory=dict)  # list ref -> the last row label seen in it
    rows: dict[str, str] = field(default_factory=dict)  # row element ref -> its family
    dialog: bool = False
    options: set[str] = field(default_factory=set)  # checkable elements: choices, switches
    denied: set[str] = field(default_factory=set)  # refs the policy would deny
    tried: set[str] = field(default_factory=set)
    ended: set[str] = field(default_factory=set)  # lists a scroll found at their end
    left: bool = False  # an action led from here to another screen
    read: set[str] = field(default_factory=set)  # the contents (`StateId.content_hash`) read so far
    blanks: tuple[str, ...] = ()  # what its text fields showed at first sight (their hints)
    via: str = ""  # the label of the element whose action first led here


class Coverage:
    def __init__(
        self,
        policy: RiskPolicy | None = None,
        words: str = "",
        inputs: Sequence[tuple[str, str]] = (),
        expects: Sequence[str] = (),
    ) -> None:
        """`words`: what the feature is about (`Target.words`), which rows no sample stands for; `inputs`:
        the spec's test data (`Target.inputs`), which the run did not make up; `expects`: the texts its
        done-when shows (`Target.done_hints`)."""
        self.policy = policy or RiskPolicy()
        self.inputs = tuple(inputs)
        self.empty = asks_empty(words)  # it asks for a form submitted empty
        self._refusing = self.empty and any(map(tells_to_fill, expects))  # and to see it refused
        self._words = tokens(words)
        self._text = words
        self._pages: dict[str, _Page] = {}
        self._tried_refs: set[str] = set()
        # Row family -> where each of its rows (by ref) led, latest last.
        self._samples: defaultdict[str, dict[str, str]] = defaultdict(dict)
        self._labels: dict[str, str] = {}  # each sampled row's label, by ref
        self.log = Log()
        self.settings = Settings()  # the switches the run set, to see them kept
        self.keeps = Keeps()  # what the run's keeps (收藏) said they kept, to see it kept

    def refusing(self, form: Screen, label: str) -> bool:
        """Whether the feature asks for its form submitted empty to see it refused, and points to this
        one: its title or the commit `label` shares the feature's words (`新增收货地址`, `保存`). Another
        empty form the run met on its way (修改昵称's `确定`) is none of its business."""
        return self._refusing and bool((tokens(form.title) | tokens(label)) & self._words)

    def saw(self, state: StateId, screen: Screen, *, in_app: bool) -> None:
        """A screen the run stood on; screens of other apps are not the feature's to exhaust."""
        if not in_app:
            return
        page = self._pages.get(state.key)
        if page is not None and state.content_hash in page.read:
            return  # this very screen was read at an earlier step: nothing new to note (the hot path)
        if page is None:
            page = _Page(state.name, screen.title, layout_of(screen), dialog=screen.has_dialog)
            page.blanks = self._blanks(state, screen)
            self._pages[state.key] = page
        page.read.add(state.content_hash)
        for mark in usable(screen):
            if mark.node.scrollable and not (mark.node.clickable or mark.node.checkable):
                page.lists[mark.ref] = _last_row(mark, screen) or page.lists.get(mark.ref, "")
                continue
            page.elements[mark.ref] = mark.label
            row_family = _row_family(mark)
            if row_family:
                page.rows[mark.ref] = row_family
            if self.policy.check(Action(ActionKind.TAP, mark.number), screen):
                page.denied.add(mark.ref)
            if mark.node.checkable:
                page.options.add(mark.ref)
            if _chosen_radio(mark):
                page.tried.add(mark.ref)  # tapping the checked radio of a group does nothing

    def acted(
        self,
        step: int,
        before: StateId,
        key: str,
        words: str,
        outcome: Outcome,
        after: StateId,
        screens: tuple[Screen, Screen] | None = None,
    ) -> None:
        """The action `key` (kind|ref|...) taken on `before` led to `after` with `outcome`; `screens`, the
        screen it was taken on and the one it led to, tell what it did (`facts.Facts`)."""
        page = self._pages.get(before.key)
        kind, _, rest = key.partition("|")
        ref = rest.split("|", 1)[0]
        if page is None:
            return
        if outcome.kind in MOVED_ON:
            page.left = True
        label = page.elements.get(ref, "") or ref
        reached = self._pages.get(after.key)
        # The title the screen showed: a page folded with its family (`families`) keeps the first's.
        shown = screens[1].title if screens is not None else ""
        led_to = shown or ((reached.title or reached.name) if reached is not None else after.name)
        facts = (
            facts_of(
                screens[0],
                ref,
                screens[1],
                page.blanks,
                self.inputs,
                empty=self.empty,
                refusing=self.refusing(screens[0], label),
            )
            if screens is not None and ref
            else Facts()
        )
        if (
            ref
            and reached is not None
            and reached is not page
            and not reached.via
            and outcome.kind in MOVED_ON
        ):
            # A scroll shows more of the same page: what led to the page is still what led there.
            reached.via = page.via if kind == ActionKind.SCROLL.value else label
        where = page.title or page.name
        lost = self.settings.arrived(step, ref, facts, screens) if screens is not None else None
        forgotten = (
            self.keeps.arrived(step, ref, label, facts, screens) if screens is not None and ref else None
        )
        tried = Tried(
            step,
            words,
            label,
            where,
            outcome,
            led_to,
            facts,
            page.via,
            page.blanks,
            after.key,
            lost=lost,
            forgotten=forgotten,
            named=names(label, self._text),
        )
        self.log.add(tried)
        if not ref:
            return
        if kind == ActionKind.SCROLL.value and ref in page.lists:
            if outcome.kind is OutcomeKind.NO_CHANGE:
                page.ended.add(ref)
            return
        page.tried.add(ref)
        self._tried_refs.add(ref)
        row_family = page.rows.get(ref)
        if row_family and outcome.kind in CARRIED_OUT and after.key in self._pages:
            samples = self._samples[row_family]
            samples.pop(ref, None)
            samples[ref] = after.key
            self._labels[ref] = label

    def left(self) -> list[str]:
        """What the run has not tried of what it reached, in words; empty when the reach is exhausted."""
        found: list[str] = []
        for page in self._pages.values():
            where = page.title or page.name
            for ref, last_row in page.lists.items():
                if ref not in page.ended:
                    past = f"past {last_row}" if last_row else "to its end"
                    found.append(f"list {_short(ref)} on {where} not scrolled {past}")
            untried = [
                label or _short(ref) for ref, label in page.elements.items() if not self._covered(page, ref)
            ]
            if untried:
                shown = ", ".join(f"'{label}'" for label in untried[:LEFT_SHOWN])
                more = f" and {len(untried) - LEFT_SHOWN} more" if len(untried) > LEFT_SHOWN else ""
                found.append(f"on {where}: {shown}{more} not tried")
        return found

    def evidence(self, words: Sequence[str]) -> Tried | None:
        """The action that shows the feature (`words`) not working, if one does (`tried.Log.evidence`)."""
        return self.log.evidence(words, self._first)

    def at(self, step: int) -> Tried | None:
        """The action taken at `step`, if the run recorded one there."""
        return self.log.at(step, self._first)

    def unknown(self, words: Sequence[str]) -> list[str]:
        """What the run could not know of the feature (`Log.unknown`), and the elements the feature's words
        point to that the risk policy denied (never tried: `Buy milk` read as a purchase)."""
        wanted = tokens(" ".join(words))
        denied = [
            f"'{page.elements[ref]}' on {page.title or page.name} denied by the risk policy, never tried"
            for page in self._pages.values()
            for ref in sorted(page.denied - page.tried)
            if ref not in self._tried_refs and overlap(page.elements.get(ref, ""), wanted)
        ]
        return [*self.log.unknown(words, self._first), *dict.fromkeys(denied)]

    def _blanks(self, state: StateId, screen: Screen) -> tuple[str, ...]:
        """What the fields of the page of `state` showed at first sight: of the same page seen before as
        another state (its activity and title, as many fields; an error line shown since, its fields
        typed), else what they show now."""
        shown = field_texts(screen)
        activity = state.key.split("|", 1)[0]
        for key, seen in self._pages.items():
            same = key.split("|", 1)[0] == activity and seen.title == screen.title
            if same and len(seen.blanks) == len(shown):
                return seen.blanks
        return shown

    def changed_before(self, step: int, words: Sequence[str]) -> bool:
        return self.log.changed_before(step, words)

    @property
    def _first(self) -> str:
        """The app's first screen's state: where a home tab and a logo alike lead."""
        return next(iter(self._pages), "")

    @property
    def screens(self) -> int:
        return len(self._pages)

    def _covered(self, page: _Page, ref: str) -> bool:
        if ref in page.tried or ref in page.denied or ref in self._tried_refs:
            return True
        if page.left and page.elements.get(ref, "").strip().lower() in LEAVING_LABELS:
            return True
        if page.left and page.dialog and ref in page.options:
            return True  # a dialog's choices seen, and the dialog left
        return self._sampled(page.rows.get(ref, ""), page.elements.get(ref, ""))

    def _sampled(self, row_family: str, label: str) -> bool:
        samples = self._samples.get(row_family, {}) if row_family else {}
        if not sampled([self._pages[key].layout for key in samples.values()], ROW_SAMPLE):
            return False
        shared = frozenset.intersection(*(tokens(self._labels.get(ref, "")) for ref in samples))
        return not (tokens(label) - shared) & self._words


def _row_family(mark: Mark) -> str:
    """The family of a list row's element (the ref without its texts), "" outside a list."""
    return row_family(mark.ref, mark.node) if list_row(mark.node) is not None else ""


def _chosen_radio(mark: Mark) -> bool:
    node = mark.node
    return node.checkable and node.checked and "Radio" in node.class_name


def _last_row(mark: Mark, screen: Screen) -> str:
    """The label of the last row the list shows."""
    rows = [m for m in screen.marks if m is not mark and _inside(m, mark)]
    return rows[-1].label if rows else ""


def _inside(mark: Mark, container: Mark) -> bool:
    parent = mark.node.parent
    while parent is not None:
        if parent is container.node:
            return True
        parent = parent.parent
    return False


def _short(ref: str) -> str:
    return ref.rsplit("/", 1)[-1]
