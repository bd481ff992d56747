"""Perception: from a hierarchy dump and a screenshot to what the explorer and the brain see.

`build_screen(xml)` gives a :class:`Screen` (layers, numbered marks with stable refs, compressed text);
`render_som` draws the marks on a screenshot; `perceive(device)` does both from a live device.

Owns, bottom to top: `hierarchy` (the dump parsed into nodes), `layers` (which window or overlay each
node belongs to; `layer_kind`, `panels` and `overlays` beneath it), `reading` (an element's label, reading
order), `marks` (a numbered element), `refs` (its stable name across screens), `compress` (the text the
brain reads), `screen` (all of it, built once per dump), `som` and `fonts` (the Set-of-Mark picture),
`perceive` (one look at a live device).
May import: `errors`, `devices` for the `Device` protocol that `perceive` reads, and `spec` for the
secrets `perceive` masks.
"""

from pytest_fairy.errors import PerceptionError
from pytest_fairy.perception.hierarchy import Bounds, Node, parse_hierarchy
from pytest_fairy.perception.layers import Layer, LayerKind, detect_layers
from pytest_fairy.perception.marks import Mark
from pytest_fairy.perception.screen import Screen, build_screen

__all__ = [
    "Bounds",
    "Layer",
    "LayerKind",
    "Mark",
    "Node",
    "PerceptionError",
    "Screen",
    "build_screen",
    "detect_layers",
    "parse_hierarchy",
]
