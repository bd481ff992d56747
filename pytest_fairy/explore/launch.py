"""How an item starts, and how a replay starts again: the app as the item found it.

Its data reset when the item's is (`resets_data`; to the signed-in data where a login kept it), stopped,
its log cleared, launched, looked at; and signed in by the spec's login when the first screen does not
show the app signed in. The one place that knows, so a defect's replay (`confirm.py`) starts where the
exploration did.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pytest_fairy.devices.protocol import Device, Diagnostics, TestBed, clear_app_data
from pytest_fairy.explore.login import Login, LoginFailed
from pytest_fairy.explore.record import Exploration
from pytest_fairy.explore.target import Target
from pytest_fairy.explore.verdict import Verdict
from pytest_fairy.perception.perceive import Perception


@dataclass(frozen=True)
class Launcher:
    device: Device
    diagnostics: Diagnostics
    perceive: Callable[[], Perception]
    login: Login | None = None
    # Explores the login's target with its brain (an explorer of its own): how a sign-in is made.
    sign_in: Callable[[Login], Exploration] | None = None

    def launch(self, target: Target) -> Perception:
        """Start the app for `target` as an item starts; its first screen, signed in where a login says."""
        device, login = self.device, self.login
        if resets_data(target, device):  # the item starts from a fresh app, in any order
            if login is not None:
                login.reset(device, target.package)
            else:
                clear_app_data(device, target.package)
        device.stop(target.package)
        self.diagnostics.clear_logcat()
        device.launch(target.package, target.launch_activity)
        seen = self.perceive()
        if login is None or login.holds(seen.screen):
            return seen
        return self._signed_in(login)

    def _signed_in(self, login: Login) -> Perception:
        assert self.sign_in is not None, "a launcher with a login needs a way to sign in"
        result = self.sign_in(login)
        if result.verdict is not Verdict.PASSED:
            raise LoginFailed(f"the spec's login did not sign in ({result.steps} steps): {result.reason}")
        login.signed_in(self.device)
        return self.perceive()


def resets_data(target: Target, device: Device) -> bool:
    """Whether the app's data is cleared before the item: as the spec says, else on a test bed (the virtual
    device, where order-independence costs nothing) and not on a phone (where a login may be wanted)."""
    if target.reset is not None:
        return target.reset == "data"
    return isinstance(device, TestBed) and device.is_test_bed()
