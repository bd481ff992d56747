"""Where an item's exploration steps go besides the session store: the project's `pytest_fairy_step`
hook, the terminal (with -v) and Allure (with --alluredir); and the run's summary at the end."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pytest_fairy.devices.protocol import Device
from pytest_fairy.explore.decisions import Brain
from pytest_fairy.explore.guard import VerdictKind
from pytest_fairy.explore.record import Exploration, StepRecord, StepSink
from pytest_fairy.explore.target import Target
from pytest_fairy.plugin.items import FEATURE_KEY
from pytest_fairy.plugin.outcomes import COST_PROPERTY, SUMMARY_PROPERTY
from pytest_fairy.plugin.progress import ProgressSink
from pytest_fairy.plugin.run import RUN_KEY
from pytest_fairy.plugin.session_budget import Spend, ledger_of
from pytest_fairy.plugin.xdist_workers import WORKER_LINES_KEY
from pytest_fairy.replay.regression import write_diff_summary
from pytest_fairy.report.allure import AllureSink
from pytest_fairy.report.allure_environment import AllureEnvironment


def item_sinks(item: pytest.Item, device: Device, brain: Brain) -> list[StepSink]:
    """The sinks of `item`'s explorer: the session store and the step hook always, the terminal with -v,
    Allure with --alluredir. The store first: a step is on disk before it is printed or handed on, and a
    result it cannot keep is inconclusive for every sink after it (`explore.record.tell_result`)."""
    config = item.config
    run = config.stash[RUN_KEY]
    store, policy = run.store, run.fairy.artifacts_policy
    sinks: list[StepSink] = [HookSink(item)]
    # An xdist worker has no terminal: its progress goes, a line at a time, to the controller's.
    lines = config.stash.get(WORKER_LINES_KEY, None)
    if lines is None and config.option.verbose > 0:
        sinks.append(TerminalSink(config))
    elif config.option.verbose == 0 or (lines is not None and config.option.verbose > 0):
        progress = ProgressSink(config, run.fairy.progress_seconds, lines=lines.say if lines else None)
        item.addfinalizer(progress.close)
        sinks.append(progress)
    allure_dir = getattr(config.option, "allure_report_dir", None)
    if allure_dir:
        spec = item.stash.get(FEATURE_KEY, None)
        facts = {"brain": brain.name, "model": brain.model or "-"}
        farm = run.pool.farms.farm_of(device.serial)
        if farm is not None:  # a phone booked from a farm: which farm, by what requirements
            facts["farm"] = farm
        environment = AllureEnvironment(Path(allure_dir), store.session_id, facts=facts)
        sinks.append(
            AllureSink(
                spec_name=spec[0].path.name if spec else "",
                environment=environment,
                device=device,
                attachments=lambda record: [
                    extra
                    for found in config.hook.pytest_fairy_step_attachments(item=item, record=record)
                    for extra in found or ()
                ],
                results=Path(allure_dir),
                policy=policy,
            )
        )
    return [store.item(item.nodeid, policy), *sinks]


class HookSink:
    """Forwards each step to the `pytest_fairy_step` hook."""

    def __init__(self, item: pytest.Item) -> None:
        self.item = item

    def start(self, target: Target, plan: Any) -> None:
        pass

    def step(self, record: StepRecord) -> None:
        self.item.config.hook.pytest_fairy_step(item=self.item, record=record)

    def finish(self, result: Exploration) -> None:
        pass


class TerminalSink:
    """With -v, a line per exploration step: step, action, state reached, guard verdict."""

    def __init__(self, config: pytest.Config) -> None:
        self.reporter = config.pluginmanager.get_plugin("terminalreporter")
        self.capture = config.pluginmanager.get_plugin("capturemanager")

    def start(self, target: Target, plan: Any) -> None:
        self._write("")

    def step(self, record: StepRecord) -> None:
        guard = "" if record.guard == VerdictKind.OK else f"  [guard {record.guard}: {record.guard_reason}]"
        denial = f"  [{record.denial}]" if record.denial else ""
        source = "  [replayed]" if record.replayed else ""
        note = f"  [{record.device_note}]" if record.device_note else ""  # typing method, reconnects
        self._write(
            f"    step {record.step}: {record.action} -> {record.reached or '?'}{guard}{denial}{source}{note}"
        )

    def finish(self, result: Exploration) -> None:
        pass

    def _write(self, line: str) -> None:
        if self.reporter is None:
            return
        # Live, as the steps happen: pytest's output capture would hold them until the item ends.
        if self.capture is None:
            self.reporter.write_line(line)
            return
        with self.capture.global_and_fixture_disabled():
            self.reporter.write_line(line)


def write_summary(terminalreporter: Any) -> None:
    """The fairy exploration summary: a line per explored item, where the artifacts are, what the
    session's LLM calls cost (against --fairy-max-cost), and the build-to-build diff against
    --fairy-baseline."""
    lines = []
    cost, paid = 0.0, set()
    for reports in terminalreporter.stats.values():
        for report in reports:
            for name, value in getattr(report, "user_properties", ()):
                if name == SUMMARY_PROPERTY and report.when == "call":
                    lines.append(f"{report.nodeid}: {value}")
                elif name == COST_PROPERTY and report.when == "call":  # from every worker's reports
                    cost += float(value)
                    paid.add(report.nodeid)
    run = terminalreporter.config.stash[RUN_KEY]
    if lines:
        terminalreporter.write_sep("-", "fairy exploration summary")
        for line in sorted(lines):
            terminalreporter.write_line(line)
        terminalreporter.write_line(f"steps, screenshots and feature trees: {run.store.folder}")
    items = f"{len(paid)} item" + ("" if len(paid) == 1 else "s")
    ledger = ledger_of(terminalreporter.config)
    spend = ledger.spend() if ledger is not None else None
    if spend is not None and spend.logins:  # logins' calls: on the ledger, in no item's figures
        cost, items = spend.dollars, Spend(items=len(paid), logins=spend.logins).spenders()
    if paid or cost > 0:
        budget = run.fairy.max_cost
        terminalreporter.write_line(
            f"session cost: ${cost:.4f} ({items})" + (f", budget ${budget:.2f}" if budget is not None else "")
        )
    write_diff_summary(terminalreporter)
