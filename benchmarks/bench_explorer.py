"""The offline brain against random exploration, at equal step budgets, on each example app.

Prints distinct states and distinct transitions found, and the offline / baseline ratios (target >= 2x
the random monkey). Two baselines, seeded and averaged over several seeds:

- the monkey: Android's `monkey` as a QA team points it at one app - random taps anywhere on the screen,
  random swipes, the back key; blind, so a tap on empty space is a step spent;
- the random walker: a much stronger baseline that sees the screen - a random tap on a marked element (or
  back one time in ten). On these small apps nearly every tap of it opens something, so its figures
  bound what any explorer can gain: a step finds at most one new transition, hence the printed ceiling
  (budget / the walker's transitions).

    python benchmarks/bench_explorer.py [--steps 30,60,100] [--seeds 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
from pathlib import Path

from pytest_fairy.brain.offline import OfflineBrain
from pytest_fairy.devices.protocol import Key
from pytest_fairy.explore.action import Action, ActionKind
from pytest_fairy.explore.decisions import Decision, Judgement, Plan, StepContext, Usage
from pytest_fairy.explore.explorer import Explorer
from pytest_fairy.explore.record import Exploration
from pytest_fairy.explore.state import identify
from pytest_fairy.explore.target import Target
from pytest_fairy.perception.layers import LayerKind
from pytest_fairy.perception.screen import Mark, Screen, build_screen
from pytest_fairy.virtual import VirtualDevice

ROOT = Path(__file__).resolve().parents[1]
APPS = {"food": ROOT / "example_suites" / "food", "notes": ROOT / "example_suites" / "notes"}
BACK_SHARE = 0.1
# The touch monkey's event mix (the rest is the back key).
TOUCH_SHARE, SWIPE_SHARE = 0.8, 0.1
BASE_LAYERS = frozenset({LayerKind.APP, LayerKind.SYSTEM_UI, LayerKind.LAUNCHER})


class RandomWalker:
    """Random taps on what is tappable: a random explorer that can see the screen."""

    name = "random walker"
    model: str | None = None

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def plan(self, target: Target, screen: Screen, som_jpeg: bytes = b"") -> Plan:
        return Plan(root=target.feature)

    def decide(self, ctx: StepContext) -> Decision:
        marks = ctx.screen.marks
        if not marks or self.random.random() < BACK_SHARE:
            return Decision(Action(ActionKind.BACK), "random back")
        mark = self.random.choice(marks)
        if mark.node.editable:
            return Decision(Action(ActionKind.TYPE, mark.number, "monkey"), "random text")
        return Decision(Action(ActionKind.TAP, mark.number), "random tap")

    def judge(self, ctx: StepContext) -> Judgement:
        return Judgement(False, "a monkey never knows")

    def summarize(self, target: Target, story: str) -> str:
        return story

    def usage(self) -> Usage:
        return Usage()


def touch_monkey(app: str, seed: int, steps: int) -> tuple[int, int]:
    """Android's monkey as a QA team points it at one app: taps at random points of the screen, random
    swipes and the back key (`monkey -p PKG --pct-touch 80 --pct-motion 10 --pct-syskeys 10`), the app
    relaunched - at a step's cost - when the monkey has left it or it crashed. It sees nothing: a tap
    that hits no element is a step spent. States are identified exactly as the explorer does."""
    rng = random.Random(seed)
    device = VirtualDevice(APPS[app], latency=False)
    package = device.app_model.app.package
    width, height = device.window_size()
    device.launch(package)
    screen = _look(device)
    here = identify(screen).key
    states, transitions = {here}, set()
    for _ in range(steps):
        roll = rng.random()
        if screen.package != package:
            device.stop(package)
            device.launch(package)
            key = "restart"
        elif roll < TOUCH_SHARE:
            x, y = rng.randrange(width), rng.randrange(height)
            hit = _mark_at(screen, x, y)
            device.tap(x, y)
            key = f"tap|{hit.ref}" if hit else "tap|nothing"
        elif roll < TOUCH_SHARE + SWIPE_SHARE:
            x1, y1, x2, y2 = (rng.randrange(n) for n in (width, height, width, height))
            device.swipe(x1, y1, x2, y2)
            key = "swipe"
        else:
            device.press(Key.BACK)
            key = "back"
        screen = _look(device)
        there = identify(screen).key
        states.add(there)
        if there != here:
            transitions.add((here, key, there))
        here = there
    return len(states), len(transitions)


def _look(device: VirtualDevice) -> Screen:
    app = device.current_app()
    return build_screen(device.dump_hierarchy(), activity=app.activity, package=app.package)


def _mark_at(screen: Screen, x: int, y: int) -> Mark | None:
    """The element a tap at (x, y) lands on: an overlay's (dialog, popup) before the page's, the smallest."""
    under = [
        m for m in screen.marks if m.bounds.left <= x < m.bounds.right and m.bounds.top <= y < m.bounds.bottom
    ]
    return max(under, key=lambda m: (m.layer not in BASE_LAYERS, -m.bounds.area), default=None)


def explore(app: str, brain: object, steps: int) -> tuple[int, int]:
    """Distinct states and transitions found with `steps` steps, relaunching the app after a defect
    or an early finish (as a QA session would), with the same brain and its memory."""
    device = VirtualDevice(APPS[app], latency=False)
    package = device.app_model.app.package
    states: set[str] = set()
    transitions: set[tuple[str, str, str]] = set()
    left = steps
    while left > 0:
        target = Target(
            app_name=app, package=package, feature="everything", goal="explore every screen", max_steps=left
        )
        result: Exploration = Explorer(device, brain).explore(target)  # type: ignore[arg-type]
        states.update(result.tree.states)
        transitions.update(
            (t.from_key, t.action_key, t.to_key) for t in result.tree.transitions if not t.self_loop
        )
        if result.steps == 0:
            break
        left -= result.steps
    return len(states), len(transitions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", default="30,60,100", help="step budgets, comma-separated")
    parser.add_argument("--seeds", type=int, default=5)
    args = parser.parse_args()
    budgets = [int(n) for n in args.steps.split(",")]
    print(f"baselines averaged over {args.seeds} seeds; target: offline >= 2x the monkey, both figures")
    print(
        f"{'app':<7}{'steps':>6}{'offline':>10}{'monkey':>12}{'ratio':>12}  {'target':<8}"
        f"{'walker':>12}{'ratio':>12}{'ceiling tr':>11}"
    )
    for app in APPS:
        for steps in budgets:
            offline = explore(app, OfflineBrain(), steps)
            monkey = _mean([touch_monkey(app, seed, steps) for seed in range(args.seeds)])
            walker = _mean([explore(app, RandomWalker(seed), steps) for seed in range(args.seeds)])
            vs_monkey = (offline[0] / monkey[0], offline[1] / monkey[1])
            vs_walker = (offline[0] / walker[0], offline[1] / walker[1])
            verdict = "met" if min(vs_monkey) >= 2 else "NOT met"
            print(
                f"{app:<7}{steps:>6}{_pair(offline):>10}{_pair(monkey):>12}{_ratios(vs_monkey):>12}  "
                f"{verdict:<8}{_pair(walker):>12}{_ratios(vs_walker):>12}{steps / walker[1]:>10.1f}x"
            )
    print("(states/transitions; ratios offline/baseline for states and transitions)")


def _mean(runs: list[tuple[int, int]]) -> tuple[float, float]:
    return statistics.mean(r[0] for r in runs), statistics.mean(r[1] for r in runs)


def _pair(figures: tuple[float, float]) -> str:
    return "/".join(f"{f:g}" if float(f).is_integer() else f"{f:.1f}" for f in figures)


def _ratios(ratios: tuple[float, float]) -> str:
    return f"{ratios[0]:.1f}x/{ratios[1]:.1f}x"


if __name__ == "__main__":
    main()
