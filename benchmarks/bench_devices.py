"""Real-device path figures, on virtual devices served over adbd (no phone needed).

    /work/venv/bin/python benchmarks/bench_devices.py [--runs 20] [--items 8] [--skip-throughput]

1. Per-step device time: one step's device work (dump + screenshot + tap) through `U2Device` over the
   real adb server and uiautomator2, against `VirtualDevice` in-process; median ms and the ratio.
2. Throughput: a suite of `--items` quick food features on 4 latency-simulating virtual devices (the app
   model's phone-like delays), run by pytest at `-n 1` and at `-n 4` (pytest-xdist, one item per device at
   a time through the device locks); wall seconds, items per minute, and the speed-up (target >= 3x).

A private adb server on a free port (never 5037) and the wire servers are stopped at the end. Prints
figures only; never fails on speed. The machine's core count limits what -n 4 can gain. The suites run as on
a user's machine: bytecode cache on (warmed by a collect-only run first), no test-only pytest plugins.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import yaml

from pytest_fairy.devices.driver import AdbServerAddress, U2Device
from pytest_fairy.virtual import VirtualDevice
from pytest_fairy.virtual.wire import WireServer

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
from timing import median_ms  # noqa: E402
from wire.wire_helpers import FOOD_APP, AdbServer, adb_binary, free_port  # noqa: E402

PACKAGE = "com.mcdonalds.gma.cn"
QUICK_FEATURES = ("delivery time", "coupon reminders", "store pickup")
# A point on the food home screen that no element answers: the tap costs a round trip, changes nothing.
NEUTRAL_POINT = (540, 2300)
DEVICES = 4


@contextmanager
def private_adb() -> Iterator[AdbServer]:
    server = AdbServer(adb_binary(), free_port())
    server.run("start-server")
    try:
        yield server
    finally:
        server.run("kill-server")


@contextmanager
def served(adb: AdbServer, device: VirtualDevice) -> Iterator[str]:
    server = WireServer(device)
    server.start()
    try:
        adb.run("connect", server.address)
        adb.client.wait_for(server.address, state="device", timeout=30)
        yield server.address
    finally:
        adb.run("disconnect", server.address)
        server.stop()


def step(device: VirtualDevice | U2Device) -> None:
    device.dump_hierarchy()
    device.screenshot()
    device.tap(*NEUTRAL_POINT)


def per_step(adb: AdbServer, runs: int) -> None:
    local = VirtualDevice(FOOD_APP, latency=False)
    local.launch(PACKAGE)
    wired_device = VirtualDevice(FOOD_APP, latency=False)
    with served(adb, wired_device) as serial:
        wired = U2Device.connect(serial, AdbServerAddress("127.0.0.1", adb.port))
        wired.launch(PACKAGE)
        rows = [
            ("dump_hierarchy", local.dump_hierarchy, wired.dump_hierarchy),
            ("screenshot", local.screenshot, wired.screenshot),
            ("tap", lambda: local.tap(*NEUTRAL_POINT), lambda: wired.tap(*NEUTRAL_POINT)),
            ("step (dump + screenshot + tap)", lambda: step(local), lambda: step(wired)),
        ]
        print(f"per-step device time, median of {runs} (model latency off: the stack's own cost)")
        print(f"  {'call':<32}{'in-process ms':>15}{'over adbd ms':>15}{'ratio':>9}")
        for name, here, there in rows:
            a, b = median_ms(here, runs), median_ms(there, runs)
            print(f"  {name:<32}{a:>15.1f}{b:>15.1f}{b / a:>8.1f}x")


def write_suite(folder: Path, items: int) -> Path:
    spec = yaml.safe_load((FOOD_APP / "test_food.yaml").read_text(encoding="utf-8"))
    quick = [f for f in spec["features"] if f["name"] in QUICK_FEATURES]
    spec["features"] = [
        {**quick[i % len(quick)], "name": f"{quick[i % len(quick)]['name']} {i}"} for i in range(items)
    ]
    spec["app"]["virtual"] = str(FOOD_APP / "app.yaml")
    path = folder / "test_bench.yaml"
    path.write_text(yaml.safe_dump(spec, allow_unicode=True, sort_keys=False), encoding="utf-8")
    (folder / "pytest.ini").write_text(
        f"[pytest]\nfairy_artifacts = .fairy\nfairy_lock_dir = {folder / 'locks'}\n"
    )
    return path


def user_environment() -> dict[str, str]:
    """The environment a user's run has: Python's bytecode cache on (this sandbox sets
    PYTHONDONTWRITEBYTECODE, which makes every worker compile every module anew at start-up)."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run_suite(
    folder: Path, serials: list[str], adb: AdbServer, workers: int, *extra: str
) -> tuple[float, str]:
    command = [sys.executable, "-m", "pytest", "-q", "-p", "xdist", "-n", str(workers)]
    # The test extra's hypothesis plugin imports hypothesis at every session end: not the product's cost.
    command += ["-p", "no:hypothesispytest", f"--fairy-adb=127.0.0.1:{adb.port}"]
    command += [f"--fairy-device={s}" for s in serials] + ["test_bench.yaml", *extra]
    started = time.perf_counter()
    done = subprocess.run(
        command, cwd=folder, capture_output=True, text=True, timeout=900, env=user_environment()
    )
    seconds = time.perf_counter() - started
    tail = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr.strip()[-300:]
    return seconds, tail


def throughput(adb: AdbServer, items: int) -> None:
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        folder = Path(tmp)
        write_suite(folder, items)
        phones = [VirtualDevice(FOOD_APP, latency=True, seed=i) for i in range(DEVICES)]
        serials = [stack.enter_context(served(adb, phone)) for phone in phones]
        print(
            f"\nthroughput: {items} items on {DEVICES} latency-simulating virtual devices over adbd "
            f"({os.cpu_count()} cores)"
        )
        run_suite(folder, serials, adb, 1, "--collect-only")  # warm the bytecode cache for both runs
        results = {}
        for workers in (1, DEVICES):
            seconds, tail = run_suite(folder, serials, adb, workers)
            results[workers] = seconds
            print(f"  -n {workers}: {seconds:6.1f} s wall, {items * 60 / seconds:5.1f} items/min   ({tail})")
        print(f"  speed-up -n {DEVICES} / -n 1: {results[1] / results[DEVICES]:.2f}x (target >= 3x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--items", type=int, default=8)
    parser.add_argument("--skip-throughput", action="store_true")
    args = parser.parse_args()
    with private_adb() as adb:
        per_step(adb, args.runs)
        if not args.skip_throughput:
            throughput(adb, args.items)


if __name__ == "__main__":
    main()
