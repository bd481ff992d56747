"""The generated worlds themselves: every app loads as the product loads it, every feature's path
reaches its done-when on the clean twin, every bug twin shows its defect on that path and keeps its
other features working, and a seed always writes the same bytes. (About the worlds, not the explorer.)"""

from __future__ import annotations

import hashlib
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairy_virtual import load_app_model
from pytest_fairy import load_spec

from .generator import CONTENT_BLOCKS, generate
from .truth import (
    ACCEPTED_EMPTY,
    BUG_KINDS,
    CRASH,
    DEAD,
    ERROR,
    KEPT_NOTHING,
    LOST_SETTING,
    WRONG_SCREEN,
    Bug,
    Feature,
    Step,
    Twin,
    World,
)
from .walker import Walker
from .writer import app_text, write

SEEDS = 30
SEED_RANGE = st.integers(min_value=0, max_value=2**31 - 1)
WORLD_SETTINGS = settings(max_examples=SEEDS, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_written_twins_load_as_the_product_loads_them(tmp_path: Path) -> None:
    for seed in range(SEEDS):
        world = generate(seed)
        specs = write(world, tmp_path)
        for twin in world.twins:
            spec = load_spec(specs[twin.name])
            model = load_app_model(specs[twin.name].parent)
            assert model.app.package == world.package
            names = [f.name for f in spec.features]
            assert names == ([f.name for f in world.features] if twin.bug is None else [twin.bug.feature])


@WORLD_SETTINGS
@given(seed=SEED_RANGE)
def test_each_path_reaches_its_done_when_on_the_clean_twin(seed: int) -> None:
    world = generate(seed)
    for feature in world.features:
        _reaches(world.clean, feature)


@WORLD_SETTINGS
@given(seed=SEED_RANGE)
def test_each_bug_twin_shows_its_defect_on_the_path(seed: int) -> None:
    world = generate(seed)
    assert world.bugs, "every world has bug twins"
    for twin in world.bugs:
        assert twin.bug is not None
        _shows_defect(world, twin, twin.bug)


@WORLD_SETTINGS
@given(seed=SEED_RANGE)
def test_a_bug_twin_breaks_only_its_feature(seed: int) -> None:
    world = generate(seed)
    for twin in world.bugs:
        for feature in world.features:
            if twin.expected(feature.name) == "passed":
                _reaches(twin, feature)


def test_bug_twins_differ_from_the_clean_twin_only_in_the_bug() -> None:
    for seed in range(SEEDS):
        world = generate(seed)
        clean = world.clean.app
        for twin in world.bugs:
            assert twin.app["app"] == clean["app"] and twin.app["device"] == clean["device"]
            changed = [h["id"] for h in world.bug_screens(twin)]
            # one element changed; a tab's bug is on the tab bar of every tab screen
            assert twin.bug is not None
            assert len(changed) == 1 or twin.bug.module == "tabs", (seed, twin.name, changed)
            assert set(clean["variables"]) <= set(twin.app["variables"])


def test_settings_survive_a_restart_on_the_clean_twin() -> None:
    tried = 0
    for seed in range(SEEDS):
        world = generate(seed)
        for feature in (f for f in world.features if f.module == "settings"):
            walker = Walker(world.clean.app)
            assert walker.walk(feature.path) == len(feature.path)
            walker.device.stop(world.package)
            walker.device.launch(world.package)
            walker.walk(feature.path[:-3], lenient=True)  # the way to the host; the welcome pages are gone
            assert walker.holds(feature.done_when), (seed, feature.name)
            tried += 1
    assert tried


def test_the_same_seed_writes_the_same_bytes(tmp_path: Path) -> None:
    for seed in (0, 7, 123456):
        first, second = write(generate(seed), tmp_path / "a"), write(generate(seed), tmp_path / "b")
        for name, spec in first.items():
            for file in (spec, spec.parent / "app.yaml"):
                other = second[name].parent / file.name
                assert file.read_bytes() == other.read_bytes(), file
                assert b"&id0" not in file.read_bytes(), f"{file}: YAML anchors"


def test_no_two_apps_look_the_same() -> None:
    worlds = [generate(seed) for seed in range(SEEDS)]
    shapes = {
        hashlib.sha256(app_text(w, w.clean).replace(w.package, "PKG").encode()).hexdigest() for w in worlds
    }
    assert len(shapes) == SEEDS
    assert {w.locale for w in worlds} == {"zh", "en"}


def test_the_worlds_cover_every_block_and_bug_kind() -> None:
    worlds = [generate(seed) for seed in range(SEEDS * 2)]
    assert {m for w in worlds for m in w.modules} >= {*CONTENT_BLOCKS, "onboarding", "tabs", "drawer"}
    assert {t.bug.kind for w in worlds for t in w.bugs if t.bug} == set(BUG_KINDS)


def _reaches(twin: Twin, feature: Feature) -> None:
    walker = Walker(twin.app)
    where = f"{twin.name}: {feature.name}"
    assert not walker.holds(feature.done_when), f"{where}: done before any step"
    taken = walker.walk(feature.path)
    assert taken == len(feature.path), f"{where}: step {taken} ({feature.path[taken].words()}) not on screen"
    assert walker.holds(feature.done_when), f"{where}: done_when does not hold at the end of the path"
    assert not walker.crashed(), where


def _shows_defect(world: World, twin: Twin, bug: Bug) -> None:
    feature = world.feature(bug.feature)
    path, where = feature.path, f"seed {world.seed} {twin.name}: {feature.name}"
    assert path[bug.step].label == bug.bug_at, where
    walker, clean = Walker(twin.app), Walker(world.clean.app)
    assert walker.walk(path[: bug.step]) == bug.step, f"{where}: the way to the bug is blocked"
    clean.walk(path[: bug.step])
    before = walker.dump()
    assert walker.step(path[bug.step]) and clean.step(path[bug.step]), where
    if bug.kind == CRASH:
        assert walker.crashed(), f"{where}: no crash in the log"
        for label in bug.also_at:  # the same defect, shown by another element's action in its place
            other = Walker(twin.app)
            other.walk(path[: bug.step])
            assert other.step(Step("tap", label)) and other.crashed(), f"{where}: no crash at {label!r}"
    elif bug.kind == DEAD:
        assert walker.dump() == before, f"{where}: the dead button changed the screen"
    elif bug.kind == ERROR:
        assert walker.visible(bug.shows), f"{where}: no error text"
    elif bug.kind == WRONG_SCREEN:
        assert walker.activity().endswith(bug.shows) and walker.activity() != clean.activity(), where
    elif bug.kind == LOST_SETTING:
        assert walker.checked(bug.bug_at), f"{where}: the switch did not turn on"
    elif bug.kind == KEPT_NOTHING:
        assert walker.visible(bug.shows), f"{where}: {bug.bug_at} does not say it holds nothing"
        assert not clean.visible(bug.shows), f"{where}: {bug.bug_at} is empty on the clean twin too"
    elif bug.kind == ACCEPTED_EMPTY:
        assert walker.visible(bug.shows), f"{where}: the empty form did not go on"
        assert not clean.visible(bug.shows), f"{where}: the clean twin took the empty form too"
    walker.walk(path[bug.step + 1 :])
    assert not walker.holds(feature.done_when), f"{where}: the feature still works"
    if bug.kind == LOST_SETTING:
        walker.walk(path[: bug.step], lenient=True)  # open the settings again
        assert walker.find(bug.bug_at) is not None, f"{where}: the settings did not open again"
        assert not walker.checked(bug.bug_at), f"{where}: the setting was kept"
