"""`UiState`: what the app's views hold beside its variables - the state layout reads and gestures change."""

from __future__ import annotations

from dataclasses import dataclass, field

from fairy_virtual.model import Scalar


@dataclass
class UiState:
    """The app's mutable UI state that layout reads: variables, widget states, scroll, focus."""

    variables: dict[str, Scalar]
    checked: dict[str, bool] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)
    scroll: dict[str, int] = field(default_factory=dict)
    focused: str | None = None

    def forget(self, scope: str) -> None:
        """The screen or dialog `scope` (its id; `dialog:ID`) shown anew, as a new activity or dialog is:
        what its unbound views held goes (checkables as the model writes them, fields empty, lists at
        the top). A screen Back uncovers is the same instance and keeps them."""
        prefix = f"{scope}/"
        for held in (self.checked, self.texts, self.scroll):
            for key in [key for key in held if key.startswith(prefix)]:
                del held[key]
