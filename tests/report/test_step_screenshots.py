"""Step screenshots: encoded off the loop, small, and with the Set-of-Mark still legible."""

from __future__ import annotations

import io
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops, ImageStat

from fairy_virtual import VirtualDevice
from pytest_fairy.brain.offline import OfflineBrain
from pytest_fairy.explore.decisions import Decision, StepContext
from pytest_fairy.explore.explorer import Explorer
from pytest_fairy.explore.screenshot import STEP_LONG_EDGE, ScreenshotEncoder, webp
from pytest_fairy.explore.target import Target
from pytest_fairy.perception.perceive import perceive
from pytest_fairy.perception.som import render_som
from pytest_fairy.report.store import ItemStore

FOOD = Path(__file__).resolve().parents[2] / "example_suites" / "food" / "app.yaml"
TARGET = Target(
    app_name="麦当劳",
    package="com.mcdonalds.gma.cn",
    feature="delivery time",
    goal="选择送达时间",
    max_steps=4,
)


def photo_like(size: tuple[int, int]) -> Image.Image:
    """Compresses like a photo feed, not like flat UI: noise over colour gradients (as bench_core's)."""
    noise = Image.effect_noise(size, 48).convert("RGB")
    ramp = Image.linear_gradient("L").resize(size)
    colour = Image.merge("RGB", (ramp, ramp.rotate(90).resize(size), ramp.transpose(Image.FLIP_TOP_BOTTOM)))
    return Image.blend(colour, noise, 0.35)


def test_the_marks_stay_legible_in_the_lossy_step_screenshot() -> None:
    """Against the same picture kept lossless at the same size: the pixels the marks drew (red boxes,
    badges, white digits) still stand out from the photo under them, and as much."""
    device = VirtualDevice(FOOD, latency=False)
    device.launch(TARGET.package, None)
    seen = perceive(device)
    frame = Image.blend(seen.screenshot.convert("RGB"), photo_like(seen.screenshot.size), 0.5)
    som = render_som(frame, seen.screen).full
    scale = STEP_LONG_EDGE / max(som.size)
    size = (round(som.width * scale), round(som.height * scale))
    plain, lossless = frame.resize(size, Image.Resampling.LANCZOS), som.resize(size, Image.Resampling.LANCZOS)
    lossy = Image.open(io.BytesIO(webp(som))).convert("RGB")
    assert lossy.size == size
    marks = ImageChops.difference(lossless, plain).convert("L").point(lambda v: 255 if v > 60 else 0)
    digits = lossless.convert("L").point(lambda v: 255 if v > 220 else 0)
    digits = ImageChops.multiply(digits, marks)  # white on a badge: the numbers

    def stand_out(picture: Image.Image, where: Image.Image) -> float:
        """How far the picture is from the unmarked photo where the marks are (mean grey levels)."""
        return float(ImageStat.Stat(ImageChops.difference(picture, plain).convert("L"), where).mean[0])

    def error(where: Image.Image) -> float:
        return float(ImageStat.Stat(ImageChops.difference(lossy, lossless).convert("L"), where).mean[0])

    assert ImageStat.Stat(digits).sum[0] / 255 > 100, "the frame has badges with digits to check"
    # Measured: WebP 75 keeps 84% / 74% of the marks' and digits' contrast, off by 20% / 26%; quality 0,
    # JPEG 5 or 20 at 4:2:0, or half the resolution are off by 32-87% (a mark's edge or number smeared).
    for where, name, off_by in ((marks, "boxes and badges", 0.27), (digits, "the badges' digits", 0.4)):
        signal = stand_out(lossless, where)
        assert signal > 50, f"{name}: the lossless marks stand out ({signal:.0f})"
        assert stand_out(lossy, where) >= 0.68 * signal, (
            f"{name}: {stand_out(lossy, where):.0f} vs {signal:.0f}"
        )
        assert error(where) <= off_by * signal, f"{name}: off by {error(where):.0f} of {signal:.0f}"


def test_a_step_screenshot_of_a_photo_like_screen_is_small() -> None:
    frame = photo_like((1080, 2400))
    assert len(webp(frame)) <= 150_000, "a screen that is all photo: 3.4 MB as PNG"


class GatedBrain:
    """The offline brain, telling when it has decided the second step."""

    def __init__(self, decided: threading.Event) -> None:
        self.inner = OfflineBrain()
        self.decided = decided

    def decide(self, ctx: StepContext) -> Decision:
        if ctx.step >= 2:
            self.decided.set()
        return self.inner.decide(ctx)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def test_the_next_step_is_decided_while_the_last_screenshot_is_still_encoding(tmp_path: Path) -> None:
    """The encoder of step 1's screenshot waits for step 2's decision: were the loop waiting for the
    encoder, that decision would never come (the encoder gives up after a while and says so)."""
    decided, order = threading.Event(), []

    def slow(image: Image.Image) -> bytes:
        if not order:
            order.append("encoded after the next decision" if decided.wait(10) else "the loop waited for me")
        return webp(image)

    store = ItemStore(tmp_path / "item")
    with ThreadPoolExecutor(1) as pool:
        explorer = Explorer(
            VirtualDevice(FOOD, latency=False),
            GatedBrain(decided),  # type: ignore[arg-type]
            sinks=[store],
            screenshots=ScreenshotEncoder(slow, executor=pool),
        )
        result = explorer.explore(TARGET)
    assert order == ["encoded after the next decision"]
    # finish() waited for every screenshot still being encoded and written.
    shots = sorted(p.name for p in (tmp_path / "item").glob("step-*.webp"))
    assert shots == [f"step-{n:03d}.webp" for n in range(1, result.steps + 1)] and result.steps >= 2


def test_the_loop_waits_for_the_encoder_once_max_pending_frames_wait() -> None:
    """A device faster than the encoder must not pile up frames: with 2 waiting, a third submit blocks
    until the encoder takes one."""
    gate = threading.Event()

    def held(image: Image.Image) -> bytes:
        gate.wait(10)
        return b"encoded"

    frame = Image.new("RGB", (8, 8))
    with ThreadPoolExecutor(1) as pool:
        encoder = ScreenshotEncoder(held, executor=pool, max_pending=2)
        first, second = encoder.submit(frame), encoder.submit(frame)
        third: list[object] = []
        submitter = threading.Thread(target=lambda: third.append(encoder.submit(frame)))
        submitter.start()
        submitter.join(0.3)
        blocked = submitter.is_alive()
        gate.set()
        submitter.join(10)
    assert blocked, "a third frame was taken while two were waiting"
    assert [first.data(), second.data()] == [b"encoded", b"encoded"] and len(third) == 1
