"""The project's `pytest_fairy_check` and `pytest_fairy_review_action` hooks, as a Mission's checks and
review: the explorer asks them without knowing pytest."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

import pytest

from pytest_fairy.errors import HookError
from pytest_fairy.explore.action import Action
from pytest_fairy.explore.mission import Mission
from pytest_fairy.explore.oracles import Finding, Observation
from pytest_fairy.perception.screen import Screen


def with_project_hooks(mission: Mission, item: pytest.Item) -> Mission:
    """`mission` with the project's pytest_fairy_check and pytest_fairy_review_action hooks in it."""
    hook = item.config.hook

    def check(observation: Observation) -> list[Finding]:
        with _hook_errors("pytest_fairy_check"):
            found = hook.pytest_fairy_check(item=item, observation=observation)
        findings = [finding for findings in found for finding in findings or ()]
        if not all(isinstance(f, Finding) for f in findings):
            raise HookError(f"a pytest_fairy_check hook returned {findings!r}: expected a list of Finding")
        return findings

    def second_opinion(action: Action, screen: Screen, step: int) -> str | Action | None:
        with _hook_errors("pytest_fairy_review_action"):
            verdict = hook.pytest_fairy_review_action(item=item, action=action, screen=screen, step=step)
        if verdict is not None and not isinstance(verdict, str | Action):
            raise HookError(
                f"a pytest_fairy_review_action hook returned {verdict!r}: expected a reason (str) to veto, "
                "an Action to take instead, or None"
            )
        return verdict

    return replace(mission, checks=(*mission.checks, check), review=second_opinion)


@contextmanager
def _hook_errors(name: str) -> Iterator[None]:
    """A project's hook that raises ends the item inconclusive, its steps and tree kept, not lost."""
    try:
        yield
    except Exception as exc:
        raise HookError(f"a {name} hook raised {type(exc).__name__}: {exc}") from exc
