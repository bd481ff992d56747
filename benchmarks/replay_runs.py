"""What bench_replay and bench_cost share: one cached Claude exploration on the in-process virtual device,
through the real anthropic SDK against the local fake Messages server (tests/claude/fake_api.py, whose
token counts are its own estimate: text chars / 4, images by pixels / 750), and its figures."""

from __future__ import annotations

import dataclasses
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from fairy_virtual import VirtualDevice  # noqa: E402
from pytest_fairy.brain.claude import ClaudeBrain, ClaudeSettings  # noqa: E402
from pytest_fairy.brain.claude_api import make_client  # noqa: E402
from pytest_fairy.explore.decisions import Usage  # noqa: E402
from pytest_fairy.explore.explorer import Explorer, Mission  # noqa: E402
from pytest_fairy.explore.target import Target  # noqa: E402
from pytest_fairy.replay import CacheMode, CachingBrain, DecisionCache  # noqa: E402
from tests.claude.fake_api import FakeMessagesAPI, Reply  # noqa: E402

FAKE_KEY = "sk-ant-benchmark-not-a-key"
Responder = Callable[[dict[str, Any]], Reply]


@dataclass(frozen=True)
class Figures:
    verdict: str
    reason: str
    usage: Usage
    replayed: int
    seconds: float

    @property
    def calls(self) -> int:
        return self.usage.calls

    @property
    def tokens(self) -> int:
        return self.usage.total_tokens


def run(
    app: Path,
    cache: DecisionCache,
    api: FakeMessagesAPI,
    target: Target,
    mission: Mission,
    *,
    spec: str = "bench/test_food.yaml",
    model: str | None = None,
) -> Figures:
    """One cached exploration of `target` on `app`, deciding with Claude where the cache has nothing."""
    settings = ClaudeSettings() if model is None else ClaudeSettings(model=model)
    claude = ClaudeBrain(settings, client=make_client(settings, api_key=FAKE_KEY, base_url=api.url))
    brain = CachingBrain(claude, cache, spec, CacheMode.CACHED)
    started = time.perf_counter()
    result = Explorer(VirtualDevice(app, latency=False), brain).explore(target, mission)
    seconds = time.perf_counter() - started
    return Figures(result.verdict.value, result.reason, brain.usage(), brain.replayed, seconds)


def slow(responder: Responder, latency: float) -> Responder:
    """`responder`, answering after `latency` seconds (a real model's answer time)."""

    def answer(request: dict[str, Any]) -> Reply:
        return dataclasses.replace(responder(request), delay=latency)

    return answer
