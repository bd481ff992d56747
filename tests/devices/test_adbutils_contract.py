"""The contract of adbutils that devices/deadline.py's BoundedAdbDevice overrides (checked on adbutils
2.12): the methods it overrides, with the parameters it passes on, and the default timeout it recognises
as "the caller chose none". On an upgrade that changes them, this fails first, naming what changed."""

from __future__ import annotations

import inspect

import adbutils

from pytest_fairy.devices import deadline

OVERRIDDEN = {
    "open_transport": ("command", "timeout"),
    "open_shell": ("cmdargs",),
    "shell": ("cmdargs", "stream", "timeout", "encoding", "rstrip"),
    "create_connection": ("network", "address"),
}


def test_every_overridden_method_takes_the_parameters_the_override_passes_on() -> None:
    for name, wanted in OVERRIDDEN.items():
        method = getattr(adbutils.AdbDevice, name, None)
        assert method is not None, f"adbutils.AdbDevice.{name} is gone: BoundedAdbDevice overrides it"
        parameters = inspect.signature(method).parameters
        missing = [p for p in wanted if p not in parameters]
        assert not missing, f"adbutils.AdbDevice.{name} no longer takes {missing}"


def test_adbutils_default_timeout_is_the_one_the_bounded_device_replaces() -> None:
    for name in ("open_transport", "shell"):
        default = inspect.signature(getattr(adbutils.AdbDevice, name)).parameters["timeout"].default
        assert default == deadline._ADBUTILS_DEFAULT_TIMEOUT, (
            f"adbutils.AdbDevice.{name}'s default timeout is {default}, not {deadline._ADBUTILS_DEFAULT_TIMEOUT}: "
            "a caller choosing none would no longer be bounded"
        )
