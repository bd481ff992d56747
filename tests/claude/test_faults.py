"""Bad answers, API errors, timeouts and the API key: what the brain does and what it never shows."""

from __future__ import annotations

import logging
import socket
import threading
from dataclasses import replace

import pytest

from pytest_fairy.brain.claude import ClaudeBrain, ClaudeSettings
from pytest_fairy.brain.claude_api import MissingApiKey
from pytest_fairy.errors import BrainError
from pytest_fairy.explore.action import Action, ActionKind
from tests.claude import answers, synthetic
from tests.claude.conftest import FAKE_KEY, FAST, brain_on
from tests.claude.fake_api import FakeMessagesAPI, Reply, error_reply, text_reply, tool_reply
from tests.claude.test_round_trips import user_text

# -- answers that cannot be used: one corrective retry ---------------------------------------------------


def test_a_schema_invalid_answer_gets_one_corrective_retry(api: FakeMessagesAPI, brain: ClaudeBrain) -> None:
    broken = answers.action()
    del broken["assessment"]
    api.push(tool_reply("next_action", {**broken, "colour": "red"}),
             tool_reply("next_action", answers.action()))
    decision = brain.decide(synthetic.context(2))

    assert decision.action == Action(ActionKind.TAP, 2)
    first, second = api.bodies
    correction = user_text(second)[len(user_text(first)):]
    assert "input.assessment: missing" in correction
    assert "input.colour: not a field of this tool" in correction
    assert '"colour": "red"' in correction  # the model sees what it sent
    assert second["tool_choice"] == first["tool_choice"] and second["tools"] == first["tools"]
    assert brain.usage().calls == 2


def test_two_invalid_answers_raise_brain_error(api: FakeMessagesAPI, brain: ClaudeBrain) -> None:
    bad = answers.action(kind="jump")
    api.push(tool_reply("next_action", bad), tool_reply("next_action", bad), tool_reply("next_action", bad))
    with pytest.raises(BrainError, match="no usable `next_action` answer after 1 corrective retry.*'jump'"):
        brain.decide(synthetic.context(2))
    assert len(api.bodies) == 2


def test_a_mark_not_on_the_screen_is_corrected_with_the_valid_range(
    api: FakeMessagesAPI, brain: ClaudeBrain
) -> None:
    api.push(tool_reply("next_action", answers.action("tap", 17)),
             tool_reply("next_action", answers.action()))
    assert brain.decide(synthetic.context(2)).action == Action(ActionKind.TAP, 2)
    expected = "mark [17] is not on this screen; the marks on this screen are [1]..[5]"
    assert expected in user_text(api.bodies[1])


@pytest.mark.parametrize(
    ("answer", "problem"),
    [
        (answers.action("type", 2, text=None), "type needs the text"),
        (answers.action("tap", None), "tap needs a mark number"),
        (answers.action("scroll", None, direction=None), "scroll needs a direction"),
        ({**answers.action(), "assessment": {**answers.action()["assessment"], "completion_rate": 140}},
         "completion_rate must be a percent"),
    ],
)
def test_answers_that_make_no_sense_are_corrected(
    api: FakeMessagesAPI, brain: ClaudeBrain, answer: dict, problem: str
) -> None:
    api.push(tool_reply("next_action", answer), tool_reply("next_action", answers.action()))
    brain.decide(synthetic.context(2))
    assert problem in user_text(api.bodies[1])


def test_a_judge_fail_without_evidence_is_corrected(api: FakeMessagesAPI, brain: ClaudeBrain) -> None:
    api.push(tool_reply("judge", {**answers.JUDGE, "verdict": "fail"}), tool_reply("judge", answers.JUDGE))
    assert brain.judge(synthetic.context(5)).complete
    assert "verdict 'fail' needs at least one finding" in user_text(api.bodies[1])


def test_a_text_answer_or_another_tool_is_corrected(api: FakeMessagesAPI) -> None:
    brain = brain_on(api, replace(FAST, model="claude-sonnet-5-5"))
    api.push(text_reply("I think we should tap the menu."), tool_reply("judge", answers.JUDGE),
             tool_reply("next_action", answers.action()))
    with pytest.raises(BrainError, match="called `judge`, but this step needs the `next_action` tool"):
        brain.decide(synthetic.context(2))
    assert api.bodies[0]["tool_choice"] == {"type": "auto", "disable_parallel_tool_use": True}
    assert "without calling a tool" in user_text(api.bodies[1])


def test_a_truncated_answer_is_retried_with_more_room(api: FakeMessagesAPI, brain: ClaudeBrain) -> None:
    partial = {"observation": "a category list and a product"}
    api.push(tool_reply("next_action", partial, stop_reason="max_tokens"),
             tool_reply("next_action", answers.action()))
    assert brain.decide(synthetic.context(2)).action == Action(ActionKind.TAP, 2)
    first, second = api.bodies
    assert (first["max_tokens"], second["max_tokens"]) == (FAST.max_tokens, 2 * FAST.max_tokens)
    assert "hit the output limit of 1024 tokens" in user_text(second)


def test_truncated_twice_raises_brain_error(api: FakeMessagesAPI, brain: ClaudeBrain) -> None:
    cut = tool_reply("next_action", answers.action(), stop_reason="max_tokens")
    api.push(cut, cut)
    with pytest.raises(BrainError, match="cut off at max_tokens=2048"):
        brain.decide(synthetic.context(2))


# -- the API failing ----------------------------------------------------------------------------------


def test_overloaded_then_success_is_retried_by_the_sdk(api: FakeMessagesAPI, brain: ClaudeBrain) -> None:
    api.push(error_reply(529, "overloaded_error", "Overloaded"), tool_reply("next_action", answers.action()))
    assert brain.decide(synthetic.context(2)).action == Action(ActionKind.TAP, 2)
    assert [r.headers.get("x-stainless-retry-count") for r in api.requests] == ["0", "1"]
    assert brain.usage().calls == 1  # a transport retry is not a second answer


@pytest.mark.parametrize("header", [{"retry-after": "3600"}, {"retry-after-ms": "3600000"}])
def test_a_huge_retry_after_is_capped(
    api: FakeMessagesAPI, brain: ClaudeBrain, header: dict[str, str]
) -> None:
    api.push(error_reply(429, "rate_limit_error", "slow down", headers=header),
             tool_reply("next_action", answers.action()))
    result: list[object] = []
    worker = threading.Thread(target=lambda: result.append(brain.decide(synthetic.context(2))), daemon=True)
    worker.start()
    worker.join(60)  # uncapped, the SDK would sleep for an hour here
    assert not worker.is_alive(), "the retry-after of one hour was obeyed"
    assert len(result) == 1 and len(api.requests) == 2


def test_a_persistent_server_error_becomes_brain_error_with_status(
    api: FakeMessagesAPI, brain: ClaudeBrain
) -> None:
    api.push(*[error_reply(500, "api_error", "Internal server error")] * 3)
    with pytest.raises(BrainError) as caught:
        brain.decide(synthetic.context(2))
    message = str(caught.value)
    assert "HTTP 500 api_error: Internal server error" in message
    assert "request id req_fake_3" in message and "next_action" in message
    assert len(api.requests) == FAST.max_retries + 1
    assert type(caught.value.__cause__).__name__ == "InternalServerError"  # translated at the seam


def test_a_bad_request_is_not_retried(api: FakeMessagesAPI, brain: ClaudeBrain) -> None:
    api.push(error_reply(400, "invalid_request_error", "tool_choice: forced tool use is not supported"))
    with pytest.raises(BrainError, match="HTTP 400 invalid_request_error: tool_choice: forced tool use"):
        brain.plan(synthetic.TARGET, synthetic.page(1))
    assert len(api.requests) == 1


def test_a_slow_answer_times_out(api: FakeMessagesAPI) -> None:
    brain = brain_on(api, replace(FAST, timeout_seconds=0.2, max_retries=0))
    api.push(Reply(body=tool_reply("next_action", answers.action()).body, delay=1.0))
    with pytest.raises(BrainError, match=r"no answer within 0.2s \(after 0 retries\)"):
        brain.decide(synthetic.context(2))


def test_an_unreachable_api_becomes_brain_error() -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    brain = ClaudeBrain(replace(FAST, max_retries=0), api_key=FAKE_KEY, base_url=f"http://127.0.0.1:{port}")
    with pytest.raises(BrainError, match="cannot reach the API"):
        brain.summarize(synthetic.TARGET, "story")


# -- construction and the API key ---------------------------------------------------------------------


def test_a_missing_key_is_a_clear_error_at_construction() -> None:
    with pytest.raises(MissingApiKey, match="set ANTHROPIC_API_KEY") as caught:
        ClaudeBrain()
    assert isinstance(caught.value, BrainError) and isinstance(caught.value, ValueError)
    with pytest.raises(MissingApiKey):
        ClaudeBrain(api_key="  ")


def test_key_and_base_url_come_from_the_environment(
    api: FakeMessagesAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", FAKE_KEY)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", api.url)
    api.push(tool_reply("plan", answers.PLAN))
    ClaudeBrain(FAST).plan(synthetic.TARGET, synthetic.page(1))
    assert api.requests[0].headers["authorization"] == f"Bearer {FAKE_KEY}"


def _chain(exc: BaseException) -> list[BaseException]:
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in seen:
        seen.append(current)
        # What a traceback shows: the cause, else the context unless it was suppressed (`from None`).
        current = current.__cause__ or (None if current.__suppress_context__ else current.__context__)
    return seen


def test_the_key_never_appears_in_errors_reprs_or_logs(
    api: FakeMessagesAPI, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    brain = ClaudeBrain(replace(FAST, max_retries=1, timeout_seconds=0.2), api_key=FAKE_KEY, base_url=api.url)
    api.push(
        error_reply(401, "authentication_error", f"invalid x-api-key: {FAKE_KEY}"),
        error_reply(500, "api_error", "boom"), error_reply(500, "api_error", "boom"),
        tool_reply("next_action", answers.action(kind="jump")),
        tool_reply("next_action", answers.action(kind="jump")),
        Reply(body=tool_reply("judge", answers.JUDGE).body, delay=1.0),
        Reply(body=tool_reply("judge", answers.JUDGE).body, delay=1.0),
    )
    errors = []
    for call in (lambda: brain.plan(synthetic.TARGET, synthetic.page(1)), lambda: brain.plan(synthetic.TARGET,
                 synthetic.page(1)), lambda: brain.decide(synthetic.context(2)),
                 lambda: brain.judge(synthetic.context(3))):
        with pytest.raises(BrainError) as caught:
            call()
        errors.append(caught.value)
    assert len(errors) == 4
    shown = [text for exc in errors for e in _chain(exc) for text in (str(e), repr(e), *map(str, e.args))]
    shown += [repr(brain), str(vars(brain)), repr(brain.settings), caplog.text]
    shown += [record.getMessage() for record in caplog.records]
    assert not [text for text in shown if FAKE_KEY in text]
    assert "authentication_error" in str(errors[0]) and "***" in str(errors[0])


def test_settings_are_checked() -> None:
    with pytest.raises(ValueError, match="cache_ttl"):
        ClaudeSettings(cache_ttl="1d")
    with pytest.raises(ValueError, match="timeout_seconds"):
        ClaudeSettings(timeout_seconds=0)
    with pytest.raises(ValueError, match="recent_k"):
        ClaudeSettings(recent_k=0).context_limits()
