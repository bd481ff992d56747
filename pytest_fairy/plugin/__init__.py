"""pytest_fairy's pytest plugin (entry point `fairy`): the hooks, each a few lines around the run's
objects.

Layout: `run` (the objects of one run, in config.stash), `options` (command line and ini keys), `items`
(spec collection and the feature item's body), `fixtures`, `sinks` (step hook, terminal, Allure; the
summary), `outcomes` (a result as pytest's outcome; inconclusive as its own), `project_hooks` (the
project's hooks as a mission's checks), `hookspecs` (pytest_fairy's own hooks).
Owns only the wiring: options -> objects, items -> the explorer, results -> pytest. What a feature means
to the explorer is `pytest_fairy.explore.briefing`; verdict rules are `pytest_fairy.explore.verdict`.
May import every other part of pytest_fairy; nothing imports it.
"""

from __future__ import annotations

import os
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from pytest_fairy.plugin import hookspecs
from pytest_fairy.plugin.fixtures import (
    fairy_app_model,
    fairy_brain,
    fairy_config,
    fairy_device,
    fairy_explorer,
    fairy_logins,
)
from pytest_fairy.plugin.github_actions import GitHubActions
from pytest_fairy.plugin.items import SpecFile
from pytest_fairy.plugin.option_table import add_options
from pytest_fairy.plugin.outcomes import (
    INCONCLUSIVE_STATUS,
    InconclusiveReports,
    inconclusive_reason,
    mark_inconclusive,
)
from pytest_fairy.plugin.pytest_junit import record_usage_error
from pytest_fairy.plugin.retries import Retries
from pytest_fairy.plugin.run import RUN_KEY, SESSION_INPUT, FairyRun
from pytest_fairy.plugin.shown_paths import install as show_clean_paths
from pytest_fairy.plugin.signals import TermAsInterrupt
from pytest_fairy.plugin.sinks import write_summary
from pytest_fairy.plugin.spec_names import warn_if_spec
from pytest_fairy.plugin.split_durations import SplitDurations
from pytest_fairy.plugin.xdist_workers import WORKER_LINES_KEY, Workers

# pytest registers the fixtures it finds on the entry-point module: these are imported for that.
__all__ = ["fairy_app_model", "fairy_brain", "fairy_config", "fairy_device", "fairy_explorer", "fairy_logins"]


def pytest_addoption(parser: pytest.Parser) -> None:
    add_options(parser)


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    pluginmanager.add_hookspecs(hookspecs)


TERM_KEY = pytest.StashKey[TermAsInterrupt]()
WORKERS_KEY = pytest.StashKey[Workers]()


def pytest_configure(config: pytest.Config) -> None:
    with said_in_junit(config):
        config.stash[RUN_KEY] = FairyRun.configure(config)
    config.pluginmanager.register(InconclusiveReports(config), "fairy-inconclusive")
    show_clean_paths(config)
    if (retries := config.stash[RUN_KEY].fairy.retries) > 0:
        config.pluginmanager.register(Retries(config, retries), "fairy-retries")
    GitHubActions.register(config)
    SplitDurations.register(config)  # pytest-split's --store-durations, when it is given
    config.stash[WORKERS_KEY] = workers = Workers()
    Workers.register(config)
    config.stash[TERM_KEY] = term = TermAsInterrupt(workers.stop)
    term.install()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    mark_inconclusive(report, call)
    return report


def pytest_report_teststatus(report: pytest.TestReport, config: pytest.Config) -> tuple[Any, ...] | None:
    """Inconclusive is its own outcome: letter I, word INCONCLUSIVE, counted apart (plugin.outcomes)."""
    return INCONCLUSIVE_STATUS if inconclusive_reason(report) is not None else None


@pytest.hookimpl(optionalhook=True)  # an xdist hook: a run with `-p no:xdist` must still work
def pytest_configure_node(node: Any) -> None:
    """xdist: every worker writes into the controller's session folder."""
    node.workerinput[SESSION_INPUT] = node.config.stash[RUN_KEY].store.session_id
    node.config.stash[WORKERS_KEY].configure_node(node)  # and says where its pid goes, for a SIGTERM


def pytest_sessionstart(session: pytest.Session) -> None:
    with said_in_junit(session.config):
        session.config.stash[RUN_KEY].check_devices(session.config)


@contextmanager
def said_in_junit(config: pytest.Config) -> Iterator[None]:
    """A usage error raised here ends the run before pytest writes its JUnit XML: write it ourselves."""
    try:
        yield
    except pytest.UsageError as exc:
        record_usage_error(config, str(exc))
        raise


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """Devices let go and farm phones given back, in every process, before an xdist worker reports itself
    finished (xdist kills a worker still running 10 s later). With --alluredir, tidy what allure-pytest
    wrote (report/allure_adapter.py), once, by the process that runs last: the controller under xdist,
    after every worker is done."""
    if RUN_KEY in session.config.stash:
        session.config.stash[RUN_KEY].close()
    results = getattr(session.config.option, "allure_report_dir", None)
    if results and not hasattr(session.config, "workerinput"):
        from pytest_fairy.report.allure_adapter import tidy

        tidy(Path(results))


def pytest_unconfigure(config: pytest.Config) -> None:
    if TERM_KEY in config.stash:
        config.stash[TERM_KEY].uninstall()
    if WORKERS_KEY in config.stash:
        config.stash[WORKERS_KEY].close()
    if (lines := config.stash.get(WORKER_LINES_KEY, None)) is not None:
        lines.close()
    if RUN_KEY in config.stash:
        config.stash[RUN_KEY].close()


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto` runs a worker per real device."""
    return config.stash[RUN_KEY].auto_workers()


def pytest_report_header(config: pytest.Config) -> list[str]:
    return [config.stash[RUN_KEY].header(), *font_warning()]


def font_warning() -> list[str]:
    """A header line when no CJK font is installed: every Chinese glyph in the screenshots, the reports and
    what an LLM brain is shown would be a box."""
    from pytest_fairy.perception import fonts

    if fonts.font_path() is not None:
        return []
    return [
        "fairy: WARNING no CJK font found: Chinese text in screenshots (and in what Claude is shown) renders "
        "as boxes; install fonts-wqy-microhei or fonts-noto-cjk (Debian/Ubuntu), or set FAIRY_FONT to a "
        ".ttf/.ttc file"
    ]


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> SpecFile | None:
    run = parent.config.stash[RUN_KEY]
    if run.collects(file_path):
        return SpecFile.from_parent(parent, path=file_path, nodeid=spec_nodeid(parent.config, file_path))
    warn_if_spec(file_path, run.fairy.spec_patterns)
    return None


def spec_nodeid(config: pytest.Config, path: Path) -> str:
    """A spec file's node id: its path relative to the rootdir, with `..` for a file outside it (pytest
    gives such a file an empty one: `::login`, and -rA, --lf and the reports could not tell two specs'
    features apart). pytest shows node ids relative to the invocation directory, as for any test."""
    try:
        return Path(os.path.relpath(path.resolve(), config.rootpath.resolve())).as_posix()
    except ValueError:  # another drive (Windows): no relative path exists
        return path.resolve().as_posix()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    write_summary(terminalreporter)
