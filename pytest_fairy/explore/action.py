"""Actions the explorer performs, chosen by mark number on the current screen, never by raw coordinates.

An `Action` is what a brain decides; `perform` turns it into device calls against the `Screen` it was
decided on, so a stale or unknown mark is an error of the decision, not a tap in the void.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from enum import StrEnum

from pytest_fairy.devices.protocol import Device, Key
from pytest_fairy.errors import FairyError
from pytest_fairy.perception.screen import Mark, Screen
from pytest_fairy.spec.secrets import NO_SECRETS, Secrets


class ActionKind(StrEnum):
    TAP = "tap"
    LONG_TAP = "long_tap"
    TYPE = "type"
    SCROLL = "scroll"
    BACK = "back"
    ENTER = "enter"
    RESTART = "restart"


class Direction(StrEnum):
    """Where the content should move into view: `down` shows what is below (a swipe upwards)."""

    DOWN = "down"
    UP = "up"
    LEFT = "left"
    RIGHT = "right"


NEEDS_MARK = frozenset({ActionKind.TAP, ActionKind.LONG_TAP, ActionKind.TYPE})


class ActionError(FairyError):
    """A decision that cannot be performed on the screen it was made for (unknown mark, missing text)."""


@dataclass(frozen=True, slots=True)
class Action:
    kind: ActionKind
    mark: int | None = None
    text: str | None = None
    direction: Direction | None = None

    def __post_init__(self) -> None:
        if self.kind in NEEDS_MARK and self.mark is None:
            raise ActionError(f"{self.kind} needs a mark number")
        if self.kind is ActionKind.TYPE and self.text is None:
            raise ActionError("type needs the text to type")

    def target(self, screen: Screen) -> Mark | None:
        if self.mark is None:
            return None
        try:
            return screen.mark(self.mark)
        except KeyError as exc:
            raise ActionError(
                f"mark [{self.mark}] is not on this screen (it has 1..{len(screen.marks)})"
            ) from exc

    def describe(self, screen: Screen | None = None) -> str:
        """The action in words, as the report titles its step: `tap [7] 预约送餐`."""
        words = [self.kind.value]
        if self.mark is not None:
            label = ""
            if screen is not None:
                try:
                    label = screen.mark(self.mark).label
                except KeyError:
                    label = "?"
            words.append(f"[{self.mark}] {label}".rstrip())
        if self.direction is not None:
            words.append(self.direction.value)
        if self.text is not None:
            words.append(MASK if self.into_password(screen) else repr(self.text))
        return " ".join(words)

    def key(self, screen: Screen) -> str:
        """What the loop guard compares: the kind and the stable ref of the target, not its number. Text
        typed into a password field enters as a digest: told apart, never written down."""
        target = self.target(screen)
        text = self.text or ""
        if text and target is not None and target.node.password:
            text = "sha1:" + hashlib.sha1(text.encode("utf-8")).hexdigest()[:10]
        parts = [self.kind.value, target.ref if target else "", self.direction or "", text]
        return "|".join(parts)

    def into_password(self, screen: Screen | None) -> bool:
        """Typed into a password field: its text is never shown (-v lines, steps, reports, prompts) nor
        kept (the decision cache)."""
        if screen is None or self.mark is None:
            return False
        try:
            return screen.mark(self.mark).node.password
        except KeyError:
            return False


# What a password typed shows in words: as many dots as Android draws, whatever its length.
MASK = "'••••••'"
# A scroll moves the content by this share of the list's height: most of a screenful, with a row or two
# left in view so no row passes unseen between two looks.
SWIPE_FRACTION = 0.8
SWIPE_SECONDS = 0.3


def perform(
    device: Device,
    action: Action,
    screen: Screen,
    *,
    package: str,
    activity: str | None,
    secrets: Secrets = NO_SECRETS,
) -> None:
    """Carry out `action` on `device`. Raises ActionError for a bad decision, DeviceError for the device.
    Text typed with a secret's placeholder (`{{SHOP_PASSWORD}}`) is typed as its value: here only."""
    target = action.target(screen)
    match action.kind:
        case ActionKind.TAP:
            assert target is not None
            device.tap(*target.center)
        case ActionKind.LONG_TAP:
            assert target is not None
            device.long_tap(*target.center)
        case ActionKind.TYPE:
            assert target is not None and action.text is not None
            device.tap(*target.center)
            device.clear_text()  # the field holds the text typed, not it after what it held
            device.type_text(secrets.reveal(action.text))
        case ActionKind.SCROLL:
            device.swipe(*_swipe_for(action.direction or Direction.DOWN, target, device), SWIPE_SECONDS)
        case ActionKind.BACK:
            device.press(Key.BACK)
        case ActionKind.ENTER:
            device.press(Key.ENTER)
        case ActionKind.RESTART:
            device.stop(package)
            device.launch(package, activity)


def _swipe_for(direction: Direction, target: Mark | None, device: Device) -> tuple[int, int, int, int]:
    if target is not None:
        b = target.bounds
        left, top, right, bottom = b.left, b.top, b.right, b.bottom
    else:
        width, height = device.window_size()
        left, top, right, bottom = 0, height // 5, width, height * 4 // 5
    cx, cy = (left + right) // 2, (top + bottom) // 2
    dx = int((right - left) * SWIPE_FRACTION / 2)
    dy = int((bottom - top) * SWIPE_FRACTION / 2)
    match direction:
        case Direction.DOWN:
            return cx, cy + dy, cx, cy - dy
        case Direction.UP:
            return cx, cy - dy, cx, cy + dy
        case Direction.RIGHT:
            return cx + dx, cy, cx - dx, cy
        case Direction.LEFT:
            return cx - dx, cy, cx + dx, cy
