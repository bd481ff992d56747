"""Perception on real phones' screens: 69 public dumps of 57 real apps (tests/perception/real_screens),
held against what a person sees on each. benchmarks/bench_real_screens.py prints the figures."""

from __future__ import annotations

import pytest

from tests.perception.real_screens.corpus import DUMPS, MODAL_SURFACES, expected, measure, names

CORPUS_RECALL = 0.95  # of all actionable elements over the corpus
DUMP_RECALL = 0.50  # on every single dump


def test_the_corpus_is_what_sources_md_lists() -> None:
    sources = (DUMPS.parent / "SOURCES.md").read_text(encoding="utf-8")
    files = sorted(p.name for p in DUMPS.glob("*.xml"))
    assert files == names(), "every dump has its expected entry and no entry lacks its dump"
    assert all(f"| {name} |" in sources for name in files), "every dump names its source"
    assert len(files) >= 40 and len({name.split("__")[0] for name in files}) >= 25


@pytest.mark.parametrize("name", names())
def test_a_person_finds_most_of_what_they_would_tap_marked(name: str) -> None:
    measured = measure(name)
    assert measured.recall >= DUMP_RECALL, (
        f"{name}: {measured.found} of {measured.expected} actionable elements marked"
    )


def test_over_the_corpus_marks_cover_what_a_person_can_act_on() -> None:
    measured = [measure(name) for name in names()]
    found, wanted = sum(m.found for m in measured), sum(m.expected for m in measured)
    assert found / wanted >= CORPUS_RECALL, f"recall {found}/{wanted}"


@pytest.mark.parametrize("name", [n for n in names() if expected()[n]["modal"] in MODAL_SURFACES])
def test_real_dialogs_sheets_and_shades_are_modal(name: str) -> None:
    measured = measure(name)
    assert measured.modal_ok, f"{name}: a {measured.modal} is in front, perception says has_dialog=False"


def test_nothing_else_is_taken_for_a_dialog() -> None:
    """Empty gesture windows, transparent overlays, floating balls, comment bars: no modal."""
    wrong = [m.name for m in map(measure, names()) if m.modal == "none" and m.has_dialog]
    assert wrong == []


def test_a_label_the_dump_never_measured_still_names_its_mark() -> None:
    """WeChat draws its tab labels in views it reports as `[0,0][0,0]`: the tabs are still named."""
    from tests.perception.real_screens.corpus import screen_of

    labels = [m.label for m in screen_of("wechat__contacts_tab.xml").marks]
    assert labels[-4:] == ["微信", "通讯录", "发现", "我"]
