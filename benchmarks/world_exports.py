"""The exported reproductions of the bugs bench_worlds caught, each run on its bug twin and on its clean twin.

A reproduction is worth committing when it fails while the bug is there and passes once it is fixed, so
every caught bug's exports are run on both twins:
- the pytest file (uiautomator2), in a new Python without pytest_fairy's plugin, against the twin served
  over adbd through a private adb server (the real adb stack, as the test suite's device tests do);
- the Maestro flow, by tests/maestro_flows.py (the commands the exports write, as Maestro's docs define
  them) on the twin in process.
Prints, per kind of export, how many were written, red on the bug twin, green on the clean twin, and the
first few that were not, with why.
"""

from __future__ import annotations

import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "devices"))

from device_helpers import Farm, run_exported  # noqa: E402
from maestro_flows import FlowFailed, NotSupported, run_flow  # noqa: E402
from wire.wire_helpers import AdbServer, adb_binary, free_port  # noqa: E402
from worlds import World  # noqa: E402

from fairy_virtual import VirtualDevice  # noqa: E402
from pytest_fairy.report.export_maestro import flow_file_name  # noqa: E402
from pytest_fairy.report.export_pytest import identifier, reproduction_file_name  # noqa: E402
from pytest_fairy.report.store import item_folder_name  # noqa: E402

SHOWN = 6  # exports that did not tell the twins apart, listed with why
OUTPUT_LIMIT = 300


@dataclass(frozen=True)
class Caught:
    """A bug twin's failed item: where its world was written, its feature, its artifacts folder's name."""

    world: World
    twin: str
    feature: str
    nodeid: str


@dataclass(frozen=True)
class Run:
    kind: str  # "pytest" or "maestro"
    caught: Caught
    written: bool
    on_bug: str = ""  # "red", "green" or why it did not run
    on_clean: str = ""
    why: str = ""


def check_exports(caught: list[Caught], into: Path, workers: int) -> None:
    adb = AdbServer(adb_binary(), free_port())
    started = adb.run("start-server")
    if started.returncode != 0:
        print(f"\nexports not run: adb start-server failed: {started.stderr.strip()}")
        return
    farm = Farm(adb, [], [])
    try:
        with ThreadPoolExecutor(max(1, workers)) as pool:
            runs = [r for found in pool.map(lambda c: _runs(c, into, farm), caught) for r in found]
    finally:
        for item in farm.served:
            item.server.stop()
        adb.run("kill-server")
    _report(runs, len(caught))


def _runs(caught: Caught, into: Path, farm: Farm) -> list[Run]:
    folders = sorted(into.glob(f"artifacts/sessions/*/{item_folder_name(caught.nodeid)}"))
    if not folders:
        return [Run(kind, caught, written=False, why="no artifacts folder") for kind in ("pytest", "maestro")]
    folder = folders[-1]  # the latest session's
    apps = into / f"world{caught.world.seed}"
    bug, clean = apps / caught.twin / "app.yaml", apps / "clean" / "app.yaml"
    test_file = folder / reproduction_file_name(caught.feature)
    typed = caught.world.typed(caught.feature, _read(test_file))
    return [
        _pytest(test_file, caught, bug, clean, farm, typed),
        _maestro(folder / flow_file_name(identifier(caught.feature)), caught, bug, clean, typed),
    ]


def _pytest(file: Path, caught: Caught, bug: Path, clean: Path, farm: Farm, typed: dict[str, str]) -> Run:
    if not file.is_file():
        return Run("pytest", caught, written=False, why=_left_out(file))
    outcomes, why = [], ""
    for name, app in (("bug", bug), ("clean", clean)):
        served = farm.serve(app)
        serial = served.serial
        try:
            done = run_exported(file, served, farm, file.parent / f"run-{name}", typed)
        finally:
            farm.adb.run("disconnect", serial)
            served.server.stop()
        outcomes.append({0: "green", 1: "red"}.get(done.returncode, f"exit {done.returncode}"))
        if outcomes[-1] != ("red" if name == "bug" else "green"):
            why = why or _tail(done.stdout + done.stderr)
    return Run("pytest", caught, True, outcomes[0], outcomes[1], why)


def _maestro(file: Path, caught: Caught, bug: Path, clean: Path, typed: dict[str, str]) -> Run:
    if not file.is_file():
        return Run("maestro", caught, written=False, why=_left_out(file))
    text, outcomes, why = file.read_text("utf-8"), [], ""
    for name, app in (("bug", bug), ("clean", clean)):
        try:
            run_flow(text, VirtualDevice(app, latency=False), typed)
            outcomes.append("green")
        except FlowFailed as exc:
            outcomes.append("red")
            why = why or (str(exc) if name == "clean" else "")
        except NotSupported as exc:
            outcomes.append("not run")
            why = why or f"not run: {exc}"
    if outcomes[0] == "green" and not why:
        why = "passes on the bug twin"
    return Run("maestro", caught, True, outcomes[0], outcomes[1], why)


def _read(file: Path) -> str:
    return file.read_text("utf-8") if file.is_file() else ""


def _left_out(file: Path) -> str:
    """Why the export was not written, as reproduction.txt says."""
    text = _read(file.parent / "reproduction.txt")
    line = next((line.strip() for line in text.splitlines() if f"{file.name} is not written" in line), "")
    return line.removeprefix(f"{file.name} is not written: ") or "not written (reproduction.txt says nothing)"


def _tail(output: str) -> str:
    lines = [line for line in output.splitlines() if "Error" in line or line.startswith("E ")]
    return " ".join((lines or output.splitlines()[-2:])[-2:])[:OUTPUT_LIMIT]


def _report(runs: list[Run], caught: int) -> None:
    print(f"\nexports of the {caught} bugs caught at their element, run on both twins:")
    print(f"{'':<10}{'written':>10}{'red on bug':>14}{'green on clean':>16}{'both':>8}")
    for kind in ("pytest", "maestro"):
        mine = [r for r in runs if r.kind == kind]
        written = [r for r in mine if r.written]
        red = sum(r.on_bug == "red" for r in written)
        green = sum(r.on_clean == "green" for r in written)
        both = sum(r.on_bug == "red" and r.on_clean == "green" for r in written)
        print(f"{kind:<10}{len(written):>10}{red:>14}{green:>16}{both:>8}")
    wrong = [r for r in runs if r.written and not (r.on_bug == "red" and r.on_clean == "green")]
    if wrong:
        print(f"\nexports that do not tell the twins apart (first {SHOWN} of {len(wrong)}):")
        for r in wrong[:SHOWN]:
            print(f"  {r.kind} {r.caught.nodeid}: bug {r.on_bug}, clean {r.on_clean}: {r.why}")
    reasons = Counter(r.why.split(":")[0][:80] for r in runs if not r.written)
    if reasons:
        print("\nnot written, by reason:")
        for reason, count in reasons.most_common(SHOWN):
            print(f"  {count:>5}  {reason}")
