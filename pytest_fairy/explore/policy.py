"""The risky-action policy: taps on pay / delete / uninstall / send / logout-like targets are denied
unless the feature allows that category. Non-interactive by design: CI has nobody to ask.

The denial goes back to the brain as the step's outcome and into the report.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from pytest_fairy.explore.action import Action, ActionKind
from pytest_fairy.perception.screen import Screen
from pytest_fairy.spec.risk import risky_category

GUARDED_KINDS = frozenset({ActionKind.TAP, ActionKind.LONG_TAP})


@dataclass(frozen=True)
class RiskPolicy:
    allowed: frozenset[str] = frozenset()
    forbidden: frozenset[str] = frozenset()
    extra_words: Mapping[str, Sequence[str]] = field(default_factory=dict)

    def check(self, action: Action, screen: Screen) -> str | None:
        """None when the action may go ahead, else the reason it is denied."""
        if action.kind not in GUARDED_KINDS:
            return None
        target = action.target(screen)
        if target is None:
            return None
        node = target.node
        for label in (node.text, node.content_desc, node.short_id):
            category = risky_category(label, self.extra_words) if label else None
            if category is None:
                continue
            if category in self.allowed and category not in self.forbidden:
                return None
            return (
                f"denied: '{target.label}' looks like a {category} action, which this feature does not allow "
                f"(add `allow: [{category}]` to the feature to permit it)"
            )
        return None
