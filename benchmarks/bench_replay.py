"""LLM calls, tokens and wall time of a first run, an unchanged rerun and reruns with screens changed.

    /work/venv/bin/python benchmarks/bench_replay.py [--rounds 3]

The Claude brain explores the food app's "delivery time" feature on the in-process virtual device,
through the real anthropic SDK against the local fake Messages server (tests/claude/fake_api.py, whose
token counts are its own estimate: text chars / 4, images by pixels / 750). The decision cache is a
temporary folder. The run sees four screens: home, the delivery-time dialog as it opens, the dialog with
预约送餐 chosen, the delivery page. Five runs per round, each rerun from the first run's recording:

1. first run: nothing recorded, every decision is an LLM call, all recorded;
2. unchanged rerun: every decision replayed (target: 0 calls, 0 tokens);
3. one screen changed (a line shown in the dialog while 尽快送达 is chosen): the LLM decides that screen;
   the later screens replay again, the judge's included; the summary's story names the changed screen,
   so it is written anew (target: at most 2 calls);
4. two screens changed (a line in the dialog, on both of its screens);
5. three screens changed (a line on home too): the plan, made on home, is made anew (target: at most 6).

Each round starts from an empty cache. The fake server answers after `--latency` seconds (default 0.5,
a fast real model's answer time; 0 shows the explorer's own time). Wall time is the median over the
rounds; the ratio column is that run's wall time over the first run's.
"""

from __future__ import annotations

import argparse
import dataclasses
import shutil
import statistics
import sys
import tempfile
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
from pytest_fairy.explore.explorer import Explorer, Mission  # noqa: E402
from pytest_fairy.explore.target import Target  # noqa: E402
from pytest_fairy.replay import CacheMode, CachingBrain, DecisionCache  # noqa: E402
from pytest_fairy.spec.model import Oracle, OracleKind  # noqa: E402
from tests.claude.fake_api import FakeMessagesAPI, Reply  # noqa: E402
from tests.replay.builds import ASAP_ETA, DIALOG_NOTICE, HOME_HOURS, Change, write_build  # noqa: E402
from tests.replay.helpers import FOOD_APP, delivery_time_model  # noqa: E402

FAKE_KEY = "sk-ant-benchmark-not-a-key"
TARGET = Target(
    app_name="麦当劳",
    package="com.mcdonalds.gma.cn",
    feature="delivery time",
    goal="选择送达时间：在弹窗中选择预约送餐并确定",
    max_steps=20,
)
MISSION = Mission(
    done_when=[
        Oracle(kind=OracleKind.VISIBLE, value="送达时间：预约送餐"),
        Oracle(kind=OracleKind.NOT_VISIBLE, value="请选择您的送达时间"),
    ]
)
RUNS: dict[str, tuple[Change, ...]] = {
    "first run": (),
    "unchanged rerun": (),
    "one screen changed": (ASAP_ETA,),
    "two screens changed": (DIALOG_NOTICE,),
    "three screens changed": (HOME_HOURS, DIALOG_NOTICE),
}
# The most LLM calls a rerun may make, where the bench sets a target.
TARGETS = {"unchanged rerun": 0, "one screen changed": 2, "three screens changed": 6}


@dataclass(frozen=True)
class Figures:
    verdict: str
    calls: int
    tokens: int
    replayed: int
    seconds: float


def run(app: Path, cache: DecisionCache, api: FakeMessagesAPI) -> Figures:
    settings = ClaudeSettings()
    claude = ClaudeBrain(settings, client=make_client(settings, api_key=FAKE_KEY, base_url=api.url))
    brain = CachingBrain(claude, cache, "bench/test_food.yaml", CacheMode.CACHED)
    started = time.perf_counter()
    result = Explorer(VirtualDevice(app, latency=False), brain).explore(TARGET, MISSION)
    seconds = time.perf_counter() - started
    usage = brain.usage()
    return Figures(result.verdict.value, usage.calls, usage.total_tokens, brain.replayed, seconds)


def slow(latency: float) -> Callable[[dict[str, Any]], Reply]:
    def answer(request: dict[str, Any]) -> Reply:
        return dataclasses.replace(delivery_time_model(request), delay=latency)

    return answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--latency", type=float, default=0.5, help="seconds the fake server takes to answer")
    args = parser.parse_args()
    figures: dict[str, list[Figures]] = {name: [] for name in RUNS}
    with tempfile.TemporaryDirectory() as scratch, FakeMessagesAPI(responder=slow(args.latency)) as api:
        folder = Path(scratch)
        apps = {name: write_build(folder / f"build-{n}.yaml", *changes) if changes else FOOD_APP
                for n, (name, changes) in enumerate(RUNS.items())}  # fmt: skip
        run(FOOD_APP, DecisionCache(folder / "warm-up"), api)  # imports, fonts, SDK client
        for round_number in range(args.rounds):
            recorded = folder / f"round-{round_number}" / "first run"
            for name, app in apps.items():
                cache = folder / f"round-{round_number}" / name
                if name != "first run":  # every rerun starts from the first run's recording
                    shutil.copytree(recorded, cache)
                figures[name].append(run(app, DecisionCache(cache), api))
    first = statistics.median(f.seconds for f in figures["first run"])
    print(
        f"{'run':<24}{'verdict':<10}{'LLM calls':>10}{'tokens':>10}{'replayed':>10}{'wall s':>9}{'ratio':>7}"
        f"{'target':>12}"
    )
    for name in RUNS:
        f = figures[name][-1]
        wall = statistics.median(x.seconds for x in figures[name])
        counts = f"{f.calls:>10}{f.tokens:>10}{f.replayed:>10}"
        target = TARGETS.get(name)
        verdict = "" if target is None else f"<={target} " + ("met" if f.calls <= target else "NOT met")
        print(f"{name:<24}{f.verdict:<10}{counts}{wall:>9.3f}{wall / first:>7.2f}{verdict:>12}")


if __name__ == "__main__":
    main()
