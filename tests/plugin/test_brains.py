"""The run's kind of brain is made in one place, for items and for logins."""

from __future__ import annotations

from pathlib import Path

from pytest_fairy.brain.offline import OfflineBrain
from pytest_fairy.brain.scripted import ScriptedBrain
from pytest_fairy.plugin.brains import item_brain, login_brain
from pytest_fairy.plugin.options import FairyConfig
from pytest_fairy.replay import CacheMode, CachingBrain, ReplaySettings


def config(brain: str, tmp_path: Path) -> FairyConfig:
    return FairyConfig(brain=brain, replay=ReplaySettings(cache=tmp_path / "cache"))


def test_an_offline_item_records_its_decisions_and_replays_none(tmp_path: Path) -> None:
    made = item_brain(config("offline", tmp_path), "test_food.yaml")
    assert isinstance(made, CachingBrain) and isinstance(made.inner, OfflineBrain)
    assert made.mode is CacheMode.RECORD


def test_a_replay_item_only_replays(tmp_path: Path) -> None:
    made = item_brain(config("replay", tmp_path), "test_food.yaml")
    assert isinstance(made, CachingBrain) and made.inner is None and made.mode is CacheMode.STRICT


def test_a_login_with_steps_follows_them_and_one_with_a_goal_explores_uncached(tmp_path: Path) -> None:
    assert isinstance(login_brain(config("offline", tmp_path), ["tap 登录"]), ScriptedBrain)
    # A replay run has no brain of its own to sign in with: the offline one explores the login's goal.
    assert isinstance(login_brain(config("replay", tmp_path), []), OfflineBrain)


def test_the_cache_tells_the_first_screen_as_the_run_tells_screens(tmp_path: Path) -> None:
    """The recording's plan is keyed by the first screen's state, told by the run's own identifier (its
    ini keys), as the explorer tells every later screen."""
    from dataclasses import replace

    from pytest_fairy.explore.state import StateIdentifier

    identifier = StateIdentifier(long_text_chars=80)
    base = config("offline", tmp_path)
    made = item_brain(replace(base, explorer=replace(base.explorer, identifier=identifier)), "test_food.yaml")
    assert isinstance(made, CachingBrain) and made.identifier is identifier
