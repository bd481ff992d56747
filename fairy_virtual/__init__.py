"""The virtual Android device: a headless phone simulated from an app model (YAML).

    from fairy_virtual import VirtualDevice
    device = VirtualDevice("example_suites/notes")      # <dir>/app.yaml
    device.launch("com.example.notes")
    print(device.dump_hierarchy())                      # real uiautomator XML

A phone with several apps installed (a farm's phone): `VirtualPhone([food, notes])`. The app model format
is documented in docs/virtual-apps.md.
"""

from fairy_virtual.clock import Clock, DeviceClock, ManualClock, SystemClock
from fairy_virtual.device import ActionLogEntry, VirtualDevice
from fairy_virtual.loader import AppModelError, load_app_model, parse_app_model
from fairy_virtual.model import AppModel
from fairy_virtual.phone import VirtualPhone

__all__ = [
    "ActionLogEntry",
    "AppModel",
    "AppModelError",
    "Clock",
    "DeviceClock",
    "ManualClock",
    "SystemClock",
    "VirtualDevice",
    "VirtualPhone",
    "load_app_model",
    "parse_app_model",
]
