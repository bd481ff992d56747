"""The compressed text: what is kept, merged runs, mark numbers, flags, layer labels, size."""

from __future__ import annotations

import re

from pytest_fairy.perception.compress import compress, format_numbers
from pytest_fairy.perception.screen import Screen, build_screen

from .builder import (
    PKG,
    V,
    alert_window,
    decor,
    delivery_overlay,
    dump,
    form_window,
    ime_window,
    menu_screen,
    menu_window,
    nav_bar,
    permission_window,
    status_bar,
    v,
)
from .marks_text import numbers_in


def screen_with(*windows: V) -> Screen:
    return build_screen(dump(status_bar(), *windows, nav_bar()), activity=".MainActivity", package=PKG)


def notes_list(count: int = 40, row: int = 50) -> V:
    rows = [v("TextView", (0, 300 + i * row, 1080, 300 + (i + 1) * row), text=f"笔记 {i + 1}", rid="note",
              clickable=True, long_clickable=True) for i in range(count)]
    return decor(v("androidx.recyclerview.widget.RecyclerView", (0, 300, 1080, 300 + count * row), *rows,
                   rid="notes", scrollable=True))


def test_text_is_stored_on_the_screen_and_starts_with_the_activity() -> None:
    screen = screen_with(menu_window())
    assert screen.text == compress(screen)
    assert screen.text.splitlines()[:2] == ["activity: com.example.food/.MainActivity", "[app] 菜单"]


def test_pure_containers_are_dropped_and_rows_carry_their_texts() -> None:
    text = screen_with(menu_window()).text
    assert "FrameLayout #content" not in text and "LinearLayout #root" not in text
    assert '[8] LinearLayout "巨无霸 1号 · ¥12.00"' in text
    assert "  [9] ImageButton #btn_add" in text  # the row's own button stays a line of its own
    assert '[7] RecyclerView #menu_list scrollable' in text
    assert '"菜单"' not in text.splitlines()[2:4], "the title is not repeated under the heading"


def test_runs_of_similar_rows_are_merged_with_a_count_and_every_number() -> None:
    screen = screen_with(notes_list(40))
    text = screen.text
    lines = text.splitlines()
    assert '[2] TextView "笔记 1" long-click' not in text  # clickable too: no long-click flag
    assert [line.strip() for line in lines[3:6]] == [
        '[2] TextView "笔记 1"', '[3] TextView "笔记 2"', '[4] TextView "笔记 3"',
    ]
    tail = lines[6]
    assert tail.strip().startswith("… and 37 more like it: [5] 笔记 4 · [6] 笔记 5")
    assert re.search(r"· \[(\d+)\] 笔记 \d+ · \(marks (\d+)-41\)$", tail)
    assert numbers_in(text) == set(range(1, 42))
    assert len(lines) == 7


def test_short_runs_are_not_merged() -> None:
    text = screen_with(notes_list(4)).text
    assert all(f'"笔记 {i}"' in text for i in range(1, 5)) and "more like it" not in text


def test_flags_password_and_escapes() -> None:
    text = screen_with(form_window()).text
    assert '[2] EditText "user@example.com" editable focused' in text
    assert '[3] EditText "***" editable password' in text and "hunter2" not in text
    assert '[4] CheckBox "记住我 <7 天>" checked' in text
    assert 'Button "登录" disabled' in text
    assert "[app] 登录 & 注册" in text
    long_line = next(line for line in text.splitlines() if "用户协议" in line)
    assert long_line.endswith('…"') and len(long_line) < 80


def test_unchecked_selected_and_layer_labels() -> None:
    text = screen_with(menu_window(overlay=delivery_overlay())).text
    lines = text.splitlines()
    assert lines[1] == "[dialog] 请选择您的送达时间"
    assert lines[2:6] == ['  [1] RadioButton "尽快送达" checked', '  [2] RadioButton "预约送餐" unchecked',
                          '  [3] Button "取消"', '  [4] Button "确定"']
    assert lines[6].startswith("[app, behind the dialog] 转到上一层级 · 菜单 · 搜索商品")
    assert lines[6].endswith(")") and "… (+" in lines[6]
    assert '"汉堡" selected' in screen_with(menu_window()).text


def test_permission_and_keyboard_labels() -> None:
    asking = screen_with(menu_window(), permission_window()).text
    assert "[permission] 要允许“美食”获取此设备的位置信息吗？" in asking
    text = screen_with(menu_window(), ime_window()).text
    assert text.splitlines()[1:3] == ["[keyboard] shown", "[app] 菜单"]
    assert "com.android.systemui" not in text and "12:30" not in text  # the status bar says nothing


def test_a_clickable_scrim_is_named_as_background() -> None:
    text = screen_with(menu_window(overlay=delivery_overlay(scrim_clickable=True))).text
    assert "[1] View #scrim" in text
    blank = v("View", (0, 63, 1080, 2337), clickable=True)
    ok = v("Button", (180, 1350, 900, 1450), text="好", clickable=True)
    panel = v("LinearLayout", (140, 900, 940, 1500), ok)
    overlay = v("FrameLayout", (0, 63, 1080, 2337), blank, panel)
    assert "[1] View (background: tapping it may dismiss)" in screen_with(menu_window(overlay=overlay)).text


def test_dialog_text_lists_every_mark() -> None:
    screen = screen_with(menu_window(), alert_window(close_icon=True))
    assert numbers_in(screen.text) == {m.number for m in screen.marks} == {1, 2, 3}


def test_size_is_a_small_fraction_of_the_xml() -> None:
    for xml in (menu_screen(), menu_screen(offset=900, seed=5),
                dump(status_bar(), notes_list(40), nav_bar()), dump(status_bar(), form_window(), nav_bar())):
        screen = build_screen(xml, activity=".MainActivity", package=PKG)
        assert len(screen.text) <= 0.12 * len(xml), (len(screen.text), len(xml))


def test_format_numbers() -> None:
    assert format_numbers([1]) == "1"
    assert format_numbers([3, 4, 5, 9, 11, 12]) == "3-5,9,11-12"
