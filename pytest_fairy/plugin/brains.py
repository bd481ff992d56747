"""The run's kind of brain (`--fairy-brain`), made in one place: an item's, with the decision cache in
front of it, and a login's. A project's `pytest_fairy_make_brain` hook may still choose another per item."""

from __future__ import annotations

from collections.abc import Sequence

from pytest_fairy.brain.offline import OfflineBrain
from pytest_fairy.brain.scripted import ScriptedBrain
from pytest_fairy.explore.decisions import Brain
from pytest_fairy.plugin.options import FairyConfig
from pytest_fairy.replay import brain_with_cache


def live_brain(config: FairyConfig) -> Brain | None:
    """A new brain of the run's kind that decides for itself; None for `replay`, which only replays."""
    if config.brain == "replay":
        return None
    if config.brain == "claude":
        # Imported here: the anthropic SDK takes seconds to import, and an offline run never needs it.
        from pytest_fairy.brain.claude import ClaudeBrain

        return ClaudeBrain(config.claude_settings())
    return OfflineBrain()


def item_brain(config: FairyConfig, spec: str) -> Brain:
    """A fresh brain for one item, its decisions recorded in the decision cache of `spec`; an LLM brain
    replays them first where nothing changed, a `replay` run only replays."""
    return brain_with_cache(
        live_brain(config),
        config.replay,
        spec,
        replays=config.brain == "claude",
        identifier=config.explorer.identifier,
    )


def login_brain(config: FairyConfig, steps: Sequence[str]) -> Brain:
    """A login's: its steps done in order by the scripted brain, else its goal explored by the run's kind
    of brain (the offline one in a `replay` run), without the decision cache: a login's decisions are not a
    feature's."""
    if steps:
        return ScriptedBrain(steps)
    return live_brain(config) or OfflineBrain()
