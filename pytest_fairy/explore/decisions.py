"""The brain seam: one small protocol for everything that decides.

A brain plans the feature, decides the next action from a bounded context, judges completion and writes
the summary. Implementations: offline (deterministic systematic explorer), scripted (a fixed script,
for tests and smoke flows); the Claude brain builds on the same types. Failures of a backend surface as
`BrainError`, so the explorer can end the item inconclusive with what was seen so far.

Not every step is the brain's: the explorer takes loop-guard escapes and return steps itself, and the
caching brain serves recorded decisions without asking its live brain. Each `Decision` says where it
came from (`Origin`), so the record, the report and the brains' memories never parse its words for it.
A brain that keeps a memory of the run is told of the steps it did not decide through the optional
`Witness` methods; the others need not have them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol, runtime_checkable

from pytest_fairy.errors import BrainError
from pytest_fairy.explore.action import Action
from pytest_fairy.explore.guard import GuardVerdict
from pytest_fairy.explore.oracles import Finding
from pytest_fairy.explore.state import StateId
from pytest_fairy.explore.target import Target
from pytest_fairy.perception.screen import Screen


class NoRecordedDecision(BrainError):
    """A replaying brain has no recorded decision for this state: the item ends inconclusive, saying so."""

    ends_exploration_as = ""


class OutcomeKind(StrEnum):
    """What the last action did, in the planner's terms: a new page, a known one, a change on the same
    page, nothing (and why nothing moved)."""

    NEW_STATE = "new page"
    STATE_CHANGED = "moved to a known page"
    CONTENT_CHANGED = "page content changed"
    NO_CHANGE = "no change"
    DENIED = "denied by policy"
    FAILED = "action failed"


@dataclass(frozen=True, slots=True)
class Outcome:
    action: str
    kind: OutcomeKind
    detail: str = ""

    def __str__(self) -> str:
        return f"{self.action}: {self.kind}" + (f" ({self.detail})" if self.detail else "")


@dataclass(frozen=True, slots=True)
class Plan:
    """The feature structure the brain sees: the root feature, its sub-features and first steps."""

    root: str
    sub_features: tuple[str, ...] = ()
    steps: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Assessment:
    """The brain's own view of the current (sub-)feature, as it states it on every step."""

    is_completed: bool = False
    completion_rate: float = 0.0
    reason: str = ""
    should_return: bool = False
    # Seed 001's next_action_type: continue_current / explore_deeper / return_to_parent ("" = not given).
    next_action_type: str = ""


class Origin(StrEnum):
    """Who made a decision. Set where the decision is made, read wherever it matters (the step record,
    the report, the escape count), as a type rather than read from the reasoning's words."""

    BRAIN = "brain"  # the brain decided it on this step
    QUEUED = "queued"  # a follow-up the model queued behind an earlier decision, taken without a call
    ESCAPE = "escape"  # the explorer's way out of a loop the guard detected
    RETURN = "return"  # the explorer's way back out of a sub-feature the judge found complete
    REPLAY = "replay"  # served from the decision cache, as recorded on an earlier run
    HOOK = "hook"  # a project's review hook took this action in place of the one decided
    CHECK = "check"  # the explorer's way out and back again, to see the done-when hold over time


# How the reasoning of a decision the brain did not make begins: words for the report and for the
# model's memory of the run (what it reads as "not my choice"). Code asks `Decision.origin` instead.
ESCAPE_PREFIX = "loop guard escape"
RETURN_PREFIX = "return step"
REPLAY_PREFIX = "replayed"


@dataclass(frozen=True, slots=True)
class Decision:
    action: Action | None
    reasoning: str
    expected: str = ""
    sub_feature: str = ""
    assessment: Assessment = field(default_factory=Assessment)
    origin: Origin = Origin.BRAIN

    @property
    def finished(self) -> bool:
        """No action: the brain considers the feature explored."""
        return self.action is None


@dataclass(frozen=True, slots=True)
class StepContext:
    """Everything a brain may look at for one decision. Bounded: no whole history in here."""

    step: int
    target: Target
    plan: Plan
    screen: Screen
    som_jpeg: bytes
    state: StateId
    last: Outcome | None
    recent_states: str
    tree_summary: str
    warning: GuardVerdict | None
    unmet_oracles: tuple[str, ...]
    oracles_met: bool
    denial: str = ""
    # The screenshot taken right after the action (before the UI settled), when the explorer has one:
    # the "immediate" screenshot, which shows transient toasts and animations.
    immediate_jpeg: bytes = b""
    # The stable key (kind|ref|...) of the action that led here, "" at the start: replay keys on it.
    last_key: str = ""
    # What the loop guard counts (repeats, failures, steps since anything new) without the state path,
    # for a reader that shows the path itself; "" while nothing repeats.
    loop_facts: str = ""
    visits: int = 0  # how many times the run has been on this state, this visit included


@dataclass(frozen=True, slots=True)
class Judgement:
    """The judge's answer: `complete` when the whole feature is done (a pass), `phase_complete` when the
    sub-feature being worked on is, `findings` for app defects it saw, with their evidence."""

    complete: bool
    reason: str
    findings: tuple[Finding, ...] = ()
    phase_complete: bool = False

    @property
    def says_continue(self) -> bool:
        """Neither done nor a defect: there is more to explore."""
        return not self.complete and not self.findings


@dataclass(frozen=True, slots=True)
class Usage:
    """Tokens and cost so far. All zero for brains that use no LLM."""

    calls: int = 0
    input_tokens: int = 0
    cache_write_tokens: int = 0
    cache_read_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    # Why the figures look as they do, when they need a word: "no prompt cache expected: ...".
    note: str = ""

    @property
    def total_tokens(self) -> int:
        return self.input_tokens + self.cache_write_tokens + self.cache_read_tokens + self.output_tokens

    @property
    def cache_read_share(self) -> float:
        """The part of all prompt tokens that was read from the cache (0.0 with no prompt tokens yet)."""
        prompt = self.input_tokens + self.cache_write_tokens + self.cache_read_tokens
        return self.cache_read_tokens / prompt if prompt else 0.0


@runtime_checkable
class Brain(Protocol):
    name: str
    model: str | None

    def plan(self, target: Target, screen: Screen, som_jpeg: bytes = b"") -> Plan: ...

    def decide(self, ctx: StepContext) -> Decision: ...

    def judge(self, ctx: StepContext) -> Judgement: ...

    def summarize(self, target: Target, story: str) -> str: ...

    def usage(self) -> Usage: ...


@runtime_checkable
class Witness(Protocol):
    """Optional beside `Brain`: a brain that wants to be told of what it did not decide itself.

    Not part of `Brain`, so that brains with no memory of the run (offline, scripted, a user's) keep
    satisfying the protocol unchanged. Callers go through `witness` / `witness_plan` below, which look
    each method up on its own: a brain may have either.
    """

    def witness_plan(self, target: Target, plan: Plan) -> None:
        """An exploration of `target` starts on a plan made elsewhere (replayed from a recording)."""

    def witness(self, ctx: StepContext, decision: Decision) -> None:
        """Step `ctx.step` takes `decision`, which this brain did not make: a loop-guard escape or a return
        step (the explorer's), or a recorded decision (replayed). It comes in place of `decide`, or after
        it when the explorer replaces the brain's decision with a return step; a `judge` of the same step
        may come first. Told twice of one step (a replayed decision, then the return step replacing it),
        the later decision is the one taken."""


def witness(brain: Brain, ctx: StepContext, decision: Decision) -> None:
    """Tell `brain` of a step it did not decide, if it has a `witness` method."""
    told = getattr(brain, "witness", None)
    if told is not None:
        told(ctx, decision)


def witness_plan(brain: Brain, target: Target, plan: Plan) -> None:
    """Tell `brain` that an exploration starts on a plan it did not make, if it has `witness_plan`."""
    told = getattr(brain, "witness_plan", None)
    if told is not None:
        told(target, plan)
