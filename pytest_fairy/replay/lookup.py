"""Finding the recorded decision for a step: by position while a run follows its recording, by screen once
it has left it.

A run that follows its recording finds each step by position (`StepKey`: the state, its visit, the action
that led there). Once a step was decided live (the app changed there) positions are no longer trusted:
visits shift, and the action that led somewhere may be a new one. A step is then found by what makes a
recorded decision fit it again:

- the same **state** (activity + structure + dialog): a decision is never taken to another screen;
- the same **content** (`StateId.content_hash`: checked, typed and visible text): the screen shows what it
  showed when the decision was made;
- the same **progress** (`Progress`): the done-when conditions that never held yet, whether they all held
  on one screen yet, the sub-feature worked on and the sub-features done. The same screen early or late
  in a feature may ask for another decision;
- not replayed yet in this run. Of several such steps (a screen the run came back to) the one at the
  run's own position goes first, else the one recorded first, so the decisions taken on a screen replay
  in their recorded order.

Steps recorded without content or progress (by an earlier pytest_fairy) replay on the path only. Off the
path, the element of a replayed action must also keep its recorded identity - its ref and its label - where
on the path a unique label is enough (`RecordedAction.resolve`): off the path less is known, so less is
guessed, and an unsure step is decided live.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from pytest_fairy.explore.action import Action
from pytest_fairy.explore.decisions import REPLAY_PREFIX, Decision, Origin
from pytest_fairy.explore.dynamic_text import normalize
from pytest_fairy.explore.recorded_action import RecordedAction
from pytest_fairy.perception.screen import Screen
from pytest_fairy.replay.recording import RecordedDecision, RecordedStep, Recording, StepKey


class Progress:
    """What the feature has achieved so far, as a brain sees it step by step: the done-when conditions
    that never held on any screen yet, whether they all held on one screen yet (the explorer's "oracles
    seen"), the sub-feature the brain works on, the sub-features found done.

    Fed by the caching brain as the run goes (`saw`, `decided`, `witnessed`); `digest` is what a step
    records and what a step found by screen must match."""

    def __init__(self) -> None:
        self._never_held: frozenset[str] | None = None  # None: no screen seen yet
        self._held = False
        self._sub_feature = ""
        self._done: set[str] = set()

    def saw(self, unmet: Iterable[str], held: bool) -> None:
        """A screen: the done-when conditions that do not hold on it, and whether they all do."""
        here = frozenset(condition_of(text) for text in unmet)
        self._never_held = here if self._never_held is None else self._never_held & here
        self._held = self._held or held

    def decided(self, decision: Decision, feature: str) -> None:
        """A decision taken (replayed or live): its sub-feature becomes the one worked on, as the explorer
        focuses its tree (the feature itself changes nothing)."""
        if decision.sub_feature and decision.sub_feature != feature:
            self._sub_feature = decision.sub_feature

    def witnessed(self, decision: Decision) -> None:
        """A step the explorer took itself: a return step leaves a sub-feature the judge found done."""
        if decision.origin is Origin.RETURN and decision.sub_feature:
            self._done.add(decision.sub_feature)

    def digest(self) -> str:
        held = "held" if self._held else ""
        parts = [*sorted(self._never_held or ()), "|", held, self._sub_feature, "|", *sorted(self._done)]
        return hashlib.blake2b("\x1f".join(parts).encode("utf-8"), digest_size=8).hexdigest()


def condition_of(unmet: str) -> str:
    """An unmet done-when condition without its evidence, which depends on the screen:
    `visible: 已下单 (no view shows '已下单')` -> `visible: 已下单`."""
    if not unmet.endswith(")"):
        return unmet
    depth = 0
    for at in range(len(unmet) - 1, 0, -1):
        if unmet[at] == ")":
            depth += 1
        elif unmet[at] == "(":
            depth -= 1
            if depth == 0:
                return unmet[: at - 1] if unmet[at - 1] == " " else unmet
    return unmet


class RecordedSteps:
    """The steps of one recording, found by position or by screen, each replayed at most once a run."""

    def __init__(self, recording: Recording | None = None) -> None:
        steps = recording.steps if recording is not None else []
        self._steps = steps
        self._at = {step.key: number for number, step in enumerate(steps)}
        self._on: dict[str, list[int]] = {}
        for number, step in enumerate(steps):
            self._on.setdefault(step.state, []).append(number)
        self._used: set[int] = set()

    @property
    def steps(self) -> list[RecordedStep]:
        """The recording's steps, in the order they were taken."""
        return self._steps

    def number(self, step: RecordedStep) -> int:
        """`step`'s index among `steps` (the very object)."""
        return next(n for n, s in enumerate(self._steps) if s is step)

    def at(self, key: StepKey) -> RecordedStep | None:
        """The step recorded at this position of the path (state, visit, the action that led there)."""
        number = self._at.get(key)
        return self._take(number) if number is not None else None

    def like(self, key: StepKey, content: str, progress: str) -> RecordedStep | None:
        """A step recorded on this very screen (state and content) with the feature as far as it is now;
        the one at this position first, else the first recorded. None when there is none (a step recorded
        without content or progress has "" there, which no screen has)."""
        fits = [
            number
            for number in self._on.get(key.state, ())
            if number not in self._used
            and self._steps[number].content == content
            and self._steps[number].progress == progress
        ]
        if not fits:
            return None
        at = self._at.get(key)
        return self._take(at if at in fits else fits[0])

    def _take(self, number: int) -> RecordedStep | None:
        if number in self._used:
            return None
        self._used.add(number)
        return self._steps[number]


def rebuild(recorded: RecordedDecision, screen: Screen, *, identity_chars: int | None) -> Decision | str:
    """The recorded decision as it replays on `screen`, or why it cannot: its text was withheld, its element
    is gone, or (`identity_chars` given: off the path) the element found is not the recorded one by ref
    and label both, its label's dynamic text aside (normalised at that many long-text characters)."""
    action = None
    if recorded.withheld:
        return (
            "the text typed into a password field is not kept (a password the app needs belongs in the "
            "spec's login, as a secret: `${NAME}`)"
        )
    if recorded.action is not None:
        action = recorded.action.resolve(screen)
        what = f"{recorded.action.ref or recorded.action.kind} ('{recorded.action.label}')"
        if action is None:
            return f"the recorded element {what} is gone"
        if identity_chars is not None and not _same_element(recorded.action, action, screen, identity_chars):
            return f"the element found for {what} is not the one recorded"
    return Decision(
        action,
        f"{REPLAY_PREFIX}: {recorded.reasoning}",
        recorded.expected,
        recorded.sub_feature,
        recorded.assessment,
        origin=Origin.REPLAY,
    )


def _same_element(recorded: RecordedAction, action: Action, screen: Screen, long_text_chars: int) -> bool:
    """Whether the element `action` found on `screen` is the recorded one by ref and by label, not only by
    one of them. An action on no element (back, a page scroll) has nothing to check."""
    if action.mark is None:
        return True
    mark = screen.mark(action.mark)
    same_label = normalize(mark.label, long_text_chars) == normalize(recorded.label, long_text_chars)
    return mark.ref == recorded.ref and same_label
