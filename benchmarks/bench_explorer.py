"""The offline brain against random exploration, at equal step budgets, on each example app.

Two sections. "states": distinct states and distinct transitions found on the example apps and on the
untuned apps of tests/untuned (written outside the project; their `_clean` twins left out), and the
offline / baseline ratios, the offline explorer running an open exploration (a feature with no
done-when). Targets: >= 2x the random monkey; >= 1.5x the random walker, or every state there is where
1.5x the walker's is more than the app has. Two baselines, seeded and averaged over several seeds:

- the monkey: Android's `monkey` as a QA team points it at one app - random taps anywhere on the screen,
  random swipes, the back key; blind, so a tap on empty space is a step spent;
- the random walker: a much stronger baseline that sees the screen - a random tap on a marked element (or
  back one time in ten). On these small apps nearly every tap of it opens something, so its figures
  bound what any explorer can gain: a step finds at most one new transition, hence the printed ceiling
  (budget / the walker's transitions). The app's states (`all`) are the pages a long walk saw
  (`REACH_STEPS` steps of the walker) together with those any run of the table saw, counted as one run
  records them: a run keeps `FAMILY_LIMIT` pages of a family apart (explore/families.py) and folds the
  rest into the first, so pages that several runs each kept apart (the article at a fourth font size)
  are no more states than one run can find.

"last-row": steps to a list's last row. On tests/untuned/long_list (300 rows) the offline explorer runs
the spec's feature "reach the last row" (done when `商品 300` is visible) with a budget of 200 steps,
against an element monkey - a random marked element, tapped, typed into, or scrolled down when it is
scrollable, back one time in ten - over several seeds (target: offline <= 60 steps).

Every virtual device here keeps a manual clock, moved only by the phone time its calls model: what an
app does over time (a toast gone, a refresh) comes at the same step on every run, whatever the machine's
load, so a run's figures are the same each time.

`--held-out` runs the states table on benchmarks/explorer_apps instead: apps written from the app model's
docs alone by someone who never read the explorer, kept out of every exploration rule's design.

    python benchmarks/bench_explorer.py [--section all|states|last-row] [--steps 30,60,100] [--seeds 5]
                                        [--held-out]
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
from dataclasses import dataclass, field
from pathlib import Path

from fairy_virtual import VirtualDevice
from fairy_virtual.clock import ManualClock
from pytest_fairy.brain.offline import OfflineBrain
from pytest_fairy.devices.protocol import Key
from pytest_fairy.explore.action import Action, ActionKind, Direction, perform
from pytest_fairy.explore.briefing import mission_of, target_of
from pytest_fairy.explore.decisions import Decision, Judgement, Plan, StepContext, Usage
from pytest_fairy.explore.explorer import Explorer, ExplorerSettings
from pytest_fairy.explore.families import Families
from pytest_fairy.explore.oracles import Observation, evaluate
from pytest_fairy.explore.record import Exploration
from pytest_fairy.explore.state import StateId, StateIdentifier, identify, layout_of
from pytest_fairy.explore.target import Target
from pytest_fairy.perception.layers import LayerKind
from pytest_fairy.perception.screen import Mark, Screen, build_screen
from pytest_fairy.spec import Feature, Oracle, OracleKind, Spec, load_spec

ROOT = Path(__file__).resolve().parents[1]
UNTUNED = ROOT / "tests" / "untuned"
# The untuned apps with a seeded bug or a hard shape; their `_clean` twins add nothing to explore.
UNTUNED_APPS = (
    "crash_on_save",
    "dead_button",
    "missing_screen",
    "long_list",
    "settings_below_fold",
    "catalog_below_fold",
    "dialog_trap",
)
APPS = {
    "food": ROOT / "example_suites" / "food",
    "notes": ROOT / "example_suites" / "notes",
    **{name: UNTUNED / name for name in UNTUNED_APPS},
}
HELD_OUT = ROOT / "benchmarks" / "explorer_apps"
# The last-row section: the spec, its feature, the step budget and the target.
LONG_LIST_SPEC = UNTUNED / "long_list" / "test_long_list.yaml"
LAST_ROW_FEATURE = "reach the last row"
LAST_ROW_BUDGET = 200
LAST_ROW_TARGET = 60
ROW_NAME = re.compile(r"商品 (\d+)")
BACK_SHARE = 0.1
# The walk that tells how many states an app has, for the walker target's cap.
REACH_STEPS = 600
# The touch monkey's event mix (the rest is the back key).
TOUCH_SHARE, SWIPE_SHARE = 0.8, 0.1
BASE_LAYERS = frozenset({LayerKind.APP, LayerKind.SYSTEM_UI, LayerKind.LAUNCHER})


class RandomWalker:
    """Random taps on what is tappable: a random explorer that can see the screen. With `scrolls`, a
    scrollable element drawn is scrolled down instead of tapped (the element monkey of the last-row
    section); without it (the states table, as its earlier figures were taken) it is tapped."""

    name = "random walker"
    model: str | None = None

    def __init__(self, seed: int, *, scrolls: bool = False) -> None:
        self.random = random.Random(seed)
        self.scrolls = scrolls

    def plan(self, target: Target, screen: Screen, som_jpeg: bytes = b"") -> Plan:
        return Plan(root=target.feature)

    def decide(self, ctx: StepContext) -> Decision:
        return self.pick(ctx.screen)

    def pick(self, screen: Screen) -> Decision:
        marks = screen.marks
        if not marks or self.random.random() < BACK_SHARE:
            return Decision(Action(ActionKind.BACK), "random back")
        mark = self.random.choice(marks)
        if mark.node.editable:
            return Decision(Action(ActionKind.TYPE, mark.number, "monkey"), "random text")
        if self.scrolls and mark.node.scrollable:
            return Decision(Action(ActionKind.SCROLL, mark.number, direction=Direction.DOWN), "random scroll")
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
    device = VirtualDevice(APPS[app], latency=False, clock=ManualClock())
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


class Found(set[str]):
    """The states an exploration found, how many distinct transitions, and every page it saw."""

    transitions = 0
    pages: dict[str, tuple[StateId, frozenset[str]]]


@dataclass(frozen=True)
class PageLog(StateIdentifier):
    """The explorer's state identifier, remembering every page it told (by state key, first seen first)
    with its layout: what a run recorded before family folding."""

    pages: dict[str, tuple[StateId, frozenset[str]]] = field(default_factory=dict)

    def identify(self, screen: Screen) -> StateId:
        state = super().identify(screen)
        if state.key not in self.pages:
            self.pages[state.key] = (state, layout_of(screen))
        return state


def one_run_count(pages: dict[str, tuple[StateId, frozenset[str]]]) -> int:
    """How many states one run would record had it seen all `pages`: each family's first `FAMILY_LIMIT`
    kept apart, the rest folded into the first (as the explorer's recognizer does)."""
    families = Families()
    return len({families.canonical(state, layout).key for state, layout in pages.values()})


def explore_states(app: str, brain: object, steps: int) -> Found:
    """The states and distinct transitions found with `steps` steps, relaunching the app after a defect
    or an early finish (as a QA session would), with the same brain and its memory."""
    log = PageLog()
    device = VirtualDevice(APPS[app], latency=False, clock=ManualClock())
    package = device.app_model.app.package
    states: set[str] = set()
    transitions: set[tuple[str, str, str]] = set()
    left = steps
    while left > 0:
        target = Target(
            app_name=app, package=package, feature="everything", goal="explore every screen", max_steps=left
        )
        explorer = Explorer(device, brain, settings=ExplorerSettings(identifier=log))  # type: ignore[arg-type]
        result: Exploration = explorer.explore(target)
        states.update(result.tree.states)
        transitions.update(
            (t.from_key, t.action_key, t.to_key) for t in result.tree.transitions if not t.self_loop
        )
        if result.steps == 0:
            break
        left -= result.steps
    found = Found(states)
    found.transitions = len(transitions)
    found.pages = log.pages
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--section", choices=("all", "states", "last-row"), default="all")
    parser.add_argument(
        "--steps", default="30,60,100", help="step budgets of the states table, comma-separated"
    )
    parser.add_argument("--seeds", type=int, default=5, help="seeds per baseline, in both sections")
    parser.add_argument(
        "--held-out", action="store_true", help=f"the states table on {HELD_OUT.relative_to(ROOT)}"
    )
    args = parser.parse_args()
    if args.held_out:
        APPS.clear()
        APPS.update({path.parent.name: path.parent for path in sorted(HELD_OUT.glob("*/app.yaml"))})
        states_table([int(n) for n in args.steps.split(",")], args.seeds)
        return
    if args.section in ("all", "states"):
        states_table([int(n) for n in args.steps.split(",")], args.seeds)
    if args.section in ("all", "last-row"):
        if args.section == "all":
            print()
        last_row(args.seeds)


def states_table(budgets: list[int], seeds: int) -> None:
    print(
        f"baselines averaged over {seeds} seeds; targets: offline >= 2x the monkey, both figures; "
        f">= 1.5x the walker, both figures, states capped at all the app has"
    )
    width = max(len(app) for app in APPS) + 1
    print(
        f"{'app':<{width}}{'steps':>6}{'offline':>10}{'monkey':>12}{'ratio':>12}  {'target':<8}"
        f"{'walker':>12}{'ratio':>12}{'all':>5}  {'target':<8}{'ceiling tr':>11}"
    )
    for app in APPS:
        pages = dict(explore_states(app, RandomWalker(seeds), REACH_STEPS).pages)
        for steps in budgets:
            found = explore_states(app, OfflineBrain(), steps)
            offline = (len(found), found.transitions)
            monkey = _mean([touch_monkey(app, seed, steps) for seed in range(seeds)])
            walks = [explore_states(app, RandomWalker(seed), steps) for seed in range(seeds)]
            walker = _mean([(len(w), w.transitions) for w in walks])
            for run in (found, *walks):
                pages.update((key, page) for key, page in run.pages.items() if key not in pages)
            everything = one_run_count(pages)
            vs_monkey = (offline[0] / monkey[0], offline[1] / monkey[1])
            vs_walker = (offline[0] / walker[0], offline[1] / walker[1])
            verdict = "met" if min(vs_monkey) >= 2 else "NOT met"
            states_met = offline[0] >= min(1.5 * walker[0], everything)
            walker_verdict = "met" if states_met and vs_walker[1] >= 1.5 else "NOT met"
            print(
                f"{app:<{width}}{steps:>6}{_pair(offline):>10}{_pair(monkey):>12}{_ratios(vs_monkey):>12}  "
                f"{verdict:<8}{_pair(walker):>12}{_ratios(vs_walker):>12}{everything:>5}  "
                f"{walker_verdict:<8}{steps / walker[1]:>10.1f}x"
            )
    print(
        "(states/transitions; ratios offline/baseline for states and transitions; "
        "all: the app's states, as one run records them)"
    )


def last_row(seeds: int) -> None:
    spec = load_spec(LONG_LIST_SPEC)
    feature = next(f for f in spec.features if f.name == LAST_ROW_FEATURE)
    wanted = next(o for o in feature.done_when if o.kind is OracleKind.VISIBLE)
    print(
        f"steps to a list's last row: {LONG_LIST_SPEC.relative_to(ROOT)}, feature {LAST_ROW_FEATURE!r} "
        f"(done when {wanted}), budget {LAST_ROW_BUDGET} steps"
    )
    offline = offline_to_last_row(spec, feature, LAST_ROW_BUDGET)
    print(f"offline explorer: {_reached(offline.steps if offline.verdict.value == 'passed' else None)}")
    if offline.verdict.value != "passed":
        print(f"  its verdict: {offline.verdict.value}: {offline.reason}")
    runs = [element_monkey(seed, LAST_ROW_BUDGET, wanted) for seed in range(seeds)]
    got = [n for n, _ in runs if n is not None]
    figures = f"median {statistics.median(got):g}, mean {statistics.mean(got):.1f} steps" if got else ""
    print(f"element monkey over {seeds} seeds: {', '.join(_reached(n) for n, _ in runs)}")
    print(
        f"  {figures + '; ' if figures else ''}{len(runs) - len(got)} of {seeds} seeds never got there; "
        f"deepest row seen: {', '.join(str(row) for _, row in runs)}"
    )
    met = offline.verdict.value == "passed" and offline.steps <= LAST_ROW_TARGET
    print(f"offline <= {LAST_ROW_TARGET} steps: {'met' if met else 'NOT met'}")


def offline_to_last_row(spec: Spec, feature: Feature, budget: int) -> Exploration:
    """The offline explorer on the long list's feature "reach the last row", its Target and Mission built
    from the spec as the plugin builds them. The only done-when is the last row's name being visible, and
    it is read after every step, so a pass after n steps means the row was first on screen after step n."""
    device = VirtualDevice(LONG_LIST_SPEC.parent, latency=False, clock=ManualClock())
    return Explorer(device, OfflineBrain()).explore(
        target_of(spec, feature, max_steps=budget), mission_of(spec, feature)
    )


def element_monkey(seed: int, budget: int, wanted: Oracle) -> tuple[int | None, int]:
    """The element monkey on the long list, straight on the device (no loop guard, no oracle but the
    wanted text): the step after which `wanted` was first on screen (None if not within `budget`), and the
    deepest row it saw. The app is relaunched, at a step's cost, when the monkey has left it."""
    walker = RandomWalker(seed, scrolls=True)
    device = VirtualDevice(LONG_LIST_SPEC.parent, latency=False, clock=ManualClock())
    package = device.app_model.app.package
    device.launch(package)
    screen = _look(device)
    deepest = _deepest_row(screen)
    for step in range(1, budget + 1):
        action = walker.pick(screen).action if screen.package == package else Action(ActionKind.RESTART)
        assert action is not None
        perform(device, action, screen, package=package, activity=None)
        screen = _look(device)
        deepest = max(deepest, _deepest_row(screen))
        if evaluate(wanted, Observation(screen)).holds:
            return step, deepest
    return None, deepest


def _deepest_row(screen: Screen) -> int:
    """The highest row number the long list's screen shows (its rows read `商品 {i}`)."""
    return max((int(n) for n in ROW_NAME.findall(screen.text)), default=0)


def _reached(step: int | None) -> str:
    return f"step {step}" if step is not None else f"not within {LAST_ROW_BUDGET}"


def _mean(runs: list[tuple[int, int]]) -> tuple[float, float]:
    return statistics.mean(r[0] for r in runs), statistics.mean(r[1] for r in runs)


def _pair(figures: tuple[float, float]) -> str:
    return "/".join(f"{f:g}" if float(f).is_integer() else f"{f:.1f}" for f in figures)


def _ratios(ratios: tuple[float, float]) -> str:
    return f"{ratios[0]:.1f}x/{ratios[1]:.1f}x"


if __name__ == "__main__":
    main()
