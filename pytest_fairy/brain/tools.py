"""The four stages as tools with strict JSON schemas: what the model is asked to fill in.

Every call sends the same `TOOLS` array (so the prefix caches) and forces one of them with
`tool_choice`. Reading and checking an answer against these schemas is brain/answers.py.

The schemas avoid numeric and length keywords (strict tool schemas do not support them); ranges are
stated in the descriptions and checked when an answer is read.

`next_action` may carry `then`: a short queue of follow-up actions the model expects to take next, each
with what the screen must show by then (`FollowUp`). The brain takes them without another call while
the screen matches (see `follow_ups.FollowUpQueue`); they name their element by its label, never by a
mark number or a coordinate, because numbers are only valid on the screen they were read from.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from pytest_fairy.explore.action import ActionKind, Direction

JsonSchema = dict[str, Any]


class Stage(StrEnum):
    PLAN = "plan"
    NEXT_ACTION = "next_action"
    JUDGE = "judge"
    SUMMARIZE = "summarize"


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
# What a `type` action does with the field: the run clears it first (explore/action.py).
TYPED_TEXT = "The text to type (type only): the field then holds it, whatever it held before; else null."
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
        "text": {"type": ["string", "null"], "description": TYPED_TEXT},
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
            "text": {"type": ["string", "null"], "description": TYPED_TEXT},
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
