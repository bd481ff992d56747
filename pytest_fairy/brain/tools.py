"""The four stages as tools with strict JSON schemas, and the reading of their answers.

Every call sends the same `TOOLS` array (so the prefix caches) and forces one of them with
`tool_choice`. An answer is checked twice: against its schema (`schema_errors`, a validator of the
small JSON-Schema subset the schemas use), then for sense on the screen it was given (`read_*`: a mark
that exists, text for `type`, ...). Either kind of problem is an `AnswerError` whose message is written
for the model: the brain sends it back as the one corrective retry.

The schemas avoid numeric and length keywords (strict tool schemas do not support them); ranges are
stated in the descriptions and checked here.

`next_action` may carry `then`: a short queue of follow-up actions the model expects to take next, each
with what the screen must show by then (`FollowUp`). The brain takes them without another call while
the screen matches (see `context.FollowUpQueue`); they name their element by its label, never by a
mark number or a coordinate, because numbers are only valid on the screen they were read from.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from pytest_fairy.errors import BrainError
from pytest_fairy.explore.action import NEEDS_MARK, Action, ActionKind, Direction
from pytest_fairy.explore.decisions import Assessment, Decision, Judgement, Plan
from pytest_fairy.explore.oracles import Finding
from pytest_fairy.perception.screen import Screen

JsonSchema = dict[str, Any]


class Stage(StrEnum):
    PLAN = "plan"
    NEXT_ACTION = "next_action"
    JUDGE = "judge"
    SUMMARIZE = "summarize"


class AnswerError(BrainError):
    """An answer that cannot be used as it is; the message tells the model what to fix."""


DONE = "done"
# Room for a list tour of three rows (open, back, open, back, open, back) behind one answer.
DEFAULT_MAX_FOLLOW_UPS = 5


class PageExpectation(StrEnum):
    """Where a follow-up expects to be when its turn comes, relative to the previous action's screen."""

    SAME = "same page"  # the same page; its content may change (an option checked, a section shown)
    OTHER = "another page"  # the previous action opened or closed a page, dialog or sheet


@dataclass(frozen=True, slots=True)
class FollowUp:
    """A queued action of the model's plan, taken only if the screen turns out as the model expects."""

    kind: ActionKind
    label: str | None  # the element to act on, found by its label on the screen of the moment
    text: str | None
    direction: Direction | None
    page: PageExpectation
    visible: str | None  # a text that must be on the screen before this action is taken
    expected: str

    def describe(self) -> str:
        words = [self.kind.value]
        if self.label:
            words.append(repr(self.label))
        if self.direction is not None:
            words.append(self.direction.value)
        if self.text is not None:
            words.append(repr(self.text))
        return " ".join(words)


NEXT_ACTION_TYPES = ("continue_current", "explore_deeper", "return_to_parent")
VERDICTS = ("pass", "fail", "continue")


def _obj(properties: dict[str, JsonSchema]) -> JsonSchema:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def _str(description: str) -> JsonSchema:
    return {"type": "string", "description": description}


_PLAN = _obj(
    {
        "thought": _str("How the feature is likely organised in this app, judged from the first screen."),
        "root_feature": _str("The feature under test, as named in the target."),
        "sub_features": {
            "type": "array",
            "description": "The parts of the feature worth exploring, in order.",
            "items": _obj({"name": _str("Short name."), "description": _str("What it covers.")}),
        },
        "steps": {
            "type": "array",
            "description": "The first steps: an instruction and what it should reach.",
            "items": _obj(
                {
                    "instruction": _str("What to do, naming marks as [n] where useful."),
                    "sub_goal": _str("What the step should reach or show."),
                }
            ),
        },
    }
)

_FOLLOW_UP = _obj(
    {
        "when_page": {
            "type": "string",
            "enum": [p.value for p in PageExpectation],
            "description": "Where the previous action should have left you: 'same page' (its content may "
            "change, e.g. an option checked) or 'another page' (a page, dialog or sheet opened or closed).",
        },
        "when_visible": {
            "type": ["string", "null"],
            "description": "A text that must be visible by then (e.g. the title of the page you expect), "
            "or null.",
        },
        "kind": {"type": "string", "enum": [k.value for k in ActionKind]},
        "label": {
            "type": ["string", "null"],
            "description": "The element to act on, by its text as quoted in the screen text (mark numbers "
            "change between screens; a price or counter in it may have changed by then): required for tap, "
            "long_tap and type; the list for scroll (null = the whole screen); null for back, enter and "
            "restart.",
        },
        "text": {"type": ["string", "null"], "description": "The text to type (type only), else null."},
        "direction": {
            "type": ["string", "null"],
            "enum": [*(d.value for d in Direction), None],
            "description": "For scroll only, else null.",
        },
        "expected": _str("What the screen should show after this action."),
    }
)


def _next_action(max_follow_ups: int) -> JsonSchema:
    limit = f"At most {max_follow_ups}" if max_follow_ups else "Leave empty: queueing is off here. At most 0"
    then = {
        "type": "array",
        "description": f"{limit} actions you would take next if the screens turn out as you expect, so "
        "that a foreseeable stretch costs one answer instead of one per action: the other options of a "
        "group on this page; a tour of list rows you can see (open a row, back, open the next, back); a way "
        "you have already walked (you saw where each tap leads) and the action waiting at its end; choosing "
        "in a dialog, then confirming. Each is taken WITHOUT asking you again, only while its when_page and "
        "when_visible hold and its label is on the screen exactly once; at the first surprise the rest is "
        "dropped and you are asked as usual. Empty when the next screens are hard to predict.",
        "items": _FOLLOW_UP,
    }
    return _obj(
        {
            "observation": _str(
                "What the screen shows that matters for the feature, in one or two sentences."
            ),
            "kind": {
                "type": "string",
                "enum": [*(k.value for k in ActionKind), DONE],
                "description": "The action. `done` = the feature is explored as far as it goes.",
            },
            "mark": {
                "type": ["integer", "null"],
                "description": "The [n] mark number to act on: required for tap, long_tap and type; for "
                "scroll the list to scroll (null = the whole screen); else null. Never a coordinate.",
            },
            "text": {"type": ["string", "null"], "description": "The text to type (type only), else null."},
            "direction": {
                "type": ["string", "null"],
                "enum": [*(d.value for d in Direction), None],
                "description": "For scroll: where the content should move into view ('down' shows what is "
                "below). Null otherwise.",
            },
            "why": _str("Why this action, in one sentence."),
            "expected": _str("What the screen should show after it."),
            "sub_feature": _str("The sub-feature this action explores."),
            "then": then,
            "assessment": _obj(
                {
                    "is_completed": {
                        "type": "boolean",
                        "description": "Whether the current sub-feature is explored.",
                    },
                    "completion_rate": {"type": "integer", "description": "Percent explored, 0 to 100."},
                    "reason": _str("What has and has not been covered."),
                    "should_return": {
                        "type": "boolean",
                        "description": "Whether to leave this page for its parent.",
                    },
                    "next_action_type": {"type": "string", "enum": list(NEXT_ACTION_TYPES)},
                }
            ),
        }
    )


_NEXT_ACTION = _next_action(DEFAULT_MAX_FOLLOW_UPS)

_JUDGE = _obj(
    {
        "phase_completed": {"type": "boolean", "description": "Whether the current sub-feature is done."},
        "feature_completed": {
            "type": "boolean",
            "description": "Whether the whole feature's goal is reached.",
        },
        "verdict": {
            "type": "string",
            "enum": list(VERDICTS),
            "description": "pass: the goal is reached and works; fail: an app defect was seen (give "
            "findings with evidence); continue: not finished yet.",
        },
        "reason": _str("The grounds for the verdict, citing what the screen shows."),
        "findings": {
            "type": "array",
            "description": "App defects seen, each with its evidence. Empty if none.",
            "items": _obj(
                {
                    "kind": _str("e.g. functional, ui, crash, text"),
                    "message": _str("The defect in one sentence."),
                    "evidence": _str("What on the screen or in the run shows it."),
                }
            ),
        },
    }
)

_SUMMARIZE = _obj(
    {
        "summary": _str(
            "The final report of the exploration in Markdown: what was explored, how it went, "
            "the verdict and why."
        ),
        "highlights": {"type": "array", "items": {"type": "string"}, "description": "Key results."},
        "issues": {
            "type": "array",
            "items": {"type": "string"},
            "description": "Defects or doubts worth a person's look. Empty if none.",
        },
    }
)

SCHEMAS: dict[Stage, JsonSchema] = {
    Stage.PLAN: _PLAN,
    Stage.NEXT_ACTION: _NEXT_ACTION,
    Stage.JUDGE: _JUDGE,
    Stage.SUMMARIZE: _SUMMARIZE,
}
DESCRIPTIONS: dict[Stage, str] = {
    Stage.PLAN: "Give the initial exploration plan: the feature's structure and the first steps.",
    Stage.NEXT_ACTION: "Choose the next action on the current screen, by mark number, with a completion "
    "assessment of the current sub-feature.",
    Stage.JUDGE: "Judge whether the feature is complete and working, with findings and evidence.",
    Stage.SUMMARIZE: "Write the final summary of the exploration.",
}


def tools_param(
    cache_ttl: str | None = "5m", max_follow_ups: int = DEFAULT_MAX_FOLLOW_UPS
) -> list[dict[str, Any]]:
    """All stage tools, identical on every call; the cache breakpoint sits on the last one."""
    schemas = {**SCHEMAS, Stage.NEXT_ACTION: _next_action(max_follow_ups)}
    tools: list[dict[str, Any]] = [
        {"name": s.value, "description": DESCRIPTIONS[s], "input_schema": schemas[s], "strict": True}
        for s in Stage
    ]
    if cache_ttl is not None:
        tools[-1]["cache_control"] = cache_control(cache_ttl)
    return tools


def cache_control(ttl: str) -> dict[str, str]:
    return {"type": "ephemeral"} if ttl == "5m" else {"type": "ephemeral", "ttl": ttl}


_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "boolean": (bool,),
    "integer": (int,),
    "number": (int, float),
    "null": (type(None),),
}


def schema_errors(schema: JsonSchema, value: Any, path: str = "input") -> list[str]:
    """Where `value` breaks `schema` (type, enum, required, additionalProperties, items), as messages."""
    types = schema.get("type")
    allowed = [types] if isinstance(types, str) else list(types or [])
    if allowed and not any(_is(value, t) for t in allowed):
        return [f"{path}: expected {' or '.join(allowed)}, got {_kind(value)}"]
    if "enum" in schema and value not in schema["enum"]:
        choices = ", ".join(json_repr(c) for c in schema["enum"])
        return [f"{path}: {json_repr(value)} is not one of {choices}"]
    errors: list[str] = []
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        errors += [f"{path}.{name}: missing" for name in schema.get("required", []) if name not in value]
        if schema.get("additionalProperties") is False:
            errors += [f"{path}.{name}: not a field of this tool" for name in value if name not in properties]
        for name, sub in properties.items():
            if name in value:
                errors += schema_errors(sub, value[name], f"{path}.{name}")
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            errors += schema_errors(schema["items"], item, f"{path}[{i}]")
    return errors


def _is(value: Any, type_name: str) -> bool:
    if isinstance(value, bool) and type_name in ("integer", "number"):
        return False
    return isinstance(value, _TYPES[type_name])


def _kind(value: Any) -> str:
    return next((name for name in _TYPES if _is(value, name)), type(value).__name__)


def json_repr(value: Any) -> str:
    return (
        "null"
        if value is None
        else repr(value)
        if isinstance(value, str)
        else str(value).lower()
        if isinstance(value, bool)
        else str(value)
    )


def checked(stage: Stage, tool_input: Any) -> dict[str, Any]:
    """The input if it fits the stage's schema, else AnswerError listing every problem."""
    errors = schema_errors(SCHEMAS[stage], tool_input)
    if errors:
        raise AnswerError("the input does not match the tool's schema: " + "; ".join(errors))
    return tool_input


def read_plan(tool_input: dict[str, Any], target_feature: str) -> Plan:
    data = checked(Stage.PLAN, tool_input)
    subs = tuple(s["name"].strip() for s in data["sub_features"] if s["name"].strip())
    steps = tuple(
        f"{s['instruction'].strip()} -> {s['sub_goal'].strip()}"
        if s["sub_goal"].strip()
        else s["instruction"].strip()
        for s in data["steps"]
        if s["instruction"].strip()
    )
    return Plan(root=data["root_feature"].strip() or target_feature, sub_features=subs, steps=steps)


def read_decision(tool_input: dict[str, Any], screen: Screen) -> Decision:
    data = checked(Stage.NEXT_ACTION, tool_input)
    a = data["assessment"]
    rate = a["completion_rate"]
    if not 0 <= rate <= 100:
        raise AnswerError(f"assessment.completion_rate must be a percent from 0 to 100, got {rate}")
    assessment = Assessment(
        is_completed=a["is_completed"],
        completion_rate=rate / 100,
        reason=a["reason"],
        should_return=a["should_return"],
        next_action_type=a["next_action_type"],
    )
    reasoning = data["why"] if not data["observation"] else f"{data['why']} (seen: {data['observation']})"
    action = None if data["kind"] == DONE else _action(data, screen)
    return Decision(
        action, reasoning, expected=data["expected"], sub_feature=data["sub_feature"], assessment=assessment
    )


def read_step(
    tool_input: dict[str, Any], screen: Screen, max_follow_ups: int = DEFAULT_MAX_FOLLOW_UPS
) -> tuple[Decision, tuple[FollowUp, ...]]:
    """The decision and the first `max_follow_ups` of its queued follow-ups (none after `done`)."""
    decision = read_decision(tool_input, screen)
    if decision.finished:
        return decision, ()
    follow_ups = tuple(
        _follow_up(item, f"then[{i}]") for i, item in enumerate(tool_input["then"][:max_follow_ups])
    )
    return decision, follow_ups


def _follow_up(item: dict[str, Any], where: str) -> FollowUp:
    kind = ActionKind(item["kind"])
    label = (item["label"] or "").strip() or None
    if kind in NEEDS_MARK and label is None:
        raise AnswerError(f"{where}: {kind} needs the label of the element to act on")
    if kind is ActionKind.TYPE and not item["text"]:
        raise AnswerError(f"{where}: type needs the text to type in `text`")
    direction = Direction(item["direction"]) if item["direction"] else None
    if kind is ActionKind.SCROLL and direction is None:
        raise AnswerError(f"{where}: scroll needs a direction: " + ", ".join(d.value for d in Direction))
    takes_label = kind in NEEDS_MARK or kind is ActionKind.SCROLL
    return FollowUp(
        kind=kind,
        label=label if takes_label else None,
        text=item["text"] if kind is ActionKind.TYPE else None,
        direction=direction if kind is ActionKind.SCROLL else None,
        page=PageExpectation(item["when_page"]),
        visible=(item["when_visible"] or "").strip() or None,
        expected=item["expected"],
    )


def _action(data: dict[str, Any], screen: Screen) -> Action:
    kind = ActionKind(data["kind"])
    mark, text = data["mark"], data["text"]
    count = len(screen.marks)
    if kind in NEEDS_MARK or (kind is ActionKind.SCROLL and mark is not None):
        if mark is None:
            raise AnswerError(f"{kind} needs a mark number" + _valid_marks(count))
        if not 1 <= mark <= count:
            raise AnswerError(f"mark [{mark}] is not on this screen" + _valid_marks(count))
    else:
        mark = None  # back / enter / restart act on no element: a stray number is harmless
    if kind is ActionKind.TYPE and not text:
        raise AnswerError("type needs the text to type in `text`")
    direction = Direction(data["direction"]) if data["direction"] else None
    if kind is ActionKind.SCROLL and direction is None:
        raise AnswerError("scroll needs a direction: " + ", ".join(d.value for d in Direction))
    return Action(
        kind,
        mark,
        text if kind is ActionKind.TYPE else None,
        direction if kind is ActionKind.SCROLL else None,
    )


def _valid_marks(count: int) -> str:
    if count == 0:
        return "; this screen has no marks: use back, scroll, enter, restart or done"
    return f"; the marks on this screen are [1]..[{count}]"


def read_judgement(tool_input: dict[str, Any]) -> Judgement:
    data = checked(Stage.JUDGE, tool_input)
    findings = tuple(Finding(f["kind"] or "judge", f["message"], f["evidence"]) for f in data["findings"])
    verdict = data["verdict"]
    if verdict == "pass" and not data["feature_completed"]:
        raise AnswerError("verdict 'pass' needs feature_completed true; use 'continue' if it is not done")
    if verdict == "fail" and not any(f.evidence.strip() for f in findings):
        raise AnswerError("verdict 'fail' needs at least one finding with its evidence")
    return Judgement(complete=verdict == "pass", reason=data["reason"], findings=findings)


SUMMARY_HEADINGS = {"highlights": "**Highlights**", "issues": "**Issues**"}


def read_summary(tool_input: dict[str, Any]) -> str:
    """The summary as Markdown, with the highlights and issues as lists under their headings."""
    data = checked(Stage.SUMMARIZE, tool_input)
    parts = [data["summary"].strip()]
    for key, heading in SUMMARY_HEADINGS.items():
        items = [item.strip() for item in data[key] if item.strip()]
        if items:
            parts.append(f"{heading}\n" + "\n".join(f"- {item}" for item in items))
    return "\n\n".join(p for p in parts if p)
