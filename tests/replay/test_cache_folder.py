"""The decision cache folder: content-addressed versions that concurrent writers never share, a union of two
folders that loads as one, the newest readable version chosen the same way everywhere, broken files passed
over, and the earlier one-file layout still read."""

from __future__ import annotations

import multiprocessing
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_fairy.replay import DecisionCache, Recording
from pytest_fairy.replay.cache import content_digest, recorded_time

SPEC, FEATURE = "suites/test_food.yaml", "delivery time"
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)


def recording(summary: str, recorded: str, feature: str = FEATURE) -> Recording:
    return Recording(SPEC, feature, "t", recorded=recorded, summary=summary, summary_story="s")


def stamp(seconds: int) -> str:
    return (EPOCH + timedelta(seconds=seconds)).isoformat(timespec="microseconds")


def test_each_version_is_named_by_its_content_under_its_items_folder(tmp_path: Path) -> None:
    cache = DecisionCache(tmp_path)
    first = cache.save(recording("one", stamp(0)))
    second = cache.save(recording("two", stamp(1)))
    assert first != second and first.parent == second.parent == cache.item_folder(SPEC, FEATURE)
    assert (
        first.parent.name.startswith("delivery_time-") and first.parent.parent.name == "suites_test_food.yaml"
    )
    assert first.stem == content_digest(first.read_bytes()) and first.read_text(encoding="utf-8").startswith(
        "{"
    )
    # The same content saved again is the same file, not a second one.
    assert cache.save(recording("two", stamp(1))) == second and len(list(first.parent.iterdir())) == 2


def test_two_similar_feature_names_never_share_a_folder(tmp_path: Path) -> None:
    cache = DecisionCache(tmp_path)
    assert cache.item_folder("s.yaml", "送达 时间") != cache.item_folder("s.yaml", "送达_时间")


def test_the_newest_by_recorded_time_is_loaded_whatever_the_zone_it_was_stamped_in(tmp_path: Path) -> None:
    """12:00 in Shanghai is 04:00 UTC: a recording stamped 05:00 UTC on another runner is newer."""
    cache = DecisionCache(tmp_path)
    cache.save(recording("shanghai", "2026-01-01T12:00:00+0800"))
    cache.save(recording("utc", "2026-01-01T05:00:00+00:00"))
    cache.save(recording("no stamp", ""))
    loaded = cache.load(SPEC, FEATURE)
    assert loaded.recording is not None and loaded.recording.summary == "utc" and loaded.notes == ()


def test_a_tie_in_time_is_broken_by_the_digest(tmp_path: Path) -> None:
    cache = DecisionCache(tmp_path)
    paths = {cache.save(recording(name, stamp(7))).stem: name for name in ("a", "b", "c")}
    loaded = cache.load(SPEC, FEATURE)
    assert loaded.recording is not None and loaded.recording.summary == paths[max(paths)]


def test_a_tie_with_a_file_of_the_earlier_layout_is_broken_by_its_contents_digest(tmp_path: Path) -> None:
    cache = DecisionCache(tmp_path)
    version = cache.save(recording("new", stamp(7)))
    legacy = cache.legacy_path(SPEC, FEATURE)
    text = next(
        t
        for n in range(100)
        if content_digest((t := recording(f"legacy {n}", stamp(7)).to_json()).encode()) < version.stem
    )
    legacy.write_text(text, encoding="utf-8")
    loaded = cache.load(SPEC, FEATURE)
    assert loaded.recording is not None and loaded.recording.summary == "new"


def test_a_broken_newest_file_is_passed_over_with_a_note_and_the_next_version_used(tmp_path: Path) -> None:
    cache = DecisionCache(tmp_path)
    older = cache.save(recording("older", stamp(0)))
    newest = cache.save(recording("newest", stamp(1)))
    newest.write_bytes(newest.read_bytes()[:40])  # half copied
    loaded = cache.load(SPEC, FEATURE)
    assert loaded.recording is not None and loaded.recording.summary == "older" and loaded.path == older
    (note,) = loaded.notes
    assert str(newest) in note and "not valid JSON" in note and "an older version is used" in note


def test_a_file_of_another_item_in_the_folder_is_passed_over(tmp_path: Path) -> None:
    cache = DecisionCache(tmp_path)
    cache.save(recording("mine", stamp(0)))
    stray = cache.save(recording("theirs", stamp(9), feature="another feature"))
    shutil.move(stray, cache.item_folder(SPEC, FEATURE) / stray.name)
    loaded = cache.load(SPEC, FEATURE)
    assert loaded.recording is not None and loaded.recording.summary == "mine"
    assert "records 'suites/test_food.yaml' / 'another feature'" in loaded.notes[0]


def test_nothing_recorded_loads_as_none_without_a_note(tmp_path: Path) -> None:
    assert DecisionCache(tmp_path).load(SPEC, FEATURE) == DecisionCache(tmp_path).load(SPEC, FEATURE)
    loaded = DecisionCache(tmp_path).load(SPEC, FEATURE)
    assert loaded.recording is None and loaded.notes == ()


def test_a_recording_of_the_earlier_layout_is_read_until_a_newer_version_is_written(tmp_path: Path) -> None:
    cache = DecisionCache(tmp_path)
    legacy = cache.legacy_path(SPEC, FEATURE)
    assert legacy == cache.item_folder(SPEC, FEATURE).with_name(
        cache.item_folder(SPEC, FEATURE).name + ".json"
    )
    legacy.parent.mkdir(parents=True)
    legacy.write_text(recording("legacy", "2025-01-01T12:00:00+0000").to_json(), encoding="utf-8")
    loaded = cache.load(SPEC, FEATURE)
    assert loaded.recording is not None and loaded.recording.summary == "legacy" and loaded.path == legacy

    cache.save(recording("new", stamp(0)))
    loaded = cache.load(SPEC, FEATURE)
    assert loaded.recording is not None and loaded.recording.summary == "new"


def test_loading_marks_the_version_used_and_only_that_one(tmp_path: Path) -> None:
    cache = DecisionCache(tmp_path)
    older, newest = cache.save(recording("a", stamp(0))), cache.save(recording("b", stamp(1)))
    for path in (older, newest):
        _age(path, days=10)
    cache.load(SPEC, FEATURE)
    assert newest.stat().st_mtime > older.stat().st_mtime + 9 * 86400


def test_recorded_times_compare_as_instants() -> None:
    assert recorded_time("2026-01-01T12:00:00+0800") < recorded_time("2026-01-01T05:00:00+00:00")
    assert recorded_time("not a time") < recorded_time("1999-01-01T00:00:00")


# -------------------------------------------------------------------------------- writers and unions


def _write(root: str, writer: int, rounds: int) -> None:
    cache = DecisionCache(Path(root))
    for n in range(rounds):
        cache.save(recording(f"writer {writer} round {n}", stamp(writer * 100 + n)))


def test_concurrent_writers_each_leave_whole_versions_and_the_newest_loads(tmp_path: Path) -> None:
    context = multiprocessing.get_context("spawn")
    writers = [context.Process(target=_write, args=(str(tmp_path), w, 10)) for w in range(3)]
    for p in writers:
        p.start()
    for p in writers:
        p.join(timeout=60)
        assert p.exitcode == 0
    cache = DecisionCache(tmp_path)
    versions = cache.versions(SPEC, FEATURE)
    assert len(versions) == 30 and all(v.recording is not None for v in versions)
    assert not list(tmp_path.rglob("*.tmp"))
    loaded = cache.load(SPEC, FEATURE)
    assert loaded.recording is not None and loaded.recording.summary == "writer 2 round 9"


features = st.sampled_from(["delivery time", "送达 时间", "cart"])
saves = st.lists(st.tuples(features, st.integers(0, 5), st.text(max_size=6)), min_size=1, max_size=10)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(saves=saves, split=st.lists(st.sampled_from(["a", "b", "both"]), min_size=10, max_size=10))
def test_a_union_of_two_caches_loads_as_one_cache_of_everything(
    tmp_path_factory: pytest.TempPathFactory, saves: list[tuple[str, int, str]], split: list[str]
) -> None:
    """Two runners record some of the same items; copying both folders into one (in either order) loads,
    for every item, what one cache holding every recording loads: the newest, ties broken by digest."""
    root = tmp_path_factory.mktemp("union")
    whole, a, b = DecisionCache(root / "whole"), DecisionCache(root / "a"), DecisionCache(root / "b")
    for (feature, second, summary), side in zip(saves, split, strict=False):
        made = recording(summary, stamp(second), feature)
        whole.save(made)
        for cache in {"a": (a,), "b": (b,), "both": (a, b)}[side]:
            cache.save(made)
    for order in ((a, b), (b, a)):
        union = root / f"union-{order[0].root.name}"
        union.mkdir()
        for cache in order:
            if cache.root.is_dir():
                shutil.copytree(cache.root, union, dirs_exist_ok=True)
        for feature in {f for f, _, _ in saves}:
            assert DecisionCache(union).newest(SPEC, feature) == whole.newest(SPEC, feature)


def _age(path: Path, *, days: float) -> None:
    import os

    moment = path.stat().st_mtime - days * 86400
    os.utime(path, (moment, moment))
