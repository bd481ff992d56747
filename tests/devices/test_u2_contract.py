"""The contract of uiautomator2 that devices/typing.py relies on for its opt-in IME route (checked on
uiautomator2 3.7): the input-method mixin's `send_keys`, called on the device unbound (the device's own
`send_keys` may be replaced by a plugin). On an upgrade that changes it, this fails first, by name."""

from __future__ import annotations

import inspect

import uiautomator2 as u2
from uiautomator2._input import InputMethodMixIn


def test_the_input_method_mixin_types_text_on_a_device() -> None:
    assert issubclass(u2.Device, InputMethodMixIn), "uiautomator2's Device no longer mixes in InputMethodMixIn"
    parameters = list(inspect.signature(InputMethodMixIn.send_keys).parameters)
    assert parameters[:2] == ["self", "text"], f"InputMethodMixIn.send_keys takes {parameters} now"
