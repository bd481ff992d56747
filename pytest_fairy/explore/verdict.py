"""The three verdicts of an exploration, and the rules that change one after the loop has ended.

The exceptions that carry a verdict into pytest (`AppDefect`, `Inconclusive`) are pytest outcomes: they
live in :mod:`pytest_fairy.plugin.outcomes`.
"""

from __future__ import annotations

from dataclasses import Field, replace
from enum import StrEnum
from typing import Any, ClassVar, Protocol, TypeVar


class Verdict(StrEnum):
    PASSED = "passed"
    FAILED = "failed"
    INCONCLUSIVE = "inconclusive"


class Judged(Protocol):
    """A result that carries a verdict and a reason: an `Exploration`. (Named by shape: the record module
    imports `Verdict` from here.)"""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    @property
    def verdict(self) -> Verdict: ...

    @property
    def reason(self) -> str: ...


JudgedT = TypeVar("JudgedT", bound=Judged)


def distrust_if_shared(result: JudgedT, lease_lost: str) -> JudgedT:
    """A pass seen while the device's lease was lost (another host may have tapped the same phone)
    proves nothing: inconclusive. A defect found stays a failure: its evidence is the app's own.

    `lease_lost` says why the lease stopped being this run's ("" if it did not)."""
    if not lease_lost or result.verdict is not Verdict.PASSED:
        return result
    reason = f"the device's lease was lost during the run ({lease_lost}); another host may have driven it"
    return replace(result, verdict=Verdict.INCONCLUSIVE, reason=reason)
