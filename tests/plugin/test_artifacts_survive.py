"""Artifacts that survive: an artifacts folder that cannot be written is a usage error
at start; a write that fails mid-run (disk full) ends its item inconclusive with the reason, never failed
and never a traceback, leaves no 0-byte or half file, and the other items still run."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.plugin.test_plugin import FOOD_SPEC, write
from tests.specs import FOOD_APP_BLOCK

COUPONS = FOOD_SPEC[FOOD_SPEC.index("  - name: coupons") :]

# A conftest for the pytester project: from write number FROM on (counted at the one place bytes reach the
# disk, pytest_fairy.report.atomic._put), every write gets half its bytes out, then ENOSPC, until write
# number UNTIL (a disk that fills, and frees again). ONLY, if set, limits the failures to writes of data
# starting with those bytes.
FULL_DISK = """\
import errno, os
from pytest_fairy.report import atomic

FROM, UNTIL, ONLY = {start}, {until}, {only!r}
real = atomic._put
count = [0]

def full(handle, data):
    if ONLY and not bytes(data).startswith(ONLY):
        return real(handle, data)
    count[0] += 1
    if FROM <= count[0] < UNTIL:
        os.write(handle, bytes(data)[: len(data) // 2])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    return real(handle, data)

def pytest_configure(config):
    atomic._put = full

def pytest_unconfigure(config):
    atomic._put = real
"""


def full_disk(project: pytest.Pytester, start: int, until: int = 10**9, only: bytes = b"") -> None:
    write(project, "conftest.py", FULL_DISK.format(start=start, until=until, only=only))


def files(folder: Path) -> list[Path]:
    return [Path(root) / name for root, _, names in os.walk(folder) for name in names]


def assert_no_broken_files(folder: Path) -> None:
    """No 0-byte artifact, no leftover temporary file, every JSON whole, every JSONL line whole."""
    for path in files(folder):
        if path.name == ".indexed" or path.suffix == ".lock":  # markers and locks are empty on purpose
            continue
        assert path.stat().st_size > 0, f"0-byte file left: {path}"
        assert not path.name.endswith(".tmp"), f"temporary file left: {path}"
        if path.suffix == ".json":
            json.loads(path.read_text(encoding="utf-8"))
        if path.suffix == ".jsonl":
            for line in path.read_text(encoding="utf-8").splitlines():
                json.loads(line)


def assert_no_traceback(result: pytest.RunResult) -> None:
    text = "\n".join(result.outlines + result.errlines)
    assert "Traceback" not in text and "OSError" not in text and "ArtifactError" not in text, text


def test_an_artifacts_path_that_is_a_file_is_a_usage_error_in_one_line(suite: pytest.Pytester) -> None:
    write(suite, "test_food.yaml", FOOD_SPEC)
    write(suite, "blocked", "a file, not a folder")
    for path in ("blocked", "blocked/deeper"):
        result = suite.runpytest("--fairy-artifacts", path, "-p", "no:xdist")
        assert result.ret == pytest.ExitCode.USAGE_ERROR
        errors = [line for line in result.errlines if line.strip()]
        assert errors == [
            f"ERROR: artifacts folder {suite.path / path} cannot be written: Not a directory"
            + ("" if path == "blocked" else f" ({suite.path / 'blocked'})")
        ], result.errlines
        assert_no_traceback(result)


def test_a_folder_not_there_yet_is_fine_and_not_made_before_it_is_needed(suite: pytest.Pytester) -> None:
    write(suite, "test_food.yaml", FOOD_SPEC)
    write(suite, "blocked", "a file, not a folder")
    full_disk(suite, start=1)  # nothing is written: no item ran
    result = suite.runpytest("--fairy-artifacts", "new/art", "-k", "nothing", "-p", "no:xdist")
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED
    assert not (suite.path / "new").exists()
    # Collecting writes nothing: the folder is not checked.
    assert suite.runpytest("--collect-only", "--fairy-artifacts", "blocked").ret == pytest.ExitCode.OK


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root writes into a 0o500 folder")
def test_a_read_only_artifacts_folder_is_a_usage_error(suite: pytest.Pytester) -> None:
    write(suite, "test_food.yaml", FOOD_SPEC)
    locked = suite.path / "locked"
    locked.mkdir(mode=0o500)
    try:
        result = suite.runpytest("--fairy-artifacts", "locked", "-p", "no:xdist")
    finally:
        locked.chmod(0o700)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: artifacts folder {locked} cannot be written: Permission denied"])


def test_a_disk_that_fills_mid_run_ends_each_item_inconclusive_with_the_reason(
    suite: pytest.Pytester,
) -> None:
    write(suite, "test_food.yaml", FOOD_SPEC)
    full_disk(suite, start=2, only=b'{"step"')  # the second step's line, then every line after it
    result = suite.runpytest("-rA", "-p", "no:xdist")
    assert result.parseoutcomes() == {"inconclusive": 2}
    result.stdout.fnmatch_lines(
        [
            "INCONCLUSIVE test_food.yaml::delivery time - artifacts: could not write */steps.jsonl: "
            "No space left on device",
            "INCONCLUSIVE test_food.yaml::coupons - artifacts: could not write */steps.jsonl: "
            "No space left on device",
        ]
    )
    assert_no_traceback(result)
    assert_no_broken_files(suite.path / ".fairy")
    # What was written before the disk filled is kept.
    (steps,) = (suite.path / ".fairy").glob("sessions/*/*delivery*/steps.jsonl")
    assert [json.loads(line)["step"] for line in steps.read_text(encoding="utf-8").splitlines()] == [1]


@pytest.mark.parametrize("failing", [1, 3], ids=["first screenshot", "last screenshot, after the pass"])
def test_every_record_of_an_item_says_the_verdict_its_junit_says(suite: pytest.Pytester, failing: int) -> None:
    """A step screenshot, written off the loop, fails: during the run, or once the exploration passed
    (coupons passes at step 3). result.json, the JUnit XML, Allure and the terminal summary all say
    inconclusive, and why; none says passed."""
    write(suite, "test_food.yaml", FOOD_APP_BLOCK + COUPONS)
    full_disk(suite, start=failing, only=b"RIFF")  # step screenshots (WebP) from that one on
    result = suite.runpytest(
        "-rA", "-p", "no:xdist", "--junitxml", "junit.xml", "--alluredir", "allure-results"
    )
    assert result.parseoutcomes() == {"inconclusive": 1}
    assert_no_traceback(result)
    summary = [line for line in result.outlines if line.startswith("test_food.yaml::") and ": " in line]
    assert [line.split(": ")[1] for line in summary] == ["inconclusive"], summary
    for folder in (suite.path / ".fairy").glob("sessions/*/test_food*"):
        document = json.loads((folder / "result.json").read_text(encoding="utf-8"))
        assert document["verdict"] == "inconclusive", document
        assert document["reason"].startswith("artifacts: could not write "), document["reason"]
    junit = (suite.path / "junit.xml").read_text(encoding="utf-8")
    assert junit.count("<error ") == 1 and "<failure" not in junit
    statuses = [
        json.loads(p.read_text(encoding="utf-8"))["status"] for p in (suite.path / "allure-results").glob("*-result.json")
    ]
    assert statuses == ["broken"]


def test_a_disk_full_from_the_start_still_runs_every_item(suite: pytest.Pytester) -> None:
    write(suite, "test_food.yaml", FOOD_SPEC)
    full_disk(suite, start=1)
    result = suite.runpytest("-rA", "-p", "no:xdist")
    assert result.parseoutcomes() == {"inconclusive": 2}
    result.stdout.fnmatch_lines(
        ["INCONCLUSIVE *::delivery time - artifacts: could not write */target.json: *"]
    )
    assert_no_traceback(result)
    assert_no_broken_files(suite.path / ".fairy")


def test_items_after_the_disk_frees_again_pass(suite: pytest.Pytester) -> None:
    write(suite, "test_food.yaml", FOOD_SPEC)
    full_disk(suite, start=1, until=2, only=b"RIFF")  # one failed write: the first item's first screenshot
    result = suite.runpytest("-rA", "-p", "no:xdist")
    assert result.parseoutcomes() == {"inconclusive": 1, "passed": 1}
    result.stdout.fnmatch_lines(
        ["INCONCLUSIVE *::delivery time - artifacts: could not write */step-001.webp: *"]
    )
    assert_no_broken_files(suite.path / ".fairy")


def test_a_result_that_cannot_be_written_makes_the_item_inconclusive(suite: pytest.Pytester) -> None:
    write(suite, "test_food.yaml", FOOD_SPEC)
    full_disk(suite, start=1, only=b'{\n  "schema": "pytest_fairy.item",\n  "version": 1,\n  "verdict"')  # result.json
    result = suite.runpytest("-rA", "--alluredir", "allure-results", "-p", "no:xdist")
    assert result.parseoutcomes() == {"inconclusive": 2}
    result.stdout.fnmatch_lines(["INCONCLUSIVE *::coupons - artifacts: could not write */result.json: *"])
    assert_no_traceback(result)
    assert_no_broken_files(suite.path / ".fairy")
    # The other sinks finish after the store failed, told the item is inconclusive: Allure has both items,
    # broken, each with every step.
    folder = suite.path / "allure-results"
    reports = {
        r["name"]: r
        for r in (json.loads(p.read_text(encoding="utf-8")) for p in folder.glob("*-result.json"))
    }
    assert sorted(reports) == ["coupons", "delivery time"]
    assert reports["coupons"]["status"] == "broken" and "**Verdict:** inconclusive" in reports["coupons"]["description"]
    for name, report in reports.items():
        (steps,) = (suite.path / ".fairy").glob(f"sessions/*/*{name.replace(' ', '_')}-*/steps.jsonl")
        assert len(report["steps"]) == len(steps.read_text(encoding="utf-8").splitlines()) > 0, name


def test_a_baseline_diff_that_cannot_be_written_is_inconclusive_and_not_half_written(
    suite: pytest.Pytester,
) -> None:
    write(suite, "test_food.yaml", FOOD_SPEC)
    suite.runpytest("-p", "no:xdist").assert_outcomes(passed=2)
    (session,) = (p for p in (suite.path / ".fairy" / "sessions").iterdir() if p.is_dir())
    shutil.copytree(session, suite.path / "baseline")
    full_disk(suite, start=1, only=b'{\n  "schema": "pytest_fairy.tree_diff"')  # only diff.json fails
    result = suite.runpytest("-rA", "--fairy-baseline", "baseline", "-p", "no:xdist")
    assert result.parseoutcomes() == {"inconclusive": 2}
    result.stdout.fnmatch_lines(["INCONCLUSIVE *::coupons - artifacts: could not write */diff.json: *"])
    assert_no_traceback(result)
    assert_no_broken_files(suite.path / ".fairy")


KILLED_AT_STEP = """\
import os, signal

def pytest_fairy_step(item, record):
    print(f"printed step {record.step}", flush=True)
    if record.step == {step}:
        os.kill(os.getpid(), signal.SIGKILL)
"""


def test_a_step_handed_on_is_a_stored_step_when_the_run_is_killed(suite: pytest.Pytester) -> None:
    """The store is the first to hear of a step and has its line on disk before anything else hears of
    it: a run killed (-9) right after a step was handed on has that step in steps.jsonl."""
    write(suite, "test_food.yaml", FOOD_SPEC)
    write(suite, "conftest.py", KILLED_AT_STEP.replace("{step}", "4"))
    result = suite.runpytest_subprocess("-p", "no:xdist", "-s", "-k", "delivery")
    assert result.ret == -9
    printed = [line[line.index("printed step ") :] for line in result.outlines if "printed step " in line]
    assert printed == [f"printed step {n}" for n in range(1, 5)]
    (steps,) = (suite.path / ".fairy").glob("sessions/*/*delivery*/steps.jsonl")
    assert [json.loads(line)["step"] for line in steps.read_text(encoding="utf-8").splitlines()] == [1, 2, 3, 4]
