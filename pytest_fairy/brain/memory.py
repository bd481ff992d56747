"""The brain's memory of one exploration: counts, the last K transitions, the milestones, the
sub-features it called complete and those the judge confirmed, and what it expected its last action
to show. Bounded by `ContextLimits`: it must not grow with the step count.
`MessageBuilder` (context.py) renders it into each message.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from pytest_fairy.brain.limits import ContextLimits
from pytest_fairy.explore.decisions import Decision, Origin, OutcomeKind, StepContext
from pytest_fairy.text import one_line

NONE = "(none)"


def listing(items: tuple[str, ...] | list[str]) -> str:
    return ", ".join(items) if items else NONE


@dataclass(frozen=True, slots=True)
class Transition:
    step: int
    action: str
    outcome: str
    reached: str
    # Why the action was taken when the brain did not decide it ("loop guard escape: ...", "replayed:
    # ..."): the model must not read an escape as its own choice.
    note: str = ""
    visits: int = 0  # the visit to `reached` this was (1 = first time there)
    expected: str = ""  # what the model said the screen should show after the action

    def __str__(self) -> str:
        text = f"step {self.step}: {self.action} -> {self.outcome} -> {self.reached}"
        if self.visits > 1:
            text += f" [visit {self.visits}]"
        return f"{text} [{self.note}]" if self.note else text


@dataclass(frozen=True, slots=True)
class Milestone:
    step: int
    text: str
    # A milestone that only says what a transition says ("found new page ..."): left out while that
    # transition is among the recent ones shown, so the history appears once.
    is_transition: bool = False


class RunMemory:
    """What the brain remembers of one exploration: counts, the last K transitions, the last milestones."""

    def __init__(self, limits: ContextLimits) -> None:
        self.limits = limits
        self.reset()

    def reset(self) -> None:
        self.transitions: deque[Transition] = deque(maxlen=self.limits.recent_k)
        # Room for the milestones a recent step already tells, which are not shown while it is recent.
        self.milestones: deque[Milestone] = deque(maxlen=self.limits.max_milestones + self.limits.recent_k)
        self.milestone_count = 0
        self.counts = {kind: 0 for kind in OutcomeKind}
        self.completed: dict[str, int] = {}  # sub-feature -> step the judge confirmed it complete
        self.claimed: set[str] = set()  # sub-features the brain called complete, unconfirmed
        self.current = ""
        self.rate = 0.0
        self._seen_step = 0
        # (step, words) of the last witnessed decision, until the next step shows its outcome.
        self._note: tuple[int, str] | None = None
        # (step, words) of what the model expected its last action to show, until the next step.
        self._expected: tuple[int, str] | None = None

    def observe(self, ctx: StepContext) -> None:
        """Take in what the last action did; a step seen twice (judge, then decide) counts once."""
        if ctx.step <= self._seen_step:
            return
        self._seen_step = ctx.step
        step = ctx.step - 1
        note = self._note[1] if self._note is not None and self._note[0] == step else ""
        expected = self._expected[1] if self._expected is not None and self._expected[0] == step else ""
        self._note = self._expected = None
        last = ctx.last
        if last is None:
            return
        self.counts[last.kind] += 1
        reached = f"{ctx.screen.title} ({ctx.state.name})"
        self.transitions.append(
            Transition(step, last.action, str(last.kind), reached, note, ctx.visits, expected)
        )
        if last.kind is OutcomeKind.NEW_STATE:
            self._milestone(step, f"step {step}: found new page {reached} by {last.action}", transition=True)
        elif last.kind is OutcomeKind.DENIED:
            self._milestone(step, f"step {step}: {last.action} denied ({last.detail})", transition=True)

    @property
    def last_step(self) -> int:
        return self._seen_step

    def witnessed(self, decision: Decision, step: int) -> None:
        """A step decided elsewhere (an escape, a return step, a replayed decision): its words go with
        its transition, seen at the next step; its sub-feature and assessment count as the brain's own.
        The caller has observed the step's context first, as `decide` does."""
        if decision.reasoning:
            self._note = (step, one_line(decision.reasoning, self.limits.max_note_chars))
        self.decided(decision, step)
        name = decision.sub_feature
        if decision.origin is Origin.RETURN and name and name not in self.completed:
            # The explorer returns from a sub-feature only after the judge confirmed it complete.
            if len(self.completed) < self.limits.max_milestones:
                self.completed[name] = step
            self._milestone(step, f"step {step}: the judge confirmed sub-feature '{name}' complete")

    def decided(self, decision: Decision, step: int) -> None:
        if decision.expected:
            self._expected = (step, one_line(decision.expected, self.limits.max_note_chars))
        if decision.sub_feature:
            self.current = decision.sub_feature
            self.rate = decision.assessment.completion_rate
        name = decision.sub_feature
        claim = name and decision.assessment.is_completed and decision.origin is not Origin.RETURN
        if claim and name not in self.completed and name not in self.claimed:
            # A claim of the brain's own, written as one: the judge has not confirmed it.
            self.claimed.add(name)
            self._milestone(
                step, f"step {step}: you called sub-feature '{name}' complete (the judge has not agreed)"
            )

    def _milestone(self, step: int, text: str, *, transition: bool = False) -> None:
        self.milestone_count += 1
        self.milestones.append(Milestone(step, text, transition))

    def progress(self, step: int, *, sub_features: bool = True) -> str:
        """The run in counts; `sub_features=False` where the plan shows each sub-feature's status."""
        c = self.counts
        moved = c[OutcomeKind.NEW_STATE] + c[OutcomeKind.STATE_CHANGED] + c[OutcomeKind.CONTENT_CHANGED]
        lines = [
            f"{max(0, step - 1)} steps taken: {c[OutcomeKind.NEW_STATE]} new pages found, {moved} actions "
            f"changed something, {c[OutcomeKind.NO_CHANGE]} had no effect, {c[OutcomeKind.FAILED]} failed, "
            f"{c[OutcomeKind.DENIED]} were denied.",
        ]
        if not sub_features:
            return lines[0]
        lines.append("Sub-features the judge confirmed complete: " + listing(list(self.completed)))
        if self.current:
            lines.append(f"Current sub-feature: {self.current} ({self.rate:.0%} explored, last estimate)")
        return "\n".join(lines)

    def milestones_text(self) -> str:
        """The milestones not already told by a recent transition, oldest first."""
        recent = {t.step for t in self.transitions}
        kept = [m for m in self.milestones if not (m.is_transition and m.step in recent)]
        kept = kept[-self.limits.max_milestones :]
        told = sum(1 for m in self.milestones if m.is_transition and m.step in recent)
        hidden = self.milestone_count - len(kept) - told
        lines = [f"({hidden} earlier milestones not shown)"] if hidden else []
        lines += [f"- {m.text}" for m in kept]
        return "\n".join(lines) or NONE

    def transitions_text(self) -> str:
        return "\n".join(f"- {t}" for t in self.transitions) or NONE

    def expectation(self) -> str:
        """What the model expected its last action to show, to set beside what it did; "" if nothing."""
        last = self.transitions[-1] if self.transitions else None
        if last is None or not last.expected or last.step != self._seen_step - 1:
            return ""
        return f"You expected: {last.expected}"

    def sub_feature_status(self, name: str) -> str:
        if name in self.completed:
            return f"{name} (done: the judge confirmed it at step {self.completed[name]})"
        claim = "you called it complete, the judge has not agreed" if name in self.claimed else ""
        if name == self.current:
            return f"{name} (working on it, {self.rate:.0%} explored{', ' + claim if claim else ''})"
        return f"{name} ({claim or 'to do'})"
