"""Perception cost per exploration step: parse + layers + marks + refs + text, and Set-of-Mark drawing.

    /work/venv/bin/python benchmarks/bench_perception.py [--repeat 30]

Prints median milliseconds per call and the compressed text's size relative to the XML, then the
Set-of-Mark time of the menu screen with one element of absurd bounds (`[-500,-500][99999999,99999999]`,
as real phones report) beside the same screen without it: bounds are clipped to the screen where the
dump is read, so the two should match (unclipped, that one box cost over a second).
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
from tests.perception.builder import (  # noqa: E402
    PKG,
    decor,
    dump,
    menu_screen,
    menu_window,
    nav_bar,
    status_bar,
    v,
)

MARKS_TARGET = 60
ABSURD = (-500, -500, 99999999, 99999999)


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


def with_absurd_element() -> str:
    """The menu screen plus one clickable view of absurd bounds over its page."""
    overlay = v("FrameLayout", ABSURD, rid="absurd_overlay", clickable=True)
    return dump(status_bar(), menu_window(overlay=overlay), nav_bar())


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
    plain = build_screen(dump(status_bar(), menu_window(), nav_bar()), package=PKG)
    absurd = build_screen(with_absurd_element(), package=PKG)
    assert len(absurd.marks) == len(plain.marks) + 1, "the absurd element should be marked"
    without = median_ms(partial(render_som, shot, plain), args.repeat)
    with_it = median_ms(partial(render_som, shot, absurd), args.repeat)
    print(
        f"render_som with one absurd-bounds element {with_it:6.1f} ms  without it {without:6.1f} ms  "
        f"ratio {with_it / without:4.2f}x"
    )


if __name__ == "__main__":
    main()
