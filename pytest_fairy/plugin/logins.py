"""The specs' logins of a session: one `Login` per spec, so each signs in once per device and the items
after it start signed in (`explore/login.py`), and the values of the secrets each spec names. Held by
the session-scoped `fairy_logins` fixture."""

from __future__ import annotations

from collections.abc import Sequence

from pytest_fairy.explore.briefing import login_of
from pytest_fairy.explore.decisions import Brain
from pytest_fairy.explore.login import Login
from pytest_fairy.plugin.brains import login_brain
from pytest_fairy.plugin.options import FairyConfig
from pytest_fairy.spec.model import Spec
from pytest_fairy.spec.secrets import Secrets


class Logins:
    def __init__(self, config: FairyConfig) -> None:
        self.config = config
        self._by_spec: dict[str, tuple[Login | None, Secrets]] = {}

    def of(self, spec: Spec) -> Login | None:
        """`spec`'s login (None without one), the same object for every item of the spec."""
        return self._of(spec)[0]

    def secrets_of(self, spec: Spec) -> Secrets:
        """The values of the secrets `spec` names, from the environment."""
        return self._of(spec)[1]

    def _of(self, spec: Spec) -> tuple[Login | None, Secrets]:
        key = str(spec.path)
        if key not in self._by_spec:
            secrets = Secrets.from_env(spec.secrets, str(spec.path))
            self._by_spec[key] = (login_of(spec, secrets, self._brain), secrets)
        return self._by_spec[key]

    def _brain(self, steps: Sequence[str]) -> Brain:
        return login_brain(self.config, steps)
