"""Signs of life without -v: an item under way says how far it got, at most every `fairy_progress_seconds`.

A 60-step item with an LLM on a phone takes minutes, and pytest prints nothing between its file name and
the item's letter: a CI system takes that for a hang. So, after a step, once the interval has passed
since the item began or last said so, one line: the feature, the step of its budget, the states found,
the loops escaped, tokens and cost so far, and the screen it is on. A step that takes longer (an LLM
call, a slow phone) is not silent either: a heartbeat thread says the same line with how long the step
under way has taken, at the same interval (at least every `HEARTBEAT_SECONDS`). On a terminal the line
is rewritten in place; elsewhere (CI logs) each is a line of its own. -v prints every step instead
(`TerminalSink`), -q nothing. An xdist worker, with no terminal of its own, says its lines on the
controller's stderr, each naming the worker (`[gw1] delivery time: step 12/30, ...`), with -v too.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from pytest_fairy.explore.decisions import Plan
from pytest_fairy.explore.record import Exploration, StepRecord
from pytest_fairy.explore.target import Target

# The heartbeat's interval when progress is said after every step (`fairy_progress_seconds = 0`).
HEARTBEAT_SECONDS = 1.0


class ProgressSink:
    def __init__(
        self,
        config: pytest.Config,
        every: float,
        clock: Callable[[], float] = time.monotonic,
        *,
        lines: Callable[[str], None] | None = None,
    ) -> None:
        # `lines`: where an xdist worker says its lines (no terminal of its own); else pytest's terminal.
        self.lines = lines
        self.reporter = config.pluginmanager.get_plugin("terminalreporter")
        self.capture = config.pluginmanager.get_plugin("capturemanager")
        self.every = every
        self.clock = clock
        self._said_at = 0.0
        self._step_began = 0.0
        self._shown = False
        self._target: Target | None = None
        self._states: set[str] = set()
        self._escapes = 0
        self._last: StepRecord | None = None
        # The loop's thread and the heartbeat's say lines one at a time.
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._heartbeat: threading.Thread | None = None

    @property
    def tty(self) -> bool:
        return bool(self.lines is None and self.reporter is not None and self.reporter.isatty)

    def start(self, target: Target, plan: Plan) -> None:
        self._target, self._said_at = target, self.clock()
        self._step_began = self._said_at
        self._stop.clear()
        self._heartbeat = threading.Thread(target=self._beat, name="fairy-progress", daemon=True)
        self._heartbeat.start()

    def step(self, record: StepRecord) -> None:
        with self._lock:
            if record.reached:
                self._states.add(record.reached)
            self._escapes += record.escape
            self._last = record
            now = self._step_began = self.clock()
            if now - self._said_at >= self.every:
                self._said_at = now
                self._say(self.status(record))

    def finish(self, result: Exploration) -> None:
        self.close()
        if self._shown and self.tty:
            self._write(lambda reporter: reporter.write_line(""))  # the item's letter on a line of its own

    def close(self) -> None:
        """Stop the heartbeat: when the exploration finishes, and at the item's teardown whatever happened
        (an exploration that raised never finishes)."""
        self._stop.set()
        if self._heartbeat is not None:
            self._heartbeat.join()
            self._heartbeat = None

    def _beat(self) -> None:
        """While a step takes longer than the interval, say where the item is and how long the step under
        way has taken."""
        interval = max(self.every, HEARTBEAT_SECONDS)
        while not self._stop.wait(min(interval, HEARTBEAT_SECONDS)):
            with self._lock:
                now = self.clock()
                if self._stop.is_set() or now - self._said_at < interval:
                    continue
                self._said_at = now
                under_way = self._last.step + 1 if self._last is not None else 1
                waited = f"step {under_way} under way for {now - self._step_began:.0f}s"
                said = self.status(self._last) if self._last is not None else f"  {self._feature()}: starting"
                self._say(f"{said} ({waited})")

    def _feature(self) -> str:
        return self._target.feature if self._target else "?"

    def status(self, record: StepRecord) -> str:
        target = self._target
        feature, budget = (target.feature, target.max_steps) if target else ("?", "?")
        line = f"  {feature}: step {record.step}/{budget}, {len(self._states)} states"
        line += f", {self._escapes} loops escaped"
        if record.usage.calls:
            line += f", {record.usage.total_tokens} tokens, ${record.usage.cost_usd:.4f}"
        where = record.reached_title or record.reached
        return line + (f" - on {where}" if where else "")

    def _say(self, line: str) -> None:
        if self.lines is not None:
            self.lines(line)
        elif self.tty and self._shown:
            self._write(lambda reporter: reporter.rewrite(line, erase=True))
        elif self.tty:
            self._write(lambda reporter: (reporter.ensure_newline(), reporter.write(line, flush=True)))
        else:
            self._write(lambda reporter: reporter.write_line(line))
        self._shown = True

    def _write(self, write: Callable[[Any], object]) -> None:
        if self.reporter is None:
            return
        # Live, as the steps happen: pytest's output capture would hold it until the item ends.
        if self.capture is None:
            write(self.reporter)
            return
        with self.capture.global_and_fixture_disabled():
            write(self.reporter)
