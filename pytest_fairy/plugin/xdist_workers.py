"""The one place pytest_fairy reaches into pytest-xdist beyond its hooks: passing a SIGTERM the controller
is sent on to its workers (`signals.py`).

xdist's controller runs no item itself: its workers do. Each worker writes its pid into a folder the
controller hands it through `workerinput` (in xdist's `pytest_configure_node`), and the controller
signals every pid found there. Each worker then ends its item inconclusive and stops its session; the
controller, told so by each, schedules nothing more and ends the run interrupted with their reports.
Checked on pytest-xdist 3.8; tests/plugin/test_xdist_workers.py is the contract, and fails on an upgrade
that changes these.
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
from pathlib import Path
from typing import Any

import pytest

PIDS_INPUT = "fairy_worker_pids"  # the key of the pid folder in a worker's workerinput


class Workers:
    """The xdist workers of one run, as the controller knows them: by the pids they wrote."""

    def __init__(self) -> None:
        self.folder: Path | None = None

    def configure_node(self, node: Any) -> None:
        """Controller: hand a starting worker the folder it writes its pid into."""
        if self.folder is None:
            self.folder = Path(tempfile.mkdtemp(prefix="pytest_fairy-workers-"))
        node.workerinput[PIDS_INPUT] = str(self.folder)

    @staticmethod
    def register(config: pytest.Config) -> None:
        """Worker: write this process's pid where the controller looks for it."""
        folder = getattr(config, "workerinput", {}).get(PIDS_INPUT)
        if folder:
            (Path(folder) / str(os.getpid())).touch()

    def stop(self) -> bool:
        """Controller: pass SIGTERM on to every worker. False when this process started no worker (it is
        the one to interrupt)."""
        if self.folder is None:
            return False
        for entry in self.folder.iterdir():
            try:
                os.kill(int(entry.name), signal.SIGTERM)
            except (ValueError, ProcessLookupError, PermissionError):
                continue  # a worker gone already
        return True

    def close(self) -> None:
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
