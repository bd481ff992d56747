"""Seeded bugs: where a building block can break (`BugSite`) and the edits that break an app model.

A bug site is declared by the block that owns the element, while the clean app is built; it names the
element by its resource id. Breaking a twin is a deep copy of the clean model with one site's edit
applied, so a bug twin differs from the clean twin only in that edit (and in what the edit adds: an error
page, a visit counter). No edit draws a random number.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from .truth import Bug

Model = dict[str, Any]
Edit = Callable[[Model], None]

CRASH_EXCEPTIONS = (
    (
        "java.lang.NullPointerException",
        "Attempt to invoke virtual method 'java.lang.String {cls}.getId()' on a null object reference",
    ),
    ("java.lang.IllegalStateException", "{cls} is not attached to an activity"),
    ("java.lang.IndexOutOfBoundsException", "Index: 2, Size: 2"),
    ("java.lang.ClassCastException", "java.lang.Integer cannot be cast to java.lang.String"),
)


@dataclass
class BugSite:
    """A bug a block can carry: its kind, the feature it breaks, the label of the element whose action
    shows it, that action's index in the feature's path (counted from the block's first step), and the
    edit that puts it into a model."""

    kind: str
    feature: str
    bug_at: str
    step: int
    detail: str
    edit: Edit
    shows: str = ""
    also_at: tuple[str, ...] = ()

    def bug(self, module: str, offset: int) -> Bug:
        return Bug(
            self.kind,
            self.feature,
            self.bug_at,
            self.step + offset,
            module,
            self.detail,
            self.shows,
            self.also_at,
        )


def broken(model: Model, site: BugSite) -> Model:
    """A copy of `model` with the bug of `site`."""
    twin = copy.deepcopy(model)
    site.edit(twin)
    return twin


def _elements(elements: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for element in elements:
        yield element
        yield from _elements(element.get("children", []))
        rows = element.get("list", {})
        if isinstance(rows.get("rows"), list):
            yield from _elements(rows["rows"])
        if "row" in rows:
            yield from _elements([rows["row"]])


def element(model: Model, element_id: str) -> dict[str, Any]:
    """The element of `model` with resource id `element_id` (screens and dialogs)."""
    for holder in [*model["screens"], *model.get("dialogs", [])]:
        for found in _elements(holder.get("elements", [])):
            if found.get("id") == element_id:
                return found
    raise KeyError(element_id)


def screen(model: Model, screen_id: str) -> dict[str, Any]:
    for found in model["screens"]:
        if found["id"] == screen_id:
            return found
    raise KeyError(screen_id)


def crash_effect(model: Model, element_id: str, when: str | None = None) -> dict[str, Any]:
    """A crash effect whose exception and frames look like the app's own code at `element_id`."""
    package = model["app"]["package"]
    owner = (
        next(s for s in model["screens"] if _holds(s, element_id)) if _in_screens(model, element_id) else None
    )
    activity = (owner["activity"] if owner else ".ui.MainActivity").lstrip(".")
    cls = f"{package}.{activity}"
    exception, message = CRASH_EXCEPTIONS[sum(map(ord, element_id)) % len(CRASH_EXCEPTIONS)]
    line = 40 + sum(map(ord, element_id)) % 160
    method = "on" + "".join(part.title() for part in element_id.split("_")[1:]) + "Clicked"
    simple = cls.rsplit(".", 1)[-1]
    effect: dict[str, Any] = {
        "crash": {
            "exception": exception,
            "message": message.format(cls=cls),
            "frames": [
                f"{cls}.{method}({simple}.java:{line})",
                f"{cls}.lambda$onCreate$0({simple}.java:{line - 17})",
            ],
        }
    }
    if when:
        effect["when"] = when
    return effect


def _holds(holder: dict[str, Any], element_id: str) -> bool:
    return any(found.get("id") == element_id for found in _elements(holder.get("elements", [])))


def _in_screens(model: Model, element_id: str) -> bool:
    return any(_holds(s, element_id) for s in model["screens"])


# ---- the edits ------------------------------------------------------------------------------------


def dead(element_id: str, effects: str = "on_tap") -> Edit:
    """The element stays clickable and does nothing at all."""

    def edit(model: Model) -> None:
        target = element(model, element_id)
        target["clickable"] = True
        target[effects] = []

    return edit


def crash(element_id: str, when: str | None = None, counter: str | None = None) -> Edit:
    """The element's action crashes the app; with `counter`, the element counts its taps in that new
    variable and crashes once `when` (over the counter) holds: the Nth visit."""

    def edit(model: Model) -> None:
        target = element(model, element_id)
        first: list[dict[str, Any]] = []
        if counter:
            model.setdefault("variables", {})[counter] = 0
            first.append({"inc": {counter: 1}})
        first.append(crash_effect(model, element_id, when))
        target["on_tap"] = first + list(target.get("on_tap", []))

    return edit


def error_page(element_id: str, page: dict[str, Any], effects: str = "on_tap") -> Edit:
    """The element's action opens an error page (added to the model) instead of its result."""

    def edit(model: Model) -> None:
        model["screens"].append(copy.deepcopy(page))
        element(model, element_id)[effects] = [{"go": page["id"]}]

    return edit


def redirect(element_id: str, old: str, new: str) -> Edit:
    """The element's `go` / `replace` of screen `old` leads to screen `new` instead."""

    def edit(model: Model) -> None:
        for effect in element(model, element_id).get("on_tap", []):
            for action in ("go", "replace"):
                if effect.get(action) == old:
                    effect[action] = new

    return edit


def forget(element_id: str, variable: str) -> Edit:
    """The switch still toggles on screen, but never stores `variable`: it is lost once the page goes."""

    def edit(model: Model) -> None:
        target = element(model, element_id)
        target["on_tap"] = [e for e in target.get("on_tap", []) if variable not in e.get("set", {})]

    return edit


def replace_effects(element_id: str, effects: list[dict[str, Any]], key: str = "on_tap") -> Edit:
    """The element's action is replaced by `effects` (an error text shown instead of the result)."""

    def edit(model: Model) -> None:
        element(model, element_id)[key] = copy.deepcopy(effects)

    return edit


def error_dialog(element_id: str, dialog: dict[str, Any]) -> Edit:
    """The element's action opens an error alert (added to the model) instead of its result."""

    def edit(model: Model) -> None:
        model.setdefault("dialogs", []).append(copy.deepcopy(dialog))
        element(model, element_id)["on_tap"] = [{"dialog": dialog["id"]}]

    return edit
