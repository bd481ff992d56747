"""pytest_fairy's own hooks, implemented in a user's conftest.py or plugin: adapt it without forking."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from pytest_fairy.devices.providers import DeviceProvider, FarmEntry
    from pytest_fairy.explore.action import Action
    from pytest_fairy.explore.decisions import Brain
    from pytest_fairy.explore.oracles import Finding, Observation
    from pytest_fairy.explore.record import Exploration, StepRecord
    from pytest_fairy.explore.target import Target
    from pytest_fairy.perception.screen import Screen
    from pytest_fairy.report.allure import Attachment


@pytest.hookspec(firstresult=True)
def pytest_fairy_make_brain(config: pytest.Config, target: Target, default: Brain) -> Brain | None:
    """Return the brain to explore `target` with (for example `default` wrapped), or None to keep it."""


def pytest_fairy_step(item: pytest.Item, record: StepRecord) -> None:
    """Called after every exploration step of `item`, with the step's record (SoM screenshot included)."""


def pytest_fairy_finished(item: pytest.Item, result: Exploration) -> None:
    """Called when the exploration of `item` ends, before its verdict is turned into a pytest outcome."""


@pytest.hookspec(firstresult=True)
def pytest_fairy_review_action(
    item: pytest.Item, action: Action, screen: Screen, step: int
) -> str | Action | None:
    """Called before step `step` of `item` takes `action` on `screen` (after the risk policy allowed it).

    Return a string to veto it: the reason is fed back to the brain as the step's denial and shown in the
    report. Return another `Action` (by a mark number of `screen`) to take it instead: the risk policy
    checks it too. None lets it go. A hook that raises ends the item inconclusive.
    """


def pytest_fairy_check(item: pytest.Item, observation: Observation) -> list[Finding] | None:
    """Called on every screen of `item`'s exploration: return the app defects you see on it.

    `observation` has the `screen` (its `text`, `marks`, `find_text`...), the `logcat` since the launch and
    the `state_name`. Each `Finding(kind, message, evidence)` fails the item, as a crash does.
    """


def pytest_fairy_step_attachments(item: pytest.Item, record: StepRecord) -> list[Attachment] | None:
    """Extra attachments for the Allure step of `record` (with --alluredir): a list of
    `pytest_fairy.report.allure.Attachment(name, body, mime)`."""


@pytest.hookspec(firstresult=True)
def pytest_fairy_device_provider(config: pytest.Config, url: FarmEntry) -> DeviceProvider | None:
    """Return the provider that books phones for a farm entry of --fairy-device (`url.provider` is the part
    before `+`: `myfarm` in `myfarm+https://farm:8000?sdk>=30`; `url.address`, `url.requirements`), or None
    to leave it to another plugin or to pytest_fairy's own (`stf`). See
    `pytest_fairy.devices.providers.DeviceProvider`."""
