"""A step's Set-of-Mark screenshot, encoded off the exploration loop.

Encoding a 1080x2400 frame costs tens of milliseconds (a lossless PNG of a photo-like screen: ~150 ms).
The loop hands the picture to a `ScreenshotEncoder` and goes on to its next step; the step's record carries
a `StepScreenshot`, whose bytes the sinks take when they are ready (the session store and Allure write them
from the encoder's thread, see `pytest_fairy.report.screenshots`).

Step screenshots (and the final screen) are WebP at a long edge of 1280 px, quality 60: a photo-like
1080x2400 screen is 25-45 KB (PNG: 4 MB; JPEG at that size and a quality that keeps the marks: 100 KB),
so a 60-step feature stays under 3 MB. The Set-of-Mark badges are sized to stay legible at the LLM's long
edge of 1024 (`perception.som`), so at 1280 they are; tests/report checks that the marks' boxes, badges
and digits survive the encoding (WebP's quality changes the photo, not the marks: 60 keeps them as 90
does). Browsers show WebP, as do Allure 2 (2.34+) and Allure 3 (3.x since 2026-09).
"""

from __future__ import annotations

import io
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

STEP_LONG_EDGE = 1280
STEP_QUALITY = 60
# Frames handed to the encoder and not yet encoded. Past this the loop waits for the encoder: a device
# faster than the encoder (the virtual one takes a step in tens of milliseconds) would otherwise pile up
# 10 MB frames without end.
MAX_PENDING_FRAMES = 4


def webp(image: Image.Image) -> bytes:
    """The step screenshot's encoding: downscaled to `STEP_LONG_EDGE`, lossy WebP. method=0 is the
    fastest (~10 ms a frame); slower methods save little on screenshots."""
    scale = STEP_LONG_EDGE / max(image.size)
    if scale < 1:
        size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
        image = image.resize(size, Image.Resampling.LANCZOS)
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, format="WEBP", quality=STEP_QUALITY, method=0)
    return buffer.getvalue()


def png(image: Image.Image) -> bytes:
    """Lossless, for the one picture per item that is evidence (the final screen); level 1: speed first."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


@dataclass(frozen=True)
class ImageFormat:
    mime: str
    extension: str


WEBP = ImageFormat("image/webp", "webp")
PNG = ImageFormat("image/png", "png")


class StepScreenshot:
    """The encoded screenshot of one step, perhaps still being encoded.

    `data()` waits for the bytes; `when_ready(fn)` calls `fn(self)` once they are there (at once if they
    are). `first_file` is where the first sink wrote it, so the next can hard-link that file instead of
    writing the same bytes again (`pytest_fairy.report.screenshots.place`)."""

    def __init__(self, future: Future[bytes], image_format: ImageFormat = WEBP) -> None:
        self._future = future
        self.format = image_format
        self.lock = threading.Lock()
        self.first_file: Path | None = None

    @classmethod
    def ready(cls, data: bytes, image_format: ImageFormat = WEBP) -> StepScreenshot:
        """Bytes encoded already (or none: `b""` is a step without a screenshot)."""
        future: Future[bytes] = Future()
        future.set_result(data)
        return cls(future, image_format)

    def data(self) -> bytes:
        return self._future.result()

    def done(self) -> bool:
        return self._future.done()

    def when_ready(self, then: Callable[[StepScreenshot], None]) -> None:
        self._future.add_done_callback(lambda _: then(self))

    def __deepcopy__(self, memo: dict[int, object]) -> StepScreenshot:
        return self  # one picture, shared: `dataclasses.asdict` of a record must not copy (or pickle) it

    def __repr__(self) -> str:  # records are printed in assertion messages: not the bytes
        return f"StepScreenshot({self.format.extension}, {'ready' if self.done() else 'encoding'})"


NO_SCREENSHOT = StepScreenshot.ready(b"")


class ScreenshotEncoder:
    """Encodes step screenshots on one background thread, in the order they come (a thread, not a process:
    PIL releases the GIL while it encodes, and a process would copy 10 MB of pixels per step). At most
    `max_pending` frames wait for it: `submit` blocks until there is room."""

    def __init__(
        self,
        encode: Callable[[Image.Image], bytes] = webp,
        *,
        image_format: ImageFormat = WEBP,
        executor: Executor | None = None,
        max_pending: int = MAX_PENDING_FRAMES,
    ) -> None:
        self.encode = encode
        self.format = image_format
        self._executor = executor
        self._room = threading.BoundedSemaphore(max_pending)

    def submit(self, image: Image.Image) -> StepScreenshot:
        # The image is the step's own (perception draws a new one each step): no copy is needed.
        self._room.acquire()
        try:
            future = self._pool().submit(self.encode, image)
        except BaseException:
            self._room.release()
            raise
        future.add_done_callback(lambda _: self._room.release())
        return StepScreenshot(future, self.format)

    def _pool(self) -> Executor:
        if self._executor is None:
            self._executor = _shared_pool()
        return self._executor


_POOL: ThreadPoolExecutor | None = None
_POOL_LOCK = threading.Lock()


def _shared_pool() -> ThreadPoolExecutor:
    """One encoding thread per process, made on first use (a process explores one item at a time)."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="fairy-screenshots")
        return _POOL
