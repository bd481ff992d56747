"""Record a Claude-brain run through the real SDK and a local Messages server, then rerun it: unchanged
screens cost no request; changed screens are decided anew, the unchanged ones after them replayed; the
diff names the changed screens."""

from __future__ import annotations

import pytest

from pytest_fairy.report.store import item_folder_name
from tests.claude.fake_api import FakeMessagesAPI
from tests.replay.helpers import (
    FAKE_KEY,
    change_the_dialog,
    delivery_time_model,
    load,
    recordings,
    screen_text,
    sessions,
    spec,
    stages,
)

DIALOG_TITLE = "请选择您的送达时间"


def claude_env(monkeypatch: pytest.MonkeyPatch, api: FakeMessagesAPI) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", FAKE_KEY)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", api.url)


def test_unchanged_rerun_makes_no_request_and_only_the_changed_screens_are_decided_anew(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    with FakeMessagesAPI(responder=delivery_time_model) as api:
        claude_env(monkeypatch, api)
        first = project.runpytest("-v")
        recorded = list(api.bodies)

        api.requests.clear()
        replay = project.runpytest("-v")
        replayed = list(api.bodies)

        change_the_dialog(project)
        baseline = sessions(project)[0]
        api.requests.clear()
        changed = project.runpytest("-v", "--fairy-baseline", str(baseline))
        redecided = list(api.bodies)

    first.assert_outcomes(passed=1)
    assert stages(recorded) == ["plan", "next_action", "next_action", "next_action", "judge", "summarize"]
    (recording,) = recordings(project)
    document = load(recording)
    assert [s["decision"]["action"]["ref"] for s in document["steps"] if s["decision"]] == [
        "content/btn_delivery",
        "rg_delivery_time/rb_schedule",
        "dialog_root/btn_confirm",
    ]

    # Unchanged: the same verdict, every step replayed, not one request, 0 tokens.
    replay.assert_outcomes(passed=1)
    assert replayed == []
    replay.stdout.fnmatch_lines(
        [
            "    step 1: tap [[]*[]] 麦乐送 -> state_productmdslist_*  [[]replayed[]]",
            "    step 3: tap [[]*[]] 确定 -> *  [[]replayed[]]",
            "*delivery time: passed: 3 steps, 4 states, 3 transitions, * loops escaped, *s",
        ]
    )
    assert "tokens" not in replay.stdout.str().split("fairy exploration summary")[1]

    # The dialog changed: home and the plan are replayed, the two dialog steps are not; the judge on the
    # unchanged delivery page is replayed again. The summary's story names the changed screens.
    changed.assert_outcomes(passed=1)
    assert stages(redecided) == ["next_action", "next_action", "summarize"]
    assert DIALOG_TITLE in screen_text(redecided[0]) and "高峰时段送达可能延迟" in screen_text(redecided[0])
    changed.stdout.fnmatch_lines(["    step 1: tap [[]*[]] 麦乐送 -> *  [[]replayed[]]"])
    changed.stdout.no_fnmatch_line("    step 2: * [[]replayed[]]")

    # The build-to-build diff names the two dialog screens, and only them.
    changed.stdout.fnmatch_lines(
        [
            "*fairy build-to-build diff*",
            "test_food.yaml::delivery time: screens: 2 changed, 0 added, 0 gone, 2 unchanged; "
            "transitions: 0 changed, 0 added, 0 gone; 0 new crashes",
            '  changed: state_productmdslist_*+dlg_* "麦乐送", state_productmdslist_*+dlg_* "麦乐送"',
        ]
    )
    diff = load(sessions(project)[-1] / item_folder_name("test_food.yaml::delivery time") / "diff.json")
    before = load(baseline / item_folder_name("test_food.yaml::delivery time") / "tree.json")
    dialogs = sorted(s["key"] for s in before["states"] if s["is_dialog"])
    assert sorted(c["before"]["key"] for c in diff["screens"]["changed"]) == dialogs
    assert diff["screens"]["added"] == diff["screens"]["gone"] == []

    # Recorded anew: a third run of the changed build is all replay again.
    assert len(load(recordings(project)[0])["steps"]) == 4
    with FakeMessagesAPI(responder=delivery_time_model) as api:
        claude_env(monkeypatch, api)
        again = project.runpytest()
        again_bodies = list(api.bodies)
        stamp = load(recordings(project)[0])["recorded"]
        no_cache = project.runpytest("--fairy-no-cache")
    again.assert_outcomes(passed=1)
    assert again_bodies == []

    # --fairy-no-cache: every step decided by the LLM, and recorded once more.
    no_cache.assert_outcomes(passed=1)
    assert stages(api.bodies) == ["plan", "next_action", "next_action", "next_action", "judge", "summarize"]
    assert len(recordings(project)) == 1 and load(recordings(project)[0])["recorded"] >= stamp


def test_concurrent_recording_and_replay_under_xdist(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two specs, two xdist workers, one cache folder: both record, then both replay with no request."""
    (project.path / "test_food_again.yaml").write_text(spec(), encoding="utf-8")
    with FakeMessagesAPI(responder=delivery_time_model) as api:
        claude_env(monkeypatch, api)
        first = project.runpytest_subprocess("-n", "2")
        recorded = len(api.bodies)
        api.requests.clear()
        second = project.runpytest_subprocess("-n", "2", "--fairy-brain", "claude")
    first.assert_outcomes(passed=2)
    assert recorded == 12
    assert len(recordings(project)) == 2
    second.assert_outcomes(passed=2)
    assert api.bodies == []
    assert not list((project.path / ".fairy" / "cache").rglob("*.tmp"))
