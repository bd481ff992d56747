"""A recording: every decision one exploration of one feature took, keyed by where it was taken.

A recording per run of a (spec, feature), each stored as one indented JSON document, a version of the
item's recording in the decision cache (cache.py; the format: docs/replay.md):

    schema, version          "pytest_fairy.decisions", 1
    spec, feature            which item this is (the spec path relative to the rootdir, the feature name)
    target                   a digest of what the feature asks (goal, start, sub-features, hints...):
                             when the spec changes, the recording no longer applies
    brain, model, recorded   who decided, and when; a run tells when it replays decisions another brain
                             or model made than its own
    plan                     {state, state_name, root, sub_features, steps}: the plan made on the first
                             screen, which replays only when the run starts on the same state
    steps                    [{state, visit, after, state_name, title, step, decision, judgements,
                             content, progress}], and `by` on a step replayed from another maker's
                             recording: who made it
    summary                  {story, text}: replayed only for the very same story

While a run follows its recording, a step is found by its `StepKey`: the state's key (activity +
structure + dialog hashes), how many times that state was seen before in the run (`visit`), and the
stable key of the action that led to it (`after`, "" at the start). Once the run has left it, by its
screen: the state's key, the screen's `content` hash and the feature's `progress` (`replay/lookup.py`).
Both are optional: steps recorded without them replay on the path only. Actions are kept by element ref
and label; the mark number is only a hint, because numbers move whenever anything on the screen does.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from pytest_fairy.errors import UsageError
from pytest_fairy.explore.action import Action, ActionError, ActionKind
from pytest_fairy.explore.decisions import Assessment, Decision, Judgement, Plan
from pytest_fairy.explore.oracles import Finding
from pytest_fairy.explore.recorded_action import RecordedAction
from pytest_fairy.explore.target import Target
from pytest_fairy.perception.screen import Screen
from pytest_fairy.spec.secrets import PLACEHOLDER

SCHEMA = "pytest_fairy.decisions"
SCHEMA_VERSION = 1


class RecordingError(UsageError):
    """A recording document that cannot be read (not JSON, another schema or version, malformed)."""


class ForeignRecording(RecordingError):
    """A recording of another version of the format: whole, but not for this pytest_fairy to read."""


@dataclass(frozen=True, slots=True)
class StepKey:
    state: str
    visit: int
    after: str


def target_digest(target: Target) -> str:
    """What the recorded decisions were made for: a changed goal or hint makes them stale."""
    parts = [
        target.package,
        target.feature,
        target.goal,
        target.start,
        target.description,
        *target.sub_features,
        "|",
        *target.done_hints,
        "|",
        *sorted(target.allowed_risks),
    ]
    return hashlib.blake2b("\x1f".join(parts).encode("utf-8"), digest_size=8).hexdigest()


def story_digest(story: str) -> str:
    return hashlib.blake2b(story.encode("utf-8"), digest_size=8).hexdigest()


@dataclass(frozen=True, slots=True)
class RecordedDecision:
    action: RecordedAction | None
    reasoning: str
    expected: str = ""
    sub_feature: str = ""
    assessment: Assessment = field(default_factory=Assessment)

    @classmethod
    def of(cls, decision: Decision, screen: Screen) -> RecordedDecision:
        """The decision as it is kept. Text typed into a password field is not kept (`withheld`), unless
        it is a secret's placeholder (`{{SHOP_PASSWORD}}`), which is kept as such."""
        action = RecordedAction.of(decision.action, screen) if decision.action else None
        if action is not None and decision.action is not None and _password_text(decision.action, screen):
            action = replace(action, text=None)
        return cls(action, decision.reasoning, decision.expected, decision.sub_feature, decision.assessment)

    @property
    def withheld(self) -> bool:
        """A typing step whose text was not kept: replaying it needs the brain again."""
        action = self.action  # (a typing whose field was not on the screen kept no ref: a plain miss)
        return (
            action is not None
            and action.kind == ActionKind.TYPE.value
            and action.text is None
            and bool(action.ref)
        )


def _password_text(action: Action, screen: Screen) -> bool:
    """Text typed into a password field that is not a secret's placeholder."""
    return (
        action.kind is ActionKind.TYPE
        and action.into_password(screen)
        and not PLACEHOLDER.fullmatch(action.text or "")
    )


@dataclass
class RecordedStep:
    state: str
    visit: int
    after: str
    state_name: str = ""
    title: str = ""
    step: int = 0
    decision: RecordedDecision | None = None
    judgements: list[Judgement] = field(default_factory=list)
    # Who made this step's decisions when not the recording's brain / model ("": the recording's).
    by: str = ""
    # The screen's content hash and a digest of the feature's progress when the step was taken: what
    # finds the step once a run has left the recorded path ("": not recorded, the path only).
    content: str = ""
    progress: str = ""

    @property
    def key(self) -> StepKey:
        return StepKey(self.state, self.visit, self.after)


@dataclass(frozen=True, slots=True)
class RecordedPlan:
    state: str
    state_name: str
    plan: Plan


@dataclass
class Recording:
    spec: str
    feature: str
    target: str
    brain: str = ""
    model: str | None = None
    recorded: str = ""
    plan: RecordedPlan | None = None
    steps: list[RecordedStep] = field(default_factory=list)
    summary_story: str = ""
    summary: str = ""

    # -- JSON --------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        plan = None
        if self.plan is not None:
            plan = {
                "state": self.plan.state,
                "state_name": self.plan.state_name,
                "root": self.plan.plan.root,
                "sub_features": list(self.plan.plan.sub_features),
                "steps": list(self.plan.plan.steps),
            }
        return {
            "schema": SCHEMA,
            "version": SCHEMA_VERSION,
            "spec": self.spec,
            "feature": self.feature,
            "target": self.target,
            "brain": self.brain,
            "model": self.model,
            "recorded": self.recorded,
            "plan": plan,
            "steps": [_step_to_dict(step) for step in self.steps],
            "summary": {"story": self.summary_story, "text": self.summary} if self.summary else None,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=2) + "\n"

    @classmethod
    def from_json(cls, text: str, *, where: str = "recording") -> Recording:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordingError(f"{where}: not valid JSON: {exc}") from exc
        if not isinstance(data, dict) or data.get("schema") != SCHEMA:
            raise RecordingError(f"{where}: not a decision recording (expected schema {SCHEMA!r})")
        if data.get("version") != SCHEMA_VERSION:
            raise ForeignRecording(
                f"{where}: recording version {data.get('version')!r} is not supported "
                f"(this pytest_fairy reads version {SCHEMA_VERSION})"
            )
        try:
            raw_plan = data["plan"]
            plan = None
            if raw_plan is not None:
                plan = RecordedPlan(
                    raw_plan["state"],
                    raw_plan.get("state_name", ""),
                    Plan(raw_plan["root"], tuple(raw_plan["sub_features"]), tuple(raw_plan["steps"])),
                )
            summary = data.get("summary") or {}
            return cls(
                spec=data["spec"],
                feature=data["feature"],
                target=data["target"],
                brain=data.get("brain", ""),
                model=data.get("model"),
                recorded=data.get("recorded", ""),
                plan=plan,
                steps=[_step_from_dict(raw) for raw in data["steps"]],
                summary_story=summary.get("story", ""),
                summary=summary.get("text", ""),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordingError(f"{where}: malformed recording: {exc!r}") from exc


def _step_to_dict(step: RecordedStep) -> dict[str, Any]:
    decision = None
    if step.decision is not None:
        decision = asdict(step.decision)
        if step.decision.action is not None:
            # The hint and empty fields are noise in a file people read and diff.
            decision["action"] = {k: v for k, v in decision["action"].items() if v not in (None, "")}
    kept = {
        "state": step.state,
        "visit": step.visit,
        "after": step.after,
        "state_name": step.state_name,
        "title": step.title,
        "step": step.step,
        "decision": decision,
        "judgements": [asdict(j) for j in step.judgements],
    }
    optional = {"by": step.by, "content": step.content, "progress": step.progress}
    return kept | {name: value for name, value in optional.items() if value}


def _step_from_dict(raw: dict[str, Any]) -> RecordedStep:
    decision = None
    if raw.get("decision") is not None:
        d = raw["decision"]
        action = RecordedAction(**d["action"]) if d.get("action") else None
        decision = RecordedDecision(
            action, d["reasoning"], d.get("expected", ""), d.get("sub_feature", ""),
            Assessment(**d.get("assessment", {})),
        )  # fmt: skip
    judgements = [
        Judgement(
            j["complete"],
            j["reason"],
            tuple(Finding(**f) for f in j.get("findings", ())),
            bool(j.get("phase_complete", False)),
        )
        for j in raw.get("judgements", ())
    ]
    return RecordedStep(
        raw["state"], int(raw["visit"]), raw["after"], raw.get("state_name", ""), raw.get("title", ""),
        int(raw.get("step", 0)), decision, judgements, str(raw.get("by", "")),
        str(raw.get("content", "")), str(raw.get("progress", "")),
    )  # fmt: skip


def recorded_decision(decision: Decision, screen: Screen) -> RecordedDecision:
    """`decision` as it is kept; one whose mark is not on the screen is kept without a ref (replaying it is
    a miss)."""
    try:
        return RecordedDecision.of(decision, screen)
    except ActionError:
        # A mark that is not on the screen: kept without a ref, so replaying it is a miss.
        action = decision.action
        assert action is not None
        # Its field unknown, typed text is not kept: it may have been a password.
        text = None if action.kind is ActionKind.TYPE else action.text
        kept = RecordedAction(action.kind.value, mark=action.mark, text=text)
        return RecordedDecision(kept, decision.reasoning, decision.expected, decision.sub_feature)


def maker_of(recording: Recording) -> str:
    """Who made a recording's decisions: its model, else its brain's name."""
    return recording.model or recording.brain or "an unnamed brain"
