"""`logcat -T TIME|COUNT` and `-t` over adb: only the lines since a time (its own included), or the last
COUNT lines, as the driver's incremental reads ask for them."""

from __future__ import annotations

from wire_helpers import ServedDevice

PACKAGE = "com.mcdonalds.gma.cn"


def test_logcat_since_a_time_prints_that_time_and_later(served: ServedDevice) -> None:
    device = served.adb_device()
    device.shell(["logcat", "-c"])
    device.app_start(PACKAGE, ".activity.HomeActivity")
    device.app_stop(PACKAGE)
    lines = device.shell(["logcat", "-d", "-v", "threadtime"]).splitlines()
    assert len(lines) >= 2
    last = lines[-1][:18]
    since = device.shell(["logcat", "-d", "-v", "threadtime", "-T", last]).splitlines()
    assert since == [line for line in lines if line[:18] >= last]
    with_year = device.shell(["logcat", "-d", "-T", f"2026-{last}"]).splitlines()
    assert with_year == since
    assert device.shell(["logcat", "-d", "-T", "12-31 23:59:59.999"]) == ""
    assert device.shell(["logcat", "-t", "2"]).splitlines() == lines[-2:]  # -t implies -d
