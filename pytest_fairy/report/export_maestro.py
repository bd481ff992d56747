"""A defect's way as a Maestro flow (https://docs.maestro.dev): `launchApp`, then a command per move on
`id` / `text` selectors, then what should be on the screen once the defect is fixed.

Maestro's `text` and `id` are regular expressions that must match the whole text, so values are escaped
and a visible-text check reads `.*text.*`. It matches `text` against a view's text, hint and content
description alike, and its `index` counts matches by their place on the screen: a view told apart from
its look-alikes only by uiautomator's `instance` gets no flow. Maestro sees the screen, not the log
(mobile-dev-inc/Maestro#2346): for a crash or an ANR the flow checks the done-when texts the run never
saw because of it, and a defect no text tells (a judge's finding) gets no flow.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import yaml

from pytest_fairy.explore.action import ActionKind, Direction
from pytest_fairy.explore.reproduction import Move, Reproduction, Selector
from pytest_fairy.report.expectations import Unwritable, screen_checks
from pytest_fairy.report.typed import typed
from pytest_fairy.spec.model import OracleKind
from pytest_fairy.spec.secrets import PLACEHOLDER
from pytest_fairy.text import one_line

# What a regular expression (Java's, as Maestro's) treats as special.
_REGEX_SPECIAL = re.compile(r"([\\^$.|?*+()\[\]{}])")
# Older Maestro drivers refuse to type anything but ASCII on Android.
UNICODE_HEADER = (
    "# Needs Maestro 2.7.0 or later: on Android it types text other than ASCII by its own input method."
)
# Maestro's swipe names the finger's direction; an explorer's scroll names what comes into view.
_SWIPE = {Direction.DOWN: "UP", Direction.UP: "DOWN", Direction.RIGHT: "LEFT", Direction.LEFT: "RIGHT"}


def flow_file_name(identifier: str) -> str:
    return f"{identifier}.maestro.yaml"


def maestro_flow(reproduction: Reproduction, title: str) -> str:
    """The flow's YAML. Unwritable when the defect is not a text Maestro can look for (Maestro's CLI sees
    the screen only: mobile-dev-inc/Maestro#2346), or a move cannot be written as Maestro does it."""
    crash = reproduction.finding.kind == OracleKind.CRASH
    checks = () if crash else screen_checks(reproduction)
    if not checks and not crash:
        raise Unwritable(
            f"Maestro cannot check this defect ({reproduction.finding.kind}): it sees only the screen, "
            "and no text on it tells the defect"
        )
    commands: list[tuple[str, Any]] = [
        ("a fresh launch" + (", its data cleared" if reproduction.reset_data else ""), _launch(reproduction))
    ]
    env: dict[str, None] = {}
    moves, folded = reproduction.way.moves, 0
    for i, move in enumerate(moves, start=1):
        if i <= folded:
            continue
        scrolls, found = _scrolled_to(moves[i - 1 :])
        if found:
            folded = i + scrolls - 1
            through = f"-{folded}" if scrolls > 1 else ""
            commands.append((f"{i}{through}. {one_line(move.words)}, until the next element shows", found))
            continue
        for j, command in enumerate(_commands(move, i, env)):
            commands.append((f"{i}. {one_line(move.words)}" if j == 0 else "", command))
    if crash and not _app_ids(reproduction):
        raise Unwritable(
            "a crash closes the app, and Maestro sees only the screen: no view on the way has an id of the "
            "app's to see it still there by"
        )
    if crash:  # the app's own views still there: a crash closes its window
        still = {"assertVisible": {"id": f"{escape(reproduction.package)}:id/.*"}}
        commands.append(("should be: the app still in front after the last step (a crash closes it)", still))
    for check in checks:
        assert check.oracle is not None  # `screen_checks` keeps only texts on the screen
        text = f".*{escape(check.oracle.value)}.*"
        if check.oracle.kind is OracleKind.CHECKED:  # the switch named so, on or off
            switch = {"text": text, "checked": check.holds}
            commands.append((f"should be: {check}", {"assertVisible": switch}))
            continue
        shows = (check.oracle.kind is OracleKind.VISIBLE) == check.holds
        verb = "assertVisible" if shows else "assertNotVisible"
        commands.append((f"should be: {check}", {verb: {"text": text}}))
    header = [f"# {one_line(line)}" if line.strip() else "#" for line in title.splitlines()]
    if env:
        names = " ".join(f"-e {name}=..." for name in env)
        header.append(f"# Run: maestro test {names} <this file>")
    if any(isinstance(c, dict) and not str(c.get("inputText", "")).isascii() for _, c in commands):
        header.append(UNICODE_HEADER)
    if crash:
        header.append(
            "# Maestro cannot read the log: the flow checks that a view of the app is still on the screen "
            "after the last step, which the crash closed."
        )
    if reproduction.finding.kind == OracleKind.ANR:
        header.append(
            "# Maestro cannot read the log: the flow checks that what the feature waits for shows after "
            "the last step, which the run never saw because of the ANR. If the feature goes on past that "
            "step, add its remaining steps."
        )
    lines = [*header, yaml.safe_dump({"appId": reproduction.package}, sort_keys=False).strip(), "---"]
    for comment, command in commands:
        lines += [f"# {comment}"] if comment else []
        lines.append(_dump(command))
    return "\n".join(lines) + "\n"


def _app_ids(reproduction: Reproduction) -> bool:
    """Whether a view on the way is named by an id of the app's (`com.shop:id/pay`)."""
    prefix = f"{reproduction.package}:id/"
    return any(m.selector and m.selector.resource_id.startswith(prefix) for m in reproduction.way.moves)


def escape(text: str) -> str:
    """`Total: $15 (2)` -> `Total: \\$15 \\(2\\)`: literal text as a Maestro regular expression."""
    return _REGEX_SPECIAL.sub(r"\\\1", text)


def maestro_selector(selector: Selector) -> dict[str, Any]:
    if not (selector.resource_id or selector.text or selector.description):
        raise Unwritable(f"Maestro cannot select a view by its class ({selector.class_name}) alone")
    if selector.instance or (selector.text and selector.description):
        # Maestro's `index` counts matches by their place on the screen, and its `text` matches text,
        # hint and content description alike: uiautomator's `instance` in the tree does not carry over.
        raise Unwritable(f"Maestro would not find the same view by {selector} (views alike on one screen)")
    if any(PLACEHOLDER.search(v) for v in (selector.resource_id, selector.text, selector.description)):
        raise Unwritable(f"an element is named by a secret ({selector}): its value would be written down")
    found: dict[str, Any] = {}
    if selector.resource_id:
        found["id"] = escape(selector.resource_id)
    if selector.text or selector.description:
        found["text"] = escape(selector.text or selector.description)
    return found


def _scrolled_to(moves: tuple[Move, ...]) -> tuple[int, dict[str, Any] | None]:
    """For scrolls up or down the same way followed by a move on an element: how many, and the command
    that scrolls until that element shows, as Maestro does it. A swipe of Maestro's moves a list by its own
    distance, not the run's, so the same count of swipes could stop short of the element or pass it; and
    the run's whole-page scrolls leave the element well inside the list, with the rows after it on screen
    too (the next step may tap one): Maestro is told to bring it away from the edge (`centerElement`)."""
    first = moves[0]
    direction = Direction(first.action.direction or Direction.DOWN)
    if first.kind is not ActionKind.SCROLL or direction not in (Direction.DOWN, Direction.UP):
        return 0, None  # Maestro scrolls from the screen's centre: a row of cards sideways may be elsewhere
    scrolls = sum(1 for _ in itertools.takewhile(lambda m: _same_scroll(m, first), moves))
    after = moves[scrolls] if scrolls < len(moves) else None
    if after is None or after.selector is None or after.kind is ActionKind.SCROLL:
        return 0, None
    try:
        element = maestro_selector(after.selector)
    except Unwritable:
        return 0, None
    return scrolls, {
        "scrollUntilVisible": {"element": element, "direction": direction.name, "centerElement": True}
    }


def _same_scroll(move: Move, first: Move) -> bool:
    mine, theirs = move.action, first.action
    return (mine.kind, mine.ref, mine.direction) == (theirs.kind, theirs.ref, theirs.direction)


def _launch(reproduction: Reproduction) -> dict[str, Any]:
    return {
        "launchApp": {
            "appId": reproduction.package,
            "clearState": reproduction.reset_data,
            "stopApp": True,
        }
    }


def _commands(move: Move, i: int, env: dict[str, None]) -> list[Any]:
    action = move.action
    element = maestro_selector(move.selector) if move.selector is not None else None
    match move.kind:
        case ActionKind.TAP if element is not None:
            return [{"tapOn": element}]
        case ActionKind.LONG_TAP if element is not None:
            return [{"longPressOn": element}]
        case ActionKind.TYPE if element is not None:
            return [{"tapOn": element}, *_erased(move.held), {"inputText": _typed(move, i, env)}]
        case ActionKind.SCROLL:
            direction = _SWIPE[Direction(action.direction or Direction.DOWN)]
            if element is None and direction == "UP":
                return ["scroll"]
            swipe: dict[str, Any] = {"direction": direction}
            if element is not None:
                swipe["from"] = element
            return [{"swipe": swipe}]
        case ActionKind.BACK:
            return ["back"]
        case ActionKind.ENTER:
            return [{"pressKey": "Enter"}]
        case ActionKind.RESTART:  # the app under test stopped and launched again, its data kept
            return ["stopApp", "launchApp"]
    raise Unwritable(f"step {i} ({move.words}) acts on a view with nothing to find it by")


def _erased(held: int) -> list[dict[str, int]]:
    """What the field showed, erased before typing as the run's typing replaced it: one `eraseText` of as
    many characters (Maestro's Android driver empties the whole field, wherever the cursor is, when asked
    for at least its length). A hint a phone reports as the field's text costs a few presses of delete on
    an empty field, nothing more."""
    return [{"eraseText": held}] if held else []


def _typed(move: Move, i: int, env: dict[str, None]) -> str:
    """What is secret as Maestro parameters, `${NAME}` (`maestro test -e NAME=...`). Maestro runs `${...}`
    in literal text as JavaScript; on Android it types text other than ASCII through its own input method
    since 2.7.0 (`UNICODE_HEADER`)."""
    parts = []
    for piece in typed(move, i):
        if piece.from_env:
            env[piece.text] = None
        elif "${" in piece.text:
            raise Unwritable(f"step {i} types {piece.text!r}: Maestro would run it as JavaScript")
        parts.append("${" + piece.text + "}" if piece.from_env else piece.text)
    return "".join(parts)


def _dump(command: Any) -> str:
    return yaml.safe_dump([command], allow_unicode=True, sort_keys=False, width=1000).rstrip()
