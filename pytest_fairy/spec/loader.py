"""Reading a spec file: YAML with the line of every value, validated into the schema (spec/model.py).

`load_spec(path)` reads and validates a file; its problems become one `SpecError` whose text is a
`path:line: reason` line per problem, the line being that of the offending key, list item or feature.
The loader keeps a map from each value's location (the `loc` pydantic reports) to its line, so schema
errors are translated into one-liners that point into the file; what the schema alone cannot say (unique
feature names, known risk categories, an existing app model) is checked after it. A YAML syntax error
stops the reading, so it is the one problem reported; it is worded by spec/yaml_errors.py.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any, get_args

import yaml
from pydantic import BaseModel, ValidationError

from pytest_fairy.spec.model import Defaults, Feature, Spec, SpecError
from pytest_fairy.spec.risk import known_categories
from pytest_fairy.spec.wording import shown, suggest
from pytest_fairy.spec.yaml_errors import yaml_problem

# Aliases can expand a small file exponentially ("billion laughs"); a real spec has a few hundred nodes.
MAX_YAML_NODES = 20_000

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
                    raise SpecError(path, key_line, f"key {shown(key)} must be text (a name)")
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
        raise SpecError(path, *yaml_problem(exc, text)) from exc
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
        reason = f"the top level must be a mapping with 'app' and 'features', got {shown(data)}"
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
    spec._path, spec._lines = path, lines
    for index, feature in enumerate(spec.features):
        feature._path, feature._line, feature._defaults = path, lines[("features", index)], spec.defaults
    return spec


def _check(spec: Spec, path: Path, data: dict[str, Any], lines: dict[Loc, int]) -> None:
    """What the schema alone cannot say: unique names, known categories, an existing app model."""
    problems: list[tuple[int, str]] = []
    seen: dict[str, int] = {}
    for index, feature in enumerate(spec.features):
        line = lines[("features", index)]
        if feature.name in seen:
            reason = f"duplicate feature name {feature.name!r} (first on line {seen[feature.name]})"
            problems.append((line, reason))
        seen.setdefault(feature.name, line)
    known = known_categories(spec.risky_words)
    levels: list[tuple[Loc, Defaults | Feature]] = [(("defaults",), spec.defaults)]
    levels += [(("features", i), feature) for i, feature in enumerate(spec.features)]
    for loc, level in levels:
        for key in ("allow", "forbid"):
            for i, category in enumerate(getattr(level, key) or ()):
                if category not in known:
                    reason = f"unknown risky-action category {category!r} {_where(loc, data)}"
                    hint = suggest(category, known) or f" (known: {', '.join(known)})"
                    problems.append((_line(lines, (*loc, key, i)), reason + hint))
        both = sorted(set(level.allow or ()) & set(level.forbid or ()))
        if both:
            reason = f"{both[0]!r} is both allowed and forbidden {_where(loc, data)}"
            problems.append((_line(lines, (*loc, "forbid")), reason))
    model = path.parent / spec.app.virtual if spec.app.virtual is not None else None
    if model is not None and not model.is_file():
        reason = f"app model {str(spec.app.virtual)!r} not found (looked for {model})"
        problems.append((_line(lines, ("app", "virtual")), reason))
    if problems:
        (line, reason), *more = problems
        raise SpecError(path, line, reason, more)


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
    (line, _, error), *others = problems
    more = [(at, _reason(other, data)) for at, _, other in others]
    return SpecError(path, line, _reason(error, data), more)


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
        return f"unknown key {key!r} {where}{suggest(str(key), _known_keys(container))}"
    if kind == "missing":
        return f"missing required key {key!r} {where}"
    if kind == "fairy":
        ctx = error["ctx"]
        if not container and isinstance(key, str) and key != "spec":
            where = f"in {key}"  # a section's own rule (login: steps or goal), not a key at the top level
        return f"{ctx['reason']} {where}{ctx['hint']}"
    if kind in _EXPECTED:
        scalar = isinstance(value, int | float | bool)
        hint = " (put it in quotes)" if kind == "string_type" and scalar else ""
        expected = _EXPECTED[kind]
        if kind == "enum" and (error.get("ctx") or {}).get("expected"):
            expected = str(error["ctx"]["expected"])  # pydantic lists the values: 'data' or 'none'
        return f"wrong type for {subject} {where}: expected {expected}, got {shown(value)}{hint}"
    if kind in ("greater_than", "string_too_short", "too_short", "string_pattern_mismatch"):
        wanted = {
            "greater_than": "must be greater than 0",
            "string_too_short": "must not be empty",
            "too_short": "must not be empty",
            "string_pattern_mismatch": "must be a lower-case name (letters, digits, _)",
        }[kind]
        return f"{subject} {where} {wanted}, got {shown(value)}"
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
