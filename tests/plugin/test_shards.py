"""The example suites as pytest-split shards on CI runners (docs/ci.md, docs/workflows/): durations stored
with the durations workflow's command, two shards run with the shard job's command on the virtual device,
their outputs laid out as the report job downloads them and merged by the report job's own steps; and
every command line of the workflows checked against the real CLIs."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import Any
from uuid import uuid4

import pytest
from workflow_commands import (
    PROGRAMS,
    REPO,
    WORKFLOWS,
    Command,
    commands,
    every_command,
    pytest_args,
    workflows,
)

from pytest_fairy.report.allure_environment import AllureEnvironment, read_properties
from pytest_fairy.report.allure_merge import main as allure_merge
from pytest_fairy.report.allure_merge import merged_environment

SECONDS = 300
SPLITS = 2
TOOLS = Path(os.environ.get("FAIRY_TOOLS_DIR", REPO / ".tools"))
MERGING = frozenset({"allure_merge", "junitparser"})  # the report job's programs run here as they are


def environment() -> dict[str, str]:
    """This machine's environment for a CI step: no API key (the offline brain), no GitHub Actions, and the
    virtual environment's `python` and `junitparser` first on the PATH, where an installed package puts them."""
    env = {
        k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_") and not k.startswith("GITHUB_")
    }
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return env


def pytest_line(args: list[str]) -> list[str]:
    return [sys.executable, "-m", "pytest", *args, "-p", "no:cacheprovider", "--fairy-brain", "offline"]


def run(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, cwd=cwd, env=environment(), capture_output=True, text=True, timeout=SECONDS, check=False
    )


def checkout(folder: Path) -> Path:
    """A runner's checkout of a project: the example suites and a pytest.ini, so that pytest's rootdir, where
    node ids and relative folders start, is the checkout, as on a CI runner."""
    shutil.copytree(REPO / "example_suites", folder / "example_suites")
    (folder / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    return folder


def junit_key(nodeid: str) -> tuple[str, str]:
    """A node id as pytest's JUnit XML names its testcase: (classname, name)."""
    path, _, name = nodeid.partition("::")
    return path.replace("/", "."), name


def cases(junit: Path) -> list[tuple[str, str]]:
    return [(c.get("classname", ""), c.get("name", "")) for c in ET.parse(junit).iter("testcase")]


def case_times(junit: Path) -> dict[tuple[str, str], float]:
    return {
        (c.get("classname", ""), c.get("name", "")): float(c.get("time", ""))
        for c in ET.parse(junit).iter("testcase")
    }


@dataclass(frozen=True)
class Shards:
    report_job: Path  # where the report job downloaded the shards' artifacts: shards/shard-N/
    collected: list[str]  # the suite's node ids
    durations: dict[str, float]  # .test_durations, as the durations job stored it
    full_run: Path  # that job's JUnit XML
    outputs: list[str]  # each shard's terminal

    def shard(self, group: int) -> Path:
        return self.report_job / "shards" / f"shard-{group}"


@pytest.fixture(scope="module")
def shards(tmp_path_factory: pytest.TempPathFactory) -> Shards:
    root = tmp_path_factory.mktemp("ci")
    job = checkout(root / "durations-job")
    listed = run(pytest_line(["example_suites", "--collect-only", "-q"]), job)
    collected = [line for line in listed.stdout.splitlines() if "::" in line]
    assert collected, listed.stdout + listed.stderr
    stored = run(pytest_line([*pytest_args("durations.yml", "durations"), "--junitxml=full.xml"]), job)
    assert stored.returncode == 0, stored.stdout[-3000:] + stored.stderr
    runners = []
    for group in range(1, SPLITS + 1):  # each on its runner, at once, with the committed durations file
        runner = checkout(root / f"runner-{group}")
        shutil.copy(job / ".test_durations", runner / ".test_durations")
        command = pytest_line(pytest_args("shards.yml", "shard", group=group, splits=SPLITS))
        runners.append(
            subprocess.Popen(
                command,
                cwd=runner,
                env=environment(),
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
        )
    outputs = [process.communicate(timeout=SECONDS)[0] for process in runners]
    for group, (process, output) in enumerate(zip(runners, outputs, strict=True), 1):
        assert process.returncode == 0, output[-3000:]
        # upload-artifact `path: shard/`, download-artifact `pattern: shard-*`, `path: shards`
        shutil.copytree(root / f"runner-{group}" / "shard", root / "report-job" / "shards" / f"shard-{group}")
    durations = json.loads((job / ".test_durations").read_text(encoding="utf-8"))
    return Shards(root / "report-job", collected, durations, job / "full.xml", outputs)


def report_steps(workflow: str) -> list[dict[str, Any]]:
    """The report job's steps that merge and gate: every command in them is one of MERGING's."""
    path = WORKFLOWS / workflow
    steps: dict[str, list[Command]] = {}
    for command in commands(path, workflows()[path]):
        if command.job == "report" and "if" not in command.step:
            steps.setdefault(command.where, []).append(command)
    return [found[0].step for found in steps.values() if all(c.program in MERGING for c in found)]


@pytest.fixture(scope="module")
def merged(shards: Shards) -> Path:
    """The report job's merge and gate steps, run as GitHub runs a `run:` step, where it downloaded."""
    steps = report_steps("shards.yml")
    assert len(steps) == 2, steps  # the merge, and the gate
    for step in steps:
        ran = run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]], shards.report_job)
        assert ran.returncode == 0, f"{step['run']}\n{ran.stdout}{ran.stderr}"
    return shards.report_job


@pytest.mark.slow
def test_stored_durations_are_each_items_setup_call_and_teardown(shards: Shards) -> None:
    assert sorted(shards.durations) == sorted(shards.collected)
    times = case_times(shards.full_run)
    for nodeid in shards.collected:  # JUnit's testcase time is the same sum, to the millisecond
        assert shards.durations[nodeid] == pytest.approx(times[junit_key(nodeid)], abs=0.001), nodeid


@pytest.mark.slow
def test_the_shards_are_disjoint_and_together_the_whole_suite(shards: Shards) -> None:
    ran = [cases(shards.shard(group) / "junit.xml") for group in range(1, SPLITS + 1)]
    assert all(ran), ran
    assert not set(ran[0]) & set(ran[1]), ran
    assert sorted(ran[0] + ran[1]) == sorted(junit_key(nodeid) for nodeid in shards.collected)
    for group, output in enumerate(shards.outputs, 1):
        assert f"[pytest-split] Running group {group}/{SPLITS}" in output, output


@pytest.mark.slow
def test_the_merged_junit_has_every_item_once_with_its_properties(shards: Shards, merged: Path) -> None:
    assert sorted(cases(merged / "junit.xml")) == sorted(junit_key(nodeid) for nodeid in shards.collected)
    for case in ET.parse(merged / "junit.xml").iter("testcase"):
        properties = {p.get("name"): p.get("value") for p in case.iter("property")}
        assert properties.get("fairy.verdict") == "passed", (case.get("name"), properties)


def attachments(entry: dict[str, Any]) -> list[str]:
    """The files an Allure result (or step) names, its steps' included."""
    named = [a["source"] for a in entry.get("attachments", [])]
    return named + [source for step in entry.get("steps", []) for source in attachments(step)]


@pytest.mark.slow
def test_the_merged_allure_results_have_every_item_once(shards: Shards, merged: Path) -> None:
    folder = merged / "allure-results"
    results = [json.loads(p.read_text(encoding="utf-8")) for p in folder.glob("*-result.json")]
    assert sorted(r["name"] for r in results) == sorted(n.partition("::")[2] for n in shards.collected)
    assert set(Counter(r["historyId"] for r in results).values()) == {1}
    assert set(Counter(r["fullName"] for r in results).values()) == {1}
    missing = [source for r in results for source in attachments(r) if not (folder / source).is_file()]
    assert not missing, missing


@pytest.mark.slow
def test_the_merged_environment_names_both_shards_runs(shards: Shards, merged: Path, tmp_path: Path) -> None:
    each = [read_properties(shards.shard(g) / "allure-results" / "environment.properties") for g in (1, 2)]
    found = read_properties(merged / "allure-results" / "environment.properties")
    assert found["fairy.session"].split(", ") == [e["fairy.session"] for e in each]
    devices = {device for e in each for device in e["device"].split(", ")}
    assert len(devices) == 2 and set(found["device"].split(", ")) == devices, (found, each)
    for key, value in found.items():
        assert len(value.split(", ")) == len(set(value.split(", "))), (key, value)
    # Copied into one folder, one shard's environment is all that is left.
    for group in (1, 2):
        shutil.copytree(shards.shard(group) / "allure-results", tmp_path, dirs_exist_ok=True)
    assert read_properties(tmp_path / "environment.properties")["fairy.session"] == each[1]["fairy.session"]


def test_merged_environments_list_each_value_once_in_the_order_of_the_folders(tmp_path: Path) -> None:
    """Each shard's file as AllureEnvironment writes it, one of them from two xdist workers' devices."""
    for shard, session, devices in (("a", "s1", ["R58M", "R58N"]), ("b", "s2", ["R58N", "R59X"])):
        for device in devices:
            AllureEnvironment(tmp_path / shard, session).add({"device": device})
    found = merged_environment(
        [tmp_path / "a" / "environment.properties", tmp_path / "b" / "environment.properties"]
    )
    assert found == {
        "fairy.session": "s1, s2",
        "pytest_fairy": version("pytest-fairy"),
        "device": "R58M, R58N, R59X",
    }


@pytest.mark.slow
def test_a_merge_refuses_overlapping_shards_and_takes_a_copy_once(
    shards: Shards, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one = shards.shard(1) / "allure-results"
    count = len(list(one.glob("*-result.json")))
    copy = tmp_path / "copy"
    shutil.copytree(one, copy)
    assert allure_merge(["-o", str(tmp_path / "out"), str(one), str(copy)]) == 0
    assert capsys.readouterr().out.strip().endswith(f"{count} results from 2 folders")
    # The same item run in two shards.
    again = tmp_path / "again"
    again.mkdir()
    result = next(one.glob("*-result.json"))
    shutil.copy(result, again / f"{uuid4()}-result.json")
    assert allure_merge(["-o", str(tmp_path / "overlap"), str(one), str(again)]) == 1
    refused = capsys.readouterr().err
    assert "1 items have results in more than one folder" in refused
    assert json.loads(result.read_text(encoding="utf-8"))["fullName"] in refused
    assert not (tmp_path / "overlap").exists()  # nothing written
    # A file of the same name with other bytes.
    changed = tmp_path / "changed"
    shutil.copytree(one, changed)
    attachment = next(changed.glob("*-attachment.txt"))
    attachment.write_text("another run's text", encoding="utf-8")
    assert allure_merge(["-o", str(tmp_path / "differs"), str(one), str(changed)]) == 1
    assert f"{attachment.name} differs between" in capsys.readouterr().err
    # A folder that is not there, and an output folder that is not empty.
    assert allure_merge(["-o", str(tmp_path / "none"), str(one), str(tmp_path / "missing")]) == 1
    assert "missing: no such folder" in capsys.readouterr().err
    assert allure_merge(["-o", str(copy), str(one)]) == 1
    assert "is not empty" in capsys.readouterr().err


@pytest.mark.slow
def test_the_gate_fails_on_an_inconclusive_item(shards: Shards, tmp_path: Path) -> None:
    """`junitparser verify`, the report job's gate, reads an inconclusive item's `<error>` as a failure."""
    (tmp_path / "shards" / "shard-1").mkdir(parents=True)
    shutil.copy(shards.shard(1) / "junit.xml", tmp_path / "shards" / "shard-1" / "junit.xml")
    out = tmp_path / "shards" / "shard-2" / "junit.xml"
    project = checkout(tmp_path / "runner")
    budget = run(
        pytest_line(["example_suites/notes", "-k", "login", "--fairy-max-steps", "1", f"--junitxml={out}"]),
        project,
    )
    assert budget.returncode == 1, budget.stdout[-3000:]
    error = next(ET.parse(out).iter("error"))
    assert error.get("message", "").startswith("inconclusive: "), error.attrib
    path = WORKFLOWS / "shards.yml"
    merge, gate = [c for c in commands(path, workflows()[path]) if c.program == "junitparser"]
    assert run(list(merge.words), tmp_path).returncode == 0
    assert len(cases(tmp_path / "junit.xml")) == len(cases(shards.shard(1) / "junit.xml")) + 1
    assert run(list(gate.words), tmp_path).returncode == 1


def allure_cli() -> Path | None:
    """Allure 3 as scripts/install-report-tools installs it (tests/report finds it there too)."""
    found = TOOLS / "node_modules" / ".bin" / "allure"
    return found if found.exists() else None


@pytest.mark.slow
def test_the_report_job_builds_one_allure_report(shards: Shards, merged: Path) -> None:
    allure = allure_cli()
    if allure is None:
        pytest.skip(f"Allure 3 is not in {TOOLS}: run scripts/install-report-tools to build the report here")
    (generate,) = (c for c in every_command() if c.program == "allure" and c.where.startswith("shards.yml"))
    built = run([str(allure), *generate.args], merged)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr
    report = merged / generate.args[generate.args.index("-o") + 1]
    stats = json.loads((report / "summary.json").read_text(encoding="utf-8"))["stats"]
    assert stats == {"total": len(shards.collected), "passed": len(shards.collected)}, stats
    shown = json.loads((report / "widgets" / "allure_environment.json").read_text(encoding="utf-8"))
    devices = next(entry["values"] for entry in shown if entry["name"] == "device")
    assert len(devices) == 1 and len(devices[0].split(", ")) == 2, shown


def test_the_workflows_use_each_cli_checked_here() -> None:
    for path, workflow in workflows().items():
        assert set(workflow) >= {"name", "jobs"} and (True in workflow or "on" in workflow), path
    assert {c.program for c in every_command()} - {None} == set(PROGRAMS.values())


def test_every_pytest_line_parses_with_pytests_own_parser(pytester: pytest.Pytester) -> None:
    """With every plugin installed (pytest_fairy, pytest-split, xdist, allure-pytest): an option that does
    not exist, or a value missing, is a UsageError."""
    for command in (c for c in every_command() if c.program == "pytest"):
        config = pytester.parseconfig(*command.args)
        if "--splits" in command.args:
            assert (config.option.splits, config.option.group) == (4, 2), command.where


def options_in(help_text: str) -> set[str]:
    return set(re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", re.sub(r"\x1b\[[0-9;]*m", "", help_text)))


def used_options(command: Command) -> list[str]:
    return [arg.split("=", 1)[0] for arg in command.args if arg.startswith("-")]


def test_every_merge_command_uses_options_its_help_lists() -> None:
    checked = 0
    for command in (c for c in every_command() if c.program in MERGING):
        start = list(command.words[: len(command.words) - len(command.args)])
        sub = [command.args[0]] if command.program == "junitparser" else []
        shown = run([*start, *sub, "--help"], REPO)
        assert shown.returncode == 0, shown.stderr
        unknown = set(used_options(command)) - options_in(shown.stdout)
        assert not unknown, f"{command.where}: {' '.join(command.words)}: no {sorted(unknown)}"
        checked += 1
    assert checked >= 6


def test_every_allure_command_uses_options_its_help_lists() -> None:
    allure = allure_cli()
    if allure is None:
        pytest.skip(f"Allure 3 is not in {TOOLS}: run scripts/install-report-tools to check its options")
    for command in (c for c in every_command() if c.program == "allure"):
        shown = run([str(allure), command.args[0], "--help"], REPO)
        unknown = set(used_options(command)) - options_in(shown.stdout)
        assert not unknown, f"{command.where}: {' '.join(command.words)}: no {sorted(unknown)}"


def test_docs_ci_quotes_the_workflows_as_they_are() -> None:
    text = (REPO / "docs" / "ci.md").read_text(encoding="utf-8")
    # A link to the file, the rest of its paragraph, then the quote.
    quoted = re.findall(
        r"\(workflows/([\w.-]+\.yml)\)[^\n]*\n(?:[^\n]+\n)*\n```yaml\n(.*?)```", text, flags=re.S
    )
    assert {name for name, _ in quoted} == {p.name for p in WORKFLOWS.glob("*.yml")}, quoted
    for name, block in quoted:
        assert block in (WORKFLOWS / name).read_text(encoding="utf-8"), f"docs/ci.md quotes {name} otherwise"
    whole = dict(quoted)["shards.yml"]
    assert whole == (WORKFLOWS / "shards.yml").read_text(encoding="utf-8")
