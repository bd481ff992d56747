"""Which stage a request asks for, read as the model reads it.

On models that take forced tool use the request names the tool in `tool_choice`; the current models
refuse that (HTTP 400), so the request offers every tool with `tool_choice: auto` and its user message
ends by naming the one to call ("Call the `judge` tool."). A corrective retry names it again.
"""

from __future__ import annotations

import re
from typing import Any

_CALL = re.compile(r"Call the `(\w+)` tool")


def stage_of(request: dict[str, Any]) -> str:
    choice = request.get("tool_choice") or {}
    if choice.get("type") == "tool":
        return str(choice["name"])
    texts = [
        block.get("text", "")
        for message in request["messages"]
        if message["role"] == "user" and isinstance(message["content"], list)
        for block in message["content"]
    ]
    named = _CALL.findall("\n".join(texts))
    assert named, "the request names no tool to call: the model could not tell which answer is wanted"
    return str(named[-1])
