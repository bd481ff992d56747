"""The exported reproduction of a broken tests/goals app, run on its own over the real adb stack: it fails
on the broken app and passes on the working one (a regression test that can be committed)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from device_helpers import Farm, run_exported

from pytest_fairy.report.export_pytest import reproduction_file_name

pytestmark = pytest.mark.wire

GOALS = Path(__file__).resolve().parents[1] / "goals"
# (app, feature) whose broken twin fails
BROKEN = [
    ("fruit_search", "search for a fruit"),
    ("night_reader", "dark mode stays on"),
    ("night_reader", "large text stays on"),
    ("signup_form", "empty form shows the errors"),
    ("mail_drawer", "read the archived booking"),
    ("terms_page", "accept the user agreement"),
]


@pytest.mark.parametrize(("app", "feature"), BROKEN, ids=[f"{a}-{f}" for a, f in BROKEN])
def test_the_exported_reproduction_fails_on_the_broken_app_and_passes_on_the_working_one(
    pytester: pytest.Pytester, farm: Farm, lock_dir: Path, tmp_path: Path, app: str, feature: str
) -> None:
    suite = tmp_path / "suite"
    for name in (app, f"{app}_broken"):
        shutil.copytree(GOALS / name, suite / name)
    artifacts = tmp_path / "artifacts"
    spec = suite / f"{app}_broken" / f"test_{app}_broken.yaml"
    result = pytester.runpytest_subprocess(
        f"{spec}::{feature}", f"--rootdir={suite}", "-p", "no:cacheprovider", f"--fairy-artifacts={artifacts}"
    )
    result.assert_outcomes(failed=1)
    (exported,) = artifacts.rglob(reproduction_file_name(feature))
    broken = farm.serve(suite / f"{app}_broken" / "app.yaml")
    failing = run_exported(exported, broken, farm, tmp_path / "on-broken")
    assert failing.returncode == 1, failing.stdout + failing.stderr
    working = farm.serve(suite / app / "app.yaml")
    passing = run_exported(exported, working, farm, tmp_path / "on-working")
    assert passing.returncode == 0, passing.stdout + passing.stderr
