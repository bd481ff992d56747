"""Real-device path figures, on virtual devices served over adbd (no phone needed).

    .venv/bin/python benchmarks/bench_devices.py [--runs 20] [--steps 12] [--items 24] [--throughput-runs 3]
        [--skip-throughput]

1. Per-step device time: one step's device work (dump + screenshot + tap) through `U2Device` over the
   real adb server and uiautomator2, against `VirtualDevice` in-process; median ms and the ratio.
2. Calls per step: the offline explorer on the food app over adb; every device call the explorer makes,
   by kind, per step, and what reached the device (its action log: a read ahead, a wait for idle).
3. A phone-like device: the same exploration on a virtual device whose latencies imitate a mid-range
   phone (dump 0.6 s, screenshot 0.25 s, logcat 0.1 s, tap 0.1 s, UI settling 0.3 s); the median step
   time against the physical floor (the slower of dump and screenshot, plus the action and its
   settling). Target <= 1.15x.
4. Throughput: a suite of `--items` quick food features on 4 virtual devices with the phone-like
   latencies above, run by pytest at `-n 1` and at `-n 4 --dist worksteal` (pytest-xdist, one item per
   device at a time through the device locks), `--throughput-runs` times; wall seconds, items per
   minute, and the speed-up (target >= 3.5x in every run). 24 items by default: a suite of 8 spends a
   quarter of its -n 4 run starting the workers.

A private adb server on a free port (never 5037) and the wire servers are stopped at the end. Prints
figures only; never fails on speed. The machine's core count limits what -n 4 can gain. The suites run as on
a user's machine: bytecode cache on (warmed by a collect-only run first), no test-only pytest plugins.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import yaml

from fairy_virtual import VirtualDevice
from fairy_virtual.loader import load_app_model
from fairy_virtual.model import AppModel, Latency
from fairy_virtual.wire import WireServer
from pytest_fairy.brain.offline import OfflineBrain
from pytest_fairy.devices.driver import AdbServerAddress, U2Device
from pytest_fairy.explore.explorer import Explorer
from pytest_fairy.explore.target import Target

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
from timing import median_ms  # noqa: E402
from wire.wire_helpers import FOOD_APP, AdbServer, adb_binary, free_port  # noqa: E402

PACKAGE = "com.mcdonalds.gma.cn"
QUICK_FEATURES = ("delivery time", "coupon reminders", "store pickup")
# A point on the food home screen that no element answers: the tap costs a round trip, changes nothing.
NEUTRAL_POINT = (540, 2300)
DEVICES = 4
# A mid-range phone, as measured on one: seconds per dump, screenshot, logcat read, tap, UI settling.
PHONE = Latency(dump=0.6, screenshot=0.25, logcat=0.1, action=0.1, settle=0.3)
PHONE_FLOOR = max(PHONE.dump, PHONE.screenshot) + PHONE.action + PHONE.settle
FLOOR_TARGET = 1.15
# The explorer's calls on the device, as counted by `Counted`.
EXPLORER_CALLS = (
    "current_app",
    "dump_hierarchy",
    "screenshot",
    "toasts",
    "logcat",
    "clear_logcat",
    "tap",
    "long_tap",
    "swipe",
    "type_text",
    "press",
    "launch",
    "stop",
    "clear_app_data",
    "window_size",
    "shell",
    "settle",
)


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


class Counted:
    """A device whose every call the explorer makes is counted by kind (the driver's own calls are not)."""

    def __init__(self, device: U2Device) -> None:
        self._device = device
        self.calls: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._device, name)
        if name not in EXPLORER_CALLS:
            return found

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] += 1
            return found(*args, **kwargs)

        return counted


class StepClock:
    """A step sink that notes when each step's record arrived: one loop of the explorer apart."""

    def __init__(self) -> None:
        self.times: list[float] = []

    def start(self, target: object, plan: object) -> None:
        self.times.append(time.perf_counter())

    def step(self, record: object) -> None:
        self.times.append(time.perf_counter())

    def finish(self, result: object) -> None:
        pass

    def seconds(self) -> list[float]:
        """Each step's time; the first (launch and plan before it) left out."""
        return [b - a for a, b in zip(self.times[1:], self.times[2:], strict=False)]


def phone_model(latency: Latency) -> AppModel:
    model = load_app_model(FOOD_APP)
    return model.model_copy(update={"device": model.device.model_copy(update={"latency": latency})})


def explore_over_adb(
    adb: AdbServer, device: VirtualDevice, steps: int
) -> tuple[Counted, list[str], int, list[float]]:
    """The offline explorer for `steps` steps on `device` served over adb: the counted device, the device's
    action log since the first screen, the steps taken and each step's seconds."""
    with served(adb, device) as serial:
        counted = Counted(U2Device.connect(serial, AdbServerAddress("127.0.0.1", adb.port)))
        clock = StepClock()
        explorer = Explorer(counted, OfflineBrain(), sinks=[clock])  # type: ignore[arg-type]
        target = Target(
            app_name="food",
            package=PACKAGE,
            feature="everything",
            goal="explore every screen",
            max_steps=steps,
        )
        result = explorer.explore(target)
        return counted, [e.action for e in device.action_log], result.steps, clock.seconds()


def calls_per_step(adb: AdbServer, steps: int) -> None:
    counted, log, taken, _ = explore_over_adb(adb, VirtualDevice(FOOD_APP, latency=False), steps)
    device_calls = Counter(log)
    print(f"\ncalls per step: the offline explorer, {taken} steps on the food app over adb (launch included)")
    print(f"  {'explorer call':<18}{'per step':>10}     {'device call':<14}{'per step':>10}")
    mine = sorted(counted.calls.items(), key=lambda kv: -kv[1])
    theirs = sorted(device_calls.items(), key=lambda kv: -kv[1])
    for i in range(max(len(mine), len(theirs))):
        left = f"  {mine[i][0]:<18}{mine[i][1] / taken:>10.2f}" if i < len(mine) else " " * 30
        right = f"     {theirs[i][0]:<14}{theirs[i][1] / taken:>10.2f}" if i < len(theirs) else ""
        print(left + right)
    print(
        f"  all: {sum(counted.calls.values()) / taken:.1f} explorer calls, "
        f"{sum(device_calls.values()) / taken:.1f} device calls per step"
    )


def phone_like(adb: AdbServer, steps: int) -> None:
    device = VirtualDevice(phone_model(PHONE), latency=True)
    _, _, taken, seconds = explore_over_adb(adb, device, steps)
    step = statistics.median(seconds)
    print(
        f"\nphone-like device over adb (dump {PHONE.dump:g} s, screenshot {PHONE.screenshot:g} s, logcat "
        f"{PHONE.logcat:g} s, tap {PHONE.action:g} s, settling {PHONE.settle:g} s), {taken} steps"
    )
    print(
        f"  step median {step:.3f} s (min {min(seconds):.3f}, max {max(seconds):.3f}); physical floor "
        f"{PHONE_FLOOR:.3f} s; {step / PHONE_FLOOR:.2f}x (target <= {FLOOR_TARGET:g}x)"
    )


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
    # Work stealing, as docs/devices.md recommends for several devices: features take unequal times.
    command += ["--dist", "worksteal"] if workers > 1 else []
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


def throughput(adb: AdbServer, items: int, runs: int) -> None:
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        folder = Path(tmp)
        write_suite(folder, items)
        phones = [VirtualDevice(phone_model(PHONE), latency=True, seed=i) for i in range(DEVICES)]
        serials = [stack.enter_context(served(adb, phone)) for phone in phones]
        print(
            f"\nthroughput: {items} items on {DEVICES} phone-like virtual devices over adbd, {runs} runs "
            f"({os.cpu_count()} cores)"
        )
        run_suite(folder, serials, adb, 1, "--collect-only")  # warm the bytecode cache for both runs
        speedups = []
        for run in range(1, runs + 1):
            results = {}
            for workers in (1, DEVICES):
                seconds, tail = run_suite(folder, serials, adb, workers)
                results[workers] = seconds
                print(
                    f"  run {run} -n {workers}: {seconds:6.1f} s wall, {items * 60 / seconds:5.1f} items/min"
                    f"   ({tail})"
                )
            speedups.append(results[1] / results[DEVICES])
        listed = ", ".join(f"{x:.2f}x" for x in speedups)
        lowest = min(speedups)
        print(f"  speed-up -n {DEVICES} / -n 1: {listed}; lowest {lowest:.2f}x (target >= 3.5x every run)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--steps", type=int, default=12)
    parser.add_argument("--items", type=int, default=24)
    parser.add_argument("--throughput-runs", type=int, default=3)
    parser.add_argument("--skip-throughput", action="store_true")
    args = parser.parse_args()
    with private_adb() as adb:
        per_step(adb, args.runs)
        calls_per_step(adb, args.steps)
        phone_like(adb, args.steps)
        if not args.skip_throughput:
            throughput(adb, args.items, args.throughput_runs)


if __name__ == "__main__":
    main()
