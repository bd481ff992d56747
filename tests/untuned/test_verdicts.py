"""The gate on apps the explorer was not tuned for: every feature of tests/untuned gets the verdict
expected.yaml gives it, a seeded bug with evidence that names its step, in any item order and under xdist.

Clean twins must pass (a red gate on a working app is the costliest mistake a gate makes); each seeded
bug must fail, its message naming the element whose action shows the defect (`bug_at`).
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
# The exploration summary's line per item: `tests/untuned/x/test_x.yaml::feature: failed: 8 steps, ...`.
SUMMARY = re.compile(
    r"^tests/untuned/(\S+\.yaml)::(.+?): (passed|failed|inconclusive): \d+ steps", re.MULTILINE
)
REVERSE = """
def pytest_collection_modifyitems(items):
    items.reverse()
"""


def run(pytester: pytest.Pytester, *args: str) -> tuple[dict[tuple[str, str], str], str]:
    """Explore every untuned spec; each item's verdict, and the whole output."""
    result = pytester.runpytest_subprocess(
        *map(str, SPECS),
        f"--rootdir={ROOT}",
        "-p",
        "no:cacheprovider",
        f"--fairy-artifacts={pytester.path / '.fairy'}",
        "-rA",
        *args,
    )
    output = result.stdout.str()
    verdicts = {(spec, feature): verdict for spec, feature, verdict in SUMMARY.findall(output)}
    return verdicts, output


def expected_verdicts() -> dict[tuple[str, str], str]:
    return {
        (spec, feature): want["verdict"]
        for spec, features in EXPECTED.items()
        for feature, want in features.items()
    }


def test_every_untuned_feature_gets_its_expected_verdict_with_evidence(pytester: pytest.Pytester) -> None:
    verdicts, output = run(pytester)
    assert verdicts == expected_verdicts(), output[-3000:]
    for spec, features in EXPECTED.items():
        for feature, want in features.items():
            if want["verdict"] != "failed":
                continue
            # The failure's reason (or the step it points at) names the element whose action shows the defect.
            assert want["bug_at"] in _failure(output, spec, feature), (spec, feature)


def test_the_same_verdicts_in_reverse_order_and_under_xdist(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(reverse_items=REVERSE)
    pytester.syspathinsert()
    verdicts, output = run(pytester, "-p", "reverse_items", "-n", "2")
    assert verdicts == expected_verdicts(), output[-3000:]


def _failure(output: str, spec: str, feature: str) -> str:
    """The item's failure: its reason, the `at spec:line, feature ...` line, and the step it was seen at."""
    lines = output.splitlines()
    at = next(
        i
        for i, line in enumerate(lines)
        if line.startswith(f"at tests/untuned/{spec}:") and f"'{feature}'" in line
    )
    assert lines[at - 1].startswith("app defect: "), lines[at - 1]
    return "\n".join(lines[at - 1 : at + 2])
