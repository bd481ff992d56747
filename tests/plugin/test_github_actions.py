"""Under GitHub Actions: an annotation per feature that did not pass, at its spec's line, a job summary
appended to GITHUB_STEP_SUMMARY, said once by the controller; and every run's `fairy.*` JUnit properties."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pytest_fairy.plugin.github_actions import (
    ANNOTATION_LIMIT,
    Outcome,
    escape_data,
    escape_property,
    job_summary,
    workflow_commands,
)
from tests.plugin.test_plugin import FOOD_SPEC, NOTES_DEFECT, write

EARLIER = "## an earlier step's summary\n"


@pytest.fixture
def mixed(suite: pytest.Pytester) -> pytest.Pytester:
    """Two items that pass, one app defect (a crash, at line 6), one inconclusive (at line 10)."""
    write(suite, "test_food.yaml", FOOD_SPEC)
    write(suite, "test_notes.yaml", NOTES_DEFECT)
    return suite


@pytest.fixture
def on_github(suite: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> Path:
    """GitHub Actions' environment, its step summary file holding what an earlier step wrote."""
    summary = suite.path / "step_summary.md"
    summary.write_text(EARLIER, encoding="utf-8")
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    monkeypatch.delenv("GITHUB_WORKSPACE", raising=False)  # paths relative to where pytest runs
    return summary


def commands(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("::")]


def test_a_defect_is_an_error_and_an_inconclusive_run_a_warning_at_the_features_line(
    mixed: pytest.Pytester, on_github: Path
) -> None:
    result = mixed.runpytest("-p", "no:xdist")
    assert result.parseoutcomes() == {"passed": 2, "failed": 1, "inconclusive": 1}
    found = commands(result.outlines)
    assert len(found) == 2, found
    assert found[0].startswith(
        "::error file=test_notes.yaml,line=6,title=check for updates::app defect: app crashed: "
        "java.lang.NullPointerException"
    )
    assert found[1].startswith(
        "::warning file=test_notes.yaml,line=10,title=unreachable::inconclusive: step budget of 2 spent"
    )


def test_the_job_summary_is_appended_with_counts_a_row_per_feature_and_the_session_folder(
    mixed: pytest.Pytester, on_github: Path
) -> None:
    mixed.runpytest("-p", "no:xdist")
    text = on_github.read_text(encoding="utf-8")
    assert text.startswith(EARLIER), "the summary of the step's other commands is kept"
    ours = text[len(EARLIER) :]
    assert "## pytest_fairy: 4 features explored" in ours
    assert "**1 failed**, **1 inconclusive**, 2 passed" in ours
    assert "| feature | verdict | steps | states | reason |" in ours, "no tokens column without an LLM"
    rows = [line for line in ours.splitlines() if line.startswith("| ") and "`test_" in line]
    assert [row.split(" | ")[1] for row in rows] == ["failed", "inconclusive", "passed", "passed"]
    assert rows[0].startswith("| check for updates (`test_notes.yaml:6`) | failed | ")
    assert "app crashed: java.lang.NullPointerException" in rows[0]
    assert (
        "; reproduction: `.fairy/sessions/" in rows[0] and "test_reproduce_check_for_updates.py`" in rows[0]
    )
    assert "step budget of 2 spent" in rows[1]
    assert "Steps, Set-of-Mark screenshots and feature trees of each item: `.fairy/sessions/" in ours
    mixed.runpytest("-p", "no:xdist", "-k", "coupons")
    again = on_github.read_text(encoding="utf-8")
    assert again.startswith(text) and again.count("## pytest_fairy:") == 2, "a second run appends too"


def test_outside_github_actions_nothing_is_printed_or_written(
    mixed: pytest.Pytester, on_github: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GITHUB_ACTIONS")
    result = mixed.runpytest("-p", "no:xdist")
    assert result.parseoutcomes() == {"passed": 2, "failed": 1, "inconclusive": 1}
    assert not commands(result.outlines)
    assert on_github.read_text(encoding="utf-8") == EARLIER


def test_under_xdist_the_controller_alone_says_it_once(mixed: pytest.Pytester, on_github: Path) -> None:
    result = mixed.runpytest_subprocess("-n", "2", "-p", "xdist")
    assert result.parseoutcomes() == {"passed": 2, "failed": 1, "inconclusive": 1}
    # A worker's output goes to the controller's stderr: neither stream may hold a second copy.
    said = commands(result.outlines) + commands(result.errlines)
    assert [line.split(" ", 1)[0] for line in said] == ["::error", "::warning"], said
    assert said[0].startswith(
        "::error file=test_notes.yaml,line=6,title=check for updates::app defect: app crashed"
    )
    text = on_github.read_text(encoding="utf-8")
    assert text.count("## pytest_fairy:") == 1 and "## pytest_fairy: 4 features explored" in text
    assert text.count("| check for updates (`test_notes.yaml:6`) | failed | ") == 1


def test_junit_has_a_property_per_figure_and_the_reproduction(mixed: pytest.Pytester) -> None:
    mixed.runpytest("-p", "no:xdist", "--junitxml=junit.xml")
    cases = {c.get("name"): c for c in ET.parse(mixed.path / "junit.xml").getroot().iter("testcase")}

    def properties(name: str) -> dict[str, str]:
        return {p.get("name", ""): p.get("value", "") for p in cases[name].iter("property")}

    defect = properties("check for updates")
    assert defect["fairy.verdict"] == "failed"
    assert int(defect["fairy.steps"]) > 0 and int(defect["fairy.states"]) > 1
    assert defect["fairy.loops_escaped"] == "0"
    assert defect["fairy"].startswith("failed: "), "the summary property stays"
    assert (mixed.path / defect["fairy.reproduction"]).is_file()
    assert "fairy.tokens" not in defect and "fairy.cost_usd" not in defect, "no LLM, no figures for it"
    assert properties("unreachable")["fairy.verdict"] == "inconclusive"
    assert "fairy.reproduction" not in properties("coupons")


def test_an_llm_brains_tokens_and_cost_are_properties_and_summary_columns(
    suite: pytest.Pytester, on_github: Path
) -> None:
    write(suite, "test_food.yaml", FOOD_SPEC)
    suite.makeconftest(
        "from pytest_fairy.brain.offline import OfflineBrain\n"
        "from pytest_fairy.explore.decisions import Usage\n\n"
        "class Counted(OfflineBrain):\n"
        "    def usage(self):\n"
        "        return Usage(calls=3, input_tokens=1200, output_tokens=300, cost_usd=0.0123)\n\n"
        "def pytest_fairy_make_brain(config, target, default):\n"
        "    return Counted()\n"
    )
    suite.runpytest("-p", "no:xdist", "-k", "coupons", "--junitxml=junit.xml").assert_outcomes(passed=1)
    case = next(ET.parse(suite.path / "junit.xml").getroot().iter("testcase"))
    found = {p.get("name"): p.get("value") for p in case.iter("property")}
    assert (found["fairy.tokens"], found["fairy.cost_usd"]) == ("1500", "0.0123")
    text = on_github.read_text(encoding="utf-8")
    assert "| feature | verdict | steps | states | tokens | cost | reason |" in text
    assert "| passed | " in text and " | 1500 | $0.0123 |  |" in text


def outcomes_of(verdict: str, count: int) -> list[Outcome]:
    return [Outcome(f"{verdict} {n}", "specs/test_x.yaml", n + 1, verdict, f"why {n}") for n in range(count)]


def test_at_most_ten_errors_and_ten_warnings_then_a_notice_says_how_many_more() -> None:
    lines = workflow_commands(
        outcomes_of("failed", 13) + outcomes_of("inconclusive", 11), ".fairy/sessions/s1"
    )
    kinds = [line.split(" ", 1)[0].split("::")[1] for line in lines]
    assert kinds == ["error"] * ANNOTATION_LIMIT + ["notice"] + ["warning"] * ANNOTATION_LIMIT + ["notice"]
    notices = [line for line in lines if line.startswith("::notice::")]
    assert notices[0].startswith("::notice::3 more failed features not annotated (GitHub shows 10 per step)")
    assert notices[1].startswith("::notice::1 more inconclusive feature not annotated")
    assert all(".fairy/sessions/s1" in notice for notice in notices)


def test_up_to_the_limit_no_notice() -> None:
    lines = workflow_commands(outcomes_of("failed", ANNOTATION_LIMIT), "f")
    assert len(lines) == ANNOTATION_LIMIT and not any(line.startswith("::notice") for line in lines)


def test_an_item_that_could_not_run_is_an_error_too_and_a_passed_one_is_not_annotated() -> None:
    lines = workflow_commands(
        outcomes_of("error", 1) + outcomes_of("passed", 2) + outcomes_of("skipped", 1), "f"
    )
    assert lines == ["::error file=specs/test_x.yaml,line=1,title=error 0::error: why 0"]


def test_annotations_escape_as_github_documents() -> None:
    assert escape_data("100% done\r\nnext: a, b") == "100%25 done%0D%0Anext: a, b"
    assert escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"
    odd = Outcome("pay: now, fast", "dir,x/test:1.yaml", 3, "failed", "50% of\nit")
    assert workflow_commands([odd], "f") == [
        "::error file=dir%2Cx/test%3A1.yaml,line=3,title=pay%3A now%2C fast::app defect: 50%25 of it"
    ]


def test_a_reason_is_one_line_cut_and_cannot_break_the_table() -> None:
    long = Outcome("a|b", "test_x.yaml", 2, "inconclusive", "x|<y> " + "z" * 400)
    row = next(line for line in job_summary([long], "f").splitlines() if line.startswith("| a"))
    assert row.startswith("| a\\|b (`test_x.yaml:2`) | inconclusive | - | - | x\\|&lt;y&gt; zzz")
    assert row.endswith("… |") and len(row) < 260


def test_an_item_that_could_not_run_is_an_error_annotation_not_an_app_defect(
    suite: pytest.Pytester, on_github: Path
) -> None:
    write(suite, "test_food.yaml", FOOD_SPEC)
    suite.makeconftest(
        "import pytest\n\n@pytest.fixture\ndef fairy_brain():\n    raise RuntimeError('no brain today')\n"
    )
    result = suite.runpytest("-p", "no:xdist", "-k", "coupons")
    assert commands(result.outlines) == [
        "::error file=test_food.yaml,line=12,title=coupons::error: RuntimeError: no brain today"
    ]
    assert "| coupons (`test_food.yaml:12`) | error | - | - | RuntimeError: no brain today |" in (
        on_github.read_text(encoding="utf-8")
    )
