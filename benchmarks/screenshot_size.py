"""What long edge the Set-of-Mark screenshot sent to the model needs: tokens per image, and whether the mark
numbers stay legible, at several long edges (bench_cost.py --section screenshot).

Tokens: Claude's published estimate for an image, width x height / 750, after the API's own downscale of an
image whose long edge exceeds 1568 px or whose area exceeds 1.15 megapixels (platform docs, "Images and
vision", checked 2026-11-26). The local fake API counts the same way.

Legibility, a proxy (nothing here reads the image; the fake API's stand-in model reads the screen's text,
not the picture): the product draws each badge on the full-size screenshot with a font chosen so that the
number is `LLM_MIN_FONT_PX` (13 px) tall once scaled to the long edge (perception/som.py), so a smaller
image keeps readable digits by making badges larger on the screen. What a smaller image costs is then
measured by what the larger badges do: the share of badges that find no free place and overlap another
(two numbers drawn over each other are not legible, whatever their size), the share of marks whose badge
covers more than half of its element (its text hidden), and the share of the screen under badges. A size
passes when the digits are at least 13 px and no screen has more badges overlapping than at the product's
1024 px. The screens: the 138 public dumps of real apps in tests/perception/real_screens. Beside
them, the median height of a marked element in the image sent (`text px`, an upper bound on its own text's
height): the app's text shrinks with the image, badges or not.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pytest_fairy.perception.screen import Screen  # noqa: E402
from pytest_fairy.perception.som import (  # noqa: E402
    BADGE_PAD_FRACTION,
    FULL_MIN_FONT_PX,
    LLM_MIN_FONT_PX,
    _badge,
    _badge_positions,
    _overlaps,
    _to_image,
)
from tests.perception.real_screens.corpus import names, screen_of  # noqa: E402

LONG_EDGES = (512, 640, 768, 896, 1024, 1280, 1568)
PRODUCT_EDGE = 1024
API_LONG_EDGE = 1568
API_PIXELS = 1_150_000
PIXELS_PER_TOKEN = 750


def tokens(width: int, height: int) -> int:
    """Claude's estimate for an image of this size, after the API's own downscale."""
    scale = min(1.0, API_LONG_EDGE / max(width, height), math.sqrt(API_PIXELS / (width * height)))
    return math.ceil(round(width * scale) * round(height * scale) / PIXELS_PER_TOKEN)


@dataclass(frozen=True)
class Badges:
    digit_px: float  # the number's height in the image sent
    collided: float  # share of badges drawn over another
    covering: float  # share of marks whose badge covers more than half of the element
    area: float  # share of the screen under badges
    text_px: float  # the median height of the app's own text marks in the image sent


def badges(screen: Screen, size: tuple[int, int], long_edge: int) -> Badges:
    """The badges render_som draws for `screen` on a screenshot of `size`, sent at `long_edge`: the same
    font, padding and placement (perception/som.py), measured instead of drawn."""
    scale = min(1.0, long_edge / max(size))
    font_px = max(FULL_MIN_FONT_PX, math.ceil(LLM_MIN_FONT_PX / scale))
    pad = max(2, round(font_px * BADGE_PAD_FRACTION))
    placed: list[tuple[int, int, int, int]] = []
    collided = covering = 0
    for mark in screen.marks:
        box = _to_image(mark.bounds, 1.0, 1.0)
        badge = _badge(str(mark.number), (0, 0, 0), font_px, pad)
        options = _badge_positions(box, badge.width, badge.height, size)
        free = next((r for r in options if not any(_overlaps(r, p) for p in placed)), None)
        collided += free is None
        rect = free or options[0]
        placed.append(rect)
        element = max(1, (box[2] - box[0]) * (box[3] - box[1]))
        inside = max(0, min(rect[2], box[2]) - max(rect[0], box[0])) * max(
            0, min(rect[3], box[3]) - max(rect[1], box[1])
        )
        covering += inside > element / 2
    marks = max(1, len(screen.marks))
    area = sum((r[2] - r[0]) * (r[3] - r[1]) for r in placed) / (size[0] * size[1])
    heights = sorted(m.bounds.bottom - m.bounds.top for m in screen.marks if m.label) or [0]
    return Badges(
        font_px * scale, collided / marks, covering / marks, area, heights[len(heights) // 2] * scale
    )


def corpus() -> dict[str, tuple[Screen, tuple[int, int]]]:
    """The public dumps of real apps' screens (tests/perception/real_screens), each with its screen size:
    far denser than the example apps, which is where badges run out of room."""
    found: dict[str, tuple[Screen, tuple[int, int]]] = {}
    for name in names():
        screen = screen_of(name)
        size = (screen.bounds.right, screen.bounds.bottom)
        if screen.marks and min(size) > 0:
            found[name] = (screen, size)
    return found


def study() -> None:
    found = corpus()
    at = {edge: {n: badges(s, z, edge) for n, (s, z) in found.items()} for edge in LONG_EDGES}
    marks = sorted(len(s.marks) for s, _ in found.values())
    print(
        f"\nscreenshot study: {len(found)} real screens (tests/perception/real_screens), "
        f"{marks[0]}-{marks[-1]} marks, median {marks[len(marks) // 2]}; tokens for a 1080x2400 screen"
    )
    print(f"{'edge':>6}{'image':>11}{'tokens':>8}{'digit px':>9}{'text px':>8}{'overlap':>8}{'worst':>6}"
          f"{'cover':>7}{'area':>6}{f'screens worse than {PRODUCT_EDGE}/{API_LONG_EDGE}':>31}")  # fmt: skip
    for edge in LONG_EDGES:
        scale = min(1.0, edge / 2400)
        w, h = round(1080 * scale), round(2400 * scale)
        row = at[edge].values()
        digits = min(b.digit_px for b in row)
        text = sorted(b.text_px for b in row)[len(row) // 2]
        overlap, worst = sum(b.collided for b in row) / len(row), max(b.collided for b in row)
        cover, area = sum(b.covering for b in row) / len(row), sum(b.area for b in row) / len(row)
        worse = [
            sum(at[edge][n].collided > at[ref][n].collided for n in found)
            for ref in (PRODUCT_EDGE, API_LONG_EDGE)
        ]
        verdict = "legible" if digits >= LLM_MIN_FONT_PX and worse[0] == 0 else "NOT legible"
        size = f"{w}x{h}"
        print(f"{edge:>6}{size:>11}{tokens(w, h):>8}{digits:>9.1f}{text:>8.1f}{overlap:>8.1%}{worst:>6.0%}"
              f"{cover:>7.1%}{area:>6.1%}{f'{worse[0]} / {worse[1]}':>31}  {verdict}")  # fmt: skip


if __name__ == "__main__":
    study()
