"""Fixtures for the virtual device tests: the example apps on a manual clock, already launched."""

from __future__ import annotations

import pytest
from virtual_helpers import FOOD, FOOD_PACKAGE, NOTES, NOTES_PACKAGE, tap

from fairy_virtual import ManualClock, VirtualDevice


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def food(clock: ManualClock) -> VirtualDevice:
    device = VirtualDevice(FOOD, latency=False, clock=clock)
    device.launch(FOOD_PACKAGE)
    return device


@pytest.fixture
def notes(clock: ManualClock) -> VirtualDevice:
    device = VirtualDevice(NOTES, latency=False, clock=clock)
    device.launch(NOTES_PACKAGE)
    return device


@pytest.fixture
def logged_in_notes(notes: VirtualDevice) -> VirtualDevice:
    tap(notes, "et_username")
    notes.type_text("alice")
    tap(notes, "et_password")
    notes.type_text("secret")
    tap(notes, "登录")
    return notes

