"""Every option and ini key declared once (plugin/option_table.py): the docs list the same table, a flag
wins over its ini key and the ini key over the default, each kind of value refuses what it does not take,
and the state identifier's limits reach the explorer."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_fairy.plugin.option_table import SETTINGS, Refused, adb_server, seconds, serial, whole
from pytest_fairy.plugin.options import read_config

DOCS = Path(__file__).resolve().parents[2] / "docs" / "options.md"


def _documented() -> tuple[set[str], set[str]]:
    """The flags and ini keys named in the first column pair of docs/options.md's option table."""
    flags: set[str] = set()
    keys: set[str] = set()
    for line in DOCS.read_text(encoding="utf-8").splitlines():
        cells = line.split("|")
        if len(cells) < 5 or not cells[1].strip().startswith(("`--fairy", "-")):
            continue
        flags.update(re.findall(r"`(--fairy-[a-z-]+)", cells[1]))
        keys.update(re.findall(r"`(fairy_[a-z_]+)`", cells[2]))
    return flags, keys


def test_the_docs_list_every_setting_and_nothing_else() -> None:
    flags, keys = _documented()
    assert flags == {s.flag for s in SETTINGS if s.flag}
    assert keys == {s.ini for s in SETTINGS if s.ini_key}


def test_a_flag_wins_over_its_ini_key_and_the_ini_key_over_the_default(pytester: pytest.Pytester) -> None:
    assert read_config(pytester.parseconfigure()).explorer.confirm == 1
    pytester.makeini("[pytest]\nfairy_confirm = 3\nfairy_matrix = true\n")
    assert read_config(pytester.parseconfigure()).explorer.confirm == 3
    assert read_config(pytester.parseconfigure("--fairy-confirm", "0")).explorer.confirm == 0
    assert read_config(pytester.parseconfigure()).device.matrix is True


def test_every_default_is_a_value_its_setting_takes() -> None:
    for setting in SETTINGS:
        if setting.default is None or setting.switch or setting.many or setting.default == "":
            continue
        assert setting.parse(str(setting.default)) == setting.default, setting.ini


@given(st.integers(min_value=-5, max_value=5), st.integers(min_value=-1000, max_value=1000))
def test_a_whole_number_takes_what_is_at_least_its_bound(least: int, value: int) -> None:
    parse = whole(least)
    if value >= least:
        assert parse(f" {value} ") == value
    else:
        with pytest.raises(Refused):
            parse(str(value))


@pytest.mark.parametrize("raw", ["ten", "1.5", "", "0x10"])
def test_a_whole_number_is_written_as_one(raw: str) -> None:
    with pytest.raises(Refused, match="a whole number, at least 1"):
        whole(1)(raw)


@pytest.mark.parametrize(
    ("raw", "zero_ok", "taken"),
    [("0", True, 0.0), ("0", False, None), ("2.5", False, 2.5), ("-1", True, None), ("nan", True, None),
     ("soon", True, None)],
)  # fmt: skip
def test_seconds(raw: str, zero_ok: bool, taken: float | None) -> None:
    parse = seconds(above_zero=not zero_ok)
    if taken is None:
        with pytest.raises(Refused):
            parse(raw)
    else:
        assert parse(raw) == taken


def test_serials_and_adb_servers() -> None:
    assert serial("emulator-5554") == "emulator-5554"
    for bad in ("", " ", "emulator 5554"):
        with pytest.raises(Refused):
            serial(bad)
    for typo, meant in (("virtaul", "virtual"), ("Virtual", "virtual"), ("vitrual:apps/shop.yaml", "virtual:apps/shop.yaml")):
        with pytest.raises(Refused, match=f"did you mean {meant}"):
            serial(typo)
    assert serial("virtual:apps/shop.yaml") == "virtual:apps/shop.yaml" and serial("R58M123ABC") == "R58M123ABC"
    assert adb_server("farm:5037") == "farm:5037"
    for bad in ("farm", ":5037", "farm:0", "farm:65536", "farm:port"):
        with pytest.raises(Refused):
            adb_server(bad)


def test_the_state_identifier_limits_reach_the_explorer(pytester: pytest.Pytester) -> None:
    pytester.makeini(
        "[pytest]\nfairy_state_long_text_chars = 80\nfairy_state_list_rows_kept = 5\n"
        "fairy_state_repeated_min = 4\nfairy_family_limit = 2\n"
    )
    explorer = read_config(pytester.parseconfigure()).explorer
    identifier = explorer.identifier
    assert (identifier.long_text_chars, identifier.list_rows_kept, identifier.repeated_min) == (80, 5, 4)
    assert explorer.family_limit == 2
    pytester.makeini("[pytest]\nfairy_state_repeated_min = 1\n")
    with pytest.raises(pytest.UsageError, match="ini key fairy_state_repeated_min: expected a whole number, "
                       "at least 2, got '1'"):  # fmt: skip
        read_config(pytester.parseconfigure())
