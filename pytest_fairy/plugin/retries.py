"""`--fairy-retries N`: an item that ended inconclusive because the device or the brain failed (a phone
lost, an API that did not answer) is run again, up to N more times; never one with another verdict. An
app defect, a budget spent or a loop are what the exploration found: running it again would only hide
them behind a coin toss.

An item that passes on a retry is *flaky*, and says so everywhere a reader looks: a line at the end of
the run, a `fairy.flaky` property and a `<flakyError>` per earlier try in JUnit XML (Surefire's way of
telling a pass after retries), and in Allure each try is a result of its own under the same history, as
Allure shows retries. An item still inconclusive after its retries says what each try met.

The tries run inside one `pytest_runtest_protocol`: only the last try's reports are logged, so the
terminal, JUnit and xdist see one outcome per item; its duration is every try's, as a CI job spent it.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import pytest

from pytest_fairy.plugin.outcomes import INFRASTRUCTURE_ATTR, inconclusive_reason
from pytest_fairy.plugin.pytest_junit import record_flaky, runtestprotocol
from pytest_fairy.report.allure_adapter import close_test

FLAKY_PROPERTY = "fairy.flaky"  # a pass after retries: what the earlier tries met
RETRIED_PROPERTY = "fairy.retried"  # still inconclusive after retries: what the earlier tries met
TRIES_SEPARATOR = " | "


class Retries:
    """Registered per run (on each xdist worker and the controller) when `--fairy-retries` is above 0."""

    def __init__(self, config: pytest.Config, retries: int) -> None:
        self.config = config
        self.retries = retries

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem: pytest.Item | None) -> bool | None:
        from pytest_fairy.plugin.items import FeatureItem  # items imports the plugin's modules

        if not isinstance(item, FeatureItem):
            return None  # a plain test of the project: pytest runs it as ever
        item.ihook.pytest_runtest_logstart(nodeid=item.nodeid, location=item.location)
        earlier: list[str] = []
        spent = 0.0  # the earlier tries' seconds
        while True:
            item.user_properties.clear()  # each try says its own figures
            reports = runtestprotocol(item, nextitem=nextitem, log=False)
            met = _infrastructure_failure(reports)
            if met is None or len(earlier) == self.retries:
                break
            earlier.append(met)
            spent += sum(report.duration for report in reports)
            close_test(item.nodeid)  # this try's Allure result, as written; the next try gets its own
        if earlier:
            _tell(reports, earlier)
            _main(reports).duration += spent
        for report in reports:
            item.ihook.pytest_runtest_logreport(report=report)
        item.ihook.pytest_runtest_logfinish(nodeid=item.nodeid, location=item.location)
        return True

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> Generator[None]:
        """After JUnit has written a pass, add a `<flakyError>` per earlier try (on the controller, which
        writes the file under xdist)."""
        try:
            return (yield)
        finally:
            flaky = dict(report.user_properties).get(FLAKY_PROPERTY)
            if flaky is not None and report.when == "call" and report.passed:
                record_flaky(self.config, report, str(flaky).split(TRIES_SEPARATOR))

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        for report in terminalreporter.stats.get("passed", ()):
            flaky = dict(getattr(report, "user_properties", ())).get(FLAKY_PROPERTY)
            if flaky is not None and report.when == "call":
                tries = str(flaky).split(TRIES_SEPARATOR)
                terminalreporter.write_line(
                    f"FLAKY {report.nodeid} - passed on try {len(tries) + 1} after: {'; '.join(tries)}",
                    yellow=True,
                )


def _infrastructure_failure(reports: list[pytest.TestReport]) -> str | None:
    """What a try met when it ended inconclusive because the device or the brain failed; else None."""
    for report in reports:
        reason = inconclusive_reason(report)
        if reason is not None and getattr(report, INFRASTRUCTURE_ATTR, False):
            return reason
    return None


def _main(reports: list[pytest.TestReport]) -> pytest.TestReport:
    """The try's call report; its last report when it never got to the call (a setup that failed)."""
    return next((report for report in reports if report.when == "call"), reports[-1])


def _tell(reports: list[pytest.TestReport], earlier: list[str]) -> None:
    """The last try's reports carry what the earlier ones met: a pass is flaky, an inconclusive end was
    retried."""
    passed = all(report.passed or report.when != "call" for report in reports) and any(
        report.when == "call" for report in reports
    )
    name = FLAKY_PROPERTY if passed else RETRIED_PROPERTY
    for report in reports:
        report.user_properties.append((name, TRIES_SEPARATOR.join(earlier)))
