"""The core on real dumps: build_screen -> identify -> FeatureTree.record -> LoopGuard.observe."""

from __future__ import annotations

from core_dumps import V, dump, v, window
from core_screens import ACTIVITY, PKG, dish, menu_page, time_dialog
from core_walk import Walk

from pytest_fairy.explore.guard import Escape, VerdictKind
from pytest_fairy.explore.state import StateId, identify
from pytest_fairy.perception.screen import build_screen


def seen(*windows: V, activity: str = ACTIVITY) -> StateId:
    return identify(build_screen(dump(*windows), activity=activity))


def test_the_delivery_dialog_trace_warns_by_the_3rd_repeat_and_dismisses_the_dialog_by_the_4th() -> None:
    walk = Walk()
    walk.see(seen(menu_page()), title="麦乐送")
    walk.see(seen(menu_page(), time_dialog()), "tap [4] 配送时间")
    walk.see(seen(menu_page(), time_dialog(later=True)), "tap [2] 预约送餐")  # repeat 1
    walk.see(seen(menu_page(), time_dialog(later=False)), "tap [1] 尽快送达")  # repeat 2
    third = walk.see(seen(menu_page(), time_dialog()), "tap outside", ok=False)  # repeat 3
    fourth = walk.see(seen(menu_page(), time_dialog(eta="13:05")), "tap [1] 尽快送达")  # repeat 4
    assert walk.kinds()[:4] == [VerdictKind.OK] * 4
    assert third.kind is VerdictKind.WARN
    assert fourth.kind is VerdictKind.ESCAPE and fourth.escape is Escape.DISMISS_DIALOG
    assert "+dlg_" in fourth.evidence
    # The tree saw the dialog as its own state, entered once and then only self-loops.
    dialog_key = walk.tree.path[-1]
    assert walk.tree.states[dialog_key].is_dialog and walk.tree.states[dialog_key].visits == 5
    assert [t.self_loop for t in walk.tree.transitions] == [False, True, True, True, True]
    assert [r.content_changed for r in walk.records[2:4]] == [True, True]


def form(values: list[str], focused: int | None) -> V:
    fields = [v("EditText", value or f"第{i}项", id=f"field{i}", focused=i == focused)
              for i, value in enumerate(values)]
    return window(PKG, v("TextView", "填写收货地址", id="title"),
                  v("ScrollView", "", v("LinearLayout", "", *fields), scrollable=True),
                  v("Button", "保存", id="save", clickable=True))


def test_filling_a_long_form_field_by_field_raises_no_alarm() -> None:
    walk = Walk()
    values = [""] * 15
    walk.see(seen(form(values, None), activity="com.mcd.AddressActivity"))
    for i in range(15):
        walk.see(seen(form(values, i), activity="com.mcd.AddressActivity"), f"tap [{i + 1}]")
        values[i] = f"{dish(i)}路"
        walk.see(seen(form(values, i), activity="com.mcd.AddressActivity"), f"type [{i + 1}]")
    assert len(walk.tree.states) == 1
    assert set(walk.kinds()) == {VerdictKind.OK}, [v.reason for v in walk.verdicts if not v.ok]


def test_scrolling_a_200_row_list_page_by_page_raises_no_alarm() -> None:
    walk = Walk()
    for page in range(31):
        walk.see(seen(menu_page(first=page * 6, rows=6)), None if page == 0 else "scroll down")
    assert len(walk.tree.states) == 1
    assert set(walk.kinds()) == {VerdictKind.OK}, [v.reason for v in walk.verdicts if not v.ok]


def test_walking_through_30_screens_raises_no_alarm() -> None:
    walk = Walk()
    for i in range(31):
        page = window(PKG, v("TextView", dish(i), id="title"),
                      v("Button", "下一步", id="next", clickable=True))
        walk.see(seen(page, activity=f"com.mcd.Step{i}Activity"), None if i == 0 else "tap [1] 下一步")
    assert len(walk.tree.states) == 31
    assert set(walk.kinds()) == {VerdictKind.OK}
