"""What decides the verdict of one feature, besides what the app shows: its oracles, the risky actions it
may take, and the project's own checks and reviews (pytest_fairy's hooks arrive here)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from pytest_fairy.explore.action import Action
from pytest_fairy.explore.oracles import Finding, Observation
from pytest_fairy.explore.policy import RiskPolicy
from pytest_fairy.perception.screen import Screen
from pytest_fairy.spec.model import After, Oracle

# A second opinion on each action the risk policy let through: None lets it go, a string vetoes it (the
# reason, fed back to the brain as a denial), an Action is taken instead.
ActionReview = Callable[[Action, Screen, int], str | Action | None]
# An extra defect oracle, asked on every screen: each Finding it returns fails the item.
DefectCheck = Callable[[Observation], Iterable[Finding]]


@dataclass(frozen=True)
class Mission:
    """What decides the verdict of one feature: its oracles and the risky actions it may take, plus the
    project's own additions (pytest_fairy's hooks arrive here): `checks` for more defects, `review` to
    veto or rewrite actions; `after`, what the done-when must hold again after."""

    done_when: Sequence[Oracle] = ()
    must_not: Sequence[Oracle] = ()
    policy: RiskPolicy = field(default_factory=RiskPolicy)
    checks: Sequence[DefectCheck] = ()
    review: ActionReview | None = None
    after: After | None = None  # the done-when must hold again after this (`keeping`)
