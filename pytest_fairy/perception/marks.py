"""A mark: an element the explorer may act on, numbered as drawn on the Set-of-Mark screenshot.

Its own module, below the screen, because the refs that name marks and match them across screens are
built before the screen that holds them.
"""

from __future__ import annotations

from dataclasses import dataclass

from pytest_fairy.perception.hierarchy import Bounds, Node
from pytest_fairy.perception.layers import LayerKind
from pytest_fairy.perception.reading import node_label


@dataclass(frozen=True, slots=True, repr=False)
class Mark:
    """A numbered element on the screen (the number drawn on the Set-of-Mark screenshot)."""

    number: int
    node: Node
    ref: str
    layer: LayerKind

    def __repr__(self) -> str:
        return f"Mark([{self.number}] {self.ref!r} {self.layer} {self.node.short_class} {self.bounds})"

    @property
    def bounds(self) -> Bounds:
        return self.node.bounds

    @property
    def center(self) -> tuple[int, int]:
        return self.node.bounds.center

    @property
    def label(self) -> str:
        return node_label(self.node)
