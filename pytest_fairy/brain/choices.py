"""The options of a form or a dialog: which one the goal chooses, and which taps would undo that choice.

A radio's group is its RadioGroup; where there is none, rows holding radios only, one after the other in
one container, are one group (a 2 x 2 grid of top-up amounts: 10 / 20 over 50 / 100); a header between
two rows starts another (区域 and 户型 in one filter sheet). The goal names an option by its label (`50 元`
in 选择 50 元), or by its words in order (`Serious · 30 XP a day` in "change the daily goal to Serious (30 XP
a day)"): a sentence writes an option's label in its own punctuation.
"""

from __future__ import annotations

from collections.abc import Sequence

from pytest_fairy.explore.vocabulary import PICK_WORDS
from pytest_fairy.perception.hierarchy import Node
from pytest_fairy.perception.relevance import names_whole
from pytest_fairy.perception.screen import Mark, Screen


def names_option(goal: str, label: str) -> bool:
    """The goal names the option labelled `label`: its label, or its words in its order whatever the
    punctuation between them (`relevance.plain`)."""
    return bool(label) and (label in goal or names_whole(goal, label) is not None)


def goal_choices(screen: Screen, goal: str) -> set[int]:
    """The groups (`group_of`) whose checked option is one the goal names: keep it, commit it."""
    return {
        group_of(mark.node)
        for mark in screen.marks
        if mark.node.checkable and mark.node.checked and names_option(goal, mark.label)
    }


def unset_groups(screen: Screen) -> set[int]:
    """The groups of radios on screen none of whose options is checked: one must be chosen (a date for
    the viewing) before the confirm does anything."""
    radios = [mark.node for mark in screen.marks if mark.node.checkable and _radio(mark.node)]
    groups = {group_of(node) for node in radios}
    return groups - {group_of(node) for node in radios if any(view.checked for view in node.iter())}


def picks(mark: Mark) -> bool:
    """A button of a form that opens a choice still to make (`看房日期：请选择`, `Select a date`)."""
    label = mark.label.casefold()
    return not mark.node.checkable and any(word in label for word in PICK_WORDS)


def undoes(mark: Mark, chosen: set[int]) -> bool:
    """Tapping a checked radio does nothing; tapping another option of a goal-named choice's group undoes
    it. A radio row (a row marked for the RadioButton it holds: perception's one mark per control) is a
    radio too."""
    node = mark.node
    if not node.checkable or not _radio(node):
        return False
    return node.checked or group_of(node) in chosen


def unchecks(mark: Mark, kept: Sequence[str]) -> bool:
    """Tapping a checked switch or box whose label the done-when wants checked would undo the feature."""
    node = mark.node
    if not node.checkable or not any(view.checked for view in node.iter()):
        return False
    return any(text.strip().casefold() in mark.label.casefold() for text in kept)


def group_of(node: Node) -> int:
    """The group of the option `node`, as an id: its RadioGroup; else the run of rows of radios, one after
    the other, its row is in; else its parent."""
    parent = node.parent
    ancestor = parent
    while ancestor is not None:
        if "RadioGroup" in ancestor.class_name:
            return id(ancestor)
        ancestor = ancestor.parent
    if parent is None:
        return id(node)
    container = parent.parent
    if container is None or not _radio_row(parent):
        return id(parent)
    # Rows of radios next to each other, nothing between them (a header starts another group).
    siblings = container.children
    first = next(i for i, child in enumerate(siblings) if child is parent)
    while first > 0 and _radio_row(siblings[first - 1]):
        first -= 1
    return id(siblings[first])


def _radio(node: Node) -> bool:
    return any("Radio" in view.class_name for view in node.iter())


def _radio_row(node: Node) -> bool:
    """A container whose children are all radios (two or more)."""
    children = node.children
    return len(children) > 1 and all(child.checkable and _radio(child) for child in children)
