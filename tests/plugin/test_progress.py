"""Signs of life without -v (plugin/progress.py): an item under way says how far it got, at most every
`fairy_progress_seconds`; rewritten in place on a terminal, a line each in a CI log; -q and -v print none."""

from __future__ import annotations

import re
import threading

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


# A brain that thinks for a while at its second step, as an LLM on a long screen does.
SLOW_SECOND_STEP = """
import time
from pytest_fairy.brain.offline import OfflineBrain

class Slow(OfflineBrain):
    def decide(self, ctx):
        if ctx.step == 2:
            time.sleep(3.5)
        return super().decide(ctx)

def pytest_fairy_make_brain(config, target, default):
    return Slow()
"""
UNDER_WAY = re.compile(r"  delivery time: step 1/30, \d+ states, 0 loops escaped - on \S.* \(step 2 under way for (\d+)s\)")


@pytest.mark.parametrize("tty", [False, True], ids=["ci-log", "terminal"])
def test_a_long_step_is_not_silent(project: pytest.Pytester, tty: bool) -> None:
    """Between two steps, one of which takes seconds, the item still says where it is, with how long the
    step under way has taken."""
    project.makeconftest(SLOW_SECOND_STEP + (FAKE_TTY if tty else ""))
    result = project.runpytest("-p", "no:xdist", "-o", "fairy_progress_seconds=1")
    result.assert_outcomes(passed=1)
    text = (project.path / "terminal.txt").read_text(encoding="utf-8") if tty else "\n".join(result.outlines)
    beats = [int(m.group(1)) for m in map(UNDER_WAY.search, re.split(r"[\r\n]", text)) if m]
    assert beats and beats == sorted(beats), text


def test_the_heartbeat_stops_with_its_item_even_when_the_exploration_raised(project: pytest.Pytester) -> None:
    project.makeconftest(SLOW_SECOND_STEP.replace("time.sleep(3.5)", "time.sleep(1.5); raise ValueError('bug')"))
    result = project.runpytest("-p", "no:xdist", "-o", "fairy_progress_seconds=1")  # in this process
    assert result.parseoutcomes().get("inconclusive") == 1
    assert not [t for t in threading.enumerate() if t.name == "fairy-progress"], "a heartbeat outlived its item"


def test_under_xdist_each_worker_says_its_progress_on_the_controllers_stream(project: pytest.Pytester) -> None:
    result = project.runpytest_subprocess("-n", "2", "-o", "fairy_progress_seconds=0")
    result.assert_outcomes(passed=1)
    lines = [line for line in result.errlines if re.match(r"\[gw[01]\] delivery time: step \d+/30, ", line)]
    assert len(lines) > 1, result.errlines
    quiet = project.runpytest_subprocess("-n", "2", "-o", "fairy_progress_seconds=0", "-q")
    assert not [line for line in quiet.errlines if "delivery time: step" in line]


@pytest.mark.parametrize("flag", ["-q", "-v"])
def test_quiet_and_verbose_runs_say_no_progress(project: pytest.Pytester, flag: str) -> None:
    result = project.runpytest("-p", "no:xdist", "-o", "fairy_progress_seconds=0", flag)
    result.assert_outcomes(passed=1)
    assert not any(PROGRESS.match(line) for line in result.outlines)
