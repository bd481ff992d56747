"""The login in process: signed in once per device and kept for the next items (the virtual device keeps
the signed-in app data), from steps or from a goal the offline brain explores with placeholders."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from fairy_virtual import VirtualDevice
from pytest_fairy import load_spec
from pytest_fairy.brain.offline import OfflineBrain
from pytest_fairy.brain.scripted import ScriptedBrain
from pytest_fairy.explore.briefing import login_of, mission_of, target_of
from pytest_fairy.explore.decisions import Brain
from pytest_fairy.explore.explorer import Explorer
from pytest_fairy.explore.verdict import Verdict
from pytest_fairy.spec.model import Spec
from pytest_fairy.spec.secrets import Secrets

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "example_login" / "test_notes_login.yaml"
NOTES = ROOT / "example_suites" / "notes" / "app.yaml"
SECRETS = Secrets({"NOTES_USER": "qa.lead", "NOTES_PASSWORD": "s3cret-Pa55"})


def scripted_or_offline(steps: Sequence[str]) -> Brain:
    return ScriptedBrain(steps) if steps else OfflineBrain()


def run_all(spec: Spec, device: VirtualDevice) -> list[str]:
    login = login_of(spec, SECRETS, scripted_or_offline)
    assert login is not None
    verdicts = []
    for feature in spec.features:
        explorer = Explorer(device, OfflineBrain(), login=login)
        result = explorer.explore(target_of(spec, feature), mission_of(spec, feature))
        verdicts.append(result.verdict)
        assert result.tree.path_entries[0].key.startswith("com.example.notes.ui.MainActivity")  # signed in
    assert login.signed_in_count == 1  # once for the three items: the others started from its data
    return verdicts


def test_steps_sign_in_once_per_device_and_every_item_starts_signed_in() -> None:
    device = VirtualDevice(NOTES, latency=False)
    assert run_all(load_spec(SPEC), device) == [Verdict.PASSED] * 3


def test_a_goal_signs_in_with_the_offline_brain_typing_placeholders() -> None:
    spec = load_spec(SPEC)
    goal = spec.login.model_copy(update={"steps": (), "goal": "sign in as ${NOTES_USER} / ${NOTES_PASSWORD}"})
    spec = spec.model_copy(update={"login": goal})
    device = VirtualDevice(NOTES, latency=False)
    typed: list[str] = []
    original = device.type_text
    device.type_text = lambda text: (typed.append(text), original(text))[1]  # type: ignore[method-assign]
    assert run_all(spec, device) == [Verdict.PASSED] * 3
    assert typed[:2] == ["qa.lead", "s3cret-Pa55"]  # the values reached the device, and only there
