"""The README's promise: the shipped example suites pass on the virtual device, and the defect suite
catches its seeded crash and ANR."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run_examples(pytester: pytest.Pytester, folder: str) -> pytest.RunResult:
    artifacts = pytester.path / ".fairy"
    return pytester.runpytest_subprocess(
        str(ROOT / folder),
        f"--rootdir={ROOT}",
        "-p",
        "no:cacheprovider",
        f"--fairy-artifacts={artifacts}",
        "--junitxml",
        str(pytester.path / "junit.xml"),
    )


def test_example_suites_pass(pytester: pytest.Pytester) -> None:
    result = run_examples(pytester, "example_suites")
    result.assert_outcomes(passed=8)
    result.stdout.fnmatch_lines(["*fairy exploration summary*", "*test_food.yaml::delivery time: passed*"])


def test_example_defects_fail_with_evidence(pytester: pytest.Pytester) -> None:
    result = run_examples(pytester, "example_defects")
    result.assert_outcomes(failed=2)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        [
            "*app defect: app crashed: java.lang.NullPointerException*(reproduced 2/2 in 6 steps)",
            "*FATAL EXCEPTION: main*",
            "*app defect: app not responding (ANR)*(reproduced 2/2 in 6 steps)",
            "*ANR in com.example.notes*",
        ]
    )
