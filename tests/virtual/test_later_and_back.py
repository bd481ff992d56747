"""Effects that happen later (`after`: a splash screen that moves on, a "Loading..." that ends, a snackbar
that times out) on the phone's clock, and screens and dialogs that handle Back themselves (`on_back`)."""

from __future__ import annotations

from virtual_helpers import tap, texts

from fairy_virtual import ManualClock, VirtualDevice, parse_app_model
from pytest_fairy.devices.protocol import Key

PKG = "com.example.later"
APP = """
app: {name: Later, package: com.example.later, launch: splash}
variables: {loaded: false, armed: false, draft: ""}
screens:
  - id: splash
    activity: .SplashActivity
    elements: [{text: Welcome}]
    on_show: [{after: 1.5, replace: home}]
  - id: home
    activity: .MainActivity
    title: Home
    elements:
      - {text: "Loading...", when: not loaded}
      - {text: 3 orders, when: loaded}
      - {class: Button, text: Compose, on_tap: [{go: compose}]}
      - {class: Button, text: Undo, on_tap: [{set: {armed: false}}]}
    on_show: [{after: 2, set: {loaded: true}}]
    on_back:
      - {when: not armed, toast: Press back again to exit}
      - {when: armed, back: true}
      - {set: {armed: true}}
  - id: compose
    activity: .ComposeActivity
    title: Compose
    elements:
      - {class: EditText, hint: Message, var: draft}
    on_back:
      - {when: "draft != ''", dialog: discard}
      - {when: "draft == ''", back: true}
dialogs:
  - id: discard
    title: Discard draft?
    cancelable: false
    elements:
      - {class: Button, text: Keep editing, on_tap: [close]}
      - {class: Button, text: Discard, on_tap: [close, {set: {draft: ""}}, back]}
    on_back: [close]
"""


def phone() -> tuple[VirtualDevice, ManualClock]:
    clock = ManualClock()
    device = VirtualDevice(parse_app_model(APP), latency=False, clock=clock)
    device.launch(PKG)
    return device, clock


def test_a_splash_screen_moves_on_by_itself_once_its_time_has_passed() -> None:
    device, clock = phone()
    assert "Welcome" in texts(device)
    clock.advance(2)
    assert "Home" in texts(device)
    device.press(Key.BACK)
    device.press(Key.BACK)
    assert device.current_app().package != PKG  # the splash left the back stack: back twice leaves the app


def test_a_loading_text_ends_after_its_time_on_the_phones_clock() -> None:
    device, clock = phone()
    clock.advance(2)
    assert "Loading..." in texts(device)
    clock.advance(2.5)
    shown = texts(device)
    assert "3 orders" in shown and "Loading..." not in shown


def test_an_effect_of_a_screen_that_left_the_front_never_runs() -> None:
    device, clock = phone()
    clock.advance(2)
    tap(device, "Compose")  # home's `loaded` was due 2 s after it showed: it left before
    clock.advance(5)
    device.press(Key.BACK)
    assert "Loading..." in texts(device)  # home came back: its own timer starts again
    clock.advance(3)
    assert "3 orders" in texts(device)


def test_a_screen_back_from_the_launcher_comes_to_front_again() -> None:
    device, clock = phone()
    device.press(Key.HOME)  # the splash's move was due 1.5 s after it showed: it left the front before
    clock.advance(5)
    device.launch(PKG)
    assert "Welcome" in texts(device)
    clock.advance(2)
    assert "Home" in texts(device)  # its on_show ran again, its timer with it


def test_the_process_dying_drops_what_it_set_to_happen() -> None:
    device, clock = phone()
    device.stop(PKG)
    clock.advance(5)
    device.launch(PKG)
    assert "Welcome" in texts(device)


def test_a_screen_that_handles_back_itself_asks_before_it_lets_the_app_go() -> None:
    device, clock = phone()
    clock.advance(2)
    device.press(Key.BACK)
    assert device.current_app().package == PKG
    assert device.toasts() == ["Press back again to exit"]
    device.press(Key.BACK)
    assert device.current_app().package != PKG


def test_a_draft_asks_before_it_is_discarded_and_the_dialog_handles_back_too() -> None:
    device, clock = phone()
    clock.advance(2)
    tap(device, "Compose")
    tap(device, "Message")
    device.type_text("hello")
    device.press(Key.BACK)
    assert "Discard draft?" in texts(device)
    device.press(Key.BACK)  # the dialog's on_back closes it, though it is not cancelable
    assert "Discard draft?" not in texts(device) and "Compose" in texts(device)
    device.press(Key.BACK)
    tap(device, "Discard")
    assert "Home" in texts(device)


def test_an_empty_draft_leaves_at_once() -> None:
    device, clock = phone()
    clock.advance(2)
    tap(device, "Compose")
    device.press(Key.BACK)
    assert "Home" in texts(device)
