"""SIGTERM (a CI timeout or cancel) ends a run as Ctrl-C does: interrupted, with its JUnit written and the
steps stored so far kept, never killed on the spot."""

from __future__ import annotations

import shutil
import signal
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pytest_fairy.plugin.signals import TermAsInterrupt

REPO = Path(__file__).resolve().parents[2]

# The run sends itself SIGTERM after the second step of its first item, as a CI runner would.
TERMINATES = """
import os, signal

def pytest_fairy_step(item, record):
    if record.step == 2:
        os.kill(os.getpid(), signal.SIGTERM)
"""


def test_sigterm_mid_item_ends_the_run_interrupted_with_junit_written(pytester: pytest.Pytester) -> None:
    shutil.copytree(REPO / "example_suites" / "food", pytester.path / "food")
    pytester.makeconftest(TERMINATES)
    result = pytester.runpytest_subprocess("food", "-p", "no:xdist", "--junitxml=junit.xml", "--fairy-artifacts=.fairy")
    assert result.ret == pytest.ExitCode.INTERRUPTED, result.stdout.str()[-2000:]
    result.stdout.fnmatch_lines(["*KeyboardInterrupt*", "*SIGTERM*"])
    ET.parse(pytester.path / "junit.xml")  # written whole
    assert next(pytester.path.glob(".fairy/sessions/*/*/steps.jsonl")).read_text(encoding="utf-8").strip()


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
