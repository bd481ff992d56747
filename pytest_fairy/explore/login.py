"""Signing in before an item: the spec's `login:`, reached once per device and kept for the items after.

The explorer signs in when an item's first screen does not show the login's `done_when` (the login
wall, a signed-out app), by a short exploration of its own: the login's `steps` in order (a scripted
brain) or its `goal` (the run's brain), with the secrets typed by placeholder. Signed in, it keeps the
app's data where the device can (the virtual device: `AppSnapshots`), so the next item's reset goes back
to the signed-in app instead of the login wall; a phone that keeps its data stays signed in by itself.
A login that does not reach its `done_when` is no app defect: the item is inconclusive (`LoginFailed`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from pytest_fairy.devices.protocol import AppSnapshots, Device, clear_app_data
from pytest_fairy.errors import FairyError
from pytest_fairy.explore.decisions import Brain
from pytest_fairy.explore.mission import Mission
from pytest_fairy.explore.oracles import Observation, done
from pytest_fairy.explore.target import Target
from pytest_fairy.perception.screen import Screen
from pytest_fairy.spec.secrets import NO_SECRETS, Secrets

LOGIN_FEATURE = "login"


class LoginFailed(FairyError):
    """The spec's login did not sign in: the item cannot start where it should (inconclusive)."""


@dataclass
class Login:
    """One spec's login, shared by its items (the plugin keeps one per spec for the whole session)."""

    target: Target  # the app's, feature "login": its goal, or the steps in words
    mission: Mission  # done_when: signed in
    brain: Callable[[], Brain]  # a fresh one per sign-in: the scripted steps, or the run's brain
    secrets: Secrets = NO_SECRETS
    # The signed-in app data, by device serial, where the device can keep it.
    _kept: dict[str, object] = field(default_factory=dict)
    signed_in_count: int = 0  # sign-ins made, all devices together (a test's and a reader's figure)

    def holds(self, screen: Screen) -> bool:
        """Whether `screen` shows the app signed in (the login's done_when)."""
        return done(self.mission.done_when, Observation(screen)).holds

    def reset(self, device: Device, package: str) -> None:
        """Reset the app's data for an item: to the signed-in data where it was kept, else cleared."""
        kept = self._kept.get(device.serial)
        if kept is not None and isinstance(device, AppSnapshots):
            device.restore_app_data(package, kept)
        else:
            clear_app_data(device, package)

    def signed_in(self, device: Device) -> None:
        """The login reached its done_when on `device`: keep the app's data there if the device can."""
        self.signed_in_count += 1
        if isinstance(device, AppSnapshots):
            self._kept[device.serial] = device.save_app_data(self.target.package)
