"""The virtual device's UI settling (`device.latency.settle`): for that long after an input action, a dump
or screenshot shows the screen before it, until `wait_idle` waited it out on the device's clock."""

from __future__ import annotations

import pytest
from virtual_helpers import FOOD, FOOD_PACKAGE, find, tap

from fairy_virtual import ManualClock, VirtualDevice
from fairy_virtual.loader import load_app_model
from fairy_virtual.model import AppModel, Durations, Latency
from pytest_fairy.devices.protocol import settle_after_action

SEARCH = "et_store_search"  # on the pickup screen only


INSTANT_READS = Durations(dump=0, screenshot=0)


def settling(seconds: float, durations: Durations = INSTANT_READS) -> AppModel:
    """The food app settling for `seconds` after each input action; by default its reads take no time at
    all (on a phone a dump takes longer than a short animation, which is over before the next read)."""
    model = load_app_model(FOOD)
    latency = Latency(dump=0, screenshot=0, action=0, settle=seconds)
    device = model.device.model_copy(update={"latency": latency, "durations": durations})
    return model.model_copy(update={"device": device})


def phone(
    clock: ManualClock, seconds: float = 0.3, latency: bool = True, durations: Durations = INSTANT_READS
) -> VirtualDevice:
    device = VirtualDevice(settling(seconds, durations), latency=latency, clock=clock)
    device.launch(FOOD_PACKAGE)
    return device


def on_pickup(device: VirtualDevice) -> bool:
    try:
        find(device, SEARCH)
    except LookupError:
        return False
    return True


def test_until_the_ui_settled_dumps_and_screenshots_show_the_screen_before_the_action() -> None:
    clock = ManualClock()
    device = phone(clock)
    tap(device, "到店取餐")
    assert not on_pickup(device)
    stale = device.screenshot().tobytes()
    assert device.screenshot().tobytes() == stale  # the moment before the tap, however often it is looked at
    clock.advance(0.31)
    assert on_pickup(device)
    assert device.screenshot().tobytes() != stale


def test_wait_idle_waits_what_is_left_of_the_settling_on_the_devices_clock() -> None:
    clock = ManualClock()
    device = phone(clock)
    tap(device, "到店取餐")
    clock.advance(0.1)
    assert device.wait_idle(5.0) is True
    assert [s for s in clock.slept if s] == [pytest.approx(0.2)]
    assert on_pickup(device)
    assert device.wait_idle(5.0) is True  # idle already: no wait
    assert [s for s in clock.slept if s] == [pytest.approx(0.2)]


def test_wait_idle_gives_up_at_its_timeout_and_the_screen_is_still_the_old_one() -> None:
    clock = ManualClock()
    device = phone(clock)
    tap(device, "到店取餐")
    assert device.wait_idle(0.1) is False
    assert not on_pickup(device)
    settle_after_action(device)  # in process, what the explorer calls: up to the model's settling
    assert on_pickup(device)


def test_no_settling_by_default_nor_with_latency_off() -> None:
    assert Latency().settle == 0.0
    clock = ManualClock()
    device = phone(clock, latency=False)
    tap(device, "到店取餐")
    assert on_pickup(device)
    assert device.wait_idle(1.0) is True
    assert not [s for s in clock.slept if s]


def test_a_read_shows_the_moment_it_was_asked_and_the_ui_settles_while_it_takes_its_time() -> None:
    clock = ManualClock()
    device = phone(clock, durations=Durations())  # a dump takes 0.6 s of the phone's time, the UI 0.3 s
    tap(device, "到店取餐")
    assert not on_pickup(device)  # asked at once: the screen before the tap
    assert on_pickup(device)  # the first dump's time let the UI settle
    assert not [s for s in clock.slept if s]  # the run never waited for it
