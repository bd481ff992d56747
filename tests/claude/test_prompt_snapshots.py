"""Snapshots of what the model is shown in the delivery-dialog loop: a run toggling 预约送餐 / 尽快送达 in the
delivery-time dialog of the food app, on the virtual device, through the real explorer, guard and SDK.

The step message's text must show the recent state sequence with visit counts and the loop guard's
warning. The whole text is compared with a file under tests/claude/snapshots/; after an intended change
to a prompt template or to what the explorer feeds the brain, rewrite the files and review the diff:

    FAIRY_UPDATE_SNAPSHOTS=1 /work/venv/bin/pytest tests/claude/test_prompt_snapshots.py
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from fairy_virtual import VirtualDevice
from fairy_virtual.clock import ManualClock
from pytest_fairy.brain.claude import ClaudeBrain, ClaudeSettings
from pytest_fairy.brain.claude_api import make_client
from pytest_fairy.explore.explorer import Explorer
from pytest_fairy.explore.mission import Mission
from pytest_fairy.explore.target import Target
from pytest_fairy.spec.model import Oracle, OracleKind
from tests.claude import answers
from tests.claude.conftest import FAKE_KEY
from tests.claude.fake_api import FakeMessagesAPI, Reply, tool_reply
from tests.claude.stages import stage_of
from tests.claude.test_round_trips import user_text

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE_ENV = "FAIRY_UPDATE_SNAPSHOTS"
FOOD = Path(__file__).resolve().parents[2] / "example_suites" / "food"
TOGGLES = ("预约送餐", "尽快送达")


def matches_snapshot(name: str, text: str) -> None:
    """Compare `text` with snapshots/NAME; with FAIRY_UPDATE_SNAPSHOTS=1, (re)write the file instead."""
    path = SNAPSHOTS / name
    if os.environ.get(UPDATE_ENV) == "1":
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    if not path.exists():
        pytest.fail(f"no snapshot {path}: run with {UPDATE_ENV}=1 to write it, then review it", pytrace=False)
    expected = path.read_text(encoding="utf-8")
    assert text == expected, f"{path} differs from the prompt sent; if intended, rerun with {UPDATE_ENV}=1"


class DialogToggler:
    """Seed 001's planner: opens 麦乐送, then taps 预约送餐 and 尽快送达 in turn and never confirms;
    when the guard's escape has closed the dialog, it is done."""

    def __init__(self) -> None:
        self.turn = 0

    def __call__(self, request: dict[str, Any]) -> Reply:
        stage = stage_of(request)
        if stage != "next_action":
            fixed = {"plan": answers.PLAN, "judge": {**answers.JUDGE, "verdict": "continue",
                                                      "feature_completed": False}, "summarize": answers.SUMMARY}
            return tool_reply(stage, fixed[stage])
        screen = user_text(request).rsplit("## The current screen", 1)[-1]
        wanted = "麦乐送" if "麦乐送\"" in screen else TOGGLES[self.turn % 2]
        self.turn += wanted != "麦乐送"
        found = re.search(r"^\s*\[(\d+)\] \w+ \"" + re.escape(wanted), screen, re.MULTILINE)
        if found is None:  # the guard's escape closed the dialog: this planner has nothing else in mind
            return tool_reply("next_action", answers.action("done", None))
        return tool_reply("next_action", answers.action(
            mark=int(found.group(1)), why=f"see what {wanted} does", sub_feature="delivery time",
            expected=f"{wanted} is checked"))


@pytest.fixture(scope="module")
def looping_run() -> list[dict[str, Any]]:
    """The next_action requests of a 10-step run that loops in the dialog (deterministic: manual clock)."""
    target = Target(app_name="麦当劳", package="com.mcdonalds.gma.cn", feature="delivery time",
                    goal="选择送达时间：在弹窗中选择预约送餐并确定", description="fast-food ordering app",
                    start="home screen", sub_features=("delivery-time dialog",),
                    done_hints=("送达时间：预约送餐",), max_steps=10)
    settings = ClaudeSettings(timeout_seconds=5.0, max_retries=0)
    with FakeMessagesAPI(responder=DialogToggler()) as api:
        client = make_client(settings, api_key=FAKE_KEY, base_url=api.url, _strict_response_validation=True)
        device = VirtualDevice(FOOD, latency=False, clock=ManualClock())
        mission = Mission(done_when=(Oracle(kind=OracleKind.VISIBLE, value="送达时间：预约送餐"),
                                     Oracle(kind=OracleKind.NOT_VISIBLE, value="请选择您的送达时间")))
        Explorer(device, ClaudeBrain(settings, client=client)).explore(target, mission)
    return [body for body in api.bodies if stage_of(body) == "next_action"]


def test_the_step_message_of_a_dialog_loop_shows_states_visits_and_the_warning(
    looping_run: list[dict[str, Any]],
) -> None:
    warned = [body for body in looping_run if "## Loop guard" in user_text(body)]
    assert warned, "the loop guard never warned the model"
    text = user_text(warned[0])
    # What a planner going round the dialog needs, each visible to the model:
    assert "Recent steps (oldest first):" in text and "Recent states" not in text  # the path, told once
    assert re.search(r"- step \d+: .* \(state_[\w+]+\) \[visit [2-9]\]", text), "no state seen twice with its count"
    assert "## Loop guard: warn" in text and "Change approach now" in text
    assert "a dialog is open" in text and "请选择您的送达时间" in text
    matches_snapshot("step_dialog_loop.md", text)


def test_the_step_message_before_the_loop_has_no_warning(looping_run: list[dict[str, Any]]) -> None:
    text = user_text(looping_run[2])
    assert "## Loop guard" not in text
    matches_snapshot("step_dialog_before_loop.md", text)
