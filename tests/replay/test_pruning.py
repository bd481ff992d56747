"""Pruning the decision cache at the end of a session: superseded and broken files, then items unused for
too long, then the least recently used items over the size limit; never a file this session used."""

from __future__ import annotations

import os
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_fairy.replay import DecisionCache, Recording
from pytest_fairy.replay.pruning import MEGABYTE, CacheLimits, prune_cache

SPEC = "suites/test_food.yaml"
NOW = time.time()
DAY = 86400.0
NO_LIMITS = CacheLimits(0, 0)


def save(cache: DecisionCache, feature: str, second: int, *, used_days_ago: float, size: int = 0) -> Path:
    """A version of `feature` stamped `second` seconds into 2026, last used that many days ago; padded to
    about `size` bytes."""
    stamp = (datetime(2026, 1, 1, tzinfo=UTC) + timedelta(seconds=second)).isoformat()
    path = cache.save(Recording(SPEC, feature, "t", recorded=stamp, summary="x" * size, summary_story="s"))
    moment = NOW - used_days_ago * DAY
    os.utime(path, (moment, moment))
    return path


def prune(cache: DecisionCache, limits: CacheLimits = NO_LIMITS, *, session_days_ago: float = 0.0):  # type: ignore[no-untyped-def]
    return prune_cache(cache.root, limits, used_since=NOW - session_days_ago * DAY, now=NOW)


def test_superseded_versions_go_and_the_newest_stays(tmp_path: Path) -> None:
    cache = DecisionCache(tmp_path)
    old = [save(cache, "f", n, used_days_ago=1) for n in range(3)]
    newest = save(cache, "f", 9, used_days_ago=2)  # the newest by its time of recording, not by its use
    pruned = prune(cache)
    assert set(pruned.superseded) == set(old) and pruned.aged == pruned.evicted == ()
    assert [p for p in tmp_path.rglob("*.json")] == [newest]
    assert "removed 3 superseded or unreadable" in pruned.line()


def test_a_superseded_version_this_session_used_stays(tmp_path: Path) -> None:
    cache = DecisionCache(tmp_path)
    used = save(cache, "f", 0, used_days_ago=0)
    save(cache, "f", 1, used_days_ago=3)
    assert prune(cache, session_days_ago=0.5).superseded == ()
    assert used.is_file()


def test_broken_files_and_stale_temporary_files_go_a_newer_formats_file_stays(tmp_path: Path) -> None:
    cache = DecisionCache(tmp_path)
    newest = save(cache, "f", 0, used_days_ago=1)
    folder = newest.parent
    broken, temporary, foreign = (
        folder / "0123456789abcdef.json",
        folder / ".x.tmp",
        folder / "fedcba9876543210.json",
    )
    broken.write_text("{", encoding="utf-8")
    temporary.write_text("{", encoding="utf-8")
    foreign.write_text('{"schema": "pytest_fairy.decisions", "version": 2}', encoding="utf-8")
    for path in (broken, temporary, foreign):
        os.utime(path, (NOW - DAY, NOW - DAY))
    assert set(prune(cache).superseded) == {broken, temporary}
    assert sorted(folder.iterdir()) == sorted([newest, foreign])


def test_a_version_of_the_earlier_layout_goes_once_superseded(tmp_path: Path) -> None:
    cache = DecisionCache(tmp_path)
    legacy = cache.legacy_path(SPEC, "f")
    legacy.parent.mkdir(parents=True)
    legacy.write_text(
        Recording(SPEC, "f", "t", recorded="2025-01-01T12:00:00+0000").to_json(), encoding="utf-8"
    )
    os.utime(legacy, (NOW - DAY, NOW - DAY))
    assert prune(cache).removed == () and legacy.is_file()
    save(cache, "f", 0, used_days_ago=1)
    assert prune(cache).superseded == (legacy,)


def test_items_unused_for_the_age_limit_go_whole(tmp_path: Path) -> None:
    cache = DecisionCache(tmp_path)
    stale = save(cache, "stale", 0, used_days_ago=31)
    fresh = save(cache, "fresh", 0, used_days_ago=29)
    pruned = prune(cache, CacheLimits(max_age_days=30, max_mb=0))
    assert pruned.aged == (stale,) and fresh.is_file()
    assert not stale.parent.exists(), "an item's folder left empty goes too"
    assert "1 unused too long" in pruned.line()


def test_an_item_this_session_used_never_ages_out_however_long_the_session(tmp_path: Path) -> None:
    cache = DecisionCache(tmp_path)
    used = save(cache, "f", 0, used_days_ago=35)
    assert prune(cache, CacheLimits(max_age_days=30, max_mb=0), session_days_ago=40).removed == ()
    assert used.is_file()


def test_no_age_limit_keeps_every_item(tmp_path: Path) -> None:
    cache = DecisionCache(tmp_path)
    save(cache, "stale", 0, used_days_ago=3000)
    assert prune(cache, CacheLimits(max_age_days=0, max_mb=0)).removed == ()


def test_over_the_size_limit_the_least_recently_used_items_go_first(tmp_path: Path) -> None:
    cache = DecisionCache(tmp_path)
    oldest = save(cache, "a", 0, used_days_ago=5, size=400_000)
    middle = save(cache, "b", 0, used_days_ago=4, size=400_000)
    newest = save(cache, "c", 0, used_days_ago=3, size=400_000)
    pruned = prune(cache, CacheLimits(max_age_days=0, max_mb=1))
    assert pruned.evicted == (oldest,) and middle.is_file() and newest.is_file()
    assert pruned.freed > 400_000 and pruned.kept_over == 0


def test_over_the_size_limit_an_item_this_session_used_stays_and_is_said(tmp_path: Path) -> None:
    cache = DecisionCache(tmp_path)
    this_run = save(cache, "a", 0, used_days_ago=0, size=1_500_000)
    older = save(cache, "b", 0, used_days_ago=4, size=100_000)
    pruned = prune(cache, CacheLimits(max_age_days=0, max_mb=1), session_days_ago=0.5)
    assert pruned.evicted == (older,) and this_run.is_file()
    assert pruned.kept_over > 0.4 * MEGABYTE
    assert "MB over the size limit kept: used by this run" in pruned.line()


items = st.lists(
    st.lists(st.tuples(st.integers(0, 3), st.floats(0, 60), st.integers(0, 60_000)), min_size=1, max_size=4),
    min_size=1,
    max_size=5,
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(items=items, age=st.sampled_from([0, 7, 30]), mb=st.sampled_from([0, 0.05, 0.1, 1]),
       session=st.floats(0, 10))  # fmt: skip
def test_pruning_keeps_what_this_session_used_and_what_every_kept_item_loads(
    tmp_path_factory: pytest.TempPathFactory,
    items: list[list[tuple[int, float, int]]],
    age: int,
    mb: float,
    session: float,
) -> None:
    """Whatever the versions, their uses and the limits: no file used since the session started is removed
    (the recording a run just wrote is one), an item that keeps any file loads what it loaded before, and
    the cache ends within its size limit unless what is over was used this session."""
    cache = DecisionCache(tmp_path_factory.mktemp("cache"))
    features = [f"feature {n}" for n in range(len(items))]
    for feature, versions in zip(features, items, strict=True):
        for second, days, size in versions:
            save(cache, feature, second, used_days_ago=days, size=size)
    used_since = NOW - session * DAY
    before = {f: cache.newest(SPEC, f) for f in features}
    used = {p for p in cache.root.rglob("*.json") if p.stat().st_mtime >= used_since}
    pruned = prune_cache(cache.root, CacheLimits(age, mb), used_since=used_since, now=NOW)
    left = set(cache.root.rglob("*.json"))
    assert used <= left
    for feature in features:
        if cache.versions(SPEC, feature):
            assert cache.newest(SPEC, feature) == before[feature]
    total = sum(p.stat().st_size for p in left)
    if mb:
        assert total <= mb * MEGABYTE or pruned.kept_over == total - int(mb * MEGABYTE)


# ------------------------------------------------------------------------------------ once, at the end


PLUGIN = """
import pytest
from pathlib import Path
from pytest_fairy.replay.pruning import CacheLimits, CachePruning

def pytest_configure(config):
    config.pluginmanager.register(CachePruning(Path("cache"), CacheLimits(30, 0)), "cache-pruning")
"""

TESTS = """
import os, time
from pathlib import Path

def test_writes(worker_id):
    # Written by this session (an xdist worker): never pruned, even if it were superseded.
    Path("cache/s/f-1/written-{}.tmp".format(worker_id)).write_text("{")
"""


@pytest.mark.parametrize("workers", [[], ["-n", "2"]])
def test_the_cache_is_pruned_once_by_the_process_that_ends_last(
    pytester: pytest.Pytester, workers: list[str]
) -> None:
    cache = DecisionCache(pytester.path / "cache")
    stale = save(cache, "stale", 0, used_days_ago=40)
    (pytester.path / "cache" / "s" / "f-1").mkdir(parents=True)
    pytester.makeconftest(PLUGIN)
    pytester.makepyfile(TESTS)
    result = pytester.runpytest_subprocess("-p", "xdist", *workers)
    result.assert_outcomes(passed=1)
    assert not stale.exists()
    assert len(list((pytester.path / "cache" / "s" / "f-1").glob("written-*.tmp"))) == 1
    result.stdout.fnmatch_lines(["fairy: decision cache cache: removed 1 unused too long (*MB)"])


def test_collecting_prunes_nothing(pytester: pytest.Pytester) -> None:
    cache = DecisionCache(pytester.path / "cache")
    stale = save(cache, "stale", 0, used_days_ago=40)
    pytester.makeconftest(PLUGIN)
    pytester.makepyfile(TESTS)
    pytester.runpytest_subprocess("--collect-only")
    assert stale.is_file()
