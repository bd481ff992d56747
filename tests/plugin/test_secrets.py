"""A password the explorer types is never written down: not in the -v step lines, the session store, the
feature tree, the Allure results or the JUnit XML. Prompts are built from the same step words."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

NOTES = Path(__file__).resolve().parents[2] / "example_suites" / "notes"
PASSWORD = "Passw0rd!"  # what the offline brain types into a password field
# The app model itself. The decision cache keeps the step without the password's text (a replay that
# reaches it asks the brain again); a password to replay comes as a secret's placeholder (the login).
KEPT = ("notes",)


def test_a_typed_password_is_in_no_output_and_no_artifact(pytester: pytest.Pytester) -> None:
    shutil.copytree(NOTES, pytester.path / "notes")
    result = pytester.runpytest_subprocess(
        "notes",
        "-k",
        "login",
        "-v",
        "-p",
        "no:cacheprovider",
        "--fairy-artifacts=.fairy",
        "--alluredir=allure-results",
        "--junitxml=junit.xml",
    )
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*type [[]*[]] *** '••••••'*"])  # it did type one
    assert PASSWORD not in result.stdout.str() + result.stderr.str()
    leaks = [
        str(path.relative_to(pytester.path))
        for path in pytester.path.rglob("*")
        if path.is_file()
        and not any(path.is_relative_to(pytester.path / kept) for kept in KEPT)
        and PASSWORD.encode() in path.read_bytes()
    ]
    assert not leaks
    assert (pytester.path / ".fairy").is_dir() and (pytester.path / "allure-results").is_dir()
    assert list((pytester.path / ".fairy" / "cache").rglob("*.json")), "the decision cache was written"
