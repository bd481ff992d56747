"""What allure-pytest writes is tidied once the session is over (pytest_fairy/report/allure_adapter.py): no
phantom `<fixture>::<lambda>` teardown of unknown status, no host / thread labels, the failure's text once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pytest_fairy.report.allure_adapter import tidy


def load(folder: Path, pattern: str) -> list[dict]:
    return [json.loads(path.read_text(encoding="utf-8")) for path in folder.glob(pattern)]


def test_a_real_run_under_xdist_has_no_phantom_teardowns_no_host_labels_and_says_its_failure_once(
    allure_run: Any,
) -> None:
    containers = load(allure_run.results, "*-container.json")
    afters = [a for c in containers for a in c.get("afters", [])]
    assert all("status" in a for a in afters), [a["name"] for a in afters if "status" not in a]
    # pytest_fairy's own fixtures are not shown before an item's first step.
    shown = [e["name"] for c in containers for part in ("befores", "afters") for e in c.get(part, [])]
    assert not [name for name in shown if name.startswith("fairy_") or name == "pytestconfig"], shown
    results = load(allure_run.results, "*-result.json")
    assert not [label for r in results for label in r["labels"] if label["name"] in ("host", "thread")]
    failed = [r for r in results if r["status"] == "failed"]
    assert failed
    for result in failed:
        message, trace = result["statusDetails"]["message"], result["statusDetails"]["trace"]
        assert message.startswith("app defect: "), message
        assert "\n(seen after step " in message  # the step to read the report at
        assert message.splitlines()[0] not in trace and trace.startswith("at example_defects/")
        # The step that showed the defect carries the item's error, so Allure 3 shows it there.
        failing = [s for s in result["steps"] if s["status"] == "failed"]
        assert failing[-1]["statusDetails"] == result["statusDetails"]


def test_tidy_keeps_what_it_does_not_know(tmp_path: Path) -> None:
    container = {
        "uuid": "c",
        "afters": [
            {"name": "fairy_device::<lambda>"},
            {"name": "fairy_device::1", "status": "passed"},
            {"name": "mine::<lambda>", "status": "failed"},
        ],
        "befores": [
            {"name": "fairy_config", "status": "passed"},
            {"name": "pytestconfig", "status": "passed"},
            {"name": "fairy_device", "status": "broken", "statusDetails": {"message": "no device"}},
            {"name": "my_login", "status": "passed"},
        ],
    }
    (tmp_path / "c-container.json").write_text(json.dumps(container), encoding="utf-8")
    result = {
        "labels": [
            {"name": "host", "value": "vm"},
            {"name": "thread", "value": "1-Main"},
            {"name": "epic", "value": "x"},
        ],
        "statusDetails": {"message": "AssertionError: a user's own assert", "trace": "x.py:1"},
    }
    (tmp_path / "r-result.json").write_text(json.dumps(result), encoding="utf-8")
    (tmp_path / "broken-result.json").write_text("{not json", encoding="utf-8")
    assert tidy(tmp_path) == 2
    afters = load(tmp_path, "*-container.json")[0]["afters"]
    # pytest's own finalizer goes, and pytest_fairy's fixtures that passed; a lambda of the project's that
    # ran and failed stays, and so do a fixture of the project's and one of ours that failed.
    assert [a["name"] for a in afters] == ["mine::<lambda>"]
    befores = load(tmp_path, "*-container.json")[0]["befores"]
    assert [b["name"] for b in befores] == ["fairy_device", "my_login"]
    kept = json.loads((tmp_path / "r-result.json").read_text(encoding="utf-8"))
    assert kept["labels"] == [{"name": "epic", "value": "x"}]
    assert kept["statusDetails"] == result["statusDetails"]  # not ours: untouched
    assert (tmp_path / "broken-result.json").read_text(encoding="utf-8") == "{not json"
