"""The session's cost (`--fairy-max-cost`) and the judge's model (`--fairy-judge-model`), end to end: the
real anthropic SDK against the local fake Messages API, each call billed a fixed number of tokens so that
every dollar figure is known in advance."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pytest_fairy.report.store import item_folder_name
from tests.claude.fake_api import FakeMessagesAPI, Reply
from tests.claude.stages import stage_of
from tests.replay.helpers import delivery_time_model
from tests.specs import DELIVERY_TIME, FOOD_APP_BLOCK

# 10k uncached input tokens a call: $0.02 on claude-sonnet-5-5 ($2/MTok), $0.05 on claude-opus-4-8 ($5).
CALL_TOKENS = 10_000
STEP_CALL = 0.02
NOT_EXPLORED = "session cost budget of $0.10 spent ($0.10 by 1 item); not explored"


def billed(request: dict[str, Any]) -> Reply:
    """The delivery-time model's answer, billed CALL_TOKENS input tokens and nothing else."""
    reply = delivery_time_model(request)
    assert reply.body is not None
    usage = {"input_tokens": CALL_TOKENS, "output_tokens": 0, "cache_creation_input_tokens": 0,
             "cache_read_input_tokens": 0}  # fmt: skip
    return Reply(reply.status, {**reply.body, "usage": usage})


def spec(features: int) -> str:
    """The food app with `features` copies of the delivery-time feature, named delivery 1, 2, ..."""
    return FOOD_APP_BLOCK + "".join(
        DELIVERY_TIME.replace("name: delivery time", f"name: delivery {n}") for n in range(1, features + 1)
    )


@pytest.fixture
def project(suite: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-0000")
    return suite


def run(project: pytest.Pytester, features: int, *options: str) -> tuple[pytest.RunResult, FakeMessagesAPI]:
    """`features` items explored with the Claude brain on the fake API (a subprocess with `-n`)."""
    (project.path / "test_food.yaml").write_text(spec(features), encoding="utf-8")
    with FakeMessagesAPI(responder=billed) as api, pytest.MonkeyPatch.context() as env:
        env.setenv("ANTHROPIC_BASE_URL", api.url)
        if "-n" in options:
            result = project.runpytest_subprocess("--fairy-no-cache", "-p", "xdist", *options)
        else:
            result = project.runpytest("--fairy-no-cache", "-p", "no:xdist", *options)
    return result, api


def test_once_the_session_budget_is_spent_the_later_items_are_not_explored_and_make_no_request(
    project: pytest.Pytester,
) -> None:
    result, api = run(project, 3, "-rA", "--fairy-max-cost", "0.10")
    # The first item spends the budget on its judge call, and writes its summary without one more call.
    assert [stage_of(body) for body in api.bodies] == ["plan", "next_action", "next_action", "next_action",
                                                       "judge"]  # fmt: skip
    assert result.parseoutcomes() == {"passed": 1, "inconclusive": 2}
    result.stdout.fnmatch_lines(
        [
            f"INCONCLUSIVE test_food.yaml::delivery 2 - {NOT_EXPLORED}",
            f"INCONCLUSIVE test_food.yaml::delivery 3 - {NOT_EXPLORED}",
        ]
    )
    result.stdout.fnmatch_lines(
        ["*fairy exploration summary*", "session cost: $0.1000 (1 item), budget $0.10"]
    )
    # Refused before their fixtures: no device launched the app for them, so they have no artifacts.
    (session,) = (project.path / ".fairy" / "sessions").glob("2*")
    explored = {folder.name for folder in session.iterdir() if folder.is_dir()}
    assert explored == {item_folder_name("test_food.yaml::delivery 1")}


def test_an_item_under_way_when_the_budget_runs_out_ends_after_its_step(project: pytest.Pytester) -> None:
    result, api = run(project, 2, "-rA", "--fairy-max-cost", "0.05")
    assert [stage_of(body) for body in api.bodies] == ["plan", "next_action", "next_action"]
    assert result.parseoutcomes() == {"inconclusive": 2}
    result.stdout.fnmatch_lines(
        [
            "inconclusive: session cost budget of $0.05 spent ($0.06 by 1 item) before step 3 (the run ended "
            "after step 2: *",
            "INCONCLUSIVE test_food.yaml::delivery 1 - session cost budget of $0.05 spent ($0.06 by 1 item) "
            "before step 3",
            "INCONCLUSIVE test_food.yaml::delivery 2 - session cost budget of $0.05 spent ($0.06 by 1 item); "
            "not explored",
        ]
    )
    result.stdout.fnmatch_lines(["session cost: $0.0600 (1 item), budget $0.05"])


def test_the_budget_holds_across_xdist_workers(project: pytest.Pytester) -> None:
    budget = 0.10
    result, api = run(project, 6, "-n", "2", "--fairy-max-cost", f"{budget}")
    spent = len(api.bodies) * STEP_CALL
    # Each worker sees the other's spend before each call: the session overshoots by the calls under way
    # when the budget ran out, one per worker (no more than one step: a judge and a decision).
    assert budget <= spent <= budget + 2 * STEP_CALL + 1e-9, len(api.bodies)
    outcomes = result.parseoutcomes()
    assert outcomes["inconclusive"] >= 4 and sum(outcomes.values()) == 6
    assert sum(1 for body in api.bodies if stage_of(body) == "plan") <= 3
    result.stdout.fnmatch_lines([f"session cost: $* (* items), budget ${budget:.2f}"])
    (ledger,) = (project.path / ".fairy" / "sessions").glob("*/cost-ledger.json")
    recorded = json.loads(ledger.read_text(encoding="utf-8"))
    assert sum(entry["usd"] for entry in recorded.values()) == pytest.approx(spent)


LOGIN = """
login:
  goal: sign in by opening 麦乐送
  done_when:
    - visible: 预约送餐
"""


def test_a_logins_calls_spend_from_the_session_budget_and_are_refused_once_it_is_spent(
    project: pytest.Pytester,
) -> None:
    """A login explored by the LLM brain (a goal, no steps) is paid from the same budget as the items."""
    with_login = spec(1).replace("\nfeatures:", LOGIN + "\nfeatures:")
    (project.path / "test_food.yaml").write_text(with_login, encoding="utf-8")
    with FakeMessagesAPI(responder=billed) as api, pytest.MonkeyPatch.context() as env:
        env.setenv("ANTHROPIC_BASE_URL", api.url)
        result = project.runpytest("--fairy-no-cache", "-p", "no:xdist", "-rA", "--fairy-max-cost", "10")
        calls = len(api.bodies)
        api.requests.clear()
        spent = project.runpytest("--fairy-no-cache", "-p", "no:xdist", "-rA", "--fairy-max-cost", "0.01")
        refused = list(api.bodies)
    assert result.parseoutcomes() == {"passed": 1}
    ledgers = sorted((project.path / ".fairy" / "sessions").glob("*/cost-ledger.json"))
    entries = json.loads(ledgers[0].read_text(encoding="utf-8")).values()
    login = [entry["usd"] for entry in entries if entry["item"] == "login of test_food.yaml"]
    assert login and login[0] > 0  # the login's calls are on the ledger, apart from the item's
    assert sum(entry["usd"] for entry in entries) == pytest.approx(calls * STEP_CALL)
    result.stdout.fnmatch_lines([f"session cost: ${calls * STEP_CALL:.4f} (1 item and 1 login), budget $10.00"])
    # A budget the login's first call spends: the login stops there and the item is not explored.
    assert len(refused) == 1
    assert spent.parseoutcomes() == {"inconclusive": 1}
    spent.stdout.fnmatch_lines(
        [
            "session cost: $0.0200 (1 login), budget $0.01",
            "INCONCLUSIVE test_food.yaml::delivery 1 - the spec's login did not sign in (0 steps): session cost "
            "budget of $0.01 spent ($0.02 by 1 login) before step 1",
        ]
    )


def test_without_a_budget_every_item_is_explored_and_the_summary_says_what_the_session_cost(
    project: pytest.Pytester,
) -> None:
    result, api = run(project, 2)
    assert result.parseoutcomes() == {"passed": 2}
    assert len(api.bodies) == 12
    result.stdout.fnmatch_lines(["session cost: $0.2400 (2 items)"])
    assert not list((project.path / ".fairy" / "sessions").glob("*/cost-ledger.json"))


def test_the_judge_model_judges_shaped_and_priced_as_its_own(project: pytest.Pytester) -> None:
    # A legacy judge (tool forced, thinking off) beside a current step model (tool offered, adaptive
    # thinking): the fake API refuses a request shaped for the other model.
    result, api = run(project, 1, "--junitxml", "junit.xml", "--fairy-judge-model", "claude-opus-4-8")
    assert result.parseoutcomes() == {"passed": 1}
    assert api.rejected == []
    models = [(stage_of(body), body["model"]) for body in api.bodies]
    assert models == [("plan", "claude-sonnet-5-5"), ("next_action", "claude-sonnet-5-5"),
                      ("next_action", "claude-sonnet-5-5"), ("next_action", "claude-sonnet-5-5"),
                      ("judge", "claude-opus-4-8"), ("summarize", "claude-sonnet-5-5")]  # fmt: skip
    judge = next(body for body in api.bodies if stage_of(body) == "judge")
    assert judge["tool_choice"]["type"] == "tool" and "output_config" not in judge
    result.stdout.fnmatch_lines(
        [
            "fairy: *; model claude-sonnet-5-5 (effort medium, adaptive thinking, tool offered); "
            "judge claude-opus-4-8 (tool forced, thinking off, legacy model); artifacts *"
        ]  # fmt: skip
    )
    # Five step calls at $2/MTok and one judge call at $5/MTok.
    junit = (project.path / "junit.xml").read_text(encoding="utf-8")
    assert '<property name="fairy.cost_usd" value="0.1500" />' in junit


def test_the_same_judge_model_as_the_step_model_is_one_model(project: pytest.Pytester) -> None:
    result, api = run(project, 1, "--fairy-judge-model", "claude-sonnet-5-5")
    assert result.parseoutcomes() == {"passed": 1}
    assert {body["model"] for body in api.bodies} == {"claude-sonnet-5-5"}
    result.stdout.no_fnmatch_line("*; judge claude-*")


def test_a_retired_judge_model_is_a_usage_error_in_one_line(project: pytest.Pytester) -> None:
    (project.path / "test_food.yaml").write_text(spec(1), encoding="utf-8")
    result = project.runpytest("--fairy-brain", "claude", "--fairy-judge-model", "claude-3-opus")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    errors = [line for line in result.stderr.lines if line.strip()]
    assert errors == [
        "ERROR: --fairy-judge-model claude-3-opus was retired on 2026-01-05: the API no longer serves it; "
        "current models: claude-fable-5-1, claude-opus-5-5, claude-sonnet-5-5, claude-haiku-5-5"
    ]


@pytest.mark.parametrize(
    ("raw", "taken"), [("2.50", 2.5), ("$2", 2.0), ("0", None), ("-1", None), ("two", None)]
)
def test_max_cost_takes_an_amount_of_dollars(
    pytester: pytest.Pytester, raw: str, taken: float | None
) -> None:
    from pytest_fairy.plugin.options import read_config

    if taken is None:
        with pytest.raises(pytest.UsageError, match="--fairy-max-cost .*: expected an amount in US dollars"):
            read_config(pytester.parseconfigure("--fairy-max-cost", raw))
    else:
        assert read_config(pytester.parseconfigure("--fairy-max-cost", raw)).max_cost == taken
