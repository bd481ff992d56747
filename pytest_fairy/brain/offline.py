"""The offline brain: a deterministic, systematic explorer that needs no LLM and no API key.

It keeps a frontier of untried elements per state, tries the ones most relevant to the feature first
(goal, sub-feature and done-when words; the scoring is brain/candidates.py), fills text fields with
plausible values, scrolls lists a bounded number of times, backs out of dialogs and pages whose frontier
is spent, and declares the feature explored when the start page has nothing left to try. It is the
default without an API key and the baseline an LLM brain has to beat.
"""

from __future__ import annotations

from collections import defaultdict, deque

from pytest_fairy.brain.candidates import Candidate, Focus, best, find_candidates
from pytest_fairy.brain.retries import Retries
from pytest_fairy.explore.action import Action, ActionKind
from pytest_fairy.explore.decisions import Decision, Judgement, OutcomeKind, Plan, StepContext, Usage
from pytest_fairy.explore.families import sampled
from pytest_fairy.explore.guard import GuardVerdict
from pytest_fairy.explore.state import layout_of
from pytest_fairy.explore.target import Target
from pytest_fairy.perception.refs import family, row_family
from pytest_fairy.perception.relevance import tokens
from pytest_fairy.perception.screen import Screen

# Rows of a list that all open the same page are sampled this many times, not tapped one by one.
FAMILY_SAMPLE = 2
# Walking back to unfinished pages gives up after this many steps without finding new work.
MAX_WALK_STEPS = 8
NAVIGABLE = frozenset({ActionKind.TAP, ActionKind.LONG_TAP, ActionKind.BACK})


class OfflineBrain:
    name = "offline"
    model: str | None = None

    def __init__(self) -> None:
        self._tried: defaultdict[str, set[str]] = defaultdict(set)
        self._tried_anywhere: defaultdict[str, int] = defaultdict(int)
        self._submits: defaultdict[str, set[str]] = defaultdict(set)
        self._reopened: defaultdict[str, set[str]] = defaultdict(set)
        # Per family of elements (rows of one list), where each of its elements led, latest last.
        self._family_led_to: defaultdict[str, dict[str, str]] = defaultdict(dict)
        self._row_words: defaultdict[str, set[frozenset[str]]] = defaultdict(set)  # its rows' words tried
        self._family_of: dict[str, str] = {}  # each element's family (`refs.row_family`), by ref
        # Per page, how often each list (by ref) was scrolled, and the lists a scroll found at their end.
        self._scrolls: defaultdict[str, defaultdict[str, int]] = defaultdict(lambda: defaultdict(int))
        self._ended: defaultdict[str, set[str]] = defaultdict(set)
        # The layout of each page stood on: rows that open pages of one layout are samples of each other.
        self._layouts: dict[str, frozenset[str]] = {}
        # What the brain has learnt of the app: state -> {action key: (next state, kind, ref)}, and how
        # many untried elements each state had when last seen. Enough to walk back to unfinished pages.
        self._edges: defaultdict[str, dict[str, tuple[str, ActionKind, str]]] = defaultdict(dict)
        self._open: dict[str, int] = {}
        self._toggles: dict[str, int] = {}
        self._searched: set[str] = set()
        # Fields typed into since the brain came to the current page: a submit wants its form filled, and a
        # relaunch empties a login form that was filled before.
        self._filled_here: set[str] = set()
        self._heading: str | None = None
        self._last: tuple[str, str, ActionKind, str] | None = None
        # Pages whose back leaves the app (the app's first page): backing out of them ends the run.
        self._exits: set[str] = set()
        self._foreign: set[str] = set()
        self._walks = 0
        self._restarted = False
        self._root: str | None = None
        self._focus = Focus()
        # The feature's elements to try again once the app's data changed, and the last one tried.
        self._retries = Retries()
        self._last_tried: tuple[str, bool, str, str] | None = None  # (label, toggle, key, page title)

    def plan(self, target: Target, screen: Screen, som_jpeg: bytes = b"") -> Plan:
        self._focus = Focus.of(target)
        steps = tuple(f"explore {name}" for name in target.sub_features) or (f"explore {target.feature}",)
        return Plan(root=target.feature, sub_features=target.sub_features, steps=steps)

    def decide(self, ctx: StepContext) -> Decision:
        state = ctx.state.key
        outside = ctx.screen.package != ctx.target.package and not ctx.screen.has_dialog
        if outside:
            self._foreign.add(state)
        self._learn(state, ctx)
        self._retry(ctx)
        if state not in self._layouts:
            self._layouts[state] = layout_of(ctx.screen)
        if self._root is None:
            self._root = state
        if outside:
            return self._chose(
                state,
                Action(ActionKind.RESTART),
                "restart",
                "",
                f"left the app (now in {ctx.screen.package or '?'})",
            )
        candidates = find_candidates(
            ctx, self._focus, self._tried_anywhere, self._scrolls[state], self._ended[state]
        )
        if _looping(ctx.warning):
            # The guard saw us going round: what keeps us on this page (fields, toggles, scrolling) is
            # spent; only an untried way off the page is still worth a step.
            self._tried[state].update(c.key for c in candidates if not _navigates(c))
        labels = {mark.ref: mark.label for mark in ctx.screen.marks}
        self._family_of.update((mark.ref, row_family(mark.ref, mark.node)) for mark in ctx.screen.marks)
        untried = [c for c in candidates if self._fresh(state, c, labels.get(c.ref, ""))]
        # Pages first, toggles later: a new page is worth more than a radio flipped on a known one, so
        # toggles wait until no page with untried navigation is reachable.
        leading = [
            c for c in untried if not c.toggle or (c.relevant and c.action.kind is not ActionKind.SCROLL)
        ]
        # What is left here once this step's choice is made: the counts walks steer by.
        self._open[state] = max(0, len(leading) - 1)
        self._toggles[state] = len(untried) - len(leading)  # less the one `_try` takes, if it takes one
        if leading:
            return self._try(state, best(leading), ctx, candidates)
        heading = self._heading
        if heading is not None and heading != state:
            # On the way to a page with work left: keep going rather than rethink at every hop.
            walk = self._walk(ctx, {heading: 1})
            if walk is not None:
                return walk
        self._heading = None
        if untried and state in self._searched:
            return self._try(state, best(untried), ctx, candidates)
        walk = self._walk(ctx, self._open)
        if walk is not None:
            return walk
        searching = self._pages_left(state) and state != self._root and state not in self._searched
        if searching:
            # Back, once per page, towards pages with untried navigation that no known path reaches.
            self._searched.add(state)
            return self._leave(ctx)
        if untried:
            return self._try(state, best(untried), ctx, candidates)
        walk = self._walk(ctx, self._toggles)  # second pass: toggles left on other pages
        return walk if walk is not None else self._leave(ctx)

    def _work_elsewhere(self, here: str) -> bool:
        """Some other page has untried elements, navigation or toggles."""
        return any(n > 0 for work in (self._open, self._toggles) for s, n in work.items() if s != here)

    def _pages_left(self, here: str) -> bool:
        """Some other page still has untried navigation, though no known path leads there yet."""
        return any(count > 0 for state, count in self._open.items() if state != here)

    def _fresh(self, state: str, candidate: Candidate, label: str) -> bool:
        """Worth trying here: not tried in this state, and either new anywhere or relevant to the goal.

        The same element on a sibling page (the size options of every product) teaches nothing new,
        unless the feature is about it.
        """
        if candidate.key in self._tried[state]:
            return False
        if candidate.action.kind is ActionKind.SCROLL:
            return True  # offered only while the list has more rows (candidates.find_candidates)
        if candidate.key in self._reopened[state]:
            return True
        siblings = self._family(candidate.ref)
        if self._sampled(siblings):
            # Its siblings (rows of one list) opened pages of one layout: one more will too, unless the
            # goal names it whole, or it has the feature's words that no row tried had (故宫 22 after
            # 故宫 10 has none).
            words = _row_words(label)
            return candidate.relevant and (candidate.named or words not in self._row_words[siblings])
        return candidate.relevant or self._tried_anywhere[candidate.ref] == 0

    def _family(self, ref: str) -> str:
        return self._family_of.get(ref) or family(ref)

    def _sampled(self, row_family: str) -> bool:
        """Its siblings led to pages of one layout (`families.sampled`)."""
        led_to = [self._layouts.get(state, frozenset()) for state in self._family_led_to[row_family].values()]
        return sampled(led_to, FAMILY_SAMPLE)

    def _try(self, state: str, best: Candidate, ctx: StepContext, candidates: list[Candidate]) -> Decision:
        if best.submits:
            best = self._unfilled_field(candidates) or best
        self._walks = 0  # new work found: walks may go on, and a restart may look for more
        self._restarted = False
        self._tried[state].add(best.key)
        if best.toggle:
            self._toggles[state] = max(0, self._toggles.get(state, 0) - 1)
        if best.action.kind is ActionKind.SCROLL:
            self._scrolls[state][best.ref] += 1
        else:
            self._tried_anywhere[best.ref] += 1
        if best.submits:
            self._submits[state].add(best.key)
        if best.relevant and best.action.kind is not ActionKind.SCROLL:
            self._retries.tried(state, best.key)
        target = best.action.target(ctx.screen)
        self._last_tried = (target.label if target else "", best.toggle, best.key, ctx.screen.title)
        if target is not None:
            self._row_words[self._family(best.ref)].add(_row_words(target.label))
        if best.action.kind is ActionKind.TYPE:
            self._filled_here.add(best.key)
            # A field filled: the page's submit buttons may do something new now.
            self._tried[state] -= self._submits[state]
            self._reopened[state] |= self._submits[state]
        return self._chose(state, best.action, best.key, best.ref, best.why, ctx.plan.root)

    def _unfilled_field(self, candidates: list[Candidate]) -> Candidate | None:
        """A field of this page's form not filled since the brain came here: filled before a submit."""
        fields = (c for c in candidates if c.action.kind is ActionKind.TYPE)
        return next((c for c in fields if c.key not in self._filled_here), None)

    def _chose(self, state: str, action: Action, key: str, ref: str, why: str, feature: str = "") -> Decision:
        self._last = (state, key, action.kind, ref)
        return Decision(action, why, sub_feature=feature)

    def _retry(self, ctx: StepContext) -> None:
        """After an action that changed the app's data, the feature's elements tried before are fresh
        again (`retries`), their pages counted as having work left."""
        if self._last_tried is None:
            return
        label, toggle, key, title = self._last_tried
        self._last_tried = None
        moved = ctx.last is not None and ctx.last.kind is not OutcomeKind.NO_CHANGE
        did = moved or bool(ctx.screen.toasts)  # a toast (已加入) is something it did too
        left = ctx.screen.title != title
        for state, keys in self._retries.after(label, toggle, did, key, left_page=left).items():
            self._tried[state] -= keys
            self._reopened[state] |= keys
            self._open[state] = self._open.get(state, 0) + len(keys)

    def _learn(self, state: str, ctx: StepContext) -> None:
        """Remember where the last action led, to find the way back to pages with work left, and which
        list a scroll found at its end (it moved nothing)."""
        if self._last is not None:
            before, key, kind, ref = self._last
            if kind is ActionKind.SCROLL:
                if before == state and ctx.last is not None and ctx.last.kind is OutcomeKind.NO_CHANGE:
                    self._ended[state].add(ref)
                self._last = None
                return
            if before != state:
                self._filled_here.clear()
            if before != state and kind in NAVIGABLE:
                self._edges[before][key] = (state, kind, ref)
            elif before == state:
                self._edges[before].pop(key, None)  # it led somewhere once; not any more
            if kind is ActionKind.BACK and self._outside(state):
                self._exits.add(before)
            if ref:
                led_to = self._family_led_to[self._family(ref)]
                led_to.pop(ref, None)  # one sample per element: a walk through it again is no second
                led_to[ref] = state
        self._last = None

    def _outside(self, state: str) -> bool:
        return state in self._foreign

    def _walk(self, ctx: StepContext, work: dict[str, int]) -> Decision | None:
        """The first step of the shortest known path to a page that still has untried elements."""
        if self._walks >= MAX_WALK_STEPS:
            return None
        start = ctx.state.key
        queue: deque[tuple[str, tuple[str, ActionKind, str] | None]] = deque([(start, None)])
        seen = {start}
        while queue:
            state, first = queue.popleft()
            # Only pages the brain has stood on count: a crash dialog or another app is no destination.
            if state != start and work.get(state, 0) > 0 and first is not None:
                key, kind, ref = first
                action = _resolve(kind, ref, ctx.screen)
                if action is None:
                    return None
                self._walks += 1
                self._heading = state
                return self._chose(start, action, key, ref, f"walk back towards unfinished page {state[:40]}")
            for key, (to, kind, ref) in self._edges[state].items():
                if to not in seen:
                    seen.add(to)
                    queue.append((to, first or (key, kind, ref)))
        return None

    def judge(self, ctx: StepContext) -> Judgement:
        if ctx.oracles_met:
            return Judgement(True, "the done-when oracles hold on this screen")
        if ctx.unmet_oracles:
            return Judgement(False, "still unmet: " + "; ".join(ctx.unmet_oracles))
        return Judgement(True, "every reachable element of the feature was tried and no defect was seen")

    def summarize(self, target: Target, story: str) -> str:
        return f"Offline exploration of '{target.feature}' in {target.app_name}.\n{story}"

    def usage(self) -> Usage:
        return Usage()

    def _leave(self, ctx: StepContext) -> Decision:
        screen, state = ctx.screen, ctx.state.key
        if screen.has_dialog:
            way_out = screen.dismiss_mark()
            # The dialog's own button is the way out (many dialogs ignore back); back only without one.
            if way_out is not None:
                key = f"tap|{way_out.ref}"
                self._tried[state].add(key)
                action = Action(ActionKind.TAP, way_out.number)
                return self._chose(
                    state, action, key, way_out.ref, f"dialog explored: close it via '{way_out.label}'"
                )
            return self._chose(state, Action(ActionKind.BACK), "back|", "", "dialog explored: back out of it")
        if state == self._root or state in self._exits:
            if self._work_elsewhere(state) and not self._restarted:
                # Pages with untried elements that no known path reaches from here: from the start page,
                # one may. Once per stretch without new work.
                self._restarted = True
                why = "work left on pages no known path reaches from here: restart from the start page"
                return self._chose(state, Action(ActionKind.RESTART), "restart", "", why)
            return Decision(None, "every element reachable from the start page has been tried")
        if ctx.last is not None and ctx.last.kind is OutcomeKind.NO_CHANGE and ctx.last.action == "back":
            return self._chose(
                state, Action(ActionKind.RESTART), "restart", "", "back does not leave this page: restart"
            )
        return self._chose(state, Action(ActionKind.BACK), "back|", "", "page explored: go back")


def _resolve(kind: ActionKind, ref: str, screen: Screen) -> Action | None:
    """A remembered action made concrete on this screen: by the element's stable ref, never by position."""
    if kind is ActionKind.BACK:
        return Action(ActionKind.BACK)
    mark = screen.marks_by_ref.get(ref)
    return Action(kind, mark.number) if mark is not None else None


def _navigates(candidate: Candidate) -> bool:
    kind = candidate.action.kind
    return kind in NAVIGABLE and not candidate.toggle


def _looping(warning: GuardVerdict | None) -> bool:
    return warning is not None and warning.kind.value in ("warn", "escape")


def _row_words(label: str) -> frozenset[str]:
    """A row's words without its numbers: `故宫 22` and `故宫 10` say the same."""
    return frozenset(word for word in tokens(label) if not word.isdigit())
