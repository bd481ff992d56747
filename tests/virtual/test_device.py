"""VirtualDevice as a `Device`: screenshots, latency, getprop values, packages, key codes."""

from __future__ import annotations

from PIL import Image, ImageChops
from virtual_helpers import FOOD, FOOD_PACKAGE, NOTES, find, tap, texts

from fairy_virtual import ManualClock, VirtualDevice, load_app_model
from pytest_fairy.devices.protocol import Device, Key


def region_changed(a: Image.Image, b: Image.Image, box: tuple[int, int, int, int]) -> bool:
    return ImageChops.difference(a.crop(box), b.crop(box)).getbbox() is not None


def brightness(image: Image.Image, xy: tuple[int, int]) -> int:
    pixel = image.getpixel(xy)
    assert isinstance(pixel, tuple)
    return sum(pixel)


def test_is_a_device_and_accepts_a_model_or_a_path() -> None:
    device = VirtualDevice(load_app_model(NOTES), serial="virtual-2", latency=False)
    assert isinstance(device, Device)
    assert device.serial == "virtual-2" and device.window_size() == (1080, 2400)
    assert VirtualDevice(FOOD / "app.yaml", latency=False).app_model.app.package == FOOD_PACKAGE
    assert VirtualDevice(FOOD, latency=False, size=(720, 1600)).window_size() == (720, 1600)


def test_screenshot_size_and_toast_only_in_the_screenshot(food: VirtualDevice, clock: ManualClock) -> None:
    tap(food, "麦乐送")
    tap(food, "确定")
    tap(food, "tv_product")
    before = food.screenshot()
    assert before.size == (1080, 2400) and before.mode == "RGB"
    tap(food, "加入购物车")
    toast_region = (0, 1700, 1080, 2160)
    with_toast = food.screenshot()
    assert region_changed(before, with_toast, toast_region)
    assert "已加入购物车（中份）" not in texts(food)
    clock.advance(food.app_model.device.toast_duration + 0.1)
    assert not region_changed(before, food.screenshot(), toast_region)


def test_dialog_dims_the_screen_behind(food: VirtualDevice) -> None:
    plain = brightness(food.screenshot(), (540, 20))
    tap(food, "麦乐送")
    dimmed = food.screenshot()
    assert brightness(dimmed, (540, 20)) < plain * 0.7  # the toolbar, under the scrim
    panel = find(food, "btn_confirm").bounds
    assert brightness(dimmed, (panel.left + 5, panel.top - 40)) > 700  # the white dialog panel


def test_screenshot_cache_returns_independent_copies(clock: ManualClock) -> None:
    device = VirtualDevice(NOTES, latency=False, clock=clock)
    first = device.screenshot()
    first.putpixel((0, 0), (1, 2, 3))
    assert device.screenshot().getpixel((0, 0)) != (1, 2, 3)


def test_latency_is_applied_per_kind_of_call(clock: ManualClock) -> None:
    device = VirtualDevice(FOOD, clock=clock)  # latency on (the default)
    latency = device.app_model.device.latency
    device.dump_hierarchy()
    device.screenshot()
    device.tap(10, 10)
    device.current_app()
    assert clock.slept == [latency.dump, latency.screenshot, latency.action]
    quiet = ManualClock()
    VirtualDevice(FOOD, clock=quiet, latency=False).dump_hierarchy()
    assert quiet.slept == []


def test_properties_and_packages() -> None:
    device = VirtualDevice(FOOD, serial="emu-1", latency=False)
    props = device.properties
    for key in ("ro.product.model", "ro.product.brand", "ro.product.name", "ro.product.device",
                "ro.build.version.release", "ro.build.version.sdk"):
        assert props[key]
    assert props["ro.serialno"] == "emu-1" and props["ro.product.locale"] == "zh-CN"
    packages = device.installed_packages()
    assert {FOOD_PACKAGE, "com.android.launcher3", "com.android.permissioncontroller", "android",
            "com.tencent.mm", "com.android.chrome"} <= set(packages)


def test_keycodes(food: VirtualDevice) -> None:
    tap(food, "优惠券")
    food.press_keycode(4)
    assert food.current_app().activity.endswith(".HomeActivity")
    food.press_keycode(3)
    assert food.current_app().package == "com.android.launcher3"
    food.press_keycode(24)  # volume up: nothing to do here, no error either
    food.press(Key.HOME)
    presses = [e.args for e in food.action_log if e.action.startswith("press")]
    assert presses == [(4,), (3,), (24,), ("home",)]
