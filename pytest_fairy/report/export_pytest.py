"""A defect's way as a plain pytest test on uiautomator2: each move found by resource id, text or content
description (never coordinates), secrets read from the environment, the defect as the final assertion.

The test is written from `templates/reproduce_test.py.tmpl`; this module writes its body: one line per
move, and the checks of `expectations.py`. A defect whose check no uiautomator2 test can express has no
test (`python_test` raises Unwritable, saying why), as a test that cannot fail would mislead.
"""

from __future__ import annotations

import functools
import re
from importlib import resources
from string import Template

from pytest_fairy.explore.action import ActionKind, Direction
from pytest_fairy.explore.reproduction import Move, Reproduction, Selector
from pytest_fairy.report.expectations import Expectation, Unwritable, expectations
from pytest_fairy.report.typed import typed
from pytest_fairy.spec.model import OracleKind
from pytest_fairy.spec.secrets import PLACEHOLDER
from pytest_fairy.text import one_line

INDENT = "    "


def identifier(name: str) -> str:
    """A feature's name as a Python identifier and a file-name part: `check for updates` ->
    `check_for_updates` (CJK letters are kept: Python allows them in names)."""
    name = re.sub(r"\W+", "_", name.casefold())
    # `\w` takes letters no name may hold (`①`, `²`): those go too.
    kept = "".join(c if ("a" + c).isidentifier() else "_" for c in name)
    return re.sub(r"_+", "_", kept).strip("_") or "feature"


def reproduction_file_name(feature: str) -> str:
    return f"test_reproduce_{identifier(feature)}.py"


def python_test(reproduction: Reproduction, feature: str, title: str, about: str) -> str:
    """The test's source. Unwritable when no check of the defect can be written, or a move cannot."""
    wanted = expectations(reproduction)
    if wanted.missing or not wanted.checks:
        # A check left out could be the one that fails: the rest would pass while the defect is there.
        raise Unwritable("no uiautomator2 check can tell the defect: " + "; ".join(wanted.missing))
    checks = wanted.checks
    body: list[str] = []
    env: dict[str, None] = {}
    moves = reproduction.way.moves
    for i, move in enumerate(moves, start=1):
        body.append(f"# {i}. {one_line(move.words)} (on {one_line(move.on_title) or 'the screen'})")
        if i == len(moves) and any(check.oracle is None for check in checks):
            body.append("before = _screen(d)")
        body += _move_lines(move, i, env)
        body.append("_settle(d)")
    body.append(f"# The defect: {one_line(reproduction.finding.message)}")
    for check in checks:
        body += _check_lines(check)
    needs_env = ""
    if env:
        names = " ".join(f"{name}=..." for name in env)
        needs_env = f"\nwith the values it types in the environment: {names}\n"
    return _template().substitute(
        title=_docstring(title),
        about=_docstring(about),
        filename=reproduction_file_name(feature),
        needs_env=needs_env,
        environment=repr(tuple(env)),
        package=repr(reproduction.package),
        app_name=repr(reproduction.app_name),
        activity=repr(reproduction.activity),
        clear_data=repr(reproduction.reset_data),
        test_name=f"test_{identifier(feature)}",
        body="\n".join(INDENT + line for line in body),
    )


@functools.cache
def _template() -> Template:
    path = resources.files("pytest_fairy").joinpath("report", "templates", "reproduce_test.py.tmpl")
    return Template(path.read_text(encoding="utf-8"))


def selector_call(selector: Selector) -> str:
    """`d(resourceId='…', text='…', instance=1)`."""
    fields = (
        ("resourceId", selector.resource_id),
        ("text", selector.text),
        ("description", selector.description),
        ("className", selector.class_name),
    )
    if any(PLACEHOLDER.search(value) for _, value in fields):
        raise Unwritable(f"an element is named by a secret ({selector}): its value would be written down")
    arguments = [f"{name}={value!r}" for name, value in fields if value]
    if selector.instance:
        arguments.append(f"instance={selector.instance}")
    return f"d({', '.join(arguments)})"


def _move_lines(move: Move, i: int, env: dict[str, None]) -> list[str]:
    action = move.action
    element = selector_call(move.selector) if move.selector is not None else None
    match move.kind:
        case ActionKind.TAP | ActionKind.LONG_TAP if element is not None:
            return [f"{element}.{'click' if move.kind is ActionKind.TAP else 'long_click'}()"]
        case ActionKind.TYPE if element is not None:
            return [f"{element}.set_text({_typed(move, i, env)})"]
        case ActionKind.SCROLL:
            direction = action.direction or Direction.DOWN.value
            within = f", {element}" if element is not None else ""
            return [f"_scroll(d, {direction!r}{within})"]
        case ActionKind.BACK:
            return ['d.press("back")']
        case ActionKind.ENTER:
            return ['d.press("enter")']
        case ActionKind.RESTART:
            return ["d.app_stop(PACKAGE)", "d.app_start(PACKAGE, ACTIVITY)"]
    raise Unwritable(f"step {i} ({move.words}) acts on a view with nothing to find it by")


def _typed(move: Move, i: int, env: dict[str, None]) -> str:
    """The text as a Python expression, what is secret read from the environment."""
    parts = []
    for piece in typed(move, i):
        if piece.from_env:
            env[piece.text] = None
        parts.append(f"os.environ[{piece.text!r}]" if piece.from_env else repr(piece.text))
    return " + ".join(parts)


def _check_lines(check: Expectation) -> list[str]:
    """A done-when condition is waited for until it holds; a must-not condition (a crash, a text) is
    watched for the whole wait, and the test fails when it holds. A step that must change the screen is
    waited for until the screen differs from the one it was taken on."""
    if check.oracle is None:
        return [f"assert _within(WAIT_SECONDS, lambda: _screen(d) != before), {f'not so: {check}'!r}"]
    kind, value, holds = check.oracle.kind, check.oracle.value, check.holds
    match kind:
        case OracleKind.CRASH | OracleKind.ANR:
            what = "crashed" if kind is OracleKind.CRASH else "is not responding"
            return [
                f"found = _within({'ANR_WAIT_SECONDS' if kind is OracleKind.ANR else 'WAIT_SECONDS'}, "
                f"lambda: _{kind.value}(d))",
                f'assert not found, f"the app {what}:\\n{{found}}"',
            ]
        case OracleKind.VISIBLE:
            probe = f"_visible(d, {value!r})"
        case OracleKind.NOT_VISIBLE:
            probe = f"not _visible(d, {value!r})"
        case OracleKind.ACTIVITY:
            probe = f"_activity_is(d, {value!r})"
        case OracleKind.CHECKED:
            probe = f"_checked(d, {value!r})"
        case OracleKind.TEXT_MATCHES:
            probe = f"_text_matching(d, {value!r})"
        case OracleKind.LOGCAT_MATCHES:
            probe = f"_log_line(d, {value!r})"
        case _:
            raise Unwritable(f"no uiautomator2 check for {check}")
    if holds:
        never = f"not so: {check}" if check.about else f"never {check.oracle}"
        return [f"assert _within(WAIT_SECONDS, lambda: {probe}), {never!r}"]
    seen = f"not so: {check}" if check.about else f"seen: {check.oracle}"
    return [f"assert not _within(WAIT_SECONDS, lambda: {probe}), {seen!r}"]


def _docstring(text: str) -> str:
    """Text inside the module's docstring: a backslash or three quotes in a message would end it."""
    return text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
