"""What an exported reproduction checks at its end: the defect, as a condition the app should meet.

A crash seen becomes "the app does not crash", a must-not condition seen becomes its opposite, and a
feature that never got done (or that the judge found broken on a screen) becomes its done-when
conditions. A check the exports cannot express (a project's own oracle, a state of the feature tree) is
left out, and `Expectations.missing` says which, so the files never claim to check what they do not.
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
    conditions of its kind, a crash, an ANR); for a done-when never held or a judge's finding, that the
    done-when conditions hold."""
    finding = reproduction.finding
    if reproduction.proof is Proof.ORACLES:
        oracles = [o for o in reproduction.must_not if o.kind.value == finding.kind]
        if not oracles and finding.kind in (OracleKind.CRASH, OracleKind.ANR):
            oracles = [Oracle(kind=OracleKind(finding.kind))]
        wanted = [Expectation(o, holds=False) for o in oracles]
        if not wanted:
            return Expectations((), (f"{finding.kind}: {finding.message}",))
    else:
        wanted = [Expectation(o, holds=True) for o in reproduction.done_when]
    checks = tuple(e for e in wanted if e.oracle.kind in CHECKABLE)
    missing = tuple(str(e) for e in wanted if e.oracle.kind not in CHECKABLE)
    if not wanted:
        missing = (f"{finding.kind}: {finding.message} (the feature has no done-when to check)",)
    return Expectations(checks, missing)


def screen_checks(reproduction: Reproduction) -> tuple[Expectation, ...]:
    """What a flow that sees only the screen (Maestro) checks: the checks on texts, and for a crash or an
    ANR (which only the log shows) the done-when texts the app should have reached."""
    shown = {OracleKind.VISIBLE, OracleKind.NOT_VISIBLE}
    checks = [e for e in expectations(reproduction).checks if e.oracle.kind in shown]
    if reproduction.finding.kind in (OracleKind.CRASH, OracleKind.ANR):
        checks += [Expectation(o, holds=True) for o in reproduction.done_when if o.kind in shown]
    return tuple(checks)
