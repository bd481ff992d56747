"""The specs' logins of a session: one `Login` per spec, so each signs in once per device and the items
after it start signed in (`explore/login.py`), and the values of the secrets each spec names. Held by
the session-scoped `fairy_logins` fixture."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from pytest_fairy.explore.briefing import login_of
from pytest_fairy.explore.decisions import Brain
from pytest_fairy.explore.login import Login
from pytest_fairy.plugin.brains import login_brain
from pytest_fairy.plugin.options import FairyConfig
from pytest_fairy.plugin.session_budget import LOGIN_PREFIX, BudgetedBrain, SessionLedger
from pytest_fairy.spec.model import Spec
from pytest_fairy.spec.secrets import Secrets


class Logins:
    """`ledger`: the session's cost ledger (--fairy-max-cost): a login explored by an LLM brain spends from
    the session's budget like an item, and is not run once the budget is spent."""

    def __init__(self, config: FairyConfig, ledger: SessionLedger | None = None) -> None:
        self.config = config
        self.ledger = ledger
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
            brain = functools.partial(self._brain, spender=f"{LOGIN_PREFIX}{spec.path.name}")
            self._by_spec[key] = (login_of(spec, secrets, brain), secrets)
        return self._by_spec[key]

    def _brain(self, steps: Sequence[str], *, spender: str) -> Brain:
        brain = login_brain(self.config, steps)
        return brain if self.ledger is None else BudgetedBrain(brain, self.ledger, spender)
