"""Each item's LLM calls and the decisions it replayed from the decision cache, in a real JUnit XML file and
a real Allure result: a first Claude run asks for everything, an unchanged rerun replays everything."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.claude.fake_api import FakeMessagesAPI
from tests.replay.helpers import FAKE_KEY, delivery_time_model


def junit_properties(path: Path) -> dict[str, str]:
    (case,) = ET.parse(path).getroot().iter("testcase")
    return {p.get("name", ""): p.get("value", "") for p in case.iter("property")}


def allure_parameters(folder: Path) -> dict[str, str]:
    (result,) = [json.loads(p.read_text(encoding="utf-8")) for p in folder.glob("*-result.json")]
    return {p["name"]: p["value"] for p in result.get("parameters", [])}


def test_llm_calls_and_replayed_decisions_are_in_junit_and_allure(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    with FakeMessagesAPI(responder=delivery_time_model) as api:
        monkeypatch.setenv("ANTHROPIC_API_KEY", FAKE_KEY)
        monkeypatch.setenv("ANTHROPIC_BASE_URL", api.url)
        for run in ("first", "again"):
            result = project.runpytest(f"--junitxml={run}.xml", f"--alluredir=allure-{run}")
            result.assert_outcomes(passed=1)

    first, again = junit_properties(project.path / "first.xml"), junit_properties(project.path / "again.xml")
    # The plan, three decisions, the judgement and the summary: asked the first time, replayed the second.
    assert (first["fairy.llm_calls"], first["fairy.replayed"]) == ("6", "0")
    assert (again["fairy.llm_calls"], again["fairy.replayed"]) == ("0", "6")
    assert "fairy.tokens" in first and "fairy.tokens" not in again

    shown_first = allure_parameters(project.path / "allure-first")
    shown_again = allure_parameters(project.path / "allure-again")
    assert (shown_first["LLM calls"], shown_first["replayed"]) == ("6", "0")
    assert (shown_again["LLM calls"], shown_again["replayed"]) == ("0", "6")


def test_an_offline_run_says_it_made_no_llm_call(project: pytest.Pytester) -> None:
    project.runpytest("--junitxml=offline.xml").assert_outcomes(passed=1)
    properties = junit_properties(project.path / "offline.xml")
    assert properties["fairy.llm_calls"] == "0" and properties["fairy.replayed"] == "0"
