"""The three verdicts of an exploration and the exceptions that carry them into pytest.

`AppDefect` subclasses AssertionError so pytest and Allure call the item *failed*; `Inconclusive` does
not, so Allure shows it *broken*. An inconclusive run is never reported as passed.
"""

from __future__ import annotations

from enum import StrEnum


class Verdict(StrEnum):
    PASSED = "passed"
    FAILED = "failed"
    INCONCLUSIVE = "inconclusive"


class AppDefect(AssertionError):
    """The app misbehaved: a crash, an ANR, an oracle that does not hold. Carries the evidence."""


class Inconclusive(Exception):
    """The explorer could not finish: budget spent, stuck after escapes, device lost, brain unavailable."""
