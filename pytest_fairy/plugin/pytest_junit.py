"""The one place pytest_fairy reaches into pytest's JUnit XML writer (`_pytest.junitxml`).

pytest has no public way to change how a report is recorded in JUnit XML, and an inconclusive item must be
an `<error>` there, not the `<failure>` pytest writes for any failed call. The writer's internals used:
its `LogXML` in the config's stash under `xml_key`; `LogXML.node_reporter(report).nodes`, the XML elements
written for a report; `LogXML.stats`, the counts the `<testsuite>` element reports. Checked on pytest
9.2; tests/plugin/test_pytest_junit.py is the contract, and fails on an upgrade that changes them.
"""

from __future__ import annotations

import pytest
from _pytest.junitxml import xml_key


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
