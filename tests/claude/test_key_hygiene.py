"""The API key never reaches the session store, the Allure results or the terminal: a whole run through
the plugin with the Claude brain on the fake server, one item passing and one whose API echoes the key
back in an error (as a misconfigured gateway might), then every file the run wrote is searched for it."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.claude import answers
from tests.claude.fake_api import FakeMessagesAPI, Reply, error_reply, tool_reply
from tests.claude.stages import stage_of
from tests.specs import DELIVERY_TIME, FOOD_APP_BLOCK
from tests.verdicts import verdict_counts

ROOT = Path(__file__).resolve().parents[2]
KEY = "sk-ant-api03-hygiene-7Qx2-LEAK-CANARY"
SPEC = (
    FOOD_APP_BLOCK
    + DELIVERY_TIME
    + """\
  - name: echoing gateway
    goal: the API answers this one with the key in its error message
"""
)
PATH = {"麦乐送": 4, "预约送餐": 2, "确定": 3}


def respond(request: dict[str, Any]) -> Reply:
    """The first feature is walked by mark; the second feature's plan gets an error that quotes the key."""
    stage = stage_of(request)
    text = "\n".join(b["text"] for b in request["messages"][-1]["content"] if b["type"] == "text")
    if "echoing gateway" in text and stage != "summarize":
        return error_reply(
            401, "authentication_error", f"invalid x-api-key: {KEY}", headers={"x-should-retry": "false"}
        )
    if stage != "next_action":
        fixed = {"plan": answers.PLAN, "judge": answers.JUDGE, "summarize": answers.SUMMARY}
        return tool_reply(stage, fixed[stage])
    screen = text.rsplit("## The current screen", 1)[-1]
    for label, mark in PATH.items():
        if (
            f"[{mark}] " in screen
            and f'"{label}' in screen
            and (label != "确定" or '预约送餐" checked' in screen)
        ):
            return tool_reply("next_action", answers.action(mark=mark, why=f"tap {label}"))
    return tool_reply("next_action", answers.action("done", None))


def test_the_key_is_nowhere_in_what_the_run_leaves(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    (pytester.path / "food").mkdir()
    shutil.copy(ROOT / "example_suites" / "food" / "app.yaml", pytester.path / "food" / "app.yaml")
    pytester.makeini(
        "[pytest]\nfairy_artifacts = .fairy\nfilterwarnings = ignore::pytest.PytestAssertRewriteWarning\n"
    )
    (pytester.path / "test_food.yaml").write_text(SPEC, encoding="utf-8")
    with FakeMessagesAPI(responder=respond) as api:
        monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
        monkeypatch.setenv("ANTHROPIC_BASE_URL", api.url)
        result = pytester.runpytest("-v", "--alluredir", "allure-results", "--junitxml", "junit.xml")

    assert verdict_counts(result) == {"passed": 1, "failed": 0, "inconclusive": 1}
    assert all(r.headers["authorization"] == f"Bearer {KEY}" for r in api.requests)  # the key was in use
    result.stdout.fnmatch_lines(["*inconclusive: brain unavailable*authentication_error*"])

    written = [
        p
        for folder in (".fairy", "allure-results")
        for p in (pytester.path / folder).rglob("*")
        if p.is_file()
    ]
    written.append(pytester.path / "junit.xml")
    assert any(p.suffix == ".json" for p in written) and len(written) > 5, written  # the run did write
    needle = KEY.encode()
    leaks = [str(p.relative_to(pytester.path)) for p in written if needle in p.read_bytes()]
    assert leaks == []
    assert KEY not in result.stdout.str() and KEY not in result.stderr.str()
    # What the API said does reach the report, with the key masked.
    assert any(b"invalid x-api-key: ***" in p.read_bytes() for p in written)
