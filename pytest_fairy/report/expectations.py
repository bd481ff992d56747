"""What an exported reproduction checks at its end: the defect, as a condition the app should meet.

A crash seen becomes "the app does not crash", a must-not condition seen becomes its opposite, and a
feature that never got done becomes the opposite of its evidence step's contradiction (`explore.evidence`):
the button that changed nothing changes the screen, the error it showed is not shown, the screen another
element names is not opened; a done-when not kept over time holds once the walk has left and come back.
So the test fails on the broken app and passes on the fixed one, whatever else the feature needs after
that step. What the exports cannot express (a judge's finding, a project's
own oracle, a state of the feature tree) is `Expectations.missing`, and a file that would need it is not
written: the files never claim to check what they do not.
"""

from __future__ import annotations

from dataclasses import dataclass

from pytest_fairy.errors import FairyError
from pytest_fairy.explore.evidence import Against, Contradiction
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
        OracleKind.CHECKED,
        OracleKind.TEXT_MATCHES,
        OracleKind.LOGCAT_MATCHES,
    }
)


class Unwritable(FairyError):
    """A reproduction an export cannot write: a move on a view nothing names, a check it cannot express.
    Caught where the exports are made: the reproduction's text says why the file is not there."""


@dataclass(frozen=True, slots=True)
class Expectation:
    """`oracle` should hold (`holds`) or should not (a must-not condition, a crash) once the way is done;
    without an oracle, the way's last step should change the screen. `about`: what the check stands for,
    when it is a step's contradiction turned round."""

    oracle: Oracle | None
    holds: bool
    about: str = ""

    def __str__(self) -> str:
        if self.about:
            return self.about
        return f"{self.oracle}" if self.holds else f"no {self.oracle}"

    @property
    def on_screen(self) -> bool:
        """A text on the screen: what a flow that sees only the screen (Maestro) can check."""
        on_screen = (OracleKind.VISIBLE, OracleKind.NOT_VISIBLE, OracleKind.CHECKED)
        return self.oracle is not None and self.oracle.kind in on_screen


@dataclass(frozen=True, slots=True)
class Expectations:
    checks: tuple[Expectation, ...]
    missing: tuple[str, ...]  # what the run saw that the exports cannot check, in words


def expectations(reproduction: Reproduction) -> Expectations:
    """What the exports check: for a defect the oracles saw, that it does not happen (the must-not
    conditions of its kind, a crash, an ANR); for a done-when never held, that the evidence step does not
    contradict the feature again (`contradicted`). A judge's finding is not checkable: the judge was asked
    because the done-when conditions held on that very screen, so checking them would pass while the
    defect is there."""
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
    elif reproduction.proof is Proof.NOT_KEPT:  # set, left and come back to: the done-when holds again
        wanted = [Expectation(o, holds=True) for o in reproduction.done_when]
    else:
        if reproduction.against is None:
            return Expectations((), (f"{finding.message} (no step's outcome to check)",))
        wanted = [contradicted(reproduction.against)]
    checks = tuple(e for e in wanted if e.oracle is None or e.oracle.kind in CHECKABLE)
    missing = tuple(str(e) for e in wanted if e not in checks)
    return Expectations(checks, missing)


def contradicted(against: Against) -> Expectation:
    """The check that fails while the step contradicts its feature as `against` says, and passes once it
    does not: the screen changes; the error is not shown; the other element's screen is not opened; the
    setting stays as it was set; what was kept is listed."""
    if against.kind is Contradiction.NOTHING:
        return Expectation(None, holds=True, about=str(against))
    if against.kind is Contradiction.LOST:
        checked = Oracle(kind=OracleKind.CHECKED, value=against.label)
        return Expectation(checked, holds=against.shown == "on", about=str(against))
    if against.kind is Contradiction.FORGOTTEN and against.missing:
        listed = Oracle(kind=OracleKind.VISIBLE, value=against.missing)
        return Expectation(listed, holds=True, about=str(against))
    return Expectation(Oracle(kind=OracleKind.VISIBLE, value=against.shown), holds=False, about=str(against))


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
    return checks if all(e.on_screen for e in checks) else ()
