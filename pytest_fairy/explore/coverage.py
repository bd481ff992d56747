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
from dataclasses import dataclass, field, replace

from pytest_fairy.explore.action import Action, ActionKind
from pytest_fairy.explore.decisions import Outcome, OutcomeKind
from pytest_fairy.explore.evidence import (
    Against,
    Contradiction,
    Control,
    Facts,
    changes_data,
    contradiction,
    facts_of,
    field_texts,
    mentions,
    names,
    relevance,
    usable,
)
from pytest_fairy.explore.families import sampled
from pytest_fairy.explore.policy import RiskPolicy
from pytest_fairy.explore.state import StateId, layout_of
from pytest_fairy.perception.refs import family, list_row
from pytest_fairy.perception.relevance import overlap, tokens
from pytest_fairy.perception.screen import Mark, Screen

# Rows of one layout count as covered once this many of them opened pages of one layout.
ROW_SAMPLE = 2
# What the "left" part of a verdict names at most; the rest is counted.
LEFT_SHOWN = 4
LEAVING_LABELS = frozenset(
    {"navigate up", "转到上一层级", "向上导航", "返回", "back", "关闭", "close", "取消", "cancel"}
)
MOVED_ON = frozenset({OutcomeKind.NEW_STATE, OutcomeKind.STATE_CHANGED})
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


@dataclass(frozen=True, slots=True)
class Tried:
    """An action taken, with what it did: the evidence a verdict points at."""

    step: int
    words: str
    label: str
    page: str
    outcome: Outcome
    led_to: str = ""  # the title (else the state name) of the screen it led to
    facts: Facts = Facts()
    via: str = ""  # the label of the element whose action first led to its page
    blanks: tuple[str, ...] = ()  # what its page's fields showed at first sight
    to_key: str = ""  # the state it led to
    # Another element, named for the screen this one opened, that led there too: `'关于每日新闻' on 设置`.
    elsewhere: str = ""

    def __str__(self) -> str:
        """`step 7 (tap [3] 检查更新 on 设置) changed nothing`."""
        return f"step {self.step} ({self.words} on {self.page}) {self.did}"

    @property
    def contradiction(self) -> tuple[Contradiction, str] | None:
        """How its outcome contradicts the feature it was taken for, if it does (`evidence`)."""
        found = contradiction(self.outcome.kind, self.facts, self.label, self.led_to)
        if found is None and self.elsewhere:
            return Contradiction.WRONG_SCREEN, f"opened {self.led_to} instead, which {self.elsewhere} opens"
        return found

    def relevance(self, words: frozenset[str]) -> int:
        return relevance(self.label, self.via, self.facts.control, words)

    @property
    def against(self) -> Against | None:
        """Its contradiction as the check a reproduction makes after it."""
        found = self.contradiction
        if found is None:
            return None
        shown = {Contradiction.ERROR: self.facts.error, Contradiction.WRONG_SCREEN: self.led_to}
        return Against(found[0], self.label, shown.get(found[0], ""))

    @property
    def did(self) -> str:
        found = self.contradiction
        if found is not None:
            return found[1]
        match self.outcome.kind:
            case OutcomeKind.NO_CHANGE:
                return "changed nothing"
            case OutcomeKind.CONTENT_CHANGED:
                return "changed only what its page shows"
            case OutcomeKind.NEW_STATE | OutcomeKind.STATE_CHANGED:
                return f"opened {self.led_to}"
            case _:
                return f"{self.outcome.kind} ({self.outcome.detail})"


class Coverage:
    def __init__(self, policy: RiskPolicy | None = None, words: str = "") -> None:
        """`words`: what the feature is about (`Target.words`), which rows no sample stands for."""
        self.policy = policy or RiskPolicy()
        self._words = tokens(words)
        self._pages: dict[str, _Page] = {}
        self._tried_refs: set[str] = set()
        # Row family -> where each of its rows (by ref) led, latest last.
        self._samples: defaultdict[str, dict[str, str]] = defaultdict(dict)
        self._labels: dict[str, str] = {}  # each sampled row's label, by ref
        self._actions: list[Tried] = []

    def saw(self, state: StateId, screen: Screen, *, in_app: bool) -> None:
        """A screen the run stood on; screens of other apps are not the feature's to exhaust."""
        if not in_app:
            return
        page = self._pages.get(state.key)
        if page is not None and state.content_hash in page.read:
            return  # this very screen was read at an earlier step: nothing new to note (the hot path)
        if page is None:
            page = _Page(state.name, screen.title, layout_of(screen), dialog=screen.has_dialog)
            page.blanks = field_texts(screen)
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
        screen it was taken on and the one it led to, tell what it did (`evidence.Facts`)."""
        page = self._pages.get(before.key)
        kind, _, rest = key.partition("|")
        ref = rest.split("|", 1)[0]
        if page is None:
            return
        if outcome.kind in MOVED_ON:
            page.left = True
        label = page.elements.get(ref, "") or ref
        reached = self._pages.get(after.key)
        led_to = (reached.title or reached.name) if reached is not None else after.name
        facts = facts_of(screens[0], ref, screens[1], page.blanks) if screens is not None and ref else Facts()
        if (
            ref
            and reached is not None
            and reached is not page
            and not reached.via
            and outcome.kind in MOVED_ON
        ):
            reached.via = label
        where = page.title or page.name
        tried = Tried(step, words, label, where, outcome, led_to, facts, page.via, page.blanks, after.key)
        self._actions.append(tried)
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
        """The action that shows the feature (`words`: its oracles, goal, names) not working: one on an
        element the words point to whose outcome contradicts the feature (`evidence`). Of these, the one
        they point to most; of equals, the earliest: the same tap tried again later proves no more, and
        the earliest is the shortest way to show it again. None: no action of the run is evidence."""
        wanted = tokens(" ".join(words))
        scored = [
            (score, t.step, t)
            for t in map(self._judged, self._actions)
            if t.label
            and t.contradiction is not None
            and (score := t.relevance(wanted)) > 0
            and not self._changed_since(t, " ".join(words))
        ]
        best = max(scored, key=lambda s: (s[0], -s[1]), default=None)
        return best[2] if best is not None else None

    def at(self, step: int) -> Tried | None:
        """The action taken at `step`, if the run recorded one there."""
        return next((self._judged(t) for t in self._actions if t.step == step), None)

    def _judged(self, tried: Tried) -> Tried:
        """`tried`, knowing what the rest of the run saw: another element, named for the screen it opened,
        that led there too (a drawer's `意见反馈` opening the page that 设置's `关于每日新闻` opens). Not for
        the app's first screen, which a home tab and a logo alike lead back to."""
        first = next(iter(self._pages), "")
        moved = tried.outcome.kind in MOVED_ON and tried.facts.retitled and not tried.facts.dialog
        if not moved or tried.to_key == first or tried.facts.control is not Control.BUTTON:
            return tried
        if mentions(tried.label, tried.led_to):
            return tried
        for other in self._actions:
            same = other.to_key == tried.to_key and other.label != tried.label
            if same and other.outcome.kind in MOVED_ON and names(other.label, other.led_to):
                return replace(tried, elsewhere=f"'{other.label}' on {other.page}")
        return tried

    def _changed_since(self, tried: Tried, words: str) -> Tried | None:
        """The first action of the feature (`words`) after `tried` that changed the app's data
        (`evidence.changes_data`): what `tried` did then may not be what it does now. None if none did."""
        return next((t for t in self._actions if t.step > tried.step and self._changes(t, words)), None)

    def changed_before(self, step: int, words: Sequence[str]) -> bool:
        """Whether an action of the feature changed the app's data before `step`: a replay of that step
        must take the run's own walk, which changes it too, not a shorter way."""
        wanted = " ".join(words)
        return any(t.step < step and self._changes(t, wanted) for t in self._actions)

    @staticmethod
    def _changes(tried: Tried, words: str) -> bool:
        """An action of the feature (`words`) that changed the app's data: its label mostly the feature's
        words (`订单状态通知` shares one word of five with `我的订单`: not the feature's), or the Save of a
        form an element the feature names opened."""
        ours = mentions(tried.label, words) or (
            tried.relevance(tokens(words)) and not overlap(tried.label, tokens(words))
        )
        return bool(ours) and changes_data(tried.label, tried.facts, tried.outcome.kind)

    def unknown(self, words: Sequence[str]) -> list[str]:
        """What the run cannot know of the feature (`words`), though it tried everything it reached: the
        steps against it taken before the feature changed the app's data, and not since; the buttons it
        points to that were only ever tried with their form unset."""
        wanted = tokens(" ".join(words))
        stale: dict[str, str] = {}
        for t in map(self._judged, self._actions):
            change = (
                self._changed_since(t, " ".join(words))
                if t.contradiction is not None and t.relevance(wanted)
                else None
            )
            if change is not None:
                stale.setdefault(
                    t.label,
                    f"'{t.label}' on {t.page} {t.did} at step {t.step}, before step {change.step} "
                    f"({change.words}) changed the app's data, and was not tried since",
                )
        pointed = [t for t in self._actions if t.facts.control is Control.BUTTON and t.relevance(wanted) > 0]
        set_once = {(t.page, t.label) for t in pointed if not t.facts.unset}
        found: dict[tuple[str, str], str] = {}
        for t in pointed:
            if t.facts.unset and (t.page, t.label) not in set_once:
                found.setdefault(
                    (t.page, t.label), f"'{t.label}' on {t.page} tried only with {', '.join(t.facts.unset)}"
                )
        return [*stale.values(), *found.values()]

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
    return family(mark.ref) if list_row(mark.node) is not None else ""


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
