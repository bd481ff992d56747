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
5. three screens changed (a line on home too): the plan, made on home, is made anew (target: at most 6);
6. screen removed (the dialog no longer opens: 麦乐送 leads straight to the delivery page): both dialog
   screens are gone, as the build-to-build diff says; replay stops there and names them, without a call
   (target: 0 calls, inconclusive).

Each round starts from an empty cache. The fake server answers after `--latency` seconds (default 0.5,
a fast real model's answer time; 0 shows the explorer's own time). Wall time is the median over the
rounds; the ratio column is that run's wall time over the first run's.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
from pathlib import Path

from replay_runs import Figures, run, slow

from pytest_fairy.explore.explorer import Mission
from pytest_fairy.explore.target import Target
from pytest_fairy.replay import DecisionCache
from pytest_fairy.spec.model import Oracle, OracleKind
from tests.claude.fake_api import FakeMessagesAPI
from tests.replay.builds import (
    ASAP_ETA,
    DIALOG_NOTICE,
    HOME_HOURS,
    NO_DIALOG,
    Change,
    Replacement,
    write_build,
)
from tests.replay.helpers import FOOD_APP, delivery_time_model

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
RUNS: dict[str, tuple[Change | Replacement, ...]] = {
    "first run": (),
    "unchanged rerun": (),
    "one screen changed": (ASAP_ETA,),
    "two screens changed": (DIALOG_NOTICE,),
    "three screens changed": (HOME_HOURS, DIALOG_NOTICE),
    "screen removed": NO_DIALOG,
}
# The most LLM calls a rerun may make, where the bench sets a target.
TARGETS = {"unchanged rerun": 0, "one screen changed": 2, "three screens changed": 6, "screen removed": 0}


def food_runs(folder: Path) -> dict[str, Path]:
    """The app of each run: the food app, or a build of it with the run's changes."""
    return {name: write_build(folder / f"build-{n}.yaml", *changes) if changes else FOOD_APP
            for n, (name, changes) in enumerate(RUNS.items())}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--latency", type=float, default=0.5, help="seconds the fake server takes to answer")
    args = parser.parse_args()
    figures: dict[str, list[Figures]] = {name: [] for name in RUNS}
    answer = slow(delivery_time_model, args.latency)
    with tempfile.TemporaryDirectory() as scratch, FakeMessagesAPI(responder=answer) as api:
        folder = Path(scratch)
        apps = food_runs(folder)
        run(FOOD_APP, DecisionCache(folder / "warm-up"), api, TARGET, MISSION)  # imports, fonts, SDK client
        for round_number in range(args.rounds):
            recorded = folder / f"round-{round_number}" / "first run"
            for name, app in apps.items():
                cache = folder / f"round-{round_number}" / name
                if name != "first run":  # every rerun starts from the first run's recording
                    shutil.copytree(recorded, cache)
                figures[name].append(run(app, DecisionCache(cache), api, TARGET, MISSION))
    first = statistics.median(f.seconds for f in figures["first run"])
    print(
        f"{'run':<24}{'verdict':<14}{'LLM calls':>10}{'tokens':>10}{'replayed':>10}{'wall s':>9}{'ratio':>7}"
        f"{'target':>12}"
    )
    for name in RUNS:
        f = figures[name][-1]
        wall = statistics.median(x.seconds for x in figures[name])
        counts = f"{f.calls:>10}{f.tokens:>10}{f.replayed:>10}"
        target = TARGETS.get(name)
        verdict = "" if target is None else f"<={target} " + ("met" if f.calls <= target else "NOT met")
        print(f"{name:<24}{f.verdict:<14}{counts}{wall:>9.3f}{wall / first:>7.2f}{verdict:>12}")
    removed = figures["screen removed"][-1]
    print(f"\nscreen removed: {removed.verdict}: {removed.reason}")


if __name__ == "__main__":
    main()
