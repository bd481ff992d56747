"""The model's queued follow-ups: a multi-step plan taken one action per step without an LLM call.

A `next_action` answer may queue follow-ups behind its decision (`then`); `FollowUpQueue` hands out the
next one only while each new screen is what the model said it would be, and drops the whole plan at the
first surprise, saying why for the next prompt. Follow-ups name their element by label (`find_label`),
as the model read it, never by a mark number that the next screen renumbers. `QueueStats` count what
was queued, taken and dropped (and why), for the report and the benchmark.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, replace
from enum import StrEnum

from pytest_fairy.brain.tools import FollowUp, PageExpectation
from pytest_fairy.explore.action import NEEDS_MARK, Action, ActionKind
from pytest_fairy.explore.decisions import Decision, Origin, OutcomeKind, StepContext
from pytest_fairy.explore.state import StateIdentifier
from pytest_fairy.perception.screen import Mark, Screen
from pytest_fairy.text import one_line

# What the previous action may have done for a queued follow-up to still be taken. No change is a
# surprise too: the model expected its action to do something.
_MOVED = {
    PageExpectation.SAME: (OutcomeKind.CONTENT_CHANGED, OutcomeKind.STATE_CHANGED, OutcomeKind.NEW_STATE),
    PageExpectation.OTHER: (OutcomeKind.STATE_CHANGED, OutcomeKind.NEW_STATE),
}


def page_of(screen: Screen) -> tuple[str, ...]:
    """What the model calls a page: the activity and the dialogs / sheets open over it. A checked option
    or a revealed section changes the state id but not the page."""
    return (screen.activity, *(layer.kind.value for layer in screen.dialog_layers))


# How much of the explorer's reason for its own action the drop note quotes.
INTERRUPT_REASON_CHARS = 200

# Labels are compared with their dynamic parts (prices, counters, times) replaced by placeholders, as
# state ids are: the model quotes "巨无霸 ¥26.9" from one dump and the next dump says "巨无霸 ¥27.6".
# No length class here: a long label is still matched by its words.
_LABEL_TEXT = StateIdentifier(long_text_chars=1 << 20)
_PLACEHOLDER = re.compile(r"<[a-z]+>|#")


def _static(label: str) -> str:
    """The label with its dynamic parts as placeholders, casefolded; "" if nothing static is left
    (a bare "13:00" or "¥12" names no element by itself: it must then match exactly)."""
    normal = _LABEL_TEXT.normalize_text(label).casefold()
    return normal if any(c.isalnum() for c in _PLACEHOLDER.sub("", normal)) else ""


# A label found inside a longer one must say this much (a CJK character counts 2): "我" must not find
# "我的", nor "OK" "Book now".
MIN_PART_WEIGHT = 4


def _weight(text: str) -> int:
    return sum(2 if ord(c) > 0x2E80 else 1 for c in text if not c.isspace())


def find_label(screen: Screen, label: str) -> Mark | None:
    """The one mark labelled `label`: exactly, else (for a label that says enough) as the only one
    containing it, else the same with prices, counters and times ignored on both sides. None if no tier
    finds exactly one (ambiguous or absent): a follow-up never guesses between elements."""
    wanted = label.strip()
    static = _static(wanted)
    partial = _weight(wanted) >= MIN_PART_WEIGHT
    tiers = [lambda m: m.label.strip() == wanted]
    if partial:
        tiers.append(lambda m: wanted.casefold() in m.label.casefold())
    if static:
        tiers.append(lambda m: _static(m.label) == static)
        if partial:
            tiers.append(lambda m: static in _static(m.label))
    for tier in tiers:
        matches = [m for m in screen.marks if tier(m)]
        if len(matches) == 1:
            return matches[0]
        if matches:
            return None
    return None


class DropReason(StrEnum):
    """Why a queued plan stopped before its end."""

    OTHER_ACTION = "the explorer took another action"  # a loop-guard escape, a return step
    GUARD = "loop-guard warning"
    DENIED = "denied by policy"
    FAILED = "action failed"
    NO_CHANGE = "action had no effect"
    PAGE = "unexpected page"
    NOT_VISIBLE = "expected text not visible"
    LABEL = "label not on the screen once"


@dataclass
class QueueStats:
    """What the model queued in one exploration and what became of it (counts of follow-ups)."""

    plans: int = 0  # answers that queued at least one follow-up
    queued: int = 0  # follow-ups accepted (after the cut to `max_queued_actions`)
    taken: int = 0  # taken without a call
    completed: int = 0  # plans taken to their last follow-up
    dropped: Counter[DropReason] = field(default_factory=Counter)  # follow-ups lost, by why
    stopped: Counter[DropReason] = field(default_factory=Counter)  # plans stopped, by why

    @property
    def pending(self) -> int:
        """Follow-ups neither taken nor dropped: the run ended (or a new plan began) before them."""
        return self.queued - self.taken - sum(self.dropped.values())

    def __str__(self) -> str:
        drops = ", ".join(f"{n} {reason}" for reason, n in self.dropped.most_common()) or "none"
        return (
            f"{self.plans} plans queued {self.queued} follow-ups: {self.taken} taken, "
            f"{sum(self.dropped.values())} dropped ({drops}), {self.pending} pending at the end; "
            f"{self.completed} plans completed"
        )


@dataclass(frozen=True, slots=True)
class _Queued:
    decision: Decision  # the model's own decision: its sub-feature and assessment carry over
    follow_ups: tuple[FollowUp, ...]
    taken: int  # actions of the plan taken so far, the model's decision included
    step: int  # the step of the last action taken
    action: str  # that action in the explorer's words, to recognise it in the next step's outcome
    page: tuple[str, ...]  # the page it was taken on

    @property
    def total(self) -> int:
        return self.taken + len(self.follow_ups)


class FollowUpQueue:
    """The model's queued follow-ups: the next one is taken without a call only while nothing surprised.

    A surprise drops the whole queue: the explorer took another action (an escape, a return step: told
    through `interrupt`, else seen in the next step's outcome), a loop-guard warning, a denial, a failed
    action, an action with no effect, another page than expected (or the same one when another was
    expected), a text that should be visible and is not, or a label that is not on the screen exactly
    once. `note` then says why, for the model's next prompt; `stats` count it.
    """

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self._queued: _Queued | None = None
        self.note = ""
        self.stats = QueueStats()

    @property
    def taken_without_call(self) -> int:
        return self.stats.taken

    def start(self, decision: Decision, follow_ups: tuple[FollowUp, ...], ctx: StepContext) -> Decision:
        """Keep the follow-ups of the model's fresh `decision`; the decision says it opens a plan."""
        self._queued = None
        if decision.action is None or decision.assessment.is_completed or not follow_ups:
            return decision
        queued = _Queued(
            decision, follow_ups, 1, ctx.step, decision.action.describe(ctx.screen), page_of(ctx.screen)
        )
        self._queued = queued
        self.stats.plans += 1
        self.stats.queued += len(follow_ups)
        steps = "; then ".join(f.describe() for f in follow_ups)
        return replace(
            decision,
            reasoning=f"{decision.reasoning} [step 1/{queued.total} of the model's plan; "
            f"then, if the screens match: {steps}]",
        )

    def take_note(self) -> str:
        note, self.note = self.note, ""
        return note

    def next(self, ctx: StepContext) -> Decision | None:
        """The next queued action if the screen is what the model expected, else None (queue dropped)."""
        queued = self._queued
        if queued is None:
            return None
        follow_up = queued.follow_ups[0]
        surprise = self._surprise(queued, follow_up, ctx)
        mark = None
        if surprise is None and follow_up.label is not None:
            mark = find_label(ctx.screen, follow_up.label)
            if mark is None and follow_up.kind in NEEDS_MARK | {ActionKind.SCROLL}:
                surprise = DropReason.LABEL, f"no single element labelled {follow_up.label!r} on this screen"
        if surprise is not None:
            self._drop(queued, *surprise)
            return None
        action = Action(follow_up.kind, mark.number if mark else None, follow_up.text, follow_up.direction)
        taken = queued.taken + 1
        rest = queued.follow_ups[1:]
        self._queued = (
            replace(
                queued,
                follow_ups=rest,
                taken=taken,
                step=ctx.step,
                action=action.describe(ctx.screen),
                page=page_of(ctx.screen),
            )
            if rest
            else None
        )
        self.stats.taken += 1
        if not rest:
            self.stats.completed += 1
            self.note = f"All {taken} actions of your queued plan were taken; this is the screen after them."
        checks = follow_up.page.value + (f", {follow_up.visible!r} visible" if follow_up.visible else "")
        reasoning = (
            f"queued step {taken}/{queued.total} of the model's plan, taken without a call: "
            f"{follow_up.describe()} (screen as expected: {checks}); expects: {follow_up.expected}"
        )
        return Decision(
            action,
            reasoning,
            expected=follow_up.expected,
            sub_feature=queued.decision.sub_feature,
            assessment=queued.decision.assessment,
            origin=Origin.QUEUED,
        )

    def interrupt(self, ctx: StepContext, decision: Decision) -> None:
        """The explorer took `decision` at this step, not the model's next queued action (a loop-guard
        escape, a return step): the queued plan is dropped there and then, saying so. `next` would drop
        it at the next step anyway (`OTHER_ACTION`); this way the note can say why the explorer acted."""
        queued = self._queued
        if queued is None:
            return
        taken = decision.action.describe(ctx.screen) if decision.action is not None else "nothing"
        why = one_line(decision.reasoning, INTERRUPT_REASON_CHARS)
        self._drop(queued, DropReason.OTHER_ACTION, f"the explorer took another action ({taken}: {why})")

    def _drop(self, queued: _Queued, reason: DropReason, why: str) -> None:
        self._queued = None
        self.stats.stopped[reason] += 1
        self.stats.dropped[reason] += len(queued.follow_ups)
        self.note = (
            f"Your queued plan stopped before step {queued.taken + 1}/{queued.total} "
            f"({queued.follow_ups[0].describe()}): {why}. Decide afresh from this screen."
        )

    @staticmethod
    def _surprise(queued: _Queued, follow_up: FollowUp, ctx: StepContext) -> tuple[DropReason, str] | None:
        last = ctx.last
        if ctx.step != queued.step + 1 or last is None or last.action != queued.action:
            taken = str(last) if last else "nothing"
            return (
                DropReason.OTHER_ACTION,
                f"the explorer took another action ({taken}) instead of {queued.action}",
            )
        if ctx.warning is not None:
            return DropReason.GUARD, f"the loop guard warned: {ctx.warning.reason}"
        if ctx.denial or last.kind is OutcomeKind.DENIED:
            return DropReason.DENIED, f"{last.action} was denied ({ctx.denial or last.detail})"
        if last.kind is OutcomeKind.FAILED:
            return DropReason.FAILED, f"{last.action} failed ({last.detail})"
        if last.kind is OutcomeKind.NO_CHANGE:
            return DropReason.NO_CHANGE, f"{last.action} changed nothing"
        same = page_of(ctx.screen) == queued.page
        if last.kind not in _MOVED[follow_up.page] or same != (follow_up.page is PageExpectation.SAME):
            where = "the same page" if same else f"another page ({ctx.screen.title})"
            return DropReason.PAGE, f"expected {follow_up.page.value} after {last.action}, but it is {where}"
        if follow_up.visible and not ctx.screen.find_text(follow_up.visible):
            return DropReason.NOT_VISIBLE, f"{follow_up.visible!r} is not on the screen"
        return None
