"""The one place pytest_fairy reaches into pytest-xdist beyond its hooks: passing a SIGTERM the controller
is sent on to its workers (`signals.py`), and a worker's line of progress to the controller's terminal.

xdist's controller runs no item itself: its workers do. Each worker writes its pid into a folder the
controller hands it through `workerinput` (in xdist's `pytest_configure_node`), and the controller
signals every pid found there. Each worker then ends its item inconclusive and stops its session; the
controller, told so by each, schedules nothing more and ends the run interrupted with their reports.
A worker has no terminal of its own, but the stderr it inherits is the controller's: a line written there
shows in the run's output (a CI log). pytest captures that stream while an item runs, so the worker
duplicates it when it configures, before any item (`WorkerLines`).
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


class WorkerLines:
    """A worker's lines on the stderr the controller's terminal shows, each naming the worker (`[gw1]`)."""

    def __init__(self, worker: str) -> None:
        self.worker = worker
        self.fd = os.dup(2)  # before pytest captures an item's output

    def say(self, line: str) -> None:
        try:
            os.write(self.fd, f"[{self.worker}] {line.strip()}\n".encode())
        except OSError:
            return  # the controller's stream is gone: the run is ending

    def close(self) -> None:
        os.close(self.fd)


WORKER_LINES_KEY = pytest.StashKey["WorkerLines | None"]()


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
        """Worker: write this process's pid where the controller looks for it, and keep a way to say lines
        on the controller's terminal (`WORKER_LINES_KEY`; None on the controller)."""
        workerinput = getattr(config, "workerinput", {})
        folder = workerinput.get(PIDS_INPUT)
        if folder:
            (Path(folder) / str(os.getpid())).touch()
        worker = workerinput.get("workerid")
        config.stash[WORKER_LINES_KEY] = WorkerLines(worker) if worker else None

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
