"""Settings the app must keep: a switch or box the run set, shown the other way once the run left its page
and came back, untouched since, is a setting the app lost (`Contradiction.LOST`). An option of a group (a
radio button, a chip: the day a schedule shows, a sort order) is a choice of the page's view, which a page
opened afresh may well reset: not a setting."""

from __future__ import annotations

from dataclasses import dataclass

from pytest_fairy.explore.facts import Control, Facts, fields_of, usable
from pytest_fairy.perception.screen import Screen

# Checkable classes that are one choice of several, not a setting on or off by itself.
GROUP_OPTIONS = ("RadioButton", "Chip")


@dataclass(frozen=True, slots=True)
class Lost:
    """A setting the app did not keep: the switch `label` that step `step` turned on (`was`) or off."""

    label: str
    was: bool
    step: int

    def __str__(self) -> str:
        now, then = _on(not self.was), _on(self.was)
        return f"showed '{self.label}' {now} again, though step {self.step} turned it {then}"


class Settings:
    """The switches and boxes the run set, as it set them. One shown the other way once the run has left
    its page and come back, untouched since, is a setting the app lost. Not a box of a form (a page with
    text fields): a form may well start afresh each time it is opened."""

    def __init__(self) -> None:
        self._set: dict[str, Lost] = {}  # by the element's ref

    def arrived(self, step: int, ref: str, facts: Facts, screens: tuple[Screen, Screen]) -> Lost | None:
        """The action of `step` on `ref` led from `screens[0]` to `screens[1]`: a setting it set, or one
        it found lost on the page it came to."""
        acted_on, reached = screens
        marks = {
            m.ref: m for m in usable(reached) if m.node.checkable and not _one_of_a_group(m.node.class_name)
        }
        if facts.control is Control.OPTION and ref in marks and not fields_of(usable(acted_on)):
            self._set[ref] = Lost(marks[ref].label, marks[ref].node.checked, step)
            return None
        if reached.title == acted_on.title:
            return None  # still on its page: another switch may turn this one off by design
        for found, mark in marks.items():
            kept = self._set.get(found)
            if kept is not None and mark.node.checked != kept.was:
                return self._set.pop(found)
        return None


def _one_of_a_group(class_name: str) -> bool:
    return any(kind in class_name for kind in GROUP_OPTIONS)


def _on(checked: bool) -> str:
    return "on" if checked else "off"
