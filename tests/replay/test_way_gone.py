"""A rebuilt app without a screen the recording went through: cached replay says the way is gone and stops,
with no request, where the recording is sure; where it is not, the LLM is asked as for any changed screen.

The runs go through the real anthropic SDK to the local fake Messages server (`test_replay_by_screen`'s
`Run`); the recording is the food app's delivery-time run: home, the dialog as it opens, the dialog with
预约送餐 chosen, the delivery page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from fairy_virtual import VirtualDevice
from pytest_fairy.explore.explorer import Explorer
from pytest_fairy.explore.verdict import Verdict
from pytest_fairy.replay import CacheMode, CachingBrain, DecisionCache
from pytest_fairy.replay.recording import RecordedStep
from pytest_fairy.replay.way import look, way_gone
from tests.replay.builds import ALREADY_CHOSEN, DELIVERY_TO_COUPONS, HOME_HOURS, NO_DIALOG, write_build
from tests.replay.helpers import newest_file, stages
from tests.replay.test_replay_by_screen import MISSION, SPEC, TARGET, edit_recording, recorded, rerun

__all__ = ["recorded"]  # the fixture, recorded once per test


def test_a_dropped_dialog_ends_the_item_naming_its_screens_without_a_request(
    recorded: DecisionCache, tmp_path: Path
) -> None:
    kept = newest_file(recorded, SPEC, TARGET.feature)
    gone, bodies = rerun(write_build(tmp_path / "no-dialog.yaml", *NO_DIALOG), recorded)
    assert bodies == []
    assert gone.result.verdict is Verdict.INCONCLUSIVE
    reason = gone.result.reason
    assert reason.startswith("the recorded way is gone: 'tap 麦乐送' on state_home_")
    assert reason.count("+dlg_") == 2 and "cached replay does not explore for them anew" in reason
    assert gone.replayed == [True] and gone.brain.replayed == 2  # the plan and the tap on 麦乐送
    assert "stopped: the recorded way is gone" in gone.result.summary
    # Nothing was decided: the recording stays the newest, for a build that brings the dialog back.
    assert newest_file(recorded, SPEC, TARGET.feature) == kept


def test_strict_replay_says_the_way_is_gone_too(recorded: DecisionCache, tmp_path: Path) -> None:
    strict = CachingBrain(None, recorded, SPEC, CacheMode.STRICT)
    app = write_build(tmp_path / "no-dialog.yaml", *NO_DIALOG)
    result = Explorer(VirtualDevice(app, latency=False), strict).explore(TARGET, MISSION)
    assert result.verdict is Verdict.INCONCLUSIVE and result.reason.startswith("the recorded way is gone: ")


def test_a_skipped_screen_the_feature_did_not_need_replays_on(
    recorded: DecisionCache, tmp_path: Path
) -> None:
    """The time comes chosen: 麦乐送 leads past both dialog screens to the delivery page as the recording
    ended on it, whose recorded judgement replays: the feature is done, not gone."""
    skipped, bodies = rerun(write_build(tmp_path / "chosen.yaml", *ALREADY_CHOSEN), recorded)
    assert skipped.result.verdict is Verdict.PASSED, skipped.result.reason
    assert stages(bodies) == ["summarize"]


def test_a_screen_the_recording_never_saw_is_asked_about(recorded: DecisionCache, tmp_path: Path) -> None:
    """麦乐送 opens a page the run never saw: perhaps a new step on the way; the model is asked."""
    elsewhere, bodies = rerun(write_build(tmp_path / "coupons.yaml", *DELIVERY_TO_COUPONS), recorded)
    assert stages(bodies)[0] == "next_action"
    assert "the recorded way is gone" not in elsewhere.result.reason


def test_after_a_live_step_the_recording_says_nothing_of_where_it_led(
    recorded: DecisionCache, tmp_path: Path
) -> None:
    """Home changed too: the tap on 麦乐送 was the model's, not replayed, so where it led says nothing about
    the recorded way; the model is asked on."""
    changed, bodies = rerun(write_build(tmp_path / "both.yaml", HOME_HOURS, *NO_DIALOG), recorded)
    assert stages(bodies)[:3] == ["plan", "next_action", "next_action"]
    assert "the recorded way is gone" not in changed.result.reason


def test_a_recorded_step_that_did_not_follow_at_once_proves_nothing(
    recorded: DecisionCache, tmp_path: Path
) -> None:
    """The dialog's step recorded as if an escape had come between it and home's: what home's action led to
    when recorded is not known, so the model is asked."""

    def escape_between(document: dict[str, Any]) -> None:
        for step in document["steps"][1:]:
            step["step"] += 1

    edit_recording(recorded, escape_between)
    changed, bodies = rerun(write_build(tmp_path / "no-dialog.yaml", *NO_DIALOG), recorded)
    assert stages(bodies)[0] == "next_action"
    assert "the recorded way is gone" not in changed.result.reason


def step(state: str, title: str, number: int) -> RecordedStep:
    return RecordedStep(state, 0, "", state.split("|")[0].rsplit(".", 1)[-1], title, number)


HOME = step("app.Home|h1|", "首页", 1)
DIALOG = step("app.List|l1|d1", "列表", 2)
PAGE = step("app.List|l2|", "列表", 3)


@pytest.mark.parametrize(
    ("reached", "gone"),
    [
        (step("app.List|l9|", "列表", 2), True),  # past the dialog, to a page like the last one
        (step("app.List|l9|d9", "列表", 2), False),  # the dialog changed: it looks the same
        (step("app.List|l1|d1", "列表", 2), False),  # the very screen recorded
        (step("app.Other|o1|", "别处", 2), False),  # a screen the recording never saw
    ],
)
def test_the_way_is_gone_only_past_a_screen_that_does_not_look_the_same(
    reached: RecordedStep, gone: bool
) -> None:
    assert bool(way_gone([HOME, DIALOG, PAGE], 0, reached)) is gone
    assert way_gone([HOME, DIALOG, PAGE], 2, reached) == ""  # the last step led nowhere recorded
    assert look("a|b|c", "t") == ("a", "t", True) and look("a|b|", "t") == ("a", "t", False)
