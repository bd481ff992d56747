"""Fixtures for the report tests: one real Allure run of the example suites, and the report tooling.

The tooling (Allure 3 from npm, Debian's chromium, Playwright's Python package) lives outside the virtual
environment: the test command installs nothing there. `.ci/run` installs it with the repo's own
`scripts/install-report-tools`; without it, the browser test skips and says how to enable it.
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
TOOLS = Path(os.environ.get("FAIRY_TOOLS_DIR", REPO / ".tools"))
SUITE_SECONDS = 300
# The suites the report is built from: passing items and the two seeded app defects.
SUITES = ("example_suites/notes", "example_defects")
# Two xdist workers, as a device farm runs: environment.properties must still be written once.
WORKERS = 2


@dataclass(frozen=True)
class AllureRun:
    results: Path
    outcome: subprocess.CompletedProcess[str]

    def by_name(self) -> dict[str, dict[str, Any]]:
        found = [json.loads(path.read_text(encoding="utf-8")) for path in self.results.glob("*-result.json")]
        return {result["name"]: result for result in found}


@dataclass(frozen=True)
class ReportTools:
    allure: Path
    chromium: Path


@pytest.fixture(scope="session")
def allure_run(tmp_path_factory: pytest.TempPathFactory) -> AllureRun:
    """The example suites run once with --alluredir on two xdist workers (virtual device, offline brain)."""
    root = tmp_path_factory.mktemp("allure-run")
    results = root / "allure-results"
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}
    outcome = subprocess.run(
        [
            sys.executable, "-m", "pytest", *SUITES, "-p", "no:cacheprovider", "-n", str(WORKERS),
            "--fairy-brain", "offline", "--fairy-artifacts", str(root / "fairy"), "--alluredir", str(results),
        ],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=SUITE_SECONDS, check=False,
    )  # fmt: skip
    if not list(results.glob("*-result.json")):
        pytest.fail(f"the example suites left no Allure results:\n{outcome.stdout[-3000:]}{outcome.stderr}")
    return AllureRun(results, outcome)


@pytest.fixture(scope="session")
def report_tools() -> ReportTools:
    """Allure 3, chromium and playwright, as `scripts/install-report-tools` installs them (CI's .ci/run
    does); without them the test skips, saying how to enable it. Nothing is installed from here."""
    found = _find_tools()
    if found is None:
        pytest.skip(
            f"the report tools (Allure 3 in {TOOLS}, chromium, playwright) are not installed; run "
            f"`bash scripts/install-report-tools` (as .ci/run does) to enable the browser check of the report"
        )
    return found


def _find_tools() -> ReportTools | None:
    allure = TOOLS / "node_modules" / ".bin" / "allure"
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    try:
        importlib.import_module("playwright.sync_api")
    except ImportError:
        return None
    if not allure.exists() or chromium is None:
        return None
    return ReportTools(allure, Path(chromium))
