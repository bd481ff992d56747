"""A defect's reproduction: the shortest known way from a fresh launch to the step where it showed.

The explorer keeps each action it carried out as a `Move`: what was done and to which element, found
both by its ref (for replaying it on the device) and by uiautomator selectors (for a test a person runs).
When an item fails on an app defect, `ways_to` finds in the feature tree the shortest chain of moves from
the first screen to the defect's step (breadth-first over the transitions seen; restarts, and actions
denied or not carried out, are no edges), then the walk the run itself took to get there, as a second
candidate. `confirm.py` replays them; the report's exports write the one that reproduced as a test.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence, Set
from dataclasses import dataclass
from enum import StrEnum

from pytest_fairy.explore.action import Action, ActionKind
from pytest_fairy.explore.evidence import Against
from pytest_fairy.explore.oracles import Finding
from pytest_fairy.explore.recorded_action import RecordedAction
from pytest_fairy.explore.tree import FeatureTree, Transition
from pytest_fairy.perception.hierarchy import Node
from pytest_fairy.perception.screen import Screen
from pytest_fairy.spec.model import Oracle


class Proof(StrEnum):
    """How a run saw its defect, so what a replay must see to reproduce it (`confirm.py`)."""

    ORACLES = "oracles"  # the oracles' finding (crash, ANR, must-not, a project check): the same kind again
    SCREEN = "screen"  # the judge's finding on a screen: the same screen reached again
    NEVER_SEEN = "never seen"  # done-when never held: the same element's action contradicts it again
    NOT_KEPT = "not kept"  # done-when held, not after leaving and coming back: the run's walk, and not again


@dataclass(frozen=True, slots=True)
class Selector:
    """How a test finds an element with uiautomator (and Maestro): by resource id, text or content
    description, never by coordinates. `instance` picks among several views that match (0: the first).
    `class_name` only for a view with none of the three (uiautomator can use it; Maestro cannot)."""

    resource_id: str = ""
    text: str = ""
    description: str = ""
    instance: int = 0
    class_name: str = ""

    def __str__(self) -> str:
        parts = [
            f"{name}={value!r}"
            for name, value in (
                ("resourceId", self.resource_id),
                ("text", self.text),
                ("description", self.description),
                ("className", self.class_name),
            )
            if value
        ]
        if self.instance:
            parts.append(f"instance={self.instance}")
        return ", ".join(parts)

    def matches(self, node: Node) -> bool:
        return (
            (not self.resource_id or node.resource_id == self.resource_id)
            and (not self.text or node.text == self.text)
            and (not self.description or node.content_desc == self.description)
            and (not self.class_name or node.class_name == self.class_name)
        )


def selector_for(node: Node, screen: Screen) -> Selector | None:
    """The simplest selector that finds `node` on `screen`: one attribute if it names only this view,
    else two together, else the attribute with the view's place among the views it names. A view with no
    id, text or description is named by its class and place among the views of that class; None for a
    view with no class either (a test could only tap its coordinates)."""
    nodes = list(screen.nodes())
    own = [
        Selector(resource_id=node.resource_id) if node.resource_id else None,
        Selector(text=node.text) if node.text else None,
        Selector(description=node.content_desc) if node.content_desc else None,
    ]
    singles = [s for s in own if s is not None]
    pairs = [
        Selector(a.resource_id or b.resource_id, a.text or b.text, a.description or b.description)
        for i, a in enumerate(singles)
        for b in singles[i + 1 :]
    ]
    for candidate in [*singles, *pairs]:
        found = [n for n in nodes if candidate.matches(n)]
        if found == [node]:
            return candidate
    for candidate in pairs[-1:] or singles[:1]:
        found = [n for n in nodes if candidate.matches(n)]
        if node in found:
            return Selector(
                candidate.resource_id, candidate.text, candidate.description, instance=found.index(node)
            )
    if node.class_name:
        same = [n for n in nodes if n.class_name == node.class_name]
        return Selector(class_name=node.class_name, instance=same.index(node))
    return None


@dataclass(frozen=True, slots=True)
class Move:
    """One action the run carried out, kept so it can be done again."""

    step: int
    action: RecordedAction  # replayed by ref on the screen of the time (`RecordedAction.resolve`)
    selector: Selector | None  # the element, for an exported test (None: no element, or none to name)
    words: str  # as the step's record says it: `tap [3] 设置`
    on: str  # the state's key it was taken on
    on_title: str
    # Typed into a field that showed this many characters (what it held, or the hint a phone reports as
    # its text): the run's typing replaced them, so an exported flow erases them first.
    held: int = 0

    @classmethod
    def of(cls, step: int, action: Action, screen: Screen, words: str, state_key: str) -> Move:
        target = action.target(screen)
        selector = selector_for(target.node, screen) if target is not None else None
        recorded = RecordedAction.of(action, screen)
        held = len(target.node.text) if target is not None and action.kind is ActionKind.TYPE else 0
        return cls(step, recorded, selector, words, state_key, screen.title, held)

    @property
    def kind(self) -> ActionKind:
        return ActionKind(self.action.kind)


@dataclass(frozen=True, slots=True)
class Way:
    """A chain of moves from the first screen after a fresh launch, ending with the defect's action, and
    the state each move should be taken on (`moves[i].on`); `expected` is where the last one led."""

    moves: tuple[Move, ...]
    expected: str  # the state's key the last move led to in the run
    how: str  # "the shortest known path" or "the run's own walk"

    def __len__(self) -> int:
        return len(self.moves)


# The way of a defect no replay could start on (its action was not carried out, the app would not launch).
NO_WAY = Way((), "", "none")


@dataclass(frozen=True)
class Reproduction:
    """What confirmation found, for the verdict and the exports: the way that reproduced the defect (or
    the shortest one tried, when none did), how many times it did, and what the defect looks like."""

    package: str
    activity: str | None
    reset_data: bool
    finding: Finding
    way: Way
    tries: int  # replays made
    reproduced: int  # replays that showed the defect again
    done_when: tuple[Oracle, ...] = ()
    must_not: tuple[Oracle, ...] = ()
    proof: Proof = Proof.ORACLES
    app_name: str = ""
    # Why a replay did not reproduce (it left the path, or the defect did not show), one line per replay.
    misses: tuple[str, ...] = ()
    # A done-when never seen: how the way's last step contradicted the feature (what the exports check).
    against: Against | None = None

    @property
    def confirmed(self) -> bool:
        return self.reproduced > 0

    @property
    def figures(self) -> str:
        """`reproduced 2/2 in 6 steps`: the run that found it counts as the first; or `seen once, not
        reproduced in 2 replays` (the misses say of which ways)."""
        steps = f"{len(self.way)} step{'s' if len(self.way) != 1 else ''}"
        if self.confirmed:
            return f"reproduced {self.reproduced + 1}/{self.tries + 1} in {steps}"
        return f"seen once, not reproduced in {self.tries} replay{'s' if self.tries != 1 else ''}"


def ways_to(
    tree: FeatureTree,
    moves: dict[int, Move],
    defect_step: int,
    idle: Set[int] = frozenset(),
    start: str | None = None,
    same_before: Set[int] = frozenset(),
) -> list[Way]:
    """The ways to replay the action of step `defect_step`: the shortest known path from the first
    screen to the state it was taken on, then the run's own walk up to it (when it differs: an app whose
    state the run built up on the way, a note saved, may need the longer one). On each screen of the
    shortest path, the moves that stayed on it just before the one that left it come along (a field
    typed, a list scrolled, a box ticked), unless they changed nothing (`idle` steps). A shortest way no
    shorter than the walk gives way to it. `start`: the screen the app starts on now, when not the one the
    run started on (a phone that kept its data, signed in). `same_before`: earlier taps of the defect's
    own element that did what it did (changed nothing, or were refused with its error), left out of the
    walk: they did nothing on the way, and a fixed build would act on them. Empty when the step was not
    carried out (a denial) or the run never had a first screen."""
    by_step = {t.step: t for t in tree.transitions}
    entries = tree.path_entries
    if defect_step not in moves or defect_step not in by_step or not entries:
        return []
    expected = by_step[defect_step].to_key
    walk_steps = [s for s in sorted(moves) if s <= defect_step and s not in same_before]
    walk = Way(tuple(moves[s] for s in walk_steps), expected, "the run's own walk")
    shortest = _shortest(start or entries[0].key, by_step[defect_step].from_key, tree.transitions, moves)
    if shortest is None:
        return [walk]
    steps = [s for t in (*shortest, by_step[defect_step]) for s in _staying(t, by_step, moves, idle)]
    way = Way(tuple(moves[s] for s in steps), expected, "the shortest known path")
    return [way, walk] if len(way) < len(walk) else [walk]


def _staying(
    t: Transition, by_step: dict[int, Transition], moves: dict[int, Move], idle: Set[int]
) -> list[int]:
    """The steps of `t`'s screen that led up to it: the moves that stayed on that screen just before,
    and did something, then `t`'s own."""
    steps = [t.step]
    s = t.step - 1
    while (before := by_step.get(s)) is not None and before.self_loop and before.from_key == t.from_key:
        if s in moves and s not in idle and moves[s].kind is not ActionKind.RESTART:
            steps.append(s)
        s -= 1
    return steps[::-1]


def _shortest(
    start: str, goal: str, transitions: Sequence[Transition], moves: dict[int, Move]
) -> tuple[Transition, ...] | None:
    """Breadth-first over the transitions that moved to another state by a move the run carried out."""
    edges: dict[str, list[Transition]] = {}
    for t in _edges(transitions, moves):
        edges.setdefault(t.from_key, []).append(t)
    came: dict[str, Transition | None] = {start: None}
    queue = deque([start])
    while queue:
        key = queue.popleft()
        if key == goal:
            path: list[Transition] = []
            while (back := came[key]) is not None:
                path.append(back)
                key = back.from_key
            return tuple(reversed(path))
        for t in edges.get(key, ()):
            if t.to_key not in came:
                came[t.to_key] = t
                queue.append(t.to_key)
    return None


def _edges(transitions: Iterable[Transition], moves: dict[int, Move]) -> Iterable[Transition]:
    """Transitions worth walking: to another state, by a move carried out that is not a restart (the
    replay starts from a fresh launch), each (from, action, to) once, first seen first."""
    seen: set[tuple[str, str, str]] = set()
    for t in sorted(transitions, key=lambda t: t.step):
        move = moves.get(t.step)
        if t.self_loop or move is None or move.kind is ActionKind.RESTART:
            continue
        edge = (t.from_key, t.action_key, t.to_key)
        if edge not in seen:
            seen.add(edge)
            yield t
