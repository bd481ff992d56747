"""Checks over time: a feature whose done-when must hold again once the app was left (the spec's `after`).

When the done-when holds and the judge calls the feature complete, such a feature is not passed yet: the
explorer leaves the screen and comes back, then looks again.
- `back_and_return`: Back, then the move that first entered the screen (with the taps that opened the
  drawer or menu it was made on: `Menu`, then `Settings`);
- `relaunch`: the app stopped and launched again, its data kept, then the shortest known way back to the
  screen (the moves that entered each screen on it; none that only changed what a screen shows).

The screen is a page (its activity, title and whether a dialog is up), not the state it was in: the move
that made the done-when hold may have changed the page's layout (`立即打卡` become `今日已打卡`), and it is
not part of the way back - a page that kept what it did shows it again, one that forgot shows the
layout from before. Held again on that page: passed. Not held there: an app defect at the arrival, which a
replay of the run's own walk (leaving and coming back included) must see again (`Proof.NOT_KEPT`). Not
back on that page at all: inconclusive, naming where the way ended.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pytest_fairy.explore.action import Action, ActionKind
from pytest_fairy.explore.decisions import Decision, Origin, StepContext
from pytest_fairy.explore.oracles import Finding
from pytest_fairy.explore.reproduction import Move, Proof, ways_to
from pytest_fairy.explore.step import Ending
from pytest_fairy.explore.tree import FeatureTree, StateInfo
from pytest_fairy.explore.verdict import Verdict
from pytest_fairy.perception.screen import Screen
from pytest_fairy.spec.model import After

CHECK_PREFIX = "check over time"
# A page: its activity, title and whether a dialog is up.
Page = tuple[str, str, bool]
AFTER_WORDS = {After.BACK_AND_RETURN: "leaving it and coming back", After.RELAUNCH: "a relaunch of the app"}


@dataclass
class Keeping:
    """One check over time under way: where the done-when held (on `page`, titled `title`, at step
    `held`), what the judge said then, and the actions still to take to leave and come back."""

    after: After
    page: Page
    title: str
    held: int
    reason: str
    pending: list[Action | Move] = field(default_factory=list)

    @classmethod
    def start(
        cls, after: After, ctx: StepContext, reason: str, tree: FeatureTree, moves: dict[int, Move]
    ) -> Keeping:
        """The check of `after` for the screen of `ctx`, where the done-when held and the judge said
        `reason`; `tree` and `moves` give the way back to it."""
        page = _page_of(ctx)
        entered = _entered(page, tree, moves)
        if after is After.BACK_AND_RETURN:
            pending: list[Action | Move] = [Action(ActionKind.BACK), *(moves[step] for step in entered)]
        else:
            way = ways_to(tree, moves, entered[-1]) if entered else []
            pending = [Action(ActionKind.RESTART), *(way[0].moves if way else ())]
        return cls(after, page, ctx.screen.title or ctx.state.name, ctx.step - 1, reason, pending)

    def next(self, screen: Screen) -> Decision | str:
        """The next action to take on `screen`; what stands in the way instead (its element not there)."""
        done = self.pending.pop(0)
        if isinstance(done, Action):
            return Decision(done, f"{CHECK_PREFIX}: {self.words}", origin=Origin.CHECK)
        action = done.action.resolve(screen)
        if action is None:
            return f"'{done.action.label or done.words}' is not on {screen.title or 'the screen'}"
        why = f"{CHECK_PREFIX}: back to {self.title} after {self.words} ({done.words})"
        return Decision(action, why, origin=Origin.CHECK)

    @property
    def words(self) -> str:
        return AFTER_WORDS[self.after]

    def verdict(self, ctx: StepContext) -> Ending:
        """The end of the check, on the screen the way back led to (`ctx`)."""
        step = ctx.step - 1
        if _page_of(ctx) != self.page:
            return self.lost(f"the way back ended on {ctx.screen.title or ctx.state.name}")
        if ctx.oracles_met:
            return Ending(Verdict.PASSED, f"{self.reason}; held again after {self.words} (step {step})")
        unmet = "; ".join(ctx.unmet_oracles)
        message = (
            f"{unmet} no longer held on {self.title} after {self.words} (step {step}), though it held at "
            f"step {self.held}"
        )
        return Ending(Verdict.FAILED, message, (Finding("not_kept", message),), Proof.NOT_KEPT, step)

    def lost(self, why: str) -> Ending:
        """Inconclusive: the run could not come back to the screen, so cannot tell whether it holds."""
        reason = f"the done-when held on {self.title} at step {self.held}, but after {self.words} {why}"
        return Ending(Verdict.INCONCLUSIVE, reason)


def _page_of(ctx: StepContext) -> Page:
    return (ctx.state.activity, ctx.screen.title, ctx.screen.has_dialog)


def _entered(page: Page, tree: FeatureTree, moves: dict[int, Move]) -> list[int]:
    """The steps of the move that first entered `page` from another page: the tap that did, after those
    that opened the drawer, menu or sheet it was on (`Menu`, then `Settings`); [] for the first page."""

    def of(key: str) -> Page | None:
        info: StateInfo | None = tree.states.get(key)
        return (info.activity, info.title, info.is_dialog) if info is not None else None

    entries = (t for t in tree.transitions if of(t.to_key) == page and of(t.from_key) != page)
    entry = next((t for t in entries if t.step in moves), None)
    if entry is None:
        return []
    steps, on = [entry.step], entry.from_key
    while (info := tree.states.get(on)) is not None and info.is_dialog:
        openers = [t for t in tree.transitions if t.to_key == on and t.step < steps[0] and t.step in moves]
        opener = max(openers, key=lambda t: t.step, default=None)
        if opener is None or opener.self_loop:
            break
        steps.insert(0, opener.step)
        on = opener.from_key
    return steps
