"""Signs of life without -v: an item under way says how far it got, at most every `fairy_progress_seconds`.

A 60-step item with an LLM on a phone takes minutes, and pytest prints nothing between its file name and
the item's letter: a CI system takes that for a hang. So, after a step, once the interval has passed
since the item began or last said so, one line: the feature, the step of its budget, the states found,
the loops escaped, tokens and cost so far, and the screen it is on. On a terminal the line is rewritten
in place; elsewhere (CI logs) each is a line of its own. -v prints every step instead (`TerminalSink`),
-q nothing; xdist workers have no terminal of their own.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from pytest_fairy.explore.decisions import Plan
from pytest_fairy.explore.record import Exploration, StepRecord
from pytest_fairy.explore.target import Target


class ProgressSink:
    def __init__(
        self, config: pytest.Config, every: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.reporter = config.pluginmanager.get_plugin("terminalreporter")
        self.capture = config.pluginmanager.get_plugin("capturemanager")
        self.every = every
        self.clock = clock
        self._said_at = 0.0
        self._shown = False
        self._target: Target | None = None
        self._states: set[str] = set()
        self._escapes = 0

    @property
    def tty(self) -> bool:
        return bool(self.reporter is not None and self.reporter.isatty)

    def start(self, target: Target, plan: Plan) -> None:
        self._target, self._said_at = target, self.clock()

    def step(self, record: StepRecord) -> None:
        if record.reached:
            self._states.add(record.reached)
        self._escapes += record.escape
        now = self.clock()
        if now - self._said_at >= self.every:
            self._said_at = now
            self._say(self.status(record))

    def finish(self, result: Exploration) -> None:
        if self._shown and self.tty:
            self._write(lambda reporter: reporter.write_line(""))  # the item's letter on a line of its own

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
        if self.tty and self._shown:
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
