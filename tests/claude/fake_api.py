"""A real local HTTP server speaking enough of the Messages API for the real anthropic SDK to talk to.

Tests script the replies (a queue of `Reply`, or a `responder` that answers each request) and read
back every request the SDK sent. The server also plays the part of the API's accounting: it estimates
the tokens of each request (text chars / 4, images width * height / 750) and simulates prompt caching
on the prefix up to the last `cache_control` breakpoint, so a request whose tools + system prefix is
byte-identical to an earlier one is billed as a cache read, once the prefix reaches the model's minimum
cacheable length. The estimates are the fake's own - they are not Anthropic's tokenizer - but they grow
and shrink with the request as the real ones would.

It is as strict as the real API (`api_rules`, written from the docs): a request a model refuses gets the
400 (or, for an unknown model id, the 404) the real API answers, and is kept in `rejected`; an accepted
request to a model that thinks gets its answer as such a model gives it: a thinking block first (empty
text, a signature, as at the default display), on every other answer a line of text, then the tool call.
"""

from __future__ import annotations

import base64
import io
import json
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from PIL import Image

from tests.claude.api_rules import Refusal, documented, refusal, thinks

CHARS_PER_TOKEN = 4
PIXELS_PER_TOKEN = 750
FAST_RETRY_MS = "20"  # errors ask the SDK to retry after 20 ms, so retry tests take no real time
POLL_SECONDS = 0.02  # how soon shutdown() is noticed


@dataclass
class Reply:
    status: int = 200
    body: dict[str, Any] | None = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    raw: bytes | None = None  # sent as the body instead of `body` (a broken reply: invalid JSON)


@dataclass(frozen=True)
class Recorded:
    path: str
    headers: dict[str, str]
    raw: bytes
    usage: dict[str, int]

    @property
    def body(self) -> dict[str, Any]:
        return json.loads(self.raw)


def tool_reply(
    name: str, tool_input: Any, *, stop_reason: str = "tool_use", usage: dict[str, int] | None = None
) -> Reply:
    """A reply whose content is one tool_use block; usage None = the server's own estimate."""
    block = {"type": "tool_use", "id": "toolu_fake", "name": name, "input": tool_input}
    body = _message([block], stop_reason)
    if usage is not None:
        body["usage"] = usage
    return Reply(body=body)


def text_reply(text: str, *, stop_reason: str = "end_turn") -> Reply:
    return Reply(body=_message([{"type": "text", "text": text}], stop_reason))


def error_reply(status: int, kind: str, message: str, *, headers: dict[str, str] | None = None) -> Reply:
    extra = {"retry-after-ms": FAST_RETRY_MS} if headers is None else headers
    return Reply(status, {"type": "error", "error": {"type": kind, "message": message}}, extra)


def _message(content: list[dict[str, Any]], stop_reason: str) -> dict[str, Any]:
    return {
        "id": "msg_fake",
        "type": "message",
        "role": "assistant",
        "model": "claude-fake",
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": None,  # filled in per request unless the script gave one
    }


def estimate_tokens(value: Any) -> int:
    """The fake's token count of a request fragment: text / 4, each image by its pixels."""
    if isinstance(value, dict):
        if value.get("type") == "image":
            data = base64.b64decode(value["source"]["data"])
            width, height = Image.open(io.BytesIO(data)).size
            return max(1, width * height // PIXELS_PER_TOKEN)
        return sum(estimate_tokens(v) for k, v in value.items() if k != "cache_control")
    if isinstance(value, list):
        return sum(estimate_tokens(v) for v in value)
    if isinstance(value, str):
        return max(1, len(value) // CHARS_PER_TOKEN)
    return 1


class FakeMessagesAPI:
    """`with FakeMessagesAPI([...]) as api: ... base_url=api.url`."""

    def __init__(
        self,
        replies: list[Reply] | None = None,
        *,
        responder: Callable[[dict[str, Any]], Reply] | None = None,
        cache_min_tokens: int | None = None,
    ) -> None:
        self.replies = list(replies or [])
        self.responder = responder
        self.cache_min_tokens = cache_min_tokens  # None: each model's documented minimum
        self.requests: list[Recorded] = []
        self.rejected: list[tuple[Recorded, Refusal]] = []
        self._answers = 0
        self._cached_prefixes: set[str] = set()
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        self._server.block_on_close = False
        self._thread = threading.Thread(target=self._server.serve_forever, args=(POLL_SECONDS,), daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def __enter__(self) -> FakeMessagesAPI:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def push(self, *replies: Reply) -> None:
        with self._lock:
            self.replies.extend(replies)

    @property
    def bodies(self) -> list[dict[str, Any]]:
        return [r.body for r in self.requests if r.path == "/v1/messages"]

    def _answer(self, path: str, headers: dict[str, str], raw: bytes) -> Reply:
        request = json.loads(raw)
        refused = refusal(request, count_tokens=path == "/v1/messages/count_tokens")
        if refused is not None:
            recorded = Recorded(path, headers, raw, _usage(0, 0, 0, 0))
            with self._lock:
                self.requests.append(recorded)
                self.rejected.append((recorded, refused))
            return error_reply(refused.status, refused.kind, refused.message, headers={})
        if path == "/v1/messages/count_tokens":
            usage = self._usage(request, count_only=True)
            self._record(path, headers, raw, usage)
            return Reply(body={"input_tokens": usage["input_tokens"]})
        with self._lock:
            reply = self.replies.pop(0) if self.replies else None
        if reply is None and self.responder is not None:
            reply = self.responder(request)
        if reply is None:
            reply = error_reply(400, "invalid_request_error", "the fake API has no scripted reply left",
                                headers={"x-should-retry": "false"})
        usage = self._usage(request, count_only=reply.status != 200)
        self._record(path, headers, raw, usage)
        if reply.status == 200 and reply.body is not None and reply.body.get("usage", 0) is None:
            reply = Reply(reply.status, {**reply.body, "usage": usage}, reply.headers, reply.delay)
        if reply.status == 200 and reply.body is not None and thinks(request):
            reply = self._as_thinking_model(reply)
        return reply

    def _as_thinking_model(self, reply: Reply) -> Reply:
        """The answer as a thinking model gives it: a thinking block first, sometimes a line of text."""
        assert reply.body is not None
        content = list(reply.body.get("content") or [])
        if any(block.get("type") == "thinking" for block in content):
            return reply
        with self._lock:
            self._answers += 1
            number = self._answers
        head: list[dict[str, Any]] = [{"type": "thinking", "thinking": "", "signature": f"sig_fake_{number}"}]
        if number % 2 == 0 and not any(block.get("type") == "text" for block in content):
            head.append({"type": "text", "text": "Looking at the screen, I will call the tool."})
        return Reply(reply.status, {**reply.body, "content": head + content}, reply.headers, reply.delay)

    def _record(self, path: str, headers: dict[str, str], raw: bytes, usage: dict[str, int]) -> None:
        with self._lock:
            self.requests.append(Recorded(path, headers, raw, usage))

    def _usage(self, request: dict[str, Any], *, count_only: bool) -> dict[str, int]:
        """Simulated billing: the prefix through the last breakpoint is written once, then read."""
        tools = request.get("tools", [])
        system = request.get("system", [])
        if isinstance(system, str):
            system = [{"type": "text", "text": system}]
        cut_tools = max((i + 1 for i, t in enumerate(tools) if "cache_control" in t), default=0)
        cut_system = max((i + 1 for i, b in enumerate(system) if "cache_control" in b), default=0)
        if cut_system:
            prefix = [tools, system[:cut_system]]
            rest: list[Any] = [system[cut_system:], request.get("messages", [])]
        else:
            prefix = [tools[:cut_tools]]
            rest = [tools[cut_tools:], system, request.get("messages", [])]
        prefix_tokens = estimate_tokens(prefix) if (cut_tools or cut_system) else 0
        rest_tokens = estimate_tokens(rest)
        model = documented(str(request.get("model", "")))
        minimum = self.cache_min_tokens
        if minimum is None:
            minimum = model.min_cacheable_tokens if model is not None else 0
        if count_only or prefix_tokens < minimum:
            return _usage(prefix_tokens + rest_tokens, 0, 0)
        key = json.dumps([request.get("model"), prefix], sort_keys=True, ensure_ascii=False)
        with self._lock:
            hit = key in self._cached_prefixes
            self._cached_prefixes.add(key)
        return _usage(rest_tokens, 0 if hit else prefix_tokens, prefix_tokens if hit else 0)


def _usage(uncached: int, written: int, read: int, output: int = 40) -> dict[str, int]:
    return {"input_tokens": uncached, "output_tokens": output,
            "cache_creation_input_tokens": written, "cache_read_input_tokens": read}


def _handler_for(api: FakeMessagesAPI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def setup(self) -> None:
            super().setup()
            # Headers and body go out in separate writes: without this, delayed ACKs cost 40 ms a reply.
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

        def do_POST(self) -> None:  # noqa: N802 - the http.server naming
            length = int(self.headers.get("content-length", "0"))
            raw = self.rfile.read(length)
            reply = api._answer(self.path, {k.lower(): v for k, v in self.headers.items()}, raw)
            if reply.delay:
                time.sleep(reply.delay)
            payload = reply.raw if reply.raw is not None else json.dumps(reply.body, ensure_ascii=False).encode()
            try:
                self.send_response(reply.status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(payload)))
                self.send_header("request-id", f"req_fake_{len(api.requests)}")
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout test): nobody is listening for this reply

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base signature
            pass

    return Handler
