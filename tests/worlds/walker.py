"""`Walker`: a person with the truth's path in hand, on a `VirtualDevice` running one twin.

It taps by label (an element's exact text or content-desc in the window in front), scrolls a list until
a label shows, types into the field showing a hint, presses Back, restarts the app; and it reads the
done-when conditions of a feature the way the spec defines them (text or content-desc containing the
words, in every window; `checked` on the element so labelled). It knows nothing of the explorer.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Any

from fairy_virtual import AppModel, ManualClock, VirtualDevice
from pytest_fairy import Key

from .truth import Step

MAX_SWIPES = 40
BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")


@dataclass(frozen=True)
class Node:
    window: int
    attrs: dict[str, str]

    @property
    def label(self) -> tuple[str, str]:
        return self.attrs.get("text", ""), self.attrs.get("content-desc", "")

    def center(self) -> tuple[int, int]:
        found = BOUNDS.fullmatch(self.attrs["bounds"])
        assert found is not None, self.attrs["bounds"]
        left, top, right, bottom = map(int, found.groups())
        return (left + right) // 2, (top + bottom) // 2

    def flag(self, name: str) -> bool:
        return self.attrs.get(name) == "true"


class Walker:
    """Drive one twin's app model (the data of app.yaml, validated by the product's schema; the files
    are loaded by the product's loader in the tests) along paths. Starts the app at once."""

    def __init__(self, app: dict[str, Any] | AppModel) -> None:
        self.model = app if isinstance(app, AppModel) else AppModel.model_validate(app)
        self.package = self.model.app.package
        self.device = VirtualDevice(self.model, latency=False, clock=ManualClock())
        self.device.launch(self.package)

    # ---- reading the screen -----------------------------------------------------------------

    def dump(self) -> str:
        return self.device.dump_hierarchy()

    def nodes(self) -> list[Node]:
        root = ET.fromstring(self.dump().encode("utf-8"))
        found: list[Node] = []
        for window, top in enumerate(root):
            found.extend(Node(window, dict(node.attrib)) for node in top.iter("node"))
        return found

    def find(self, label: str) -> Node | None:
        """The element labelled exactly `label` in the window in front (clickable ones first)."""
        nodes = self.nodes()
        if not nodes:
            return None
        front = max(node.window for node in nodes)
        matches = [n for n in nodes if n.window == front and label in n.label]
        matches.sort(key=lambda n: not (n.flag("clickable") or n.flag("checkable")))
        return matches[0] if matches else None

    def visible(self, words: str) -> bool:
        words = words.casefold()
        return any(words in part.casefold() for node in self.nodes() for part in node.label if part)

    def checked(self, label: str) -> bool:
        return any(label in n.label and (n.flag("checked") or n.flag("selected")) for n in self.nodes())

    def holds(self, conditions: list[dict[str, str]]) -> bool:
        """Whether every done-when condition holds on the screen now."""
        for condition in conditions:
            ((kind, value),) = condition.items()
            ok = {
                "visible": lambda v: self.visible(v),
                "not_visible": lambda v: not self.visible(v),
                "checked": self.checked,
            }[kind](value)
            if not ok:
                return False
        return True

    def crashed(self) -> bool:
        return (
            "FATAL EXCEPTION" in self.device.logcat() and f"Process: {self.package}" in self.device.logcat()
        )

    def activity(self) -> str:
        return self.device.current_app().activity

    # ---- acting -------------------------------------------------------------------------------

    def step(self, step: Step) -> bool:
        """Take one step; False when its label is not on screen (nothing is done then)."""
        if step.action == "back":
            self.device.press(Key.BACK)
            return True
        if step.action == "restart":
            self.device.stop(self.package)
            self.device.launch(self.package)
            return True
        if step.action == "scroll":
            return self._scroll_to(step.label)
        node = self.find(step.label)
        if node is None:
            return False
        self.device.tap(*node.center())
        if step.action == "type":
            self.device.type_text(step.text)
        return True

    def walk(self, path: list[Step], lenient: bool = False) -> int:
        """Take the steps in turn; the index of the first one that could not be taken (len(path): all
        were). `lenient` skips a tap whose label is missing (a welcome page that no longer shows)."""
        for index, step in enumerate(path):
            if not self.step(step) and not lenient:
                return index
        return len(path)

    def _scroll_to(self, label: str) -> bool:
        for _ in range(MAX_SWIPES):
            if self.find(label) is not None:
                return True
            lists = [n for n in self.nodes() if n.flag("scrollable")]
            if not lists:
                return False
            before = self.dump()
            x, y = lists[-1].center()
            left, top, right, bottom = map(int, BOUNDS.fullmatch(lists[-1].attrs["bounds"]).groups())  # type: ignore[union-attr]
            span = (bottom - top) // 3
            self.device.swipe(x, y + span, x, y - span)
            if self.dump() == before:
                return False
        return self.find(label) is not None
