"""The README's main job with the Claude brain: `pytest example_suites --fairy-brain claude` passes on
every current model and a legacy one, through the real anthropic SDK against the strict fake Messages
API, and not one request is refused. The fake refuses what each model refuses per the docs
(`tests/claude/api_rules.py`), so a request shape the model table gets wrong fails here.

The model is a script per feature: the labels a person would tap (or type into) in order, each found on
the screen the request shows, as a model reads it. The judge says complete when the request says every
done-when condition holds."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.claude import answers
from tests.claude.fake_api import FakeMessagesAPI, Reply, tool_reply
from tests.claude.stages import stage_of

ROOT = Path(__file__).resolve().parents[2]
MARK = re.compile(r'^\s*\[(\d+)\] (\w+) "([^"]*)"', re.MULTILINE)


@dataclass(frozen=True)
class Step:
    label: str  # the element's label on the screen (exactly, or a part of it); "" for `back`
    text: str | None = None  # typed into it (an EditText), when given

    def find(self, marks: list[tuple[str, str, str]]) -> int | None:
        fields = [(int(n), label) for n, cls, label in marks if self.text is None or cls == "EditText"]
        exact = [n for n, label in fields if label == self.label]
        return next(iter(exact), None) or next((n for n, label in fields if self.label in label), None)


BACK = Step("")


LOGIN = [Step("用户名", "13800138000"), Step("***", "Passw0rd!"), Step("登录")]
SCRIPTS: dict[str, list[Step]] = {
    "delivery ordering": [Step("麦乐送"), Step("确定"), Step("巨无霸"), Step("加入购物车"), BACK],
    "delivery time": [Step("麦乐送"), Step("预约送餐"), Step("确定")],
    "coupon reminders": [Step("优惠券"), Step("订阅"), Step("允许")],
    "store pickup": [Step("到店取餐"), Step("麦当劳 1 号店")],
    "login": LOGIN,
    "write a note": [*LOGIN, Step("新建笔记"), Step("标题", "周末计划"), Step("正文", "买菜"), Step("保存")],
    "search": [*LOGIN, Step("搜索"), Step("搜索笔记", "计划"), Step("搜索")],
    "dark mode": [*LOGIN, Step("设置"), Step("深色模式")],
}


class ScriptedModel:
    """Answers every stage of every feature; `next_action` takes the next scripted step on the screen."""

    def __init__(self) -> None:
        self.left = {feature: list(steps) for feature, steps in SCRIPTS.items()}

    def __call__(self, request: dict[str, Any]) -> Reply:
        stage = stage_of(request)
        text = "\n".join(
            block["text"] for block in request["messages"][-1]["content"] if block.get("type") == "text"
        )
        feature = re.search(r"^- Feature under test: (.+)$", text, re.MULTILINE)
        assert feature, text[:300]
        if stage == "plan":
            self.left[feature.group(1)] = list(SCRIPTS[feature.group(1)])
            return tool_reply("plan", answers.PLAN)
        if stage == "judge":
            done = "all done-when conditions hold on this screen" in text
            verdict = {"phase_completed": done, "feature_completed": done, "verdict": "pass" if done else "continue"}
            return tool_reply("judge", {**answers.JUDGE, **verdict})
        if stage == "summarize":
            return tool_reply("summarize", answers.SUMMARY)
        return tool_reply("next_action", self._next(self.left[feature.group(1)], text))

    @staticmethod
    def _next(steps: list[Step], screen: str) -> dict[str, Any]:
        marks = MARK.findall(screen.split("## The current screen", 1)[-1])
        for index, step in enumerate(steps):
            if step is BACK and index == 0:
                del steps[0]
                return answers.action(kind="back", mark=None, why="back to the list")
            found = step.find(marks) if step is not BACK else None
            if found is not None:
                del steps[: index + 1]  # steps before it were not needed (a login already done)
                kind = "type" if step.text is not None else "tap"
                return answers.action(kind=kind, mark=found, text=step.text, why=f"{kind} {step.label}")
        return answers.action(kind="done", mark=None)


@pytest.mark.parametrize(
    "model",
    [None, "claude-sonnet-5-5", "claude-opus-5-5", "claude-fable-5-1", "claude-sonnet-5"],
    ids=lambda m: m or "default",
)
def test_the_example_suites_pass_with_claude_and_no_request_is_refused(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, model: str | None
) -> None:
    options = ("--fairy-model", model) if model else ()
    with FakeMessagesAPI(responder=ScriptedModel()) as api:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-0000")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", api.url)
        result = pytester.runpytest(
            str(ROOT / "example_suites"), f"--rootdir={ROOT}", "-p", "no:cacheprovider",
            f"--fairy-artifacts={pytester.path / '.fairy'}", "--fairy-brain", "claude", *options,
        )
    assert [(r.status, r.message) for _, r in api.rejected] == []
    result.assert_outcomes(passed=8)
    expected = model or "claude-sonnet-5-5"
    assert {body["model"] for body in api.bodies} == {expected}
    thinking = [b for b in api.bodies if "thinking" in b]
    assert (thinking == []) is (expected != "claude-sonnet-5")  # only the legacy model turns it off
