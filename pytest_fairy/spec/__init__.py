"""The spec: what to test. YAML feature specs loaded into typed, validated objects.

Owns: the spec format (`app`, `defaults`, `features`, oracles, budgets), its errors with file:line, and the
vocabulary of risky-action categories a spec may `allow` or `forbid`.
May import: `pytest_fairy.errors` only. Everything else reads specs; specs read nothing of theirs.
"""

from pytest_fairy.spec.loader import load_spec
from pytest_fairy.spec.model import (
    App,
    Feature,
    Oracle,
    OracleKind,
    Spec,
    SpecBudget,
    SpecError,
)

__all__ = ["App", "SpecBudget", "Feature", "Oracle", "OracleKind", "Spec", "SpecError", "load_spec"]
