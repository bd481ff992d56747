"""The virtual Android device: a headless phone simulated from an app model (YAML).

    from pytest_fairy.virtual import VirtualDevice
    device = VirtualDevice("example_suites/notes")      # <dir>/app.yaml
    device.launch("com.example.notes")
    print(device.dump_hierarchy())                      # real uiautomator XML

The app model format is documented in docs/virtual-apps.md.
"""

from pytest_fairy.virtual.clock import Clock, DeviceClock, ManualClock, SystemClock
from pytest_fairy.virtual.device import ActionLogEntry, VirtualDevice
from pytest_fairy.virtual.loader import AppModelError, load_app_model, parse_app_model
from pytest_fairy.virtual.model import AppModel

__all__ = [
    "ActionLogEntry",
    "AppModel",
    "AppModelError",
    "Clock",
    "DeviceClock",
    "ManualClock",
    "SystemClock",
    "VirtualDevice",
    "load_app_model",
    "parse_app_model",
]
