"""The back stack an app model can shape: a screen that finishes itself (`finish`: a dialog's Discard,
with no `on_back` asking again) and a back stack emptied for one screen (`reset`: a logout's login screen,
from which Back leaves the app)."""

from __future__ import annotations

import pytest
from virtual_helpers import tap, texts

from fairy_virtual import AppModelError, VirtualDevice, parse_app_model
from pytest_fairy.devices.protocol import Key

PKG = "com.example.stack"
APP = """
app: {name: Stack, package: com.example.stack, launch: login}
variables: {draft: "", logged_in: {initial: false, persist: true}}
screens:
  - id: login
    activity: .LoginActivity
    title: Sign in
    on_show: [{when: logged_in, reset: home}]
    elements:
      - {class: Button, text: Continue, on_tap: [{set: {logged_in: true}}, {reset: home}]}
  - id: home
    activity: .MainActivity
    title: Home
    elements:
      - {class: Button, text: Compose, on_tap: [{go: compose}]}
      - {class: Button, text: Settings, on_tap: [{go: settings}]}
      - {class: Button, text: Close, on_tap: [finish]}
  - id: settings
    activity: .SettingsActivity
    title: Settings
    elements:
      - {class: Button, text: Log out, on_tap: [{set: {logged_in: false}}, {reset: login}]}
      - {class: Button, text: Account, on_tap: [{go: login}]}
  - id: compose
    activity: .ComposeActivity
    title: Compose
    elements:
      - {class: EditText, hint: Message, var: draft}
    on_back: [{when: "draft != ''", dialog: discard}, {when: "draft == ''", back: true}]
dialogs:
  - id: discard
    title: Discard draft?
    elements:
      - {class: Button, text: Keep editing, on_tap: [close]}
      - {class: Button, text: Discard, on_tap: [finish]}
"""


def phone() -> VirtualDevice:
    device = VirtualDevice(parse_app_model(APP), latency=False)
    device.launch(PKG)
    return device


def signed_in() -> VirtualDevice:
    device = phone()
    tap(device, "Continue")
    return device


def test_a_dialogs_discard_finishes_its_screen_without_asking_again() -> None:
    device = signed_in()
    tap(device, "Compose")
    tap(device, "Message")
    device.type_text("hello")
    device.press(Key.BACK)
    tap(device, "Discard")  # the draft is still there: Back would ask again, finish does not
    shown = texts(device)
    assert "Home" in shown and "Discard draft?" not in shown, shown


def test_the_root_screen_finishing_leaves_the_app_alive_in_the_background() -> None:
    device = signed_in()
    tap(device, "Close")
    assert device.current_app().package != PKG
    device.launch(PKG)
    assert "Home" in texts(device)  # the process lived on: still signed in


def test_signing_in_empties_the_back_stack_for_home() -> None:
    device = signed_in()
    device.press(Key.BACK)
    assert device.current_app().package != PKG  # not back to the sign-in screen


def test_logging_out_empties_the_back_stack_for_the_login_screen() -> None:
    device = signed_in()
    tap(device, "Settings")
    tap(device, "Log out")
    assert "Sign in" in texts(device)
    device.press(Key.BACK)
    assert device.current_app().package != PKG  # neither Settings nor Home is behind it


def test_a_reset_on_show_redirects_to_a_screen_alone() -> None:
    device = signed_in()
    tap(device, "Settings")
    tap(device, "Account")  # the sign-in screen sees the login kept: home, alone on the stack
    assert "Home" in texts(device)
    device.press(Key.BACK)
    assert device.current_app().package != PKG


def test_a_reset_to_an_unknown_screen_is_named_where_it_is_written() -> None:
    wording = r":22: screens.2.elements.0.on_tap.1.reset: `reset` to unknown screen 'loginn' \(did you mean 'login'\?\)"
    with pytest.raises(AppModelError, match=wording):
        parse_app_model(APP.replace("{reset: login}", "{reset: loginn}"))
