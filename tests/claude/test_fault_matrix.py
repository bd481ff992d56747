"""The fault matrix, against the fake Messages API through the real SDK: every fault ends as a
retry that succeeds or as a `BrainError`, which the explorer turns into an inconclusive item - in bounded
time, even where the server asks for long waits or never answers.

Finer points of each fault (what the correction says, the retry-after cap, the key) are in test_faults.py.
"""

from __future__ import annotations

import re
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from fairy_virtual import VirtualDevice
from pytest_fairy.brain.claude import ClaudeBrain
from pytest_fairy.brain.claude_api import make_client
from pytest_fairy.errors import BrainError
from pytest_fairy.explore.decisions import Decision
from pytest_fairy.explore.explorer import Explorer
from pytest_fairy.explore.target import Target
from pytest_fairy.explore.verdict import Verdict
from tests.claude import answers, synthetic
from tests.claude.conftest import FAKE_KEY, FAST
from tests.claude.fake_api import FakeMessagesAPI, Reply, error_reply, text_reply, tool_reply
from tests.claude.stages import stage_of

FOOD = Path(__file__).resolve().parents[2] / "example_suites" / "food"
# One transport retry and short waits keep the worst case (a timeout, retried once) a few seconds; the
# timeout is long enough that a loaded machine's slow local answer is no timeout.
SETTINGS = replace(FAST, max_retries=1, timeout_seconds=1.5)
BOUND_SECONDS = 30.0  # far above the worst case; only reached if a wait is not capped
OK = answers.action()
GOOD = tool_reply("next_action", OK)
REFUSAL = Reply(body={**text_reply("I can't help with that.").body, "stop_reason": "refusal"})  # type: ignore[dict-item]


@dataclass(frozen=True)
class Fault:
    replies: tuple[Reply, ...]  # what next_action gets, in order; then good answers
    error: str | None  # None = a retry succeeds; else what the BrainError says
    calls: int  # requests the brain makes for the one decision
    unreachable: bool = False


MATRIX: dict[str, Fault] = {
    "429 retry-after, then ok": Fault(
        (error_reply(429, "rate_limit_error", "slow down", headers={"retry-after": "0"}), GOOD), None, 2),
    "429 retry-after of an hour, then ok": Fault(
        (error_reply(429, "rate_limit_error", "slow down", headers={"retry-after": "3600"}), GOOD), None, 2),
    "529 once, then ok": Fault((error_reply(529, "overloaded_error", "Overloaded"), GOOD), None, 2),
    "529 several times": Fault(
        (error_reply(529, "overloaded_error", "Overloaded"),) * 3, "HTTP 529 overloaded_error: Overloaded", 2),
    "500 once, then ok": Fault((error_reply(500, "api_error", "Internal server error"), GOOD), None, 2),
    "500 persistently": Fault(
        (error_reply(500, "api_error", "Internal server error"),) * 3, "HTTP 500 api_error", 2),
    "timeout": Fault(
        (Reply(body=GOOD.body, delay=4.0),) * 2, r"no answer within 1.5s \(after 1 retries\)", 2),
    "timeout once, then ok": Fault((Reply(body=GOOD.body, delay=4.0), GOOD), None, 2),
    "connection refused": Fault((), "cannot reach the API", 0, unreachable=True),
    "invalid JSON body": Fault((Reply(raw=b'{"id": "msg_1", "type": "mess'),), "the API's answer is not JSON", 1),
    "a body that is not a message": Fault(
        (Reply(body={"type": "message", "id": "msg_1"}),), "APIResponseValidationError", 1),
    "schema-invalid input, then ok": Fault(
        (tool_reply("next_action", {**OK, "kind": "jump"}), GOOD), None, 2),
    "schema-invalid input twice": Fault(
        (tool_reply("next_action", {**OK, "kind": "jump"}),) * 2, "no usable `next_action` answer", 2),
    "max_tokens stop, then ok": Fault(
        (tool_reply("next_action", {"observation": "a"}, stop_reason="max_tokens"), GOOD), None, 2),
    "max_tokens stop twice": Fault(
        (tool_reply("next_action", {"observation": "a"}, stop_reason="max_tokens"),) * 2,
        "cut off at max_tokens", 2),
    "refusal": Fault((REFUSAL,), "refused the `next_action` request: I can't help with that", 1),
    "a text answer without the tool, then ok": Fault((text_reply("Tap the menu."), GOOD), None, 2),
    "a text answer without the tool twice": Fault(
        (text_reply("Tap the menu."),) * 2, "answered without calling a tool", 2),
}


def _closed_port_url() -> str:
    with socket.socket() as probe:  # bound, never listening: connections are refused
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}"


def _responder(fault: Fault) -> Callable[[dict[str, Any]], Reply]:
    """next_action gets the fault's replies first; every other stage and later call a good answer."""
    pending = list(fault.replies)

    def respond(request: dict[str, Any]) -> Reply:
        stage = stage_of(request)
        if stage == "next_action" and pending:
            return pending.pop(0)
        fixed = {"plan": answers.PLAN, "next_action": answers.action("done", None), "judge": answers.JUDGE,
                 "summarize": answers.SUMMARY}
        return tool_reply(stage, fixed[stage])

    return respond


def _brain(api: FakeMessagesAPI, fault: Fault) -> ClaudeBrain:
    url = _closed_port_url() if fault.unreachable else api.url
    client = make_client(SETTINGS, api_key=FAKE_KEY, base_url=url, _strict_response_validation=True)
    return ClaudeBrain(SETTINGS, client=client)


def _bounded(call: Callable[[], Any]) -> Any:
    """Run `call` in a thread; fail if it is still running after BOUND_SECONDS (an uncapped wait)."""
    result: list[Any] = []

    def run() -> None:
        try:
            result.append(call())
        except BrainError as exc:
            result.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(BOUND_SECONDS)
    assert not worker.is_alive(), "the brain was still waiting: a fault without a bound"
    assert result, "the call raised something other than BrainError"
    return result[0]


@pytest.mark.parametrize("name", list(MATRIX))
def test_each_fault_ends_as_a_successful_retry_or_a_brain_error(name: str) -> None:
    fault = MATRIX[name]
    with FakeMessagesAPI(responder=_responder(fault)) as api:
        brain = _brain(api, fault)
        outcome = _bounded(lambda: brain.decide(synthetic.context(2)))
    if fault.error is None:
        assert isinstance(outcome, Decision) and outcome.action is not None
    else:
        assert isinstance(outcome, BrainError)
        assert re.search(fault.error, str(outcome)), str(outcome)
        assert FAKE_KEY not in str(outcome)
    assert len(api.bodies) == fault.calls


FAILING = [name for name, fault in MATRIX.items() if fault.error is not None]


@pytest.mark.parametrize("name", FAILING)
def test_a_fault_that_persists_ends_the_item_inconclusive(name: str) -> None:
    fault = MATRIX[name]
    target = Target(app_name="麦当劳", package="com.mcdonalds.gma.cn", feature="delivery time",
                    goal="choose a delivery time", max_steps=5)
    with FakeMessagesAPI(responder=_responder(fault)) as api:
        brain = _brain(api, fault)
        # Unreachable, even the plan fails; otherwise the plan gets through and the first decision fails.
        result = _bounded(lambda: Explorer(VirtualDevice(FOOD, latency=False), brain).explore(target))
    assert result.verdict is Verdict.INCONCLUSIVE
    assert result.reason.startswith("brain unavailable: ")
    assert FAKE_KEY not in result.reason and FAKE_KEY not in result.summary
