"""The one place pytest_fairy reaches into pytest's JUnit XML writer (`_pytest.junitxml`) and its runner.

pytest has no public way to change how a report is recorded in JUnit XML, and an inconclusive item must be
an `<error>` there, not the `<failure>` pytest writes for any failed call; nor does it write the file when
a run ends as a usage error before its session starts. The writer's internals used: its `LogXML` in the
config's stash under `xml_key`; `LogXML.node_reporter(report).nodes`, the XML elements written for a
report; `LogXML.stats`, the counts the `<testsuite>` element reports; `_NodeReporter.append`, which adds
an element to a `<testcase>`; the `xmlpath` option that `--junitxml` sets. And the runner's
`runtestprotocol` (`_pytest.runner`), which runs one item's setup, call and teardown without logging
them, as pytest-rerunfailures uses it (`--fairy-retries`, plugin/retries.py). Checked on pytest 9.2;
tests/plugin/test_pytest_junit.py is the contract, and fails on an upgrade that changes them.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from _pytest.junitxml import xml_key
from _pytest.runner import runtestprotocol

__all__ = ["record_as_error", "record_flaky", "record_usage_error", "runtestprotocol"]


def record_as_error(config: pytest.Config, report: pytest.TestReport, message: str) -> bool:
    """Turn the `<failure>` JUnit's writer just added for `report` into an `<error>` carrying `message`,
    the suite's counts with it. False when no JUnit XML is written, or nothing was recorded as a failure."""
    xml = config.stash.get(xml_key, None)
    if xml is None:
        return False
    node = next((n for n in reversed(xml.node_reporter(report).nodes) if n.tag == "failure"), None)
    if node is None:
        return False
    node.tag = "error"
    node.set("message", message)
    xml.stats["failure"] -= 1
    xml.stats["error"] += 1
    return True


def record_flaky(config: pytest.Config, report: pytest.TestReport, tries: list[str]) -> None:
    """Add to the `<testcase>` JUnit's writer keeps for `report` (a pass) a `<flakyError>` per earlier try
    that failed, as Maven Surefire writes a test that passed on a rerun."""
    xml = config.stash.get(xml_key, None)
    if xml is None:
        return
    reporter = xml.node_reporter(report)
    for met in tries:
        reporter.append(ET.Element("flakyError", message=met, type="inconclusive"))


def record_usage_error(config: pytest.Config, message: str) -> None:
    """A run that ends as a usage error (exit code 4: a bad option, an unreachable device) before pytest's
    JUnit writer could write anything: the `--junitxml` file still says why, as one `<error>`, so a CI that
    reads it shows the reason rather than "no test results". Written by the controller only."""
    path = getattr(config.option, "xmlpath", None)
    if not path or hasattr(config, "workerinput"):
        return
    suite = ET.Element("testsuite", name="pytest", errors="1", failures="0", skipped="0", tests="1")
    case = ET.SubElement(suite, "testcase", classname="pytest_fairy", name="usage error")
    ET.SubElement(case, "error", message=f"usage error: {message}").text = message
    root = ET.Element("testsuites", name="pytest tests")
    root.append(suite)
    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        ET.ElementTree(root).write(target, encoding="utf-8", xml_declaration=True)
    except OSError:
        return  # the usage error itself is what the run says
