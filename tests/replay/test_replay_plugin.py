"""Strict replay and the lost-screens gate through the plugin, on runs of the offline brain (free and
deterministic, and recorded like every other exploration)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from pytest_fairy.report.store import item_folder_name
from tests.replay.helpers import change_the_dialog, load, recordings, sessions, spec
from tests.verdicts import verdict_counts

ITEM = item_folder_name("test_food.yaml::delivery time")


def steps_of(session: Path) -> list[dict[str, Any]]:
    lines = (session / ITEM / "steps.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def test_strict_replay_of_an_offline_recording_takes_the_same_steps(project: pytest.Pytester) -> None:
    project.runpytest().assert_outcomes(passed=1)
    recorded = [s["action"] for s in steps_of(sessions(project)[0])]
    result = project.runpytest("-v", "--fairy-brain", "replay")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["fairy: *; brain replay (chosen); *", "    step 1: * [[]replayed[]]"])
    replayed = steps_of(sessions(project)[1])
    assert [s["action"] for s in replayed] == recorded
    assert all(s["replayed"] and s["reasoning"].startswith("replayed: ") for s in replayed)


def test_strict_replay_miss_is_inconclusive_and_names_the_state(project: pytest.Pytester) -> None:
    project.runpytest().assert_outcomes(passed=1)
    before = recordings(project)[0].read_text(encoding="utf-8")
    change_the_dialog(project)
    result = project.runpytest("--fairy-brain", "replay")
    assert verdict_counts(result) == {"passed": 0, "failed": 0, "inconclusive": 1}
    result.stdout.fnmatch_lines(
        ["*inconclusive: no recorded decision for state state_productmdslist_*+dlg_*: *"]
    )
    assert recordings(project)[0].read_text(encoding="utf-8") == before  # strict replay writes nothing


def test_strict_replay_without_a_recording_is_inconclusive(project: pytest.Pytester) -> None:
    result = project.runpytest("--fairy-brain", "replay", "--fairy-cache", "elsewhere")
    assert verdict_counts(result) == {"passed": 0, "failed": 0, "inconclusive": 1}
    result.stdout.fnmatch_lines(
        ["*inconclusive: no recorded decision for state state_home_*: nothing recorded in *elsewhere*"]
    )


def test_lost_screens_fail_the_item_only_when_asked(project: pytest.Pytester) -> None:
    project.runpytest().assert_outcomes(passed=1)
    # A committed baseline of a build that had one more screen than this one reaches.
    baseline = project.path / "baseline"
    shutil.copytree(sessions(project)[0], baseline)
    tree = load(baseline / ITEM / "tree.json")
    tree["states"].append({**tree["states"][0], "key": "pkg.OldActivity|0123456789abcdef|",
                           "name": "state_old_01234567", "title": "旧页面"})  # fmt: skip
    (baseline / ITEM / "tree.json").write_text(json.dumps(tree, ensure_ascii=False), encoding="utf-8")

    informed = project.runpytest("--fairy-baseline", "baseline")
    informed.assert_outcomes(passed=1)
    informed.stdout.fnmatch_lines(
        ["*delivery time: screens: 0 changed, 0 added, 1 gone, *", '  gone: state_old_01234567 "旧页面"']
    )

    gated = project.runpytest("--fairy-baseline", "baseline", "--fairy-fail-on-lost-screens")
    gated.assert_outcomes(failed=1)
    gated.stdout.fnmatch_lines(["*app defect: 1 screens of the baseline are gone: state_old_01234567*"])

    (project.path / "test_food.yaml").write_text(spec("lose_screens"), encoding="utf-8")
    by_spec = project.runpytest("--fairy-baseline", "baseline", "--alluredir", "allure")
    by_spec.assert_outcomes(failed=1)
    attachments = {
        a["name"] for r in (project.path / "allure").glob("*-result.json") for a in load(r)["attachments"]
    }
    assert {"build-to-build diff", "build-to-build diff (json)"} <= attachments


def test_a_baseline_is_found_by_app_and_feature_when_the_rootdir_changed_the_items_id(
    project: pytest.Pytester,
) -> None:
    """Started with another rootdir, the item's id is `<folder>/test_food.yaml::delivery time`: the
    baseline's item is still found, by the app's package and the feature's name."""
    project.runpytest().assert_outcomes(passed=1)
    baseline = sessions(project)[0]
    elsewhere = project.path / "elsewhere"
    result = project.runpytest(
        f"--rootdir={project.path.parent}", f"--fairy-baseline={baseline}", f"--fairy-artifacts={elsewhere}"
    )
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(
        [f"{project.path.name}/test_food.yaml::delivery time: no change (* screens as in the baseline)"]
    )
    result.stdout.no_fnmatch_line("*no baseline for this item*")


def test_a_missing_baseline_folder_is_a_usage_error(project: pytest.Pytester) -> None:
    result = project.runpytest("--fairy-baseline", "nowhere")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: --fairy-baseline nowhere: no such folder*"])


def test_lose_screens_without_a_baseline_is_a_spec_error_naming_its_line(project: pytest.Pytester) -> None:
    """A gate that can never fail fails closed: the spec does not load, and says where and why."""
    (project.path / "test_food.yaml").write_text(spec("lose_screens"), encoding="utf-8")
    lines = (project.path / "test_food.yaml").read_text(encoding="utf-8").splitlines()
    line = next(n for n, text in enumerate(lines, 1) if "lose_screens" in text)
    result = project.runpytest()
    assert result.ret == pytest.ExitCode.INTERRUPTED  # a spec that did not load
    result.stdout.fnmatch_lines(
        [f"*test_food.yaml:{line}: feature 'delivery time': must_not lose_screens needs --fairy-baseline*"]
    )


def test_failing_on_lost_screens_without_a_baseline_is_a_usage_error(project: pytest.Pytester) -> None:
    result = project.runpytest("--fairy-fail-on-lost-screens")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: --fairy-fail-on-lost-screens needs --fairy-baseline DIR*"])


@pytest.mark.parametrize("broken", ["missing", "unreadable"])
def test_a_gated_item_whose_baseline_is_missing_or_unreadable_is_inconclusive(
    project: pytest.Pytester, broken: str
) -> None:
    project.runpytest().assert_outcomes(passed=1)
    baseline = project.path / "baseline"
    shutil.copytree(sessions(project)[0], baseline)
    if broken == "missing":
        shutil.rmtree(baseline / ITEM)
    else:
        (baseline / ITEM / "tree.json").write_text("{not json", encoding="utf-8")
    informed = project.runpytest("--fairy-baseline", "baseline")
    informed.assert_outcomes(passed=1)  # without the gate, a missing baseline is only said
    gated = project.runpytest("--fairy-baseline", "baseline", "--fairy-fail-on-lost-screens")
    assert verdict_counts(gated) == {"passed": 0, "failed": 0, "inconclusive": 1}
    gated.stdout.fnmatch_lines(["*inconclusive: the lost-screens gate could not check: *"])
