"""What a screen's unbound views hold lives as long as the screen's instance, as with an Android
activity: a screen Back uncovers keeps its ticked box, its typed text and its list's scroll; the same
screen opened anew (`go`, `replace`, a redirect) starts as the model writes it, and so does a dialog
opened again. Views bound to a variable (`var`, `group`) show the variable, whatever the instance."""

from __future__ import annotations

from virtual_helpers import find, tap, texts

from fairy_virtual import VirtualDevice, parse_app_model
from pytest_fairy.devices.protocol import Key

PKG = "com.example.instances"
APP = """
app: {name: Instances, package: com.example.instances, launch: home}
variables: {remember: false}
screens:
  - id: home
    activity: .MainActivity
    title: Home
    elements:
      - {class: Button, text: Open form, on_tap: [{go: form}]}
      - {class: Button, text: Options, on_tap: [{dialog: options}]}
      - {class: Button, text: Via redirect, on_tap: [{go: hop}]}
  - id: hop
    activity: .HopActivity
    title: Hop
    on_show: [{go: form}]
  - id: form
    activity: .FormActivity
    title: Form
    elements:
      - {class: CheckBox, text: Subscribe}
      - {class: Switch, text: Remember me, var: remember}
      - {class: EditText, id: note, hint: Note}
      - {class: Button, text: Details, on_tap: [{go: details}]}
      - {class: Button, text: Home again, on_tap: [{replace: home}]}
      - class: RecyclerView
        id: rows
        height: 600
        list: {rows: 40, row_height: 150, row: {class: TextView, id: row, text: "Row {i}"}}
  - id: details
    activity: .DetailsActivity
    title: Details
    elements:
      - {class: Button, text: Form again, on_tap: [{go: form}]}
dialogs:
  - id: options
    title: Options
    elements:
      - {class: CheckBox, text: Compact}
      - {class: Button, text: Done, on_tap: [close]}
"""


def on_the_form() -> VirtualDevice:
    device = VirtualDevice(parse_app_model(APP), latency=False)
    device.launch(PKG)
    tap(device, "Open form")
    return device


def fill(device: VirtualDevice) -> None:
    tap(device, "Subscribe")
    tap(device, "Remember me")
    tap(device, "Note")
    device.type_text("hello")
    rows = find(device, "rows").bounds
    device.swipe(rows.center[0], rows.bottom - 20, rows.center[0], rows.top + 20)


def held(device: VirtualDevice) -> tuple[bool, bool, str, str]:
    """The box, the bound switch, the field's text, the first row shown."""
    first_row = next(text for text in texts(device) if text.startswith("Row "))
    return (
        find(device, "Subscribe").checked,
        find(device, "Remember me").checked,
        find(device, "note").text,
        first_row,
    )


def test_a_screen_back_uncovers_keeps_what_its_views_held() -> None:
    device = on_the_form()
    fill(device)
    before = held(device)
    assert before[:3] == (True, True, "hello") and before[3] != "Row 1"
    tap(device, "Details")
    device.press(Key.BACK)
    assert held(device) == before


def test_the_same_screen_opened_anew_starts_as_the_model_writes_it() -> None:
    device = on_the_form()
    fill(device)
    tap(device, "Details")
    tap(device, "Form again")  # a second instance on top of the first
    # The switch shows its variable; the box, the field and the list are the new instance's.
    assert held(device) == (False, True, "Note", "Row 1")


def test_a_screen_replaced_and_opened_again_or_redirected_to_starts_anew() -> None:
    device = on_the_form()
    fill(device)
    tap(device, "Home again")
    tap(device, "Open form")
    assert held(device) == (False, True, "Note", "Row 1")
    fill(device)
    tap(device, "Home again")
    tap(device, "Via redirect")
    assert held(device) == (False, False, "Note", "Row 1")  # the switch flipped back by the second fill


def test_a_dialog_opened_again_starts_as_the_model_writes_it() -> None:
    device = VirtualDevice(parse_app_model(APP), latency=False)
    device.launch(PKG)
    tap(device, "Options")
    tap(device, "Compact")
    assert find(device, "Compact").checked
    tap(device, "Done")
    tap(device, "Options")
    assert not find(device, "Compact").checked
