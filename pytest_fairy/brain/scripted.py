"""The scripted brain: follows a fixed list of steps written in words, resolved on each screen by label.

Useful for smoke flows that must take a known path, and for tests of everything around the brain.
A step is one of: `tap LABEL`, `long_tap LABEL`, `type LABEL = TEXT`, `scroll [LABEL] down|up`, `back`,
`enter`, `restart`. LABEL matches a mark's text / content-desc / id, exactly first, then as a substring.
When the script runs out the brain declares the feature explored.
"""

from __future__ import annotations

from collections.abc import Sequence

from pytest_fairy.errors import BrainError
from pytest_fairy.explore.action import Action, ActionKind, Direction
from pytest_fairy.explore.decisions import Decision, Judgement, Plan, StepContext, Usage
from pytest_fairy.explore.target import Target
from pytest_fairy.perception.screen import Mark, Screen

_NO_LABEL = {"back": ActionKind.BACK, "enter": ActionKind.ENTER, "restart": ActionKind.RESTART}
_WITH_LABEL = {"tap": ActionKind.TAP, "long_tap": ActionKind.LONG_TAP}


class ScriptedBrain:
    name = "scripted"
    model: str | None = None

    def __init__(self, script: Sequence[str]) -> None:
        for number, line in enumerate(script, 1):
            verb = line.split(maxsplit=1)[0] if line.strip() else ""
            if verb not in {*_NO_LABEL, *_WITH_LABEL, "type", "scroll"}:
                raise ValueError(f"script step {number}: {line!r} does not start with a known verb")
        self._script = list(script)
        self._next = 0

    def plan(self, target: Target, screen: Screen, som_jpeg: bytes = b"") -> Plan:
        return Plan(root=target.feature, sub_features=target.sub_features, steps=tuple(self._script))

    def decide(self, ctx: StepContext) -> Decision:
        if self._next >= len(self._script):
            return Decision(None, "the script is done")
        line = self._script[self._next]
        self._next += 1
        return Decision(_resolve(line, ctx.screen), f"script step {self._next}: {line}")

    def judge(self, ctx: StepContext) -> Judgement:
        if ctx.unmet_oracles and not ctx.oracles_met:
            return Judgement(False, "still unmet: " + "; ".join(ctx.unmet_oracles))
        return Judgement(True, "the script ran to its end")

    def summarize(self, target: Target, story: str) -> str:
        return f"Scripted run of '{target.feature}'.\n{story}"

    def usage(self) -> Usage:
        return Usage()


def _resolve(line: str, screen: Screen) -> Action:
    verb, _, rest = line.strip().partition(" ")
    rest = rest.strip()
    if verb in _NO_LABEL:
        return Action(_NO_LABEL[verb])
    if verb in _WITH_LABEL:
        return Action(_WITH_LABEL[verb], _find(rest, screen, line).number)
    if verb == "type":
        label, sep, text = rest.partition("=")
        if not sep:
            raise BrainError(f"script step {line!r}: expected 'type LABEL = TEXT'")
        return Action(ActionKind.TYPE, _find(label.strip(), screen, line).number, text.strip())
    words = rest.rsplit(" ", 1) if rest else []
    direction = (
        Direction(words[-1]) if words and words[-1] in Direction._value2member_map_ else Direction.DOWN
    )
    label = words[0] if len(words) == 2 or (words and words[-1] not in Direction._value2member_map_) else ""
    mark = _find(label, screen, line) if label else None
    return Action(ActionKind.SCROLL, mark.number if mark else None, direction=direction)


def _find(label: str, screen: Screen, line: str) -> Mark:
    for exact in (True, False):
        for mark in screen.marks:
            names = (mark.node.text, mark.node.content_desc, mark.node.resource_id, mark.label)
            if any((name == label) if exact else (label in name) for name in names if name):
                return mark
    raise BrainError(f"script step {line!r}: no element labelled {label!r} on this screen")
