"""Tiny screens for tests of the parts above perception (brains, policy, actions), built with the
perception tests' dump builder."""

from __future__ import annotations

from pytest_fairy.perception.screen import Screen, build_screen
from tests.perception.builder import PKG, V, dump, v


def button(text: str, row: int, **flags: bool) -> V:
    top = 200 + row * 150
    return v("Button", (40, top, 1040, top + 120), text=text, clickable=True, **flags)


def screen_of(*elements: V, activity: str = ".MainActivity") -> Screen:
    """A one-window app screen holding the given elements."""
    return build_screen(dump(v("FrameLayout", (0, 0, 1080, 2400), *elements)), activity=activity, package=PKG)
