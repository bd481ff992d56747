"""A run that replays decisions another brain or model made says so: in the item's summary line and in a
line at the end of the run, so that a Claude run is never taken for one the model decided. Decisions the
same model made replay without a word."""

from __future__ import annotations

import pytest

from pytest_fairy.replay.recording import Recording
from tests.claude.fake_api import FakeMessagesAPI
from tests.replay.helpers import FAKE_KEY, change_the_dialog, delivery_time_model, load, recordings

OTHER_BRAIN = "fairy: 1 item replayed decisions made by 'offline', not by 'claude-sonnet-5-5': *not asked*"
# Said before any item runs, right after collection.
FORESEEN = (
    "fairy: the decision cache holds decisions made by 'offline' for 1 of 1 item: where the screens match, "
    "they replay without asking 'claude-sonnet-5-5' (--fairy-no-cache asks it)"
)


def claude_env(monkeypatch: pytest.MonkeyPatch, api: FakeMessagesAPI) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", FAKE_KEY)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", api.url)


def test_decisions_of_the_offline_brain_replayed_under_claude_are_named(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    project.runpytest().assert_outcomes(passed=1)  # no key: the offline brain decides and is recorded
    with FakeMessagesAPI(responder=delivery_time_model) as api:
        claude_env(monkeypatch, api)
        replayed = project.runpytest("--junitxml", "junit.xml")
        asked = list(api.bodies)

    replayed.assert_outcomes(passed=1)
    assert asked == []  # the model was never asked
    replayed.stdout.fnmatch_lines(
        [
            "collected 1 item",
            FORESEEN,
            "*delivery time: passed: *; * decisions replayed, made by 'offline', not by 'claude-sonnet-5-5'",
            OTHER_BRAIN,
        ]
    )
    junit = (project.path / "junit.xml").read_text(encoding="utf-8")
    assert 'name="fairy.replayed_from"' in junit
    # Untouched: every step replayed, so the recording still names the brain that made it.
    (recording,) = recordings(project)
    assert Recording.from_json(recording.read_text(encoding="utf-8")).brain == "offline"


def test_decisions_the_same_model_made_replay_without_a_word(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    with FakeMessagesAPI(responder=delivery_time_model) as api:
        claude_env(monkeypatch, api)
        project.runpytest().assert_outcomes(passed=1)
        api.requests.clear()
        again = project.runpytest()
        asked = list(api.bodies)
        strict = project.runpytest("--fairy-brain", "replay")

    again.assert_outcomes(passed=1)
    assert asked == []
    again.stdout.no_fnmatch_line("*decisions replayed, made by*")
    again.stdout.no_fnmatch_line("fairy: * replayed decisions made by*")
    again.stdout.no_fnmatch_line("*the decision cache holds*")
    # Strict replay asks no brain: nothing was expected of a model, so nothing is said.
    strict.assert_outcomes(passed=1)
    strict.stdout.no_fnmatch_line("*made by*")


def test_a_recording_made_anew_keeps_who_made_the_steps_it_replayed(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    project.runpytest().assert_outcomes(passed=1)  # recorded by the offline brain
    change_the_dialog(project)  # a new build: the run leaves the recording at the dialog
    with FakeMessagesAPI(responder=delivery_time_model) as api:
        claude_env(monkeypatch, api)
        changed = project.runpytest()
        changed_asked = len(api.bodies)
        api.requests.clear()
        again = project.runpytest()
        again_asked = list(api.bodies)

    changed.assert_outcomes(passed=1)
    assert changed_asked > 0  # the model decided from the changed screen on
    document = load(recordings(project)[0])
    assert document["brain"] == "claude" and document["model"] == "claude-sonnet-5-5"
    by = [step.get("by", "") for step in document["steps"]]
    assert by[0] == "offline" and "" in by, (
        by
    )  # the replayed steps keep their maker, the new ones are Claude's
    # Every step replayed now; those the offline brain made are still named as its.
    again.assert_outcomes(passed=1)
    assert again_asked == []
    again.stdout.fnmatch_lines([FORESEEN, OTHER_BRAIN])


def test_under_xdist_the_controller_says_it_before_the_items_run(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    project.runpytest().assert_outcomes(passed=1)
    with FakeMessagesAPI(responder=delivery_time_model) as api:
        claude_env(monkeypatch, api)
        replayed = project.runpytest_subprocess("-n", "2")
        no_cache = project.runpytest_subprocess("--fairy-no-cache")

    replayed.assert_outcomes(passed=1)
    replayed.stdout.fnmatch_lines([FORESEEN, "*delivery time*", OTHER_BRAIN])
    assert replayed.stdout.str().count("the decision cache holds") == 1
    # Asked afresh, nothing is replayed: nothing to foresee.
    no_cache.stdout.no_fnmatch_line("*the decision cache holds*")
