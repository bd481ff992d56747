"""The README's test command installs nothing outside the virtual environment: no test or
fixture runs a package manager. Tools a test needs beyond pip (Allure, chromium, a CJK font) come from
`scripts/install-report-tools` and `.ci/run`; without them the test skips and says how to enable it."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
# A package manager run as a command: `npm install`, `apt-get install`, `pip install`, in a string or a
# command list (`["npm", "install", ...]`).
INSTALLS = re.compile(r"""\b(npm|npx|apt-get|apt|pip|pip3|playwright)\b["',\s]+(install|i)\b""")


def test_no_test_or_fixture_runs_a_package_manager() -> None:
    found = []
    for path in sorted((REPO / "tests").rglob("*.py")):
        if path == Path(__file__):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            code = line.split("#", 1)[0]
            if INSTALLS.search(code) and "install-report-tools" not in code:
                found.append(f"{path.relative_to(REPO)}:{number}: {line.strip()}")
    assert not found, found


def test_ci_installs_the_report_tools_and_runs_the_readmes_test_command() -> None:
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "scripts/install-report-tools" in ci
    command = "python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]' && .venv/bin/pytest"
    assert command in ci and command in readme
