"""One look at the device: dump, foreground app and screenshot -> Screen + Set-of-Mark images."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from pytest_fairy.devices.protocol import Device, toasts_of
from pytest_fairy.errors import PerceptionError
from pytest_fairy.perception.screen import Screen, build_screen
from pytest_fairy.perception.som import DEFAULT_JPEG_QUALITY, DEFAULT_LONG_EDGE, SomImages, render_som
from pytest_fairy.spec.secrets import NO_SECRETS, PLACEHOLDER, Secrets

# What covers a view that shows a secret on the screenshot (the dump shows its placeholder instead).
SECRET_FILL = (96, 96, 96)


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
    secrets: Secrets = NO_SECRETS,
) -> Perception:
    """Look at `device` once; `llm_long_edge` and `jpeg_quality` shape the image sent to the LLM.

    The values of `secrets` never leave here: the dump and the toasts show their placeholders, and the
    views that show one are covered on the screenshot (a signed-in name, a typed account).

    DeviceError (and DeviceLost) pass through untouched; a dump that cannot be understood raises
    PerceptionError naming the device.
    """
    app = device.current_app()
    xml = device.dump_hierarchy()
    # Taken right after the dump so that boxes and pixels show the same moment as far as possible.
    screenshot = device.screenshot()
    toasts = toasts_of(device)
    if secrets:
        xml, toasts = secrets.mask_xml(xml), [secrets.mask(t) for t in toasts]
    try:
        screen = build_screen(xml, activity=app.activity, package=app.package, toasts=toasts)
    except PerceptionError as exc:
        raise PerceptionError(f"device {device.serial}: {exc}") from exc
    if secrets:
        screenshot = cover_secrets(screenshot, screen)
    som = render_som(screenshot, screen, llm_long_edge=llm_long_edge, jpeg_quality=jpeg_quality)
    return Perception(screen, screenshot, som)


def cover_secrets(screenshot: Image.Image, screen: Screen) -> Image.Image:
    """The screenshot with every view whose text or description holds a secret's placeholder covered."""
    shown = [n for n in screen.nodes() if PLACEHOLDER.search(n.text) or PLACEHOLDER.search(n.content_desc)]
    if not shown:
        return screenshot
    covered = screenshot.copy()
    draw = ImageDraw.Draw(covered)
    for node in shown:
        b = node.bounds
        draw.rectangle((b.left, b.top, b.right - 1, b.bottom - 1), fill=SECRET_FILL)
    return covered
