"""Perception on real phones' screens: 138 public dumps of 113 real apps (tests/perception/real_screens),
held against what a person sees on each. benchmarks/bench_real_screens.py prints the figures.

The thresholds hold the product's current level, a little rounded down, so that a regression fails; the
targets are the benchmark's. The held-out split (heldout.txt) has thresholds of its own and is never used to
tune perception rules."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.perception.real_screens.corpus import (
    DUMPS,
    MODAL_SURFACES,
    Summary,
    expected,
    heldout_names,
    measure,
    names,
    summarise,
    tuned_names,
)

CORPUS_RECALL = 0.99  # of all actionable elements over the corpus
CORPUS_PRECISION = 0.92  # of all marks, the ones covering an element a person acts on
DUMP_RECALL = 0.80  # on every single dump
HELD_OUT_RECALL = 0.99
HELD_OUT_PRECISION = 0.92
MODAL_RECOGNISED = {"tuned": 16, "held-out": 3}  # modal surfaces dumped with what is behind them


def _summary(listed: list[str]) -> Summary:
    return summarise([measure(name) for name in listed])


def test_the_corpus_is_what_sources_md_lists() -> None:
    sources = (DUMPS.parent / "SOURCES.md").read_text(encoding="utf-8")
    files = sorted(p.name for p in DUMPS.glob("*.xml"))
    assert files == names(), "every dump has its expected entry and no entry lacks its dump"
    assert all(f"| {name} |" in sources for name in files), "every dump names its source"
    assert len(files) >= 120 and len({name.split("__")[0] for name in files}) >= 100


def test_the_held_out_split_is_a_part_of_the_corpus() -> None:
    held = heldout_names()
    assert len(held) == len(set(held)) >= 20
    assert set(held) < set(names())
    assert sorted(held + tuned_names()) == names()


@pytest.mark.parametrize("name", names())
def test_a_person_finds_most_of_what_they_would_tap_marked(name: str) -> None:
    measured = measure(name)
    assert measured.recall >= DUMP_RECALL, (
        f"{name}: {measured.found} of {measured.expected} actionable elements marked"
    )


def test_over_the_corpus_marks_cover_what_a_person_can_act_on() -> None:
    summary = _summary(names())
    assert summary.recall >= CORPUS_RECALL, f"recall {summary.found}/{summary.expected}"


def test_over_the_corpus_few_marks_are_on_nothing_a_person_acts_on() -> None:
    summary = _summary(names())
    assert summary.precision >= CORPUS_PRECISION, f"precision {summary.marks_on_expected}/{summary.marks}"


def test_on_the_held_out_split_recall_and_precision_hold() -> None:
    summary = _summary(heldout_names())
    assert summary.recall >= HELD_OUT_RECALL, f"held-out recall {summary.found}/{summary.expected}"
    assert summary.precision >= HELD_OUT_PRECISION, (
        f"held-out precision {summary.marks_on_expected}/{summary.marks}"
    )


@pytest.mark.parametrize(
    "name",
    [n for n in names() if expected()[n]["modal"] in MODAL_SURFACES and measure(n).window_only],
)
def test_a_dialog_dumped_alone_is_taken_for_a_dialog(name: str) -> None:
    measured = measure(name)
    assert measured.has_dialog, (
        f"{name}: the {measured.modal}'s window alone, perception says has_dialog=False"
    )


@pytest.mark.parametrize(("split", "listed"), [("tuned", tuned_names), ("held-out", heldout_names)])
def test_real_dialogs_sheets_and_shades_are_modal(split: str, listed: Callable[[], list[str]]) -> None:
    summary = _summary(listed())
    assert summary.modal_recognised >= MODAL_RECOGNISED[split], (
        f"{split}: {summary.modal_recognised} of {summary.modal} modal surfaces recognised"
    )


def test_nothing_else_is_taken_for_a_dialog() -> None:
    """Empty gesture windows, transparent overlays, floating balls, comment bars, drawers: no modal."""
    assert _summary(names()).false_modal == ()


def test_a_label_the_dump_never_measured_still_names_its_mark() -> None:
    """WeChat draws its tab labels in views it reports as `[0,0][0,0]`: the tabs are still named."""
    from tests.perception.real_screens.corpus import screen_of

    labels = [m.label for m in screen_of("wechat__contacts_tab.xml").marks]
    assert labels[-4:] == ["微信", "通讯录", "发现", "我"]
