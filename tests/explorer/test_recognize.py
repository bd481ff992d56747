"""Which state a screen shows is told in one place, with the settings the explorer is given."""

from __future__ import annotations

from pathlib import Path

from fairy_virtual import VirtualDevice
from pytest_fairy.brain.offline import OfflineBrain
from pytest_fairy.explore.explorer import Explorer, ExplorerSettings
from pytest_fairy.explore.families import Families
from pytest_fairy.explore.recognize import Recognizer
from pytest_fairy.explore.state import StateIdentifier, identify
from pytest_fairy.explore.target import Target
from pytest_fairy.perception.perceive import perceive

FOOD = Path(__file__).resolve().parents[2] / "example_suites" / "food"
TARGET = Target(app_name="food", package="com.mcdonalds.gma.cn", feature="look around", goal="look", max_steps=3)


def test_the_explorers_state_settings_decide_the_states_it_records() -> None:
    settings = ExplorerSettings(identifier=StateIdentifier(hash_chars=8))
    result = Explorer(VirtualDevice(FOOD, latency=False), OfflineBrain(), settings=settings).explore(TARGET)
    structures = {key.split("|")[1] for key in result.tree.states}
    assert structures and {len(s) for s in structures} == {8}, structures


def test_a_state_is_the_screens_identity_until_its_family_folds_it() -> None:
    device = VirtualDevice(FOOD, latency=False)
    device.launch(TARGET.package)
    screen = perceive(device).screen
    recognizer = Recognizer(StateIdentifier(), Families(limit=1))
    assert recognizer.state_of(screen) == identify(screen)
