"""Feature items in pytest-split's stored durations: an item's duration is its exploration's, never the
moment it took to be skipped, and a run that left an item out does not take its duration away.

pytest-split (checked on 0.11.0; tests/plugin/test_split_durations.py is the contract) writes its file
(`--store-durations`, at `--durations-path`) when the session finishes: each node id with reports in the
terminal's stats gets the sum of their durations (setup + call + teardown), over the file as it was read
when the run began. So, left to itself, it stores
- an item skipped in this run at the ~0 s its skip took, over its exploration's duration: the next split
  takes it for free and can pile such items on one shard; an item whose setup failed (no free device, a
  fixture that raised) at its setup's duration;
- with `--clean-durations`, nothing for an item this run deselected (`-k`, `-m`, `--lf`, another group of
  `--splits`), where the option means to drop items that are gone.
It has no hook of its own; its writer is a plain `pytest_sessionfinish`, so this plugin's, `trylast`,
runs after it and rewrites the file: a feature item whose call did not run keeps the duration stored
before, or has none (pytest-split assumes the average for it), and a deselected feature item keeps its
duration. Plain tests of the same run keep pytest-split's own behaviour. Under xdist the controller
writes the file last; each worker tells it, in its `workeroutput`, what it deselected.
pytest-split is never imported: its options are read by name, and this plugin is registered only when
`--store-durations` exists and is given.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from pytest_fairy.plugin.run import RUN_KEY

# The name this plugin is registered under: `-p no:fairy-split-durations` leaves pytest-split alone.
PLUGIN_NAME = "fairy-split-durations"
# The key in an xdist worker's workeroutput with the node ids of the feature items it deselected.
DESELECTED_OUTPUT = "fairy_deselected"


class SplitDurations:
    """Registered per process (the xdist controller and each worker) when `--store-durations` is given."""

    def __init__(self, config: pytest.Config, path: Path, is_feature: Callable[[str], bool]) -> None:
        self.config = config
        self.path = path
        self.is_feature = is_feature
        # As pytest-split read it when the run began: what a feature item that did not run keeps.
        self.before = _read(path)
        self.explored: set[str] = set()  # node ids whose call ran
        self.deselected: set[str] = set()

    @classmethod
    def register(cls, config: pytest.Config) -> None:
        if not getattr(config.option, "store_durations", False):
            return
        run = config.stash[RUN_KEY]
        path = Path(config.option.durations_path)
        plugin = cls(config, path, lambda nodeid: run.collects(Path(nodeid.partition("::")[0])))
        config.pluginmanager.register(plugin, PLUGIN_NAME)

    def pytest_deselected(self, items: Sequence[pytest.Item]) -> None:
        self.deselected.update(item.nodeid for item in items if self.is_feature(item.nodeid))
        workeroutput = getattr(self.config, "workeroutput", None)
        if workeroutput is not None:
            workeroutput[DESELECTED_OUTPUT] = sorted(self.deselected)

    @pytest.hookimpl(optionalhook=True)  # an xdist hook: a run with `-p no:xdist` must still work
    def pytest_testnodedown(self, node: Any, error: object) -> None:
        self.deselected.update(getattr(node, "workeroutput", {}).get(DESELECTED_OUTPUT, ()))

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when == "call":
            self.explored.add(report.nodeid)

    @pytest.hookimpl(trylast=True)  # after pytest-split's writer, before xdist tells the controller
    def pytest_sessionfinish(self) -> None:
        if not hasattr(self.config, "workerinput"):  # the controller's file is the one that stays
            self._keep_what_did_not_run()

    def _keep_what_did_not_run(self) -> None:
        stored = _read(self.path)
        kept = dict(stored)
        for nodeid in (stored.keys() | self.deselected) - self.explored:
            if not self.is_feature(nodeid):
                continue
            if nodeid in self.before:
                kept[nodeid] = self.before[nodeid]
            else:
                kept.pop(nodeid, None)
        # In pytest-split's own layout, so that a diff of a committed file shows durations only.
        self.path.write_text(json.dumps(kept, sort_keys=True, indent=4), encoding="utf-8")


def _read(path: Path) -> dict[str, float]:
    """The stored durations (none before the first run), read as pytest-split reads them."""
    try:
        return dict(json.loads(path.read_text(encoding="utf-8")))
    except FileNotFoundError:
        return {}
