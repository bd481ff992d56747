"""The other face of a button the feature tapped: `Like` become `Liked`, `Follow` become `Following`.

In a feature's search a tap that did something is progress, and the element that took the tapped one's
place on its page would undo it: it is not tried for the rest of the feature, wherever the page is seen
again (what the feature names ahead comes through the goal's order, brain/goal_order.py, not this).
An open exploration has no progress to undo: there the other face is a way of the map like any other.
"""

from __future__ import annotations

from pytest_fairy.explore.decisions import OutcomeKind, StepContext
from pytest_fairy.perception.hierarchy import Bounds


class OtherFaces:
    """The element each tap of the feature left in its place, per page title."""

    def __init__(self) -> None:
        self._tapped: tuple[str, Bounds, str] | None = None  # the last tap: page title, bounds, label
        self._faces: set[tuple[str, str]] = set()  # (page title, ref) of each face that would undo a tap

    def tapped(self, title: str, bounds: Bounds, label: str) -> None:
        """The step about to be taken taps the element `label` at `bounds` on the page titled `title`."""
        self._tapped = (title, bounds, label)

    def undoing(self, ctx: StepContext) -> set[str]:
        """The refs on this screen whose tap would undo what the feature did; first learning the face the
        last step's tap left, when it did something and stayed on its page."""
        tapped, self._tapped = self._tapped, None
        screen = ctx.screen
        if screen.has_dialog:
            return set()
        did = ctx.last is not None and ctx.last.kind is not OutcomeKind.NO_CHANGE
        if tapped is not None and did and screen.title == tapped[0]:
            title, bounds, label = tapped
            face = next((m for m in screen.marks if m.bounds == bounds and m.label != label), None)
            if face is not None:
                self._faces.add((title, face.ref))
        return {ref for title, ref in self._faces if title == screen.title}
