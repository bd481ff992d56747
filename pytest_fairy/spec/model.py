"""The YAML feature spec: one file per app, one pytest item per feature. The format is docs/spec-format.md.

`load_spec(path)` reads and validates a file; every problem becomes one `SpecError` whose text is
`path:line: reason`, the line being that of the offending key, list item or feature. The pydantic
models are the schema; the loader keeps a map from each value's location (the `loc` pydantic reports)
to its line, so schema errors are translated into one-liners that point into the file.
"""

from __future__ import annotations

import difflib
import inspect
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, get_args

import yaml
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    StrictFloat,
    StrictInt,
    StringConstraints,
    ValidationError,
)
from pydantic_core import PydanticCustomError

from pytest_fairy.errors import UsageError
from pytest_fairy.spec.risk import CATEGORY_NAME, known_categories

DEFAULT_MAX_STEPS = 30
DEFAULT_TOKENS = 200_000
DEFAULT_COST_USD = 1.0
DEFAULT_WALL_SECONDS = 600.0
# Aliases can expand a small file exponentially ("billion laughs"); a real spec has a few hundred nodes.
MAX_YAML_NODES = 20_000
MAX_SHOWN_VALUE = 40
SUGGESTION_CUTOFF = 0.6

_PACKAGE = re.compile(r"[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+")


class SpecError(UsageError):
    """A spec file that cannot be used. `str()` is `path:line: reason`, one line, ready for the user."""

    def __init__(self, path: Path, line: int, reason: str) -> None:
        self.path, self.line, self.reason = path, line, reason
        super().__init__(f"{path}:{line}: {reason}")


def _fail(reason: str, hint: str = "") -> PydanticCustomError:
    # The reason names the problem; the translator adds where it is, then the hint.
    return PydanticCustomError("fairy", "{reason}", {"reason": reason, "hint": hint})


def _suggest(word: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=SUGGESTION_CUTOFF)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _one_line(text: str) -> str:
    if "\n" in text or "::" in text:
        raise _fail(f"{text!r} must be one line without '::'", " (it becomes part of the pytest item id)")
    return text


def _package(text: str) -> str:
    if not _PACKAGE.fullmatch(text):
        raise _fail(f"{text!r} is not an Android package name", " (like com.example.shop)")
    return text


def _tag(text: str) -> str:
    if not text.isidentifier():
        raise _fail(f"tag {text!r} is not a valid marker name", " (letters, digits and _ only)")
    return text


Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
Name = Annotated[Text, AfterValidator(_one_line)]
Package = Annotated[Text, AfterValidator(_package)]
Tag = Annotated[Text, AfterValidator(_tag)]
Category = Annotated[Text, StringConstraints(pattern=f"^{CATEGORY_NAME.pattern}$")]
Positive = Annotated[StrictInt, Field(gt=0)]
PositiveNumber = Annotated[StrictFloat, Field(gt=0)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class OracleKind(StrEnum):
    VISIBLE = "visible"
    NOT_VISIBLE = "not_visible"
    ACTIVITY = "activity"
    STATE = "state"
    CHECKED = "checked"
    TEXT_MATCHES = "text_matches"
    LOGCAT_MATCHES = "logcat_matches"
    CRASH = "crash"
    ANR = "anr"
    # Screens of the --fairy-baseline run that this run no longer reaches (checked once, at the end).
    LOSE_SCREENS = "lose_screens"


BARE_KINDS = frozenset({OracleKind.CRASH, OracleKind.ANR, OracleKind.LOSE_SCREENS})
REGEX_KINDS = frozenset({OracleKind.TEXT_MATCHES, OracleKind.LOGCAT_MATCHES})
DONE_KINDS = frozenset(OracleKind) - BARE_KINDS - {OracleKind.LOGCAT_MATCHES}
DEFECT_KINDS = frozenset(OracleKind)


class Oracle(_Model):
    """One condition on what the explorer sees: `visible: 购物车`, `activity: .CartActivity`, `crash`."""

    kind: OracleKind
    value: str = ""

    def __str__(self) -> str:
        return f"{self.kind.value}: {self.value}" if self.value else self.kind.value


def _oracle_parser(field: str, allowed: frozenset[OracleKind]) -> Callable[[Any], Any]:
    def parse(item: Any) -> Any:
        if isinstance(item, Oracle):
            kind, value = item.kind.value, item.value or None
        elif isinstance(item, str):
            kind, value = item, None
        elif isinstance(item, dict) and len(item) == 1:
            ((kind, value),) = item.items()
        elif isinstance(item, dict) and item:
            keys = ", ".join(repr(k) for k in item)
            raise _fail(f"one condition per {field} item, got {keys}", " (give each its own '- ' line)")
        else:
            raise _fail(f"a {field} item must be 'kind: value' or a bare kind, got {_shown(item)}")
        if kind not in DEFECT_KINDS:
            hint = _suggest(str(kind), sorted(k.value for k in allowed))
            raise _fail(f"unknown oracle kind {kind!r}", hint)
        kind = OracleKind(kind)
        if kind not in allowed:
            raise _fail(f"{kind.value!r} is not a condition for being done", " (it belongs in must_not)")
        if kind in BARE_KINDS:
            if value is not None:
                raise _fail(f"{kind.value!r} takes no value", f" (write '- {kind.value}')")
            return {"kind": kind}
        if not isinstance(value, str) or not value.strip():
            got = "nothing" if value is None else _shown(value)
            raise _fail(f"{kind.value!r} needs text, got {got}", f" (write '- {kind.value}: <text>')")
        if kind in REGEX_KINDS:
            try:
                re.compile(value)
            except re.error as exc:
                raise _fail(f"bad regular expression {value!r} for {kind.value}: {exc}") from exc
        return {"kind": kind, "value": value}

    return parse


DoneCondition = Annotated[Oracle, BeforeValidator(_oracle_parser("done_when", DONE_KINDS))]
DefectCondition = Annotated[Oracle, BeforeValidator(_oracle_parser("must_not", DEFECT_KINDS))]


class Budget(_Model):
    """Caps for one feature's exploration; a key left out is inherited (defaults, then built-in)."""

    tokens: Positive | None = None
    cost_usd: PositiveNumber | None = None
    wall_seconds: PositiveNumber | None = None

    def over(self, base: Budget) -> Budget:
        """This budget's keys, the missing ones taken from `base`."""
        return base.model_copy(update=self.model_dump(exclude_none=True))


BUILTIN_BUDGET = Budget(tokens=DEFAULT_TOKENS, cost_usd=DEFAULT_COST_USD, wall_seconds=DEFAULT_WALL_SECONDS)


class App(_Model):
    name: Text
    package: Package
    description: str = ""
    launch_activity: Text | None = None
    # Relative to the spec file in YAML; the loader makes it absolute and checks that it exists.
    virtual: Path | None = None


class Defaults(_Model):
    max_steps: Positive | None = None
    budget: Budget | None = None
    forbid: tuple[Category, ...] | None = None
    allow: tuple[Category, ...] | None = None


@dataclass(frozen=True, slots=True)
class FeatureSettings:
    """A feature's limits and risk permissions with defaults applied: what the explorer runs with."""

    max_steps: int
    budget: Budget
    allow: frozenset[str]
    forbid: frozenset[str]


class Feature(_Model):
    name: Name
    goal: Text
    start: str = ""
    sub_features: tuple[Text, ...] = ()
    max_steps: Positive | None = None
    budget: Budget | None = None
    done_when: tuple[DoneCondition, ...] = ()
    must_not: tuple[DefectCondition, ...] = ()
    allow: tuple[Category, ...] | None = None
    forbid: tuple[Category, ...] | None = None
    tags: tuple[Tag, ...] = ()

    _path: Path = PrivateAttr(default=Path("<spec>"))
    _line: int = PrivateAttr(default=0)
    _defaults: Defaults = PrivateAttr(default_factory=Defaults)

    @property
    def path(self) -> Path:
        """The spec file this feature comes from."""
        return self._path

    @property
    def line(self) -> int:
        """The 1-based line of the feature's first key in its spec file (0 when not loaded from a file)."""
        return self._line

    def effective(self) -> FeatureSettings:
        """Settings resolved feature -> spec `defaults` -> built-in defaults.

        A feature's own `allow` lifts an inherited `forbid` and its own `forbid` drops an inherited
        `allow`; the two never overlap in the result.
        """
        defaults = self._defaults
        budget = BUILTIN_BUDGET
        for layer in (defaults.budget, self.budget):
            budget = layer.over(budget) if layer is not None else budget
        own_allow, own_forbid = set(self.allow or ()), set(self.forbid or ())
        allow = own_allow | (set(defaults.allow or ()) - own_forbid)
        forbid = own_forbid | (set(defaults.forbid or ()) - own_allow)
        return FeatureSettings(
            max_steps=self.max_steps or defaults.max_steps or DEFAULT_MAX_STEPS,
            budget=budget,
            allow=frozenset(allow - forbid),
            forbid=frozenset(forbid),
        )


class Spec(_Model):
    app: App
    defaults: Defaults = Defaults()
    features: tuple[Feature, ...] = Field(min_length=1)
    risky_words: dict[Category, tuple[Text, ...]] = {}

    _path: Path = PrivateAttr(default=Path("<spec>"))

    @property
    def path(self) -> Path:
        return self._path

    def feature(self, name: str) -> Feature:
        for feature in self.features:
            if feature.name == name:
                return feature
        raise KeyError(f"no feature {name!r} in {self._path} (it has {[f.name for f in self.features]})")


# ---------------------------------------------------------------------------------------------- loading

Loc = tuple[str | int, ...]


_MERGE_TAG = "tag:yaml.org,2002:merge"
# Top-level keys with this prefix are ignored: a place for anchors that features merge (`<<: *base`).
EXTENSION_PREFIX = "x-"


class _LineLoader(yaml.SafeLoader):
    """Builds the document like SafeLoader, recording the 1-based line of every value by its location."""

    def build(self, path: Path) -> tuple[Any, dict[Loc, int]]:
        node = self.get_single_node()
        if node is None:
            raise SpecError(path, 1, "empty spec: expected a mapping with 'app' and 'features'")
        lines: dict[Loc, int] = {}
        budget = [MAX_YAML_NODES]
        self._own_keys: dict[int, set[int]] = {}
        return self._value(path, node, (), lines, budget, frozenset()), lines

    def _value(
        self,
        path: Path,
        node: yaml.Node,
        loc: Loc,
        lines: dict[Loc, int],
        budget: list[int],
        active: frozenset[int],
    ) -> Any:
        line = node.start_mark.line + 1
        lines.setdefault(loc, line)
        budget[0] -= 1
        if budget[0] < 0:
            reason = f"spec too large: more than {MAX_YAML_NODES} values (alias expansion?)"
            raise SpecError(path, line, reason)
        if id(node) in active:
            raise SpecError(path, line, "recursive alias: a value contains itself")
        inner = active | {id(node)}
        if isinstance(node, yaml.SequenceNode):
            items = enumerate(node.value)
            return [self._value(path, item, (*loc, i), lines, budget, inner) for i, item in items]
        if isinstance(node, yaml.MappingNode):
            if id(node) not in self._own_keys:  # an aliased mapping is met again, already flattened
                self._own_keys[id(node)] = {id(key) for key, _ in node.value if key.tag != _MERGE_TAG}
                self.flatten_mapping(node)  # merged (`<<: *base`) pairs first: the node's own keys override
            own_nodes = self._own_keys[id(node)]
            result: dict[str, Any] = {}
            own_keys: set[str] = set()
            for key_node, value_node in node.value:
                key = self._scalar(path, key_node)
                key_line = key_node.start_mark.line + 1
                if not isinstance(key, str):
                    raise SpecError(path, key_line, f"key {_shown(key)} must be text (a name)")
                if key in own_keys:
                    first = lines[(*loc, key)]
                    raise SpecError(path, key_line, f"duplicate key {key!r} (first on line {first})")
                if id(key_node) in own_nodes:
                    own_keys.add(key)
                lines[(*loc, key)] = key_line
                result[key] = self._value(path, value_node, (*loc, key), lines, budget, inner)
            return result
        return self._scalar(path, node)

    def _scalar(self, path: Path, node: yaml.Node) -> Any:
        if not isinstance(node, yaml.ScalarNode):
            line = node.start_mark.line + 1
            raise SpecError(path, line, "a key must be a plain name, not a list or mapping")
        try:
            return self.construct_object(node, deep=True)
        except (ValueError, TypeError, OverflowError) as exc:
            # SafeLoader's int/float/timestamp constructors raise these for values like 2024-13-45.
            raise SpecError(path, node.start_mark.line + 1, f"bad value {node.value!r}: {exc}") from exc


def _read(path: Path) -> tuple[Any, dict[Loc, int]]:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise SpecError(path, 1, f"cannot read the spec: {exc.strerror or exc}") from exc
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        reason = f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start})"
        raise SpecError(path, line, reason) from exc
    loader = _LineLoader(text)
    try:
        return loader.build(path)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        parts = [" ".join(str(part).split()) for part in (exc.context, exc.problem) if part]
        problem = ": ".join(parts) or "cannot parse"
        raise SpecError(path, line, f"YAML syntax error: {problem}") from exc
    except yaml.YAMLError as exc:
        raise SpecError(path, 1, f"YAML error: {' '.join(str(exc).split())}") from exc
    except RecursionError as exc:
        raise SpecError(path, 1, "YAML nested too deeply") from exc
    finally:
        loader.dispose()


def load_spec(path: Path | str) -> Spec:
    """Read and validate the spec at `path`. Raises SpecError (`path:line: reason`) for any problem."""
    path = Path(path)
    data, lines = _read(path)
    if not isinstance(data, dict):
        reason = f"the top level must be a mapping with 'app' and 'features', got {_shown(data)}"
        raise SpecError(path, lines[()], reason)
    data = {key: value for key, value in data.items() if not key.startswith(EXTENSION_PREFIX)}
    try:
        spec = Spec.model_validate(data)
    except ValidationError as exc:
        raise _translate(exc, path, data, lines) from None
    _check(spec, path, data, lines)
    if spec.app.virtual is not None:
        app = spec.app.model_copy(update={"virtual": (path.parent / spec.app.virtual).resolve()})
        spec = spec.model_copy(update={"app": app})
    spec._path = path
    for index, feature in enumerate(spec.features):
        feature._path, feature._line, feature._defaults = path, lines[("features", index)], spec.defaults
    return spec


def _check(spec: Spec, path: Path, data: dict[str, Any], lines: dict[Loc, int]) -> None:
    """What the schema alone cannot say: unique names, known categories, an existing app model."""
    seen: dict[str, int] = {}
    for index, feature in enumerate(spec.features):
        line = lines[("features", index)]
        if feature.name in seen:
            reason = f"duplicate feature name {feature.name!r} (first on line {seen[feature.name]})"
            raise SpecError(path, line, reason)
        seen[feature.name] = line
    known = known_categories(spec.risky_words)
    levels: list[tuple[Loc, Defaults | Feature]] = [(("defaults",), spec.defaults)]
    levels += [(("features", i), feature) for i, feature in enumerate(spec.features)]
    for loc, level in levels:
        for key in ("allow", "forbid"):
            for i, category in enumerate(getattr(level, key) or ()):
                if category not in known:
                    reason = f"unknown risky-action category {category!r} {_where(loc, data)}"
                    hint = _suggest(category, known) or f" (known: {', '.join(known)})"
                    raise SpecError(path, _line(lines, (*loc, key, i)), reason + hint)
        both = sorted(set(level.allow or ()) & set(level.forbid or ()))
        if both:
            reason = f"{both[0]!r} is both allowed and forbidden {_where(loc, data)}"
            raise SpecError(path, _line(lines, (*loc, "forbid")), reason)
    model = path.parent / spec.app.virtual if spec.app.virtual is not None else None
    if model is not None and not model.is_file():
        reason = f"app model {str(spec.app.virtual)!r} not found (looked for {model})"
        raise SpecError(path, _line(lines, ("app", "virtual")), reason)


# ------------------------------------------------------------------------------------ error translation

_EXPECTED = {
    "string_type": "text",
    "int_type": "an integer",
    "float_type": "a number",
    "bool_type": "true or false",
    "list_type": "a list",
    "tuple_type": "a list",
    "dict_type": "a mapping",
    "model_type": "a mapping",
    "model_attributes_type": "a mapping",
    "path_type": "a file path",
    "enum": "one of the known values",
}


def _translate(exc: ValidationError, path: Path, data: dict[str, Any], lines: dict[Loc, int]) -> SpecError:
    errors = exc.errors()
    # A list whose items all failed is also "too short"; the items' own errors say more.
    locs = [tuple(e["loc"]) for e in errors]
    errors = [
        e
        for e, loc in zip(errors, locs, strict=True)
        if not any(other[: len(loc)] == loc and len(other) > len(loc) for other in locs)
    ]
    problems = sorted(
        ((_line(lines, tuple(e["loc"]), missing=e["type"] == "missing"), n, e) for n, e in enumerate(errors)),
        # A missing key is often the other half of a misspelled one: report the misspelling first.
        key=lambda item: (item[2]["type"] == "missing", item[0], item[1]),
    )
    line, _, error = problems[0]
    reason = _reason(error, data)
    if len(problems) > 1:
        more = len(problems) - 1
        reason += f" (and {more} more problem{'s' if more > 1 else ''})"
    return SpecError(path, line, reason)


def _reason(error: Any, data: dict[str, Any]) -> str:
    loc: Loc = tuple(error["loc"])
    kind, value = error["type"], error.get("input")
    if loc and loc[-1] == "[key]":  # pydantic's marker for a bad mapping key (risky_words categories)
        loc = loc[:-1]
        return f"bad category name {loc[-1]!r} {_where(loc[:-1], data)}: use lower-case letters, digits and _"
    container, key = loc[:-1], loc[-1] if loc else "spec"
    where = _where(container, data)
    subject = f"item {key + 1}" if isinstance(key, int) else repr(key)
    if kind == "extra_forbidden":
        return f"unknown key {key!r} {where}{_suggest(str(key), _known_keys(container))}"
    if kind == "missing":
        return f"missing required key {key!r} {where}"
    if kind == "fairy":
        ctx = error["ctx"]
        return f"{ctx['reason']} {where}{ctx['hint']}"
    if kind in _EXPECTED:
        scalar = isinstance(value, int | float | bool)
        hint = " (put it in quotes)" if kind == "string_type" and scalar else ""
        return f"wrong type for {subject} {where}: expected {_EXPECTED[kind]}, got {_shown(value)}{hint}"
    if kind in ("greater_than", "string_too_short", "too_short", "string_pattern_mismatch"):
        wanted = {
            "greater_than": "must be greater than 0",
            "string_too_short": "must not be empty",
            "too_short": "must not be empty",
            "string_pattern_mismatch": "must be a lower-case name (letters, digits, _)",
        }[kind]
        return f"{subject} {where} {wanted}, got {_shown(value)}"
    return f"bad value for {subject} {where}: {error['msg'][0].lower()}{error['msg'][1:]}"


def _where(container: Loc, data: dict[str, Any]) -> str:
    """Where a key sits, in the user's words: `in feature 'x'`, `in budget of feature 'x'`, `at top level`."""
    if not container:
        return "at top level"
    if container[0] == "features" and len(container) >= 2 and isinstance(container[1], int):
        features = data.get("features")
        entry = features[container[1]] if isinstance(features, list) else None
        name = entry.get("name") if isinstance(entry, dict) else None
        owner = f"feature {name!r}" if isinstance(name, str) else f"feature {container[1] + 1}"
        inner = container[2:]
        return f"in {_dotted(inner)} of {owner}" if inner else f"in {owner}"
    return f"in {_dotted(container)}"


def _dotted(loc: Loc) -> str:
    text = ""
    for part in loc:
        text += f" item {part + 1}" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _known_keys(container: Loc) -> list[str]:
    model: Any = Spec
    for part in container:
        if isinstance(part, int):
            continue
        fields = getattr(model, "model_fields", {})
        if part not in fields:
            return []
        model = _model_in(fields[part].annotation)
    return list(getattr(model, "model_fields", {}))


def _model_in(annotation: Any) -> type[BaseModel] | None:
    if inspect.isclass(annotation) and issubclass(annotation, BaseModel):
        return annotation
    for arg in get_args(annotation):
        found = _model_in(arg)
        if found is not None:
            return found
    return None


def _line(lines: dict[Loc, int], loc: Loc, missing: bool = False) -> int:
    """The line of `loc`, or of the nearest enclosing value recorded (a missing key: its mapping)."""
    loc = loc[:-1] if missing else loc
    while loc not in lines and loc:
        loc = loc[:-1]
    return lines.get(loc, 1)


def _shown(value: Any) -> str:
    if value is None:
        return "nothing (an empty value)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        text = value if len(value) <= MAX_SHOWN_VALUE else value[:MAX_SHOWN_VALUE] + "..."
        return f"text {text!r}"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return f"{type(value).__name__} {value!s:.{MAX_SHOWN_VALUE}}"
