"""Apps behind a login: the spec's `login:` signs in once per device, the items start signed in,
the credentials come from the environment and are in no output and no artifact (the decision cache
included), and a login that fails leaves the items inconclusive, never failed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
USER, PASSWORD = "tester.9f3c", "Xk7#long-secret"  # not the values the spec comment shows


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    shutil.copytree(ROOT / "example_login", pytester.path / "example_login")
    (pytester.path / "example_suites" / "notes").mkdir(parents=True)
    shutil.copy(ROOT / "example_suites" / "notes" / "app.yaml", pytester.path / "example_suites" / "notes")
    pytester.makeini("[pytest]\nfilterwarnings = ignore::pytest.PytestAssertRewriteWarning\n")
    monkeypatch.setenv("NOTES_USER", USER)
    monkeypatch.setenv("NOTES_PASSWORD", PASSWORD)
    return pytester


def test_features_behind_a_login_pass_and_no_artifact_holds_the_credentials(project: pytest.Pytester) -> None:
    result = project.runpytest_subprocess(
        "example_login",
        "-v",
        "-p",
        "no:cacheprovider",
        "--fairy-artifacts=.fairy",
        "--alluredir=allure-results",
        "--junitxml=junit.xml",
    )
    result.assert_outcomes(passed=3)
    output = result.stdout.str() + result.stderr.str()
    assert USER not in output and PASSWORD not in output
    files = [
        p
        for p in project.path.rglob("*")
        if p.is_file() and not p.is_relative_to(project.path / "example_suites")
    ]
    assert any(p.is_relative_to(project.path / "allure-results") for p in files)
    leaks = [
        str(p.relative_to(project.path))
        for p in files
        if USER.encode() in p.read_bytes() or PASSWORD.encode() in p.read_bytes()
    ]
    assert not leaks
    # What was shown instead: the signed-in account on the settings page, as its placeholder.
    steps = "".join(p.read_text(encoding="utf-8") for p in files if p.name == "steps.jsonl")
    assert "账号与安全 · {{NOTES_USER}}" in steps


def test_a_credential_not_in_the_environment_fails_that_spec_s_collection(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NOTES_PASSWORD")
    result = project.runpytest("example_login", "-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.INTERRUPTED  # a collection error, as a broken spec
    result.stdout.fnmatch_lines(
        [
            "*example_login/test_notes_login.yaml:14: the spec needs $NOTES_PASSWORD: set it in the environment*"
        ]
    )


def test_a_login_that_does_not_sign_in_leaves_every_item_inconclusive(project: pytest.Pytester) -> None:
    spec = project.path / "example_login" / "test_notes_login.yaml"
    spec.write_text(
        spec.read_text(encoding="utf-8").replace("visible: 共 200 条笔记", "visible: 欢迎回来"),
        encoding="utf-8",
    )
    result = project.runpytest("example_login", "-p", "no:cacheprovider", "-rA")
    assert result.parseoutcomes() == {"inconclusive": 3}
    result.stdout.fnmatch_lines(["INCONCLUSIVE *::search notes - the spec's login did not sign in (*"])
