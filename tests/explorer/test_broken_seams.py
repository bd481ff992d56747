"""Which failed seams end a run as the infrastructure's fault (`step.broken`): `--fairy-retries` runs only
those items again."""

from __future__ import annotations

import pytest

from pytest_fairy.devices.protocol import DeviceLost
from pytest_fairy.errors import BrainError, FairyError, HookError, PerceptionError
from pytest_fairy.explore.decisions import NoRecordedDecision
from pytest_fairy.explore.step import broken
from pytest_fairy.explore.verdict import Verdict
from pytest_fairy.replay.way import WayGone


@pytest.mark.parametrize(
    ("error", "infrastructure"),
    [
        (DeviceLost("emulator-5554", "dump the screen", "it is gone"), True),
        (BrainError("the API did not answer (503)"), True),
        (PerceptionError("the dump is not XML"), False),  # the same screen would be unreadable again
        (HookError("the project's hook raised"), False),
        # The recording has no decision for the screen: another try replays the same recording.
        (NoRecordedDecision("no recorded decision for this screen"), False),
        (WayGone("the recorded way is gone"), False),
    ],
    ids=["device lost", "brain unavailable", "unreadable screen", "project hook", "replay miss", "way gone"],
)
def test_a_lost_device_or_brain_is_the_infrastructures_fault_nothing_else(
    error: FairyError, infrastructure: bool
) -> None:
    ending = broken(error)
    assert ending.verdict is Verdict.INCONCLUSIVE and ending.reason == error.as_reason()
    assert ending.infrastructure is infrastructure
