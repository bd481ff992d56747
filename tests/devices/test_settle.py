"""Settling after an action: the rule (pure, with fakes) and the driver over the whole adb stack against a
virtual device whose UI takes `device.latency.settle` seconds to show an action's result."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from device_helpers import FOOD_APP, FOOD_PACKAGE, Farm, find, tap_on, with_latency

from fairy_virtual import ManualClock
from fairy_virtual.catalog import AppModels
from fairy_virtual.wire.u2server import METHOD_NOT_FOUND, RpcError, UiautomatorServer
from pytest_fairy.devices.driver import U2Device
from pytest_fairy.devices.pool import DevicePool
from pytest_fairy.devices.protocol import settle_after_action
from pytest_fairy.devices.settle import Settled, SettleLimits, settle

REPO = Path(__file__).resolve().parents[2]
PICKUP = "到店取餐"
SEARCH_ID = f"{FOOD_PACKAGE}:id/et_store_search"  # on the pickup screen only


class Fake:
    """A clock that moves only by sleeping, and a record of what settling did."""

    def __init__(self, observations: list[str] | None = None, idle: bool | None = None) -> None:
        self.now = 0.0
        self.calls: list[str] = []
        self._observations: Iterator[str] = iter(observations or [])
        self._idle = idle

    def sleep(self, seconds: float) -> None:
        self.calls.append(f"sleep {seconds:g}")
        self.now += seconds

    def clock(self) -> float:
        return self.now

    def idle(self, seconds: float) -> bool | None:
        self.calls.append(f"idle {seconds:g}")
        return self._idle

    def observe(self) -> str:
        seen = next(self._observations, "still moving")
        self.calls.append(f"observe {seen}")
        self.now += 0.05  # an observation takes time too
        return seen + (f" {self.now}" if seen == "still moving" else "")

    def settle(self, limits: SettleLimits, *, with_idle: bool = True) -> Settled:
        idle = self.idle if with_idle else None
        return settle(limits, idle=idle, observe=self.observe, sleep=self.sleep, clock=self.clock)


# ---- the rule ---------------------------------------------------------------------------------------


def test_the_devices_word_that_the_ui_is_idle_ends_settling_without_observing() -> None:
    fake = Fake(idle=True)
    assert fake.settle(SettleLimits(cap=3.0)) is Settled.IDLE
    assert fake.calls == ["idle 3"]


def test_the_floor_is_waited_first_and_the_idle_wait_gets_what_is_left_of_the_cap() -> None:
    fake = Fake(idle=True)
    assert fake.settle(SettleLimits(floor=0.5, cap=3.0)) is Settled.IDLE
    assert fake.calls == ["sleep 0.5", "idle 2.5"]


def test_no_floor_by_default() -> None:
    assert SettleLimits().floor == 0.0


def test_an_idle_wait_that_ran_out_is_capped() -> None:
    fake = Fake(idle=False)
    assert fake.settle(SettleLimits(cap=1.0)) is Settled.CAPPED
    assert Settled.CAPPED.note(SettleLimits(cap=1.0)) == "the UI did not settle within 1 s"
    assert Settled.IDLE.note(SettleLimits()) == Settled.AGREED.note(SettleLimits()) == ""


def test_a_device_that_cannot_tell_idle_settles_on_two_agreeing_observations() -> None:
    fake = Fake(["before", "moving", "after", "after"], idle=None)
    assert fake.settle(SettleLimits(cap=3.0, poll=0.1)) is Settled.AGREED
    assert fake.calls == [
        "idle 3",
        "observe before",
        "sleep 0.1",
        "observe moving",
        "sleep 0.1",
        "observe after",
        "sleep 0.1",
        "observe after",
    ]


def test_without_an_idle_wait_observations_are_compared_at_once() -> None:
    fake = Fake(["same", "same"])
    assert fake.settle(SettleLimits(poll=0.1), with_idle=False) is Settled.AGREED
    assert fake.calls == ["observe same", "sleep 0.1", "observe same"]


def test_a_ui_that_never_agrees_is_capped() -> None:
    fake = Fake([], idle=None)
    assert fake.settle(SettleLimits(cap=1.0, poll=0.1)) is Settled.CAPPED
    assert fake.now == pytest.approx(1.0, abs=0.06)
    assert 5 <= len([c for c in fake.calls if c.startswith("observe")]) <= 11


@pytest.mark.parametrize("limits", [{"floor": -1}, {"cap": -0.1}, {"poll": 0}])
def test_settle_limits_refuse_nonsense(limits: dict[str, float]) -> None:
    with pytest.raises(ValueError, match="settle limits"):
        SettleLimits(**limits)


# ---- the driver, over adb, against a UI that takes 0.3 s to settle ----------------------------------


def test_an_action_returns_once_the_ui_settled_after_the_devices_idle_wait(farm: Farm) -> None:
    clock = ManualClock()
    served = farm.serve(with_latency(FOOD_APP, settle=0.3), latency=True, clock=clock)
    driver = farm.driver(served)
    driver.launch(FOOD_PACKAGE)
    tap_on(driver, text=PICKUP)
    find(driver.dump_hierarchy(), resource_id=SEARCH_ID)  # the pickup screen, not the one before the tap
    assert [s for s in clock.slept if s] == [pytest.approx(0.3)]  # waited the settling on the device's clock
    calls = [e.action for e in served.device.action_log if e.action in ("tap", "wait_idle", "dump")]
    assert calls[calls.index("tap") :][:3] == ["tap", "wait_idle", "dump"]
    assert driver.take_note() == ""
    settle_after_action(driver)  # what the explorer calls after an action: settled already, no call
    assert [e.action for e in served.device.action_log].count("wait_idle") == 1


def test_typing_over_what_a_field_held_settles_the_ui_once(farm: Farm) -> None:
    # Clearing is half of one type action: the typing after it waits for the UI, once for both.
    served = farm.serve(with_latency(FOOD_APP, settle=0.3), latency=True, clock=ManualClock())
    driver = farm.driver(served)
    driver.launch(FOOD_PACKAGE)
    tap_on(driver, text=PICKUP)
    tap_on(driver, resource_id=SEARCH_ID)
    waited = [e.action for e in served.device.action_log].count("wait_idle")
    driver.clear_text()
    driver.type_text("1")
    assert [e.action for e in served.device.action_log].count("wait_idle") == waited + 1


def test_a_ui_still_moving_at_the_cap_is_read_as_it_is_and_the_note_says_so(farm: Farm) -> None:
    # The device's real clock: waitForIdle says nothing, so a wait that took its whole timeout ran out.
    served = farm.serve(with_latency(FOOD_APP, settle=30.0), latency=True)
    driver = farm.driver(served, settling=SettleLimits(cap=0.2))
    driver.launch(FOOD_PACKAGE)
    tap_on(driver, text=PICKUP)
    assert driver.take_note() == "the UI did not settle within 0.2 s"
    with pytest.raises(AssertionError, match="no node"):  # the screen still shows the one before the tap
        find(driver.dump_hierarchy(), resource_id=SEARCH_ID)
    waits = [e for e in served.device.action_log if e.action == "wait_idle"]
    assert [e.args for e in waits] == [(0.2,)]


def test_a_server_without_wait_for_idle_is_asked_once_then_dumps_are_compared(
    farm: Farm, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[int] = []

    def old_server(self: UiautomatorServer, timeout_ms: int = 0) -> None:
        asked.append(timeout_ms)
        raise RpcError(METHOD_NOT_FOUND, "Method not found: waitForIdle")

    monkeypatch.setattr(UiautomatorServer, "wait_for_idle", old_server)
    served = farm.serve(FOOD_APP)
    driver = farm.driver(served)
    driver.launch(FOOD_PACKAGE)
    tap_on(driver, text=PICKUP)
    served.device.action_log.clear()
    driver.swipe(540, 1800, 540, 600, 0.1)
    after_swipe = [e.action for e in served.device.action_log]
    assert after_swipe == ["swipe", "dump", "dump"]  # two dumps that agree
    assert asked == [3000]  # asked at the first action only


# ---- the ini keys -----------------------------------------------------------------------------------


def test_fairy_settle_cap_reaches_the_driver_and_fairy_settle_seconds_defaults_to_no_pause(
    pytester: pytest.Pytester, farm: Farm, tmp_path: Path
) -> None:
    from pytest_fairy.plugin.options import read_config

    default = read_config(pytester.parseconfigure())
    assert default.device.settle == SettleLimits() and default.explorer.settle_seconds == 0.0
    config = read_config(pytester.parseconfigure("-o", "fairy_settle_cap=1.5"))
    with pytest.raises(pytest.UsageError, match="fairy_settle_cap: expected seconds, 0 or more, got '-2'"):
        read_config(pytester.parseconfigure("-o", "fairy_settle_cap=-2"))
    served = farm.serve(FOOD_APP)
    settings = replace(config.device, devices=(served.serial,), adb_server=str(farm.address))
    settings = replace(settings, lock_dir=tmp_path / "locks", device_wait=0, device_lease=False)
    pool = DevicePool(settings, REPO, open_virtual=AppModels().open_device, worker="gw0")
    try:
        with pool.lease(None) as device:
            assert isinstance(device, U2Device) and device.settling == SettleLimits(cap=1.5)
    finally:
        pool.close()
