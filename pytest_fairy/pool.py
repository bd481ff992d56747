"""Where devices come from: one per worker, reused across the items that need the same one.

The virtual device is in-process, so each xdist worker owns its own instances: nothing to lock. Each
virtual app model gets its own `VirtualDevice`, as apps installed side by side on a phone would.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_fairy.config import VIRTUAL, FairyConfig
from pytest_fairy.device import Device


class DevicePool:
    def __init__(self, config: FairyConfig, rootpath: Path) -> None:
        self.config = config
        self.rootpath = rootpath
        self._virtual: dict[Path, Device] = {}

    def device_for(self, app_model: Path | None) -> Device:
        """The device for an item whose spec names `app_model` as its virtual app (None: none named)."""
        chosen = self.config.devices[0]
        if chosen.startswith(VIRTUAL + ":"):
            app_model = self._resolve(chosen.split(":", 1)[1])
        if app_model is None:
            raise pytest.UsageError(
                "the virtual device needs an app model: name one in the spec (app.virtual) or with "
                "--fairy-device virtual:PATH/app.yaml"
            )
        return self._virtual_device(app_model.resolve())

    def _virtual_device(self, app_model: Path) -> Device:
        if app_model not in self._virtual:
            from pytest_fairy.virtual import VirtualDevice

            serial = f"virtual-{app_model.parent.name if app_model.name == 'app.yaml' else app_model.stem}"
            self._virtual[app_model] = VirtualDevice(app_model, serial=serial, latency=False)
        return self._virtual[app_model]

    def _resolve(self, raw: str) -> Path:
        path = Path(raw)
        return path if path.is_absolute() else self.rootpath / path
