"""The virtual phone's time: each call takes the time a phone takes for it (`device.durations`) on the
device's own clock, without the run waiting for it; toasts and ANRs are timed on that clock, and a toast
ends with its app's process."""

from __future__ import annotations

import time
from functools import cache

import pytest
from virtual_helpers import find

from fairy_virtual import ManualClock, VirtualDevice, parse_app_model
from fairy_virtual.model import AppModel, Durations
from pytest_fairy.devices.protocol import Key

PKG = "com.example.timer"
APP = """
app: {name: Timer, package: com.example.timer, launch: main}
screens:
  - id: main
    activity: .MainActivity
    title: Timer
    elements:
      - {class: Button, id: btn_save, text: Save, on_tap: [{toast: Saved}]}
      - {class: Button, id: btn_keep, text: Keep, on_tap: [{toast: {text: Kept, duration: 30}}]}
      - {class: Button, id: btn_two, text: Two, on_tap: [{toast: First}, {toast: {text: Second, duration: 3.5}}]}
      - {class: Button, id: btn_idle, text: Idle}
      - {class: Button, id: btn_hang, text: Hang, on_tap: [{toast: Working}, anr]}
      - {class: EditText, id: et_name, hint: Name}
"""
TIMER = parse_app_model(APP)
MAX_TAPS = 50
EMPTY = (540, 1800)  # below the timer app's views: a tap or long tap there does nothing


@cache
def where(label: str) -> tuple[int, int]:
    """The centre of a view of the timer app, found once on a device of its own (a dump takes time)."""
    device = VirtualDevice(TIMER, latency=False, clock=ManualClock())
    device.launch(PKG)
    return find(device, label).bounds.center


def phone(model: AppModel = TIMER, clock: ManualClock | None = None, latency: bool = False) -> VirtualDevice:
    device = VirtualDevice(model, latency=latency, clock=clock or ManualClock())
    device.launch(PKG)
    return device


def press(device: VirtualDevice, label: str) -> None:
    device.tap(*where(label))


def step(device: VirtualDevice, label: str = "Idle") -> None:
    """One explorer step: look at the screen (a dump and a screenshot), then tap."""
    device.dump_hierarchy()
    device.screenshot()
    press(device, label)


def moved(device: VirtualDevice, call: object) -> float:
    before = device.clock.monotonic()
    assert callable(call)
    call()
    return device.clock.monotonic() - before


def test_the_tapped_buttons_are_where_the_tests_tap() -> None:
    device = phone()
    press(device, "Save")
    assert device.toasts() == ["Saved"]
    press(device, "Name")
    device.type_text("ab")
    assert 'text="ab"' in device.dump_hierarchy()


def test_each_call_moves_the_devices_clock_by_what_it_takes_a_phone() -> None:
    clock = ManualClock()
    device = phone(clock=clock)
    times = TIMER.device.durations
    assert moved(device, lambda: press(device, "Idle")) == pytest.approx(times.tap)
    assert moved(device, lambda: device.long_tap(*EMPTY, 1.0)) == pytest.approx(1.0 + times.tap)
    assert moved(device, lambda: device.swipe(*EMPTY, 540, 600, 0.3)) == pytest.approx(0.3 + times.swipe)
    assert moved(device, lambda: device.type_text("hello")) == pytest.approx(5 * times.type_char)
    assert moved(device, lambda: device.press(Key.BACK)) == pytest.approx(times.key)
    assert moved(device, lambda: device.press_keycode(67)) == pytest.approx(times.key)
    assert moved(device, lambda: device.launch(PKG)) == pytest.approx(times.launch)
    assert moved(device, lambda: device.stop(PKG)) == pytest.approx(times.stop)
    assert moved(device, lambda: device.clear_app_data(PKG)) == pytest.approx(times.clear_data)
    assert moved(device, device.dump_hierarchy) == pytest.approx(times.dump)
    assert moved(device, device.screenshot) == pytest.approx(times.screenshot)
    assert moved(device, device.current_app) == 0
    # The phone's time is the device's own: the clock it was given neither slept nor moved.
    assert clock.slept == []
    assert clock.monotonic() == ManualClock().monotonic()


def test_the_durations_are_the_models_device_settings() -> None:
    slow = TIMER.model_copy(
        update={"device": TIMER.device.model_copy(update={"durations": Durations(tap=2.5, type_char=1.0)})}
    )
    device = phone(slow)
    assert moved(device, lambda: press(device, "Idle")) == pytest.approx(2.5)
    assert moved(device, lambda: device.type_text("abc")) == pytest.approx(3.0)
    assert parse_app_model(APP + "device: {durations: {launch: 4}}\n").device.durations.launch == 4


def test_with_latency_on_a_call_takes_the_longer_of_its_latency_and_its_duration() -> None:
    clock = ManualClock()
    device = phone(clock=clock, latency=True)
    latency, times = TIMER.device.latency, TIMER.device.durations
    assert latency.action < times.tap and latency.dump < times.dump  # the defaults this test relies on
    clock.slept.clear()
    assert moved(device, lambda: press(device, "Idle")) == pytest.approx(times.tap)
    assert moved(device, device.dump_hierarchy) == pytest.approx(times.dump)
    assert clock.slept == [latency.action, latency.dump]  # really waited: only the latency


def test_the_run_never_waits_for_the_phones_time() -> None:
    device = VirtualDevice(TIMER, latency=False)  # on the host's real clock
    times = TIMER.device.durations
    rounds = 10
    before, started = device.clock.monotonic(), time.monotonic()
    for _ in range(rounds):
        device.launch(PKG)
        device.stop(PKG)
    phone_time = rounds * (times.launch + times.stop)
    assert device.clock.monotonic() - before >= phone_time
    assert time.monotonic() - started < phone_time / 2  # loose: the calls answered without waiting


def test_a_toast_shows_right_after_its_action_and_is_gone_a_couple_of_steps_later() -> None:
    device = phone()
    press(device, "Save")
    assert device.toasts() == ["Saved"]
    step(device)  # a dump, a screenshot and a tap: 1.3 s of the toast's 2 s
    assert device.toasts() == ["Saved"]
    step(device)
    assert device.toasts() == []


def test_a_toast_lasts_its_own_duration() -> None:
    device = phone()
    press(device, "Keep")
    for _ in range(10):  # 13 s of a 30 s toast
        step(device)
    assert device.toasts() == ["Kept"]


def tap_until(device: VirtualDevice, moment: float) -> None:
    """Tap an idle button until the device's clock is past `moment` (in a few dozen taps at most)."""
    for _ in range(MAX_TAPS):
        if device.clock.monotonic() > moment:
            return
        press(device, "Idle")
    raise AssertionError(f"{MAX_TAPS} taps did not move the device's clock past {moment}")


def test_queued_toasts_show_one_after_another_in_order() -> None:
    device = phone()
    press(device, "Two")
    shown = device.clock.monotonic()
    assert device.toasts() == ["First"]
    tap_until(device, shown + TIMER.device.toast_duration)
    assert device.toasts() == ["Second"]
    tap_until(device, shown + TIMER.device.toast_duration + 3.5)
    assert device.toasts() == []


@pytest.mark.parametrize("end", ["relaunch", "clear_data"])
def test_a_toast_ends_with_its_apps_process_even_before_its_time(end: str) -> None:
    device = phone()
    press(device, "Keep")  # 30 s
    press(device, "Two")  # queued behind it
    if end == "relaunch":
        device.stop(PKG)
    else:
        device.clear_app_data(PKG)
    device.launch(PKG)
    assert device.toasts() == []
    press(device, "Save")  # the new process's toasts show at once
    assert device.toasts() == ["Saved"]


def test_home_keeps_the_toast_as_the_process_lives_on() -> None:
    device = phone()
    press(device, "Keep")
    device.press(Key.HOME)
    assert device.toasts() == ["Kept"]


def test_an_anr_shows_once_input_dispatching_waited_for_the_app() -> None:
    device = phone()
    times = TIMER.device.durations
    assert moved(device, lambda: press(device, "Hang")) == pytest.approx(times.tap + times.anr)
    assert device.toasts() == []  # the toast shown before the app hung ran out while the system waited
    assert f"(Waited {round(times.anr * 1000)}ms for MotionEvent)" in device.logcat()
    assert "isn't responding" in device.dump_hierarchy()
