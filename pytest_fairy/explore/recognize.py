"""Which state the app is in: said in one place, for the loop and for a defect's confirmation alike.

A screen's state is first its identity (explore/state.py: the hierarchy hashed with dynamic text filtered
and dialogs apart), then its family's (explore/families.py: a page of a known layout past the family's
limit is recorded as the family's first state). The identifier's knobs and the family limit come from
`ExplorerSettings`; the families grow with the run, so a `Recognizer` belongs to one exploration.
"""

from __future__ import annotations

from pytest_fairy.explore.families import Families
from pytest_fairy.explore.state import StateId, StateIdentifier, layout_of
from pytest_fairy.perception.screen import Screen


class Recognizer:
    def __init__(self, identifier: StateIdentifier | None = None, families: Families | None = None) -> None:
        self.identifier = identifier or StateIdentifier()
        self.families = families or Families()

    def state_of(self, screen: Screen) -> StateId:
        """The state `screen` shows, as the run records it."""
        return self.families.canonical(self.identifier.identify(screen), layout_of(screen))
