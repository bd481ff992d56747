"""A spec explored with the Claude brain, end to end: the real anthropic SDK against a local Messages
server whose answers are scripted by reading the screen it was sent, as a model would."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.claude import answers
from tests.claude.fake_api import FakeMessagesAPI, Reply, tool_reply
from tests.claude.stages import stage_of
from tests.specs import DELIVERY_TIME, FOOD_APP_BLOCK

ROOT = Path(__file__).resolve().parents[2]
SPEC = FOOD_APP_BLOCK + DELIVERY_TIME + "    budget: {tokens: 1000000, cost_usd: 5}\n"


class ScreenReader:
    """Answers each stage; next_action taps the first label of `path` that is on the screen sent."""

    def __init__(self, path: list[str]) -> None:
        self.path = list(path)

    def __call__(self, request: dict[str, Any]) -> Reply:
        stage = stage_of(request)
        if stage == "plan":
            return tool_reply("plan", answers.PLAN)
        if stage == "judge":
            return tool_reply("judge", answers.JUDGE)
        if stage == "summarize":
            return tool_reply("summarize", answers.SUMMARY)
        content = request["messages"][-1]["content"]
        screen = "\n".join(block["text"] for block in content if block.get("type") == "text")
        for label in self.path:
            found = re.search(r"^\s*\[(\d+)\] \w+ \"" + re.escape(label), screen, re.MULTILINE)
            if found:
                self.path.remove(label)
                return tool_reply("next_action", answers.action(mark=int(found.group(1)), why=f"tap {label}"))
        return tool_reply("next_action", answers.action(kind="done", mark=None))


@pytest.fixture
def project(suite: pytest.Pytester) -> pytest.Pytester:
    (suite.path / "test_food.yaml").write_text(SPEC, encoding="utf-8")
    return suite


@pytest.mark.parametrize(
    ("options", "header"),
    [
        ((), "claude-sonnet-5-5 (effort medium, adaptive thinking, tool offered)"),
        (("--fairy-model", "claude-opus-5-5", "--fairy-effort", "low"), "claude-opus-5-5 (effort low, *)"),
        (("--fairy-model", "claude-fable-5-1"), "claude-fable-5-1 (effort medium, *)"),
        (("--fairy-model", "claude-sonnet-5"), "claude-sonnet-5 (tool forced, thinking off, legacy model)"),
        (
            ("--fairy-model", "claude-haiku-4-5"),
            "claude-haiku-4-5 (tool forced, *); no prompt cache expected: *minimum of 4096",
        ),
    ],
)
def test_claude_brain_explores_a_spec_through_the_real_sdk(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, options: tuple[str, ...], header: str
) -> None:
    with FakeMessagesAPI(responder=ScreenReader(["麦乐送", "预约送餐", "确定"])) as api:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-0000")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", api.url)
        result = project.runpytest("-v", "--alluredir", "allure-results", *options)
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(
        [
            f"fairy: device virtual (in-process); brain claude (ANTHROPIC_API_KEY is set); model {header};*",
            "    step 1: tap [[]*[]] 麦乐送 -> *",
            "*test_food.yaml::delivery time: passed: 3 steps, *, * tokens (*% cache reads*), $*",
        ]
    )
    stages = [stage_of(body) for body in api.bodies]
    assert stages[0] == "plan" and stages[-1] == "summarize"
    assert stages.count("next_action") == 3
    report = next((project.path / "allure-results").glob("*-result.json")).read_text(encoding="utf-8")
    assert "sk-ant-test-0000" not in report
    assert '"name": "tokens"' in report


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (("--fairy-effort", "extreme"), "--fairy-effort extreme: expected one of low, medium, high, xhigh, max"),
        (("--fairy-model", "claude-haiku-4-5", "--fairy-effort", "high"), "*claude-haiku-4-5 takes no effort*"),
        (("--fairy-model", "claude-3-7-sonnet"), "--fairy-model claude-3-7-sonnet was retired on 2026-02-19*"),
    ],
)
def test_an_effort_the_model_refuses_is_a_usage_error_before_any_call(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, options: tuple[str, ...], message: str
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-0000")
    result = project.runpytest("--fairy-brain", "claude", *options)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*{message}*"])


def test_unreachable_api_ends_the_item_broken_never_green(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    with FakeMessagesAPI(
        responder=lambda request: Reply(
            status=500, body={"type": "error", "error": {"type": "api_error", "message": "internal"}}
        )
    ) as api:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-0000")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", api.url)
        result = project.runpytest("--alluredir", "allure-results")
    assert result.parseoutcomes() == {"inconclusive": 1}, "inconclusive, never an app defect"
    result.stdout.fnmatch_lines(["*inconclusive: brain unavailable*500*"])
    status = json.loads(next((project.path / "allure-results").glob("*-result.json")).read_text())["status"]
    assert status == "broken"


def test_ini_sets_how_many_follow_ups_one_answer_may_queue(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    project.makeini("[pytest]\nfairy_max_queued_actions = 2\n")
    with FakeMessagesAPI(responder=ScreenReader(["麦乐送", "预约送餐", "确定"])) as api:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-0000")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", api.url)
        result = project.runpytest()
    result.assert_outcomes(passed=1)
    tools = {tool["name"]: tool for tool in api.bodies[0]["tools"]}
    then = tools["next_action"]["input_schema"]["properties"]["then"]
    assert then["description"].startswith("At most 2 actions"), then


def test_a_negative_queue_length_is_a_usage_error(project: pytest.Pytester) -> None:
    project.makeini("[pytest]\nfairy_max_queued_actions = -1\n")
    result = project.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*fairy_max_queued_actions: expected a whole number, 0 or more, got '-1'*"])
