"""One count of steps, states and transitions, the same in the summary line, the tree's text and its
JSON; and a feature's sub-features are pending until the brain works on one (a passed feature listed them
all as `[exploring] (0 states)`)."""

from __future__ import annotations

from pathlib import Path

from fairy_virtual import VirtualDevice
from pytest_fairy import load_spec
from pytest_fairy.brain.offline import OfflineBrain
from pytest_fairy.explore.briefing import mission_of, target_of
from pytest_fairy.explore.explorer import Explorer
from pytest_fairy.explore.verdict import Verdict
from pytest_fairy.report.tree_layout import tree_layout

FOOD = Path(__file__).resolve().parents[2] / "example_suites" / "food"


def test_counts_agree_and_untouched_sub_features_stay_pending() -> None:
    spec = load_spec(FOOD / "test_food.yaml")
    feature = next(f for f in spec.features if f.sub_features)
    result = Explorer(VirtualDevice(FOOD, latency=False), OfflineBrain()).explore(
        target_of(spec, feature), mission_of(spec, feature)
    )
    assert result.verdict is Verdict.PASSED, result.reason
    tree = result.tree
    assert tree.steps == result.steps == len(tree.transitions)
    assert f"{len(tree.states)} states, {len(tree.transitions)} transitions, {result.steps} steps." in (
        tree.summary_text()
    )
    assert f"{result.steps} steps, {len(tree.states)} states, {len(tree.transitions)} transitions" in (
        result.figures()
    )
    assert f"{result.steps} steps." in tree_layout(tree).title  # the tree picture's heading
    statuses = {
        sub.name: (sub.status.value, len(sub.states)) for sub in tree.feature(feature.name).sub_features
    }
    assert statuses == {name: ("pending", 0) for name in feature.sub_features}, statuses
