"""uiautomator `UiSelector`s (as u2 sends them: a dict with `mask`, fields, child/sibling chains)
resolved over a hierarchy dump, and the `objInfo` dict u2 reads back.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from pytest_fairy.errors import FairyError
from pytest_fairy.perception.hierarchy import Bounds, Node, parse_hierarchy


class SelectorError(FairyError):
    """The selector names a field uiautomator does not have, or a value of the wrong type."""


def _regex(pattern: str) -> Callable[[str], bool]:
    compiled = re.compile(pattern, re.DOTALL)
    return lambda value: compiled.fullmatch(value) is not None


# field -> (node attribute, how the selector value tests the attribute value)
_STRING_TESTS: dict[str, tuple[str, Callable[[str], Callable[[str], bool]]]] = {
    "text": ("text", lambda v: lambda a: a == v),
    "textContains": ("text", lambda v: lambda a: v in a),
    "textMatches": ("text", _regex),
    "textStartsWith": ("text", lambda v: lambda a: a.startswith(v)),
    "className": ("class_name", lambda v: lambda a: a == v),
    "classNameMatches": ("class_name", _regex),
    "description": ("content_desc", lambda v: lambda a: a == v),
    "descriptionContains": ("content_desc", lambda v: lambda a: v in a),
    "descriptionMatches": ("content_desc", _regex),
    "descriptionStartsWith": ("content_desc", lambda v: lambda a: a.startswith(v)),
    "packageName": ("package", lambda v: lambda a: a == v),
    "packageNameMatches": ("package", _regex),
    "resourceId": ("resource_id", lambda v: lambda a: a == v),
    "resourceIdMatches": ("resource_id", _regex),
}
_BOOL_FIELDS = {
    "checkable": "checkable",
    "checked": "checked",
    "clickable": "clickable",
    "longClickable": "long_clickable",
    "scrollable": "scrollable",
    "enabled": "enabled",
    "focusable": "focusable",
    "focused": "focused",
    "selected": "selected",
}
_STRUCTURE_KEYS = ("mask", "childOrSibling", "childOrSiblingSelector")


def _attribute_test(attribute: str, test: Callable[[Any], bool]) -> Callable[[Node], bool]:
    return lambda node: test(getattr(node, attribute))


def _predicate(selector: dict[str, Any]) -> Callable[[Node], bool]:
    tests: list[Callable[[Node], bool]] = []
    for key, value in selector.items():
        if key in _STRUCTURE_KEYS or key == "instance":
            continue
        if key in _STRING_TESTS:
            if not isinstance(value, str):
                raise SelectorError(f"selector field {key} wants a string, got {value!r}")
            attribute, make = _STRING_TESTS[key]
            try:
                test = make(value)
            except re.error as exc:
                raise SelectorError(f"selector field {key}: bad pattern {value!r}: {exc}") from exc
            tests.append(_attribute_test(attribute, test))
        elif key in _BOOL_FIELDS:
            tests.append(_attribute_test(_BOOL_FIELDS[key], bool(value).__eq__))
        elif key == "index":
            tests.append(_attribute_test("index", value.__eq__))
        else:
            raise SelectorError(f"unknown selector field {key!r}")
    return lambda node: all(test(node) for test in tests)


def _narrow(candidates: list[Node], selector: dict[str, Any]) -> list[Node]:
    matches = [n for n in candidates if _predicate(selector)(n)]
    instance = selector.get("instance")
    if isinstance(instance, int) and "instance" in selector:
        return matches[instance : instance + 1]
    return matches


def _relatives(node: Node, relation: str) -> Iterator[Node]:
    if relation == "child":
        yield from (n for n in node.iter() if n is not node)
    elif relation == "sibling":
        siblings = node.parent.children if node.parent is not None else []
        yield from (n for n in siblings if n is not node)
    else:
        raise SelectorError(f"unknown selector relation {relation!r}")


def find(xml: str, selector: dict[str, Any]) -> list[Node]:
    """Every node `selector` matches in the dump `xml`, in document order."""
    if not isinstance(selector, dict):
        raise SelectorError(f"a selector is an object, got {selector!r}")
    everything = [node for window in parse_hierarchy(xml) for node in window.iter()]
    found = _narrow(everything, selector)
    relations = selector.get("childOrSibling") or []
    subselectors = selector.get("childOrSiblingSelector") or []
    for relation, sub in zip(relations, subselectors, strict=False):
        relatives: list[Node] = []
        seen: set[int] = set()
        for node in found:
            for relative in _relatives(node, relation):
                if id(relative) not in seen:
                    seen.add(id(relative))
                    relatives.append(relative)
        found = _narrow(relatives, sub)
    return found


def describe(selector: dict[str, Any]) -> str:
    """The selector as uiautomator prints it in UiObjectNotFoundException: UiSelector[TEXT=X]."""
    fields = ", ".join(
        f"{re.sub(r'(?<!^)(?=[A-Z])', '_', k).upper()}={v}"
        for k, v in selector.items()
        if k not in _STRUCTURE_KEYS
    )
    return f"UiSelector[{fields}]"


def _bounds(bounds: Bounds) -> dict[str, int]:
    return {"bottom": bounds.bottom, "left": bounds.left, "right": bounds.right, "top": bounds.top}


def object_info(node: Node) -> dict[str, Any]:
    """What `objInfo` answers for a node (uiautomator's ObjInfo)."""
    return {
        "bounds": _bounds(node.bounds),
        "checkable": node.checkable,
        "checked": node.checked,
        "childCount": len(node.children),
        "className": node.class_name,
        "clickable": node.clickable,
        "contentDescription": node.content_desc,
        "enabled": node.enabled,
        "focusable": node.focusable,
        "focused": node.focused,
        "longClickable": node.long_clickable,
        "packageName": node.package,
        "resourceName": node.resource_id,
        "scrollable": node.scrollable,
        "selected": node.selected,
        "text": node.text,
        "visibleBounds": _bounds(node.bounds),
    }
