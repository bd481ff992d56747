from __future__ import annotations

import pytest
from core_walk import Walk
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_fairy.explore.guard import Escape, GuardLimits, LoopGuard, VerdictKind
from pytest_fairy.explore.state import StateId

OK, WARN, ESCAPE, STOP = VerdictKind.OK, VerdictKind.WARN, VerdictKind.ESCAPE, VerdictKind.STOP
NO_LOOP_CHECKS = dict(same_state_warn=99, same_state_escape=99, same_action_warn=99, same_action_escape=99,
                      oscillation_warn_cycles=99, oscillation_escape_cycles=99)


def sid(name: str, dialog: str = "", content: str = "c0") -> StateId:
    return StateId("com.mcd.ProductListActivity", f"{name}00000000", dialog, content)


MENU = sid("menu")
DIALOG = sid("menu", dialog="time")


def test_a_loop_in_the_delivery_dialog_warns_then_dismisses_the_dialog() -> None:
    # Seed 001, steps 3-7: toggle 预约送餐, tap 确定 (reopened the dialog), tap outside (failed),
    # tap 预约送餐 again, tap 尽快送达. Every step ends in the same dialog state.
    walk = Walk()
    walk.see(MENU)
    walk.see(sid("menu", "time", "asap"), "tap [3] 配送时间")
    walk.see(sid("menu", "time", "later"), "tap [7] 预约送餐")
    walk.see(sid("menu", "time", "later"), "tap [9] 确定")
    walk.see(sid("menu", "time", "later"), "tap outside", ok=False)
    verdict = walk.see(sid("menu", "time", "later"), "tap [7] 预约送餐")
    assert walk.kinds()[:4] == [OK, OK, OK, OK]
    assert walk.first(WARN) == 5
    assert verdict.kind is ESCAPE and verdict.escape is Escape.DISMISS_DIALOG
    assert DIALOG.name.split("_")[-1] in verdict.evidence  # the dialog part of the name
    assert "4 steps in a row" in verdict.reason
    assert "[visits 5]" in verdict.evidence


def test_toggling_back_and_forth_counts_as_no_progress() -> None:
    walk = Walk()
    walk.see(MENU)
    walk.see(sid("menu", "time", "asap"), "tap 配送时间")
    walk.see(sid("menu", "time", "later"), "tap 预约送餐")  # a new content: still yielding something
    walk.see(sid("menu", "time", "asap"), "tap 尽快送达")  # back to a seen content: nothing new
    walk.see(sid("menu", "time", "asap"), "tap 确定")
    walk.see(sid("menu", "time", "asap"), "tap 确定")
    assert walk.kinds() == [OK, OK, OK, OK, WARN, ESCAPE]
    assert walk.verdicts[-1].escape is Escape.DISMISS_DIALOG


def test_loop_outside_a_dialog_escapes_with_back() -> None:
    walk = Walk()
    walk.see(MENU)
    for i in range(3):
        walk.see(MENU, f"tap [{i}]")
    assert walk.verdicts[-1].kind is ESCAPE and walk.verdicts[-1].escape is Escape.BACK


def test_oscillation_between_two_states_is_detected() -> None:
    walk = Walk(GuardLimits(same_action_warn=99, same_action_escape=99))
    a, b = sid("list"), sid("detail")
    walk.see(a)
    for _ in range(3):
        walk.see(b, "tap [4] 商品")
        walk.see(a, "back")
    assert walk.first(WARN) == 5  # A B A B A: two full cycles
    assert "oscillating" in walk.verdicts[4].reason
    assert walk.first(ESCAPE) == 7
    assert walk.verdicts[6].escape is Escape.BACK


def test_oscillation_that_keeps_discovering_is_not_a_loop() -> None:
    # List -> detail -> back -> another detail ...: each detail shows new content.
    walk = Walk()
    a, detail = sid("list"), "detail"
    walk.see(a)
    for i in range(12):
        walk.see(sid(detail, content=f"item{i}"), f"tap [{i}] item")
        walk.see(a, "back")
    assert set(walk.kinds()) == {OK}


def test_same_action_repeated_warns_at_3_and_escapes_at_5() -> None:
    walk = Walk(GuardLimits(same_state_warn=99, same_state_escape=99, stagnation_warn=50,
                            stagnation_escape=60, stagnation_stop=70))
    walk.see(MENU)
    for _ in range(5):
        walk.see(MENU, "tap [2] 加入购物车")
    assert walk.kinds() == [OK, OK, OK, WARN, WARN, ESCAPE]
    assert "repeated 3 times" in walk.verdicts[3].reason


def test_repeating_an_action_that_keeps_bringing_new_content_is_fine() -> None:
    walk = Walk()
    walk.see(MENU)
    for page in range(25):
        walk.see(sid("menu", content=f"page{page}"), "scroll down")
    assert set(walk.kinds()) == {OK}


def test_a_cycle_that_only_adds_content_is_a_loop_after_a_few_rounds() -> None:
    """Add task, type, Save, round after round: each Save shows one more task, nothing else is new."""
    walk = Walk()
    walk.see(sid("tasks", content="0 tasks"))
    for n in range(1, 13):
        walk.see(sid("tasks", dialog="add"), "tap|btn_add||")
        walk.see(sid("tasks", dialog="add", content="typed"), "type|et_title||Buy milk")
        walk.see(sid("tasks", content=f"{n} tasks"), "tap|btn_save||")
    assert walk.first(ESCAPE) is not None, walk.kinds()
    assert all(v.ok for v in walk.verdicts[:10])  # the first rounds are what exploring looks like


def test_scrolling_a_long_list_is_never_content_growing_in_a_loop() -> None:
    walk = Walk()
    walk.see(sid("list", content="rows0"))
    for page in range(1, 40):
        walk.see(sid("list", content=f"rows{page}"), "scroll|rv|down|")
    assert set(walk.kinds()) == {OK}


def test_consecutive_failures_stop() -> None:
    walk = Walk()
    walk.see(sid("s0"))
    for i in range(1, 6):
        walk.see(sid(f"s{i}"), f"tap [{i}]", ok=False)
    assert walk.kinds() == [OK, OK, OK, WARN, WARN, STOP]
    assert "5 actions failed in a row" in walk.verdicts[-1].reason


def test_a_success_resets_the_failure_count() -> None:
    walk = Walk()
    walk.see(sid("s0"))
    for i in range(1, 13):
        walk.see(sid(f"s{i}"), f"tap [{i}]", ok=i % 3 == 0)
    assert STOP not in walk.kinds()


def test_stagnation_warns_escapes_once_then_stops() -> None:
    walk = Walk(GuardLimits(**NO_LOOP_CHECKS))
    walk.see(MENU)
    for i in range(16):
        walk.see(MENU, f"tap [{i}]")
    kinds = walk.kinds()
    assert kinds[:8] == [OK] * 8
    assert kinds[8:12] == [WARN] * 4  # 8..11 steps without anything new
    assert kinds[12] is ESCAPE
    assert kinds[13:16] == [WARN] * 3
    assert kinds[16] is STOP


def test_a_second_loop_after_an_escape_goes_straight_to_a_stronger_escape_then_stops() -> None:
    walk = Walk()
    walk.see(MENU)
    walk.see(DIALOG, "tap 配送时间")
    escapes: list[Escape | None] = []
    for i in range(20):
        verdict = walk.see(DIALOG, f"tap [{i % 2}]")
        if verdict.kind is ESCAPE:
            escapes.append(verdict.escape)
        if verdict.kind is STOP:
            break
    assert escapes == [Escape.DISMISS_DIALOG, Escape.BACK, Escape.RESTART]
    assert walk.verdicts[-1].kind is STOP and "after 3 escapes" in walk.verdicts[-1].reason
    # The first loop warns at its 3rd step and escapes at its 4th; later loops escape at their 3rd.
    assert [i + 1 for i, v in enumerate(walk.verdicts) if v.kind is ESCAPE] == [5, 8, 11]
    assert walk.first(WARN) == 4
    assert walk.first(STOP) == 14
    assert walk.guard.escapes == 3


def test_a_new_state_resets_the_escalation() -> None:
    walk = Walk()
    walk.see(MENU)
    walk.see(DIALOG, "tap 配送时间")
    for i in range(3):
        walk.see(DIALOG, f"tap [{i}]")
    assert walk.verdicts[-1].kind is ESCAPE
    walk.see(sid("cart"), "tap 购物车")
    for i in range(2):
        walk.see(sid("cart"), f"tap [{i}]")
    assert walk.verdicts[-1].kind is WARN  # warned first again, not escaped at once


def test_the_guard_has_no_step_cap_of_its_own() -> None:
    """Steps are the feature's budget (max_steps), not the guard's: 500 steps of progress never stop."""
    walk = Walk()
    for i in range(500):
        walk.see(sid(f"s{i}"), None if i == 0 else f"tap [{i}]")
    assert set(walk.kinds()) == {OK}


@pytest.mark.parametrize("flow", ["screens", "form", "list"])
def test_thirty_steps_of_steady_progress_raise_no_alarm(flow: str) -> None:
    walk = Walk()
    walk.see(sid("start"))
    for i in range(30):
        if flow == "screens":
            walk.see(sid(f"screen{i}"), "tap [1] 下一步")
        elif flow == "form":
            walk.see(sid("form", content=f"{i // 2}-{'typed' if i % 2 else 'focused'}"),
                     f"{'type' if i % 2 else 'tap'} [{i // 2}]")
        else:
            walk.see(sid("list", content=f"rows{i}"), "scroll down")
    assert set(walk.kinds()) == {OK}, [v.reason for v in walk.verdicts if not v.ok]


def test_limits_are_checked() -> None:
    with pytest.raises(ValueError, match="same_state_warn <= same_state_escape"):
        GuardLimits(same_state_warn=5, same_state_escape=4)
    with pytest.raises(ValueError, match="max_escapes"):
        GuardLimits(max_escapes=0)


def test_evidence_lists_recent_states_with_visits_and_actions() -> None:
    guard = LoopGuard()
    guard.observe(1, MENU, None, True, True, False)
    guard.observe(2, DIALOG, "tap 配送时间", True, True, True)
    text = guard.evidence()
    assert MENU.name in text and DIALOG.name in text and "<- tap 配送时间" in text
    assert "[visits 1]" in text


def test_evidence_without_the_path_keeps_only_what_the_guard_counts() -> None:
    guard = LoopGuard()
    guard.observe(1, MENU, None, True, True, False)
    assert guard.evidence(path=False) == ""  # nothing repeats yet: nothing to add to a shown path
    for step in range(2, 5):
        guard.observe(step, MENU, "tap 配送时间", True, False, False)
    facts = guard.evidence(path=False)
    assert "Recent states" not in facts and "step 2:" not in facts
    assert "Steps since anything new: 3" in facts and facts in guard.evidence()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 2), st.integers(0, 3), st.booleans()),
                min_size=1, max_size=60))
def test_verdicts_are_consistent(steps: list[tuple[int, int, int, bool]]) -> None:
    walk = Walk()
    for i, (state, content, action, ok) in enumerate(steps):
        verdict = walk.see(sid(f"s{state}", "d" if state == 4 else "", f"c{content}"),
                           None if i == 0 else f"tap [{action}]", ok=ok)
        assert (verdict.escape is not None) == (verdict.kind is ESCAPE)
        assert bool(verdict.reason) == (verdict.kind is not OK)
        if verdict.escape is Escape.DISMISS_DIALOG:
            assert state == 4
        if verdict.kind is STOP:
            break


def test_the_evidence_and_warnings_name_actions_in_words_not_by_their_internal_keys() -> None:
    guard = LoopGuard(GuardLimits(same_action_warn=2))
    key, words = "tap|rg_delivery_time/rb_asap||", "tap [1] 尽快送达"
    guard.observe(step=0, state=sid("a"), action_key=None, succeeded=True, new_state=True, new_transition=False)
    verdict = None
    for step in range(1, 4):
        verdict = guard.observe(step=step, state=sid("a"), action_key=key, succeeded=False, new_state=False,
                                new_transition=False, action_words=words)
    assert verdict is not None and verdict.kind is not VerdictKind.OK
    assert words in verdict.reason and key not in verdict.reason
    assert f"<- {words}" in guard.evidence() and key not in guard.evidence()
    # Without words (a caller that has none), the key is all there is to show.
    bare = LoopGuard()
    bare.observe(step=0, state=sid("a"), action_key=None, succeeded=True, new_state=True, new_transition=False)
    bare.observe(step=1, state=sid("b"), action_key=key, succeeded=True, new_state=True, new_transition=True)
    assert f"<- {key}" in bare.evidence()
