"""Verdicts on generated worlds whose truth is known: false defects on working features, defects caught.

Generates `--apps` apps with tests/worlds (seeds `--seed`, `--seed`+1, ...), each as its clean twin
(every feature works) and its bug twins (the same app with one seeded bug; their specs hold the feature
the bug breaks), writes them to a temporary folder, and runs pytest_fairy on every spec in a few pytest
subprocesses (`--batch` apps per run, `-n --workers` with pytest-xdist). Each item's verdict is read
from the JUnit XML (`<failure>`: failed, `<error>`: inconclusive, else passed) with its message.

Prints, per pattern, a confusion matrix:
- clean features, by building block: passed / inconclusive / failed (a false defect: the feature works);
- bug features, by bug kind and by block/bug kind: failed naming the element the bug sits on (`bug_at`, or
  one whose action shows the same defect: any row of a list whose detail pages crash on a later visit) /
  failed naming something else / inconclusive / passed (the bug slipped through);
then the totals, the false defects and misses with their messages (the first few), and the time taken.
Exits 0: it is a measurement, not a gate.

    python benchmarks/bench_worlds.py --apps 300 --seed 1
    python benchmarks/bench_worlds.py --apps 5                 # a quick look
    python benchmarks/bench_worlds.py --apps 60 --exports      # and every caught bug's exports on both twins
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from junit import verdicts  # noqa: E402
from worlds import World, generate, write  # noqa: E402  (tests/ is not a package on the path by default)

from pytest_fairy.report.store import item_folder_name  # noqa: E402

CLEAN_COLUMNS = ("passed", "inconclusive", "failed")
BUG_COLUMNS = ("caught@bug_at", "caught-elsewhere", "inconclusive", "passed")
EXAMPLES = 8  # false defects and misses listed with their messages
MESSAGE_LIMIT = 260
ACTION = re.compile(r"\w+ \[\d+\] (?P<label>.*?)(?: '.*')?$")


@dataclass(frozen=True)
class Item:
    """One spec item and its truth: `bug_kind` is empty on a clean twin."""

    world: int
    twin: str
    feature: str
    module: str
    bug_kind: str = ""
    bug_at: str = ""
    nodeid: str = ""  # the pytest item's id, which names its artifacts folder
    also_at: tuple[str, ...] = ()  # other elements whose action shows the same defect

    def at(self) -> tuple[str, ...]:
        """The labels of the elements the bug shows at, casefolded."""
        return tuple(label.casefold() for label in (self.bug_at, *self.also_at) if label)


@dataclass(frozen=True)
class Outcome:
    verdict: str
    message: str


def generate_all(first: int, count: int, into: Path) -> tuple[list[World], dict[tuple[str, str], Item]]:
    """The worlds written under `into`; JUnit key (classname, test name) -> the item's truth."""
    worlds, items = [], {}
    for seed in range(first, first + count):
        world = generate(seed)
        worlds.append(world)
        for name, spec in write(world, into).items():
            twin = world.twin(name)
            classname = str(spec.relative_to(into)).replace(os.sep, ".")
            for entry in twin.spec["features"]:
                feature = world.feature(entry["name"])
                bug = twin.bug
                items[(classname, feature.name)] = Item(
                    seed,
                    name,
                    feature.name,
                    feature.module,
                    bug.kind if bug else "",
                    bug.bug_at if bug else "",
                    f"{spec.relative_to(into).as_posix()}::{feature.name}",
                    bug.also_at if bug else (),
                )
    return worlds, items


def run_batch(
    specs: list[Path], into: Path, index: int, args: argparse.Namespace
) -> tuple[dict[tuple[str, str], Outcome], str]:
    junit = into / f"junit{index}.xml"
    command = [
        sys.executable,
        "-m",
        "pytest",
        *map(str, specs),
        "-p",
        "no:cacheprovider",
        "-q",
        f"--rootdir={into}",
        f"--junitxml={junit}",
        f"--fairy-artifacts={into / 'artifacts'}",
        "--fairy-artifacts-policy=off",
        f"--fairy-brain={args.brain}",
    ]
    if args.max_steps:
        command.append(f"--fairy-max-steps={args.max_steps}")
    if args.workers:
        command += ["-n", str(args.workers)]
    env = dict(os.environ)
    if args.brain == "offline":
        env = {k: v for k, v in env.items() if not k.startswith("ANTHROPIC_")}
    done = subprocess.run(command, cwd=into, env=env, capture_output=True, text=True, check=False)
    if not junit.exists():
        sys.exit(f"batch {index + 1} wrote no JUnit XML:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    outcomes = {key: Outcome(verdict, message) for key, (verdict, message) in verdicts(junit).items()}
    last = done.stdout.strip().splitlines()[-1].strip("= ") if done.stdout.strip() else "(no output)"
    return outcomes, last


def reached(items: dict[tuple[str, str], Item], worlds: list[World], artifacts: Path) -> set[tuple[str, str]]:
    """The bug items whose run acted on the bug's element: an action labelled as the bug's (`Item.at`)
    taken on the screen its twin changed (that screen's activity, and its title where the model gives it
    one). Where the defect shows away from that screen (a keep that keeps nothing, seen on the page of
    kept things), an action on the bug's element anywhere after one on the changed screen. A bug that
    needs a visit count or data the run did not set up counts as reached all the same."""
    by_seed = {w.seed: w for w in worlds}
    found = set()
    for key, item in items.items():
        if not item.bug_kind:
            continue
        world = by_seed[item.world]
        twin = world.twin(item.twin)
        dialogs = {d["id"] for d in twin.app["dialogs"]}
        screens = [(s, s["id"] in dialogs) for s in world.bug_screens(twin)]
        elsewhere = not any(label in item.at() for screen, _ in screens for label in _labels(screen))
        for steps in artifacts.glob(f"sessions/*/{item_folder_name(item.nodeid)}/steps.jsonl"):
            changed_before = False
            for line in steps.read_text("utf-8").splitlines():
                step = json.loads(line)
                on_changed = any(_on(step, screen, dialog) for screen, dialog in screens)
                if _label(step.get("action", "")) in item.at() and (
                    on_changed or (elsewhere and changed_before)
                ):
                    found.add(key)
                changed_before = changed_before or on_changed
    return found


def _labels(tree: object) -> set[str]:
    """Every text an app model's screen (or any part of it) shows, casefolded."""
    if isinstance(tree, dict):
        own = {tree["text"].casefold()} if isinstance(tree.get("text"), str) else set()
        return own.union(*(_labels(value) for value in tree.values()))
    if isinstance(tree, list):
        return set().union(*(_labels(value) for value in tree))
    return set()


def _on(step: dict[str, str], screen: dict[str, object], dialog: bool) -> bool:
    """Whether the step was taken on `screen` of the app model, as far as its record tells (a dialog's
    step is titled by the screen below it)."""
    first = step.get("screen_text", "").split("\n", 1)[0]
    activity = first.removeprefix("activity: ").rsplit("/", 1)[-1]
    if not activity.endswith(str(screen.get("activity", ""))):
        return False
    title = str(screen.get("title") or "")
    return dialog or not title or "{" in title or step.get("title") == title


def _label(action: str) -> str:
    """`tap [3] 确认提交` -> `确认提交`; `type [2] 姓名 'qa'` -> `姓名`."""
    match = ACTION.match(action)
    return match["label"].casefold() if match else ""


def column(item: Item, outcome: Outcome | None) -> str:
    if outcome is None:
        return "missing"
    if not item.bug_kind:
        return outcome.verdict
    if outcome.verdict == "failed":
        message = outcome.message.casefold()
        return "caught@bug_at" if any(label in message for label in item.at()) else "caught-elsewhere"
    return outcome.verdict


def table(title: str, rows: dict[str, Counter[str]], columns: tuple[str, ...]) -> None:
    extra = sorted({c for counts in rows.values() for c in counts} - set(columns))
    heads = [*columns, *extra]
    width = max([len(title), *map(len, rows)]) + 2
    print(f"\n{title:<{width}}" + "".join(f"{h:>18}" for h in heads) + f"{'total':>8}")
    totals: Counter[str] = Counter()
    for name in sorted(rows):
        counts = rows[name]
        totals.update(counts)
        print(
            f"{name:<{width}}"
            + "".join(f"{_cell(counts[h], counts.total()):>18}" for h in heads)
            + f"{counts.total():>8}"
        )
    print(
        f"{'all':<{width}}"
        + "".join(f"{_cell(totals[h], totals.total()):>18}" for h in heads)
        + f"{totals.total():>8}"
    )


def _cell(count: int, total: int) -> str:
    return f"{count} ({100 * count / total:.0f}%)" if total else "0"


def _reason(message: str) -> str:
    """The kind of an inconclusive message: its first clause, numbers and quoted words blanked."""
    head = message.removeprefix("inconclusive: ").split(";")[0].split(" (")[0]
    return re.sub(r"'[^']*'|\d+(\.\d+)?", "N", head)[:100]


def _shorten(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= MESSAGE_LIMIT else line[: MESSAGE_LIMIT - 3] + "..."


def report(
    items: dict[tuple[str, str], Item], outcomes: dict[tuple[str, str], Outcome], hit: set[tuple[str, str]]
) -> None:
    clean: dict[str, Counter[str]] = defaultdict(Counter)
    by_kind: dict[str, Counter[str]] = defaultdict(Counter)
    by_pattern: dict[str, Counter[str]] = defaultdict(Counter)
    false_defects, misses = [], []
    for key, item in items.items():
        outcome = outcomes.get(key)
        cell = column(item, outcome)
        if not item.bug_kind:
            clean[item.module][cell] += 1
            if cell == "failed":
                false_defects.append((key, outcome))
        else:
            by_kind[item.bug_kind][cell] += 1
            by_pattern[f"{item.module}/{item.bug_kind}"][cell] += 1
            if cell in ("passed", "caught-elsewhere"):
                misses.append((key, item, outcome))
    reasons: Counter[str] = Counter(
        _reason(outcomes[key].message)
        for key in items
        if key in outcomes and outcomes[key].verdict == "inconclusive"
    )
    table("clean features by block", clean, CLEAN_COLUMNS)
    table("bug features by bug kind", by_kind, BUG_COLUMNS)
    table("bug features by block/bug kind", by_pattern, BUG_COLUMNS)
    at_bug: dict[str, Counter[str]] = defaultdict(Counter)
    for key in hit:
        at_bug[items[key].bug_kind][column(items[key], outcomes.get(key))] += 1
    table("bugs whose element the run acted on (reached)", at_bug, BUG_COLUMNS)
    if reasons:
        print("\ninconclusive, by reason (clean and bug features):")
        for reason, count in reasons.most_common(EXAMPLES):
            print(f"  {count:>5}  {reason}")
    if false_defects:
        print(f"\nfalse defects (first {EXAMPLES} of {len(false_defects)}):")
        for (classname, name), outcome in false_defects[:EXAMPLES]:
            print(f"  {classname}::{name}: {_shorten(outcome.message if outcome else '')}")
    if misses:
        print(f"\nbugs passed or blamed elsewhere (first {EXAMPLES} of {len(misses)}):")
        for (classname, name), item, outcome in misses[:EXAMPLES]:
            verdict = outcome.verdict if outcome else "missing"
            print(
                f"  {classname}::{name} [{item.bug_kind} at {item.bug_at!r}] {verdict}: "
                f"{_shorten(outcome.message if outcome else '')}"
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--apps", type=int, default=300, help="how many generated apps (default 300)")
    parser.add_argument("--seed", type=int, default=1, help="the first app's seed (default 1)")
    parser.add_argument("--batch", type=int, default=50, help="apps per pytest run (default 50)")
    xdist = importlib.util.find_spec("xdist") is not None
    parser.add_argument("--workers", type=int, default=2 if xdist else 0, help="pytest-xdist workers (-n)")
    parser.add_argument("--brain", default="offline", help="--fairy-brain (default offline)")
    parser.add_argument(
        "--max-steps", type=int, default=0, help="--fairy-max-steps (default: the specs' own)"
    )
    parser.add_argument(
        "--exports",
        action="store_true",
        help="run every caught bug's exported pytest file and Maestro flow on its bug twin and clean twin",
    )
    parser.add_argument("--keep", action="store_true", help="keep the generated apps and artifacts")
    args = parser.parse_args()
    started = time.monotonic()
    tmp = tempfile.mkdtemp(prefix="bench_worlds_")
    into = Path(tmp)
    worlds, items = generate_all(args.seed, args.apps, into)
    twins = sum(len(w.twins) for w in worlds)
    print(
        f"{args.apps} apps (seeds {args.seed}..{args.seed + args.apps - 1}), {twins} twins, "
        f"{len(items)} items in {into}; brain {args.brain}, -n {args.workers}",
        flush=True,
    )
    outcomes: dict[tuple[str, str], Outcome] = {}
    for index, first in enumerate(range(0, len(worlds), args.batch)):
        batch = worlds[first : first + args.batch]
        specs = sorted(p for w in batch for p in (into / f"world{w.seed}").glob("*/test_*.yaml"))
        batch_started = time.monotonic()
        found, last = run_batch(specs, into, index, args)
        outcomes.update(found)
        print(
            f"batch {index + 1}: apps {batch[0].seed}..{batch[-1].seed}: {last} "
            f"[{time.monotonic() - batch_started:.0f}s]",
            flush=True,
        )
    report(items, outcomes, reached(items, worlds, into / "artifacts"))
    if args.exports:
        from world_exports import Caught, check_exports  # the adb stack and the Maestro subset: only here

        by_seed = {w.seed: w for w in worlds}
        caught = [
            Caught(by_seed[item.world], item.twin, item.feature, item.nodeid)
            for key, item in items.items()
            if column(item, outcomes.get(key)) == "caught@bug_at"
        ]
        exports_started = time.monotonic()
        check_exports(caught, into, max(1, args.workers))
        print(f"exports checked in {time.monotonic() - exports_started:.0f}s")
    unknown = set(outcomes) - set(items)
    if unknown:
        print(f"\n{len(unknown)} JUnit items not in the truth, e.g. {sorted(unknown)[0]}")
    print(f"\ntime: {time.monotonic() - started:.0f}s for {len(items)} items")
    if args.keep:
        print(f"kept: {into}")
    else:
        shutil.rmtree(into, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
