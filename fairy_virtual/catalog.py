"""The app models of one run, each read and checked once.

Collection checks every spec's `app.virtual` and the device pool opens virtual devices on the same
models: parsing a model is a good part of a short suite's time, so one `AppModels` per run (per process:
each xdist worker has its own) keeps them.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fairy_virtual.device import VirtualDevice
    from fairy_virtual.model import AppModel


class AppModels:
    """Parsed app models by resolved path. Building one costs nothing: the virtual device's modules are
    imported on the first model asked for, so a run on real devices only (or a pytest run with the plugin
    installed and no specs) never pays for them."""

    def __init__(self) -> None:
        self._models: dict[Path, AppModel] = {}
        self._lock = threading.Lock()
        self.parsed = 0  # how many files were read and checked: once each, whatever asked how often

    def load(self, source: str | Path) -> AppModel:
        """The checked model of `source` (a file, or a folder meaning `<folder>/app.yaml`); raises
        AppModelError the first time and every time it is asked again."""
        from fairy_virtual.loader import load_app_model

        path = Path(source)
        path = (path / "app.yaml" if path.is_dir() else path).resolve()
        with self._lock:
            if path not in self._models:
                self._models[path] = load_app_model(path)
                self.parsed += 1
            return self._models[path]

    def open_device(self, source: str | Path, serial: str) -> VirtualDevice:
        """A new virtual device running the model of `source`, without simulated latency (the run's
        in-process device)."""
        from fairy_virtual.device import VirtualDevice

        return VirtualDevice(self.load(source), serial=serial, latency=False)
