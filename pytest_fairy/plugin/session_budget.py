"""The session's cost budget (`--fairy-max-cost`): what the LLM calls of every item of the run cost, kept in
one small file-locked ledger in the session folder, so that xdist workers, each its own process, see what
the others spent.

Each item's brain is watched (`BudgetedBrain`): it writes the item's spend so far to the ledger before and
after each call, and before each call reads what the whole session spent. Once that reaches the budget, no
more call is made: the exploration ends inconclusive with one line, `session cost budget of $2.00 spent
($2.04 by 17 items)`, after the step under way (the explorer ends a run on a failing seam with what it saw).
An item that has not started by then is not explored at all: it ends inconclusive in its setup, before its
device is claimed (`refuse_when_spent`).

Checked before each call rather than through the item's own cost budget: that one is fixed when the item
starts, so it could not see what the other workers spend meanwhile. The session may overshoot by what the
calls already under way cost: at most one call per worker.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest
from filelock import FileLock, Timeout

from pytest_fairy.errors import ArtifactError, FairyError
from pytest_fairy.explore.decisions import (
    Brain,
    Decision,
    Judgement,
    Plan,
    StepContext,
    Usage,
    witness,
    witness_plan,
)
from pytest_fairy.explore.target import Target
from pytest_fairy.perception.screen import Screen
from pytest_fairy.plugin.outcomes import Inconclusive
from pytest_fairy.plugin.run import RUN_KEY
from pytest_fairy.report import atomic

T = TypeVar("T")

# How long one process waits for another's ledger write (each takes milliseconds).
LOCK_SECONDS = 30.0


class SessionBudgetSpent(FairyError):
    """The session's cost budget is spent: the item ends inconclusive, saying so; never retried (not the
    device's or the brain's failure)."""


@dataclass(frozen=True, slots=True)
class Spend:
    """What the session spent so far, how many items spent anything, and how many specs' logins did."""

    dollars: float = 0.0
    items: int = 0
    logins: int = 0

    def spenders(self) -> str:
        """`3 items`, `2 items and 1 login`, `1 login`."""
        parts = (
            [f"{self.items} item" + ("" if self.items == 1 else "s")] if self.items or not self.logins else []
        )
        if self.logins:
            parts.append(f"{self.logins} login" + ("" if self.logins == 1 else "s"))
        return " and ".join(parts)


# What a login's entries in the ledger are named after, with the spec's file name: `login of test_x.yaml`.
LOGIN_PREFIX = "login of "


class SessionLedger:
    """`cost-ledger.json` in the session folder: each item try's spend so far, under a file lock."""

    FILE = "cost-ledger.json"

    def __init__(self, folder: Path, budget: float) -> None:
        self.path = folder / self.FILE
        self.budget = budget
        self._lock = FileLock(folder / f".{self.FILE}.lock")

    def spend(self) -> Spend:
        """The session's spend so far, every worker's."""
        if not self.path.exists():
            return Spend()
        with self._locked():
            return _total(self._read())

    def post(self, key: str, item: str, dollars: float) -> Spend:
        """Write an item try's spend so far (`key` names the try, `item` its node id); returns the
        session's."""
        with self._locked():
            entries = self._read()
            if dollars > 0 and entries.get(key, {}).get("usd") != dollars:
                entries[key] = {"item": item, "usd": dollars}
                atomic.write_json(self.path, entries)
            return _total(entries)

    def spent_line(self, spend: Spend) -> str:
        """`session cost budget of $2.00 spent ($2.04 by 17 items)`."""
        return f"session cost budget of ${self.budget:.2f} spent (${spend.dollars:.2f} by {spend.spenders()})"

    def is_spent(self, spend: Spend) -> bool:
        return spend.dollars >= self.budget

    def _read(self) -> dict[str, dict[str, Any]]:
        try:
            found = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            raise ArtifactError(self.path, f"the session's cost ledger cannot be read: {exc}") from exc
        return found if isinstance(found, dict) else {}

    @contextmanager
    def _locked(self) -> Iterator[None]:
        atomic.make_folder(self.path.parent)
        try:
            self._lock.acquire(timeout=LOCK_SECONDS)
        except Timeout as exc:
            raise ArtifactError(self.path, f"waited {LOCK_SECONDS:.0f}s for {exc.lock_file}") from exc
        try:
            yield
        finally:
            self._lock.release()


def _total(entries: dict[str, dict[str, Any]]) -> Spend:
    """Every entry's dollars; the items that spent anything (a spec's login spends, but is no item)."""
    spent = [(str(entry.get("item")), float(entry.get("usd", 0))) for entry in entries.values()]
    spenders = {item for item, usd in spent if usd > 0}
    logins = {item for item in spenders if item.startswith(LOGIN_PREFIX)}
    return Spend(sum(usd for _, usd in spent), len(spenders - logins), len(logins))


LEDGER_KEY = pytest.StashKey[SessionLedger | None]()


def ledger_of(config: pytest.Config) -> SessionLedger | None:
    """The run's ledger (one per process, on the session folder every worker shares); None without
    --fairy-max-cost."""
    if LEDGER_KEY not in config.stash:
        run = config.stash[RUN_KEY]
        budget = run.fairy.max_cost
        config.stash[LEDGER_KEY] = None if budget is None else SessionLedger(run.store.folder, budget)
    return config.stash[LEDGER_KEY]


def refuse_when_spent(config: pytest.Config) -> None:
    """An item the session can no longer pay for is inconclusive before it starts: no device, no call."""
    ledger = ledger_of(config)
    if ledger is None:
        return
    spend = ledger.spend()
    if ledger.is_spent(spend):
        raise Inconclusive(f"{ledger.spent_line(spend)}; not explored")


class BudgetedBrain:
    """`brain`, asked nothing more once the session's budget is spent: each call that would be made is
    refused with `SessionBudgetSpent`; the summary is then the explorer's own story, without a call."""

    def __init__(self, brain: Brain, ledger: SessionLedger, item: str) -> None:
        self.brain = brain
        self.ledger = ledger
        self.item = item
        self.name = brain.name
        self.model = brain.model
        self._key = f"{item}#{uuid.uuid4().hex[:8]}"  # a retried item's tries each count

    def plan(self, target: Target, screen: Screen, som_jpeg: bytes = b"") -> Plan:
        self._check("; not explored")
        return self._posted(self.brain.plan(target, screen, som_jpeg))

    def decide(self, ctx: StepContext) -> Decision:
        self._check(f" before step {ctx.step}")
        return self._posted(self.brain.decide(ctx))

    def judge(self, ctx: StepContext) -> Judgement:
        self._check(f" before step {ctx.step}")
        return self._posted(self.brain.judge(ctx))

    def summarize(self, target: Target, story: str) -> str:
        spend = self.post()
        if self.ledger.is_spent(spend):
            return f"{story}\n(no summary written: {self.ledger.spent_line(spend)})"
        return self._posted(self.brain.summarize(target, story))

    def usage(self) -> Usage:
        return self.brain.usage()

    def witness_plan(self, target: Target, plan: Plan) -> None:
        witness_plan(self.brain, target, plan)

    def witness(self, ctx: StepContext, decision: Decision) -> None:
        witness(self.brain, ctx, decision)

    def post(self) -> Spend:
        """Write this item's spend so far to the ledger; the session's spend."""
        return self.ledger.post(self._key, self.item, self.brain.usage().cost_usd)

    def _check(self, where: str) -> None:
        spend = self.post()
        if self.ledger.is_spent(spend):
            raise SessionBudgetSpent(self.ledger.spent_line(spend) + where)

    def _posted(self, answer: T) -> T:
        self.post()
        return answer
