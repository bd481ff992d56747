"""Each item starts from the same app: `reset: data` (the virtual device's default) clears what earlier
items left behind, so an item's steps do not depend on the order items run in; `reset: none` keeps it."""

from __future__ import annotations

import re
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from fairy_virtual import VirtualDevice
from pytest_fairy.explore.launch import resets_data
from pytest_fairy.explore.target import Target

NOTES = Path(__file__).resolve().parents[2] / "example_suites" / "notes"


def steps_of(result: pytest.RunResult, item: str) -> int:
    found = re.search(rf"::{re.escape(item)}: passed: (\d+) steps", result.stdout.str())
    assert found, result.stdout.str()[-2000:]
    return int(found.group(1))


@pytest.fixture
def notes(pytester: pytest.Pytester) -> pytest.Pytester:
    shutil.copytree(NOTES, pytester.path / "notes")
    pytester.makeini("[pytest]\nfairy_artifacts = .fairy\n")
    return pytester


def run(notes: pytest.Pytester, *args: str) -> pytest.RunResult:
    return notes.runpytest("notes", "-p", "no:cacheprovider", *args)


def test_an_item_takes_the_same_steps_alone_and_after_the_login_item(notes: pytest.Pytester) -> None:
    after_login = run(notes, "-k", "login or write")
    alone = run(notes, "-k", "write")
    assert steps_of(after_login, "write a note") == steps_of(alone, "write a note")


def test_with_reset_none_the_app_keeps_the_login_of_the_item_before(notes: pytest.Pytester) -> None:
    spec = notes.path / "notes" / "test_notes.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("defaults:\n", "defaults:\n  reset: none\n", 1),
                    encoding="utf-8")
    after_login = run(notes, "-k", "login or write")
    alone = run(notes, "-k", "write")
    # Logged in by the item before, the note item skips the login wall: fewer steps than alone.
    assert steps_of(after_login, "write a note") < steps_of(alone, "write a note")


def test_clearing_app_data_forgets_even_what_survives_a_restart() -> None:
    device = VirtualDevice(NOTES / "app.yaml", latency=False)
    device.launch("com.example.notes")
    device._engine.app.ui.variables["logged_in"] = True  # as a login would leave it
    device.stop("com.example.notes")
    assert device.variables["logged_in"] is True  # persists across a force stop, as SharedPreferences do
    device.clear_app_data("com.example.notes")
    assert device.variables["logged_in"] is False


def test_a_reset_that_is_not_data_or_none_is_a_spec_error_naming_the_line(notes: pytest.Pytester) -> None:
    spec = notes.path / "notes" / "test_notes.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("defaults:\n", "defaults:\n  reset: wipe\n", 1),
                    encoding="utf-8")
    result = run(notes)
    result.stdout.fnmatch_lines(
        ["*test_notes.yaml:10: wrong type for 'reset' in defaults: expected 'data' or 'none', got text 'wipe'*"]
    )
    assert result.ret != 0


def test_only_a_test_bed_has_its_data_cleared_when_the_spec_does_not_say() -> None:
    """The virtual device says it is a test bed (`TestBed`); a phone's data is the tester's, kept."""

    class Phone:  # a device of the Device protocol, none of the test bed's
        serial = "R58M"

    target = Target(app_name="Notes", package="com.example.notes", feature="f", goal="g")
    device = VirtualDevice(NOTES / "app.yaml", latency=False)
    assert resets_data(target, device)
    assert not resets_data(target, Phone())  # type: ignore[arg-type]
    assert resets_data(replace(target, reset="data"), Phone())  # type: ignore[arg-type]
    assert not resets_data(replace(target, reset="none"), device)
