"""The run as GitHub Actions shows it, when it runs there (`GITHUB_ACTIONS=true`): an annotation per feature
that did not pass, at its line of its spec (`::error` for an app defect, `::warning` for an inconclusive
run), and a Markdown job summary appended to the file `GITHUB_STEP_SUMMARY` names.

Only the controller says them, once, at the end: under xdist it has every item's reports, their
user properties (`fairy.*`, from `outcomes.conclude`) with them, as the terminal summary does. Outside
GitHub Actions nothing is registered. Workflow commands: https://docs.github.com/en/actions/reference/
workflow-commands-for-github-actions (and `@actions/core`'s `command.ts` for their escaping).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from pytest_fairy.plugin.outcomes import (
    COST_PROPERTY,
    REPRODUCTION_PROPERTY,
    STATES_PROPERTY,
    STEPS_PROPERTY,
    TOKENS_PROPERTY,
    VERDICT_PROPERTY,
    inconclusive_reason,
)
from pytest_fairy.plugin.retries import FLAKY_PROPERTY, TRIES_SEPARATOR
from pytest_fairy.plugin.run import RUN_KEY
from pytest_fairy.text import one_line

# GitHub shows at most this many error annotations of a step, and as many warnings: more are dropped
# without a word, so the run says how many it left out instead.
ANNOTATION_LIMIT = 10
# A reason in the job summary's table: one line, cut here, so that a logcat excerpt does not drown it.
REASON_CHARS = 200
# An annotation's message: one line too, longer (it is read on its own).
MESSAGE_CHARS = 1000
# The verdicts in the order the summary counts them: what needs a look first.
VERDICTS = ("failed", "inconclusive", "error", "passed", "skipped")
# The first words of an app defect's report (`FeatureItem.repr_failure`).
DEFECT_PREFIX = "app defect: "
# How a feature item tells itself apart in a report: its `reportinfo` domain (`FeatureItem.reportinfo`).
FEATURE_DOMAIN = "feature: "


@dataclass(frozen=True)
class Outcome:
    """One feature item's end as the controller saw it: `verdict` is passed, failed (an app defect),
    inconclusive, error (the item could not run: a usage error, a fixture's) or skipped."""

    name: str
    spec: str  # the spec's path relative to the workspace
    line: int | None
    verdict: str
    reason: str = ""
    properties: dict[str, str] = field(default_factory=dict)

    @property
    def where(self) -> str:
        return f"{self.spec}:{self.line}" if self.line else self.spec


def on_github_actions() -> bool:
    return os.environ.get("GITHUB_ACTIONS") == "true"


class GitHubActions:
    """Registered per run on the controller under GitHub Actions; says its piece in the terminal summary."""

    @staticmethod
    def register(config: pytest.Config) -> None:
        # An xdist worker sees only its own items, and its output is not the job's log: the controller
        # alone has the whole run.
        if on_github_actions() and not hasattr(config, "workerinput"):
            config.pluginmanager.register(GitHubActions(), "fairy-github-actions")

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        config = terminalreporter.config
        base = Path(os.environ.get("GITHUB_WORKSPACE") or config.invocation_params.dir)
        outcomes = feature_outcomes(config, terminalreporter.stats.values(), base)
        if not outcomes:
            return  # no feature ran (a plain test suite with the plugin installed): nothing to say
        folder = relative(config.stash[RUN_KEY].store.folder, base)
        for line in workflow_commands(outcomes, folder):
            terminalreporter.write_line(line)
        target = os.environ.get("GITHUB_STEP_SUMMARY")
        if target:
            try:
                # Append: the step's other commands write into the same file.
                with open(target, "a", encoding="utf-8") as summary:
                    summary.write(job_summary(outcomes, folder))
            except OSError as exc:
                terminalreporter.write_line(f"fairy: could not write the job summary to {target}: {exc}")


def feature_outcomes(config: pytest.Config, stats: Iterable[Sequence[Any]], base: Path) -> list[Outcome]:
    """Each feature item's outcome, from its reports, by node id."""
    reports: dict[str, list[Any]] = {}
    for category in stats:
        for report in category:
            location = getattr(report, "location", None)
            if isinstance(report, pytest.TestReport) and location and location[2].startswith(FEATURE_DOMAIN):
                reports.setdefault(report.nodeid, []).append(report)
    found = [outcome(config, nodeid, reports[nodeid], base) for nodeid in sorted(reports)]
    return sorted(found, key=lambda o: VERDICTS.index(o.verdict))  # what needs a look first


def outcome(config: pytest.Config, nodeid: str, reports: Sequence[Any], base: Path) -> Outcome:
    path, lineno, _ = reports[0].location
    properties = {name: str(value) for r in reports for name, value in r.user_properties}
    spec = relative(config.rootpath / path, base)
    line = lineno + 1 if isinstance(lineno, int) else None
    name = nodeid.rsplit("::", 1)[-1]

    def ended(verdict: str, reason: str) -> Outcome:
        return Outcome(name, spec, line, verdict, one_line(reason), properties)

    for report in reports:
        reason = inconclusive_reason(report)
        if reason is not None:
            return ended("inconclusive", reason)
    failed = next((r for r in reports if r.failed), None)
    if failed is not None:
        defect = failed.when == "call" and properties.get(VERDICT_PROPERTY) == "failed"
        return ended("failed" if defect else "error", failure_line(failed, defect))
    skipped = next((r for r in reports if r.skipped), None)
    if skipped is not None:
        longrepr = skipped.longrepr
        return ended("skipped", str(longrepr[2] if isinstance(longrepr, tuple) else longrepr))
    flaky = properties.get(FLAKY_PROPERTY)
    if flaky is not None:  # a pass after retries: what the earlier tries met is worth a look
        tries = flaky.split(TRIES_SEPARATOR)
        return ended("passed", f"flaky: passed on try {len(tries) + 1} after: {'; '.join(tries)}")
    return ended("passed", "")


def failure_line(report: Any, defect: bool) -> str:
    """An app defect's reason (its line of the report, `FeatureItem.repr_failure`; under xdist a line
    naming the worker comes first), or the exception's message of another failure."""
    crash = getattr(report.longrepr, "reprcrash", None)
    if not defect and crash is not None:
        return str(crash.message)
    lines = [line for line in report.longreprtext.splitlines() if line.strip()]
    said = next((line for line in lines if line.startswith(DEFECT_PREFIX)), lines[0] if lines else "")
    return said.removeprefix(DEFECT_PREFIX)


def workflow_commands(outcomes: Sequence[Outcome], folder: str) -> list[str]:
    """The workflow commands: an `::error` per feature that failed or could not run, a `::warning` per
    inconclusive one, at most `ANNOTATION_LIMIT` of each, and a `::notice` for those left out."""
    lines = []
    for command, verdicts, what in (
        ("error", ("failed", "error"), "failed"),
        ("warning", ("inconclusive",), "inconclusive"),
    ):
        chosen = [o for o in outcomes if o.verdict in verdicts]
        for o in chosen[:ANNOTATION_LIMIT]:
            said = DEFECT_PREFIX if o.verdict == "failed" else f"{o.verdict}: "
            message = one_line(said + o.reason, MESSAGE_CHARS)
            where = f"file={escape_property(o.spec)}" + (f",line={o.line}" if o.line else "")
            lines.append(f"::{command} {where},title={escape_property(o.name)}::{escape_data(message)}")
        if len(chosen) > ANNOTATION_LIMIT:
            more = len(chosen) - ANNOTATION_LIMIT
            note = (
                f"{more} more {what} feature{'s' if more != 1 else ''} not annotated (GitHub shows "
                f"{ANNOTATION_LIMIT} per step): see the job summary, and {folder} for their steps"
            )
            lines.append(f"::notice::{escape_data(note)}")
    return lines


def job_summary(outcomes: Sequence[Outcome], folder: str) -> str:
    """Markdown for the job's summary page: counts by verdict, a row per feature, where the artifacts are."""
    counts = {v: sum(o.verdict == v for o in outcomes) for v in VERDICTS}
    spent = any(TOKENS_PROPERTY in o.properties for o in outcomes)
    head = ["feature", "verdict", "steps", "states", *(["tokens", "cost"] if spent else []), "reason"]
    lines = [
        "",  # the file may not end in a line break: a heading must start a line
        f"## pytest_fairy: {len(outcomes)} feature{'s' if len(outcomes) != 1 else ''} explored",
        "",
        ", ".join(
            f"**{n} {v}**" if v in ("failed", "inconclusive", "error") else f"{n} {v}"
            for v, n in counts.items()
            if n
        ),
        "",
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
    ]
    for o in outcomes:
        figures = [o.properties.get(STEPS_PROPERTY, "-"), o.properties.get(STATES_PROPERTY, "-")]
        if spent:
            cost = o.properties.get(COST_PROPERTY)
            figures += [o.properties.get(TOKENS_PROPERTY, "-"), f"${cost}" if cost else "-"]
        reason = one_line(o.reason, REASON_CHARS)
        reproduction = o.properties.get(REPRODUCTION_PROPERTY)
        cells = [
            f"{cell(o.name)} ({code(o.where)})",
            o.verdict,
            *figures,
            cell(reason) + (f"; reproduction: {code(reproduction)}" if reproduction else ""),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    lines += [
        "",
        f"Steps, Set-of-Mark screenshots and feature trees of each item: {code(folder)} (on the runner).",
        "",
    ]
    return "\n".join(lines) + "\n"


def cell(text: str) -> str:
    """`text` in a Markdown table cell: no column break, no HTML taken for a tag."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("|", "\\|")


def code(text: str) -> str:
    """`text` as code in a table cell (GitHub reads `\\|` there as a `|` of the code, not a column break)."""
    return "`" + text.replace("|", "\\|") + "`"


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def relative(path: Path, base: Path) -> str:
    """`path` relative to `base` (the workspace, where GitHub looks for an annotation's file)."""
    try:
        return Path(os.path.relpath(path, base)).as_posix()
    except ValueError:  # another drive (Windows)
        return path.as_posix()
