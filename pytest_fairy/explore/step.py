"""What one step of the exploration loop hands on: the values its phases return, and the phases that need
neither the device, nor the brain, nor the run's memory.

A step arrives at a screen (`Arrival`: where the last `Attempt` led, and what it did), reads it with the
oracles (`Reading`), decides, `choose`s what to take (the risk policy, then the project's review), and
acts (`Attempt`). `Course` carries what the run has counted from one step to the next; an `Ending` is
the verdict a phase may reach. All are frozen: a phase returns a new value, never pokes a shared one, so
the loop shows what flows where.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from pytest_fairy.devices.events import joined
from pytest_fairy.errors import BrainError, DeviceError, FairyError
from pytest_fairy.explore.action import Action, ActionError, ActionKind
from pytest_fairy.explore.decisions import (
    ESCAPE_PREFIX,
    RETURN_PREFIX,
    Decision,
    Judgement,
    NoRecordedDecision,
    Origin,
    Outcome,
    OutcomeKind,
    StepContext,
)
from pytest_fairy.explore.guard import Escape, GuardVerdict
from pytest_fairy.explore.mission import Mission
from pytest_fairy.explore.oracles import Finding, Observation, defects, done
from pytest_fairy.explore.record import StepRecord
from pytest_fairy.explore.reproduction import Proof
from pytest_fairy.explore.state import StateId
from pytest_fairy.explore.target import Target
from pytest_fairy.explore.tree import RecordResult
from pytest_fairy.explore.verdict import Verdict
from pytest_fairy.perception.perceive import Perception
from pytest_fairy.perception.screen import Screen

# What the guard counts as an action that did something.
MOVED = frozenset({OutcomeKind.NEW_STATE, OutcomeKind.STATE_CHANGED, OutcomeKind.CONTENT_CHANGED})


@dataclass(frozen=True, slots=True)
class Ending:
    """The verdict of the run, reached by one phase: the loop stops at the first."""

    verdict: Verdict
    reason: str
    findings: tuple[Finding, ...] = ()
    # An app defect's: how it was seen, and the step whose action showed it (0: the first screen), so a
    # replay knows what to do and what to look for (`confirm.py`).
    proof: Proof = Proof.ORACLES
    at_step: int = 0
    interrupted: bool = False  # Ctrl-C or SIGTERM: the item ends here and the session stops after it
    # The device or the brain failed (lost, unavailable), not the exploration: another try may finish it.
    infrastructure: bool = False


def interruption(stop: KeyboardInterrupt, steps: int) -> Ending:
    """The run was asked to stop (Ctrl-C, or SIGTERM: plugin/signals.py) after `steps` steps."""
    why = str(stop) or "Ctrl-C"
    return Ending(Verdict.INCONCLUSIVE, f"interrupted ({why}) after step {steps}", interrupted=True)


def broken(error: FairyError) -> Ending:
    """A seam failed: the run ends inconclusive with what was seen so far, `error` worded as its reason.
    A lost device or a failing brain is the infrastructure's fault: another try may finish the feature. A
    replaying brain without a recorded decision is not: another try replays the same recording."""
    infrastructure = isinstance(error, DeviceError | BrainError) and not isinstance(error, NoRecordedDecision)
    return Ending(Verdict.INCONCLUSIVE, error.as_reason(), infrastructure=infrastructure)


def defect(judgement: Judgement, step: int) -> Ending:
    """The judge saw an app defect on the screen `step` led to, and backs it with evidence: the item
    fails with it, once a replay reaches that screen again."""
    return Ending(
        Verdict.FAILED,
        "; ".join(f.message for f in judgement.findings) or judgement.reason,
        judgement.findings,
        Proof.SCREEN,
        step,
    )


@dataclass(frozen=True, slots=True)
class Attempt:
    """An action as it was carried out (or not), with its step's record, which waits for the outcome."""

    action: str
    key: str
    state: StateId
    record: StepRecord
    denial: str = ""
    error: str = ""


@dataclass(frozen=True, slots=True)
class Arrival:
    """A screen the run arrived at: where `attempt` (None at the start) led, and what it did there."""

    seen: Perception
    state: StateId
    steps: int  # steps taken to get here: the step about to be decided is `steps + 1`
    change: RecordResult  # what the feature tree learnt from it
    outcome: Outcome | None = None
    attempt: Attempt | None = None
    title: str = ""  # the state's screen title, as the feature tree keeps it (its first non-empty one)

    @property
    def record(self) -> StepRecord | None:
        """The step that led here, now with where it led and what it did: what the sinks are given."""
        if self.attempt is None:
            return None
        outcome = str(self.outcome) if self.outcome else ""
        record = self.attempt.record
        return replace(record, reached=self.state.name, reached_title=self.title, outcome=outcome)


def outcome_of(attempt: Attempt | None, state: StateId, change: RecordResult) -> Outcome | None:
    """What `attempt` did, in the planner's terms, now that it led to `state`."""
    if attempt is None:
        return None
    if attempt.denial:
        return Outcome(attempt.action, OutcomeKind.DENIED, attempt.denial)
    if attempt.error:
        return Outcome(attempt.action, OutcomeKind.FAILED, attempt.error)
    if change.new_state:
        return Outcome(attempt.action, OutcomeKind.NEW_STATE, state.name)
    if state.key != attempt.state.key:
        return Outcome(attempt.action, OutcomeKind.STATE_CHANGED, state.name)
    if change.content_changed:
        return Outcome(attempt.action, OutcomeKind.CONTENT_CHANGED)
    return Outcome(attempt.action, OutcomeKind.NO_CHANGE)


@dataclass(frozen=True, slots=True)
class Course:
    """The run so far, as the loop carries it from step to step."""

    steps: int = 0
    escapes: int = 0
    # The done-when oracles held on some screen: without that, no judge's word makes a pass.
    oracles_seen: bool = False
    last: Arrival | None = None  # the last screen arrived at: the result shows it
    awaiting: Attempt | None = None  # the last action, its outcome not seen yet

    def arrived(self, arrival: Arrival) -> Course:
        return replace(self, last=arrival, awaiting=None)

    def saw(self, ctx: StepContext) -> Course:
        return replace(self, oracles_seen=self.oracles_seen or ctx.oracles_met)

    def acted(self, attempt: Attempt) -> Course:
        escapes = self.escapes + attempt.record.escape
        return replace(self, steps=self.steps + 1, escapes=escapes, awaiting=attempt)


@dataclass(frozen=True, slots=True)
class Reading:
    """What the oracles say of one screen."""

    findings: tuple[Finding, ...]  # app defects: any one fails the item
    unmet: tuple[str, ...]  # done-when conditions that do not hold here
    met: bool  # every done-when condition holds (False for a mission that has none)


def read_oracles(mission: Mission, target: Target, observed: Observation) -> Reading:
    """Crashes, ANRs and must-not conditions, the project's checks (which may raise `HookError`), and
    the done-when conditions, on one screen."""
    findings = defects(mission.must_not, observed, target.package, app_name=target.app_name)
    findings += [finding for check in mission.checks for finding in check(observed)]
    check = done(mission.done_when, observed)
    return Reading(tuple(findings), tuple(check.unmet), bool(mission.done_when) and check.holds)


@dataclass(frozen=True, slots=True)
class Choice:
    """What a step takes once the risk policy and the project's review have had their say."""

    decided: Decision  # as decided: by the brain, its queue, the guard, a return step or the cache
    taken: Decision  # the decided one, or the review's rewrite of it (`Origin.HOOK`)
    words: str  # the action taken, in words
    key: str  # what the guard compares (the action's kind and target ref)
    denial: str = ""  # the policy's or the review's "no": fed back to the brain, nothing is done
    error: str = ""  # the action cannot be carried out on this screen (an unknown mark)


def choose(decision: Decision, screen: Screen, mission: Mission, step: int) -> Choice:
    """Put `decision` before the risk policy, and what the policy allows before the project's review:
    a veto denies it, a rewrite is taken instead and obeys the policy too."""
    action = decision.action
    assert action is not None, "a finished decision takes no action"
    taken, words = decision, action.describe(screen)
    key, denial = words, ""
    try:
        key = action.key(screen)
        denial = mission.policy.check(action, screen) or ""
        second = mission.review(action, screen, step) if mission.review is not None and not denial else None
        if isinstance(second, str):
            denial = f"vetoed: {second or '(no reason given)'}"
        elif second is not None:
            taken = replace(
                decision,
                action=second,
                reasoning=f"{decision.reasoning} (rewritten by a hook: the brain chose {words})",
                origin=Origin.HOOK,
            )
            words = second.describe(screen)
            key = second.key(screen)
            denial = mission.policy.check(second, screen) or ""
    except ActionError as exc:
        return Choice(decision, taken, words, key, denial, str(exc))
    return Choice(decision, taken, words, key, denial)


def escape_from(warning: GuardVerdict, screen: Screen) -> Decision:
    """The loop guard's way out, gentlest first: close the dialog, else back, else restart the app."""
    why = f"{ESCAPE_PREFIX}: {warning.reason}"
    if warning.escape is Escape.DISMISS_DIALOG:
        way_out = screen.dismiss_mark()
        if way_out is not None:
            return Decision(
                Action(ActionKind.TAP, way_out.number),
                f"{why}; close the dialog via '{way_out.label}'",
                origin=Origin.ESCAPE,
            )
        return Decision(
            Action(ActionKind.BACK),
            f"{why}; the dialog has no close button, press back",
            origin=Origin.ESCAPE,
        )
    if warning.escape is Escape.RESTART:
        return Decision(Action(ActionKind.RESTART), f"{why}; restart the app", origin=Origin.ESCAPE)
    return Decision(Action(ActionKind.BACK), f"{why}; go back", origin=Origin.ESCAPE)


def return_step(screen: Screen, why: str, *, sub_feature: str = "") -> Decision:
    """Out of a completed sub-feature: close its dialog, else go back where it was entered.
    The decision names the sub-feature the judge confirmed, so a brain that witnesses it knows."""
    way_out = screen.dismiss_mark() if screen.has_dialog else None
    if way_out is not None:
        return Decision(
            Action(ActionKind.TAP, way_out.number),
            f"{RETURN_PREFIX}: {why}; close via '{way_out.label}'",
            sub_feature=sub_feature,
            origin=Origin.RETURN,
        )
    return Decision(
        Action(ActionKind.BACK),
        f"{RETURN_PREFIX}: {why}; go back",
        sub_feature=sub_feature,
        origin=Origin.RETURN,
    )


def take_note(device: object) -> str:
    """What a device said about the action just taken (U2Device: how it typed), if it says anything."""
    take = getattr(device, "take_note", None)
    return str(take()) if callable(take) else ""


def noted(device: object, course: Course) -> Course:
    """What the device said since the last action was recorded (a reconnect while reading its outcome)
    joins that action's record."""
    note = take_note(device) if course.awaiting is not None else ""
    if not note or course.awaiting is None:
        return course
    record = course.awaiting.record
    record = replace(record, device_note=joined(record.device_note, note))
    return replace(course, awaiting=replace(course.awaiting, record=record))
