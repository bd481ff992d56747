"""Generated worlds whose truth is known (tests/worlds): what a failure means, and what its exported
reproduction does, on a seeded sample of them. benchmarks/bench_worlds.py measures hundreds.

- a clean twin's feature is never failed (it works: its path reaches its done-when);
- a failed bug twin names the element its bug sits on (`bug_at`, or one that shows the same defect);
- every exported pytest reproduction, run on its own over the real adb stack, fails on its bug twin and
  passes on its clean twin; so does every exported Maestro flow, run by tests/maestro_flows.py.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from device_helpers import Farm, run_exported
from maestro_flows import FlowFailed, run_flow
from worlds import World, generate, write

from fairy_virtual import VirtualDevice
from pytest_fairy.report.export_maestro import flow_file_name
from pytest_fairy.report.export_pytest import identifier, reproduction_file_name

pytestmark = pytest.mark.wire

# Seeds whose bug twins the offline explorer reaches within the specs' budgets, and some it does not.
SEEDS = (1, 2, 6)


def verdicts(junit: Path) -> dict[tuple[str, str], tuple[str, str]]:
    """(spec's folder, feature) -> (verdict, message), from the run's JUnit XML."""
    found = {}
    for case in ET.parse(junit).getroot().iter("testcase"):
        kinds = {child.tag for child in case}
        verdict = "failed" if "failure" in kinds else "inconclusive" if "error" in kinds else "passed"
        problem = next((c for c in case if c.tag in ("failure", "error")), None)
        message = problem.get("message", "") if problem is not None else ""
        folder = case.get("classname", "").rsplit(".", 2)[0].replace(".", "/")
        found[(folder, case.get("name", ""))] = (verdict, message)
    return found


def test_clean_twins_pass_bugs_fail_at_their_element_and_exports_tell_the_twins_apart(
    pytester: pytest.Pytester, farm: Farm, lock_dir: Path, tmp_path: Path
) -> None:
    worlds_dir = tmp_path / "worlds"
    worlds: dict[str, World] = {}
    for seed in SEEDS:
        world = generate(seed)
        write(world, worlds_dir)
        worlds[f"world{seed}"] = world
    junit = tmp_path / "junit.xml"
    artifacts = tmp_path / "artifacts"
    pytester.runpytest_subprocess(
        *sorted(map(str, worlds_dir.rglob("test_*.yaml"))),
        f"--rootdir={worlds_dir}",
        "-p",
        "no:cacheprovider",
        f"--junitxml={junit}",
        f"--fairy-artifacts={artifacts}",
        "-n",
        "2",
    )
    seen = verdicts(junit)
    assert len(seen) == sum(len(t.spec["features"]) for w in worlds.values() for t in w.twins)

    caught = []
    for (folder, feature), (verdict, message) in seen.items():
        world_name, twin_name = folder.split("/")
        twin = worlds[world_name].twin(twin_name)
        if twin.bug is None:
            assert verdict != "failed", (folder, feature, message)
        elif verdict == "failed":
            at = (twin.bug.bug_at, *twin.bug.also_at)
            assert any(label.casefold() in message.casefold() for label in at), (folder, feature, message)
            caught.append((world_name, twin_name, feature))
    assert caught, "no seeded bug was caught: choose seeds the explorer reaches"

    flows = 0
    for world_name, twin_name, feature in caught:
        name = reproduction_file_name(feature)
        (exported,) = [p for p in artifacts.rglob(name) if f"{world_name}_{twin_name}_" in p.parent.name]
        typed = worlds[world_name].typed(feature, exported.read_text("utf-8"))
        broken = farm.serve(worlds_dir / world_name / twin_name / "app.yaml")
        failing = run_exported(exported, broken, farm, tmp_path / f"{twin_name}-{world_name}-broken", typed)
        assert failing.returncode == 1, failing.stdout + failing.stderr
        assert "AssertionError" in failing.stdout, failing.stdout  # the defect, not the test's own setup
        clean = farm.serve(worlds_dir / world_name / "clean" / "app.yaml")
        passing = run_exported(exported, clean, farm, tmp_path / f"{twin_name}-{world_name}-clean", typed)
        assert passing.returncode == 0, passing.stdout + passing.stderr
        flow = exported.parent / flow_file_name(identifier(feature))
        if flow.is_file():
            flows += 1
            with pytest.raises(FlowFailed):
                run_flow(
                    flow.read_text("utf-8"), VirtualDevice(broken.device.app_model, latency=False), typed
                )
            run_flow(flow.read_text("utf-8"), VirtualDevice(clean.device.app_model, latency=False), typed)
    assert flows, "no caught bug exported a Maestro flow: choose seeds whose defects show as text"
