"""One look at the device: dump, foreground app and screenshot -> Screen + Set-of-Mark images."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from pytest_fairy.devices.protocol import Device, toasts_of
from pytest_fairy.errors import PerceptionError
from pytest_fairy.perception.screen import Screen, build_screen
from pytest_fairy.perception.som import DEFAULT_JPEG_QUALITY, DEFAULT_LONG_EDGE, SomImages, render_som


@dataclass(frozen=True)
class Perception:
    screen: Screen
    screenshot: Image.Image
    som: SomImages


def perceive(
    device: Device,
    *,
    llm_long_edge: int = DEFAULT_LONG_EDGE,
    jpeg_quality: int = DEFAULT_JPEG_QUALITY,
) -> Perception:
    """Look at `device` once; `llm_long_edge` and `jpeg_quality` shape the image sent to the LLM.

    DeviceError (and DeviceLost) pass through untouched; a dump that cannot be understood raises
    PerceptionError naming the device.
    """
    app = device.current_app()
    xml = device.dump_hierarchy()
    # Taken right after the dump so that boxes and pixels show the same moment as far as possible.
    screenshot = device.screenshot()
    toasts = toasts_of(device)
    try:
        screen = build_screen(xml, activity=app.activity, package=app.package, toasts=toasts)
    except PerceptionError as exc:
        raise PerceptionError(f"device {device.serial}: {exc}") from exc
    som = render_som(screenshot, screen, llm_long_edge=llm_long_edge, jpeg_quality=jpeg_quality)
    return Perception(screen, screenshot, som)
