"""A cached run that leaves its recording half-way hands over to the live Claude brain with a memory of
the replayed path: the first live prompt lists the replayed transitions, counts them, and names the
sub-feature the replayed decisions worked on."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from fairy_virtual import VirtualDevice
from pytest_fairy.brain.claude import ClaudeBrain, ClaudeSettings
from pytest_fairy.brain.claude_api import make_client
from pytest_fairy.explore.explorer import Explorer
from pytest_fairy.explore.mission import Mission
from pytest_fairy.explore.target import Target
from pytest_fairy.explore.verdict import Verdict
from pytest_fairy.replay import CacheMode, CachingBrain, DecisionCache
from pytest_fairy.spec.model import Oracle, OracleKind
from tests.claude.fake_api import FakeMessagesAPI
from tests.replay.helpers import FAKE_KEY, FOOD_APP, delivery_time_model, screen_text, stages

SPEC = "suites/test_food.yaml"
TARGET = Target(
    app_name="麦当劳",
    package="com.mcdonalds.gma.cn",
    feature="delivery time",
    goal="选择送达时间：在弹窗中选择预约送餐并确定",
    max_steps=10,
)
MISSION = Mission(
    done_when=(
        Oracle(kind=OracleKind.VISIBLE, value="送达时间：预约送餐"),
        Oracle(kind=OracleKind.NOT_VISIBLE, value="请选择您的送达时间"),
    )
)
# The time slots only show once 预约送餐 is chosen: a build with one more slot changes the third screen
# of the run (the dialog with 预约送餐 checked) and nothing before it.
LAST_SLOT = '          - {class: RadioButton, id: rb_slot_1330, text: "13:30", group: slot, value: "13:30"}\n'
NEW_SLOT = '          - {class: RadioButton, id: rb_slot_1400, text: "14:00", group: slot, value: "14:00"}\n'


@pytest.fixture
def app(tmp_path: Path) -> Path:
    folder = tmp_path / "food"
    folder.mkdir()
    shutil.copy(FOOD_APP, folder / "app.yaml")
    return folder


def add_a_time_slot(app: Path) -> None:
    path = app / "app.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count(LAST_SLOT) == 1, "the food app's time slots are not where they were"
    path.write_text(text.replace(LAST_SLOT, LAST_SLOT + NEW_SLOT), encoding="utf-8")


def run(app: Path, cache: DecisionCache, api: FakeMessagesAPI) -> tuple[CachingBrain, Any]:
    settings = ClaudeSettings(timeout_seconds=5.0, max_retries=0)
    client = make_client(settings, api_key=FAKE_KEY, base_url=api.url, _strict_response_validation=True)
    brain = CachingBrain(ClaudeBrain(settings, client=client), cache, SPEC, CacheMode.CACHED)
    result = Explorer(VirtualDevice(app, latency=False), brain).explore(TARGET, MISSION)
    return brain, result


def test_the_first_live_prompt_after_a_changed_screen_lists_the_replayed_transitions(
    app: Path, tmp_path: Path
) -> None:
    cache = DecisionCache(tmp_path / "cache")
    with FakeMessagesAPI(responder=delivery_time_model) as api:
        _, recorded = run(app, cache, api)
        assert recorded.verdict is Verdict.PASSED, recorded.reason
        assert stages(api.bodies) == [
            "plan",
            "next_action",
            "next_action",
            "next_action",
            "judge",
            "summarize",
        ]

        add_a_time_slot(app)
        api.requests.clear()
        brain, changed = run(app, cache, api)

    assert changed.verdict is Verdict.PASSED, changed.reason
    # The plan, two steps, and the judgement on the unchanged delivery page after the changed screen.
    assert brain.replayed == 4 and "state_productmdslist_" in brain.divergence
    assert stages(api.bodies) == ["next_action", "summarize"]
    first_live = screen_text(api.bodies[0])
    assert "# Step 3 of" in first_live and "14:00" in first_live

    section = first_live.split("Recent steps (oldest first):\n", 1)[1].split("\n\n", 1)[0]
    lines = [line for line in section.splitlines() if line.startswith("- step ")]
    assert len(lines) == 2, section
    assert re.fullmatch(
        r"- step 1: tap \[\d+\] 麦乐送 -> new page -> .* \[replayed: tap 麦乐送 .*\]", lines[0]
    )
    assert re.fullmatch(
        r"- step 2: tap \[\d+\] 预约送餐 -> new page -> .* \[replayed: tap 预约送餐 .*\]", lines[1]
    )
    assert "2 steps taken: 2 new pages found, 2 actions changed something, 0 had no effect" in first_live
    # Told once: the replayed steps are recent transitions, so no milestone repeats them.
    assert "found new page" not in first_live
    assert "  - menu browsing (working on it, 70% explored)" in first_live
