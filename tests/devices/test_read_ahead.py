"""A look at the screen over adb: the app in front starts the dump, the screenshot and the log beside it;
anything that may change the screen drops what was read ahead."""

from __future__ import annotations

from collections import Counter

import pytest
from device_helpers import FOOD_PACKAGE, find, tap_on
from wire.wire_helpers import ServedDevice

from pytest_fairy.devices.driver import U2Device
from pytest_fairy.devices.read_ahead import ReadAhead

SEARCH_ID = f"{FOOD_PACKAGE}:id/et_store_search"  # on the pickup screen only
READS = ("current_app", "dump", "screenshot", "logcat")


def look(driver: U2Device) -> tuple[str, str]:
    """What a step reads, in the order perception and the oracles read it."""
    app = driver.current_app()
    xml = driver.dump_hierarchy()
    driver.screenshot()
    driver.logcat()
    return app.activity, xml


def test_a_look_reads_each_thing_once_and_sees_what_the_device_shows(
    driver: U2Device, food: ServedDevice
) -> None:
    driver.clear_logcat()
    food.device.action_log.clear()
    activity, xml = look(driver)
    reads = Counter(e.action for e in food.device.action_log if e.action in READS)
    assert activity == food.device.current_app().activity
    find(xml, text="到店取餐")
    food.device.action_log.clear()
    driver.current_app()  # (adbutils asks the window manager more than once for it)
    alone = Counter(e.action for e in food.device.action_log if e.action in READS)
    assert reads == {"current_app": alone["current_app"], "dump": 1, "screenshot": 1, "logcat": 1}


def test_an_action_drops_the_reads_started_before_it(driver: U2Device) -> None:
    pickup = find(driver.dump_hierarchy(), text="到店取餐").bounds.center
    driver.current_app()  # the dump of the home screen starts beside it
    driver.tap(*pickup)
    find(driver.dump_hierarchy(), resource_id=SEARCH_ID)  # the pickup screen, not the dump read ahead


@pytest.mark.parametrize("change", ["launch", "stop", "shell"])
def test_a_launch_a_stop_or_a_shell_command_drops_them_too(driver: U2Device, change: str) -> None:
    tap_on(driver, text="到店取餐")
    driver.current_app()  # the pickup screen's dump starts beside it
    if change == "launch":
        driver.launch(FOOD_PACKAGE, ".activity.HomeActivity")
    elif change == "stop":
        driver.stop(FOOD_PACKAGE)
    else:
        driver.shell(["input", "keyevent", "4"], doing="press back")
    with pytest.raises(AssertionError, match="no node"):
        find(driver.dump_hierarchy(), resource_id=SEARCH_ID)


def test_a_read_ahead_is_taken_once_and_a_failed_one_is_none() -> None:
    ahead = ReadAhead()
    try:
        ahead.start("dump", lambda: "first")
        ahead.start("dump", lambda: "second")  # in place of the first
        assert ahead.take("dump", 5) == "second"
        assert ahead.take("dump", 5) is None
        ahead.start("screenshot", lambda: 1 / 0)
        assert ahead.take("screenshot", 5) is None  # done again in the foreground
        ahead.start("logcat", lambda: "log")
        ahead.drop()
        assert ahead.take("logcat", 5) is None
    finally:
        ahead.close()
