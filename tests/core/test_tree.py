from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_fairy.explore.state import DIALOG_KINDS, IGNORED_KINDS, StateId
from pytest_fairy.explore.tree import SCHEMA_VERSION, FeatureStatus, FeatureTree, SummaryLimits, TreeError
from pytest_fairy.perception.layers import LayerKind
from pytest_fairy.perception.screen import NOT_DIALOG_KINDS


def sid(name: str, dialog: str = "", content: str = "c0") -> StateId:
    return StateId(f"com.mcd.{name.title()}Activity", f"{name}0000000000000000"[:16], dialog, content)


MENU, DIALOG, CART = sid("menu"), sid("menu", "dlg0000000000000"), sid("cart")


def test_record_counts_states_transitions_and_content() -> None:
    tree = FeatureTree()
    first = tree.record(1, None, None, MENU, "麦乐送", False)
    assert (first.new_state, first.new_transition, first.content_changed) == (True, False, False)
    opened = tree.record(
        2, MENU, "tap [4] 配送时间", DIALOG, "请选择您的送达时间", True, action_key="tap|time"
    )
    assert opened.new_state and opened.new_transition
    toggled = tree.record(
        3,
        DIALOG,
        "tap [2] 预约送餐",
        sid("menu", DIALOG.dialog_hash, "later"),
        "",
        True,
        action_key="tap|later",
    )
    assert (
        not toggled.new_state and toggled.new_transition and toggled.content_changed and toggled.new_content
    )
    again = tree.record(
        4,
        sid("menu", DIALOG.dialog_hash, "later"),
        "tap [2] 预约送餐",
        DIALOG,
        "",
        True,
        action_key="tap|later",
    )
    assert not again.new_transition and again.content_changed and not again.new_content
    tree.record(5, DIALOG, "back", MENU, "", False)

    assert tree.path == [MENU.key, DIALOG.key, DIALOG.key, DIALOG.key, MENU.key]
    assert tree.visit_counts == {MENU.key: 2, DIALOG.key: 3}
    info = tree.states[DIALOG.key]
    assert info.is_dialog and info.steps == [2, 3, 4] and info.first_seen == 2
    assert info.title == "请选择您的送达时间" and info.name == DIALOG.name
    assert tree.states[MENU.key].reachable == [DIALOG.key] and info.reachable == [MENU.key]
    assert [t.self_loop for t in tree.transitions] == [False, True, True, False]
    assert tree.transitions[0].action == "tap [4] 配送时间" and tree.transitions[0].action_key == "tap|time"
    assert tree.transitions[-1].action_key == "back"  # defaults to the action text
    assert [e.step for e in tree.recent(2)] == [4, 5] and tree.recent(0) == []
    assert tree.current is tree.states[MENU.key]
    assert tree.edges()[(DIALOG.key, DIALOG.key)] == 2


def test_features_collect_the_states_seen_while_focused() -> None:
    tree = FeatureTree()
    tree.add_feature("麦乐送点餐")
    tree.add_feature("菜单浏览", parent="麦乐送点餐")
    tree.add_feature("配送时间", parent="麦乐送点餐")
    tree.record(1, None, None, MENU, "", False)
    assert tree.focus("配送时间").status is FeatureStatus.EXPLORING
    tree.record(2, MENU, "tap", DIALOG, "", True)
    tree.set_status("配送时间", FeatureStatus.DONE, note="both options tried")
    feature = tree.feature("配送时间")
    assert feature.states == [DIALOG.key] and feature.notes == ["both options tried"]
    assert feature.status is FeatureStatus.DONE
    assert tree.feature("菜单浏览").status is FeatureStatus.PENDING
    with pytest.raises(TreeError, match="no feature '购物车'.*known: 麦乐送点餐, 菜单浏览, 配送时间"):
        tree.feature("购物车")
    with pytest.raises(TreeError, match="already"):
        tree.add_feature("菜单浏览")


def test_dialog_kinds_agree_with_the_screen() -> None:
    assert set(LayerKind) - NOT_DIALOG_KINDS == DIALOG_KINDS
    assert IGNORED_KINDS <= NOT_DIALOG_KINDS


record_steps = st.lists(
    st.tuples(
        st.integers(0, 6),
        st.integers(0, 2),
        st.sampled_from(["tap [1] 确定", "back", "scroll down", None]),
        st.text(max_size=8),
    ),
    min_size=1,
    max_size=40,
)


@settings(max_examples=50, deadline=None)
@given(steps=record_steps, statuses=st.lists(st.sampled_from(list(FeatureStatus)), min_size=3, max_size=3))
def test_json_round_trips(
    steps: list[tuple[int, int, str | None, str]], statuses: list[FeatureStatus]
) -> None:
    tree = FeatureTree()
    tree.add_feature("root")
    tree.add_feature("child", parent="root")
    tree.add_feature("grandchild", parent="child")
    tree.focus("child")
    previous: StateId | None = None
    for i, (state, content, action, title) in enumerate(steps):
        now = sid(f"s{state}", "d" * 16 if state == 6 else "", f"c{content}")
        tree.record(i + 1, previous, action if previous else None, now, title, now.has_dialog)
        previous = now
    for name, status in zip(["root", "child", "grandchild"], statuses, strict=True):
        tree.set_status(name, status, note=f"{name} is {status}")
    text = tree.to_json()
    again = FeatureTree.from_json(text)
    assert again.to_json() == text
    assert again.summary_text() == tree.summary_text()
    assert again.path == tree.path and again.transitions == tree.transitions
    # Recording goes on as before after a reload: a known edge is not new, a known state not new.
    if tree.transitions:
        last = tree.transitions[-1]
        origin = _state_with_key(last.from_key, steps)
        target = _state_with_key(last.to_key, steps)
        repeat = again.record(len(steps) + 1, origin, last.action or None, target, "", target.has_dialog)
        assert not repeat.new_state and not repeat.new_transition


def _state_with_key(key: str, steps: list[tuple[int, int, str | None, str]]) -> StateId:
    for state, content, _, _ in steps:
        candidate = sid(f"s{state}", "d" * 16 if state == 6 else "", f"c{content}")
        if candidate.key == key:
            return candidate
    raise AssertionError(f"no state with key {key}")


def test_json_has_a_schema_version_and_rejects_other_documents() -> None:
    tree = FeatureTree()
    tree.record(1, None, None, MENU, "麦乐送", False)
    data = json.loads(tree.to_json())
    assert data["schema"] == "pytest_fairy.feature_tree" and data["version"] == SCHEMA_VERSION
    assert "麦乐送" in tree.to_json()  # readable, not \\u-escaped
    with pytest.raises(TreeError, match="version 99"):
        FeatureTree.from_json(json.dumps(data | {"version": 99}))
    with pytest.raises(TreeError, match="not a feature tree"):
        FeatureTree.from_json("[]")
    with pytest.raises(TreeError, match="not valid JSON"):
        FeatureTree.from_json("{")
    broken = data | {"transitions": [{"from": "a"}]}
    with pytest.raises(TreeError, match="malformed"):
        FeatureTree.from_json(json.dumps(broken))
    lost = data | {"path": [{"step": 1, "key": "nowhere"}]}
    with pytest.raises(TreeError, match="not in it"):
        FeatureTree.from_json(json.dumps(lost))


def test_summary_names_current_state_visits_and_features() -> None:
    tree = FeatureTree()
    tree.add_feature("麦乐送点餐")
    tree.add_feature("配送时间", parent="麦乐送点餐")
    tree.focus("配送时间")
    tree.record(1, None, None, MENU, "麦乐送", False)
    for step in range(2, 7):
        tree.record(step, MENU if step == 2 else DIALOG, "tap", DIALOG, "请选择您的送达时间", True)
    text = tree.summary_text()
    assert f'Current: {DIALOG.name} "请选择您的送达时间" [dialog], visits 5, 5 step(s) in a row here.' in text
    assert f" * {DIALOG.name}" in text and f" - {MENU.name}" in text
    assert "配送时间 [exploring] (2 states) <- current" in text
    assert f"Recent path: {MENU.name} -> {DIALOG.name}" in text
    # The brain's copy leaves the path out: its memory tells it (the path appears once).
    assert "Recent path" not in tree.summary_text(limits=SummaryLimits(max_path=0))
    assert FeatureTree().summary_text() == "Nothing explored yet."


def test_summary_stays_bounded_for_500_steps() -> None:
    rng = random.Random(7)
    tree = FeatureTree()
    for f in range(40):
        tree.add_feature(
            f"功能 {f} " + "很长的功能名称" * 5,
            parent=None if f < 4 else f"功能 {f % 4} " + "很长的功能名称" * 5,
        )
    previous: StateId | None = None
    limits = SummaryLimits()
    sizes = []
    for step in range(1, 501):
        now = sid(f"s{rng.randrange(300)}", content=f"c{rng.randrange(3)}")
        tree.record(step, previous, "tap [1] " + "按钮" * 30, now, "标题" * 40, rng.random() < 0.2)
        previous = now
        if step % 50 == 0:
            text = tree.summary_text()
            sizes.append(len(text))
            assert len(text) <= limits.max_chars
            state_lines = [line for line in text.splitlines() if line.startswith((" * ", " - "))]
            assert len(state_lines) <= limits.max_states
    assert len(tree.states) > 100
    assert len(tree.summary_text(max_states=4).splitlines()) < len(tree.summary_text().splitlines())
