"""The simulator a run explores on for `--fairy-device virtual[:APP.yaml]`, found by its entry point.

pytest_fairy never imports a simulator. One registers itself in the entry-point group
`pytest_fairy.simulators` under the name `virtual`, as a callable that makes a `Simulator`: this
distribution registers the virtual Android device of the `fairy_virtual` package beside it
(`pyproject.toml`). The simulator is looked for on first use, so a run on real devices never loads it.
"""

from __future__ import annotations

import threading
from importlib.metadata import entry_points
from pathlib import Path
from typing import Protocol

from pytest_fairy.devices.protocol import Device
from pytest_fairy.errors import UsageError

GROUP = "pytest_fairy.simulators"
VIRTUAL = "virtual"


class Simulator(Protocol):
    def load(self, source: str | Path) -> object:
        """Read and check the app model of `source` (a file, or a folder holding `app.yaml`), once per
        path; a model that cannot be used raises a UsageError naming the file, line and problem."""
        ...

    def open_device(self, source: str | Path, serial: str) -> Device:
        """A new in-process device running the app model of `source`, known by `serial`."""
        ...


def find_simulator(name: str = VIRTUAL) -> Simulator:
    found = entry_points(group=GROUP, name=name)
    if not found:
        raise UsageError(
            f"no simulator named {name!r} is installed (entry-point group {GROUP}): pytest_fairy's "
            "distribution registers one; reinstall it (`pip install -e .` in a checkout)"
        )
    make = next(iter(found)).load()
    simulator: Simulator = make()
    return simulator


class LazySimulator:
    """The simulator `name`, found the first time it is asked for something."""

    def __init__(self, name: str = VIRTUAL) -> None:
        self.name = name
        self._found: Simulator | None = None
        self._lock = threading.Lock()

    def load(self, source: str | Path) -> object:
        return self._simulator().load(source)

    def open_device(self, source: str | Path, serial: str) -> Device:
        return self._simulator().open_device(source, serial)

    def _simulator(self) -> Simulator:
        with self._lock:
            if self._found is None:
                self._found = find_simulator(self.name)
            return self._found
