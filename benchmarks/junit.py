"""Reading a pytest_fairy run's JUnit XML, as the verdict benchmarks do (they run as `python
benchmarks/NAME.py`, so this module is importable as `junit`): `<failure>` is failed (an app defect),
`<error>` inconclusive, `<skipped>` skipped, anything else passed."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

PROBLEMS = {"failure": "failed", "error": "inconclusive", "skipped": "skipped"}


def verdicts(junit: Path) -> dict[tuple[str, str], tuple[str, str]]:
    """(classname, test name) -> (verdict, the failure's or error's message) for every testcase."""
    found = {}
    for case in ET.parse(junit).getroot().iter("testcase"):
        problem = next((child for child in case if child.tag in PROBLEMS), None)
        verdict = PROBLEMS[problem.tag] if problem is not None else "passed"
        message = (problem.get("message") or "") if problem is not None else ""
        found[(case.get("classname", ""), case.get("name", ""))] = (verdict, message)
    return found
