"""What a 60-step feature leaves on disk on a photo-like screen, and what the loop pays for its screenshots.

    .venv/bin/python benchmarks/bench_artifacts.py [--steps 60] [--runs 3]

The offline brain explores the food app on the in-process virtual device for `--steps` steps (the step
budget runs out: every step is taken). The device's screenshots are photo-like: each 1080x2400 frame is
the app's own rendering blended half and half with a noisy colour gradient (`bench_core.photo_like`, a
photo feed compresses like that, flat UI does not), the same picture under every screen, as a phone
showing one feed would. The session store and the Allure sink (a real allure-commons reporter and file
logger, as allure-pytest drives them) write into a temporary folder.

Side by side in one run:

- before: a lossless PNG encoded in the loop at every step, written by
  the store and copied again into the Allure results;
- after: WebP at a long edge of 1280 encoded on a background thread, written once and hard-linked into
  the Allure results.

Printed: artifact bytes on disk (every file of the item's store folder and of the Allure results, a hard
link counted once), step-screenshot bytes per step, and the loop's milliseconds per step spent on
screenshot handling (handing the picture over, or encoding it, plus the sinks' step calls that write it),
medians over `--runs` runs, and the target line: a 60-step feature's artifacts <= 3 MB.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from allure_commons import hookimpl, plugin_manager  # noqa: E402
from allure_commons.logger import AllureFileLogger  # noqa: E402
from allure_commons.model2 import Parameter, Status, TestResult, TestStepResult  # noqa: E402
from allure_commons.reporter import AllureReporter  # noqa: E402
from allure_commons.utils import now, uuid4  # noqa: E402
from bench_core import photo_like  # noqa: E402
from PIL import Image  # noqa: E402

from fairy_virtual import VirtualDevice  # noqa: E402
from pytest_fairy.brain.offline import OfflineBrain  # noqa: E402
from pytest_fairy.explore.explorer import Explorer  # noqa: E402
from pytest_fairy.explore.record import Exploration, StepRecord  # noqa: E402
from pytest_fairy.explore.screenshot import PNG, ScreenshotEncoder, StepScreenshot, png  # noqa: E402
from pytest_fairy.explore.target import Target  # noqa: E402
from pytest_fairy.report import screenshots  # noqa: E402
from pytest_fairy.report.allure import AllureSink  # noqa: E402
from pytest_fairy.report.store import ItemStore  # noqa: E402

FOOD = ROOT / "example_suites" / "food" / "app.yaml"
TARGET_BYTES = 3_000_000
PHOTO = photo_like()


class PhotoDevice(VirtualDevice):
    """The virtual device, its screenshots half photo: what a feed of pictures looks like to an encoder."""

    def screenshot(self) -> Image.Image:
        return Image.blend(super().screenshot().convert("RGB"), PHOTO, 0.5)


class InLoop(Executor):
    """Runs the encoding at once, in the caller: the loop waits for it, as it did before."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        future.set_result(fn(*args, **kwargs))
        return future


class Listener:
    """What allure-pytest's listener does for steps and attachments, without a pytest item around it."""

    def __init__(self) -> None:
        self.allure_logger = AllureReporter()

    @hookimpl
    def start_step(self, uuid: str, title: str, params: dict[str, str]) -> None:
        parameters = [Parameter(name=k, value=v) for k, v in params.items()]
        self.allure_logger.start_step(
            None, uuid, TestStepResult(name=title, start=now(), parameters=parameters)
        )

    @hookimpl
    def stop_step(self, uuid: str, exc_type: Any, exc_val: Any, exc_tb: Any) -> None:
        self.allure_logger.stop_step(uuid, stop=now(), status=Status.FAILED if exc_type else Status.PASSED)

    @hookimpl
    def attach_data(self, body: Any, name: str, attachment_type: Any, extension: str | None) -> None:
        self.allure_logger.attach_data(
            uuid4(), body, name=name, attachment_type=attachment_type, extension=extension
        )


class Timed:
    """A sink whose step() calls are timed: where the loop writes (or hands over) a step's screenshot."""

    def __init__(self, sink: Any, spent: list[float]) -> None:
        self.sink, self.spent = sink, spent

    def start(self, *args: Any) -> None:
        self.sink.start(*args)

    def step(self, record: StepRecord) -> None:
        started = time.perf_counter()
        self.sink.step(record)
        self.spent.append(time.perf_counter() - started)

    def finish(self, result: Exploration) -> None:
        self.sink.finish(result)


class TimedEncoder(ScreenshotEncoder):
    def __init__(self, spent: list[float], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.spent = spent

    def submit(self, image: Image.Image) -> StepScreenshot:
        started = time.perf_counter()
        shot = super().submit(image)
        self.spent.append(time.perf_counter() - started)
        return shot


@dataclass(frozen=True)
class Figures:
    steps: int
    artifact_bytes: int
    screenshot_bytes: int
    loop_ms_per_step: float
    seconds: float


@contextmanager
def allure_results(folder: Path) -> Any:
    listener, logger = Listener(), AllureFileLogger(str(folder))
    plugin_manager.register(listener)
    plugin_manager.register(logger)
    try:
        yield listener.allure_logger
    finally:
        plugin_manager.unregister(listener)
        plugin_manager.unregister(logger)


def run(mode: str, steps: int, folder: Path) -> Figures:
    store, results = folder / "store", folder / "allure-results"
    results.mkdir(parents=True)
    spent: list[float] = []
    if mode == "before":
        encoder = TimedEncoder(spent, encode=png, image_format=PNG, executor=InLoop())
        links = mock.patch.object(screenshots, "link", lambda source, path: False)  # it wrote two copies
    else:
        encoder = TimedEncoder(spent)
        links = mock.patch.object(screenshots, "link", screenshots.link)
    target = Target(
        app_name="麦当劳",
        package="com.mcdonalds.gma.cn",
        feature="everything",
        goal="每个页面",
        max_steps=steps,
    )
    with links, allure_results(results) as reporter:
        test = uuid4()
        reporter.schedule_test(test, TestResult(uuid=test, name=target.feature, start=now()))
        sinks = [Timed(AllureSink(results=results), spent), Timed(ItemStore(store), spent)]
        explorer = Explorer(
            PhotoDevice(FOOD, latency=False), OfflineBrain(), sinks=sinks, screenshots=encoder
        )
        started = time.perf_counter()
        result = explorer.explore(target)
        seconds = time.perf_counter() - started
        reporter.close_test(test)
    files = [p for p in folder.rglob("*") if p.is_file()]
    inodes = {(p.stat().st_dev, p.stat().st_ino): p for p in files}
    shots = [p for p in inodes.values() if p.suffix in (".png", ".webp") and _is_step_screenshot(p)]
    return Figures(
        steps=result.steps,
        artifact_bytes=sum(p.stat().st_size for p in inodes.values()),
        screenshot_bytes=sum(p.stat().st_size for p in shots),
        loop_ms_per_step=sum(spent) * 1000 / max(1, result.steps),
        seconds=seconds,
    )


def _is_step_screenshot(path: Path) -> bool:
    """A step's picture or the final screen's: the store's step-NNN and final files, the Allure images
    but the feature tree."""
    if path.parent.name == "store":
        return path.name.startswith(("step-", "final."))
    return path.suffix == ".webp" or (path.suffix == ".png" and path.stat().st_size > 1_000_000)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    figures: dict[str, list[Figures]] = {"before": [], "after": []}
    for _ in range(args.runs):
        for mode in figures:  # interleaved: the machine's load falls on both alike
            with tempfile.TemporaryDirectory() as folder:
                figures[mode].append(run(mode, args.steps, Path(folder)))

    def median(mode: str, pick: Callable[[Figures], float]) -> float:
        return statistics.median(pick(f) for f in figures[mode])

    print(
        f"a {args.steps}-step feature on a photo-like 1080x2400 screen (food app, offline brain), median of "
        f"{args.runs} runs"
    )
    print(f"{'':44} {'before':>14} {'after':>14}")
    print(f"{'':44} {'PNG in loop':>14} {'WebP, thread':>14}")
    rows: list[tuple[str, Callable[[Figures], float], str]] = [
        ("steps", lambda f: f.steps, "{:.0f}"),
        ("artifact bytes on disk (store + Allure), MB", lambda f: f.artifact_bytes / 1e6, "{:.2f}"),
        (
            "screenshot bytes per step (with the final), KB",
            lambda f: f.screenshot_bytes / 1e3 / max(1, f.steps),
            "{:.1f}",
        ),
        ("loop ms per step on screenshots", lambda f: f.loop_ms_per_step, "{:.2f}"),
        ("run seconds", lambda f: f.seconds, "{:.2f}"),
    ]
    for name, pick, fmt in rows:
        print(f"{name:44} {fmt.format(median('before', pick)):>14} {fmt.format(median('after', pick)):>14}")
    worst = max(f.artifact_bytes for f in figures["after"])
    met = "met" if worst <= TARGET_BYTES else "NOT met"
    print(
        f"target: a {args.steps}-step feature's artifacts <= {TARGET_BYTES / 1e6:.0f} MB: "
        f"{worst / 1e6:.2f} MB at most over the runs: {met}"
    )


if __name__ == "__main__":
    main()
