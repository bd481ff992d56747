"""Replay by screen: once a run has left its recording (a changed screen was decided live), it replays
again wherever it reaches a screen the recording knows - same state, same content, same progress of the
feature - so a changed screen costs its own calls, not the rest of the run's.

The runs go through the real anthropic SDK to the local fake Messages server, whose requests are counted;
the food app's delivery-time run sees four screens: home, the dialog as it opens, the dialog with 预约送餐
chosen, the delivery page (`tests/replay/builds.py` changes some of them)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairy_virtual import VirtualDevice
from pytest_fairy.brain.claude import ClaudeBrain, ClaudeSettings
from pytest_fairy.brain.claude_api import make_client
from pytest_fairy.explore.decisions import Judgement, Plan
from pytest_fairy.explore.explorer import Explorer
from pytest_fairy.explore.mission import Mission
from pytest_fairy.explore.record import Exploration, StepRecord
from pytest_fairy.explore.target import Target
from pytest_fairy.explore.verdict import Verdict
from pytest_fairy.replay import CacheMode, CachingBrain, DecisionCache, Recording
from pytest_fairy.replay.recording import RecordedStep
from pytest_fairy.spec.model import Oracle, OracleKind
from tests.claude import answers
from tests.claude.fake_api import FakeMessagesAPI, Reply, tool_reply
from tests.claude.stages import stage_of
from tests.replay.builds import ASAP_ETA, DIALOG_NOTICE, HOME_HOURS, write_build
from tests.replay.helpers import (
    FAKE_KEY,
    FOOD_APP,
    delivery_time_model,
    edit_newest,
    newest_file,
    screen_text,
    stages,
)

SPEC = "suites/test_food.yaml"
TARGET = Target(app_name="麦当劳", package="com.mcdonalds.gma.cn", feature="delivery time",
                goal="选择送达时间：在弹窗中选择预约送餐并确定", max_steps=10)  # fmt: skip
MISSION = Mission(done_when=(Oracle(kind=OracleKind.VISIBLE, value="送达时间：预约送餐"),
                             Oracle(kind=OracleKind.NOT_VISIBLE, value="请选择您的送达时间")))  # fmt: skip
FIRST_RUN = ["plan", "next_action", "next_action", "next_action", "judge", "summarize"]
CONFIRM = "dialog_root/btn_confirm"  # the ref of 确定, tapped on the third screen
Responder = Callable[[dict[str, Any]], Reply]
Bodies = list[dict[str, Any]]


class Run:
    """One exploration with the caching Claude brain: its result, brain and which steps were replayed."""

    def __init__(self, app: Path, cache: DecisionCache, api: FakeMessagesAPI, mode: CacheMode) -> None:
        settings = ClaudeSettings(timeout_seconds=5.0, max_retries=0)
        client = make_client(settings, api_key=FAKE_KEY, base_url=api.url, _strict_response_validation=True)
        self.brain = CachingBrain(ClaudeBrain(settings, client=client), cache, SPEC, mode)
        self.replayed: list[bool] = []
        explorer = Explorer(VirtualDevice(app, latency=False), self.brain, sinks=[self])
        self.result: Exploration = explorer.explore(TARGET, MISSION)

    def start(self, target: Target, plan: Plan) -> None: ...

    def step(self, record: StepRecord) -> None:
        self.replayed.append(record.replayed)

    def finish(self, result: Exploration) -> None: ...


@pytest.fixture
def recorded(tmp_path: Path) -> DecisionCache:
    """The food app's delivery-time run, recorded by the model: six calls."""
    cache = DecisionCache(tmp_path / "cache")
    with FakeMessagesAPI(responder=delivery_time_model) as api:
        first = Run(FOOD_APP, cache, api, CacheMode.CACHED)
    assert first.result.verdict is Verdict.PASSED, first.result.reason
    assert stages(api.bodies) == FIRST_RUN
    return cache


def rerun(app: Path, cache: DecisionCache, responder: Responder = delivery_time_model) -> tuple[Run, Bodies]:
    """A cached run of `app`; the requests it made, counted by the fake API."""
    with FakeMessagesAPI(responder=responder) as api:
        again = Run(app, cache, api, CacheMode.CACHED)
    return again, api.bodies


def edit_recording(cache: DecisionCache, change: Callable[[dict[str, Any]], None]) -> Path:
    return edit_newest(cache, SPEC, TARGET.feature, change)


def confirm_step(document: dict[str, Any]) -> dict[str, Any]:
    (step,) = [s for s in document["steps"] if s["decision"] and s["decision"]["action"]["ref"] == CONFIRM]
    return step


# -------------------------------------------------------------------------- later screens replay again


def test_after_one_changed_screen_the_later_screens_replay(recorded: DecisionCache, tmp_path: Path) -> None:
    """The dialog as it opens changed: its decision is the model's; the dialog with 预约送餐 chosen and the
    judge on the delivery page replay. The summary is written anew: its story names the changed screen."""
    changed, bodies = rerun(write_build(tmp_path / "eta.yaml", ASAP_ETA), recorded)

    assert changed.result.verdict is Verdict.PASSED, changed.result.reason
    assert stages(bodies) == ["next_action", "summarize"]
    assert "尽快送达：约 30 分钟" in screen_text(bodies[0])
    assert changed.replayed == [True, False, True]
    assert changed.brain.replayed == 4  # the plan, two steps and the judgement
    assert changed.brain.divergence.startswith("no recorded decision for state state_productmdslist_")

    # Recorded anew, with the screens' content and the feature's progress: a rerun is all replay.
    again, bodies = rerun(write_build(tmp_path / "eta.yaml", ASAP_ETA), recorded)
    assert again.result.verdict is Verdict.PASSED and bodies == [] and again.replayed == [True] * 3


def test_three_changed_screens_cost_their_own_calls(recorded: DecisionCache, tmp_path: Path) -> None:
    """Home and both dialog screens changed: the plan (made on home) and their three decisions are the
    model's; the judge on the unchanged delivery page replays."""
    changed, bodies = rerun(write_build(tmp_path / "three.yaml", HOME_HOURS, DIALOG_NOTICE), recorded)
    assert changed.result.verdict is Verdict.PASSED, changed.result.reason
    assert stages(bodies) == ["plan", "next_action", "next_action", "next_action", "summarize"]


# ------------------------------------------------------------------------- a replayed decision is checked


def test_a_decision_whose_element_vanished_is_decided_live(recorded: DecisionCache, tmp_path: Path) -> None:
    def vanish(document: dict[str, Any]) -> None:
        confirm_step(document)["decision"]["action"].update(ref="dialog_root/btn_gone", label="不存在")

    edit_recording(recorded, vanish)
    changed, bodies = rerun(write_build(tmp_path / "eta.yaml", ASAP_ETA), recorded)
    assert changed.result.verdict is Verdict.PASSED, changed.result.reason
    assert stages(bodies) == ["next_action", "next_action", "summarize"]
    assert changed.replayed == [True, False, False]


def test_off_the_path_an_element_found_by_its_label_alone_is_not_the_recorded_one(
    recorded: DecisionCache, tmp_path: Path
) -> None:
    """确定 recorded under another ref: on the path a unique label finds it, as ever; off the path (after
    a live step) ref and label must both be the recorded ones, so the step is decided live."""

    def move(document: dict[str, Any]) -> None:
        confirm_step(document)["decision"]["action"]["ref"] = "dialog_footer/btn_confirm"

    path = edit_recording(recorded, move)
    kept = path.read_text(encoding="utf-8")
    unchanged, bodies = rerun(FOOD_APP, recorded)
    assert unchanged.result.verdict is Verdict.PASSED and bodies == []

    path.write_text(kept, encoding="utf-8")
    changed, bodies = rerun(write_build(tmp_path / "eta.yaml", ASAP_ETA), recorded)
    assert changed.result.verdict is Verdict.PASSED, changed.result.reason
    assert stages(bodies) == ["next_action", "next_action", "summarize"]
    assert "is not the one recorded" not in changed.brain.divergence  # the first miss is the changed screen


def test_a_decision_is_never_replayed_on_another_screen(recorded: DecisionCache, tmp_path: Path) -> None:
    """The step on the dialog with 预约送餐 chosen, as if recorded on another state: its element, the
    screen's content and the feature's progress all fit the screen the run reaches, its state does not."""

    def elsewhere(document: dict[str, Any]) -> None:
        step = confirm_step(document)
        step["state"] = step["state"].rsplit("|", 1)[0] + "|0123456789abcdef"

    edit_recording(recorded, elsewhere)
    changed, bodies = rerun(write_build(tmp_path / "eta.yaml", ASAP_ETA), recorded)
    assert changed.result.verdict is Verdict.PASSED, changed.result.reason
    assert stages(bodies) == ["next_action", "next_action", "summarize"]
    assert changed.replayed == [True, False, False]


def test_a_decision_made_under_another_plan_is_not_replayed_by_screen(
    recorded: DecisionCache, tmp_path: Path
) -> None:
    """Home changed, and the model's new plan has other sub-features: the recorded decisions worked on
    sub-features this run does not know, so none is replayed by screen."""

    def another_plan(request: dict[str, Any]) -> Reply:
        if stage_of(request) == "plan":
            return tool_reply(
                "plan", {**answers.PLAN, "sub_features": [{"name": "checkout", "description": ""}]}
            )
        return delivery_time_model(request)

    changed, bodies = rerun(write_build(tmp_path / "home.yaml", HOME_HOURS), recorded, responder=another_plan)
    assert changed.result.verdict is Verdict.PASSED, changed.result.reason
    assert stages(bodies) == FIRST_RUN
    assert changed.brain.replayed == 0


# ------------------------------------------------------------------------------ strict replay, old files


def test_strict_replay_still_ends_inconclusive_at_the_first_changed_screen(
    recorded: DecisionCache, tmp_path: Path
) -> None:
    strict = CachingBrain(None, recorded, SPEC, CacheMode.STRICT)
    app = write_build(tmp_path / "eta.yaml", ASAP_ETA)
    result = Explorer(VirtualDevice(app, latency=False), strict).explore(TARGET, MISSION)
    assert result.verdict is Verdict.INCONCLUSIVE
    assert "no recorded decision for state state_productmdslist_" in result.reason
    assert result.steps == 1


def test_a_step_reached_another_way_is_found_by_screen_but_ends_strict_replay(
    recorded: DecisionCache, tmp_path: Path
) -> None:
    """The recording says the dialog with 预约送餐 chosen was reached by another action: the run's position
    is not in it. Cached replay finds the step by its screen (no call; the file is left as it was);
    strict replay finds by position only, and its miss ends the item inconclusive."""

    def reached_otherwise(document: dict[str, Any]) -> None:
        confirm_step(document)["after"] = "tap|rg_delivery_time/rb_asap||"

    path = edit_recording(recorded, reached_otherwise)
    kept = path.read_text(encoding="utf-8")
    cached, bodies = rerun(FOOD_APP, recorded)
    assert cached.result.verdict is Verdict.PASSED and bodies == [] and cached.replayed == [True] * 3
    assert path.read_text(encoding="utf-8") == kept

    strict = CachingBrain(None, recorded, SPEC, CacheMode.STRICT)
    result = Explorer(VirtualDevice(FOOD_APP, latency=False), strict).explore(TARGET, MISSION)
    assert result.verdict is Verdict.INCONCLUSIVE
    assert (
        "no decision recorded for visit 1 of this state after 'tap|rg_delivery_time/rb_schedule"
        in result.reason
    )


def test_a_recording_without_screens_and_progress_replays_on_its_path_only(
    recorded: DecisionCache, tmp_path: Path
) -> None:
    """A recording written before steps kept their screen's content and the feature's progress loads
    and replays on its path; once the run leaves the path nothing of it is trusted, as then."""

    def old_format(document: dict[str, Any]) -> None:
        for step in document["steps"]:
            del step["content"], step["progress"]
            for judgement in step["judgements"]:
                del judgement["phase_complete"]

    path = edit_recording(recorded, old_format)
    old = path.read_text(encoding="utf-8")
    unchanged, bodies = rerun(FOOD_APP, recorded)
    assert unchanged.result.verdict is Verdict.PASSED and bodies == []

    changed, bodies = rerun(write_build(tmp_path / "eta.yaml", ASAP_ETA), recorded)
    assert stages(bodies) == ["next_action", "next_action", "judge", "summarize"]
    # Recorded anew: a new version beside the old one, with the screens' content and the feature's progress.
    newest = newest_file(recorded, SPEC, TARGET.feature)
    assert newest != path and path.read_text(encoding="utf-8") == old
    assert '"progress"' in newest.read_text(encoding="utf-8")


def test_a_judgement_keeps_whether_its_phase_was_complete() -> None:
    """A replayed judge's "this sub-feature is done" ends the sub-feature as the live one did."""
    judgement = Judgement(False, "the menu is done", phase_complete=True)
    recording = Recording(SPEC, "f", "t", steps=[RecordedStep("s", 0, "", judgements=[judgement])])
    assert Recording.from_json(recording.to_json()).steps[0].judgements == [judgement]
