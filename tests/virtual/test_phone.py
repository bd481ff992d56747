"""VirtualPhone: one phone with several apps installed, the app last launched in front."""

from __future__ import annotations

import pytest
from virtual_helpers import FOOD, FOOD_PACKAGE, NOTES, NOTES_PACKAGE, tap, texts

from fairy_virtual import ManualClock, VirtualPhone
from pytest_fairy.devices.protocol import Device, Key
from pytest_fairy.errors import DeviceError


@pytest.fixture
def phone(clock: ManualClock) -> VirtualPhone:
    return VirtualPhone([FOOD, NOTES], serial="farm-1", latency=False, clock=clock)


def test_the_app_launched_last_is_in_front_and_the_other_keeps_its_place(phone: VirtualPhone) -> None:
    assert isinstance(phone, Device) and phone.serial == "farm-1"
    assert phone.apps == [FOOD_PACKAGE, NOTES_PACKAGE]
    phone.launch(FOOD_PACKAGE)
    tap(phone.front, "麦乐送")
    food_screen, food_activity = texts(phone.front), phone.current_app().activity
    phone.launch(NOTES_PACKAGE)
    assert phone.current_app().package == NOTES_PACKAGE
    assert texts(phone.front) != food_screen and phone.front is phone.app(NOTES_PACKAGE)
    assert phone.app(FOOD_PACKAGE).current_app().package == FOOD_PACKAGE  # still where it was, behind
    phone.press(Key.BACK)  # the app in front takes the input: notes closes, food stays where it was
    assert phone.current_app().package != NOTES_PACKAGE
    assert phone.app(FOOD_PACKAGE).current_app().activity == food_activity
    assert "请选择您的送达时间" in texts(phone.app(FOOD_PACKAGE))  # its dialog still open


def test_a_package_not_installed_is_refused_as_on_a_phone(phone: VirtualPhone) -> None:
    with pytest.raises(DeviceError, match="unable to resolve Intent for package com.example.absent"):
        phone.launch("com.example.absent")
    assert {FOOD_PACKAGE, NOTES_PACKAGE} <= set(phone.installed_packages())
    assert phone.app_version("com.example.absent") == ""


def test_stopping_and_clearing_reach_the_app_named_not_the_one_in_front(phone: VirtualPhone) -> None:
    phone.launch(FOOD_PACKAGE)
    phone.launch(NOTES_PACKAGE)
    phone.stop(FOOD_PACKAGE)
    assert phone.current_app().package == NOTES_PACKAGE  # notes untouched
    assert phone.app(FOOD_PACKAGE).current_app().package != FOOD_PACKAGE  # food is no longer running


def test_one_clock_and_one_log_for_the_phone(phone: VirtualPhone, clock: ManualClock) -> None:
    phone.launch(FOOD_PACKAGE)
    clock.advance(5)
    phone.launch(NOTES_PACKAGE)
    assert phone.app(FOOD_PACKAGE).clock is phone.app(NOTES_PACKAGE).clock is phone.clock
    lines = phone.logcat().splitlines()
    assert lines == sorted(lines, key=lambda line: line[:18])  # both apps' lines, in the phone's time
    assert any(FOOD_PACKAGE in line for line in lines) and any(NOTES_PACKAGE in line for line in lines)
    phone.clear_logcat()
    assert phone.logcat() == ""


def test_two_apps_of_one_package_are_refused() -> None:
    with pytest.raises(ValueError, match="same package"):
        VirtualPhone([FOOD, FOOD], latency=False)
