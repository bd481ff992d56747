"""Reaching a feature's done-when on generated apps: the offline brain against a random element tapper.

For every feature of the clean twin of `--apps` generated apps (tests/worlds, seeds `--seed`...), side by
side on the same in-process virtual device and the same step budget (the feature's own):
- the offline explorer, its Target and Mission built from the spec as the plugin builds them; reached
  when the item passed (the done-when held, and held again after the feature's `after`, if any);
- a random element tapper over `--tappers` seeds: a random marked element tapped, scrolled down when it
  scrolls, typed into when it is a field (with one of the feature's `inputs` values when it has any, so a
  login wall is no wall to it), back one time in ten, the app relaunched at a step's cost when it has
  left it; reached when every done-when condition holds on a screen (first sight: it is never asked to
  come back, which favours it on features with `after`).

Printed per kind of goal - one that names the way (the labels its path taps on the way to the last one are
in the goal) and one that names only what the target shows - and overall: the share of features reached
within budget by each, and the median steps to reach it (the tapper's unreached runs counted as the
budget, a lower bound). The targets: the offline brain reaches >= 90% of clean features, in at most
half the tapper's median steps. Every virtual device keeps a manual clock, moved only by the phone time
its calls model: what an app does over time comes at the same step whatever the machine's load.

    python benchmarks/bench_reach.py --apps 40 --seed 341
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from worlds import Feature as Truth  # noqa: E402  (tests/ is not a package on the path by default)
from worlds import generate  # noqa: E402
from worlds.writer import write_twin  # noqa: E402

from fairy_virtual import VirtualDevice  # noqa: E402
from fairy_virtual.clock import ManualClock  # noqa: E402
from pytest_fairy.brain.offline import OfflineBrain  # noqa: E402
from pytest_fairy.explore.action import Action, ActionKind, Direction, perform  # noqa: E402
from pytest_fairy.explore.briefing import mission_of, target_of  # noqa: E402
from pytest_fairy.explore.explorer import Explorer  # noqa: E402
from pytest_fairy.explore.oracles import Observation, evaluate  # noqa: E402
from pytest_fairy.perception.screen import Screen, build_screen  # noqa: E402
from pytest_fairy.spec import Feature, Spec, load_spec  # noqa: E402

BACK_SHARE = 0.1
REACH_TARGET = 0.9
STEPS_TARGET = 0.5  # the offline median steps at most this share of the tapper's


@dataclass(frozen=True)
class Run:
    names_way: bool
    offline: int | None  # steps to the done-when, None: not reached within budget
    tappers: tuple[int | None, ...]
    budget: int


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--apps", type=int, default=20, help="generated apps (default 20)")
    parser.add_argument("--seed", type=int, default=341, help="the first app's seed (default 341)")
    parser.add_argument("--tappers", type=int, default=3, help="random tapper seeds per feature (default 3)")
    args = parser.parse_args()
    started = time.monotonic()
    runs: list[Run] = []
    with tempfile.TemporaryDirectory(prefix="bench_reach_") as tmp:
        for seed in range(args.seed, args.seed + args.apps):
            world = generate(seed)
            folder = Path(tmp) / f"world{seed}"
            spec_path = write_twin(world, world.clean, folder)
            spec = load_spec(spec_path)
            ways = _ways(world.features)
            for feature in spec.features:
                names_way = all(label.casefold() in feature.goal.casefold() for label in ways[feature.name])
                runs.append(_compare(folder, spec, feature, names_way, args.tappers))
            print(
                f"app {seed}: {len(spec.features)} features [{time.monotonic() - started:.0f}s]", flush=True
            )
    print(
        f"\n{args.apps} apps (seeds {args.seed}..{args.seed + args.apps - 1}), {len(runs)} clean features, "
        f"random tapper over {args.tappers} seeds each"
    )
    print(
        f"{'goal':<22}{'features':>9}{'offline reached':>17}{'tapper reached':>16}"
        f"{'offline median':>16}{'tapper median':>15}{'ratio':>8}"
    )
    for title, chosen in (
        ("names the way", [r for r in runs if r.names_way]),
        ("names only the target", [r for r in runs if not r.names_way]),
        ("all", runs),
    ):
        _row(title, chosen)
    reach, ratio = _figures(runs)
    print(
        f"\ntargets: offline reaches >= {REACH_TARGET:.0%}: {'met' if reach >= REACH_TARGET else 'NOT met'}; "
        f"median steps <= {STEPS_TARGET:g}x the tapper's: {'met' if ratio <= STEPS_TARGET else 'NOT met'}"
    )
    print(f"time: {time.monotonic() - started:.0f}s")
    return 0


def _ways(features: list[Truth]) -> dict[str, list[str]]:
    """Per feature, the labels a goal that names the way names: the elements its path taps on the way to
    the last one (the last one alone for a path of one tap), after the steps every path starts with (an
    onboarding's Skip)."""
    paths = [[(s.action, s.label) for s in f.path] for f in features if f.module != "onboarding"]
    common = 0
    while paths and all(len(p) > common + 1 and p[common] == paths[0][common] for p in paths):
        common += 1
    ways = {}
    for feature in features:
        taps = [s.label for s in feature.path[common:] if s.action == "tap"]
        ways[feature.name] = taps[:-1] or taps
    return ways


def _compare(folder: Path, spec: Spec, feature: Feature, names_way: bool, tappers: int) -> Run:
    target = target_of(spec, feature)
    result = Explorer(VirtualDevice(folder, latency=False, clock=ManualClock()), OfflineBrain()).explore(
        target, mission_of(spec, feature)
    )
    offline = result.steps if result.verdict.value == "passed" else None
    values = [value for _, value in feature.effective().inputs]
    tapped = tuple(_tap_randomly(folder, feature, target.max_steps, values, seed) for seed in range(tappers))
    return Run(names_way, offline, tapped, target.max_steps)


def _tap_randomly(folder: Path, feature: Feature, budget: int, values: list[str], seed: int) -> int | None:
    """The step after which every done-when condition first held, or None within `budget`."""
    rng = random.Random(seed)
    device = VirtualDevice(folder, latency=False, clock=ManualClock())
    package = device.app_model.app.package
    device.launch(package)
    screen = _look(device)
    for step in range(1, budget + 1):
        action = _pick(screen, rng, values) if screen.package == package else Action(ActionKind.RESTART)
        perform(device, action, screen, package=package, activity=None)
        screen = _look(device)
        if all(evaluate(o, Observation(screen)).holds for o in feature.done_when):
            return step
    return None


def _pick(screen: Screen, rng: random.Random, values: list[str]) -> Action:
    marks = screen.marks
    if not marks or rng.random() < BACK_SHARE:
        return Action(ActionKind.BACK)
    mark = rng.choice(marks)
    if mark.node.editable:
        return Action(ActionKind.TYPE, mark.number, rng.choice(values) if values else "monkey")
    if mark.node.scrollable and not mark.node.clickable:
        return Action(ActionKind.SCROLL, mark.number, direction=Direction.DOWN)
    return Action(ActionKind.TAP, mark.number)


def _look(device: VirtualDevice) -> Screen:
    app = device.current_app()
    return build_screen(device.dump_hierarchy(), activity=app.activity, package=app.package)


def _figures(runs: list[Run]) -> tuple[float, float]:
    """The offline brain's reached share, and its median steps over the tapper's."""
    if not runs:
        return 0.0, 0.0
    reach = sum(r.offline is not None for r in runs) / len(runs)
    offline = statistics.median(r.offline if r.offline is not None else r.budget for r in runs)
    tapper = statistics.median(t if t is not None else r.budget for r in runs for t in r.tappers)
    return reach, offline / tapper if tapper else 0.0


def _row(title: str, runs: list[Run]) -> None:
    if not runs:
        print(f"{title:<22}{0:>9}")
        return
    reach, ratio = _figures(runs)
    tapped = [t for r in runs for t in r.tappers]
    tapper_reach = sum(t is not None for t in tapped) / len(tapped)
    offline = statistics.median(r.offline if r.offline is not None else r.budget for r in runs)
    tapper = statistics.median(t if t is not None else r.budget for r in runs for t in r.tappers)
    print(
        f"{title:<22}{len(runs):>9}{reach:>17.0%}{tapper_reach:>16.0%}{offline:>16g}{tapper:>15g}{ratio:>8.2f}"
    )


if __name__ == "__main__":
    sys.exit(main())
