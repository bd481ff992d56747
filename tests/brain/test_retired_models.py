"""Every model the model-deprecations page names as retired is refused by `--fairy-model` before any API
call, with the day it was retired; the models still served are not. The page's tables are kept in
tests/brain/data/model_deprecations.md, its first line naming where and when they were read."""

from __future__ import annotations

import re
from datetime import date, datetime
from pathlib import Path

import pytest

from pytest_fairy.brain.models import MODELS, RETIRED, retired

FIXTURE = Path(__file__).parent / "data" / "model_deprecations.md"
# Aliases the page does not list but the SDK's deprecation table does: refused as their model is.
ALIASES = {"claude-opus-4-0": "claude-opus-4", "claude-sonnet-4-0": "claude-sonnet-4"}
_SNAPSHOT = re.compile(r"-\d{8}$")
_STATES = {"Active", "Deprecated", "Retired", "Legacy"}


def _day(text: str) -> date | None:
    """An exact date of the page ("August 5, 2026"); None for "Not sooner than ...", "To be announced"."""
    try:
        return datetime.strptime(text.strip(), "%B %d, %Y").date()
    except ValueError:
        return None


def _read_day() -> date:
    first = FIXTURE.read_text(encoding="utf-8").splitlines()[0]
    found = re.search(r"read (\d{4}-\d{2}-\d{2})", first)
    assert found is not None and "platform.claude.com" in first, first
    return date.fromisoformat(found.group(1))


def page_rows() -> dict[str, date | None]:
    """Model id -> its retirement day, from the status table ("API model name | Current state | Deprecated
    | Tentative retirement date") and the history tables ("Retirement date | Deprecated model | ...")."""
    rows: dict[str, date | None] = {}
    for line in FIXTURE.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip().strip("`") for cell in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) < 3:
            continue
        if cells[1] in _STATES:
            model, day = cells[0], _day(cells[3])
        elif (history_day := _day(cells[0])) is not None:
            model, day = cells[1], history_day
        else:
            continue  # a header or separator row
        assert rows.get(model, day) == day, f"the page gives {model} two retirement days"
        rows[model] = day if day is not None else rows.get(model)
    return rows


ROWS = page_rows()
# Never earlier than the day the page was read: a slow clock must not make a retired model current.
TODAY = max(date.today(), _read_day())
GONE = sorted(model for model, day in ROWS.items() if day is not None and day <= TODAY)
SERVED = sorted(model for model, day in ROWS.items() if day is None or day > TODAY)


def test_the_fixture_holds_the_pages_tables() -> None:
    assert len(GONE) >= 19 and len(SERVED) >= 15, (GONE, SERVED)
    assert ROWS["claude-3-5-sonnet-20241022"] == date(2025, 10, 28)
    assert ROWS["claude-instant-1.2"] == date(2024, 11, 6)
    assert ROWS["claude-opus-5-5"] is None


@pytest.mark.parametrize("model", GONE)
def test_a_retired_model_is_refused_with_the_day_it_was_retired(model: str) -> None:
    day = ROWS[model]
    assert day is not None
    base = _SNAPSHOT.sub("", model)
    assert RETIRED.get(model, RETIRED.get(base)) == day.isoformat(), f"{model} is missing from RETIRED"
    for given in {model, base}:
        why = retired(given)
        assert why is not None and why.startswith(f"{given} was retired on {day.isoformat()}:"), why
    assert base not in MODELS, f"{base} is retired but still offered in the model table"


@pytest.mark.parametrize("model", SERVED)
def test_a_model_still_served_is_not_refused(model: str) -> None:
    assert retired(model) is None and retired(_SNAPSHOT.sub("", model)) is None


def test_retired_holds_only_what_the_page_says() -> None:
    page_days = {_SNAPSHOT.sub("", model): day.isoformat() for model, day in ROWS.items() if day is not None}
    for model, day in RETIRED.items():
        assert page_days.get(ALIASES.get(model, model)) == day, (
            f"RETIRED[{model!r}] = {day} is not the page's"
        )
