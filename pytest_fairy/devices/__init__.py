"""Devices: the phone the explorer drives, and who may drive it.

Owns: the `Device` protocol (the few calls the loop needs) and the `Diagnostics` protocol (logs, facts,
versions); the uiautomator2 / adbutils driver for real devices and its checks at session start; the
cross-process lock, the on-device lease and the claim that holds both; the pool that hands a device to
each item. adbutils and uiautomator2 errors become `DeviceError` here and go no further.
May import: `pytest_fairy.errors`. The virtual device (the `fairy_virtual` package beside this one)
implements these protocols; `simulator` finds it by its entry point and the pool is handed a way to open
one, so neither imports it.
"""

from pytest_fairy.devices.protocol import (
    AppRef,
    Device,
    DeviceInfo,
    DeviceLost,
    Diagnostics,
    Key,
    diagnostics_of,
)

__all__ = ["AppRef", "Device", "DeviceInfo", "DeviceLost", "Diagnostics", "Key", "diagnostics_of"]
