"""A dialog's window dumped alone (`uiautomator dump` captures the focused window only, without the activity
under it) is a dialog, not a page: the explorer must see a dialog state and a way out of it.

Real dumps in dumps/ (sources in dumps/SOURCES.md) and in the real-screens corpus; the rule that needs
no framework id is also built small, so each test fails when its rule is deleted."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_fairy.perception.layers import LayerKind as K
from pytest_fairy.perception.screen import Screen, build_screen

from .builder import dump, v

DUMPS = Path(__file__).parent / "dumps"
CORPUS = Path(__file__).parent / "real_screens" / "dumps"


def screen_of(path: Path) -> Screen:
    return build_screen(path.read_bytes().decode("utf-8"))


def way_out(screen: Screen) -> str:
    mark = screen.dismiss_mark()
    assert mark is not None, "expected a way out of the dialog"
    return mark.label


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("lone_dialog__mobile_agent_bridge_error.xml", "OK"),
        ("lone_dialog__gmail_add_account.xml", "OK"),
        ("lone_dialog__efree_error.xml", "OK"),
        # Vietnamese: 'HỦY' is no word we list, but android:id/button2 is the negative button.
        ("lone_dialog__settings_usb_transfer.xml", "HỦY"),
    ],
)
def test_a_dialog_window_alone_is_a_dialog_with_a_way_out(name: str, expected: str) -> None:
    screen = screen_of(DUMPS / name)
    assert [layer.kind for layer in screen.layers] == [K.DIALOG]
    assert screen.has_dialog and screen.top_layer.kind is K.DIALOG
    assert way_out(screen) == expected


def test_a_dialog_window_alone_without_framework_ids_is_known_by_its_content_frame() -> None:
    # WeCom's confirmation: obfuscated ids, a window off both screen edges holding a content frame.
    screen = screen_of(CORPUS / "wework__invite_confirm_dialog.xml")
    assert screen.top_layer.kind is K.DIALOG and screen.has_dialog
    assert way_out(screen) == "取消"


def test_a_popup_window_alone_has_no_content_frame() -> None:
    screen = screen_of(CORPUS / "reablita__language_dropdown_popup_tablet.xml")
    assert [layer.kind for layer in screen.layers] == [K.POPUP]


def test_a_page_in_a_floating_window_shows_a_toolbar_and_stays_a_page() -> None:
    screen = screen_of(CORPUS / "huawei_calendar__new_event_form.xml")
    assert [layer.kind for layer in screen.layers] == [K.APP] and not screen.has_dialog


def test_pages_starting_at_the_screen_corner_stay_pages() -> None:
    screen = screen_of(CORPUS / "wework__group_details.xml")
    assert [layer.kind for layer in screen.layers] == [K.APP] and not screen.has_dialog


def chooser(*, with_ids: bool) -> str:
    """A full-width dialog against the bottom (a 'open with' chooser): off the screen's corner, but not
    off its left edge, so only the framework's dialog views tell it from a page in a split screen."""
    panel = "parentPanel" if with_ids else "panel"
    title = v(
        "TextView",
        (72, 1445, 1008, 1507),
        text="使用以下方式打开",
        rid="android:id/alertTitle" if with_ids else "",
    )
    once = v("Button", (48, 2000, 540, 2084), text="仅此一次", rid="android:id/button_once", clickable=True)
    cancel = v(
        "Button",
        (540, 2000, 1032, 2084),
        text="取消",
        rid="android:id/button2" if with_ids else "",
        clickable=True,
    )
    content = v(
        "FrameLayout",
        (0, 1413, 1080, 2100),
        v("LinearLayout", (0, 1413, 1080, 2100), title, once, cancel, rid=f"android:id/{panel}"),
        rid="android:id/content",
    )
    return dump(v("FrameLayout", (0, 1413, 1080, 2100), content, pkg="com.example.chooser"))


def test_a_lone_window_against_the_left_edge_is_a_dialog_by_its_framework_views() -> None:
    screen = build_screen(chooser(with_ids=True))
    assert screen.top_layer.kind is K.DIALOG
    assert way_out(screen) == "取消"
    assert build_screen(chooser(with_ids=False)).top_layer.kind is K.APP


def test_the_negative_button_is_the_way_out_in_any_language() -> None:
    """A framework AlertDialog whose only button is button2, labelled in a language no word list holds."""
    title = v("TextView", (98, 566, 622, 615), text="Ошибка соединения", rid="android:id/alertTitle")
    back = v("Button", (390, 758, 646, 854), text="Назад", rid="android:id/button2", clickable=True)
    panel = v("LinearLayout", (50, 530, 670, 862), title, back, rid="android:id/parentPanel")
    window = v("FrameLayout", (18, 498, 702, 894), v("FrameLayout", (50, 530, 670, 862), panel, rid="android:id/content"),
               pkg="com.example.shop")  # fmt: skip
    screen = build_screen(dump(window))
    assert screen.top_layer.kind is K.DIALOG
    assert way_out(screen) == "Назад"
