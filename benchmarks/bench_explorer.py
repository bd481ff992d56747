"""The offline brain against a random monkey, at equal step budgets, on each example app.

Prints distinct states and distinct transitions found, and the offline/monkey ratio (target >= 2x).
The monkey taps a random mark (or presses back one time in ten), seeded, averaged over several seeds.

    python benchmarks/bench_explorer.py [--steps 30,60,100] [--seeds 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
from pathlib import Path

from pytest_fairy.action import Action, ActionKind
from pytest_fairy.brain.base import Decision, Judgement, Plan, StepContext, Usage
from pytest_fairy.brain.offline import OfflineBrain
from pytest_fairy.explorer import Explorer
from pytest_fairy.perception.screen import Screen
from pytest_fairy.record import Exploration
from pytest_fairy.target import Target
from pytest_fairy.virtual import VirtualDevice

ROOT = Path(__file__).resolve().parents[1]
APPS = {"food": ROOT / "example_suites" / "food", "notes": ROOT / "example_suites" / "notes"}
BACK_SHARE = 0.1


class MonkeyBrain:
    """Random taps on what is tappable: the baseline any explorer has to beat."""

    name = "monkey"
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
    print(f"monkey averaged over {args.seeds} seeds; target: offline >= 2x the monkey")
    print(
        f"{'app':<8}{'steps':>6}{'offline st/tr':>15}{'monkey st/tr':>15}"
        f"{'ratio st':>10}{'ratio tr':>10}  target"
    )
    for app in APPS:
        for steps in budgets:
            o_states, o_trans = explore(app, OfflineBrain(), steps)
            monkeys = [explore(app, MonkeyBrain(seed), steps) for seed in range(args.seeds)]
            m_states = statistics.mean(m[0] for m in monkeys)
            m_trans = statistics.mean(m[1] for m in monkeys)
            s_ratio, t_ratio = o_states / m_states, o_trans / m_trans
            verdict = "met" if min(s_ratio, t_ratio) >= 2 else "NOT met"
            print(
                f"{app:<8}{steps:>6}{f'{o_states}/{o_trans}':>15}{f'{m_states:.1f}/{m_trans:.1f}':>15}"
                f"{s_ratio:>9.1f}x{t_ratio:>9.1f}x  {verdict}"
            )


if __name__ == "__main__":
    main()
