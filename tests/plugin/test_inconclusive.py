"""Inconclusive is its own outcome: its own letter and word, counted apart in the summary line, an
`<error>` in JUnit XML, a non-zero exit code, `broken` in Allure. Failed is left to app defects."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from tests.plugin.test_plugin import FOOD_SPEC, NOTES_DEFECT, write

DEFECT = "test_notes.yaml::check for updates"
UNREACHABLE = "test_notes.yaml::unreachable"


@pytest.fixture
def mixed(suite: pytest.Pytester) -> pytest.Pytester:
    """Two items that pass, one app defect (a crash), one inconclusive (its step budget of 2 spent)."""
    write(suite, "test_food.yaml", FOOD_SPEC)
    write(suite, "test_notes.yaml", NOTES_DEFECT)
    return suite


def outcomes(result: pytest.RunResult) -> dict[str, int]:
    return result.parseoutcomes()


def test_inconclusive_has_its_own_letter_word_and_count(mixed: pytest.Pytester) -> None:
    result = mixed.runpytest("-p", "no:xdist")
    assert outcomes(result) == {"passed": 2, "failed": 1, "inconclusive": 1}
    result.stdout.fnmatch_lines(["test_food.yaml ..*", "test_notes.yaml FI*"])
    result.stdout.re_match_lines([r"=+ 1 failed, 2 passed, 1 inconclusive in .*"])
    assert result.ret == pytest.ExitCode.TESTS_FAILED, "an inconclusive run never lets the gate pass"


def test_verbose_says_inconclusive_and_the_failed_list_holds_defects_only(mixed: pytest.Pytester) -> None:
    result = mixed.runpytest("-v", "-rA", "-p", "no:xdist")
    result.stdout.fnmatch_lines([f"{DEFECT} FAILED*", f"{UNREACHABLE} INCONCLUSIVE*"])
    # The details: FAILURES for the defect, INCONCLUSIVE for the rest, each with its reason.
    result.stdout.fnmatch_lines(
        [
            "*= FAILURES =*",
            "app defect: app crashed*",
            "*= INCONCLUSIVE =*",
            "*_ feature: unreachable _*",
            "inconclusive: step budget of 2 spent*",
            "at test_notes.yaml:10, feature 'unreachable'",
        ]
    )
    # -rA: the short summary names each outcome by its own word.
    result.stdout.fnmatch_lines(
        [
            "*= short test summary info =*",
            "PASSED test_food.yaml::*",
            f"FAILED {DEFECT} - *",
            f"INCONCLUSIVE {UNREACHABLE} - step budget of 2 spent before the feature was done; left untried: *",
        ]
    )
    assert not [line for line in result.outlines if line.startswith(f"FAILED {UNREACHABLE}")]


def test_the_short_summary_has_its_header_when_only_inconclusive_items_are_listed(
    suite: pytest.Pytester,
) -> None:
    write(suite, "test_food.yaml", FOOD_SPEC)
    result = suite.runpytest("--fairy-max-steps", "1", "-k", "delivery", "-p", "no:xdist")
    assert outcomes(result) == {"inconclusive": 1, "deselected": 1}
    result.stdout.fnmatch_lines(
        ["*= short test summary info =*", "INCONCLUSIVE test_food.yaml::delivery time - step budget of 1 spent*"]
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED


def test_junit_records_inconclusive_as_an_error_with_its_reason(mixed: pytest.Pytester) -> None:
    result = mixed.runpytest("--junitxml=junit.xml", "-p", "no:xdist")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    suite = ET.parse(mixed.path / "junit.xml").getroot().find("testsuite")
    assert suite is not None
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("4", "1", "1")
    cases = {case.get("name"): case for case in suite.iter("testcase")}
    unreachable, defect = cases["unreachable"], cases["check for updates"]
    assert unreachable.find("failure") is None
    error = unreachable.find("error")
    assert error is not None
    assert error.get("message", "").startswith("inconclusive: step budget of 2 spent before the feature was done; ")
    assert "inconclusive: step budget of 2 spent" in (error.text or "")
    assert "at test_notes.yaml:10, feature 'unreachable'" in (error.text or "")
    assert defect.find("error") is None and defect.find("failure") is not None


def test_under_xdist_the_controller_counts_and_records_it_too(mixed: pytest.Pytester) -> None:
    result = mixed.runpytest_subprocess("-n", "2", "-p", "xdist", "-rA", "--junitxml=junit.xml")
    assert outcomes(result) == {"passed": 2, "failed": 1, "inconclusive": 1}
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines([f"INCONCLUSIVE {UNREACHABLE} - step budget of 2 spent*"])
    junit = (mixed.path / "junit.xml").read_text(encoding="utf-8")
    assert junit.count("<failure") == 1 and junit.count("<error") == 1


def test_allure_still_calls_it_broken(mixed: pytest.Pytester) -> None:
    mixed.runpytest("--alluredir", "allure-results", "-p", "no:xdist")
    statuses = {
        result["name"]: result["status"]
        for result in (
            json.loads(path.read_text(encoding="utf-8"))
            for path in (mixed.path / "allure-results").glob("*-result.json")
        )
    }
    assert statuses["unreachable"] == "broken" and statuses["check for updates"] == "failed"


def test_lf_reruns_inconclusive_items(mixed: pytest.Pytester) -> None:
    mixed.runpytest("-p", "no:xdist")
    again = mixed.runpytest("--lf", "-p", "no:xdist")
    assert outcomes(again) == {"failed": 1, "inconclusive": 1}


def test_a_bug_of_the_tool_is_inconclusive_never_an_app_defect(suite: pytest.Pytester) -> None:
    """An exception of pytest_fairy's own (here, its brain's) says nothing of the app: the item is
    inconclusive, saying so, and the build is not failed for an app defect."""
    write(suite, "test_food.yaml", FOOD_SPEC)
    suite.makeconftest(
        "from pytest_fairy.brain.offline import OfflineBrain\n\n"
        "class Broken(OfflineBrain):\n"
        "    def decide(self, ctx):\n"
        "        raise ValueError('min() arg is an empty sequence')\n\n"
        "def pytest_fairy_make_brain(config, target, default):\n"
        "    return Broken()\n"
    )
    result = suite.runpytest("-p", "no:xdist", "-rA")
    assert outcomes(result) == {"inconclusive": 2}
    result.stdout.fnmatch_lines(
        ["inconclusive: pytest_fairy failed on this item (ValueError: min() arg is an empty sequence): a bug of*"]
    )
    result.stdout.fnmatch_lines(["*pytest_fairy failed on test_food.yaml::*", "Traceback (most recent call last):"])
