"""Where an item is and what happened to it, readable at a glance: node ids are always `path::feature`
(a spec outside the rootdir too), and a failure's first line - what the short summary shows - leads with
the verdict and its reason, the location after it, relative to the rootdir."""

from __future__ import annotations

import dataclasses
import os
import shutil
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

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


def test_a_spec_outside_the_rootdir_run_from_a_third_folder_has_a_clean_failed_line(
    pytester: pytest.Pytester, outside: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pytest's own FAILED line and -v lines, not only ours, name the spec without a `..` chain."""
    runner = pytester.path / "runner"
    runner.mkdir()
    monkeypatch.chdir(runner)
    result = pytester.run(
        sys.executable,
        "-m",
        "pytest",
        "../specs",
        f"--rootdir={outside}",
        "-p",
        "no:cacheprovider",
        "-rA",
        "-v",
    )
    result.stdout.fnmatch_lines(
        [
            "../specs/test_notes.yaml::check for updates FAILED*",
            "FAILED ../specs/test_notes.yaml::check for updates - app defect*",
            "INCONCLUSIVE ../specs/test_notes.yaml::unreachable - step budget*",
        ]
    )
    assert "../project/../" not in result.stdout.str()


class _Config:
    """What `shown_paths.install` reads of a pytest Config, with pytest's unnormalised join."""

    def __init__(self, root: Path, invoked: Path) -> None:
        self.rootpath = root
        self.invocation_params = SimpleNamespace(dir=invoked)

    def cwd_relative_nodeid(self, nodeid: Any) -> Any:
        path = nodeid if isinstance(nodeid, str) else nodeid.path
        joined = os.path.join(
            *[".."] * len(self.invocation_params.dir.relative_to(self.rootpath.parent).parts)
        )
        shown = f"{joined}/{self.rootpath.name}/{path}"
        return shown if isinstance(nodeid, str) else dataclasses.replace(nodeid, path=shown)


@dataclasses.dataclass(frozen=True)
class _NodeId:  # pytest 9's NodeId: the same `path` field
    path: str


def test_only_spec_paths_that_name_the_same_file_are_shortened(tmp_path: Path) -> None:
    from pytest_fairy.plugin import shown_paths

    for folder in ("project", "specs", "runner"):
        (tmp_path / folder).mkdir()
    (tmp_path / "specs" / "test_x.yaml").write_text("", encoding="utf-8")
    (tmp_path / "specs" / "test_x.py").write_text("", encoding="utf-8")
    config = _Config(tmp_path / "project", tmp_path / "runner")
    shown_paths.install(config)  # type: ignore[arg-type]
    assert config.cwd_relative_nodeid("../specs/test_x.yaml::f") == "../specs/test_x.yaml::f"
    assert config.cwd_relative_nodeid(_NodeId("../specs/test_x.yaml")) == _NodeId("../specs/test_x.yaml")
    # A Python test file is pytest's to show.
    assert config.cwd_relative_nodeid("../specs/test_x.py::t") == "../project/../specs/test_x.py::t"
    # A rootdir reached through a symlink: `project/..` is the link target's parent, where another spec of
    # the same name is. pytest's path names the file the system opens, so it stays.
    linked = tmp_path / "linked"
    (linked / "real" / "project").mkdir(parents=True)
    (linked / "real" / "specs").mkdir()
    (linked / "real" / "specs" / "test_x.yaml").write_text("", encoding="utf-8")
    (linked / "specs").mkdir()
    (linked / "specs" / "test_x.yaml").write_text("", encoding="utf-8")
    (linked / "runner").mkdir()
    (linked / "project").symlink_to(linked / "real" / "project")
    through_link = _Config(linked / "project", linked / "runner")
    shown_paths.install(through_link)  # type: ignore[arg-type]
    assert through_link.cwd_relative_nodeid("../specs/test_x.yaml::f") == "../project/../specs/test_x.yaml::f"
