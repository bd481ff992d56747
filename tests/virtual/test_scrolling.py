"""What scrolls and what shows in it: a ScrollView's content moved by its offset, rows of a list given
one by one that show while their `when` holds, each as tall as its own `height`; a row swiped sideways."""

from __future__ import annotations

from virtual_helpers import nodes, tap, texts

from fairy_virtual import ManualClock, VirtualDevice, parse_app_model

PKG = "com.example.scroll"
APP = """
app: {name: Scroll, package: com.example.scroll, launch: terms}
variables: {vip: false}
screens:
  - id: terms
    activity: .TermsActivity
    title: Terms
    elements:
      - class: ScrollView
        id: sv_terms
        height: 1200
        children:
          - {text: Clause 1, height: 700}
          - {text: Clause 2, height: 700}
          - {text: Clause 3, height: 700}
          - {class: CheckBox, id: cb_agree, text: I agree}
      - {class: Button, text: Become VIP, on_tap: [{set: {vip: true}}]}
      - class: RecyclerView
        id: rv_plans
        height: 600
        list:
          row_height: 200
          rows:
            - {text: Basic}
            - {text: VIP lounge, when: vip, height: 320}
            - {text: Family}
            - {text: Student}
"""


def phone() -> VirtualDevice:
    device = VirtualDevice(parse_app_model(APP), latency=False, clock=ManualClock())
    device.launch(PKG)
    return device


def node(device: VirtualDevice, label: str):  # type: ignore[no-untyped-def]
    return next(n for n in nodes(device) if label in (n.text, n.short_id))


def test_a_scroll_views_content_below_its_viewport_is_not_in_the_dump_until_scrolled() -> None:
    device = phone()
    assert "I agree" not in texts(device) and "Clause 1" in texts(device)
    view = node(device, "sv_terms").bounds
    x = view.center[0]
    device.swipe(x, view.bottom - 50, x, view.top + 50)
    device.swipe(x, view.bottom - 50, x, view.top + 50)
    shown = texts(device)
    assert "I agree" in shown and "Clause 1" not in shown
    agree = node(device, "I agree").bounds
    assert view.top <= agree.top and agree.bottom <= view.bottom  # within the viewport, clipped to it
    tap(device, "I agree")
    assert node(device, "I agree").checked


def test_a_scroll_view_stops_at_its_contents_end() -> None:
    device = phone()
    view = node(device, "sv_terms").bounds
    for _ in range(6):
        device.swipe(view.center[0], view.bottom - 50, view.center[0], view.top + 50)
    last = node(device, "I agree").bounds
    assert last.bottom <= view.bottom and view.bottom - last.bottom < 200  # the end, not beyond it


def test_a_row_shows_while_its_when_holds_and_takes_its_own_height() -> None:
    device = phone()
    assert "VIP lounge" not in texts(device)
    basic = node(device, "Basic").bounds
    assert node(device, "Family").bounds.top == basic.top + 200  # the hidden row takes no room
    tap(device, "Become VIP")
    lounge = node(device, "VIP lounge").bounds
    assert lounge.top == basic.top + 200 and lounge.height == 320
    assert node(device, "Family").bounds.top == lounge.bottom


SWIPE_APP = """
app: {name: Mail, package: com.example.swipe, launch: inbox}
variables: {archived: 0}
screens:
  - id: inbox
    activity: .MainActivity
    title: "Archived: {var:archived}"
    elements:
      - class: RecyclerView
        id: rv_mail
        list:
          rows: 20
          row: {text: "Mail {i}"}
          on_swipe: [{inc: {archived: 1}}, {toast: "Mail {i} archived"}]
"""


def test_a_row_swiped_sideways_runs_its_on_swipe_and_a_vertical_swipe_still_scrolls() -> None:
    device = VirtualDevice(parse_app_model(SWIPE_APP), latency=False, clock=ManualClock())
    device.launch("com.example.swipe")
    row = node(device, "Mail 2").bounds
    device.swipe(row.right - 40, row.center[1], row.left + 40, row.center[1])
    assert "Archived: 1" in texts(device) and device.toasts() == ["Mail 2 archived"]
    listing = node(device, "rv_mail").bounds
    device.swipe(listing.center[0], listing.bottom - 50, listing.center[0], listing.top + 50)
    assert "Mail 1" not in texts(device) and "Archived: 1" in texts(device)
