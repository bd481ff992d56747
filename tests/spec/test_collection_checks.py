"""What a spec file is told when it is collected: an app model of another app is one line, its own
collection error; a feature without done_when is a warning at its line that pytest's filters govern."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

FOOD_MODEL = Path(__file__).resolve().parents[2] / "example_suites" / "food" / "app.yaml"

GOOD = """\
app:
  name: 麦当劳
  package: com.mcdonalds.gma.cn
  virtual: food/app.yaml
features:
  - name: coupons
    goal: 优惠券：订阅领券提醒
    allow: [purchase]
    done_when:
      - visible: 已订阅领券提醒
"""

OTHER_PACKAGE = """\
app:
  name: 麦当劳
  package: com.mcdonalds.gma
  virtual: food/app.yaml
features:
  - name: coupons
    goal: 优惠券：订阅领券提醒
    done_when:
      - visible: 已订阅领券提醒
  - name: menu
    goal: browse the menu
    done_when:
      - visible: 菜单
"""

OPEN = """\
app:
  name: 麦当劳
  package: com.mcdonalds.gma.cn
  virtual: food/app.yaml
features:
  - name: coupons
    goal: 优惠券：订阅领券提醒
    done_when:
      - visible: 已订阅领券提醒

  - name: look around
    goal: explore every screen
    max_steps: 2
"""


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    (pytester.path / "food").mkdir()
    shutil.copy(FOOD_MODEL, pytester.path / "food" / "app.yaml")
    pytester.makeini(
        "[pytest]\nfairy_artifacts = .fairy\nfilterwarnings = ignore::pytest.PytestAssertRewriteWarning\n"
    )
    return pytester


def test_a_spec_whose_package_is_not_its_models_fails_its_own_collection_in_one_line(
    project: pytest.Pytester,
) -> None:
    (project.path / "test_good.yaml").write_text(GOOD, encoding="utf-8")
    (project.path / "test_other.yaml").write_text(OTHER_PACKAGE, encoding="utf-8")
    result = project.runpytest("--continue-on-collection-errors")
    result.assert_outcomes(passed=1, errors=1)
    said = (
        f"{project.path / 'test_other.yaml'}:3: app.package 'com.mcdonalds.gma' is not the package of the app "
        "model 'food/app.yaml' ('com.mcdonalds.gma.cn'), so the virtual device could not launch it; make the "
        "two the same, or name the model of this app in app.virtual"
    )
    output = result.stdout.lines
    assert output.count(said) == 1, "one line for the spec, not one per feature"
    assert not [line for line in output if "com.mcdonalds.gma'" in line and line != said]


def test_a_feature_without_done_when_is_a_warning_at_its_line(project: pytest.Pytester) -> None:
    (project.path / "test_open.yaml").write_text(OPEN, encoding="utf-8")
    result = project.runpytest("--co", "-q")
    result.stdout.fnmatch_lines(
        [
            f"*{project.path / 'test_open.yaml'}:11: OpenExploration: feature 'look around' has no done_when: "
            "it is explored openly (every screen it reaches) and can only fail on a defect it sees (a crash, an "
            "ANR, a must_not), never on the feature not working; give it a done_when to check that it works",
        ]
    )
    assert "feature 'coupons' has no done_when" not in result.stdout.str()


def test_the_warning_is_silenced_or_made_an_error_by_its_class(project: pytest.Pytester) -> None:
    (project.path / "test_open.yaml").write_text(OPEN, encoding="utf-8")
    name = "pytest_fairy.plugin.items.OpenExploration"
    quiet = project.runpytest("--co", "-q", "-W", f"ignore::{name}")
    assert "OpenExploration" not in quiet.stdout.str()
    quiet.stdout.fnmatch_lines(["test_open.yaml::look around"])
    strict = project.runpytest("--co", "-q", "-W", f"error::{name}")
    strict.stdout.fnmatch_lines(
        [f"{project.path / 'test_open.yaml'}:11: feature 'look around' has no done_when*"]
    )
    assert strict.ret == pytest.ExitCode.INTERRUPTED and "Traceback" not in strict.stdout.str()
