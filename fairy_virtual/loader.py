"""Load an app model from YAML; every problem is reported as `path:line: what is wrong`.

A `yaml.SafeLoader` subclass keeps the line of every mapping and of every key, so both pydantic's
schema errors and the cross-reference checks below (unknown screen in `go`, duplicate ids, undeclared
variables, `bounds` outside `device.size`) can point at the line of the offending entry. A file that is
not UTF-8 is one such line too, at its first bad byte.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, get_args, get_origin, get_type_hints

import yaml
from pydantic import BaseModel, ValidationError

from fairy_virtual.expr import ExpressionError, calculation_names, check_tokens, condition_names, misordered
from fairy_virtual.model import AppModel, Effect, Element
from pytest_fairy.errors import UsageError
from pytest_fairy.spec.wording import suggest
from pytest_fairy.spec.yaml_errors import yaml_problem

Loc = tuple[str | int, ...]
# An unknown key with no close match is shown the keys its mapping takes, when they are this few.
MAX_LISTED_KEYS = 8


class AppModelError(UsageError):
    """An app model that cannot be used. `problems` holds one `path:line: what` string per problem."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__("invalid app model:\n" + "\n".join(f"  {p}" for p in problems))
        self.problems = list(problems)


class LineDict(dict[Any, Any]):
    """A YAML mapping that remembers where it and each of its keys start (1-based lines)."""

    line: int = 0
    key_lines: dict[Any, int]


class LineList(list[Any]):
    line: int = 0
    item_lines: list[int]


MERGE_TAG = "tag:yaml.org,2002:merge"
# Top-level keys with this prefix are ignored: a place for anchors that views merge (`<<: *button`).
EXTENSION_PREFIX = "x-"


class _LineLoader(yaml.SafeLoader):
    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> LineDict:  # type: ignore[override]
        mapping = LineDict()
        mapping.line = node.start_mark.line + 1
        mapping.key_lines = {}
        own = {id(key) for key, _ in node.value if key.tag != MERGE_TAG}
        self.flatten_mapping(node)  # merged (`<<: *button`) pairs first: the mapping's own keys override
        merged: set[object] = set()
        for key_node, value_node in node.value:
            key = self.construct_object(key_node, deep=True)  # type: ignore[no-untyped-call]
            if id(key_node) not in own:
                merged.add(key)
            elif key in mapping and key not in merged:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key {key!r}", key_node.start_mark
                )
            mapping[key] = self.construct_object(value_node, deep=True)  # type: ignore[no-untyped-call]
            mapping.key_lines[key] = key_node.start_mark.line + 1
        return mapping

    def construct_sequence(self, node: yaml.SequenceNode, deep: bool = False) -> LineList:  # type: ignore[override]
        items = LineList(self.construct_object(child, deep=True) for child in node.value)  # type: ignore[no-untyped-call]
        items.line = node.start_mark.line + 1
        items.item_lines = [child.start_mark.line + 1 for child in node.value]
        return items


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _LineLoader.construct_mapping)
_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _LineLoader.construct_sequence)


def load_app_model(source: str | Path) -> AppModel:
    """Load and check an app model file (a directory means `<dir>/app.yaml`)."""
    path = Path(source)
    if path.is_dir():
        path = path / "app.yaml"
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise AppModelError([f"{path}: cannot read app model: {exc.strerror or exc}"]) from exc
    try:
        text = data.decode("utf-8")  # a byte order mark is fine: YAML skips it
    except UnicodeDecodeError as exc:
        raise AppModelError([f"{path}:{_not_utf8(data, exc.start)}; save the file as UTF-8"]) from None
    return parse_app_model(text, str(path))


def _not_utf8(data: bytes, at: int) -> str:
    """`LINE: not UTF-8 (byte 0x.. at column N)` for the first bad byte, `at`; the column counts the
    characters before it on its line, as an editor does."""
    start = data.rfind(b"\n", 0, at) + 1
    line = data.count(b"\n", 0, at) + 1
    column = len(data[start:at].decode("utf-8-sig")) + 1
    return f"{line}: not UTF-8 (byte 0x{data[at]:02x} at column {column})"


def parse_app_model(text: str, name: str = "<app model>") -> AppModel:
    try:
        raw = yaml.load(text, Loader=_LineLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.MarkedYAMLError as exc:
        line, reason = yaml_problem(exc, text)
        raise AppModelError([f"{name}:{line}: {reason}"]) from exc
    except yaml.YAMLError as exc:
        raise AppModelError([f"{name}:1: YAML error: {exc}"]) from exc
    if not isinstance(raw, dict):
        raise AppModelError([f"{name}:1: an app model is a mapping with `app:` and `screens:`"])
    for key in [k for k in raw if isinstance(k, str) and k.startswith(EXTENSION_PREFIX)]:
        del raw[key]
    try:
        model = AppModel.model_validate(raw)
    except ValidationError as exc:
        problems = [
            f"{name}:{line_of(raw, loc)}: {_where(shown)}{why}" for loc, shown, why in _schema(exc, raw)
        ]
        raise AppModelError(problems) from exc
    problems = [f"{name}:{line_of(raw, loc)}: {_where(loc)}{msg}" for loc, msg in check_references(model)]
    if problems:
        raise AppModelError(problems)
    return model


def _schema(exc: ValidationError, raw: Any) -> list[tuple[Loc, Loc, str]]:
    """Each schema error as (its location, the location as shown, what is wrong) in the user's words."""
    errors = [(tuple(e["loc"]), e) for e in exc.errors()]
    found: list[tuple[Loc, Loc, str]] = []
    for loc, error in errors:
        kind = error["type"]
        if kind not in ("missing", "extra_forbidden") and _lost_branch(loc, raw, [o for o, _ in errors]):
            continue
        shown = _in_file(loc, raw)
        if kind == "extra_forbidden":
            found.append((loc, shown[:-1], _unknown_key(loc[-1], _known_keys(loc[:-1]))))
        elif kind == "missing":
            found.append((loc, shown[:-1], f"missing required key {loc[-1]!r}"))
        elif kind == "string_type" and isinstance(error.get("input"), bool | int | float):
            found.append((loc, shown, _unquoted_scalar(error["input"])))
        else:
            found.append((loc, shown, error["msg"].removeprefix("Value error, ")))
    return found


def _unquoted_scalar(value: bool | float) -> str:
    """Text that YAML read as a boolean or a number: `No`, `on`, `1.0` left unquoted."""
    kind = "a boolean" if isinstance(value, bool) else "a number"
    return f"expected text, got {value!r}: YAML reads this unquoted word as {kind}; put it in quotes"


def _lost_branch(loc: Loc, raw: Any, locs: list[Loc]) -> bool:
    """An error of a union's other branch (`toast.str` beside `toast.Toast.durr`): the value is a
    mapping, so the error found inside the mapping's branch is the one that matters."""
    parent = _in_file(loc[:-1], raw)
    node = raw
    for step in parent:
        node = node[step] if _has(node, step) else None
    is_branch = isinstance(node, dict) and not _has(node, loc[-1])
    return is_branch and any(len(other) > len(loc) and other[: len(loc) - 1] == loc[:-1] for other in locs)


def _has(node: Any, step: str | int) -> bool:
    if isinstance(node, dict):
        return step in node
    return isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node)


def _in_file(loc: Loc, raw: Any) -> Loc:
    """`loc` without the names pydantic gives a union's branches (`Toast`, `str`): only what the file says.
    The last step stays (a missing or unknown key is not in the file, or is the problem)."""
    kept: list[str | int] = []
    node = raw
    for index, step in enumerate(loc):
        if _has(node, step):
            kept.append(step)
            node = node[step]
        elif index == len(loc) - 1:
            kept.append(step)
    return tuple(kept)


def _known_keys(loc: Loc) -> list[str]:
    """The keys the schema allows in the mapping at `loc` (union branches by their class names)."""
    annotation: Any = AppModel
    for step in loc:
        if isinstance(step, int):
            continue
        models = _models_in(annotation)
        named = [model for model in models if model.__name__ == step]
        fields = [
            get_type_hints(model)[n]
            for model in models
            for n, f in model.model_fields.items()
            if step in (n, f.alias)
        ]
        if named:
            annotation = named[0]
        elif fields:
            annotation = fields[0]
        elif get_origin(annotation) is dict:
            annotation = get_args(annotation)[1]  # a name of the mapping (a variable): its value's type
        else:
            return []
    return sorted({f.alias or n for model in _models_in(annotation) for n, f in model.model_fields.items()})


def _unknown_key(key: str | int, known: list[str]) -> str:
    hint = suggest(str(key), known) or (
        f" (known: {', '.join(known)})" if 0 < len(known) <= MAX_LISTED_KEYS else ""
    )
    return f"unknown key {key!r} is not permitted here{hint}"


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [model for arg in get_args(annotation) for model in _models_in(arg)]


def line_of(raw: Any, loc: Sequence[str | int]) -> int:
    """The line of the deepest entry of `loc` that exists in the raw YAML data."""
    line = getattr(raw, "line", 1)
    node = raw
    for step in loc:
        if isinstance(node, LineDict) and step in node:
            line = node.key_lines.get(step, line)
            node = node[step]
        elif isinstance(node, LineList) and isinstance(step, int) and 0 <= step < len(node):
            line = node.item_lines[step]
            node = node[step]
        else:
            break
        line = getattr(node, "line", line) if isinstance(node, LineDict) else line
    return line


def _where(loc: Sequence[str | int]) -> str:
    shown = ".".join(str(step) for step in loc if not (isinstance(step, str) and "[" in step))
    return f"{shown}: " if shown else ""


# ---- cross-reference checks ---------------------------------------------------------------------


def check_references(model: AppModel) -> list[tuple[Loc, str]]:
    """What pydantic cannot see: links between screens, dialogs and variables."""
    problems: list[tuple[Loc, str]] = []
    variables = model.initial_variables()
    screen_ids = _unique([s.id for s in model.screens], ("screens",), "screen", problems)
    dialog_ids = _unique([d.id for d in model.dialogs], ("dialogs",), "dialog", problems)
    if model.app.launch not in screen_ids:
        hint = suggest(model.app.launch, screen_ids)
        problems.append(
            (("app", "launch"), f"launch screen {model.app.launch!r} is not among the screens{hint}")
        )

    def check_text(loc: Loc, text: str) -> None:
        try:
            check_tokens(text, variables)
        except ExpressionError as exc:
            problems.append((loc, str(exc)))

    def check_condition(loc: Loc, text: str | None) -> None:
        if text is None or not check_names(loc, text, "condition", condition_names):
            return
        if found := misordered(text, variables):
            advice = "declare the variable a number (`amount: 0`) or compare with == / !="
            problems.append((loc, f"condition {text!r} orders a text with a number ({found}): {advice}"))

    def check_names(loc: Loc, text: str, what: str, names: Callable[[str], set[str]]) -> bool:
        """Whether `text` reads declared variables only, as a valid `what`; else the problem is noted."""
        try:
            unknown = names(text) - variables.keys()
        except ExpressionError as exc:
            problems.append((loc, str(exc)))
            return False
        if unknown:
            problems.append((loc, f"{what} {text!r} reads undeclared variable(s) {sorted(unknown)}"))
        return not unknown

    def check_var(loc: Loc, name: str | None, numeric: bool = False) -> None:
        if name is None:
            return
        if name not in variables:
            hint = suggest(name, variables)
            problems.append((loc, f"variable {name!r} is not declared under `variables:`{hint}"))
        elif numeric and (isinstance(variables[name], bool) or not isinstance(variables[name], int | float)):
            problems.append((loc, f"variable {name!r} is not a number"))

    for loc, effect in _effects(model):
        check_condition((*loc, "when"), effect.when)
        for key in ("go", "replace", "reset"):
            target = getattr(effect, key)
            if target is not None and target not in screen_ids:
                hint = suggest(target, screen_ids)
                problems.append(((*loc, key), f"`{key}` to unknown screen {target!r}{hint}"))
        if effect.dialog is not None and effect.dialog not in dialog_ids:
            hint = suggest(effect.dialog, dialog_ids)
            problems.append(((*loc, "dialog"), f"unknown dialog {effect.dialog!r}{hint}"))
        for name, value in (effect.set or {}).items():
            check_var((*loc, "set", name), name)
            if isinstance(value, str):
                check_text((*loc, "set", name), value)
        for name in effect.inc or {}:
            check_var((*loc, "inc", name), name, numeric=True)
        for name, text in (effect.calc or {}).items():
            check_var((*loc, "calc", name), name)
            if isinstance(variables.get(name), bool):
                problems.append(((*loc, "calc", name), f"variable {name!r} is a boolean: it holds no number"))
            check_names((*loc, "calc", name), text, "calculation", calculation_names)
        if effect.toast is not None:
            check_text((*loc, "toast"), effect.toast if isinstance(effect.toast, str) else effect.toast.text)
        if effect.permission is not None:
            check_var((*loc, "permission", "var"), effect.permission.var)

    width, height = model.device.size
    for loc, element in _elements(model):
        if element.bounds is not None and not _on_screen(element.bounds, width, height):
            where = f"the {width}x{height} screen (`device.size`)"
            problems.append(((*loc, "bounds"), f"bounds {list(element.bounds)} lie outside {where}"))
        check_condition((*loc, "when"), element.when)
        for key in ("text", "hint", "desc"):
            check_text((*loc, key), getattr(element, key))
        check_var((*loc, "var"), element.var)
        check_var((*loc, "group"), element.group)
    for i, screen in enumerate(model.screens):
        check_text(("screens", i, "title"), screen.title)
    for i, dialog in enumerate(model.dialogs):
        check_text(("dialogs", i, "title"), dialog.title)
        check_text(("dialogs", i, "message"), dialog.message)
    return problems


def _on_screen(bounds: tuple[int, int, int, int], width: int, height: int) -> bool:
    left, top, right, bottom = bounds
    return 0 <= left <= right <= width and 0 <= top <= bottom <= height


def _unique(ids: list[str], loc: Loc, what: str, problems: list[tuple[Loc, str]]) -> set[str]:
    seen: set[str] = set()
    for i, ident in enumerate(ids):
        if ident in seen:
            problems.append(((*loc, i, "id"), f"duplicate {what} id {ident!r}"))
        seen.add(ident)
    return seen


def _elements(model: AppModel) -> Iterator[tuple[Loc, Element]]:
    def walk(loc: Loc, elements: list[Element]) -> Iterator[tuple[Loc, Element]]:
        for i, element in enumerate(elements):
            here = (*loc, i)
            yield here, element
            yield from walk((*here, "children"), element.children)
            rows = element.row_list
            if rows is not None:
                if rows.row is not None:
                    yield from walk((*here, "list"), [rows.row])
                if isinstance(rows.rows, list):
                    yield from walk((*here, "list", "rows"), rows.rows)

    for i, screen in enumerate(model.screens):
        yield from walk(("screens", i, "elements"), screen.elements)
        yield from walk(("screens", i, "actions"), screen.actions)
    for i, dialog in enumerate(model.dialogs):
        yield from walk(("dialogs", i, "elements"), dialog.elements)


def _effects(model: AppModel) -> Iterator[tuple[Loc, Effect]]:
    def walk(loc: Loc, effects: list[Effect]) -> Iterator[tuple[Loc, Effect]]:
        for i, effect in enumerate(effects):
            yield (*loc, i), effect
            if effect.permission is not None:
                yield from walk((*loc, i, "permission", "on_allow"), effect.permission.on_allow)
                yield from walk((*loc, i, "permission", "on_deny"), effect.permission.on_deny)

    for loc, element in _elements(model):
        for key in ("on_tap", "on_long_tap", "on_enter"):
            yield from walk((*loc, key), getattr(element, key))
        if element.row_list is not None:
            yield from walk((*loc, "list", "on_tap"), element.row_list.on_tap)
            yield from walk((*loc, "list", "on_swipe"), element.row_list.on_swipe)
    for i, screen in enumerate(model.screens):
        yield from walk(("screens", i, "on_show"), screen.on_show)
        yield from walk(("screens", i, "on_back"), screen.on_back)
    for i, dialog in enumerate(model.dialogs):
        yield from walk(("dialogs", i, "on_back"), dialog.on_back)
