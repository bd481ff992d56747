"""Says when an item replayed decisions that another brain or model made than the run's.

A recording made by the offline brain replays under a Claude run as well as one Claude made: the item
passes without the model ever being asked (even with a key that does not work). So the item's line in the
exploration summary says whose decisions it replayed, and the end of the run says how many items did:

    test_food.yaml::delivery time: passed: 3 steps, ...; 5 decisions replayed, made by 'offline', not by
    'claude-sonnet-5-5'
    ...
    fairy: 1 item replayed decisions made by 'offline', not by 'claude-sonnet-5-5': 'claude-sonnet-5-5' was
    not asked for them (--fairy-no-cache asks it)

The note travels as a user property (`fairy.replayed_from`): into JUnit XML, and to the xdist controller;
so does every cached item's count of calls answered from the cache (`fairy.replayed`, also an Allure
parameter), beside its `fairy.llm_calls`.

Before any item runs, once the items are collected (by the run, or by the first xdist worker), a line says
which of them hold recordings made by someone else, so that a run with a new model or a broken key is not
read as the model's own work from its first line on:

    fairy: the decision cache holds decisions made by 'offline' for 2 of 8 items: where the screens match,
    they replay without asking 'claude-sonnet-5-5' (--fairy-no-cache asks it)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Generator, Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest

from pytest_fairy.replay.brain import CachingBrain
from pytest_fairy.replay.cache import DecisionCache
from pytest_fairy.replay.recording import maker_of
from pytest_fairy.report.allure import add_figures

PROVENANCE_PROPERTY = "fairy.replayed_from"
# How many of the item's brain calls (plan, decisions, judgements, summary) were answered from the decision
# cache, beside `fairy.llm_calls`, the ones that went to the LLM.
REPLAYED_PROPERTY = "fairy.replayed"


class ReplayProvenance:
    """Registered for the run: `summary_property` names the user property of an item's summary line.
    `replaying`: who decides in this run when it replays the cache first (an LLM brain with the cache on),
    else None; `cache`: the decision cache's folder."""

    def __init__(
        self, summary_property: str, replaying: str | None = None, cache: Path | None = None
    ) -> None:
        self.summary_property = summary_property
        self.replaying = replaying
        self.cache = cache
        self._foreseen = False

    def pytest_report_collectionfinish(self, items: Sequence[pytest.Item]) -> list[str]:
        return self._foresee(item.nodeid for item in items)

    @pytest.hookimpl(optionalhook=True)  # an xdist hook, on the controller: the first worker's items
    def pytest_xdist_node_collection_finished(self, node: Any, ids: Sequence[str]) -> None:
        reporter = node.config.pluginmanager.get_plugin("terminalreporter")
        for line in self._foresee(ids):
            if reporter is not None:
                reporter.write_line(line)

    def _foresee(self, nodeids: Iterable[str]) -> list[str]:
        if self._foreseen or self.replaying is None or self.cache is None:
            return []
        self._foreseen = True
        line = foreseen_provenance(DecisionCache(self.cache), list(nodeids), self.replaying)
        return [line] if line else []

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        report = yield
        brain = getattr(item, "funcargs", {}).get("fairy_brain")
        if not isinstance(brain, CachingBrain) or report.when != "call":
            return report
        # The item's own list: the teardown report (which JUnit XML reads) is made from it later.
        item.user_properties.append((REPLAYED_PROPERTY, brain.replayed))
        if getattr(item.config.option, "allure_report_dir", None):
            add_figures({"replayed": brain.replayed})
        note = brain.provenance()
        if note:
            item.user_properties[:] = [
                (name, f"{value}; {note}" if name == self.summary_property else value)
                for name, value in item.user_properties
            ] + [(PROVENANCE_PROPERTY, note)]
        report.user_properties = list(item.user_properties)
        return report

    @pytest.hookimpl(trylast=True)
    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        """One line per maker replayed: how many items replayed its decisions instead of asking."""
        whose: Counter[str] = Counter()
        for reports in terminalreporter.stats.values():
            for report in reports:
                for name, value in getattr(report, "user_properties", ()):
                    if name == PROVENANCE_PROPERTY and report.when == "call":
                        whose[str(value).partition(", made by ")[2]] += 1
        for makers, items in sorted(whose.items()):
            asked = makers.rpartition(", not by ")[2]
            terminalreporter.write_line(
                f"fairy: {items} item{'s' if items > 1 else ''} replayed decisions made by {makers}: "
                f"{asked} was not asked for them (--fairy-no-cache asks it)"
            )


def foreseen_provenance(cache: DecisionCache, nodeids: Sequence[str], maker: str) -> str:
    """The line saying which of the items `nodeids` hold recorded decisions made by another than `maker`
    (a whole recording, or steps it replayed from one); empty when none does. Only spec items
    (`spec.yaml::feature`) have recordings found by their node id; unreadable ones are left to the item."""
    whose: Counter[str] = Counter()
    items = 0
    for nodeid in nodeids:
        spec, _, feature = nodeid.partition("::")
        if not spec.endswith((".yaml", ".yml")) or not feature:
            continue
        recording = cache.newest(spec, feature)
        if recording is None:
            continue
        others = {step.by or maker_of(recording) for step in recording.steps} - {maker, ""}
        items += bool(others)
        whose.update(others)
    if not items:
        return ""
    makers = ", ".join(f"'{other}'" for other in sorted(whose))
    return (
        f"fairy: the decision cache holds decisions made by {makers} for {items} of {len(nodeids)} "
        f"item{'s' if len(nodeids) > 1 else ''}: where the screens match, they replay without asking "
        f"'{maker}' (--fairy-no-cache asks it)"
    )
