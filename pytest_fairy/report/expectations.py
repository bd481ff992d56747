"""What an exported reproduction checks at its end: the defect, as a condition the app should meet.

A crash seen becomes "the app does not crash", a must-not condition seen becomes its opposite, and a
feature that never got done becomes its done-when conditions. What the exports cannot express (a
judge's finding, a project's own oracle, a state of the feature tree) is `Expectations.missing`, and a
file that would need it is not written: the files never claim to check what they do not.
"""

from __future__ import annotations

from dataclasses import dataclass

from pytest_fairy.errors import FairyError
from pytest_fairy.explore.reproduction import Proof, Reproduction
from pytest_fairy.spec.model import Oracle, OracleKind

# The conditions an exported test can check with uiautomator2 and the device's log alone.
CHECKABLE = frozenset(
    {
        OracleKind.CRASH,
        OracleKind.ANR,
        OracleKind.VISIBLE,
        OracleKind.NOT_VISIBLE,
        OracleKind.ACTIVITY,
        OracleKind.TEXT_MATCHES,
        OracleKind.LOGCAT_MATCHES,
    }
)


class Unwritable(FairyError):
    """A reproduction an export cannot write: a move on a view nothing names, a check it cannot express.
    Caught where the exports are made: the reproduction's text says why the file is not there."""


@dataclass(frozen=True, slots=True)
class Expectation:
    """`oracle` should hold (`holds`) or should not (a must-not condition, a crash) once the way is done."""

    oracle: Oracle
    holds: bool

    def __str__(self) -> str:
        return f"{self.oracle}" if self.holds else f"no {self.oracle}"


@dataclass(frozen=True, slots=True)
class Expectations:
    checks: tuple[Expectation, ...]
    missing: tuple[str, ...]  # what the run saw that the exports cannot check, in words


def expectations(reproduction: Reproduction) -> Expectations:
    """What the exports check: for a defect the oracles saw, that it does not happen (the must-not
    conditions of its kind, a crash, an ANR); for a done-when never held, that the done-when conditions
    hold. A judge's finding is not checkable: the judge was asked because the done-when conditions held
    on that very screen, so checking them would pass while the defect is there."""
    finding = reproduction.finding
    if reproduction.proof is Proof.SCREEN:
        return Expectations((), (f"the judge's finding ({finding.message}) needs the judge, or a person",))
    if reproduction.proof is Proof.ORACLES:
        oracles = [o for o in reproduction.must_not if o.kind.value == finding.kind]
        if not oracles and finding.kind in (OracleKind.CRASH, OracleKind.ANR):
            oracles = [Oracle(kind=OracleKind(finding.kind))]
        wanted = [Expectation(o, holds=False) for o in oracles]
        if not wanted:
            return Expectations((), (f"{finding.kind}: {finding.message}",))
    else:
        wanted = [Expectation(o, holds=True) for o in reproduction.done_when]
        if not wanted:
            return Expectations((), (f"{finding.message} (the feature has no done-when to check)",))
    checks = tuple(e for e in wanted if e.oracle.kind in CHECKABLE)
    missing = tuple(str(e) for e in wanted if e.oracle.kind not in CHECKABLE)
    return Expectations(checks, missing)


def screen_checks(reproduction: Reproduction) -> tuple[Expectation, ...]:
    """What a flow that sees only the screen (Maestro) checks: the checks on texts; for a crash or an ANR,
    which only the log shows, the done-when texts the run never saw because of it. Empty when a check
    the defect needs is not a text on the screen."""
    shown = {OracleKind.VISIBLE, OracleKind.NOT_VISIBLE}
    found = expectations(reproduction)
    if found.missing:
        return ()
    if reproduction.finding.kind in (OracleKind.CRASH, OracleKind.ANR):
        return tuple(Expectation(o, holds=True) for o in reproduction.done_when if o.kind in shown)
    checks = found.checks
    return checks if all(e.oracle.kind in shown for e in checks) else ()
