"""The Messages API as the Claude brain calls it: how a stage's request is shaped, sent and failed.

Every call is a fresh single-turn request: the brain's `system` blocks and `tools` array (both built once,
so the cached prefix never changes) and one bounded user message; per call only `tool_choice` and that
message change. How the request is shaped for the model - tool_choice, thinking, effort, the room left
for thinking - comes from the model's row of the model table (brain/models.py), apart from the brain's
stages (brain/claude.py).

Transport faults are handled at this seam: the SDK retries 408/409/429/5xx and connection errors
`max_retries` times; a middleware caps the server's `retry-after` at `retry_after_cap_seconds` (the SDK
itself would sleep as long as it is told); every call has `timeout_seconds`. What still fails becomes a
`BrainError` naming the stage, the HTTP status, the API's message and the request id.

The API key lives only inside the SDK client and a `_Secret` that never prints itself; messages of
errors raised here are scrubbed of it as well (`scrub` does the same for the brain's own errors).
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from pytest_fairy.brain.claude_settings import ClaudeSettings
from pytest_fairy.brain.context import Block
from pytest_fairy.brain.models import RequestShape, model_info
from pytest_fairy.brain.tools import Stage
from pytest_fairy.errors import BrainError

if TYPE_CHECKING:
    import anthropic

log = logging.getLogger(__name__)

KEY_ENV = "ANTHROPIC_API_KEY"
BASE_URL_ENV = "ANTHROPIC_BASE_URL"
EXCERPT_CHARS = 1500  # how much of an answer that is not JSON an error quotes


class MissingApiKey(BrainError, ValueError):
    """The Claude brain was built without an API key."""


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


class ClaudeApi:
    """One request per call to the Messages API, for the settings' model. Construction does no I/O: the
    SDK client is made at the first call, unless one is given."""

    def __init__(
        self,
        settings: ClaudeSettings,
        *,
        system: list[Block],
        tools: list[dict[str, Any]],
        api_key: str | None = None,
        base_url: str | None = None,
        client: anthropic.Anthropic | None = None,
    ) -> None:
        self.settings = settings
        key = (api_key if api_key is not None else os.environ.get(KEY_ENV, "")).strip()
        if client is None and not key:
            raise MissingApiKey(f"the Claude brain needs an API key: set {KEY_ENV} (or pass api_key=...)")
        self._key = _Secret(key)
        self.base_url = base_url or os.environ.get(BASE_URL_ENV) or None
        self._client = client
        self._client_of: Callable[[], anthropic.Anthropic] | None = None
        self.model = model_info(settings.model)
        self.shape = RequestShape.of(self.model, settings.effort, thinking_tokens=settings.thinking_tokens)
        # The same objects on every call: the cached prefix never changes.
        self.system = system
        self.tools = tools

    def __repr__(self) -> str:
        return f"ClaudeApi(model={self.settings.model!r}, base_url={self.base_url!r})"

    def for_model(self, settings: ClaudeSettings) -> ClaudeApi:
        """The same API (key, base URL, SDK client, system and tools) for another model's requests, shaped
        as `settings.model`'s row says: the judge's, when another model judges."""
        other = ClaudeApi(
            settings,
            system=self.system,
            tools=self.tools,
            api_key=self._key.reveal(),
            base_url=self.base_url,
            client=self._client,
        )
        other._client_of = self.client  # one SDK client, made at the first call of either
        return other

    def scrub(self, text: str) -> str:
        """`text` with the API key starred out."""
        return self._key.scrub(text)

    def create(self, stage: Stage, content: list[Block], max_tokens: int) -> Any:
        """One request for `stage`: the message, or a BrainError saying why there is none."""
        sdk = _sdk()
        s = self.settings
        shape = self.shape
        max_tokens = min(max_tokens + shape.thinking_allowance, self.model.max_output_tokens)
        messages: Any = self.client().messages  # the request is plain JSON-shaped dicts
        failure: Exception
        try:
            message = messages.create(
                model=s.model,
                max_tokens=max_tokens,
                system=self.system,
                tools=self.tools,
                tool_choice=shape.tool_choice(stage.value),
                messages=[{"role": "user", "content": content}],
                timeout=s.timeout_seconds,
                **shape.options(),
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

    def client(self) -> anthropic.Anthropic:
        """The SDK client, made at the first call (importing the SDK takes seconds)."""
        if self._client is None and self._client_of is not None:
            self._client = self._client_of()
        if self._client is None:
            self._client = make_client(self.settings, api_key=self._key.reveal(), base_url=self.base_url)
        return self._client


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
    return text if len(text) <= EXCERPT_CHARS else text[:EXCERPT_CHARS] + " ..."
