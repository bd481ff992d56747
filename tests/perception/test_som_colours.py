"""The model is told the mark colours as they are drawn (dialogs and popups are not red)."""

from __future__ import annotations

import colorsys

from pytest_fairy.brain.claude_settings import ClaudeSettings
from pytest_fairy.brain.context import MessageBuilder
from pytest_fairy.perception.layers import LayerKind
from pytest_fairy.perception.som import LAYER_COLOUR_NAMES, LAYER_COLOURS

# Hue ranges in degrees, as a person would name a colour; dark red and olive are also dark (value < 0.6).
HUES = [("red", 345, 360), ("red", 0, 15), ("orange", 15, 45), ("olive", 45, 75), ("green", 75, 165),
        ("teal", 165, 195), ("blue", 195, 255), ("purple", 255, 345)]


def named(rgb: tuple[int, int, int]) -> str:
    h, s, v = colorsys.rgb_to_hsv(*(c / 255 for c in rgb))
    if s < 0.15:
        return "grey"
    hue = h * 360
    name = next(n for n, lo, hi in HUES if lo <= hue < hi)
    return "dark red" if name == "red" and v < 0.6 else name


def test_every_layer_has_a_colour_name_that_matches_what_is_drawn() -> None:
    assert set(LAYER_COLOUR_NAMES) == set(LayerKind) == set(LAYER_COLOURS)
    for kind, rgb in LAYER_COLOURS.items():
        assert named(rgb) == LAYER_COLOUR_NAMES[kind], (kind, rgb)
    assert LAYER_COLOUR_NAMES[LayerKind.DIALOG] != "red" and LAYER_COLOUR_NAMES[LayerKind.POPUP] != "red"


def test_the_system_prompt_names_the_colours_of_dialogs_and_popups() -> None:
    text = MessageBuilder(ClaudeSettings().context_limits()).system(None)[0]["text"]
    assert "blue: a dialog" in text and "purple: a popup or menu" in text and "red: the app" in text
    assert "has a red box" not in text
