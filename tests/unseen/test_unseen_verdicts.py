"""The gate on apps written from the docs alone: what a failure must mean, on every spec of tests/unseen.

`expected.yaml` was written before the first run and is kept as written; where the product does not reach
a verdict it asks for, the run is inconclusive (benchmarks/bench_verdicts.py --suite unseen counts them).
What must hold on every run:
- a clean twin is never failed: a red gate on a working app is the costliest mistake a gate makes;
- a failure names its app's seeded bug: the element expected.yaml gives as the bug's `bug_at`, in its
  reason or the step it was seen at.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
EXPECTED: dict[str, dict[str, dict[str, str]]] = yaml.safe_load((HERE / "expected.yaml").read_text("utf-8"))
SPECS = sorted(HERE.glob("*/test_*.yaml"))
SUMMARY = re.compile(r"^tests/unseen/(\S+\.yaml)::(.+?): (passed|failed|inconclusive): \d+ steps", re.MULTILINE)
# A failure's lines in the FAILURES section: its reason, where, and the step it was seen at.
FAILURE = re.compile(r"^_+ feature: (.+?) _+\n((?:(?!_{5}|-{5}).*\n)+)", re.MULTILINE)
# The drive_login specs sign in with these (any non-empty values open the app's drive).
SIGN_IN = {"UNSEEN_DRIVE_USER": "zhang.wei", "UNSEEN_DRIVE_PASSWORD": "Dr1ve-2024"}


def test_no_clean_twin_fails_and_every_failure_names_its_apps_bug(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in SIGN_IN.items():
        monkeypatch.setenv(name, value)
    result = pytester.runpytest_subprocess(
        *map(str, SPECS),
        f"--rootdir={ROOT}",
        "-p",
        "no:cacheprovider",
        f"--fairy-artifacts={pytester.path / '.fairy'}",
        "-n",
        "2",
    )
    output = result.stdout.str()
    verdicts = {(spec, feature): verdict for spec, feature, verdict in SUMMARY.findall(output)}
    assert len(verdicts) == sum(len(features) for features in EXPECTED.values()), output[-3000:]
    failed = [(spec, feature) for (spec, feature), verdict in verdicts.items() if verdict == "failed"]
    assert not [spec for spec, _ in failed if spec.split("/")[0].endswith("_clean")], output[-3000:]
    for spec, feature in failed:
        bugs = [want["bug_at"] for want in EXPECTED[spec].values() if want.get("bug_at")]
        failure = _failure(output, spec, feature)
        assert any(bug in failure for bug in bugs), (spec, feature, failure)


def _failure(output: str, spec: str, feature: str) -> str:
    """The item's failure block: its reason, `at tests/unseen/<spec>:<line>, feature ...`, the step."""
    for name, block in FAILURE.findall(output):
        if name == feature and f"at tests/unseen/{spec}:" in block and "app defect: " in block:
            return block
    raise AssertionError(f"no failure block for {spec}::{feature}")
