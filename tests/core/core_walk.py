"""Drive a FeatureTree and a LoopGuard the way the explorer does: record, then observe."""

from __future__ import annotations

from dataclasses import dataclass, field

from pytest_fairy.explore.guard import GuardLimits, GuardVerdict, LoopGuard, VerdictKind
from pytest_fairy.explore.state import StateId
from pytest_fairy.explore.tree import FeatureTree, RecordResult


@dataclass
class Walk:
    limits: GuardLimits = field(default_factory=GuardLimits)
    tree: FeatureTree = field(default_factory=FeatureTree)
    verdicts: list[GuardVerdict] = field(default_factory=list)
    records: list[RecordResult] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.guard = LoopGuard(self.limits)
        self.previous: StateId | None = None
        self.step = 0

    def see(
        self, state: StateId, action: str | None = None, *, ok: bool = True, title: str = ""
    ) -> GuardVerdict:
        self.step += 1
        result = self.tree.record(self.step, self.previous, action, state, title, state.has_dialog,
                                  action_key=action)
        verdict = self.guard.observe(self.step, state, action, ok, result.new_state, result.new_transition)
        self.previous = state
        self.records.append(result)
        self.verdicts.append(verdict)
        return verdict

    def kinds(self) -> list[VerdictKind]:
        return [v.kind for v in self.verdicts]

    def first(self, kind: VerdictKind) -> int | None:
        """The step (1-based) of the first verdict of `kind`, or None."""
        return next((i + 1 for i, v in enumerate(self.verdicts) if v.kind is kind), None)
