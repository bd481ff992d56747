"""Logcat read incrementally by position: each read asks only for the newest lines (`-t`) and finds where
the last read ended in them, whatever the lines' stamps say; `logcat()` still means every line since the
last clear (what the crash and ANR oracles scan)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from device_helpers import FOOD_PACKAGE, Farm
from wire.wire_helpers import ServedDevice

from fairy_virtual.clock import ManualClock
from pytest_fairy.devices.driver import U2Device
from pytest_fairy.devices.logcat import TAIL_LINES, LogcatReader
from pytest_fairy.perception.perceive import perceive

A1 = "11-24 05:00:00.001  100  100 I Tag: one"
A2 = "11-24 05:00:00.001  100  100 I Tag: two (same millisecond)"
B1 = "11-24 05:00:00.250  100  100 E Tag: three"
HEADER = "--------- beginning of main"


def logged(n: int, at: str = "11-24 05:00:01") -> list[str]:
    return [f"{at}.{i % 1000:03d}  100  100 I Tag: line {i}" for i in range(n)]


def test_the_first_read_asks_for_everything_and_later_ones_for_the_newest_lines() -> None:
    reader = LogcatReader()
    assert reader.command() == ["logcat", "-d", "-v", "threadtime"]
    assert reader.take(f"{HEADER}\n{A1}\n") == f"{HEADER}\n{A1}\n"
    assert reader.command() == ["logcat", "-d", "-v", "threadtime", "-t", str(TAIL_LINES)]


def test_lines_read_before_are_kept_once_and_new_ones_of_the_same_millisecond_are_kept() -> None:
    reader = LogcatReader()
    reader.take(f"{A1}\n")
    assert reader.take(f"{HEADER}\n{A1}\n{A2}\n{B1}\n") == f"{A1}\n{A2}\n{B1}\n"
    assert reader.take(f"{A1}\n{A2}\n{B1}\n") == f"{A1}\n{A2}\n{B1}\n"


def test_a_line_repeated_by_the_app_is_not_mistaken_for_one_read_before() -> None:
    reader = LogcatReader()
    reader.take(f"{A1}\n")
    assert reader.take(f"{A1}\n{A1}\n") == f"{A1}\n{A1}\n"  # the second one is new


@pytest.mark.parametrize(
    "later",
    ["11-24 04:00:00.500  100  100 E AndroidRuntime: FATAL EXCEPTION: main",  # the clock set back an hour
     "01-01 00:00:00.010  100  100 E AndroidRuntime: FATAL EXCEPTION: main"],  # New Year, in MM-DD stamps
    ids=["clock set back", "new year"],
)  # fmt: skip
def test_a_line_stamped_before_the_last_one_read_is_still_read(later: str) -> None:
    """Read by position, not by time: a clock that moves back does not hide a crash logged after it."""
    reader = LogcatReader()
    reader.take(f"{A1}\n{B1.replace('11-24', '12-31')}\n")
    assert reader.take(f"{A1}\n{B1.replace('11-24', '12-31')}\n{later}\n").endswith(f"{later}\n")


def test_past_the_newest_lines_asked_for_where_the_last_read_ended_is_found_in_them() -> None:
    reader = LogcatReader(tail=50)
    first = logged(30)
    reader.take("\n".join(first) + "\n")
    more = logged(40, at="11-24 05:00:02")
    newest = (first + more)[-50:]  # the device prints only the newest 50
    assert reader.take("\n".join(newest) + "\n") == "\n".join(first + more) + "\n"
    flood = logged(60, at="11-24 05:00:03")  # more than 50 since: the last read's end is not in them
    assert reader.take("\n".join(flood[-50:]) + "\n").endswith("\n".join(flood[-50:]) + "\n")


def test_clear_forgets_the_lines_and_the_position() -> None:
    reader = LogcatReader()
    reader.take(f"{A1}\n{B1}\n")
    reader.clear()
    assert reader.text() == ""
    assert "-t" not in reader.command()


def test_the_driver_reads_only_new_lines_yet_returns_the_items_whole_log(
    driver: U2Device, food: ServedDevice, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[tuple[list[str], str]] = []
    reader = driver._log
    take = reader.take

    def spy(output: str) -> str:
        asked.append((reader.command(), output))  # the command the read was made with, and what it got
        return take(output)

    monkeypatch.setattr(reader, "take", spy)
    driver.clear_logcat()
    driver.stop(FOOD_PACKAGE)
    driver.launch(FOOD_PACKAGE)
    first = driver.logcat()
    assert first and first == food.device.logcat()
    driver.stop(FOOD_PACKAGE)
    second = driver.logcat()
    assert second == food.device.logcat()  # every line since the clear, each once
    assert second.startswith(first) and len(second) > len(first)
    reads = asked
    assert "-t" not in reads[0][0] and "-t" in reads[1][0]
    assert len(reads[1][1].splitlines()) <= TAIL_LINES  # the newest lines, never the whole buffer
    driver.clear_logcat()
    assert driver.logcat() == food.device.logcat()


CRASHING_APP = """
app: {package: com.example.clock, name: Clock, launch: home}
screens:
  - id: home
    activity: .HomeActivity
    title: Clock
    elements:
      - class: Button
        id: btn_sync
        text: Sync
        on_tap:
          - crash: {exception: java.lang.IllegalStateException, message: clock went back}
"""


@pytest.mark.parametrize("jump", [-3600, -86400 * 330], ids=["an-hour-back", "over-new-year"])
def test_a_crash_logged_after_the_phones_clock_went_back_is_read(farm: Farm, tmp_path: Path, jump: int) -> None:
    """Over the real adb stack: the phone's clock is set back after the log was read once (an hour; or
    from late December into the year before's January stamps... as MM-DD reads a New Year), then the app
    crashes: its stack trace is in the log the crash oracle reads."""
    app = tmp_path / "clock.yaml"
    app.write_text(CRASHING_APP, encoding="utf-8")
    clock = ManualClock(datetime(2025, 12, 31, 23, 30, 0) if jump < -3600 else None)
    served = farm.serve(app, clock=clock)
    driver = farm.driver(served)
    driver.clear_logcat()
    driver.launch("com.example.clock")
    assert driver.logcat()
    clock.jump(jump if jump == -3600 else 3600)  # over New Year: 12-31 23:30 -> 01-01 00:30
    (sync,) = [m for m in perceive(driver).screen.marks if m.label == "Sync"]
    driver.tap(*sync.bounds.center)
    log = driver.logcat()
    assert "java.lang.IllegalStateException: clock went back" in log, log[-800:]
