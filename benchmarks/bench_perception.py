"""Perception cost per exploration step: parse + layers + marks + refs + text, and Set-of-Mark drawing.

    /work/venv/bin/python benchmarks/bench_perception.py [--repeat 30]

Prints median milliseconds per call and the compressed text's size relative to the XML.
"""

from __future__ import annotations

import argparse
import sys
from functools import partial
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from timing import median_ms  # noqa: E402

from pytest_fairy.perception.hierarchy import parse_hierarchy  # noqa: E402
from pytest_fairy.perception.screen import build_screen  # noqa: E402
from pytest_fairy.perception.som import render_som  # noqa: E402
from tests.perception.builder import PKG, decor, dump, menu_screen, nav_bar, status_bar, v  # noqa: E402

MARKS_TARGET = 60


def sixty_marks() -> str:
    """A dense grid screen: 60 clickable cells with text, as a busy home page has."""
    cells = [
        v(
            "TextView",
            (20 + (i % 4) * 265, 100 + (i // 4) * 145, 265 + (i % 4) * 265, 230 + (i // 4) * 145),
            text=f"功能 {i}",
            rid="cell",
            clickable=True,
        )
        for i in range(MARKS_TARGET)
    ]
    return dump(status_bar(), decor(v("LinearLayout", (0, 63, 1080, 2337), *cells)), nav_bar())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    shot = Image.new("RGB", (1080, 2400), (245, 245, 245))
    for name, xml in (("menu (40-row list)", menu_screen()), ("grid (60 marks)", sixty_marks())):
        screen = build_screen(xml, package=PKG)
        parse = median_ms(partial(parse_hierarchy, xml), args.repeat)
        build = median_ms(partial(build_screen, xml, package=PKG), args.repeat)
        som = median_ms(partial(render_som, shot, screen), args.repeat)
        ratio = len(screen.text) / len(xml)
        print(
            f"{name:20} marks={len(screen.marks):3d}  parse {parse:6.1f} ms  build_screen {build:6.1f} ms  "
            f"render_som(1080x2400 -> 1024) {som:6.1f} ms  text/xml {ratio:5.1%} "
            f"({len(screen.text)} / {len(xml)} chars)"
        )


if __name__ == "__main__":
    main()
