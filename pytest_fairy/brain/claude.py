"""The Claude brain: plan, decide, judge and summarize through the anthropic SDK, one forced tool each.

Every call is a fresh single-turn request: the same `tools` array and system prompt (both cache
breakpoints) and one bounded user message; only `tool_choice` and that message change between calls.
Faults are handled at this seam:

- transport: the SDK retries 408/409/429/5xx and connection errors `max_retries` times; a middleware caps
  the server's `retry-after` at `retry_after_cap_seconds` (the SDK itself would sleep as long as it is
  told); every call has `timeout_seconds`. What still fails becomes a `BrainError` naming the stage,
  the HTTP status, the API's message and the request id.
- answers: an input that breaks the tool's schema, makes no sense on the screen (a mark that is not
  there) or was cut off at `max_tokens` gets ONE corrective retry that says what was wrong; a second bad
  answer is a `BrainError`, which the explorer turns into an inconclusive item.

A `next_action` answer may queue up to `max_queued_actions` follow-ups (`then`); `decide` takes them
one per step without a call while each screen is what the model expected (`FollowUpQueue`), so a
foreseeable stretch - the options of a group, a tour of list rows (open, back, next), a way the model
has walked before - costs one call instead of one per action. `queue_stats` says how many were taken
and why the others were dropped.

Steps the brain does not decide - the explorer's loop-guard escapes and return steps, decisions the
caching brain replays - are shown to it through `witness` / `witness_plan` (the optional `Witness`
methods of the brain seam): its run memory covers every step, with no call for those.

The API key lives only inside the SDK client and a `_Secret` that never prints itself; messages of
errors raised here are scrubbed of it as well.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from pytest_fairy.brain.answers import AnswerError, read_judgement, read_plan, read_step, read_summary
from pytest_fairy.brain.context import Block, ContextLimits, MessageBuilder, RunMemory, render
from pytest_fairy.brain.follow_ups import FollowUpQueue, QueueStats
from pytest_fairy.brain.pricing import DEFAULT_PRICES, CallTokens, Ledger, Price
from pytest_fairy.brain.tools import DEFAULT_MAX_FOLLOW_UPS, Stage, cache_control, tools_param
from pytest_fairy.errors import BrainError
from pytest_fairy.explore.decisions import Decision, Judgement, Plan, StepContext, Usage
from pytest_fairy.explore.target import Target
from pytest_fairy.perception.screen import Screen

if TYPE_CHECKING:
    import anthropic

log = logging.getLogger(__name__)

T = TypeVar("T")
# Forced tool use works on the Sonnet 5 generation with thinking disabled; Sonnet 5.5 rejects forced
# tool_choice (set force_tool=False there).
DEFAULT_MODEL = "claude-sonnet-5"
CORRECTIVE_RETRIES = 1
PREVIOUS_ANSWER_CHARS = 1500  # how much of a bad answer is quoted back in the corrective retry
KEY_ENV = "ANTHROPIC_API_KEY"
BASE_URL_ENV = "ANTHROPIC_BASE_URL"


class MissingApiKey(BrainError, ValueError):
    """The Claude brain was built without an API key."""


@dataclass(frozen=True)
class ClaudeSettings:
    model: str = DEFAULT_MODEL
    max_tokens: int = 1024
    # The summary is longer than a step's answer; a truncated answer is retried with `truncation_growth`
    # times its limit, up to `max_tokens_ceiling`.
    summary_max_tokens: int = 2048
    truncation_growth: int = 2
    max_tokens_ceiling: int = 8192
    timeout_seconds: float = 60.0
    max_retries: int = 2
    retry_after_cap_seconds: float = 20.0
    image_long_edge: int = 1024
    jpeg_quality: int = 80
    recent_k: int = 6
    max_milestones: int = 8
    max_screen_chars: int = 6000
    max_section_chars: int = 2000
    max_note_chars: int = 240  # the words shown beside a transition the brain did not decide
    prices: Mapping[str, Price] = field(default_factory=lambda: dict(DEFAULT_PRICES))
    cache_ttl: str = "5m"  # "5m" or "1h": the lifetime of the tools + system cache entries
    # Force the stage's tool (tool_choice type "tool"); False = "auto" and the answer is still required
    # to be a call of that tool (a model that refuses forced tool use answers 400 otherwise).
    force_tool: bool = True
    # Forced tool use cannot be combined with thinking; models that think by default need it off.
    disable_thinking: bool = True
    # How many follow-up actions one `next_action` answer may queue (0 = a call for every action).
    max_queued_actions: int = DEFAULT_MAX_FOLLOW_UPS

    def __post_init__(self) -> None:
        if self.cache_ttl not in ("5m", "1h"):
            raise ValueError(f"ClaudeSettings.cache_ttl must be '5m' or '1h', got {self.cache_ttl!r}")
        for name in ("max_tokens", "summary_max_tokens", "timeout_seconds", "retry_after_cap_seconds"):
            if getattr(self, name) <= 0:
                raise ValueError(f"ClaudeSettings.{name} must be positive, got {getattr(self, name)}")
        for name in ("max_retries", "max_queued_actions"):
            if getattr(self, name) < 0:
                raise ValueError(f"ClaudeSettings.{name} must be >= 0, got {getattr(self, name)}")

    def context_limits(self) -> ContextLimits:
        return ContextLimits(
            recent_k=self.recent_k,
            max_milestones=self.max_milestones,
            image_long_edge=self.image_long_edge,
            jpeg_quality=self.jpeg_quality,
            max_screen_chars=self.max_screen_chars,
            max_section_chars=self.max_section_chars,
            max_note_chars=self.max_note_chars,
        )


class _Secret:
    """Holds the API key; prints as stars wherever it ends up (reprs, logs, f-strings)."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        return self._value

    def appears_in(self, text: str) -> bool:
        return bool(self._value) and self._value in text

    def scrub(self, text: str) -> str:
        return text.replace(self._value, "***") if self._value else text

    def __repr__(self) -> str:
        return "_Secret('***')"

    __str__ = __repr__


def make_client(
    settings: ClaudeSettings, *, api_key: str, base_url: str | None = None, **sdk_options: Any
) -> anthropic.Anthropic:
    """The SDK client the brain uses: its timeout, retries and the retry-after cap. `sdk_options` go to
    `anthropic.Anthropic` as they are (tests pass `_strict_response_validation=True`)."""
    import anthropic  # ~2 s: only when the Claude brain is really used

    return anthropic.Anthropic(
        api_key=api_key,
        base_url=base_url,
        timeout=settings.timeout_seconds,
        max_retries=settings.max_retries,
        middleware=[retry_after_cap(settings.retry_after_cap_seconds)],
        **sdk_options,
    )


def retry_after_cap(cap_seconds: float) -> Callable[[Any, Callable[[Any], Any]], Any]:
    """SDK middleware: no server-requested wait longer than `cap_seconds`. It runs once per attempt
    inside the SDK's retry loop, before the loop reads the headers to decide how long to sleep."""

    def cap(request: Any, call_next: Callable[[Any], Any]) -> Any:
        response = call_next(request)
        headers = response.http_response.headers
        wait = _retry_after_seconds(headers)
        if wait is not None and wait > cap_seconds:
            log.info("capping retry-after of %.0fs to %.1fs", wait, cap_seconds)
            headers.pop("retry-after-ms", None)
            headers["retry-after"] = f"{cap_seconds:g}"
        return response

    return cap


def _retry_after_seconds(headers: Mapping[str, str]) -> float | None:
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is not None:
            try:
                return float(value) * scale
            except ValueError:
                return None  # an HTTP date: rare from this API; the SDK's own parsing applies
    return None


class _Truncated(BrainError):
    """The answer hit max_tokens before the tool input was complete."""


class ClaudeBrain:
    name = "claude"

    def __init__(
        self,
        settings: ClaudeSettings | None = None,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        client: anthropic.Anthropic | None = None,
    ) -> None:
        self.settings = settings or ClaudeSettings()
        self.model: str | None = self.settings.model
        key = (api_key if api_key is not None else os.environ.get(KEY_ENV, "")).strip()
        if client is None and not key:
            raise MissingApiKey(f"the Claude brain needs an API key: set {KEY_ENV} (or pass api_key=...)")
        self._key = _Secret(key)
        self._base_url = base_url or os.environ.get(BASE_URL_ENV) or None
        self._client = client
        s = self.settings
        self._ledger = Ledger(s.model, s.prices, cache_ttl=s.cache_ttl)
        limits = s.context_limits()
        self._messages = MessageBuilder(limits)
        self._memory = RunMemory(limits)
        self._queue = FollowUpQueue()
        # Built once: the same objects are sent on every call, so the cached prefix never changes.
        self._tools = tools_param(s.cache_ttl, s.max_queued_actions)
        self._system = self._messages.system(cache_control(s.cache_ttl))

    def __repr__(self) -> str:
        return f"ClaudeBrain(model={self.model!r}, base_url={self._base_url!r})"

    # -- the Brain protocol -------------------------------------------------------------------------

    def plan(self, target: Target, screen: Screen, som_jpeg: bytes = b"") -> Plan:
        """The initial plan. A new plan starts a new exploration: the run memory is cleared."""
        self._memory.reset()
        self._queue.reset()
        content = self._messages.plan(target, screen, som_jpeg)
        return self._ask(Stage.PLAN, content, lambda data: read_plan(data, target.feature))

    def decide(self, ctx: StepContext) -> Decision:
        """The next queued action of the model's plan while the screen matches it, else a fresh call."""
        self._memory.observe(ctx)
        decision = self._queue.next(ctx)
        if decision is None:
            content = self._messages.step(ctx, self._memory, self._queue.take_note())
            limit = self.settings.max_queued_actions
            decision, follow_ups = self._ask(
                Stage.NEXT_ACTION, content, lambda data: read_step(data, ctx.screen, limit)
            )
            decision = self._queue.start(decision, follow_ups, ctx)
        self._memory.decided(decision, ctx.step)
        return decision

    @property
    def queued_actions_taken(self) -> int:
        """Actions of the model's queued plans taken without a call, since the last `plan`."""
        return self._queue.taken_without_call

    @property
    def queue_stats(self) -> QueueStats:
        """What the model queued since the last `plan`: follow-ups taken, dropped (and why), pending."""
        return self._queue.stats

    def judge(self, ctx: StepContext) -> Judgement:
        self._memory.observe(ctx)
        return self._ask(Stage.JUDGE, self._messages.judge(ctx, self._memory), read_judgement)

    # -- what was decided elsewhere (the optional `Witness` methods): remembered, no call ----------------

    def witness_plan(self, target: Target, plan: Plan) -> None:
        """An exploration starts on a replayed plan: a fresh memory, as `plan` would start it."""
        self._memory.reset()
        self._queue.reset()

    def witness(self, ctx: StepContext, decision: Decision) -> None:
        """A loop-guard escape, a return step or a replayed decision: remembered like the brain's own
        (the transition, its outcome, the decision's words), so the next prompt's counts and last
        transitions cover every step. A plan the model queued is dropped: this is not its next action."""
        self._memory.observe(ctx)
        self._memory.witnessed(decision, ctx.step)
        self._queue.interrupt(ctx, decision)

    def summarize(self, target: Target, story: str) -> str:
        content = self._messages.summary(target, story, self._memory)
        return self._ask(Stage.SUMMARIZE, content, read_summary, max_tokens=self.settings.summary_max_tokens)

    def usage(self) -> Usage:
        return self._ledger.usage()

    # -- one stage: call, account, read, correct once -------------------------------------------------

    def _ask(self, stage: Stage, content: list[Block], read: Callable[[Any], T], *, max_tokens: int = 0) -> T:
        s = self.settings
        limit = max_tokens or s.max_tokens
        attempt_content = content
        for attempt in range(CORRECTIVE_RETRIES + 1):
            message = self._create(stage, attempt_content, limit)
            self._account(stage, message)
            try:
                return read(self._tool_input(stage, message))
            except _Truncated:
                problem = f"the answer was cut off at max_tokens={limit}"
                correction = render("truncated", tool=stage.value, max_tokens=limit)
                limit = min(limit * s.truncation_growth, s.max_tokens_ceiling)
            except AnswerError as exc:
                problem = str(exc)
                correction = render(
                    "correction", tool=stage.value, previous=_quoted(message), problem=problem
                )
            log.info("claude %s: unusable answer (attempt %d): %s", stage, attempt + 1, problem)
            attempt_content = [*content, {"type": "text", "text": correction}]
        raise BrainError(
            f"Claude ({s.model}) gave no usable `{stage}` answer after {CORRECTIVE_RETRIES} corrective "
            f"retry: {self._key.scrub(problem)}"
        )

    def _tool_input(self, stage: Stage, message: Any) -> Any:
        if message.stop_reason == "max_tokens":
            raise _Truncated()
        if message.stop_reason == "refusal":
            # The model declined on its own policy grounds: asking again with a correction will not help.
            said = self._key.scrub(_quoted(message))
            raise BrainError(f"Claude ({self.settings.model}) refused the `{stage}` request: {said}")
        calls = [b for b in message.content if getattr(b, "type", "") == "tool_use"]
        if not calls:
            raise AnswerError(
                f"you answered without calling a tool (stop reason {message.stop_reason}); "
                f"call the `{stage}` tool"
            )
        call = calls[0]
        if call.name != stage.value:
            raise AnswerError(f"you called `{call.name}`, but this step needs the `{stage}` tool")
        return call.input

    def _create(self, stage: Stage, content: list[Block], max_tokens: int) -> Any:
        sdk = _sdk()
        s = self.settings
        choice: dict[str, Any] = (
            {"type": "tool", "name": stage.value, "disable_parallel_tool_use": True}
            if s.force_tool
            else {"type": "auto", "disable_parallel_tool_use": True}
        )
        options: dict[str, Any] = {}
        if s.disable_thinking:
            options["thinking"] = {"type": "disabled"}
        messages: Any = self._sdk_client().messages  # the request is plain JSON-shaped dicts
        failure: Exception
        try:
            message = messages.create(
                model=s.model,
                max_tokens=max_tokens,
                system=self._system,
                tools=self._tools,
                tool_choice=choice,
                messages=[{"role": "user", "content": content}],
                timeout=s.timeout_seconds,
                **options,
            )
        except sdk.APIError as exc:
            failure = exc
        except json.JSONDecodeError as exc:  # a 200 whose body is not JSON (a proxy's error page): no retry
            failure = exc
        else:
            if isinstance(getattr(message, "content", None), list) and getattr(message, "usage", None):
                return message
            failure = ValueError(
                f"the API answered with a malformed message (no content or usage): {message!r}"
            )
        # Raised outside the except block so that only the chosen cause is chained (no implicit context).
        text = self._key.scrub(f"Claude API ({s.model}, {stage}): {self._describe(failure, sdk)}")
        leaks = self._key.appears_in(f"{failure!s} {failure!r}")
        # The SDK's exception is kept as the cause, unless the server echoed the key into it.
        raise BrainError(text) from (None if leaks else failure)

    def _describe(self, exc: Any, sdk: Any) -> str:
        s = self.settings
        if isinstance(exc, sdk.APIStatusError):
            return _status_text(exc)
        if isinstance(exc, sdk.APITimeoutError):
            return f"no answer within {s.timeout_seconds:g}s (after {s.max_retries} retries)"
        if isinstance(exc, sdk.APIConnectionError):
            return f"cannot reach the API: {exc}"
        if isinstance(exc, json.JSONDecodeError):
            return f"the API's answer is not JSON ({exc}): {_excerpt(exc.doc)}"
        return f"{type(exc).__name__}: {exc}"  # e.g. a response that does not parse as a Message

    def _sdk_client(self) -> anthropic.Anthropic:
        if self._client is None:
            self._client = make_client(self.settings, api_key=self._key.reveal(), base_url=self._base_url)
        return self._client

    def _account(self, stage: Stage, message: Any) -> None:
        u = message.usage
        tokens = CallTokens(
            input_tokens=u.input_tokens,
            output_tokens=u.output_tokens,
            cache_write_tokens=u.cache_creation_input_tokens or 0,
            cache_read_tokens=u.cache_read_input_tokens or 0,
        )
        cost = self._ledger.add(tokens)
        log.debug(
            "claude %s: in %d, cache write %d, cache read %d, out %d tokens, $%.5f",
            stage,
            tokens.input_tokens,
            tokens.cache_write_tokens,
            tokens.cache_read_tokens,
            tokens.output_tokens,
            cost,
        )


def _sdk() -> Any:
    import anthropic

    return anthropic


def _status_text(exc: Any) -> str:
    body: dict[str, Any] = exc.body if isinstance(exc.body, dict) else {}
    error: dict[str, Any] = body["error"] if isinstance(body.get("error"), dict) else {}
    kind = error.get("type", "")
    message = error.get("message") or str(exc)
    request_id = exc.request_id or "unknown"
    return f"HTTP {exc.status_code} {kind}: {message} (request id {request_id})".replace("  ", " ")


def _excerpt(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= PREVIOUS_ANSWER_CHARS else text[:PREVIOUS_ANSWER_CHARS] + " ..."


def _quoted(message: Any) -> str:
    """The rejected answer as the model sent it, for the corrective retry."""
    parts = []
    for block in message.content:
        if getattr(block, "type", "") == "tool_use":
            parts.append(json.dumps(block.input, ensure_ascii=False))
        elif getattr(block, "type", "") == "text":
            parts.append(block.text)
    text = "\n".join(parts) or "(nothing)"
    return text if len(text) <= PREVIOUS_ANSWER_CHARS else text[:PREVIOUS_ANSWER_CHARS] + " ..."
