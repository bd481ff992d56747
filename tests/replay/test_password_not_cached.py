"""Text a brain typed into a password field is not kept in the decision cache: the recording
holds the step without its text, and a replay that reaches it decides anew (cached) or ends inconclusive
saying why (strict). A spec's secrets are kept as their placeholders and replay as usual."""

from __future__ import annotations

import json
from pathlib import Path

from fairy_virtual import VirtualDevice
from pytest_fairy.brain.scripted import ScriptedBrain
from pytest_fairy.explore.explorer import Explorer
from pytest_fairy.explore.mission import Mission
from pytest_fairy.explore.target import Target
from pytest_fairy.explore.verdict import Verdict
from pytest_fairy.replay import CacheMode, CachingBrain, DecisionCache
from pytest_fairy.spec.model import Oracle, OracleKind
from pytest_fairy.spec.secrets import Secrets
from tests.replay.helpers import newest_file

NOTES_APP = Path(__file__).resolve().parents[2] / "example_suites" / "notes"
PASSWORD = "Passw0rd-typed!"
TARGET = Target(app_name="随手记", package="com.example.notes", feature="login", goal="log in", max_steps=8)
MISSION = Mission(done_when=[Oracle(kind=OracleKind.VISIBLE, value="新建笔记")])


def run(brain: CachingBrain, secrets: Secrets | None = None) -> tuple[Verdict, str]:
    result = Explorer(VirtualDevice(NOTES_APP, latency=False), brain, secrets=secrets).explore(
        TARGET, MISSION
    )
    return result.verdict, result.reason


def test_a_typed_password_is_not_recorded_and_a_strict_replay_stops_there(tmp_path: Path) -> None:
    cache = DecisionCache(tmp_path)
    script = ["type 用户名 / 手机号 = qa", f"type 密码 = {PASSWORD}", "tap 登录"]
    assert run(CachingBrain(ScriptedBrain(script), cache, "s.yaml", CacheMode.RECORD))[0] is Verdict.PASSED
    stored = json.loads(newest_file(cache, "s.yaml", "login").read_text(encoding="utf-8"))
    actions = [s["decision"]["action"] for s in stored["steps"] if s.get("decision")]
    typed = [a.get("text") for a in actions if a and a["kind"] == "type"]
    # An ordinary field's text is kept (a replay types it); the password's is not. (The scripted brain's
    # plan quotes its script, which the spec's author wrote: a password to keep goes in as a secret.)
    assert typed == ["qa", None]

    verdict, reason = run(CachingBrain(None, cache, "s.yaml", CacheMode.STRICT))
    assert verdict is Verdict.INCONCLUSIVE
    assert "the text typed into a password field is not kept" in reason


def test_a_secret_typed_as_its_placeholder_is_recorded_so_and_replays(tmp_path: Path) -> None:
    cache = DecisionCache(tmp_path)
    secrets = Secrets({"NOTES_PASSWORD": PASSWORD})
    script = ["type 用户名 / 手机号 = qa", "type 密码 = {{NOTES_PASSWORD}}", "tap 登录"]
    recorded = CachingBrain(ScriptedBrain(script), cache, "s.yaml", CacheMode.RECORD)
    assert run(recorded, secrets)[0] is Verdict.PASSED
    stored = newest_file(cache, "s.yaml", "login").read_text(encoding="utf-8")
    assert PASSWORD not in stored and "{{NOTES_PASSWORD}}" in stored
    assert run(CachingBrain(None, cache, "s.yaml", CacheMode.STRICT), secrets)[0] is Verdict.PASSED
