"""The offline brain: a deterministic, systematic explorer that needs no LLM and no API key.

It keeps a frontier of untried elements per state, tries the ones most relevant to the feature first
(goal, sub-feature and done-when words; the scoring is brain/candidates.py) and what the goal names in
its order (brain/goal_order.py), fills a form's fields and choices (brain/field_values.py,
brain/choices.py), scrolls lists a bounded number of times, backs out of dialogs and pages whose frontier
is spent, and declares the feature explored when the start page has nothing left to try. A feature
with no done-when is an open exploration: every screen's every action is worth a step
(brain/open_exploration.py). It is the default without an API key and the baseline an LLM brain has to beat.
"""

from __future__ import annotations

from pytest_fairy.brain.candidates import Candidate, Focus, best, find_candidates, scrolls_list
from pytest_fairy.brain.frontier import DIALOG, Frontier, page_of
from pytest_fairy.brain.goal_order import GoalOrder
from pytest_fairy.brain.open_exploration import OpenExploration, Tier, element_kind
from pytest_fairy.brain.other_faces import OtherFaces
from pytest_fairy.brain.retries import Retries, refused
from pytest_fairy.brain.samples import Samples
from pytest_fairy.brain.scrolling import SCROLL_BACK, ListScrolls
from pytest_fairy.brain.walk_back import NAVIGABLE, WalkBack
from pytest_fairy.explore.action import Action, ActionKind, Direction
from pytest_fairy.explore.decisions import Decision, Judgement, OutcomeKind, Plan, StepContext, Usage
from pytest_fairy.explore.guard import GuardVerdict, VerdictKind
from pytest_fairy.explore.target import Target
from pytest_fairy.perception.refs import list_row
from pytest_fairy.perception.screen import Screen


class OfflineBrain:
    name = "offline"
    model: str | None = None

    def __init__(self) -> None:
        self._focus = Focus()
        self._order = GoalOrder()
        self._frontier = Frontier()
        self._samples = Samples()
        self._scrolls = ListScrolls()
        self._walk = WalkBack()
        self._spread = OpenExploration()
        self._open = False  # the feature has no done-when: an open exploration
        self._kinds: dict[str, str] = {}  # the kind of each element on the screen of the last step, by ref
        # The feature's elements to try again once the app's data changed, and the last one tried.
        self._retries = Retries()
        # (label, toggle, key, the screen it was tried on)
        self._last_tried: tuple[str, bool, str, Screen] | None = None
        self._faces = OtherFaces()  # what would undo the feature's taps (`Like` become `Liked`)
        # The last action taken, to learn where it led: (page, key, action, ref).
        self._last: tuple[str, str, Action, str] | None = None
        # The parts of the form filled since the brain came to the current page (fields, boxes, choices; a
        # dialog over the page is the page still): a submit wants its form filled, and a relaunch empties a
        # login form that was filled before.
        self._filled_here: set[str] = set()
        self._root: str | None = None
        # Pages backed out of once in search of pages no known path reaches.
        self._searched: set[str] = set()
        self._restarted = False  # restarted in search of work since new work was last found
        self._restored = -1  # the step at which what loops cut short was last given back

    def plan(self, target: Target, screen: Screen, som_jpeg: bytes = b"") -> Plan:
        self._focus = Focus.of(target)
        self._faces = OtherFaces()
        self._walk.started()
        self._order = GoalOrder(target.goal, (value for _, value in target.inputs))
        steps = tuple(f"explore {name}" for name in target.sub_features) or (f"explore {target.feature}",)
        return Plan(root=target.feature, sub_features=target.sub_features, steps=steps)

    def decide(self, ctx: StepContext) -> Decision:
        state = ctx.state.key
        outside = ctx.screen.package != ctx.target.package and not ctx.screen.has_dialog
        # No done-when: nothing holds and nothing is unmet (a mission with done-when has one or the other).
        self._open = not ctx.unmet_oracles and not ctx.oracles_met
        self._walk.stood_on(state, outside=outside)
        self._learn(state, ctx)
        self._retry(ctx)
        self._samples.stood_on(state, ctx.screen)
        page = page_of(ctx)
        self._frontier.stood_on(state, page)
        if self._root is None:
            self._root = state
        if outside:
            why = f"left the app (now in {ctx.screen.package or '?'})"
            return self._chose(state, Action(ActionKind.RESTART), "restart", "", why)
        scrolls, again = self._scrolls, self._frontier.fresh_again(state)
        tried_anywhere = self._frontier.tried_anywhere
        own_tabs = ctx.screen.own_tabs()  # not tried in a feature's search: the page they open is shown
        others = (m.label for m in ctx.screen.marks if m.ref not in own_tabs)
        sought = "" if self._open else self._order.sought(ctx.screen.text, others)
        candidates = find_candidates(
            ctx, self._focus, tried_anywhere, scrolls.counts(state), scrolls.ended(state), again, sought
        )
        candidates += scrolls.back_to_named(ctx.screen, state, page, candidates, again)
        if _looping(ctx.warning):
            # The guard saw us going round: what keeps us on this page (fields, toggles, scrolling) is
            # spent; only an untried way off the page is still worth a step.
            self._frontier.spend(state, (c.key for c in candidates if not _navigates(c)), cut=True)
        self._samples.see(ctx.screen)
        labels = {mark.ref: mark.label for mark in ctx.screen.marks}
        self._kinds = {mark.ref: element_kind(mark) for mark in ctx.screen.marks}
        undo = set() if self._open else self._faces.undoing(ctx)
        tabs = set() if self._open else {f"{ActionKind.TAP}|{ref}" for ref in own_tabs}
        untried = [
            c
            for c in candidates
            if c.ref not in undo and c.key not in tabs and self._fresh(state, c, labels.get(c.ref, ""))
        ]
        lowest: Tier | None = None
        if self._open:
            leading, lowest = self._spread.leading(
                state, untried, lambda c: self._tier(page, c, labels.get(c.ref, ""))
            )
        else:
            # Pages first, toggles later: a new page is worth more than a radio flipped on a known one, so
            # toggles wait until no page with untried navigation is reachable.
            leading = [
                c for c in untried if not c.toggle or (c.relevant and c.action.kind is not ActionKind.SCROLL)
            ]
        self._frontier.count(state, len(leading), len(untried) - len(leading))
        ahead = None if self._open else self._ahead(ctx, leading, candidates, labels)
        if ahead is not None:
            return ahead
        # Leaving the app is one of the start screen's own ways: more rows of a sampled list or a scroll
        # (hundreds, on a long list) do not keep it waiting.
        start_left = self._open and state == self._root and bool(leading) and lowest is not Tier.ELEMENT
        if start_left and self._spread.back_untried(state):
            return self._back_untried(state)
        if leading:
            return self._try(state, best(leading), ctx, candidates)
        if self._open and state != self._root and self._spread.back_untried(state) and not outside:
            return self._back_untried(state)
        return self._elsewhere(ctx, untried, candidates)

    def _ahead(
        self, ctx: StepContext, leading: list[Candidate], candidates: list[Candidate], labels: dict[str, str]
    ) -> Decision | None:
        """An element here the goal names, the first it names (after its last step done, once one is;
        brain/goal_order.py); where there is none and nothing here is what the feature's words point to,
        the way to a page with one or to a page the goal names then, or Back, once, when no known path leads
        there. `labels`: the screen's labels, by ref."""
        state = ctx.state.key
        self._order.stood_on(state, ctx.screen.title, {labels.get(c.ref, "") for c in leading})
        here = [c for c in leading if self._order.ahead(labels.get(c.ref, ""))]
        chosen = best(leading) if leading else None
        if chosen is not None and chosen.searching:
            return None  # what the feature waits for is not on screen: the lists are looked through first
        if here:  # the first the goal names; of those, the best
            first = min(here, key=lambda c: (self._order.where(labels.get(c.ref, "")), -c.score, c.order))
            return self._try(state, first, ctx, candidates)
        if chosen is not None and chosen.relevant or not (places := self._order.places(state)):
            return None
        walk = self._walk_to(ctx, places)
        if walk is None and state != self._root and not ctx.screen.has_dialog and self._order.may_back(state):
            walk = self._chose(
                state, Action(ActionKind.BACK), "back|", "", "back towards the goal's next step"
            )
        return walk

    def _back_untried(self, state: str) -> Decision:
        """Back is one of a page's actions too, and an untried one is a way not yet taken. The start
        page's leaves the app (and what the app keeps in memory): it waits for every other page's work."""
        self._spread.backed(state)
        self._walk.found_work()  # a way not yet taken: walks may go on
        return self._chose(state, Action(ActionKind.BACK), "back|", "", "every element here tried: go back")

    def _tier(self, page: str, candidate: Candidate, label: str) -> Tier:
        ref = candidate.ref
        sampled = self._samples.worth(ref, label, relevant=candidate.relevant, named=candidate.named) is False
        return self._spread.tier(page, candidate, self._kinds.get(ref, ""), sampled=sampled)

    def _elsewhere(self, ctx: StepContext, untried: list[Candidate], candidates: list[Candidate]) -> Decision:
        """Nothing leads on from this page: keep heading to a page with work left, walk to the nearest
        one, back out in search of one no known path reaches, flip this page's toggles, then toggles
        elsewhere; or leave."""
        state = ctx.state.key
        heading = self._walk.heading
        if heading is not None and heading != state:
            # On the way to a page with work left: keep going rather than rethink at every hop.
            walk = self._walk_to(ctx, {heading: 1})
            if walk is not None:
                return walk
        self._walk.arrived()
        if untried and state in self._searched:
            return self._try(state, best(untried), ctx, candidates)
        walk = None
        if self._open:  # screens with an element never tried on them before rows, scrolls, kinds that stay
            walk = self._walk_to(ctx, self._spread.elements_left(self._frontier.open))
        walk = walk or self._walk_to(ctx, self._frontier.open)
        if walk is not None:
            return walk
        if self._frontier.pages_left(state) and state != self._root and state not in self._searched:
            # Back, once per page, towards pages with untried navigation that no known path reaches.
            self._searched.add(state)
            return self._leave(ctx)
        if untried:
            return self._try(state, best(untried), ctx, candidates)
        walk = self._walk_to(ctx, self._frontier.toggles)  # second pass: toggles left on other pages
        if walk is None and self._open:
            walk = self._walk_to(ctx, self._walk.inside(self._spread.unbacked()))  # Back left to take
        if walk is None and self._open:
            walk = self._walk_to(ctx, self._spread.stale())  # screens that may show the data changed since
        if walk is None and self._open and self._spread.back_untried(state):
            return self._back_untried(state)
        return walk if walk is not None else self._leave(ctx)

    def _fresh(self, state: str, candidate: Candidate, label: str) -> bool:
        """Worth trying here: not tried in this state, and either new anywhere or relevant to the goal.

        The same element on a sibling page (the size options of every product) teaches nothing new,
        unless the feature is about it; a row of a sampled list, only when the feature names it
        (brain/samples.py).
        """
        if self._frontier.tried(state, candidate.key):
            return False
        if candidate.action.kind is ActionKind.SCROLL:
            # Offered only while the list has more rows (candidates.find_candidates), or back to an element.
            if self._open and not candidate.key.startswith(SCROLL_BACK):
                return self._spread.scroll_worth(
                    state, candidate.ref, self._scrolls.counts(state)[candidate.ref]
                )
            return True
        if self._frontier.reopened(state, candidate.key):
            return True
        if self._open:
            # Every page's every element, unless it changed nothing wherever it was tried.
            return not self._spread.dead(candidate.ref, self._samples.family(candidate.ref))
        row = self._samples.worth(candidate.ref, label, relevant=candidate.relevant, named=candidate.named)
        if row is not None:
            return row
        return candidate.relevant or self._frontier.new_anywhere(candidate.ref)

    def _try(self, state: str, best: Candidate, ctx: StepContext, candidates: list[Candidate]) -> Decision:
        if best.submits:
            best = self._unfilled_field(candidates) or best
        self._walk.found_work()  # new work found: walks may go on, and a restart may look for more
        self._restarted = False
        self._frontier.take(state, best)
        if best.key.startswith(SCROLL_BACK):
            self._scrolls.scrolled_back(page_of(ctx))
        elif best.action.kind is ActionKind.SCROLL:
            self._scrolls.scrolled(state, best.ref)
        if best.relevant and best.action.kind is not ActionKind.SCROLL:
            self._retries.tried(state, best.key)
        target = best.action.target(ctx.screen)
        self._last_tried = (target.label if target else "", best.toggle, best.key, ctx.screen)
        if target is not None:
            self._samples.tried(best.ref, target.label)
            if best.action.kind is ActionKind.TAP:
                self._faces.tapped(ctx.screen.title, target.bounds, target.label)
        if best.fills:
            self._filled_here.add(best.key)
        if self._open and best.toggle:
            # Another choice on the form: a submit that led to another page may lead to a new one (the
            # booking for 外科); one that stayed (add to cart) would only stay again.
            self._frontier.option_chosen(state, lambda key: self._walk.leads_away(state, key))
        return self._chose(state, best.action, best.key, best.ref, best.why, ctx.plan.root)

    def _unfilled_field(self, candidates: list[Candidate]) -> Candidate | None:
        """A part of this page's form not filled since the brain came here (a field, a box, a choice it
        asks for): filled before a submit."""
        return next((c for c in candidates if c.fills and c.key not in self._filled_here), None)

    def _chose(self, state: str, action: Action, key: str, ref: str, why: str, feature: str = "") -> Decision:
        self._last = (state, key, action, ref)
        return Decision(action, why, sub_feature=feature)

    def _retry(self, ctx: StepContext) -> None:
        """After an action that changed the app's data, the feature's elements tried before are fresh
        again (`retries`), their pages counted as having work left."""
        if self._last_tried is None:
            return
        label, toggle, key, before = self._last_tried
        self._last_tried = None
        moved = ctx.last is not None and ctx.last.kind is not OutcomeKind.NO_CHANGE
        did = moved or bool(ctx.screen.toasts)  # a toast (已加入) is something it did too
        left = ctx.screen.title != before.title
        if did and key.split("|", 1)[0] in (ActionKind.TAP, ActionKind.LONG_TAP):
            menu = set() if before.has_dialog else {layer.kind for layer in ctx.screen.dialog_layers[-1:]}
            shown = [m.label for m in ctx.screen.marks if m.layer in menu]  # of the menu it opened
            self._order.done(label, ctx.screen.title if left else "", shown)
        refusal = did and refused(before, ctx.screen)
        for state, keys in self._retries.after(
            label, toggle, did, key, left_page=left, refused=refusal
        ).items():
            self._frontier.reopen(state, keys)

    def _learn(self, state: str, ctx: StepContext) -> None:
        """Remember where the last action led, to find the way back to pages with work left, and which
        list a scroll found at its end (it moved nothing); in an open exploration, what each action did."""
        last, self._last = self._last, None
        if last is None:
            if self._open:
                self._spread.saw(state, ctx.screen)
            return
        before, key, action, ref = last
        kind = action.kind
        changed = before != state or (ctx.last is not None and ctx.last.kind is not OutcomeKind.NO_CHANGE)
        scrolled_here = kind is ActionKind.SCROLL and before == state
        if self._open:
            if before == state and kind is not ActionKind.SCROLL and (changed or ctx.screen.toasts):
                self._spread.changed_data()  # before `saw`: this screen has seen the change
            self._spread.saw(state, ctx.screen, scrolled=ref if scrolled_here else "")
            if kind in (ActionKind.TAP, ActionKind.LONG_TAP) and ref:
                self._spread.acted(ref, self._samples.family(ref), changed=changed)
                if ref in self._kinds:
                    page = self._frontier.page_of(before)
                    self._spread.went(self._kinds[ref], before, left=before != state, ref=ref, page=page)
        if kind is ActionKind.SCROLL:
            page = page_of(ctx)
            if ctx.last is not None and self._frontier.page_of(before) == page:
                up = action.direction is Direction.UP
                self._scrolls.moved(before, page, ref, changed=changed, up=up)
            return
        if self._frontier.page_of(before).removesuffix(DIALOG) != page_of(ctx).removesuffix(DIALOG):
            self._filled_here.clear()  # another page: a dialog over this one (a date picked) is not
            self._scrolls.arrived(page_of(ctx), *_rows_and_lists(ctx.screen))
        self._walk.learn(
            before, key, kind, ref, state, in_place=self._frontier.page_of(before) == page_of(ctx)
        )
        if ref:
            self._samples.led(ref, state)

    def _walk_to(self, ctx: StepContext, work: dict[str, int]) -> Decision | None:
        """The first step of the shortest known path to a page that still has work left."""
        hop = self._walk.first_hop(ctx.state.key, work, ctx.screen)
        if hop is None:
            return None
        why = f"walk back towards unfinished page {hop.towards[:40]}"
        return self._chose(ctx.state.key, hop.action, hop.key, hop.ref, why)

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
                self._frontier.spend(state, (key,))
                action = Action(ActionKind.TAP, way_out.number)
                return self._chose(
                    state, action, key, way_out.ref, f"dialog explored: close it via '{way_out.label}'"
                )
            return self._chose(state, Action(ActionKind.BACK), "back|", "", "dialog explored: back out of it")
        if state == self._root or self._walk.exits(state):
            if self._frontier.work_elsewhere(state) and not self._restarted:
                # Pages with untried elements that no known path reaches from here: from the start page,
                # one may. Once per stretch without new work.
                self._restarted = True
                why = "work left on pages no known path reaches from here: restart from the start page"
                return self._chose(state, Action(ActionKind.RESTART), "restart", "", why)
            if self._restored != ctx.step and self._frontier.restore_cut():
                # What a loop cut short was never tried: its step before giving up (once per step).
                self._restored = ctx.step
                return self.decide(ctx)
            return Decision(None, "every element reachable from the start page has been tried")
        if ctx.last is not None and ctx.last.kind is OutcomeKind.NO_CHANGE and ctx.last.action == "back":
            return self._chose(
                state, Action(ActionKind.RESTART), "restart", "", "back does not leave this page: restart"
            )
        return self._chose(state, Action(ActionKind.BACK), "back|", "", "page explored: go back")


def _rows_and_lists(screen: Screen) -> tuple[list[str], list[str]]:
    """The refs of the list rows on `screen`, and of its lists."""
    rows = [mark.ref for mark in screen.marks if list_row(mark.node) is not None]
    return rows, [mark.ref for mark in screen.marks if scrolls_list(mark)]


def _navigates(candidate: Candidate) -> bool:
    kind = candidate.action.kind
    return kind in NAVIGABLE and not candidate.toggle


def _looping(warning: GuardVerdict | None) -> bool:
    return warning is not None and warning.kind in (VerdictKind.WARN, VerdictKind.ESCAPE)
