"""The STF provider driven on its own (bookings, expiry, keep-alive, refusals) against the stand-in farm,
and farm entries of --fairy-device as the user writes them."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from device_helpers import FOOD_APP, Farm
from stf_standin import OTHER_TOKEN, TOKEN, USER, StfStandIn

from pytest_fairy.devices.providers import (
    FarmBookings,
    NoFarmDevice,
    Requirement,
    Requirements,
    is_farm,
    parse_farm,
)
from pytest_fairy.devices.stf import StfProvider
from pytest_fairy.errors import UsageError

pytestmark = pytest.mark.wire


def adb_lists(farm: Farm, serial: str) -> bool:
    return any(d.serial == serial for d in farm.adb.client.list())


# ---- the provider on its own ----------------------------------------------------------------------------


def provider(farm: Farm, stf: StfStandIn, token: str = TOKEN, **limits: float) -> StfProvider:
    entry = parse_farm(f"stf+{stf.url}?sdk>=30")
    return StfProvider(entry, token, farm.address, **limits)  # type: ignore[arg-type]


def test_a_booking_left_by_a_killed_runner_expires(farm: Farm, stf: StfStandIn, adb_home: Path) -> None:
    stf.add_phone("stf-1", FOOD_APP)
    killed = provider(farm, stf, booking_seconds=1.0)
    serial = killed.book(Requirements(), timeout=1)
    assert stf.booked() == {"stf-1": USER}
    farm.adb.run("disconnect", serial)  # the runner is gone: no more adb traffic
    other = provider(farm, stf, token=OTHER_TOKEN, poll_seconds=0.2)
    again = other.book(Requirements(), timeout=10)  # free once the booking ran out
    try:
        assert stf.booked() == {"stf-1": "someone.else@example.org"}
    finally:
        other.release(again)
    assert stf.violations == []


def test_keep_alive_keeps_an_idle_booking(farm: Farm, stf: StfStandIn, adb_home: Path) -> None:
    stf.add_phone("stf-1", FOOD_APP)
    bookings = FarmBookings.of((f"stf+{stf.url}",), lambda entry: provider(farm, stf, booking_seconds=1.0))
    bookings.keep_alive_seconds = 0.2
    bookings.book(wait=1)
    try:
        time.sleep(2.5)  # idle but for the keep-alive, more than twice the expiry
        assert stf.booked() == {"stf-1": USER}
    finally:
        bookings.release()
    assert stf.booked() == {}


def test_a_phone_someone_else_booked_meanwhile_is_refused_and_the_next_one_taken(
    farm: Farm, stf: StfStandIn, adb_home: Path
) -> None:
    stf.add_phone("stf-1", FOOD_APP)
    stf.add_phone("stf-2", FOOD_APP)
    mine = provider(farm, stf)
    assert mine._take("stf-1") is True  # free: booked
    assert mine._take("stf-1") is False  # STF says 403: already controlled
    other = provider(farm, stf, token=OTHER_TOKEN)
    with pytest.raises(NoFarmDevice, match="none within 0 s"):
        other.book(Requirements((Requirement("serial", "=", "stf-1"),)), timeout=0)


def test_an_entry_without_a_phone_asks_the_farm_again_at_a_later_item(
    farm: Farm, stf: StfStandIn, adb_home: Path
) -> None:
    """No phone was free at session start; one comes free later: a later item books it, without waiting,
    and not before `rebook_seconds` since the last attempt."""
    stf.add_phone("stf-1", FOOD_APP)
    stf.book_as("someone.else@example.org", "stf-1", timeout_ms=300)  # STF frees it after 0.3 s idle
    entry, now = f"stf+{stf.url}?sdk>=30", [0.0]
    bookings = FarmBookings.of((entry,), lambda _: provider(farm, stf))
    bookings.clock = lambda: now[0]
    bookings.book(wait=0)
    assert isinstance(bookings.serial_of(entry), NoFarmDevice)
    deadline = time.monotonic() + 10
    while stf.booked() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert stf.booked() == {}
    asked = len(stf.requests)
    now[0] = bookings.rebook_seconds - 1
    assert isinstance(bookings.serial_of(entry), NoFarmDevice)
    assert len(stf.requests) == asked  # too soon: the farm is not asked
    now[0] = bookings.rebook_seconds
    serial = bookings.serial_of(entry)
    try:
        assert isinstance(serial, str) and adb_lists(farm, serial)
        assert stf.booked() == {"stf-1": USER}
    finally:
        bookings.release()
    assert stf.booked() == {}
    assert stf.violations == []


# ---- farm entries ---------------------------------------------------------------------------------------


def test_a_farm_entry_reads_its_provider_address_and_requirements() -> None:
    entry = parse_farm("stf+https://stf.example.org:7100/?abi=arm64-v8a&sdk>=30")
    assert (entry.provider, entry.address) == ("stf", "https://stf.example.org:7100")
    assert entry.requirements.terms == (Requirement("abi", "=", "arm64-v8a"), Requirement("sdk", ">=", "30"))
    assert entry.requirements.met_by({"abi": "arm64-v8a", "sdk": "34"})
    assert not entry.requirements.met_by({"abi": "arm64-v8a", "sdk": "29"})
    assert not entry.requirements.met_by({"abi": "x86_64", "sdk": "34"})
    assert is_farm("stf+http://farm:7100") and not is_farm("127.0.0.1:5555") and not is_farm("virtual")
    for bad in (
        "stf+http://farm?sdk>=thirty",
        "stf+http://farm?token=abc",
        "stf+http://me:pw@farm",
        "stf+http://farm?sdk",
    ):
        with pytest.raises(UsageError):
            parse_farm(bad)
    with pytest.raises(
        UsageError, match=r"^--fairy-device stf\+http://farm\?sdk>=x: expected a number after >="
    ):
        FarmBookings.of(("stf+http://farm?sdk>=x",), lambda entry: pytest.fail("a provider for a bad entry"))


def test_an_unknown_requirement_is_refused_by_stf(farm: Farm, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STF_TOKEN", TOKEN)
    with pytest.raises(UsageError, match="STF phones have no colour"):
        StfProvider.from_env(parse_farm("stf+http://farm:7100?colour=red"), farm.address)
