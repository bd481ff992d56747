"""Says when an item replayed decisions that another brain or model made than the run's.

A recording made by the offline brain replays under a Claude run as well as one Claude made: the item
passes without the model ever being asked (even with a key that does not work). So the item's line in the
exploration summary says whose decisions it replayed, and the end of the run says how many items did:

    test_food.yaml::delivery time: passed: 3 steps, ...; 5 decisions replayed, made by 'offline', not by
    'claude-sonnet-5-5'
    ...
    fairy: 1 item replayed decisions made by 'offline', not by 'claude-sonnet-5-5': 'claude-sonnet-5-5' was
    not asked for them (--fairy-no-cache asks it)

The note travels as a user property (`fairy.replayed_from`): into JUnit XML, and to the xdist controller.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Generator
from typing import Any

import pytest

from pytest_fairy.replay.brain import CachingBrain

PROVENANCE_PROPERTY = "fairy.replayed_from"


class ReplayProvenance:
    """Registered for the run: `summary_property` names the user property of an item's summary line."""

    def __init__(self, summary_property: str) -> None:
        self.summary_property = summary_property

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        report = yield
        brain = getattr(item, "funcargs", {}).get("fairy_brain")
        note = brain.provenance() if isinstance(brain, CachingBrain) and report.when == "call" else ""
        if note:
            # The item's own list: the teardown report (which JUnit XML reads) is made from it later.
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
