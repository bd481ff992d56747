"""Every screen of the example food app, as the virtual device dumps it, makes a sound Screen."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_fairy.perception.layers import LayerKind
from pytest_fairy.perception.perceive import perceive

from .marks_text import numbers_in

virtual = pytest.importorskip("fairy_virtual", reason="the virtual device is not there yet")
FOOD = Path(__file__).parents[2] / "example_suites" / "food" / "app.yaml"


@pytest.fixture(scope="module")
def device():  # type: ignore[no-untyped-def]
    if not FOOD.is_file():
        pytest.skip(f"{FOOD} is not there yet")
    return virtual.VirtualDevice(FOOD, latency=False)


def screen_ids() -> list[str]:
    if not FOOD.is_file():
        return []
    return [screen.id for screen in virtual.load_app_model(FOOD).screens]


@pytest.mark.parametrize("screen_id", screen_ids())
def test_every_food_screen_makes_a_sound_screen(device, screen_id: str) -> None:  # type: ignore[no-untyped-def]
    package = device.app_model.app.package
    activity = next(s.activity for s in device.app_model.screens if s.id == screen_id)
    device.stop(package)
    device.launch(package, activity)
    seen = perceive(device)
    screen = seen.screen
    assert screen.package == package and screen.title
    assert any(layer.kind is LayerKind.APP for layer in screen.layers)
    refs = [m.ref for m in screen.marks]
    assert len(refs) == len(set(refs))
    assert numbers_in(screen.text) == {m.number for m in screen.marks}
    assert len(screen.text) <= 0.12 * len(screen.xml)
    assert seen.som.full.size == seen.screenshot.size


def test_the_delivery_time_dialog_is_a_dialog_with_a_way_out(device) -> None:  # type: ignore[no-untyped-def]
    package = device.app_model.app.package
    delivery = next((s for s in device.app_model.screens if s.id == "delivery"), None)
    if delivery is None:
        pytest.skip("the food app has no delivery screen")
    device.stop(package)
    device.launch(package, delivery.activity)
    screen = perceive(device).screen
    if not screen.has_dialog:
        pytest.skip("the delivery screen opened without its dialog")
    assert screen.find_text("请选择您的送达时间")
    assert all(m.layer is screen.top_layer.kind for m in screen.marks)
    way_out = screen.dismiss_mark()
    assert way_out is not None and way_out.label == "确定"
