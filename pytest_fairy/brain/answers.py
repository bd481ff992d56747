"""Reading the model's tool answers: each checked twice, then turned into the loop's values.

First against its stage's schema (`schema_errors`, a validator of the small JSON-Schema subset the
schemas in brain/tools.py use), then for sense on the screen it was given (`read_*`: a mark that exists,
text for `type`, a percent from 0 to 100, ...). Either kind of problem is an `AnswerError` whose message
is written for the model: the brain sends it back as the one corrective retry.
"""

from __future__ import annotations

from typing import Any

from pytest_fairy.brain.tools import (
    DEFAULT_MAX_FOLLOW_UPS,
    DONE,
    SCHEMAS,
    FollowUp,
    JsonSchema,
    PageExpectation,
    Stage,
)
from pytest_fairy.errors import BrainError
from pytest_fairy.explore.action import NEEDS_MARK, Action, ActionKind, Direction
from pytest_fairy.explore.decisions import Assessment, Decision, Judgement, Plan
from pytest_fairy.explore.oracles import Finding
from pytest_fairy.perception.screen import Screen


class AnswerError(BrainError):
    """An answer that cannot be used as it is; the message tells the model what to fix."""


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
    return Judgement(
        complete=verdict == "pass",
        reason=data["reason"],
        findings=findings,
        phase_complete=bool(data["phase_completed"]) or verdict == "pass",
    )


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
