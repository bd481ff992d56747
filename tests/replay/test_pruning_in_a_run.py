"""The plugin prunes the decision cache at the end of a run, to the ini keys' limits, keeping what the run
wrote."""

from __future__ import annotations

import os
import time

import pytest

from pytest_fairy.replay import DecisionCache, Recording
from tests.replay.helpers import recordings


def test_a_run_prunes_the_cache_to_its_limits_and_keeps_what_it_wrote(project: pytest.Pytester) -> None:
    cache = DecisionCache(project.path / ".fairy" / "cache")
    stale = cache.save(Recording("old/test_gone.yaml", "a feature no longer run", "t", recorded="2026-01-01"))
    moment = time.time() - 40 * 86400
    os.utime(stale, (moment, moment))
    project.makeini(
        "[pytest]\nfairy_artifacts = .fairy\nfairy_cache_max_age_days = 30\n"
        "filterwarnings = ignore::pytest.PytestAssertRewriteWarning\n"
    )
    result = project.runpytest()
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["fairy: decision cache *cache: removed 1 unused too long (* MB)"])
    assert not stale.exists()
    (written,) = recordings(project)
    assert "test_food.yaml" in str(written)

    project.makeini("[pytest]\nfairy_artifacts = .fairy\nfairy_cache_max_age_days = -1\n")
    refused = project.runpytest()
    assert refused.ret == pytest.ExitCode.USAGE_ERROR
    refused.stderr.fnmatch_lines(["*fairy_cache_max_age_days*a number of days, 0 or more (0: no limit)*"])
