"""The device log since the item began, read incrementally: each read asks only for the lines since the
last one seen, instead of the whole `logcat -d` buffer every step.

`logcat -d -v threadtime -T 'MM-DD hh:mm:ss.mmm'` prints the lines of that time and later; the lines of
exactly the last time seen were already read, so as many of them as were seen are dropped again (lines of
one millisecond may arrive in two reads). The first read after a clear asks for everything.

    reader = LogcatReader()
    text = reader.take(shell(reader.command()))   # every line since reader.clear(), in order
"""

from __future__ import annotations

import re
from collections import Counter, deque

# A device's ring buffer holds a few thousand lines; an item's log is kept to as many.
MAX_KEPT_LINES = 20_000
# `MM-DD hh:mm:ss.mmm` at the start of a threadtime line.
_BUFFER_HEADER = "--------- beginning of "
_STAMP = re.compile(r"^(\d\d-\d\d \d\d:\d\d:\d\d\.\d{3})\s")


class LogcatReader:
    """The lines read since :meth:`clear`, and where the next read starts."""

    def __init__(self, max_lines: int = MAX_KEPT_LINES) -> None:
        self._lines: deque[str] = deque(maxlen=max_lines)
        self._last_stamp: str | None = None
        self._at_last: Counter[str] = Counter()  # the lines of the last stamp, already kept

    def command(self) -> list[str]:
        """The shell command of the next read: only the lines from the last time seen."""
        since = ["-T", self._last_stamp] if self._last_stamp else []
        return ["logcat", "-d", "-v", "threadtime", *since]

    def take(self, output: str) -> str:
        """Keep what a read of :meth:`command` printed that was not read before; every line kept."""
        before, repeated = self._last_stamp, Counter(self._at_last)
        for line in output.splitlines():
            if before is not None and line.startswith(_BUFFER_HEADER):
                continue  # every read prints them again
            found = _STAMP.match(line)
            stamp = found.group(1) if found else None
            if stamp is not None and stamp == before and repeated[line]:
                repeated[line] -= 1  # read last time already
                continue
            self._lines.append(line)
            if stamp is None:
                continue
            if self._last_stamp is None or stamp > self._last_stamp:
                self._last_stamp, self._at_last = stamp, Counter()
            if stamp == self._last_stamp:
                self._at_last[line] += 1
        return self.text()

    def text(self) -> str:
        return "".join(line + "\n" for line in self._lines)

    def clear(self) -> None:
        """Forget what was read (the device's log was cleared): the next read asks for everything."""
        self._lines.clear()
        self._last_stamp, self._at_last = None, Counter()
