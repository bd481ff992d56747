"""Replay and regression: zero-token reruns on unchanged screens, and feature-tree diffs between builds.

- recording.py: the recorded decisions of one feature (the documented JSON format)
- cache.py: the folder of content-addressed recordings, shared and merged by CI machines
- pruning.py: the cache kept to its age and size limits, at the end of every session
- brain.py: the caching brain (record / cached / strict replay) around a live brain
- lookup.py: finding a recorded step, by position on the recorded path, else by screen and progress
- way.py: when the recorded way to a screen is gone, replay stops instead of exploring anew
- provenance.py: saying when an item replayed decisions another brain or model made
- regression.py: the baseline diff of each item, reported and usable as a gate
- settings.py: what --fairy-cache, --fairy-no-cache, the cache limits, --fairy-baseline and
  --fairy-fail-on-lost-screens set
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_fairy.explore.decisions import Brain
from pytest_fairy.explore.state import StateIdentifier
from pytest_fairy.replay.brain import CacheMode, CacheWarning, CachingBrain
from pytest_fairy.replay.cache import CacheError, DecisionCache
from pytest_fairy.replay.recording import Recording, RecordingError, StepKey
from pytest_fairy.replay.settings import ReplaySettings

SPEC_SUFFIXES = frozenset({".yaml", ".yml"})

__all__ = [
    "CacheError",
    "CacheMode",
    "CacheWarning",
    "CachingBrain",
    "DecisionCache",
    "Recording",
    "RecordingError",
    "ReplaySettings",
    "StepKey",
    "brain_with_cache",
    "spec_id",
]


def spec_id(item: pytest.Item) -> str:
    """What a recording belongs to besides its feature: the spec file for spec items
    (`suites/test_food.yaml`), the whole node id for plain tests (two tests may explore one feature)."""
    if Path(item.path).suffix in SPEC_SUFFIXES:
        return item.nodeid.split("::", 1)[0]
    return item.nodeid


def brain_with_cache(
    live: Brain | None,
    settings: ReplaySettings,
    spec: str,
    *,
    replays: bool,
    identifier: StateIdentifier | None = None,
) -> Brain:
    """The brain an item explores with: strict replay without a live brain; else `live` recording its
    decisions, and replaying them first when `replays` (LLM brains) unless the cache is switched off.
    `identifier`: the run's, so the recording's first screen is told as the explorer tells screens."""
    cache = DecisionCache(settings.cache)
    if live is None:
        return CachingBrain(None, cache, spec, CacheMode.STRICT, identifier)
    mode = CacheMode.CACHED if replays and settings.use_cache else CacheMode.RECORD
    return CachingBrain(live, cache, spec, mode, identifier)
