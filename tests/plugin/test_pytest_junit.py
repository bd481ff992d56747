"""The contract of pytest's JUnit XML writer internals that plugin/pytest_junit.py relies on (checked on
pytest 9.2): on an upgrade that changes them, this fails first, naming what changed."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from _pytest import junitxml

CONFTEST = """
import pytest
from pytest_fairy.plugin.pytest_junit import record_as_error

CONFIG = []


def pytest_configure(config):
    CONFIG.append(config)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_logreport(report):
    try:
        return (yield)
    finally:
        if report.when == "call" and report.failed and "undecided" in report.nodeid:
            record_as_error(CONFIG[0], report, "inconclusive: why")
"""


def test_the_writer_internals_are_where_the_adapter_reaches_for_them() -> None:
    assert isinstance(junitxml.xml_key, pytest.StashKey), "_pytest.junitxml.xml_key is no longer a StashKey"
    assert callable(getattr(junitxml.LogXML, "node_reporter", None)), "LogXML.node_reporter is gone"


def test_a_failure_recorded_as_an_error_is_an_error_in_the_file_and_in_the_suites_counts(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_x="def test_undecided():\n    assert False\n\ndef test_broken():\n    assert False\n")
    pytester.runpytest("--junitxml=out.xml", "-p", "no:cacheprovider")
    suite = ET.parse(pytester.path / "out.xml").getroot().find("testsuite")
    assert suite is not None
    assert (suite.get("failures"), suite.get("errors")) == ("1", "1")
    cases = {case.get("name"): case for case in suite.iter("testcase")}
    error = cases["test_undecided"].find("error")
    assert error is not None and error.get("message") == "inconclusive: why"
    assert cases["test_undecided"].find("failure") is None
    assert cases["test_broken"].find("failure") is not None


def test_the_junit_path_is_the_xmlpath_option(pytester: pytest.Pytester) -> None:
    """record_usage_error finds the file to write where --junitxml puts it."""
    assert pytester.parseconfig("--junitxml=out/j.xml").option.xmlpath == "out/j.xml"
