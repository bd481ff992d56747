"""Text quoted and cut to fit (pytest_fairy/text.py): never longer than its limit, marked when cut, whole
when it fits."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pytest_fairy.text import ELLIPSIS, cut, one_line

MARK = "\n[... cut]"


@given(st.text(), st.integers(min_value=1, max_value=80))
def test_one_line_fits_on_one_line_and_says_when_it_was_cut(text: str, limit: int) -> None:
    quoted = one_line(text, limit)
    folded = " ".join(text.split())
    assert len(quoted) <= limit and "\n" not in quoted
    assert quoted == folded if len(folded) <= limit else quoted.endswith(ELLIPSIS)


@given(st.text(), st.integers(min_value=len(MARK), max_value=200))
def test_cut_keeps_lines_fits_its_limit_and_ends_in_its_mark_when_cut(text: str, limit: int) -> None:
    kept = cut(text, limit, MARK)
    assert len(kept) <= limit
    if len(text.strip()) <= limit:
        assert kept == text.strip()
    else:
        assert kept.endswith(MARK) and text.strip().startswith(kept[: -len(MARK)])
