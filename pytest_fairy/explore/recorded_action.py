"""An action as it is kept to be done again: its element by ref and label, not by mark number.

Mark numbers move whenever anything on the screen does; a ref (`perception/refs.py`) names the element
itself. The decision cache (`replay/recording.py`) and a defect's reproduction (`reproduction.py`) keep
actions this way and `resolve` them on the screen of the time.
"""

from __future__ import annotations

from dataclasses import dataclass

from pytest_fairy.explore.action import NEEDS_MARK, Action, ActionKind, Direction
from pytest_fairy.perception.screen import Mark, Screen


@dataclass(frozen=True, slots=True)
class RecordedAction:
    kind: str
    ref: str = ""
    label: str = ""
    mark: int | None = None  # a hint for readers; replay resolves `ref` on the current screen
    text: str | None = None
    direction: str | None = None

    @classmethod
    def of(cls, action: Action, screen: Screen) -> RecordedAction:
        target = action.target(screen)
        return cls(
            kind=action.kind.value,
            ref=target.ref if target else "",
            label=target.label if target else "",
            mark=action.mark,
            text=action.text,
            direction=action.direction.value if action.direction else None,
        )

    def resolve(self, screen: Screen) -> Action | None:
        """The action on `screen`: its element found by ref, else by a label only one mark has; None
        when the element is not there (the screen is not the one this was recorded on)."""
        kind = ActionKind(self.kind)
        mark: Mark | None = None
        if self.ref:
            mark = screen.marks_by_ref.get(self.ref)
            if mark is None and self.label:
                same = [m for m in screen.marks if m.label == self.label]
                mark = same[0] if len(same) == 1 else None
            if mark is None:
                return None
        elif kind in NEEDS_MARK:
            return None
        direction = Direction(self.direction) if self.direction else None
        return Action(kind, mark.number if mark else None, self.text, direction)
