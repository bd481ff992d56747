"""The one exception tree of pytest_fairy.

Every error pytest_fairy raises is a :class:`FairyError`; the kinds below are the ones the exploration loop
and the plugin treat differently. Errors of the outside world (adbutils, uiautomator2, anthropic, OS and
YAML errors) are translated into these at the seam where they occur, with ``raise ... from exc``, so no
caller ever needs to know a backend's exceptions::

    FairyError
    ├── UsageError          bad input: a spec, an app model, an option, a baseline, a recording
    ├── DeviceError         a device call failed or the device went away   -> the item is inconclusive
    ├── BrainError          the brain could not decide                      -> the item is inconclusive
    ├── PerceptionError     the screen could not be read                    -> the item is inconclusive
    ├── HookError           a project's hook raised or answered nonsense   -> the item is inconclusive
    └── ArtifactError       an artifact could not be written (disk full)   -> the item is inconclusive

The verdicts' own carriers (`AppDefect`, `Inconclusive` in :mod:`pytest_fairy.plugin.outcomes`) are pytest
outcomes, not errors, and stand outside this tree.
"""

from __future__ import annotations


class FairyError(Exception):
    """Root of every error pytest_fairy raises."""

    # How an exploration that ends on this error words its reason: "device error: <message>".
    ends_exploration_as = ""

    def as_reason(self) -> str:
        """This error as the reason of an inconclusive verdict."""
        return f"{self.ends_exploration_as}: {self}" if self.ends_exploration_as else str(self)


class UsageError(FairyError):
    """The user's input is wrong (a spec, an app model, an option, a baseline): the message says what and
    where, and the plugin shows it without a traceback."""


class DeviceError(FairyError):
    """A device operation failed. Carries the serial and what was being done."""

    ends_exploration_as = "device error"

    def __init__(self, serial: str, doing: str, reason: str) -> None:
        super().__init__(f"device {serial}: {doing}: {reason}")
        self.serial = serial
        self.doing = doing
        self.reason = reason

    def __reduce__(self) -> tuple[type, tuple[str, str, str]]:
        # Picklable with its three arguments, so xdist can carry it between processes.
        return type(self), (self.serial, self.doing, self.reason)


class BrainError(FairyError):
    """The brain could not decide (backend down, invalid answers): the item ends inconclusive."""

    ends_exploration_as = "brain unavailable"


class PerceptionError(FairyError):
    """A hierarchy dump or screenshot could not be read."""

    ends_exploration_as = "could not read the screen"


class HookError(FairyError):
    """A project's check or review (pytest_fairy's hooks) raised or answered nonsense: the item ends
    inconclusive with what was seen so far, never passed."""


class ArtifactError(FairyError):
    """A file under the artifacts folder could not be written (disk full, read-only, not a folder): the
    item ends inconclusive, never failed, and the other items still run."""

    ends_exploration_as = "artifacts"

    def __init__(self, path: object, reason: str) -> None:
        super().__init__(f"could not write {path}: {reason}")
        self.path = str(path)
        self.reason = reason

    def __reduce__(self) -> tuple[type, tuple[str, str]]:
        return type(self), (self.path, self.reason)


class FairyWarning(UserWarning):
    """Root of pytest_fairy's warnings: something worth a word that does not stop the run."""
