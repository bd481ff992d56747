"""Where an item is and what happened to it, readable at a glance: node ids are always `path::feature`
(a spec outside the rootdir too), and a failure's first line - what the short summary shows - leads with
the verdict and its reason, the location after it, relative to the rootdir."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.specs import CHECK_FOR_UPDATES, NOTES_APP_BLOCK, UNREACHABLE

NOTES = Path(__file__).resolve().parents[2] / "example_suites" / "notes"
# The notes app with its model beside the spec.
SPEC = (NOTES_APP_BLOCK + CHECK_FOR_UPDATES + UNREACHABLE).replace("notes/app.yaml", "app.yaml")


@pytest.fixture
def outside(pytester: pytest.Pytester) -> Path:
    """A project folder, and a spec folder beside it (outside the project's rootdir)."""
    specs = pytester.path / "specs"
    specs.mkdir()
    shutil.copy(NOTES / "app.yaml", specs / "app.yaml")
    (specs / "test_notes.yaml").write_text(SPEC, encoding="utf-8")
    project = pytester.path / "project"
    project.mkdir()
    (project / "pytest.ini").write_text("[pytest]\nfairy_artifacts = .fairy\n", encoding="utf-8")
    return project


def test_a_spec_outside_the_rootdir_has_its_path_in_its_node_ids(
    pytester: pytest.Pytester, outside: Path
) -> None:
    pytester.chdir()
    result = pytester.runpytest_subprocess(
        "specs/test_notes.yaml", f"--rootdir={outside}", "-p", "no:cacheprovider", "--co", "-q"
    )
    result.stdout.fnmatch_lines(
        ["../specs/test_notes.yaml::check for updates", "../specs/test_notes.yaml::unreachable"]
    )
    assert not [line for line in result.outlines if line.startswith("::")]


def test_the_short_summary_leads_with_the_verdict_and_its_reason(
    pytester: pytest.Pytester, outside: Path
) -> None:
    specs = outside.parent / "specs"
    shutil.copytree(specs, outside / "specs")
    result = pytester.runpytest_subprocess(
        str(outside / "specs"), f"--rootdir={outside}", "-p", "no:cacheprovider", "-rA"
    )
    result.stdout.fnmatch_lines(
        [
            "app defect: app crashed: java.lang.NullPointerException*",
            "at specs/test_notes.yaml:6, feature 'check for updates'",
            # Cut to the terminal's width, the line still says what happened.
            "FAILED project/specs/test_notes.yaml::check for updates - app defect: app cra*",
            "INCONCLUSIVE project/specs/test_notes.yaml::unreachable - step budget of 2 spent*",
        ]
    )


def test_the_header_warns_once_when_no_cjk_font_is_installed(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pytest_fairy.perception import fonts

    spec = pytester.path / "test_notes.yaml"
    shutil.copy(NOTES / "app.yaml", pytester.path / "app.yaml")
    spec.write_text(SPEC, encoding="utf-8")
    monkeypatch.setattr(fonts, "font_path", lambda: "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc")
    with_font = pytester.runpytest("--co", "-p", "no:cacheprovider")
    assert "no CJK font" not in with_font.stdout.str()
    monkeypatch.setattr(fonts, "font_path", lambda: None)
    without = pytester.runpytest("--co", "-p", "no:cacheprovider")
    without.stdout.fnmatch_lines(
        ["fairy: WARNING no CJK font found: *install fonts-wqy-microhei or fonts-noto-cjk*"]
    )
    assert without.stdout.str().count("no CJK font") == 1
