"""SIGTERM (a CI timeout or cancel) ends a run as Ctrl-C does, never killed on the spot: the item under way
ends inconclusive, saying so everywhere, with the steps stored so far kept; then the run stops."""

from __future__ import annotations

import json
import shutil
import signal
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pytest_fairy.plugin.signals import TermAsInterrupt

REPO = Path(__file__).resolve().parents[2]

# The run sends itself SIGTERM (or SIGINT) after the second step of its first item, as a CI runner would.
# SIGINT is Ctrl-C as a terminal delivers it: a shell starting this suite in the background (`cmd &`)
# leaves SIGINT ignored in every process below it, and Python then keeps it ignored.
TERMINATES = """
import os, signal

signal.signal(signal.SIGINT, signal.default_int_handler)

def pytest_fairy_step(item, record):
    if record.step == 2:
        os.kill(os.getpid(), signal.SIGTERM)
"""


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "Ctrl-C"])
def test_a_stop_mid_item_ends_that_item_inconclusive_everywhere_and_then_the_run(
    pytester: pytest.Pytester, signum: int
) -> None:
    """The item under way is inconclusive, saying it was interrupted, in the JUnit XML, result.json and
    Allure (never passed), with its steps kept; the run then stops, interrupted, the next items not run."""
    shutil.copytree(REPO / "example_suites" / "food", pytester.path / "food")
    pytester.makeconftest(TERMINATES.replace("SIGTERM", signal.Signals(signum).name))
    result = pytester.runpytest_subprocess(
        "food", "-p", "no:xdist", "--junitxml=junit.xml", "--fairy-artifacts=.fairy", "--alluredir=allure"
    )
    assert result.ret == pytest.ExitCode.INTERRUPTED, result.stdout.str()[-2000:]
    why = "SIGTERM: the run was asked to stop" if signum == signal.SIGTERM else "Ctrl-C"
    (case,) = ET.parse(pytester.path / "junit.xml").getroot().iter("testcase")
    (error,) = case.iter("error")
    assert case.get("name") and error.get("message", "").startswith(
        f"inconclusive: interrupted ({why}) after step 2"
    )
    (item,) = (p.parent for p in pytester.path.glob(".fairy/sessions/*/*/result.json"))
    document = json.loads((item / "result.json").read_text(encoding="utf-8"))
    assert document["verdict"] == "inconclusive" and document["reason"].startswith("interrupted")
    assert len((item / "steps.jsonl").read_text(encoding="utf-8").splitlines()) == 2
    (allure,) = (
        json.loads(p.read_text(encoding="utf-8")) for p in (pytester.path / "allure").glob("*-result.json")
    )
    assert allure["status"] == "broken" and "interrupted" in allure["statusDetails"]["message"]


def test_a_sigterm_handler_set_by_someone_else_is_kept() -> None:
    def theirs(signum: int, frame: object) -> None:
        pass

    previous = signal.signal(signal.SIGTERM, theirs)
    try:
        term = TermAsInterrupt()
        term.install()
        assert signal.getsignal(signal.SIGTERM) is theirs and not term.installed
    finally:
        signal.signal(signal.SIGTERM, previous)


# Under xdist the worker exploring "delivery ordering" sends SIGTERM to the controller (its parent) at step 2,
# once: a second SIGTERM would stop the controller at once.
TERMINATES_CONTROLLER = """
import os, signal

def pytest_fairy_step(item, record):
    if record.step == 2 and item.name == "delivery ordering":
        os.kill(os.getppid(), signal.SIGTERM)
"""


def test_sigterm_to_the_xdist_controller_ends_each_workers_item_and_then_the_run(
    pytester: pytest.Pytester,
) -> None:
    """The controller schedules nothing more and passes the signal on: every item under way ends
    inconclusive, named in the JUnit XML (no nameless <testcase/>), and the run stops interrupted."""
    shutil.copytree(REPO / "example_suites" / "food", pytester.path / "food")
    pytester.makeconftest(TERMINATES_CONTROLLER)
    result = pytester.runpytest_subprocess(
        "food", "-n", "2", "--junitxml=junit.xml", "--fairy-artifacts=.fairy"
    )
    assert result.ret == pytest.ExitCode.INTERRUPTED, result.stdout.str()[-2000:]
    cases = {case.get("name"): case for case in ET.parse(pytester.path / "junit.xml").getroot().iter("testcase")}
    assert "delivery ordering" in cases and len(cases) < 4 and all(cases), result.stdout.str()[-2000:]
    for name, case in cases.items():  # never passed; an item interrupted mid-exploration says so
        (error,) = case.iter("error")
        message = error.get("message", "")
        # The other worker's item may have been in its setup when the signal came: xdist calls that a crash.
        assert message.startswith("inconclusive: interrupted (SIGTERM") or (
            name != "delivery ordering" and "crashed while running" in message
        ), (name, message)
    verdicts = [
        json.loads(p.read_text(encoding="utf-8"))["verdict"]
        for p in pytester.path.glob(".fairy/sessions/*/*/result.json")
    ]
    assert "passed" not in verdicts and verdicts.count("inconclusive") >= 1
