"""Reads of a screen started side by side: a step asks for the app in front, the dump, the screenshot and
the log one after another, but a phone can serve them at once (uiautomator2's server answers each
request on its own thread), so the first of them starts the others.

A read taken is used once; anything that may change the screen (an action, a launch, a shell command)
drops what was read ahead, so a read ahead is never older than the last change. A read ahead that failed
is simply done again in the foreground, where errors are translated and the device reconnected.

    ahead = ReadAhead()
    ahead.start("screenshot", take_screenshot)       # in the background
    image = ahead.take("screenshot", 20.0) or take_screenshot()
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")
# The dump, the screenshot and the log side by side.
READ_AHEAD_THREADS = 3


class ReadAhead:
    def __init__(self) -> None:
        self._pool: ThreadPoolExecutor | None = None
        self._pending: dict[str, Future[Any]] = {}

    def start(self, kind: str, read: Callable[[], object]) -> None:
        """Start `read` in the background, in place of an earlier read of the same kind."""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(READ_AHEAD_THREADS, thread_name_prefix="fairy read-ahead")
        old = self._pending.pop(kind, None)
        if old is not None:
            old.cancel()
        self._pending[kind] = self._pool.submit(read)

    def pending(self, kind: str) -> bool:
        return kind in self._pending

    def take(self, kind: str, timeout: float) -> Any | None:
        """The result of the read of `kind` started earlier, once; None when there is none or it failed."""
        future = self._pending.pop(kind, None)
        if future is None:
            return None
        try:
            return future.result(timeout)
        except Exception:  # done again in the foreground, where its errors are translated
            return None

    def drop(self) -> None:
        """Forget every read ahead: the screen may have changed since they started."""
        for future in self._pending.values():
            future.cancel()
        self._pending.clear()

    def close(self) -> None:
        self.drop()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
