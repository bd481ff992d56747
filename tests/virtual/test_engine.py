"""Behaviour of the virtual device: navigation, dialogs, inputs, lists, dynamic text, crashes, lifecycle."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from virtual_helpers import FOOD, FOOD_PACKAGE, NOTES, NOTES_PACKAGE, find, nodes, tap, texts

from fairy_virtual import AppModel, ManualClock, VirtualDevice, load_app_model, parse_app_model
from pytest_fairy.devices.protocol import Key
from pytest_fairy.errors import DeviceError
from pytest_fairy.perception.hierarchy import parse_hierarchy

LAUNCHER = "com.android.launcher3"


def structure(device: VirtualDevice) -> list[tuple[str, str, str]]:
    return [(n.class_name, n.resource_id, str(n.bounds)) for n in nodes(device)]


# ---- navigation ---------------------------------------------------------------------------------


def test_device_boots_to_the_launcher(clock: ManualClock) -> None:
    device = VirtualDevice(FOOD, latency=False, clock=clock)
    assert device.current_app().package == LAUNCHER
    tap(device, "麦当劳")
    assert device.current_app().activity == "com.mcdonalds.gma.cn.activity.HomeActivity"


def test_taps_move_between_screens_and_back_returns(food: VirtualDevice) -> None:
    tap(food, "优惠券")
    assert food.current_app().activity.endswith(".CouponActivity")
    food.press(Key.BACK)
    assert food.current_app().activity.endswith(".HomeActivity")
    tap(food, "我的")
    tap(food, "设置")
    assert food.current_app().activity.endswith(".SettingsActivity")
    tap(food, "转到上一层级")  # the toolbar's navigate-up button
    assert food.current_app().activity.endswith(".MineActivity")


def test_back_on_the_root_screen_leaves_the_app_alive(food: VirtualDevice) -> None:
    food.press(Key.BACK)
    assert food.current_app().package == LAUNCHER
    tap(food, "麦当劳")
    assert food.current_app().activity.endswith(".HomeActivity")


def test_home_then_icon_resumes_where_the_user_was(food: VirtualDevice) -> None:
    tap(food, "优惠券")
    food.press(Key.HOME)
    launcher = parse_hierarchy(food.dump_hierarchy())
    assert [w.package for w in launcher] == [LAUNCHER]
    icon = find(food, "麦当劳")
    assert icon.clickable and icon.package == LAUNCHER
    tap(food, "麦当劳")
    assert food.current_app().activity.endswith(".CouponActivity")


def test_force_stop_and_relaunch_start_over(food: VirtualDevice) -> None:
    tap(food, "优惠券")
    food.stop(FOOD_PACKAGE)
    assert food.current_app().package == LAUNCHER
    food.launch(FOOD_PACKAGE)
    assert food.current_app().activity.endswith(".HomeActivity")


def test_launch_errors_like_am_start(food: VirtualDevice) -> None:
    with pytest.raises(DeviceError, match="unable to resolve Intent"):
        food.launch("com.not.installed")
    with pytest.raises(DeviceError, match="does not exist"):
        food.launch(FOOD_PACKAGE, ".activity.NoSuchActivity")
    food.launch(FOOD_PACKAGE, ".activity.CartActivity")
    assert food.current_app().activity.endswith(".CartActivity")


def test_another_apps_screen_opens_and_back_returns(food: VirtualDevice) -> None:
    tap(food, "我的")
    tap(food, "在线客服")
    assert food.current_app().package == "com.android.chrome"
    assert {n.package for n in nodes(food)} == {"com.android.chrome"}
    food.press(Key.BACK)
    assert food.current_app().activity.endswith(".MineActivity")


# ---- the delivery-time dialog ---------------------------------------------------------------------


def test_delivery_time_dialog_ignores_outside_taps_and_back(food: VirtualDevice) -> None:
    tap(food, "麦乐送")
    assert len(parse_hierarchy(food.dump_hierarchy())) == 2
    food.tap(540, 150)  # the screen behind, outside the panel
    food.press(Key.BACK)
    assert len(parse_hierarchy(food.dump_hierarchy())) == 2
    assert food.current_app().activity.endswith(".ProductMdsListActivity")
    tap(food, "确定")
    assert len(parse_hierarchy(food.dump_hierarchy())) == 1
    food.press(Key.BACK)
    tap(food, "麦乐送")  # confirmed once: it does not ask again
    assert len(parse_hierarchy(food.dump_hierarchy())) == 1


def test_radio_group_keeps_one_checked(food: VirtualDevice) -> None:
    tap(food, "麦乐送")
    assert find(food, "尽快送达").checked and not find(food, "预约送餐").checked
    assert "12:30" not in texts(food)
    tap(food, "预约送餐")
    assert find(food, "预约送餐").checked and not find(food, "尽快送达").checked
    tap(food, "13:00")  # the time slots appear only for 预约送餐
    assert find(food, "13:00").checked and not find(food, "12:30").checked
    tap(food, "确定")
    assert "送达时间：预约送餐 >" in texts(food)


def test_dismissable_dialog_closes_on_outside_tap(food: VirtualDevice) -> None:
    tap(food, "麦乐送")
    tap(food, "确定")
    tap(food, "tv_product")
    tap(food, "口味定制 >")
    assert len(parse_hierarchy(food.dump_hierarchy())) == 2
    food.tap(540, 300)  # above the bottom sheet
    assert len(parse_hierarchy(food.dump_hierarchy())) == 1


def test_cart_counter_and_toast(food: VirtualDevice, clock: ManualClock) -> None:
    tap(food, "麦乐送")
    tap(food, "确定")
    tap(food, "tv_product")
    tap(food, "大份")
    tap(food, "加入购物车")
    tap(food, "加入购物车")
    assert food.variables["cart_count"] == 2
    assert "已加入购物车（大份）" not in texts(food)  # toasts are never in a dump
    # Android queues toasts: one on screen at a time, the second after the first has gone.
    duration = food.app_model.device.toast_duration
    assert food.toasts() == ["已加入购物车（大份）"]
    clock.advance(duration + 0.1)
    assert food.toasts() == ["已加入购物车（大份）"]
    clock.advance(duration)
    assert food.toasts() == []
    food.press(Key.BACK)
    assert "购物车 (2)" in texts(food)


# ---- inputs -------------------------------------------------------------------------------------


def test_login_wall_and_typing(notes: VirtualDevice) -> None:
    assert notes.current_app().activity.endswith(".LoginActivity")
    tap(notes, "登录")  # empty fields: stays
    assert notes.current_app().activity.endswith(".LoginActivity")
    tap(notes, "et_username")
    assert find(notes, "et_username").focused
    notes.type_text("张三; rm -rf / $(x) 'q\"")
    tap(notes, "et_password")
    notes.type_text("pw`reboot`")
    assert find(notes, "et_username").text == "张三; rm -rf / $(x) 'q\""
    password = find(notes, "et_password")
    assert password.password and password.text == "•" * len("pw`reboot`")
    tap(notes, "登录")
    assert notes.current_app().activity.endswith(".MainActivity")
    notes.press(Key.BACK)
    notes.launch(NOTES_PACKAGE)
    assert notes.current_app().activity.endswith(".MainActivity")  # still logged in


def test_login_survives_force_stop_but_form_state_does_not(logged_in_notes: VirtualDevice) -> None:
    logged_in_notes.stop(NOTES_PACKAGE)
    logged_in_notes.launch(NOTES_PACKAGE)
    assert logged_in_notes.current_app().activity.endswith(".MainActivity")
    assert logged_in_notes.variables["username"] == ""


def test_delete_key_and_enter(logged_in_notes: VirtualDevice) -> None:
    device = logged_in_notes
    tap(device, "搜索")
    tap(device, "et_search")
    device.type_text("abcx")
    device.press_keycode(67)
    assert find(device, "et_search").text == "abc"
    assert "输入关键词后按回车搜索" in texts(device)
    device.press(Key.ENTER)
    assert "“abc” 的搜索结果：3 条" in texts(device)


def test_editor_form(logged_in_notes: VirtualDevice) -> None:
    device = logged_in_notes
    tap(device, "新建笔记")
    tap(device, "学习")
    tap(device, "sw_pin")
    tap(device, "cb_remind")
    assert find(device, "学习").checked and not find(device, "生活").checked
    assert find(device, "sw_pin").checked and find(device, "cb_remind").checked
    tap(device, "保存")
    assert device.current_app().activity.endswith(".NoteEditActivity")  # empty title
    tap(device, "et_note_title")
    device.type_text("周报")
    tap(device, "保存")
    assert device.current_app().activity.endswith(".MainActivity")
    assert device.variables["saved_count"] == 1


# ---- lists --------------------------------------------------------------------------------------


def test_list_holds_only_visible_rows_and_scrolls(logged_in_notes: VirtualDevice) -> None:
    device = logged_in_notes
    titles = [t for t in texts(device) if t.startswith("笔记 ")]
    assert titles[0] == "笔记 1" and 5 < len(titles) < 20
    listing = find(device, "rv_notes")
    assert listing.scrollable and listing.class_name == "androidx.recyclerview.widget.RecyclerView"
    rows = [n for n in nodes(device) if n.parent is not None and n.parent.short_id == "rv_notes"]
    assert [r.index for r in rows] == list(range(len(rows)))
    assert all(listing.bounds.intersection(r.bounds) == r.bounds for r in rows)
    x, top, bottom = listing.bounds.center[0], listing.bounds.top, listing.bounds.bottom
    device.swipe(x, bottom - 100, x, top + 100)  # swipe up: content moves up
    after = [t for t in texts(device) if t.startswith("笔记 ")]
    assert "笔记 1" not in after and int(after[0].split()[1]) > 5
    device.swipe(x, top + 100, x, bottom - 100)
    assert [t for t in texts(device) if t.startswith("笔记 ")][0] == "笔记 1"
    for _ in range(40):
        device.swipe(x, bottom - 100, x, top + 100)
    assert [t for t in texts(device) if t.startswith("笔记 ")][-1] == "笔记 200"


def test_tapping_a_row_uses_its_number(logged_in_notes: VirtualDevice) -> None:
    tap(logged_in_notes, "笔记 3")
    assert logged_in_notes.current_app().activity.endswith(".NoteDetailActivity")
    assert find(logged_in_notes, "toolbar_title").text == "笔记 3"


def test_long_tap_opens_a_bottom_sheet(logged_in_notes: VirtualDevice) -> None:
    device = logged_in_notes
    device.long_tap(*find(device, "笔记 2").bounds.center)
    windows = parse_hierarchy(device.dump_hierarchy())
    assert len(windows) == 2 and windows[1].children[0].bounds.bottom == 2400
    tap(device, "取消")
    assert len(parse_hierarchy(device.dump_hierarchy())) == 1


# ---- dynamic text -------------------------------------------------------------------------------


def test_dynamic_text_changes_while_structure_stays(food: VirtualDevice, clock: ManualClock) -> None:
    first_texts, first_structure = texts(food), structure(food)
    clock.advance(120)
    second_texts, second_structure = texts(food), structure(food)
    assert first_structure == second_structure
    assert first_texts != second_texts
    changed = {a for a, b in zip(first_texts, second_texts, strict=True) if a != b}
    assert any(t.startswith("积分") for t in changed) and any("¥" in t for t in changed)
    assert any(t.startswith("下午好 · 17:2") for t in changed)


# ---- crashes, ANRs, permissions -----------------------------------------------------------------


def test_crash_shows_has_stopped_and_logs_a_fatal_exception(logged_in_notes: VirtualDevice) -> None:
    device = logged_in_notes
    device.clear_logcat()
    tap(device, "设置")
    tap(device, "关于随手记")
    tap(device, "检查更新")
    windows = parse_hierarchy(device.dump_hierarchy())
    assert [w.package for w in windows] == [LAUNCHER, "android"]
    assert "“随手记”已停止运行" in texts(device)
    log = device.logcat()
    assert "E AndroidRuntime: FATAL EXCEPTION: main" in log
    assert "Process: com.example.notes, PID: " in log
    assert "java.lang.NullPointerException: Attempt to invoke virtual method" in log
    assert "\tat com.example.notes.ui.AboutActivity.onCheckUpdateClicked(AboutActivity.java:87)" in log
    tap(device, "关闭应用")
    assert [w.package for w in parse_hierarchy(device.dump_hierarchy())] == [LAUNCHER]
    device.launch(NOTES_PACKAGE)
    assert device.current_app().activity.endswith(".MainActivity")  # the login was persisted


def test_anr_dialog_wait_and_close(logged_in_notes: VirtualDevice) -> None:
    device = logged_in_notes
    tap(device, "设置")
    tap(device, "数据备份")
    tap(device, "立即备份")
    assert "“随手记”没有响应" in texts(device)
    assert "ANR in com.example.notes (com.example.notes/.ui.BackupActivity)" in device.logcat()
    tap(device, "等待")
    assert device.current_app().activity.endswith(".BackupActivity")
    tap(device, "立即备份")
    tap(device, "关闭应用")
    assert device.current_app().package == LAUNCHER


def test_permission_dialog_sets_a_variable(food: VirtualDevice) -> None:
    tap(food, "优惠券")
    tap(food, "订阅")
    windows = parse_hierarchy(food.dump_hierarchy())
    assert windows[-1].package == "com.android.permissioncontroller"
    assert "允许“麦当劳”访问您的日历吗？" in texts(food)
    assert food.current_app().package == "com.android.permissioncontroller"
    tap(food, "拒绝")
    assert not food.variables["calendar_allowed"] and "订阅" in texts(food)
    tap(food, "订阅")
    tap(food, "允许")
    assert food.variables["calendar_allowed"] and "已订阅领券提醒" in texts(food)


# ---- determinism and the log of calls -----------------------------------------------------------


def test_same_seed_same_run() -> None:
    def run(seed: int) -> tuple[list[str], str]:
        device = VirtualDevice(FOOD, latency=False, seed=seed, clock=ManualClock())
        device.launch(FOOD_PACKAGE)
        tap(device, "麦乐送")
        tap(device, "确定")
        tap(device, "tv_product")
        return [device.dump_hierarchy() for _ in range(3)], device.logcat()

    assert run(7) == run(7)
    assert run(7)[1] != run(8)[1]  # the seed picks pids and timings


def test_action_log_records_every_call(food: VirtualDevice) -> None:
    food.action_log.clear()
    food.tap(1, 1)
    food.dump_hierarchy()
    assert [e.action for e in food.action_log] == ["tap", "dump"]
    assert food.action_log[0].args == (1, 1)
    assert all(e.finished >= e.monotonic for e in food.action_log)


# ---- exploring at random never breaks the device ------------------------------------------------

FOOD_MODEL = load_app_model(FOOD)
NOTES_MODEL = load_app_model(NOTES)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(app=st.sampled_from([FOOD_MODEL, NOTES_MODEL]),
       moves=st.lists(st.tuples(st.sampled_from(["tap", "long", "swipe", "type", "back", "home"]),
                                st.integers(0, 10_000)), max_size=25))
def test_random_exploration_keeps_the_device_consistent(app: AppModel, moves: list[tuple[str, int]]) -> None:
    device = VirtualDevice(app, latency=False, clock=ManualClock())
    device.launch(app.app.package)
    for move, pick in moves:
        windows = parse_hierarchy(device.dump_hierarchy())
        targets = [n for w in windows[-1:] for n in w.iter() if n.interactive]
        node = targets[pick % len(targets)] if targets else None
        if move == "back":
            device.press(Key.BACK)
        elif move == "home":
            device.press(Key.HOME)
        elif move == "type":
            device.type_text("x;$(y)")
        elif node is not None and move == "tap":
            device.tap(*node.bounds.center)
        elif node is not None and move == "long":
            device.long_tap(*node.bounds.center)
        elif node is not None:
            x, y = node.bounds.center
            device.swipe(x, y, x, y - 400)
        windows = parse_hierarchy(device.dump_hierarchy())
        assert device.current_app().package == windows[-1].package
        assert windows[0].package in (app.app.package, LAUNCHER, "com.android.chrome", "com.tencent.mm")


def test_popup_is_its_own_window_anchored_under_the_button(food: VirtualDevice) -> None:
    anchor = find(food, "更多").bounds
    tap(food, "更多")
    screen, popup = parse_hierarchy(food.dump_hierarchy())
    assert popup.bounds.area < screen.bounds.area and popup.bounds.top == anchor.bottom
    tap(food, "扫一扫")
    assert "允许“麦当劳”访问您的相机吗？" in texts(food)
    food.press(Key.BACK)  # Back answers "deny"
    assert not food.variables["camera_allowed"]
    tap(food, "更多")
    food.tap(540, 2000)  # outside the popup: it closes, the tap goes nowhere else
    assert len(parse_hierarchy(food.dump_hierarchy())) == 1
    assert food.current_app().activity.endswith(".HomeActivity")


# ---- what a tap runs, and in which order ----------------------------------------------------------

TAPS = """
app: {name: Taps, package: com.example.taps, launch: home}
variables: {unit: C, alerts: false, log: "", amt: "26.00", left: 0}
screens:
  - id: home
    activity: .MainActivity
    title: "Home {var:unit} {var:left} {var:log}"
    elements:
      - {class: Button, text: Units, on_tap: [{dialog: units}]}
      - {class: Switch, text: Alerts, var: alerts, on_tap: [{when: alerts, toast: Alerts on}]}
      - {class: Button, text: Edit, on_tap: [{go: edit}]}
      - class: RecyclerView
        id: rv_drinks
        height: 400
        list:
          on_tap: [{set: {log: "{var:log}L{i}"}}]
          rows:
            - {text: Header}
            - class: LinearLayout
              orientation: horizontal
              on_tap: [{set: {log: "{var:log}R{i}"}}]
              children:
                - {text: Milk tea}
                - {class: Button, text: Options, on_tap: [{set: {log: "{var:log}B{i}"}}]}
  - id: edit
    activity: .EditActivity
    title: Edit
    elements:
      - {class: EditText, id: et_written, text: "26.00"}
      - {class: EditText, id: et_bound, var: amt}
      - {class: Button, text: Leave, on_tap: [{dialog: leave}]}
dialogs:
  - id: units
    title: Units
    elements:
      - {class: RadioButton, text: Fahrenheit, group: unit, value: F, on_tap: [{set: {log: "{var:unit}"}}, close]}
  - id: leave
    title: Leave?
    elements:
      - {class: Button, text: Leave now, on_tap: [finish, {inc: {left: 1}}, {toast: Left}]}
"""


def taps(clock: ManualClock | None = None) -> VirtualDevice:
    device = VirtualDevice(parse_app_model(TAPS), latency=False, clock=clock or ManualClock())
    device.launch("com.example.taps")
    return device


def test_a_checkable_changes_before_its_on_tap_which_reads_the_new_value(clock: ManualClock) -> None:
    device = taps(clock)
    tap(device, "Units")
    tap(device, "Fahrenheit")  # the group is set first: the effects see F, and `close` ends the dialog
    assert len(parse_hierarchy(device.dump_hierarchy())) == 1
    assert find(device, "toolbar_title").text == "Home F 0 F"
    tap(device, "Alerts")
    assert device.toasts() == ["Alerts on"]
    clock.advance(10)
    tap(device, "Alerts")  # turned off: the effect's `when` reads false
    assert device.toasts() == []


def test_a_button_inside_a_given_row_takes_the_tap_alone() -> None:
    device = taps()
    tap(device, "Options")
    assert find(device, "toolbar_title").text == "Home C 0 B2"  # neither the row's nor the list's on_tap
    tap(device, "Milk tea")
    assert find(device, "toolbar_title").text == "Home C 0 B2R2L2"  # the row's, then the list's


def test_effects_after_finish_run_on_the_screen_it_uncovered() -> None:
    device = taps()
    tap(device, "Edit")
    tap(device, "Leave")
    tap(device, "Leave now")
    assert len(parse_hierarchy(device.dump_hierarchy())) == 1  # the dialog closed with its screen
    assert find(device, "toolbar_title").text == "Home C 1 " and device.toasts() == ["Left"]


def test_typing_replaces_a_fields_written_text_and_appends_to_its_variable() -> None:
    device = taps()
    tap(device, "Edit")
    tap(device, "et_written")
    device.press_keycode(67)
    assert find(device, "et_written").text == "26.00"  # the written text is no content: DEL leaves it be
    device.type_text("36.8")
    assert find(device, "et_written").text == "36.8"
    tap(device, "et_bound")
    device.type_text("36.8")
    assert find(device, "et_bound").text == "26.0036.8" and device.variables["amt"] == "26.0036.8"
    device.press_keycode(67)
    assert device.variables["amt"] == "26.0036."


def test_clearing_empties_the_focused_field_whatever_it_holds() -> None:
    device = taps()
    tap(device, "Edit")
    device.clear_text()  # nothing focused: nothing cleared
    assert device.variables["amt"] == "26.00"
    tap(device, "et_bound")
    device.clear_text()
    device.type_text("36.8")
    assert find(device, "et_bound").text == "36.8" and device.variables["amt"] == "36.8"
    tap(device, "et_written")
    device.type_text("1")
    device.clear_text()
    assert find(device, "et_written").text == "26.00"  # empty again: its written text shows
