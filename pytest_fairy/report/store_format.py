"""What the session store writes of an item, key by key: its format, versioned.

The files are read by people, by scripts of a team's CI and by later runs (`--fairy-baseline` reads
result.json's findings), so their keys are written here one by one rather than dumped from whatever the
records hold: a field added to a record reaches the files only when it is added here, and a change that
readers would notice raises `VERSION`. target.json and result.json carry `schema` and `version`; the lines
of steps.jsonl have the keys of `STEP_KEYS`, in that order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pytest_fairy.errors import FairyError
from pytest_fairy.explore.decisions import Plan, Usage
from pytest_fairy.explore.oracles import Finding
from pytest_fairy.explore.record import Exploration, StepRecord
from pytest_fairy.explore.target import Target

SCHEMA = "pytest_fairy.item"
VERSION = 1

STEP_KEYS = (
    "step",
    "state",
    "title",
    "screen_text",
    "action",
    "reasoning",
    "expected",
    "reached",
    "reached_title",
    "outcome",
    "guard",
    "guard_reason",
    "denial",
    "escape",
    "usage",
    "replayed",
    "origin",
    "device_note",
    "screenshot",
)


class FormatError(FairyError):
    """A stored document this version does not read."""


def step_line(record: StepRecord, screenshot: str) -> dict[str, Any]:
    """One line of steps.jsonl; `screenshot` is the name of the step's picture ("" without one)."""
    return {
        "step": record.step,
        "state": record.state,
        "title": record.title,
        "screen_text": record.screen_text,
        "action": record.action,
        "reasoning": record.reasoning,
        "expected": record.expected,
        "reached": record.reached,
        "reached_title": record.reached_title,
        "outcome": record.outcome,
        "guard": record.guard.value,
        "guard_reason": record.guard_reason,
        "denial": record.denial,
        "escape": record.escape,
        "usage": usage_document(record.usage),
        "replayed": record.replayed,
        "origin": record.origin.value,
        "device_note": record.device_note,
        "screenshot": screenshot,
    }


def target_document(target: Target, plan: Plan) -> dict[str, Any]:
    """target.json: what the item set out to do, and the brain's plan."""
    return {
        "schema": SCHEMA,
        "version": VERSION,
        "target": {
            "app_name": target.app_name,
            "package": target.package,
            "feature": target.feature,
            "goal": target.goal,
            "description": target.description,
            "start": target.start,
            "launch_activity": target.launch_activity,
            "sub_features": list(target.sub_features),
            "done_hints": list(target.done_hints),
            "allowed_risks": sorted(target.allowed_risks),
            "max_steps": target.max_steps,
            "wall_seconds": target.wall_seconds,
            "token_budget": target.token_budget,
            "cost_budget": target.cost_budget,
            "reset": target.reset,
            "secrets": list(target.secrets),  # names only: values never leave the device seam
            "inputs": [list(pair) for pair in target.inputs],
        },
        "plan": {"root": plan.root, "sub_features": list(plan.sub_features), "steps": list(plan.steps)},
    }


def result_document(result: Exploration) -> dict[str, Any]:
    """result.json: the verdict, its reason, the figures and the summary."""
    return {
        "schema": SCHEMA,
        "version": VERSION,
        "verdict": result.verdict.value,
        "reason": result.reason,
        "steps": result.steps,
        "states": len(result.tree.states),
        "transitions": len(result.tree.transitions),
        "escapes": result.escapes,
        "seconds": round(result.seconds, 3),
        "usage": usage_document(result.usage),
        "findings": [{"kind": f.kind, "message": f.message, "evidence": f.evidence} for f in result.findings],
        "summary": result.summary,
    }


def usage_document(usage: Usage) -> dict[str, Any]:
    return {
        "calls": usage.calls,
        "input_tokens": usage.input_tokens,
        "cache_write_tokens": usage.cache_write_tokens,
        "cache_read_tokens": usage.cache_read_tokens,
        "output_tokens": usage.output_tokens,
        "cost_usd": usage.cost_usd,
        "note": usage.note,
    }


def findings_of(document: Mapping[str, Any]) -> list[Finding]:
    """The findings of a result.json document; FormatError for a document of another schema or version.
    A document without `schema` is version 0, the unversioned format, whose findings have these keys."""
    unversioned = "schema" not in document and "version" not in document
    if not unversioned and (document.get("schema") != SCHEMA or document.get("version") != VERSION):
        found = f"{document.get('schema')!r} version {document.get('version')!r}"
        raise FormatError(f"{found} is not a result this pytest_fairy reads ({SCHEMA!r} version {VERSION})")
    try:
        return [
            Finding(str(f["kind"]), str(f["message"]), str(f.get("evidence", "")))
            for f in document["findings"]
        ]
    except (KeyError, TypeError) as exc:
        raise FormatError(f"findings unreadable: {exc!r}") from exc
