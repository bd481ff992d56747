"""Signs of life without -v (plugin/progress.py): an item under way says how far it got, at most every
`fairy_progress_seconds`; rewritten in place on a terminal, a line each in a CI log; -q and -v print none."""

from __future__ import annotations

import re

import pytest

from tests.specs import DELIVERY_TIME, FOOD_APP_BLOCK

PROGRESS = re.compile(r"  delivery time: step (\d+)/30, (\d+) states, 0 loops escaped - on \S")
# A terminal, as pytest sees one; what is written to it is kept as written (carriage returns too).
FAKE_TTY = """
import pytest
from _pytest.compat import CallableBool

class Tee:
    def __init__(self, inner):
        self.inner, self.raw = inner, open("terminal.txt", "w", encoding="utf-8")

    def write(self, text):
        self.raw.write(text)
        self.raw.flush()
        return self.inner.write(text)

    def __getattr__(self, name):
        return getattr(self.inner, name)

@pytest.hookimpl(trylast=True)
def pytest_configure(config):
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    reporter.isatty = CallableBool(True)
    reporter._tw._file = Tee(reporter._tw._file)
"""


@pytest.fixture
def project(suite: pytest.Pytester) -> pytest.Pytester:
    (suite.path / "test_food.yaml").write_text(FOOD_APP_BLOCK + DELIVERY_TIME, encoding="utf-8")
    return suite


def test_in_a_ci_log_each_step_past_the_interval_is_a_line_of_its_own(project: pytest.Pytester) -> None:
    result = project.runpytest("-p", "no:xdist", "-o", "fairy_progress_seconds=0")
    result.assert_outcomes(passed=1)
    found = [PROGRESS.match(line) for line in result.outlines]
    steps = [int(m.group(1)) for m in found if m]
    assert steps and steps == list(range(1, len(steps) + 1)), result.outlines
    states = [int(m.group(2)) for m in found if m]
    assert states == sorted(states) and states[-1] > 1, "the states found so far, growing"


def test_nothing_is_said_before_the_interval_has_passed(project: pytest.Pytester) -> None:
    result = project.runpytest("-p", "no:xdist", "-o", "fairy_progress_seconds=600")
    result.assert_outcomes(passed=1)
    assert not any(PROGRESS.match(line) for line in result.outlines), result.outlines


def test_on_a_terminal_the_line_is_rewritten_in_place(project: pytest.Pytester) -> None:
    project.makeconftest(FAKE_TTY)
    result = project.runpytest("-p", "no:xdist", "-o", "fairy_progress_seconds=0")
    result.assert_outcomes(passed=1)
    text = (project.path / "terminal.txt").read_bytes().decode("utf-8")  # carriage returns kept
    rewritten = [part for part in text.split("\r") if PROGRESS.match(part)]
    assert len(rewritten) > 1 and text.count("\n  delivery time: step ") <= 1, text
    assert re.search(r"\n\.", text), "the item's letter starts a line of its own after the status"


@pytest.mark.parametrize("flag", ["-q", "-v"])
def test_quiet_and_verbose_runs_say_no_progress(project: pytest.Pytester, flag: str) -> None:
    result = project.runpytest("-p", "no:xdist", "-o", "fairy_progress_seconds=0", flag)
    result.assert_outcomes(passed=1)
    assert not any(PROGRESS.match(line) for line in result.outlines)
