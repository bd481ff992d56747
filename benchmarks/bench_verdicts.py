"""Verdict stability on the untuned apps: the same verdict for every item, run after run, in any order.

Runs every spec of tests/untuned (`pytest tests/untuned/*/test_*.yaml`; `--suite unseen`: tests/unseen,
the apps written from the docs alone; `--suite held-out`: benchmarks/explorer_apps, apps and specs written
from the docs alone, kept out of every rule's design; `--suite twins`: benchmarks/verdict_apps, clean and
bug twins written the same way; `--suite blind`: benchmarks/blind_apps, a second such set with defects of
kinds no other corpus has, half of it held out) in a subprocess `--runs` times:
in file order, in reversed item order, in seeded shuffled item orders (a tiny plugin passed with `-p`
reorders the collected items) and under `-n 2` (pytest-xdist). Each item's verdict is read from the
run's JUnit XML (`<failure>`: failed, `<error>`: inconclusive, `<skipped>`: skipped, else passed) and
checked against the summary line the terminal prints for it. Prints, per item, the verdict the suite's
expected.yaml asks for, the verdicts seen, the step counts seen and the agreement; then
the items that agreed every time and the items that matched the expected verdict every time. Exits 1
on any disagreement between runs or with expected.yaml (a script, not a test).

The work tree is shared: a file edited during the runs would change the code between runs (or between
two xdist workers of one run). `--commit REV` runs every run on a snapshot of that commit instead
(`git archive`, put first on PYTHONPATH), so all runs see the same code.

    python benchmarks/bench_verdicts.py [--runs 10] [--commit HEAD]
                                        [--suite untuned|unseen|held-out|twins|blind]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import yaml
from junit import verdicts

ROOT = Path(__file__).resolve().parents[1]
SUITES = {
    "untuned": Path("tests/untuned"),
    "unseen": Path("tests/unseen"),
    "held-out": Path("benchmarks/explorer_apps"),
    "twins": Path("benchmarks/verdict_apps"),
    "blind": Path("benchmarks/blind_apps"),
}
# What some specs of a suite need in the environment: tests/unseen's drive_login signs in with these.
SUITE_ENV = {"unseen": {"UNSEEN_DRIVE_USER": "zhang.wei", "UNSEEN_DRIVE_PASSWORD": "Dr1ve-2024"}}
ORDER_PLUGIN = "fairy_bench_order"
ORDER_ENV = "FAIRY_BENCH_ORDER"
# Loaded with -p in every run; it reorders only when told to by the environment.
ORDER_PLUGIN_SOURCE = f'''"""Reorders the collected items as {ORDER_ENV} says: reversed or shuffle:<seed>."""

import os
import random


def pytest_collection_modifyitems(session, config, items):
    order = os.environ.get("{ORDER_ENV}", "")
    if order == "reversed":
        items.reverse()
    elif order.startswith("shuffle:"):
        random.Random(int(order.split(":", 1)[1])).shuffle(items)
'''
# `path::feature: passed: 8 steps, ...` in the terminal's fairy exploration summary.
SUMMARY_LINE = re.compile(
    r"^(?P<item>\S+\.yaml::.+?): (?P<verdict>passed|failed|inconclusive): (?P<steps>\d+) steps"
)


@dataclass(frozen=True)
class Order:
    """How one run orders its items: `order` for the reordering plugin, `workers` for -n."""

    order: str = ""
    workers: int = 0

    def __str__(self) -> str:
        words = self.order or "file order"
        return f"{words}, -n {self.workers}" if self.workers else words


@dataclass(frozen=True)
class Outcome:
    verdict: str
    steps: int | None
    # The JUnit failure / error message, for a verdict other than passed.
    reason: str = ""


def schedule(runs: int) -> list[Order]:
    """File order, reversed, -n 2, then seeded shuffles, every third run of them under -n 2."""
    orders = []
    for i in range(runs):
        order = "" if i == 0 else "reversed" if i == 1 else "" if i == 2 else f"shuffle:{i}"
        orders.append(Order(order, 2 if i % 3 == 2 else 0))
    return orders


def expected_verdicts(suite: str) -> dict[str, str]:
    """`long_list/test_long_list.yaml::reach the last row` -> the verdict expected.yaml gives."""
    data = yaml.safe_load((ROOT / SUITES[suite] / "expected.yaml").read_text(encoding="utf-8"))
    return {
        f"{spec}::{feature}": entry["verdict"]
        for spec, features in data.items()
        for feature, entry in features.items()
    }


def run_once(
    order: Order, specs: list[str], work: Path, index: int, source: Path, suite: str
) -> tuple[dict[str, Outcome], float, str]:
    """One pytest run in `source` (the repository or a snapshot of it); each item's outcome keyed like
    expected.yaml, the wall time, the summary line."""
    junit = work / f"run{index}.xml"
    command = [
        sys.executable,
        "-m",
        "pytest",
        *specs,
        "-p",
        "no:cacheprovider",
        "-p",
        ORDER_PLUGIN,
        "--fairy-artifacts",
        str(work / f"artifacts{index}"),
        "-q",
        f"--junitxml={junit}",
    ]
    if order.workers:
        command += ["-n", str(order.workers)]
    env = {**os.environ, **SUITE_ENV.get(suite, {}), ORDER_ENV: order.order}
    paths = (str(work), str(source) if source != ROOT else "", env.get("PYTHONPATH", ""))
    env["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
    start = time.monotonic()
    done = subprocess.run(command, cwd=source, env=env, capture_output=True, text=True, check=False)
    seconds = time.monotonic() - start
    if not junit.exists():
        sys.exit(
            f"run {index + 1} ({order}) wrote no JUnit XML:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        )
    outcomes = _from_junit(junit, suite)
    _check_summary(outcomes, done.stdout, index, suite)
    last = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else "(no output)"
    return outcomes, seconds, last.strip("= ")


def _key(classname: str, name: str, suite: str) -> str:
    """The expected.yaml key of a JUnit testcase (classname `tests.untuned.x.test_x.yaml`, name `f`):
    `x/test_x.yaml::f`."""
    prefix = ".".join(SUITES[suite].parts) + "."
    folder, spec = classname.removeprefix(prefix).removesuffix(".yaml").rsplit(".", 1)
    return f"{folder.replace('.', '/')}/{spec}.yaml::{name}"


def _from_junit(junit: Path, suite: str) -> dict[str, Outcome]:
    return {
        _key(classname, name, suite): Outcome(verdict, None, message)
        for (classname, name), (verdict, message) in verdicts(junit).items()
    }


def _check_summary(outcomes: dict[str, Outcome], stdout: str, index: int, suite: str) -> None:
    """Add the step counts from the terminal summary, and say where it disagrees with the JUnit XML."""
    for line in stdout.splitlines():
        match = SUMMARY_LINE.match(line.strip())
        if not match:
            continue
        key = match["item"].removeprefix(f"{SUITES[suite].as_posix()}/")
        junit = outcomes.get(key)
        if junit is None:
            print(f"  run {index + 1}: {key} in the summary, not in the JUnit XML")
            continue
        if junit.verdict != match["verdict"]:
            print(f"  run {index + 1}: {key}: summary says {match['verdict']}, JUnit {junit.verdict}")
        outcomes[key] = Outcome(junit.verdict, int(match["steps"]), junit.reason)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="how many runs (default 10)")
    parser.add_argument("--commit", help="run on a snapshot of this commit (e.g. HEAD), not the work tree")
    parser.add_argument("--suite", choices=SUITES, default="untuned", help="which apps (default untuned)")
    args = parser.parse_args()
    specs = sorted(str(p.relative_to(ROOT)) for p in (ROOT / SUITES[args.suite]).glob("*/test_*.yaml"))
    expected = expected_verdicts(args.suite)
    seen: dict[str, list[Outcome]] = {key: [] for key in expected}
    orders = schedule(args.runs)
    with tempfile.TemporaryDirectory(prefix="bench_verdicts_") as tmp:
        work = Path(tmp)
        (work / f"{ORDER_PLUGIN}.py").write_text(ORDER_PLUGIN_SOURCE, encoding="utf-8")
        source = snapshot(args.commit, work / "source") if args.commit else ROOT
        print(f"code: {args.commit + ' (a snapshot)' if args.commit else 'the work tree'}", flush=True)
        for index, order in enumerate(orders):
            outcomes, seconds, last = run_once(order, specs, work, index, source, args.suite)
            print(f"run {index + 1}/{args.runs} ({order}): {last} [{seconds:.1f}s]", flush=True)
            for key, outcome in outcomes.items():
                seen.setdefault(key, []).append(outcome)
    return report(seen, expected, args.runs)


def snapshot(commit: str, into: Path) -> Path:
    """The files of `commit` extracted into `into`, without touching the work tree or the index."""
    into.mkdir()
    archive = subprocess.run(["git", "archive", commit], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def report(seen: dict[str, list[Outcome]], expected: dict[str, str], runs: int) -> int:
    print()
    width = max(len(key) for key in seen) + 1
    print(f"{'item':<{width}}{'expected':<10}{'verdicts seen':<28}{'steps seen':<22}agreement")
    agreeing = matching = 0
    for key, outcomes in seen.items():
        verdicts = Counter(o.verdict for o in outcomes)
        missing = runs - len(outcomes)
        if missing:
            verdicts["missing"] += missing
        top = verdicts.most_common(1)[0][1] if verdicts else 0
        agrees = len(verdicts) == 1 and not missing
        matches = agrees and set(verdicts) == {expected.get(key)}
        agreeing += agrees
        matching += matches
        steps = sorted({o.steps for o in outcomes if o.steps is not None})
        words = ", ".join(f"{v} x{n}" for v, n in verdicts.most_common())
        steps_words = (
            ",".join(map(str, steps)) if len(steps) <= 4 else f"{steps[0]}..{steps[-1]} ({len(steps)})"
        )
        flag = "" if matches else "  <- differs" if not agrees else "  <- not as expected"
        print(f"{key:<{width}}{expected.get(key, '?'):<10}{words:<28}{steps_words:<22}{top}/{runs}{flag}")
    total = len(seen)
    for key, outcomes in seen.items():
        if len({o.verdict for o in outcomes}) > 1:
            print(f"\n{key}:")
            for run, o in enumerate(outcomes, 1):
                print(f"  run {run}: {o.verdict}, {o.steps} steps: {_shorten(o.reason)}")
    varying = {key: outcomes for key, outcomes in seen.items() if len({o.steps for o in outcomes}) > 1}
    if varying:
        print("\nstep counts that differ between runs (run 1 .. run N):")
        for key, outcomes in varying.items():
            print(f"  {key}: {' '.join(str(o.steps) for o in outcomes)}")
    print()
    print(f"items agreeing every time: {agreeing}/{total}")
    print(f"items matching expected.yaml every time: {matching}/{total}")
    return 0 if agreeing == matching == total else 1


def _shorten(reason: str, limit: int = 300) -> str:
    line = " ".join(reason.split())
    return line if len(line) <= limit else line[: limit - 3] + "..."


if __name__ == "__main__":
    sys.exit(main())
