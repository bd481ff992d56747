"""What the whole loop costs: LLM calls, tokens, dollars per model and wall time of a first run and of reruns
on changed builds, on the example apps and on generated apps, side by side; and (`--section screenshot`)
what long edge the screenshot sent to the model needs.

    .venv/bin/python benchmarks/bench_cost.py [--section loop|screenshot|all] [--worlds 3] [--latency 0.5]

Loop: each app's feature is explored by the Claude brain through the real anthropic SDK against the local
fake Messages server (replay_runs.py; its token counts are its own estimate: text chars / 4, images by
pixels / 750) with a scripted model: the food app's delivery-time model (tests/replay/helpers.py), and for
the others a model that taps the feature's way, label by label (`WayModel`). Five runs per app, each rerun
from the first run's recording (as bench_replay.py): the first run, an unchanged rerun, one screen of the way
changed (a line of text added), three screens changed, and a screen removed from the way (the action that
led to it leads past it). Dollars are the same token counts priced at each current model of the model table
(pytest_fairy/brain/models.py); ratios are against the first run. The screenshot study is screenshot_size.py.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from bench_replay import MISSION as FOOD_MISSION
from bench_replay import TARGET as FOOD_TARGET
from bench_replay import food_runs
from replay_runs import Figures, Responder, run, slow

from pytest_fairy.brain.models import MODELS, Status
from pytest_fairy.brain.pricing import CallTokens
from pytest_fairy.explore.explorer import Mission
from pytest_fairy.explore.target import Target
from pytest_fairy.replay import DecisionCache
from pytest_fairy.spec.model import Oracle, OracleKind
from tests.claude import answers
from tests.claude.fake_api import FakeMessagesAPI, Reply, tool_reply
from tests.claude.stages import stage_of
from tests.replay.helpers import ROOT, delivery_time_model, mark_of, screen_text
from tests.worlds import generator, writer

SCENARIOS = ("first run", "unchanged rerun", "one screen changed", "three screens changed", "screen removed")
NOTICE = {"class": "TextView", "id": "tv_bench_notice", "text": "新版本提示：服务升级中", "style": "caption"}
NOTES_APP = ROOT / "example_suites" / "notes" / "app.yaml"


class WayModel:
    """A model that knows the feature's way: on each screen it taps the first label of the way, from where
    it got to, that the screen shows (it is not asked for replayed steps, so it looks ahead), and declares
    the feature explored when it sees none. Plan, judge and summary answer as in tests/claude/answers.py."""

    def __init__(self, labels: list[str]) -> None:
        self.labels = labels
        self.at = 0

    def __call__(self, request: dict[str, Any]) -> Reply:
        stage = stage_of(request)
        if stage in ("plan", "judge", "summarize"):
            judged = {**answers.JUDGE, "reason": "the screen the goal names is shown"}
            answer = {"plan": answers.PLAN, "judge": judged}.get(stage, answers.SUMMARY)
            return tool_reply(stage, answer)
        screen = screen_text(request)
        for n in range(self.at, len(self.labels)):
            mark = mark_of(screen, self.labels[n])
            if mark is not None:
                self.at = n + 1
                return tool_reply("next_action", answers.action(mark=mark, why=f"tap {self.labels[n]}"))
        return tool_reply("next_action", answers.action(kind="done", mark=None))


@dataclass
class Case:
    """One app's feature: its builds per scenario, the model that explores it, where it is recorded."""

    name: str
    target: Target
    mission: Mission
    builds: dict[str, Path]
    model: Callable[[], Responder]
    spec: str


# -- changed builds of an app model (a dict, as the YAML reads) -----------------------------------------


def screen(app: dict[str, Any], screen_id: str) -> dict[str, Any]:
    return next(s for s in app["screens"] if s["id"] == screen_id)


def element(elements: list[dict[str, Any]], label: str) -> dict[str, Any] | None:
    for e in elements:
        if label in (e.get("text"), e.get("desc")):
            return e
        found = element(e.get("children", []), label)
        if found is not None:
            return found
    return None


def target_of(e: dict[str, Any]) -> str | None:
    for effect in e.get("on_tap", []) or []:
        if isinstance(effect, dict) and isinstance(effect.get("go") or effect.get("replace"), str):
            return effect.get("go") or effect.get("replace")
    return None


def way_screens(app: dict[str, Any], labels: list[str]) -> list[str] | None:
    """The screens the way's taps go through, from the launch screen; None when a tap is not a plain move
    from a screen's element to another screen (a tab, a drawer, a dialog)."""
    at = app["app"]["launch"]
    screens = [at]
    for label in labels:
        e = element(screen(app, at).get("elements", []), label)
        nxt = target_of(e) if e is not None else None
        if nxt is None or nxt not in {s["id"] for s in app["screens"]}:
            return None
        screens.append(nxt)
        at = nxt
    return screens


def builds(
    app: dict[str, Any], labels: list[str], folder: Path, prepare: dict[str, Any] | None = None
) -> dict[str, Path]:
    """The app as it is, with one screen of the way changed (the second), three (the first three), and with
    the way's second screen removed from it (the first tap leads where the second led)."""
    way = way_screens(app, labels)
    assert way is not None and len(way) >= 3, "a way of at least three screens"
    made: dict[str, Path] = {}
    folder.mkdir(parents=True, exist_ok=True)

    def write(name: str, change: Callable[[dict[str, Any]], None]) -> None:
        changed = yaml.safe_load(yaml.safe_dump(app, allow_unicode=True))
        for key, value in (prepare or {}).items():
            changed["variables"][key] = value
        change(changed)
        path = folder / f"{name.replace(' ', '-')}.yaml"
        path.write_text(writer.dump(changed), encoding="utf-8")
        made[name] = path

    def notice(*ids: str) -> Callable[[dict[str, Any]], None]:
        def change(a: dict[str, Any]) -> None:
            for i in ids:
                screen(a, i).setdefault("elements", []).insert(0, dict(NOTICE))

        return change

    def skip(a: dict[str, Any]) -> None:
        first = element(screen(a, way[0])["elements"], labels[0])
        assert first is not None
        first["on_tap"] = [{"go": way[2]}]

    write("first run", lambda a: None)
    made["unchanged rerun"] = made["first run"]
    write("one screen changed", notice(way[1]))
    write("three screens changed", notice(*way[:3]))
    write("screen removed", skip)
    return made


# -- the apps ---------------------------------------------------------------------------------------------


def food_case(folder: Path) -> Case:
    runs = food_runs(folder)
    chosen = {name: runs[name] for name in SCENARIOS}
    return Case("food: delivery time", FOOD_TARGET, FOOD_MISSION, chosen, lambda: delivery_time_model,
                "bench/test_food.yaml")  # fmt: skip


def notes_case(folder: Path) -> Case:
    """随手记, signed in already: settings -> 关于随手记, where the version shows."""
    labels = ["设置", "关于随手记"]
    app = yaml.safe_load(NOTES_APP.read_text(encoding="utf-8"))
    made = builds(app, labels, folder, prepare={"logged_in": {"initial": True, "persist": True}})
    goal = "关于：open 关于随手记 in the settings and read the version"
    target = Target(app_name="随手记", package="com.example.notes", feature="about", goal=goal, max_steps=15)
    mission = Mission(done_when=[Oracle(kind=OracleKind.VISIBLE, value="版本 2.3.1")])
    return Case("notes: about", target, mission, made, lambda: WayModel(labels), "bench/notes.yaml")


def world_cases(folder: Path, wanted: int) -> list[Case]:
    """Generated apps (tests/worlds), each with its first feature whose way is three or more screens of
    plain taps."""
    found: list[Case] = []
    for seed in range(1, 200):
        if len(found) >= wanted:
            break
        world = generator.generate(seed)
        app = world.clean.app
        for feature in world.features:
            labels = [s.label for s in feature.path]
            if any(s.action != "tap" for s in feature.path) or len(labels) < 2:
                continue
            way = way_screens(app, labels)
            if way is None or len(way) < 3:
                continue
            made = builds(app, labels, folder / f"world{seed}")
            target = Target(app_name=world.name, package=world.package, feature=feature.name,
                            goal=feature.goal, max_steps=20)  # fmt: skip
            oracles = [Oracle(kind=OracleKind(k), value=v) for c in feature.done_when for k, v in c.items()]
            found.append(Case(f"world {seed}: {feature.name}", target, Mission(done_when=oracles), made,
                              lambda labels=labels: WayModel(labels), f"bench/world{seed}.yaml"))  # fmt: skip
            break
    return found


# -- running and printing ---------------------------------------------------------------------------------


def loop(cases: list[Case], latency: float) -> dict[str, dict[str, Figures]]:
    holder: dict[str, Responder] = {}
    results: dict[str, dict[str, Figures]] = {}
    api = FakeMessagesAPI(responder=lambda request: holder["now"](request))
    with tempfile.TemporaryDirectory() as scratch, api:
        folder = Path(scratch)
        holder["now"] = slow(delivery_time_model, latency)
        run(FOOD_TARGET_APP(), DecisionCache(folder / "warm-up"), api, FOOD_TARGET, FOOD_MISSION)
        for case in cases:
            results[case.name] = {}
            recorded = folder / case.spec / "first run"
            for name in SCENARIOS:
                cache = folder / case.spec / name
                if name != "first run":
                    shutil.copytree(recorded, cache)
                holder["now"] = slow(case.model(), latency)
                results[case.name][name] = run(case.builds[name], DecisionCache(cache), api, case.target,
                                               case.mission, spec=case.spec)  # fmt: skip
    return results


def FOOD_TARGET_APP() -> Path:  # noqa: N802 - read as the constant it stands for
    return ROOT / "example_suites" / "food" / "app.yaml"


def dollars(f: Figures, price: Any) -> float:
    u = f.usage
    return CallTokens(u.input_tokens, u.output_tokens, u.cache_write_tokens, u.cache_read_tokens).cost(price)


def print_loop(results: dict[str, dict[str, Figures]]) -> None:
    models = [m for m in MODELS.values() if m.status is Status.CURRENT and m.price is not None]
    for case, runs in results.items():
        first = runs["first run"]
        print(f"\n{case}")
        heads = "".join(f"{'$ ' + m.id.removeprefix('claude-'):>18}" for m in models)
        print(f"{'run':<22}{'verdict':<13}{'calls':>6}{'input':>8}{'output':>8}{'c.write':>8}{'c.read':>8}"
              f"{heads}{'wall s':>8}{'calls x':>8}{'$ x':>6}{'wall x':>7}")  # fmt: skip
        for name, f in runs.items():
            u = f.usage
            money = "".join(f"{dollars(f, m.price):>18.4f}" for m in models)
            paid, paid_first = dollars(f, models[0].price), dollars(first, models[0].price)
            ratio_calls = f.calls / first.calls if first.calls else 0.0
            ratio_paid = paid / paid_first if paid_first else 0.0
            print(f"{name:<22}{f.verdict:<13}{f.calls:>6}{u.input_tokens:>8}{u.output_tokens:>8}"
                  f"{u.cache_write_tokens:>8}{u.cache_read_tokens:>8}{money}{f.seconds:>8.2f}"
                  f"{ratio_calls:>8.2f}{ratio_paid:>6.2f}{f.seconds / first.seconds:>7.2f}")  # fmt: skip
        removed = runs["screen removed"]
        print(f"  screen removed: {removed.verdict}: {removed.reason[:200]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--section", choices=("loop", "screenshot", "all"), default="all")
    parser.add_argument("--worlds", type=int, default=3, help="generated apps in the loop section")
    parser.add_argument("--latency", type=float, default=0.5, help="seconds the fake server takes to answer")
    args = parser.parse_args()
    if args.section in ("loop", "all"):
        with tempfile.TemporaryDirectory() as scratch:
            folder = Path(scratch)
            cases = [food_case(folder), notes_case(folder), *world_cases(folder, args.worlds)]
            print_loop(loop(cases, args.latency))
    if args.section in ("screenshot", "all"):
        from screenshot_size import study

        study()


if __name__ == "__main__":
    main()
