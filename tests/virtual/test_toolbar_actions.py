"""A screen's toolbar action items (`actions`): right-aligned on the bar in model order, each a view the
dump shows and a tap runs, as an app's menu items are."""

from __future__ import annotations

import pytest
from virtual_helpers import find, tap, texts

from fairy_virtual import AppModelError, VirtualDevice, parse_app_model
from pytest_fairy.perception.screen import build_screen

PKG = "com.example.inbox"
APP = """
app: {name: Inbox, package: com.example.inbox, launch: main}
variables: {selecting: false}
screens:
  - id: main
    activity: .MainActivity
    title: Inbox
    actions:
      - {class: ImageButton, id: action_search, desc: Search, on_tap: [{go: search}]}
      - {class: TextView, id: action_delete, text: Delete, when: selecting, on_tap: [{toast: Deleted}]}
      - {class: ImageButton, id: action_more, desc: More options, on_tap: [{dialog: menu}]}
    elements:
      - {class: Button, text: Select, on_tap: [{set: {selecting: true}}]}
  - id: search
    activity: .SearchActivity
    title: Search
    elements:
      - {class: EditText, hint: Search mail}
dialogs:
  - id: menu
    kind: popup
    elements:
      - {text: Settings, on_tap: [close]}
"""


def phone() -> VirtualDevice:
    device = VirtualDevice(parse_app_model(APP), latency=False)
    device.launch(PKG)
    return device


def test_action_items_sit_right_aligned_on_the_bar_in_model_order() -> None:
    device = phone()
    title, search, more = find(device, "Inbox"), find(device, "Search"), find(device, "More options")
    assert {node.parent.short_id for node in (title, search, more) if node.parent} == {"toolbar"}
    assert title.bounds.right <= search.bounds.left < search.bounds.right <= more.bounds.left
    assert more.bounds.right == device.window_size()[0] and search.bounds.bottom == title.bounds.bottom
    assert search.clickable and search.short_id == "action_search"
    toolbar = find(device, "toolbar")
    assert [child.short_id for child in toolbar.children] == ["toolbar_title", "action_search", "action_more"]


def test_an_action_item_shown_by_a_condition_takes_its_place_among_them() -> None:
    device = phone()
    assert "Delete" not in texts(device)
    tap(device, "Select")
    delete = find(device, "Delete")
    assert (
        find(device, "Search").bounds.right <= delete.bounds.left < find(device, "More options").bounds.left
    )
    assert find(device, "Inbox").bounds.right <= find(device, "Search").bounds.left
    tap(device, "Delete")
    assert device.toasts() == ["Deleted"]


def test_tapping_an_action_item_runs_what_it_does() -> None:
    device = phone()
    tap(device, "More options")
    assert "Settings" in texts(device)  # the overflow menu
    tap(device, "Settings")
    tap(device, "Search")
    assert device.current_app().activity.endswith(".SearchActivity")


def test_the_explorer_sees_action_items_as_marks() -> None:
    device = phone()
    app = device.current_app()
    screen = build_screen(device.dump_hierarchy(), activity=app.activity, package=app.package)
    assert {"Search", "More options"} <= {mark.label for mark in screen.marks}


def test_action_items_without_a_toolbar_are_refused_where_they_are_written() -> None:
    with pytest.raises(AppModelError, match=r":5: screens.0: toolbar `actions` need a `title`"):
        parse_app_model(APP.replace("    title: Inbox\n", "", 1))


def test_what_an_action_item_does_is_checked_like_any_elements() -> None:
    wording = (
        r":9: screens.0.actions.0.on_tap.0.go: `go` to unknown screen 'serch' \(did you mean 'search'\?\)"
    )
    with pytest.raises(AppModelError, match=wording):
        parse_app_model(APP.replace("[{go: search}]", "[{go: serch}]"))
