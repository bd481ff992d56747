"""The risky-action policy: any action on a pay / delete / uninstall / send / logout-like element is denied
unless the feature allows that category. Non-interactive by design: CI has nobody to ask.

No side doors: every action aimed at an element obeys it - a tap, a long tap, typing (which taps the
field first), a scroll or swipe on it (swipe-to-pay, swipe-to-delete) - and so does an action a project's
review hook puts in place of the brain's (`step.choose` checks both). The element is risky when its
text, content-desc or resource-id, or the label a person reads on it (the first text inside a clickable
row), holds a risky word. Enter submits the focused field, so it obeys the policy as an action on that
field (a chat box whose id says send). Actions on no element (back, restart, a scroll of the whole
screen, enter with no field focused) are not the policy's.

The denial goes back to the brain as the step's outcome and into the report.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from pytest_fairy.explore.action import Action, ActionKind
from pytest_fairy.perception.screen import Screen
from pytest_fairy.spec.risk import risky_category

# Every kind that can be aimed at an element.
GUARDED_KINDS = frozenset({ActionKind.TAP, ActionKind.LONG_TAP, ActionKind.TYPE, ActionKind.SCROLL})


@dataclass(frozen=True)
class RiskPolicy:
    allowed: frozenset[str] = frozenset()
    forbidden: frozenset[str] = frozenset()
    extra_words: Mapping[str, Sequence[str]] = field(default_factory=dict)

    def check(self, action: Action, screen: Screen) -> str | None:
        """None when the action may go ahead, else the reason it is denied."""
        if action.kind is ActionKind.ENTER:
            target = next((m for m in screen.marks if m.node.focused and m.node.editable), None)
        elif action.kind in GUARDED_KINDS:
            target = action.target(screen)
        else:
            return None
        if target is None:
            return None
        node = target.node
        for label in (node.text, node.content_desc, node.short_id, target.label):
            category = risky_category(label, self.extra_words) if label else None
            # Each word the element carries is checked: an allowed one does not let another through.
            if category is None or (category in self.allowed and category not in self.forbidden):
                continue
            return (
                f"denied: '{target.label}' looks like a {category} action, which this feature does not allow "
                f"(add `allow: [{category}]` to the feature to permit it)"
            )
        return None
