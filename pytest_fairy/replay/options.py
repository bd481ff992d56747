"""The replay and regression options: where the decision cache is, whether to use it, the baseline."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from pytest_fairy.replay.cache import DEFAULT_CACHE


@dataclass(frozen=True)
class ReplaySettings:
    cache: Path = DEFAULT_CACHE
    # False (--fairy-no-cache): decide everything anew; the decisions are still recorded.
    use_cache: bool = True
    baseline: Path | None = None
    fail_on_lost_screens: bool = False


def add_replay_options(parser: pytest.Parser, group: pytest.OptionGroup) -> None:
    group.addoption(
        "--fairy-cache",
        dest="fairy_cache",
        metavar="DIR",
        help="decision cache folder: every exploration records its decisions there, and LLM brains "
        "replay them where the screens are unchanged (default: .fairy/cache)",
    )
    group.addoption(
        "--fairy-no-cache",
        dest="fairy_no_cache",
        action="store_true",
        default=False,
        help="do not replay recorded decisions: the LLM decides every step (and the run is recorded anew)",
    )
    group.addoption(
        "--fairy-baseline",
        dest="fairy_baseline",
        metavar="DIR",
        help="compare each item's feature tree with a previous run's: a session folder such as "
        ".fairy/sessions/20250101_120000_000001, or a committed copy of one (<item>/tree.json)",
    )
    group.addoption(
        "--fairy-fail-on-lost-screens",
        dest="fairy_fail_on_lost_screens",
        action="store_true",
        default=False,
        help="fail an item when screens of its baseline are gone (as `must_not: [lose_screens]` does)",
    )
    parser.addini("fairy_cache", "decision cache folder (see --fairy-cache)", default="")
    parser.addini("fairy_baseline", "baseline session folder (see --fairy-baseline)", default="")


def read_replay_settings(config: pytest.Config, default_cache: Path = DEFAULT_CACHE) -> ReplaySettings:
    """Options win over ini keys; relative folders are under the rootdir, as the artifacts folder is."""
    option = config.option
    cache = _under_root(config, option.fairy_cache or config.getini("fairy_cache") or str(default_cache))
    raw_baseline = option.fairy_baseline or config.getini("fairy_baseline") or ""
    baseline = _under_root(config, raw_baseline) if raw_baseline else None
    if baseline is not None and not baseline.is_dir():
        raise pytest.UsageError(
            f"--fairy-baseline {raw_baseline}: no such folder (give a session folder of a previous run, "
            "e.g. .fairy/sessions/<session>)"
        )
    if option.fairy_fail_on_lost_screens and baseline is None:
        raise pytest.UsageError(
            "--fairy-fail-on-lost-screens needs --fairy-baseline DIR (a previous run's session folder): "
            "without one no screen can be lost and the gate could never fail"
        )
    return ReplaySettings(
        cache=cache,
        use_cache=not option.fairy_no_cache,
        baseline=baseline,
        fail_on_lost_screens=option.fairy_fail_on_lost_screens,
    )


def _under_root(config: pytest.Config, raw: str) -> Path:
    path = Path(raw)
    return path if path.is_absolute() else config.rootpath / path
