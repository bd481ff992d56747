"""Perception: from a hierarchy dump and a screenshot to what the explorer and the brain see.

`build_screen(xml)` gives a :class:`Screen` (layers, numbered marks with stable refs, compressed text);
`render_som` draws the marks on a screenshot; `perceive(device)` does both from a live device.
"""

from pytest_fairy.errors import PerceptionError
from pytest_fairy.perception.hierarchy import Bounds, Node, parse_hierarchy
from pytest_fairy.perception.layers import Layer, LayerKind, detect_layers
from pytest_fairy.perception.screen import Mark, Screen, build_screen

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
