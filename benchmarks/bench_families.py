"""States per screen visited on a generated shop of 300 named products: without and with state families.

    python benchmarks/bench_families.py

A walk opens every product from the list and goes back (the list scrolled a page every 8 products), as an
explorer touring a catalogue does: 600 screens. Target: <= 3 states for the detail pages.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pytest_fairy.explore.families import FAMILY_LIMIT, Families  # noqa: E402
from pytest_fairy.explore.state import identify, layout_of  # noqa: E402
from pytest_fairy.perception.screen import build_screen  # noqa: E402
from tests.perception.catalogue import detail_page, list_page  # noqa: E402

PRODUCTS = 300


def main() -> None:
    families = Families()
    raw: dict[str, set[str]] = {"list": set(), "detail": set()}
    folded: dict[str, set[str]] = {"list": set(), "detail": set()}
    screens = 0
    started = time.perf_counter()
    for k in range(PRODUCTS):
        for kind, xml, activity in (
            ("list", list_page(k - k % 8), ".ListActivity"),
            ("detail", detail_page(k), ".DetailActivity"),
        ):
            screen = build_screen(xml, activity=activity)
            state = identify(screen)
            raw[kind].add(state.key)
            folded[kind].add(families.canonical(state, layout_of(screen)).key)
            screens += 1
    elapsed = time.perf_counter() - started
    per_screen = elapsed * 1000 / screens
    print(f"{PRODUCTS} named products, {screens} screens visited ({per_screen:.1f} ms a screen)")
    print(f"{'':24} {'list states':>12} {'detail states':>14} {'states / screen':>16}")
    for name, states in (("state identity alone", raw), (f"with families (limit {FAMILY_LIMIT})", folded)):
        total = len(states["list"]) + len(states["detail"])
        print(f"{name:24} {len(states['list']):>12} {len(states['detail']):>14} {total / screens:>16.3f}")
    print(f"detail states with families: {len(folded['detail'])} (target <= 3); "
          f"{len(raw['detail']) / len(folded['detail']):.0f}x fewer")


if __name__ == "__main__":
    main()
