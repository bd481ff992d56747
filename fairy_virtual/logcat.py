"""The device log, kept in `logcat -d -v threadtime` format."""

from __future__ import annotations

from collections import deque

from fairy_virtual.clock import Clock

MAX_LOG_LINES = 5000  # like the ring buffer of a real device: old lines fall off


class Logcat:
    def __init__(self, clock: Clock, max_lines: int = MAX_LOG_LINES) -> None:
        self._clock = clock
        self._lines: deque[str] = deque(maxlen=max_lines)

    def log(self, level: str, tag: str, message: str, pid: int, tid: int | None = None) -> None:
        """One entry; a multi-line message becomes one line per line, as Android prints them."""
        now = self._clock.now()
        stamp = f"{now:%m-%d %H:%M:%S}.{now.microsecond // 1000:03d}"
        for line in message.split("\n"):
            self._lines.append(f"{stamp} {pid:5d} {tid if tid is not None else pid:5d} {level} {tag}: {line}")

    def text(self) -> str:
        return "".join(line + "\n" for line in self._lines)

    def clear(self) -> None:
        self._lines.clear()
