"""The Maestro flows pytest_fairy exports, run on an in-process virtual device as Maestro's documentation
defines their commands (docs.maestro.dev), so a flow can be tried on a bug twin and on its clean twin
without Maestro's CLI, a JVM or a phone.

A subset, not Maestro: `launchApp` (appId, clearState, stopApp), `stopApp`, `tapOn` / `longPressOn`,
`inputText` (with `${NAME}` parameters), `eraseText` (delete pressed as many times; the cursor is at the
end of the text), `swipe` (direction, from), `scroll`, `back`, `pressKey: Enter`,
`assertVisible` / `assertNotVisible`. Anything else is refused loudly. A selector's `text` and `id` are
regular expressions that must match the whole value; `text` matches a view's text or its content
description; `checked` and `enabled` compare flags. Toasts count as visible text (Maestro reads them
through accessibility events since 1.26). A command that looks for a view retries as Maestro's fluent
waits do, for up to 7 seconds of the device's time.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import yaml

from fairy_virtual import VirtualDevice
from fairy_virtual.device import KEYCODE_DEL
from pytest_fairy.devices.protocol import Key
from pytest_fairy.perception.hierarchy import Bounds, Node, parse_hierarchy

WAIT_SECONDS = 7.0  # Maestro's fluent wait for a view to show (or to go, for assertNotVisible)
POLL_SECONDS = 0.5
# Maestro's swipes on Android, as fractions of the screen: a swipe of the screen from and to, by the
# direction the finger moves; a swipe from a view goes from its centre to the end point's edge.
SWIPES = {
    "UP": ((0.5, 0.5), (0.5, 0.1)),
    "DOWN": ((0.5, 0.2), (0.5, 0.9)),
    "LEFT": ((0.9, 0.5), (0.1, 0.5)),
    "RIGHT": ((0.1, 0.5), (0.9, 0.5)),
}
# scrollUntilVisible names where the content goes; its finger moves the other way, from the centre.
FINGER = {"DOWN": "UP", "UP": "DOWN", "LEFT": "RIGHT", "RIGHT": "LEFT"}
SCROLL_UNTIL_SECONDS = 20.0  # scrollUntilVisible's default timeout
SCROLL_SECONDS = 1.0  # the device time a scroll of scrollUntilVisible takes
# centerElement: scroll on until the element is this share of the screen away from the edge it came in
# by (in the top 70% scrolling down), or until a few more scrolls do not move it (the list's last row).
CENTER_MARGIN = 0.3
CENTER_TRIES = 3
PARAMETER = re.compile(r"\$\{(\w+)\}")
ERASE_DEFAULT = 50  # eraseText with no count deletes up to 50 characters


class FlowFailed(AssertionError):
    """A command of the flow did not hold: the flow fails here, as `maestro test` would."""


class NotSupported(Exception):
    """The flow uses a command or a selector this subset does not run."""


@dataclass(frozen=True)
class Flow:
    app_id: str
    commands: list[Any]


def parse_flow(text: str) -> Flow:
    """A flow file: a config document naming the app, `---`, then the list of commands."""
    documents = list(yaml.safe_load_all(text))
    if len(documents) != 2 or not isinstance(documents[0], dict) or not isinstance(documents[1], list):
        raise NotSupported("a flow is a config document and a list of commands, separated by ---")
    app_id = documents[0].get("appId")
    if not isinstance(app_id, str) or not app_id:
        raise NotSupported("the config document names no appId")
    return Flow(app_id, documents[1])


def run_flow(text: str, device: VirtualDevice, env: Mapping[str, str] | None = None) -> None:
    """Every command in order; raises FlowFailed at the first that does not hold."""
    flow = parse_flow(text)
    runner = _Runner(flow.app_id, device, dict(env or {}))
    for i, command in enumerate(flow.commands, start=1):
        name, argument = _split(command)
        try:
            runner.run(name, argument)
        except FlowFailed as exc:
            raise FlowFailed(f"command {i} ({name}): {exc}") from None


def _split(command: Any) -> tuple[str, Any]:
    if isinstance(command, str):
        return command, None
    if isinstance(command, dict) and len(command) == 1:
        ((name, argument),) = command.items()
        return name, argument
    raise NotSupported(f"not a command: {command!r}")


class _Runner:
    def __init__(self, app_id: str, device: VirtualDevice, env: dict[str, str]) -> None:
        self.app_id, self.device, self.env = app_id, device, env

    def run(self, name: str, argument: Any) -> None:
        device = self.device
        match name:
            case "launchApp":
                options = argument if isinstance(argument, dict) else {}
                package = options.get("appId", self.app_id)
                if options.get("stopApp", True):
                    device.stop(package)
                if options.get("clearState", False):
                    device.clear_app_data(package)
                device.launch(package)
            case "stopApp":
                device.stop(argument or self.app_id)
            case "tapOn" | "longPressOn":
                x, y = self._found(argument).bounds.center
                (device.tap if name == "tapOn" else device.long_tap)(x, y)
            case "inputText":
                device.type_text(PARAMETER.sub(lambda m: self._parameter(m.group(1)), str(argument)))
            case "eraseText":
                for _ in range(ERASE_DEFAULT if argument is None else int(argument)):
                    device.press_keycode(KEYCODE_DEL)
            case "swipe":
                self._swipe(argument)
            case "scroll":
                self._swipe({"direction": "UP"})
            case "scrollUntilVisible":
                self._scroll_until(argument)
            case "back":
                device.press(Key.BACK)
            case "pressKey" if str(argument).lower() == "enter":
                device.press(Key.ENTER)
            case "assertVisible":
                self._found(argument)
            case "assertNotVisible":
                self._gone(argument)
            case _:
                raise NotSupported(f"{name}: not among the commands this subset runs")
        device.settle()

    def _parameter(self, name: str) -> str:
        if name not in self.env:
            raise FlowFailed(f"${{{name}}} was not given (maestro test -e {name}=...)")
        return self.env[name]

    def _swipe(self, argument: dict[str, Any], start: tuple[int, int] | None = None) -> None:
        direction = argument["direction"]
        (fx, fy), (tx, ty) = SWIPES[direction]
        width, height = self.device.window_size()
        if "from" in argument:
            start = self._found(argument["from"]).bounds.center
        if start is None:
            self.device.swipe(int(fx * width), int(fy * height), int(tx * width), int(ty * height))
            return
        x, y = start
        end = (x, int(ty * height)) if direction in ("UP", "DOWN") else (int(tx * width), y)
        self.device.swipe(x, y, *end)

    def _scroll_until(self, argument: dict[str, Any]) -> None:
        unknown = set(argument) - {"element", "direction", "centerElement"}
        if unknown:
            raise NotSupported(f"scrollUntilVisible keys {sorted(unknown)}: not among those this subset reads")
        width, height = self.device.window_size()
        screen = Bounds(0, 0, width, height)
        direction = argument.get("direction", "DOWN")
        scrolled = 0.0
        while True:
            shown = [n for n in self._matches(argument["element"]) if n.bounds.intersection(screen) == n.bounds]
            if shown:
                break
            if scrolled >= SCROLL_UNTIL_SECONDS:
                raise FlowFailed(f"{argument['element']!r} did not show within {SCROLL_UNTIL_SECONDS:g} s of scrolling")
            self._scroll_once(direction, width, height)
            scrolled += SCROLL_SECONDS
        if argument.get("centerElement"):
            self._center(argument["element"], direction, shown[0].bounds, width, height)

    def _center(self, selector: Any, direction: str, bounds: Bounds, width: int, height: int) -> None:
        """Scroll on until the element is `CENTER_MARGIN` of the screen away from the edge it came in by,
        or `CENTER_TRIES` scrolls did not get it there (it stopped moving: the list's end)."""
        for _ in range(CENTER_TRIES):
            if direction == "DOWN" and bounds.bottom <= (1 - CENTER_MARGIN) * height:
                return
            if direction == "UP" and bounds.top >= CENTER_MARGIN * height:
                return
            if direction not in ("DOWN", "UP"):
                return
            self._scroll_once(direction, width, height)
            now = next(self._matches(selector), None)
            if now is None or now.bounds == bounds:
                return
            bounds = now.bounds

    def _scroll_once(self, direction: str, width: int, height: int) -> None:
        self._swipe({"direction": FINGER[direction]}, start=(width // 2, height // 2))
        self.device.settle()
        self.device.clock.advance(SCROLL_SECONDS)

    def _found(self, selector: Any) -> Node:
        for _ in self._polls():
            found = next(self._matches(selector), None)
            if found is not None:
                return found
        raise FlowFailed(f"no view matches {selector!r} within {WAIT_SECONDS:g} s")

    def _gone(self, selector: Any) -> None:
        for _ in self._polls():
            if next(self._matches(selector), None) is None:
                return
        raise FlowFailed(f"a view matching {selector!r} is still visible after {WAIT_SECONDS:g} s")

    def _polls(self) -> Iterator[None]:
        waited = 0.0
        while True:
            yield None
            if waited >= WAIT_SECONDS:
                return
            self.device.clock.advance(POLL_SECONDS)
            waited += POLL_SECONDS

    def _matches(self, selector: Any) -> Iterator[Node]:
        wanted = {"text": selector} if isinstance(selector, str) else dict(selector)
        unknown = set(wanted) - {"text", "id", "checked", "enabled"}
        if unknown:
            raise NotSupported(f"selector keys {sorted(unknown)}: not among those this subset reads")
        for toast in self.device.toasts():
            if set(wanted) == {"text"} and _whole(wanted["text"], toast):
                yield Node(text=toast)
        screen = Bounds(0, 0, *self.device.window_size())
        for window in parse_hierarchy(self.device.dump_hierarchy()):
            for node in window.iter():
                if node.visible and node.bounds.intersection(screen) and _selects(wanted, node):
                    yield node


def _selects(wanted: dict[str, Any], node: Node) -> bool:
    if "text" in wanted and not (_whole(wanted["text"], node.text) or _whole(wanted["text"], node.content_desc)):
        return False
    if "id" in wanted and not _whole(wanted["id"], node.resource_id):
        return False
    return all(getattr(node, flag) == wanted[flag] for flag in ("checked", "enabled") if flag in wanted)


def _whole(pattern: str, value: str) -> bool:
    return bool(value) and re.fullmatch(pattern, value, flags=re.DOTALL) is not None
