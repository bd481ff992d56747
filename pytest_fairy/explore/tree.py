"""The feature tree: what the explorer has found so far, for the planner, the loop guard and the report.

It holds the states seen (with visit counts and the steps spent in each), the transitions between them
(one per step, self-loops included), the path walked, and the feature / sub-feature structure with the
status of each. `summary_text` is the bounded view the planner gets on every step (visit counts
and the recent state sequence among it); `to_json` / `from_json` is the report format.

JSON schema (`schema` = "pytest_fairy.feature_tree", `version` = 1):
  states:      [{key, name, title, activity, is_dialog, visits, steps: [int], first_seen, reachable: [key],
                 contents: [content_hash]}]
  transitions: [{from, action, action_key, to, step, self_loop}]
  path:        [{step, key}]
  features:    [{name, status, sub_features: [feature...], states: [key], notes: [str]}]
  current_feature: name or null
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from pytest_fairy.errors import FairyError
from pytest_fairy.explore.state import StateId
from pytest_fairy.text import one_line

SCHEMA = "pytest_fairy.feature_tree"
SCHEMA_VERSION = 1


class TreeError(FairyError):
    """A feature tree operation or document that does not make sense (unknown feature, bad JSON)."""


class FeatureStatus(StrEnum):
    PENDING = "pending"
    EXPLORING = "exploring"
    DONE = "done"
    ABANDONED = "abandoned"


@dataclass
class StateInfo:
    key: str
    name: str
    title: str
    activity: str
    is_dialog: bool
    first_seen: int
    visits: int = 0
    steps: list[int] = field(default_factory=list)
    reachable: list[str] = field(default_factory=list)
    contents: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Transition:
    from_key: str
    action: str
    action_key: str
    to_key: str
    step: int
    self_loop: bool


@dataclass(frozen=True, slots=True)
class PathEntry:
    step: int
    key: str


@dataclass
class Feature:
    name: str
    status: FeatureStatus = FeatureStatus.PENDING
    sub_features: list[Feature] = field(default_factory=list)
    states: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def walk(self, depth: int = 0) -> list[tuple[int, Feature]]:
        found = [(depth, self)]
        for sub in self.sub_features:
            found.extend(sub.walk(depth + 1))
        return found


@dataclass(frozen=True, slots=True)
class RecordResult:
    new_state: bool
    new_transition: bool
    content_changed: bool
    # Content never seen before in this state (a field filled, a list page scrolled into view).
    new_content: bool = False


@dataclass(frozen=True, slots=True)
class SummaryLimits:
    """Bounds of `summary_text`, so the planner's prompt stays the same size however long the run."""

    max_states: int = 12
    max_path: int = 10  # 0: no recent path (a reader that shows the path itself)
    max_features: int = 12
    max_title_chars: int = 24
    max_chars: int = 2400


class FeatureTree:
    def __init__(self) -> None:
        self.states: dict[str, StateInfo] = {}
        self.transitions: list[Transition] = []
        self.features: list[Feature] = []
        self.current_feature: str | None = None
        self._path: list[PathEntry] = []
        self._edges: set[tuple[str, str, str]] = set()

    @property
    def steps(self) -> int:
        """Actions whose outcome the tree holds: each is a transition (the first screen is none). The one
        count the summary, the tree picture, the store and Allure give."""
        return len(self.transitions)

    # -- recording -------------------------------------------------------------------------------------

    def record(
        self,
        step: int,
        before: StateId | None,
        action: str | None,
        after: StateId,
        title: str,
        is_dialog: bool,
        action_key: str | None = None,
    ) -> RecordResult:
        """One observation: `action` (taken in `before`) led to `after`. `before` None starts a path."""
        info = self.states.get(after.key)
        new_state = info is None
        if info is None:
            info = StateInfo(after.key, after.name, title, after.activity, is_dialog, first_seen=step)
            self.states[after.key] = info
        elif title and not info.title:
            info.title = title
        info.visits += 1
        info.steps.append(step)
        new_content = after.content_hash not in info.contents
        if new_content:
            info.contents.append(after.content_hash)
        self._path.append(PathEntry(step, after.key))

        new_transition = content_changed = False
        if before is not None:
            key = action_key if action_key is not None else (action or "")
            self_loop = before.key == after.key
            edge = (before.key, key, after.key)
            new_transition = edge not in self._edges
            self._edges.add(edge)
            self.transitions.append(Transition(before.key, action or "", key, after.key, step, self_loop))
            content_changed = self_loop and before.content_hash != after.content_hash
            origin = self.states.get(before.key)
            if origin is not None and not self_loop and after.key not in origin.reachable:
                origin.reachable.append(after.key)
        if self.current_feature is not None:
            feature = self.feature(self.current_feature)
            if after.key not in feature.states:
                feature.states.append(after.key)
        return RecordResult(new_state, new_transition, content_changed, new_content and not new_state)

    # -- features --------------------------------------------------------------------------------------

    def add_feature(self, name: str, parent: str | None = None) -> Feature:
        if self._find(name) is not None:
            raise TreeError(f"feature {name!r} is already in the tree")
        feature = Feature(name)
        (self.feature(parent).sub_features if parent is not None else self.features).append(feature)
        return feature

    def feature(self, name: str) -> Feature:
        found = self._find(name)
        if found is None:
            known = ", ".join(f.name for _, f in self._all_features()) or "none"
            raise TreeError(f"no feature {name!r} in the tree (known: {known})")
        return found

    def focus(self, name: str) -> Feature:
        """Make `name` the feature being explored: states recorded from now on belong to it."""
        feature = self.feature(name)
        if feature.status is FeatureStatus.PENDING:
            feature.status = FeatureStatus.EXPLORING
        self.current_feature = name
        return feature

    def set_status(self, name: str, status: FeatureStatus, note: str | None = None) -> None:
        feature = self.feature(name)
        feature.status = FeatureStatus(status)
        if note:
            feature.notes.append(note)

    def _all_features(self) -> list[tuple[int, Feature]]:
        return [pair for root in self.features for pair in root.walk()]

    def _find(self, name: str) -> Feature | None:
        return next((f for _, f in self._all_features() if f.name == name), None)

    # -- views -----------------------------------------------------------------------------------------

    @property
    def path(self) -> list[str]:
        """State keys in the order they were observed, one per recorded step."""
        return [entry.key for entry in self._path]

    @property
    def path_entries(self) -> list[PathEntry]:
        return list(self._path)

    @property
    def visit_counts(self) -> dict[str, int]:
        return {key: info.visits for key, info in self.states.items()}

    @property
    def current(self) -> StateInfo | None:
        return self.states[self._path[-1].key] if self._path else None

    def recent(self, k: int) -> list[PathEntry]:
        return self._path[-k:] if k > 0 else []

    def edges(self) -> Counter[tuple[str, str]]:
        """How often each (from, to) pair was walked, self-loops included."""
        return Counter((t.from_key, t.to_key) for t in self.transitions)

    def summary_text(self, max_states: int | None = None, limits: SummaryLimits | None = None) -> str:
        """Compact text for the planner: current state, states with visit counts, recent path, features."""
        lim = limits or SummaryLimits()
        if max_states is not None:
            lim = replace(lim, max_states=max_states)
        current = self.current
        if current is None:
            return "Nothing explored yet."
        lines = [
            f"{len(self.states)} states, {len(self.transitions)} transitions, {self.steps} steps.",
            f"Current: {self._label(current, lim)}, visits {current.visits}, "
            f"{_stay(self._path)} step(s) in a row here.",
        ]
        shown = self._relevant_states(lim.max_states)
        lines.append(f"States ({len(shown)} of {len(self.states)}, most relevant):")
        for info in shown:
            marker = "*" if info is current else "-"
            lines.append(
                f" {marker} {self._label(info, lim)}: visits {info.visits}, leads to {len(info.reachable)}"
            )
        recent = [self.states[e.key].name for e in self.recent(lim.max_path)]
        if recent:
            lines.append("Recent path: " + " -> ".join(recent))
        features = self._all_features()
        if features:
            lines.append("Features:")
            for depth, feature in features[: lim.max_features]:
                here = " <- current" if feature.name == self.current_feature else ""
                lines.append(
                    f"{'  ' * (depth + 1)}{one_line(feature.name, lim.max_title_chars * 2)} "
                    f"[{feature.status.value}] ({len(feature.states)} states){here}"
                )
            if len(features) > lim.max_features:
                lines.append(f"  ... {len(features) - lim.max_features} more")
        text = "\n".join(lines)
        return text if len(text) <= lim.max_chars else text[: lim.max_chars - 4] + "\n..."

    def _label(self, info: StateInfo, lim: SummaryLimits) -> str:
        title = f' "{one_line(info.title, lim.max_title_chars)}"' if info.title else ""
        return f"{info.name}{title}{' [dialog]' if info.is_dialog else ''}"

    def _relevant_states(self, limit: int) -> list[StateInfo]:
        # Current first, then the recently seen (where the planner is), then the most visited (where it
        # has spent its steps); each at most once.
        chosen: dict[str, StateInfo] = {}
        for entry in reversed(self._path):
            if len(chosen) >= max(1, (limit + 1) // 2):
                break
            chosen.setdefault(entry.key, self.states[entry.key])
        for info in sorted(self.states.values(), key=lambda s: (-s.visits, s.first_seen)):
            if len(chosen) >= limit:
                break
            chosen.setdefault(info.key, info)
        return list(chosen.values())

    # -- JSON ------------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "version": SCHEMA_VERSION,
            "states": [
                vars(info)
                | {
                    "steps": list(info.steps),
                    "reachable": list(info.reachable),
                    "contents": list(info.contents),
                }
                for info in self.states.values()
            ],
            "transitions": [
                {
                    "from": t.from_key,
                    "action": t.action,
                    "action_key": t.action_key,
                    "to": t.to_key,
                    "step": t.step,
                    "self_loop": t.self_loop,
                }
                for t in self.transitions
            ],
            "path": [{"step": e.step, "key": e.key} for e in self._path],
            "features": [_feature_to_dict(f) for f in self.features],
            "current_feature": self.current_feature,
        }

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)

    @classmethod
    def from_json(cls, text: str) -> FeatureTree:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise TreeError(f"feature tree JSON is not valid JSON: {exc}") from exc
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Any) -> FeatureTree:
        if not isinstance(data, dict) or data.get("schema") != SCHEMA:
            raise TreeError(f"not a feature tree document (expected schema {SCHEMA!r})")
        if data.get("version") != SCHEMA_VERSION:
            raise TreeError(
                f"feature tree version {data.get('version')!r} is not supported "
                f"(this pytest_fairy reads version {SCHEMA_VERSION})"
            )
        tree = cls()
        try:
            for raw in data["states"]:
                info = StateInfo(**raw)
                tree.states[info.key] = info
            for raw in data["transitions"]:
                t = Transition(
                    raw["from"], raw["action"], raw["action_key"], raw["to"], raw["step"], raw["self_loop"]
                )
                tree.transitions.append(t)
                tree._edges.add((t.from_key, t.action_key, t.to_key))
            tree._path = [PathEntry(raw["step"], raw["key"]) for raw in data["path"]]
            tree.features = [_feature_from_dict(raw) for raw in data["features"]]
            tree.current_feature = data.get("current_feature")
        except (KeyError, TypeError, ValueError) as exc:
            raise TreeError(f"feature tree document is malformed: {exc!r}") from exc
        unknown = {e.key for e in tree._path} - tree.states.keys()
        if unknown:
            raise TreeError(f"feature tree path names states that are not in it: {sorted(unknown)[:3]}")
        return tree


def _feature_to_dict(feature: Feature) -> dict[str, Any]:
    return {
        "name": feature.name,
        "status": feature.status.value,
        "sub_features": [_feature_to_dict(s) for s in feature.sub_features],
        "states": list(feature.states),
        "notes": list(feature.notes),
    }


def _feature_from_dict(raw: dict[str, Any]) -> Feature:
    return Feature(
        raw["name"],
        FeatureStatus(raw["status"]),
        [_feature_from_dict(s) for s in raw["sub_features"]],
        list(raw["states"]),
        list(raw["notes"]),
    )


def _stay(path: list[PathEntry]) -> int:
    count = 0
    for entry in reversed(path):
        if entry.key != path[-1].key:
            break
        count += 1
    return count
