"""pytest_fairy's extension hooks, implemented in a project's conftest.py: veto or rewrite an action, add a
defect oracle, add attachments to the report's steps. Each is seen working through a real run of the food
spec on the virtual device."""

from __future__ import annotations

import json

import pytest

from tests.specs import DELIVERY_TIME, FOOD_APP_BLOCK

# Every step's action, reasoning and denial, as the pytest_fairy_step hook sees it.
RECORDING = """
import json
from pathlib import Path

def pytest_fairy_step(item, record):
    with Path("steps.jsonl").open("a", encoding="utf-8") as out:
        out.write(json.dumps({"step": record.step, "action": record.action, "why": record.reasoning,
                              "denial": record.denial, "reached": record.reached}, ensure_ascii=False) + "\\n")
"""


@pytest.fixture
def project(suite: pytest.Pytester) -> pytest.Pytester:
    (suite.path / "test_food.yaml").write_text(FOOD_APP_BLOCK + DELIVERY_TIME, encoding="utf-8")
    return suite


def steps_of(project: pytest.Pytester) -> list[dict[str, str]]:
    lines = (project.path / "steps.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def test_a_vetoed_action_is_a_denial_the_brain_goes_on_from(project: pytest.Pytester) -> None:
    project.makeconftest(
        RECORDING
        + """
def pytest_fairy_review_action(item, action, screen, step):
    return "our first step is always a look around" if step == 1 else None
"""
    )
    project.runpytest()
    steps = steps_of(project)
    assert steps[0]["denial"] == "vetoed: our first step is always a look around", steps[0]
    assert len(steps) > 1 and not any(s["denial"] for s in steps[1:])
    # Not taken: the screen is still the home screen, and the brain chose something else from it.
    assert steps[0]["reached"].startswith("state_home")
    assert steps[1]["action"] != steps[0]["action"]


def test_a_rewritten_action_is_taken_instead_and_says_so(project: pytest.Pytester) -> None:
    project.makeconftest(
        RECORDING
        + """
from pytest_fairy.explore.action import Action, ActionKind

def pytest_fairy_review_action(item, action, screen, step):
    if step != 1:
        return None
    coupons = next(m for m in screen.marks if m.label == "优惠券")
    return Action(ActionKind.TAP, coupons.number)
"""
    )
    project.runpytest()
    first = steps_of(project)[0]
    assert first["action"].endswith("] 优惠券"), first
    assert "(rewritten by a hook: the brain chose " in first["why"]
    assert first["reached"].startswith("state_coupon")


def test_a_project_defect_oracle_fails_the_item_with_its_evidence(project: pytest.Pytester) -> None:
    project.makeconftest(
        """
from pytest_fairy.explore.oracles import Finding

def pytest_fairy_check(item, observation):
    if observation.screen.find_text("请选择您的送达时间"):
        return [Finding("house rule", "the delivery-time dialog must not ask", evidence=observation.state_name)]
    return None
"""
    )
    result = project.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*app defect: the delivery-time dialog must not ask (reproduced 2/2 in * step*)",
            "(seen after step *: see the report step '* → 麦乐送 [[]state_productmdslist_*+dlg_*[]]')",
            "state_productmdslist_*+dlg_*",  # the evidence
        ]
    )


def test_hook_attachments_land_in_their_allure_step(project: pytest.Pytester) -> None:
    project.makeconftest(
        """
from pytest_fairy.report.allure import Attachment

def pytest_fairy_step_attachments(item, record):
    return [Attachment(f"step {record.step} house note", f"{record.action} on {record.state}")]
"""
    )
    project.runpytest("--alluredir", "allure-results").assert_outcomes(passed=1)
    results = project.path / "allure-results"
    found = json.loads(next(results.glob("*-result.json")).read_text(encoding="utf-8"))
    for number, step in enumerate(found["steps"], 1):
        notes = [a for a in step["attachments"] if a["name"] == f"step {number} house note"]
        assert len(notes) == 1 and notes[0]["type"] == "text/plain", step["attachments"]
        body = (results / notes[0]["source"]).read_text(encoding="utf-8")
        assert " on state_" in body and notes[0]["source"].endswith(".txt")


def test_a_hook_that_raises_ends_its_item_inconclusive_with_its_artifacts(project: pytest.Pytester) -> None:
    project.makeconftest(
        """
def pytest_fairy_check(item, observation):
    if "productmdslist" in observation.state_name:
        raise KeyError("menu")
"""
    )
    result = project.runpytest()
    assert result.parseoutcomes() == {"inconclusive": 1}
    result.stdout.fnmatch_lines(["*inconclusive: a pytest_fairy_check hook raised KeyError: 'menu'*"])
    sessions = [p for p in (project.path / ".fairy" / "sessions").iterdir() if p.is_dir()]
    assert list(sessions[0].glob("*/tree.json")) and list(sessions[0].glob("*/result.json"))


def test_a_review_answering_nonsense_is_named(project: pytest.Pytester) -> None:
    project.makeconftest("def pytest_fairy_review_action(item, action, screen, step):\n    return False\n")
    result = project.runpytest()
    assert result.parseoutcomes() == {"inconclusive": 1}
    result.stdout.fnmatch_lines(["*a pytest_fairy_review_action hook returned False: expected a reason*"])



MAKE_BRAIN = """
from pytest_fairy import ScriptedBrain

class HouseBrain(ScriptedBrain):
    name = "house"

def pytest_fairy_make_brain(config, target, default):
    return HouseBrain(["tap 麦乐送", "tap 预约送餐", "tap 确定"])
"""


def test_the_brain_a_project_makes_is_the_one_that_runs_and_the_one_reported(project: pytest.Pytester) -> None:
    """pytest_fairy_make_brain chooses the brain before the item's explorer and report are built: the
    report names the brain that ran, not the one it replaced."""
    project.makeconftest(RECORDING + MAKE_BRAIN)
    result = project.runpytest("-p", "no:xdist", "--alluredir", "results")
    result.assert_outcomes(passed=1)
    facts = (project.path / "results" / "environment.properties").read_text(encoding="ascii")
    assert "brain=house" in facts.splitlines()
    assert [step["action"] for step in steps_of(project)][:2] == ["tap [4] 麦乐送", "tap [2] 预约送餐"]
