"""A navigation drawer (`kind: drawer`): drawn in the screen's own window as a DrawerLayout does, the
page left in the dump beneath it; its items take taps, a tap beside it or Back closes it."""

from __future__ import annotations

from virtual_helpers import nodes, tap, texts

from fairy_virtual import ManualClock, VirtualDevice, parse_app_model
from pytest_fairy.devices.protocol import Key
from pytest_fairy.perception.hierarchy import parse_hierarchy

PKG = "com.example.drawer"
APP = """
app: {name: Drawer, package: com.example.drawer, launch: inbox}
screens:
  - id: inbox
    activity: .MainActivity
    title: Inbox
    elements:
      - {class: ImageButton, desc: Open navigation menu, on_tap: [{dialog: menu}]}
      - {class: Button, text: Compose, on_tap: [{toast: Composing}]}
  - id: archive
    activity: .ArchiveActivity
    title: Archive
dialogs:
  - id: menu
    kind: drawer
    elements:
      - {text: Inbox, clickable: true, on_tap: [close]}
      - {text: Archive, clickable: true, on_tap: [{go: archive}]}
"""


def opened() -> VirtualDevice:
    device = VirtualDevice(parse_app_model(APP), latency=False, clock=ManualClock())
    device.launch(PKG)
    tap(device, "Open navigation menu")
    return device


def test_the_drawer_is_drawn_over_the_page_in_the_screens_own_window() -> None:
    device = opened()
    windows = parse_hierarchy(device.dump_hierarchy())
    assert len(windows) == 1
    layout = next(n for n in windows[0].iter() if n.class_name.endswith("DrawerLayout"))
    page, drawer = layout.children
    assert "Compose" in {n.text for n in page.iter()}  # the page stays in the dump beneath
    assert drawer.class_name.endswith("NavigationView") and drawer.bounds.left == 0
    assert drawer.bounds.height == layout.bounds.height and drawer.bounds.width < layout.bounds.width


def test_a_drawer_item_takes_the_tap_over_the_page_beneath_it() -> None:
    device = opened()
    tap(device, "Archive")
    assert "Archive" in texts(device) and not any(n.class_name.endswith("NavigationView") for n in nodes(device))


def test_a_tap_beside_the_drawer_closes_it_and_reaches_nothing_beneath() -> None:
    device = opened()
    compose = next(n for n in nodes(device) if n.text == "Compose").bounds
    device.tap(compose.right - 20, compose.center[1])  # the part of Compose the drawer leaves uncovered
    assert not any(n.class_name.endswith("NavigationView") for n in nodes(device))
    assert device.toasts() == []


def test_back_closes_the_drawer_before_it_leaves_the_screen() -> None:
    device = opened()
    device.press(Key.BACK)
    assert not any(n.class_name.endswith("NavigationView") for n in nodes(device))
    assert device.current_app().package == PKG


LOG_OUT = "      - {text: Log out, clickable: true, on_tap: [{dialog: confirm}]}\n"
CONFIRM = """
  - id: confirm
    title: Log out?
    elements:
      - {class: Button, text: Cancel, on_tap: [close]}
      - {class: Button, text: Log out now, on_tap: [{reset: archive}]}
"""


def test_a_drawer_item_opens_a_dialog_over_the_drawer_which_stays_open_beneath() -> None:
    device = VirtualDevice(parse_app_model(APP + LOG_OUT + CONFIRM), latency=False, clock=ManualClock())
    device.launch(PKG)
    tap(device, "Open navigation menu")
    tap(device, "Log out")
    screen, dialog = parse_hierarchy(device.dump_hierarchy())
    assert "Log out?" in {n.text for n in dialog.iter()}
    assert any(n.class_name.endswith("NavigationView") for n in screen.iter())
    tap(device, "Cancel")  # back to the open drawer
    assert len(parse_hierarchy(device.dump_hierarchy())) == 1 and "Log out" in texts(device)
    tap(device, "Log out")
    tap(device, "Log out now")  # a reset closes the dialog and the drawer
    assert not any(n.class_name.endswith("NavigationView") for n in nodes(device))
    assert device.current_app().activity.endswith(".ArchiveActivity")
