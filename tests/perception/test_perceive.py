"""perceive(): one look at a device, errors translated at the seam."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from pytest_fairy.devices.protocol import AppRef, DeviceLost, Key
from pytest_fairy.errors import DeviceError, PerceptionError
from pytest_fairy.perception.perceive import perceive

from .builder import PKG, menu_screen


class DumpOnlyDevice:
    """A device that shows one fixed dump and screenshot; every action is refused."""

    def __init__(self, xml: str, *, fail_dump: DeviceError | None = None) -> None:
        self.xml = xml
        self.fail_dump = fail_dump

    @property
    def serial(self) -> str:
        return "emulator-5554"

    def dump_hierarchy(self) -> str:
        if self.fail_dump is not None:
            raise self.fail_dump
        return self.xml

    def screenshot(self) -> Image.Image:
        return Image.new("RGB", (1080, 2400), (250, 250, 250))

    def current_app(self) -> AppRef:
        return AppRef(PKG, ".MenuActivity")

    def window_size(self) -> tuple[int, int]:
        return (1080, 2400)

    def _refuse(self, *args: object, **kwargs: object) -> None:
        raise DeviceError(self.serial, "act", "this test device only shows a screen")

    tap = long_tap = swipe = type_text = launch = stop = clear_logcat = _refuse

    def press(self, key: Key) -> None:
        self._refuse(key)

    def logcat(self) -> str:
        return ""


def test_perceive_gives_screen_screenshot_and_som() -> None:
    seen = perceive(DumpOnlyDevice(menu_screen()), llm_long_edge=800)
    assert seen.screen.activity == ".MenuActivity" and seen.screen.package == PKG
    assert seen.screen.marks and seen.screen.text.startswith("activity: com.example.food/.MenuActivity")
    assert seen.screenshot.size == seen.som.full.size == (1080, 2400)
    assert max(Image.open(io.BytesIO(seen.som.llm_jpeg)).size) == 800


def test_broken_dump_is_a_perception_error_naming_the_device() -> None:
    with pytest.raises(PerceptionError, match=r"device emulator-5554: hierarchy dump is not well-formed XML"):
        perceive(DumpOnlyDevice("ERROR: null root node returned by UiTestAutomationBridge."))


def test_device_errors_pass_through_untouched() -> None:
    lost = DeviceLost("emulator-5554", "dump hierarchy", "device offline")
    with pytest.raises(DeviceLost) as caught:
        perceive(DumpOnlyDevice(menu_screen(), fail_dump=lost))
    assert caught.value is lost
