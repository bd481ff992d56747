"""An exploration's result, told to pytest: the item's stash, its JUnit property, the project's
`pytest_fairy_finished` hook, and the exception that carries the verdict.

`AppDefect` subclasses AssertionError so pytest and Allure call the item *failed*; `Inconclusive` does
not, so Allure shows it *broken*. An inconclusive run is never reported as passed. Neither is a
`FairyError`: they are outcomes, not errors.
"""

from __future__ import annotations

import pytest

from pytest_fairy.explore.record import Exploration
from pytest_fairy.explore.verdict import Verdict
from pytest_fairy.report.allure import where_shown

# The item's result, for the project's hooks and plugins: `item.stash[RESULT_KEY]`.
RESULT_KEY = pytest.StashKey[Exploration]()
# The user property (and JUnit XML property) with the verdict and figures of an item's exploration.
SUMMARY_PROPERTY = "fairy"


class AppDefect(AssertionError):
    """The app misbehaved: a crash, an ANR, an oracle that does not hold. Carries the evidence."""


class Inconclusive(Exception):
    """The explorer could not finish: budget spent, stuck after escapes, device lost, brain unavailable."""


def conclude(item: pytest.Item, result: Exploration) -> None:
    """Record `result` on `item`, tell the project's hooks, then pass, or raise the verdict."""
    item.stash[RESULT_KEY] = result
    # user_properties travel with the reports to the xdist controller and into JUnit XML.
    item.user_properties.append((SUMMARY_PROPERTY, f"{result.verdict.value}: {result.figures()}"))
    item.config.hook.pytest_fairy_finished(item=item, result=result)
    if result.verdict is Verdict.FAILED:
        evidence = "\n".join(f.evidence for f in result.findings if f.evidence)
        # Where first: the evidence below can be a long logcat excerpt.
        raise AppDefect(f"{result.reason}\n({where_shown(result)})" + (f"\n{evidence}" if evidence else ""))
    if result.verdict is Verdict.INCONCLUSIVE:
        raise Inconclusive(f"{result.reason} ({where_shown(result)})")
