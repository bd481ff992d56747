"""The Claude brain: plan, decide, judge and summarize through the anthropic SDK, one tool each (forced
where the model accepts it, brain/models.py).

Each stage builds one bounded user message (brain/context.py) and asks for one tool's answer
(brain/tools.py); the request itself - its shape for the model, the transport, what a failure becomes -
is `ClaudeApi` (brain/claude_api.py). An answer that breaks the tool's schema, makes no sense on the
screen (a mark that is not there, brain/answers.py) or was cut off at `max_tokens` gets ONE corrective
retry that says what was wrong; a second bad answer is a `BrainError`, which the explorer turns into an
inconclusive item.

A `next_action` answer may queue up to `max_queued_actions` follow-ups (`then`); `decide` takes them
one per step without a call while each screen is what the model expected (`FollowUpQueue`), so a
foreseeable stretch - the options of a group, a tour of list rows (open, back, next), a way the model
has walked before - costs one call instead of one per action. `queue_stats` says how many were taken
and why the others were dropped.

The judge may be another model than the one that decides the steps (`ClaudeSettings.judge_model`): its
requests are shaped for that model and each call is priced by the model it went to.

Steps the brain does not decide - the explorer's loop-guard escapes and return steps, decisions the
caching brain replays - are shown to it through `witness` / `witness_plan` (the optional `Witness`
methods of the brain seam): its run memory covers every step, with no call for those.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from pytest_fairy.brain.answers import AnswerError, read_judgement, read_plan, read_step, read_summary
from pytest_fairy.brain.claude_api import ClaudeApi
from pytest_fairy.brain.claude_settings import ClaudeSettings
from pytest_fairy.brain.context import Block, MessageBuilder, render
from pytest_fairy.brain.follow_ups import FollowUpQueue, QueueStats
from pytest_fairy.brain.memory import RunMemory
from pytest_fairy.brain.pricing import CallTokens, Ledger
from pytest_fairy.brain.prompt_cache import PromptCache
from pytest_fairy.brain.tools import Stage, cache_control, tools_param
from pytest_fairy.errors import BrainError
from pytest_fairy.explore.decisions import Decision, Judgement, Plan, StepContext, Usage
from pytest_fairy.explore.target import Target
from pytest_fairy.perception.screen import Screen

if TYPE_CHECKING:
    import anthropic

log = logging.getLogger(__name__)

T = TypeVar("T")
CORRECTIVE_RETRIES = 1
PREVIOUS_ANSWER_CHARS = 1500  # how much of a bad answer is quoted back in the corrective retry


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
        s = self.settings
        limits = s.context_limits()
        self._messages = MessageBuilder(limits)
        # Built once: the same objects are sent on every call, so the cached prefix never changes.
        self._api = ClaudeApi(
            s,
            system=self._messages.system(cache_control(s.cache_ttl)),
            tools=tools_param(s.cache_ttl, s.max_queued_actions),
            api_key=api_key,
            base_url=base_url,
            client=client,
        )
        judge = s.judge_settings()
        self._judge_api = self._api if judge is s else self._api.for_model(judge)
        # Said in the cost figures when the cached prefix is too short for the model to cache it.
        self.prompt_cache = PromptCache.for_settings(s)
        self._ledger = Ledger(s.model, s.prices, cache_ttl=s.cache_ttl, note=self.prompt_cache.note())
        self._memory = RunMemory(limits)
        self._queue = FollowUpQueue()

    def __repr__(self) -> str:
        return f"ClaudeBrain(model={self.model!r}, base_url={self._api.base_url!r})"

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
        content = self._messages.judge(ctx, self._memory)
        return self._ask(Stage.JUDGE, content, read_judgement, api=self._judge_api)

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

    def usage_by_model(self) -> Mapping[str, Usage]:
        """`usage` split by the model each call went to (the step model's and the judge's)."""
        return self._ledger.by_model()

    # -- one stage: call, account, read, correct once -------------------------------------------------

    def _ask(
        self,
        stage: Stage,
        content: list[Block],
        read: Callable[[Any], T],
        *,
        max_tokens: int = 0,
        api: ClaudeApi | None = None,
    ) -> T:
        """One stage's answer from `api` (the step model's unless given: the judge's has its own)."""
        s = self.settings
        api = api or self._api
        model = api.settings.model
        limit = max_tokens or s.max_tokens
        attempt_content = content
        for attempt in range(CORRECTIVE_RETRIES + 1):
            message = api.create(stage, attempt_content, limit)
            self._account(stage, message, model)
            try:
                return read(self._tool_input(stage, message, model))
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
            f"Claude ({model}) gave no usable `{stage}` answer after {CORRECTIVE_RETRIES} corrective "
            f"retry: {self._api.scrub(problem)}"
        )

    def _tool_input(self, stage: Stage, message: Any, model: str) -> Any:
        if message.stop_reason == "max_tokens":
            raise _Truncated()
        if message.stop_reason == "refusal":
            # The model declined on its own policy grounds: asking again with a correction will not help.
            said = self._api.scrub(_quoted(message))
            raise BrainError(f"Claude ({model}) refused the `{stage}` request: {said}")
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

    def _account(self, stage: Stage, message: Any, model: str) -> None:
        u = message.usage
        tokens = CallTokens(
            input_tokens=u.input_tokens,
            output_tokens=u.output_tokens,
            cache_write_tokens=u.cache_creation_input_tokens or 0,
            cache_read_tokens=u.cache_read_input_tokens or 0,
        )
        cost = self._ledger.add(tokens, model)
        log.debug(
            "claude %s (%s): in %d, cache write %d, cache read %d, out %d tokens, $%.5f",
            stage,
            model,
            tokens.input_tokens,
            tokens.cache_write_tokens,
            tokens.cache_read_tokens,
            tokens.output_tokens,
            cost,
        )


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
