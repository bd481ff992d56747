"""Logcat read incrementally: each read asks only for the lines since the last one seen (`-T`), and
`logcat()` still means every line since the last clear (what the crash and ANR oracles scan)."""

from __future__ import annotations

import pytest
from device_helpers import FOOD_PACKAGE
from wire.wire_helpers import ServedDevice

from pytest_fairy.devices.driver import U2Device
from pytest_fairy.devices.logcat import LogcatReader

A1 = "11-24 05:00:00.001  100  100 I Tag: one"
A2 = "11-24 05:00:00.001  100  100 I Tag: two (same millisecond)"
B1 = "11-24 05:00:00.250  100  100 E Tag: three"
HEADER = "--------- beginning of main"


def test_the_first_read_asks_for_everything_and_later_ones_from_the_last_time_seen() -> None:
    reader = LogcatReader()
    assert reader.command() == ["logcat", "-d", "-v", "threadtime"]
    assert reader.take(f"{HEADER}\n{A1}\n") == f"{HEADER}\n{A1}\n"
    assert reader.command() == ["logcat", "-d", "-v", "threadtime", "-T", "11-24 05:00:00.001"]


def test_lines_of_the_last_time_seen_are_kept_once_and_new_ones_of_that_time_are_kept() -> None:
    reader = LogcatReader()
    reader.take(f"{A1}\n")
    # `-T` prints the lines of that very time again, and one more of the same millisecond arrived since.
    assert reader.take(f"{HEADER}\n{A1}\n{A2}\n{B1}\n") == f"{A1}\n{A2}\n{B1}\n"
    assert reader.command()[-1] == "11-24 05:00:00.250"
    assert reader.take(f"{B1}\n") == f"{A1}\n{A2}\n{B1}\n"


def test_a_line_repeated_by_the_app_is_not_mistaken_for_one_read_before() -> None:
    reader = LogcatReader()
    reader.take(f"{A1}\n")
    assert reader.take(f"{A1}\n{A1}\n") == f"{A1}\n{A1}\n"  # the second one is new


def test_clear_forgets_the_lines_and_the_position() -> None:
    reader = LogcatReader()
    reader.take(f"{A1}\n{B1}\n")
    reader.clear()
    assert reader.text() == ""
    assert "-T" not in reader.command()


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
    assert "-T" not in reads[0][0] and "-T" in reads[1][0]
    assert len(reads[1][1].splitlines()) < len(second.splitlines())  # not the whole log again
    driver.clear_logcat()
    assert driver.logcat() == food.device.logcat()
