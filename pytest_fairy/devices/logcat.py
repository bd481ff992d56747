"""The device log since the item began, read incrementally by position: each read asks for the newest
lines only, instead of the whole `logcat -d` buffer every step, and finds where the last read ended in
them.

Not by time: `logcat -T <stamp>` prints the lines stamped at that time or later, and a device clock set
back (by hand, by the network, across New Year in `MM-DD` stamps) stamps new lines earlier than the last
one seen, so a crash logged after that would never be read. `logcat -d -t N` prints the newest N lines
whatever their stamps. Fewer than N printed are the whole log since the clear: the lines past as many as
were kept are new (an app's repeated line too), when the last ones kept are where they should be. Else
the last lines kept (`ANCHOR_LINES` of them) are looked for, and what follows them is new; when they are
not there (more than `TAIL_LINES` lines were logged since), every line read is kept: the newest lines are
what a crash leaves. The first read after a clear asks for everything.

    reader = LogcatReader()
    text = reader.take(shell(reader.command()))   # every line since reader.clear(), in order
"""

from __future__ import annotations

from collections import deque

# A device's ring buffer holds a few thousand lines; an item's log is kept to as many.
MAX_KEPT_LINES = 20_000
# The newest lines each read asks for: more than a step logs, a crash's stack trace included.
TAIL_LINES = 500
# The last lines kept that a read looks for, to find where the previous read ended.
ANCHOR_LINES = 8
_BUFFER_HEADER = "--------- beginning of "


class LogcatReader:
    """The lines read since :meth:`clear`, and where the next read starts."""

    def __init__(self, max_lines: int = MAX_KEPT_LINES, tail: int = TAIL_LINES) -> None:
        self._lines: deque[str] = deque(maxlen=max_lines)
        self._tail = tail
        self._read = False  # a read since the last clear: later ones ask for the newest lines only
        self._kept = 0  # log lines kept since the last clear (not the buffers' headers)

    def command(self) -> list[str]:
        """The shell command of the next read: everything after a clear, else the newest lines."""
        newest = ["-t", str(self._tail)] if self._read else []
        return ["logcat", "-d", "-v", "threadtime", *newest]

    def take(self, output: str) -> str:
        """Keep what a read of :meth:`command` printed that was not read before; every line kept."""
        lines = output.splitlines()
        if self._read:
            lines = [line for line in lines if not line.startswith(_BUFFER_HEADER)]  # printed every read
            lines = lines[self._new_from(lines) :]
        self._read = True
        self._lines.extend(lines)
        self._kept += sum(not line.startswith(_BUFFER_HEADER) for line in lines)
        return self.text()

    def _new_from(self, lines: list[str]) -> int:
        """Where the lines of a read of the newest lines that were not read before begin."""
        anchor: list[str] = []
        for line in reversed(self._lines):
            if len(anchor) == ANCHOR_LINES:
                break
            if not line.startswith(_BUFFER_HEADER):
                anchor.insert(0, line)
        if len(lines) < self._tail and lines[self._kept - len(anchor) : self._kept] == anchor:
            return self._kept  # the whole log since the clear, and the lines kept where they were
        return _after_anchor(lines, anchor)

    def text(self) -> str:
        return "".join(line + "\n" for line in self._lines)

    def clear(self) -> None:
        """Forget what was read (the device's log was cleared): the next read asks for everything."""
        self._lines.clear()
        self._read, self._kept = False, 0


def _after_anchor(lines: list[str], anchor: list[str]) -> int:
    """Where the lines after the last occurrence of `anchor` in `lines` begin; 0 when it is not there."""
    if not anchor:
        return 0
    width = len(anchor)
    for start in range(len(lines) - width, -1, -1):
        if lines[start : start + width] == anchor:
            return start + width
    return 0
