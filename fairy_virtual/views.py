"""The laid-out view tree: what a dump serialises, a screenshot draws and a tap is tested against.

One `Window` per window root of a real dump (the app, each dialog / sheet / popup, system dialogs).
Views carry a `Target` saying what a gesture on them does, so hit testing works on exactly the tree
the explorer sees.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Literal

from fairy_virtual.model import Effect, Element
from pytest_fairy.perception.hierarchy import Bounds

WindowKind = Literal["app", "dialog", "sheet", "popup", "drawer", "system", "launcher"]


@dataclass(frozen=True, slots=True)
class Target:
    """What a gesture on a view does. `key` identifies the element instance (its state lives there)."""

    key: str
    element: Element | None = None
    row: int | None = None  # list row number (1-based) the view belongs to
    row_effects: tuple[Effect, ...] = ()  # a list row's on_tap
    swipe_effects: tuple[Effect, ...] = ()  # a list row's on_swipe (a swipe sideways across it)
    system: str | None = None  # an action of a system window: "allow", "close_app", "launch"...
    scroll_extent: int = 0  # a list: how far its content can scroll


@dataclass(eq=False, slots=True)
class View:
    class_name: str
    bounds: Bounds
    text: str = ""
    resource_id: str = ""
    desc: str = ""
    checkable: bool = False
    checked: bool = False
    clickable: bool = False
    enabled: bool = True
    focusable: bool = False
    focused: bool = False
    scrollable: bool = False
    long_clickable: bool = False
    password: bool = False
    selected: bool = False
    children: list[View] = field(default_factory=list)
    role: str = (
        ""  # how to draw it when the class alone does not say: panel, toolbar, action, row, icon, card
    )
    style: str = "plain"
    showing_hint: bool = False
    target: Target | None = None

    @property
    def short_class(self) -> str:
        return self.class_name.rsplit(".", 1)[-1]

    def iter(self) -> Iterator[View]:
        yield self
        for child in self.children:
            yield from child.iter()


@dataclass(slots=True)
class Window:
    root: View
    package: str
    kind: WindowKind
    panel: Bounds | None = None  # the part that takes touches; None: the whole window
    dismiss_on_outside: bool = False
    dim: bool = False  # darken what is behind (dialogs, sheets, system dialogs)
    accent: str = "#1A73E8"
    dialog_index: int | None = None  # position in the app's dialog stack

    @property
    def modal(self) -> bool:
        return self.kind in ("dialog", "sheet", "popup", "drawer", "system")


def clip(view: View, area: Bounds) -> View | None:
    """The view as seen through `area` (a list viewport): bounds cut, children outside dropped."""
    cut = view.bounds.intersection(area)
    if cut is None:
        return None
    children = [c for c in (clip(child, area) for child in view.children) if c is not None]
    return replace(view, bounds=cut, children=children)


def hit(root: View, x: int, y: int, long: bool = False) -> View | None:
    """The deepest view under (x, y) that handles the gesture, as Android dispatches touches."""
    if not root.bounds.contains(x, y):
        return None
    for child in reversed(root.children):  # later siblings are drawn on top
        found = hit(child, x, y, long)
        if found is not None:
            return found
    handles = root.long_clickable if long else (root.clickable or root.checkable)
    return root if handles and root.target is not None else None


def scrollable_at(root: View, x: int, y: int) -> View | None:
    """The innermost scrollable view under (x, y)."""
    return _innermost(root, x, y, lambda view: view.scrollable)


def swipeable_at(root: View, x: int, y: int) -> View | None:
    """The innermost view under (x, y) that a sideways swipe acts on (a list row with `on_swipe`)."""
    return _innermost(root, x, y, lambda view: bool(view.target and view.target.swipe_effects))


def _innermost(root: View, x: int, y: int, wanted: Callable[[View], bool]) -> View | None:
    """The innermost view under (x, y) with a target that is `wanted` (later siblings drawn on top)."""
    if not root.bounds.contains(x, y):
        return None
    for child in reversed(root.children):
        found = _innermost(child, x, y, wanted)
        if found is not None:
            return found
    return root if root.target is not None and wanted(root) else None


def find(windows: list[Window], key: str) -> View | None:
    for window in windows:
        for view in window.root.iter():
            if view.target is not None and view.target.key == key and view.target.system is None:
                return view
    return None
