"""`--fairy-retries N` (plugin/retries.py): an item whose device or brain failed is run again, never one
that failed on an app defect or ran out of budget; a pass after a retry is flaky, and says so in the
terminal, JUnit XML and Allure."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.plugin.test_plugin import FOOD_SPEC, NOTES_DEFECT, write
from tests.verdicts import verdict_counts

# A brain whose first `failures` explorations lose the API at their first decision; the tries it was made
# for are counted in a file, since each try makes its brain anew.
FLAKY_BRAIN = """
import time
from pathlib import Path
from pytest_fairy.brain.offline import OfflineBrain
from pytest_fairy.errors import BrainError

TRIES = Path(__file__).parent / "tries.txt"


class Flaky(OfflineBrain):
    def __init__(self, fails):
        super().__init__()
        self.fails = fails

    def decide(self, ctx):
        if self.fails:
            time.sleep(TIMEOUT)  # as long as the API kept it waiting
            raise BrainError("the API did not answer (503)")
        return super().decide(ctx)


def pytest_fairy_make_brain(config, target, default):
    tries = int(TRIES.read_text()) if TRIES.exists() else 0
    TRIES.write_text(str(tries + 1))
    return Flaky(fails=tries < FAILURES)
"""


def flaky_project(
    suite: pytest.Pytester, failures: int, spec: str = FOOD_SPEC, timeout: float = 0.0
) -> pytest.Pytester:
    write(suite, "test_food.yaml", spec)
    suite.makeconftest(f"FAILURES = {failures}\nTIMEOUT = {timeout}\n" + FLAKY_BRAIN)
    return suite


def tries(project: pytest.Pytester) -> int:
    return int((project.path / "tries.txt").read_text())


def test_an_item_whose_brain_failed_passes_on_a_retry_and_is_flaky_everywhere(suite: pytest.Pytester) -> None:
    project = flaky_project(suite, failures=1)
    result = project.runpytest(
        "-p", "no:xdist", "-k", "coupons", "--fairy-retries", "2", "--junitxml=junit.xml", "--alluredir=allure"
    )
    result.assert_outcomes(passed=1)
    assert tries(project) == 2
    result.stdout.fnmatch_lines(
        ["FLAKY test_food.yaml::coupons - passed on try 2 after: brain unavailable: the API did not answer (503)*"]
    )
    (case,) = ET.parse(project.path / "junit.xml").getroot().iter("testcase")
    (flaky,) = case.iter("flakyError")
    assert flaky.get("message", "").startswith("brain unavailable: the API did not answer (503)")
    assert "fairy.flaky" in {p.get("name") for p in case.iter("property")}
    results = [json.loads(p.read_text(encoding="utf-8")) for p in (project.path / "allure").glob("*-result.json")]
    assert sorted(r["status"] for r in results) == ["broken", "passed"], "each try a result of its own"
    assert len({r["historyId"] for r in results}) == 1, "under one history: Allure shows the first as a retry"


def test_the_job_summary_says_a_pass_after_a_retry_was_flaky(
    suite: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = flaky_project(suite, failures=1)
    summary = project.path / "step_summary.md"
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    project.runpytest("-p", "no:xdist", "-k", "coupons", "--fairy-retries", "1").assert_outcomes(passed=1)
    row = next(line for line in summary.read_text(encoding="utf-8").splitlines() if line.startswith("| coupons"))
    assert "| passed |" in row and "flaky: passed on try 2 after: brain unavailable: the API did not" in row


def test_without_retries_the_same_item_is_inconclusive(suite: pytest.Pytester) -> None:
    project = flaky_project(suite, failures=1)
    result = project.runpytest("-p", "no:xdist", "-k", "coupons")
    assert verdict_counts(result)["inconclusive"] == 1 and tries(project) == 1
    result.stdout.no_fnmatch_line("FLAKY*")


def test_an_item_still_failing_after_its_retries_is_inconclusive_saying_what_each_try_met(
    suite: pytest.Pytester,
) -> None:
    project = flaky_project(suite, failures=9)
    result = project.runpytest("-p", "no:xdist", "-k", "coupons", "--fairy-retries", "2", "--junitxml=junit.xml")
    assert verdict_counts(result)["inconclusive"] == 1 and tries(project) == 3
    (case,) = ET.parse(project.path / "junit.xml").getroot().iter("testcase")
    properties = {p.get("name"): p.get("value", "") for p in case.iter("property")}
    assert properties["fairy.retried"].count("brain unavailable: the API did not answer (503)") == 2
    assert case.find("error") is not None and case.find("flakyError") is None


def test_an_app_defect_and_a_budget_spent_are_never_retried(suite: pytest.Pytester) -> None:
    """What the exploration found is its verdict: another try would only hide it behind a coin toss."""
    write(suite, "test_notes.yaml", NOTES_DEFECT)
    suite.makeconftest(FLAKY_BRAIN.replace("tries < FAILURES", "False"))
    defects = suite.runpytest("-p", "no:xdist", "--fairy-retries", "3", "--fairy-max-steps", "30")
    assert verdict_counts(defects) == {"passed": 0, "failed": 2, "inconclusive": 0}
    assert tries(suite) == 2, "one try per item"
    budget = suite.runpytest("-p", "no:xdist", "--fairy-retries", "3", "--fairy-max-steps", "1")
    assert verdict_counts(budget) == {"passed": 0, "failed": 0, "inconclusive": 2}
    assert tries(suite) == 4, "one try per item"


def test_under_xdist_the_controller_says_flaky_and_junit_has_it(suite: pytest.Pytester) -> None:
    project = flaky_project(suite, failures=1)
    result = project.runpytest("-n", "2", "-k", "coupons", "--fairy-retries", "1", "--junitxml=junit.xml")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["FLAKY test_food.yaml::coupons - passed on try 2 after: brain unavailable*"])
    (case,) = ET.parse(Path(project.path / "junit.xml")).getroot().iter("testcase")
    assert len(list(case.iter("flakyError"))) == 1


def test_a_flaky_items_time_counts_every_try(suite: pytest.Pytester) -> None:
    # The first try waits 2 s for an API that never answers; the item took that long, whatever the pass.
    project = flaky_project(suite, failures=1, timeout=2.0)
    project.runpytest("-p", "no:xdist", "-k", "coupons", "--fairy-retries", "1", "--junitxml=junit.xml")
    (case,) = ET.parse(project.path / "junit.xml").getroot().iter("testcase")
    assert float(case.get("time", "0")) >= 2.0, case.attrib
