"""An exploration's result, told to pytest: the item's stash, its JUnit property, the project's
`pytest_fairy_finished` hook, and the exception that carries the verdict.

`AppDefect` subclasses AssertionError so pytest and Allure call the item *failed*; `Inconclusive` does
not, so Allure shows it *broken*. An inconclusive run is never reported as passed. Neither is a
`FairyError`: they are outcomes, not errors.

Inconclusive is pytest's own outcome too (`InconclusiveReports`): its report keeps pytest's `failed`
outcome, so the exit code is non-zero and `--lf`, `-x` and `--maxfail` take it as a failure, but its
category is `inconclusive`: its own letter `I` and word `INCONCLUSIVE`, counted apart in the summary line
(`6 passed, 1 failed, 2 inconclusive`), its own section beside FAILURES and its own short-summary lines,
and an `<error>` in JUnit XML, not a `<failure>`. `failed` is left to app defects.
"""

from __future__ import annotations

import os
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

from pytest_fairy.explore.record import Exploration
from pytest_fairy.explore.verdict import Verdict
from pytest_fairy.plugin.pytest_junit import record_as_error
from pytest_fairy.plugin.shown_paths import shown_nodeid
from pytest_fairy.report.allure import where_shown
from pytest_fairy.report.export_pytest import reproduction_file_name
from pytest_fairy.report.typed import run_line

# The item's result, for the project's hooks and plugins: `item.stash[RESULT_KEY]`.
RESULT_KEY = pytest.StashKey[Exploration]()
# The user property (and JUnit XML property) with the verdict and figures of an item's exploration.
SUMMARY_PROPERTY = "fairy"
# Beside it, one property per figure, for CI tools that read JUnit XML and for the controller under xdist
# (plugin/github_actions.py): names that stay, values read without parsing the summary line.
VERDICT_PROPERTY = "fairy.verdict"
STEPS_PROPERTY = "fairy.steps"
STATES_PROPERTY = "fairy.states"
ESCAPES_PROPERTY = "fairy.loops_escaped"
TOKENS_PROPERTY = "fairy.tokens"  # with an LLM brain only, as is the cost
COST_PROPERTY = "fairy.cost_usd"
# LLM calls the item made, whatever the brain (0: all replayed, or a brain that calls none); the decisions it
# replayed from the decision cache are `fairy.replayed` (replay/provenance.py, beside whose they were).
LLM_CALLS_PROPERTY = "fairy.llm_calls"
REPRODUCTION_PROPERTY = "fairy.reproduction"  # an app defect's exported test, when one was written


class AppDefect(AssertionError):
    """The app misbehaved: a crash, an ANR, an oracle that does not hold. Carries the evidence."""


class Inconclusive(Exception):
    """The explorer could not finish: budget spent, stuck after escapes, device lost, brain unavailable.
    `reason` is why, without where the report shows it; `infrastructure`: the device or the brain failed,
    not the exploration (`--fairy-retries` runs such an item again)."""

    def __init__(self, message: str, reason: str = "", *, infrastructure: bool = False) -> None:
        super().__init__(message)
        self.reason = reason or message
        self.infrastructure = infrastructure


# The category, letter and word of an inconclusive item in pytest's terminal, and the report attribute
# (a str, so that it travels from xdist workers) holding its reason.
INCONCLUSIVE = "inconclusive"
INCONCLUSIVE_STATUS = (INCONCLUSIVE, "I", ("INCONCLUSIVE", {"yellow": True}))
REASON_ATTR = "fairy_inconclusive"
INFRASTRUCTURE_ATTR = "fairy_infrastructure"  # a bool: the device or the brain failed
# -r characters whose lines pytest prints in its short test summary, and the stats each one reads.
_SHORT_SUMMARY = {"f": "failed", "E": "error", "p": "passed", "x": "xfailed", "X": "xpassed",
                  "s": "skipped", "S": "skipped"}  # fmt: skip


def conclude(item: pytest.Item, result: Exploration, folder: Path | None = None) -> None:
    """Record `result` on `item`, tell the project's hooks, then pass, or raise the verdict. `folder`:
    the item's artifacts, where an app defect's exported reproduction is (`report/exports.py`)."""
    item.stash[RESULT_KEY] = result
    # user_properties travel with the reports to the xdist controller and into JUnit XML.
    item.user_properties.append((SUMMARY_PROPERTY, f"{result.verdict.value}: {result.figures()}"))
    item.user_properties.extend(figure_properties(result, _reproduction_test(item, result, folder)))
    item.config.hook.pytest_fairy_finished(item=item, result=result)
    if result.verdict is Verdict.FAILED:
        evidence = "\n".join(f.evidence for f in result.findings if f.evidence)
        # Where first: the evidence below can be a long logcat excerpt.
        pointer = _reproduction(item, result, folder)
        raise AppDefect(
            f"{result.reason}\n({where_shown(result)})" + pointer + (f"\n{evidence}" if evidence else "")
        )
    if result.verdict is Verdict.INCONCLUSIVE:
        raise Inconclusive(
            f"{result.reason} ({where_shown(result)})", result.reason, infrastructure=result.infrastructure
        )


def figure_properties(result: Exploration, reproduction: str | None) -> list[tuple[str, object]]:
    """The `fairy.*` user properties of `result`: its verdict and figures, tokens and cost when an LLM was
    called, and `reproduction`, the exported test's path, when one was written."""
    properties: list[tuple[str, object]] = [
        (VERDICT_PROPERTY, result.verdict.value),
        (STEPS_PROPERTY, result.steps),
        (STATES_PROPERTY, len(result.tree.states)),
        (ESCAPES_PROPERTY, result.escapes),
        (LLM_CALLS_PROPERTY, result.usage.calls),
    ]
    if result.usage.calls:
        properties.append((TOKENS_PROPERTY, result.usage.total_tokens))
        properties.append((COST_PROPERTY, f"{result.usage.cost_usd:.4f}"))
    if reproduction:
        properties.append((REPRODUCTION_PROPERTY, reproduction))
    return properties


def _reproduction_test(item: pytest.Item, result: Exploration, folder: Path | None) -> str | None:
    """An app defect's exported test, relative to where pytest was started, when it was written."""
    if folder is None or result.reproduction is None:
        return None
    test = folder / reproduction_file_name(result.target.feature)
    return os.path.relpath(test, item.config.invocation_params.dir) if test.is_file() else None


def _reproduction(item: pytest.Item, result: Exploration, folder: Path | None) -> str:
    """`(reproduce it: ANDROID_SERIAL=<serial> python -m pytest .fairy/.../test_reproduce_backup.py)`,
    when that file was written."""
    test = _reproduction_test(item, result, folder)
    if test is None or result.reproduction is None:
        return ""
    return f"\n(reproduce it on its own: {run_line(result.reproduction, f'python -m pytest {test}')})"


def mark_inconclusive(report: pytest.TestReport, call: pytest.CallInfo[None]) -> None:
    """An item that raised `Inconclusive` says so on its report, for the controller's terminal and JUnit.
    Raised in its setup (no device for it), the report says it in one line, without a traceback."""
    if call.excinfo is not None and isinstance(call.excinfo.value, Inconclusive):
        reason = call.excinfo.value.reason
        setattr(report, REASON_ATTR, reason)
        setattr(report, INFRASTRUCTURE_ATTR, call.excinfo.value.infrastructure)
        if call.when == "setup":
            report.longrepr = f"inconclusive: {reason}"


def inconclusive_reason(report: Any) -> str | None:
    """The reason of an inconclusive item's call (or setup) report; None for every other report."""
    reason = getattr(report, REASON_ATTR, None)
    ended = report.when in ("setup", "call") and report.failed
    return reason if isinstance(reason, str) and ended else None


class InconclusiveReports:
    """Shows inconclusive items as what they are, where pytest would show them as failures: the terminal
    (with `pytest_report_teststatus` in the entry-point module) and JUnit XML. Registered per run."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> Generator[None]:
        """After JUnit has written the report as a `<failure>`, make it an `<error>` with the reason."""
        try:
            return (yield)
        finally:
            reason = inconclusive_reason(report)
            if reason is not None:
                record_as_error(self.config, report, f"inconclusive: {reason}")

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        """The INCONCLUSIVE section, beside FAILURES and like it: each item with its reason."""
        style = self.config.option.tbstyle
        terminalreporter.summary_failures_combined(INCONCLUSIVE, "INCONCLUSIVE", style=style)

    @pytest.hookimpl(specname="pytest_terminal_summary", wrapper=True, tryfirst=True)
    def pytest_terminal_summary_short_lines(self, terminalreporter: Any) -> Generator[None]:
        """`INCONCLUSIVE <item> - <reason>` lines, after pytest's own short summary lines (they come last
        of all in its wrapper, so this one wraps it), where `-r` asks for failures or errors."""
        try:
            return (yield)
        finally:
            self._short_lines(terminalreporter)

    def _short_lines(self, reporter: Any) -> None:
        chars = getattr(reporter, "reportchars", "")
        reports = reporter.stats.get(INCONCLUSIVE, [])
        if not reports or not ({"f", "E"} & set(chars)):
            return
        if not any(reporter.stats.get(_SHORT_SUMMARY[c]) for c in chars if c in _SHORT_SUMMARY):
            reporter.write_sep("=", "short test summary info", cyan=True, bold=True)
        for report in reports:
            where = shown_nodeid(reporter.config, report.nodeid)
            reporter.write_line(f"INCONCLUSIVE {where} - {inconclusive_reason(report)}", yellow=True)
