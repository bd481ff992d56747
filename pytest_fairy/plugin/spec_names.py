"""A YAML file that reads as a feature spec but is not named as one is said, not skipped in silence.

Spec files are collected by name (ini `fairy_spec_patterns`: `test_*.yaml` and the like); a `todo.yaml`
with `app:` and `features:` at its top level is none, and a run of it collected nothing (exit code 5)
without a word. Such a file now gets a warning at collection that names the patterns.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Sequence
from pathlib import Path

from pytest_fairy.errors import FairyWarning

YAML_SUFFIXES = frozenset({".yaml", ".yml"})
# How much of a YAML file is read to tell whether it is a spec: its top-level keys come first.
PEEK_BYTES = 64 * 1024
_TOP_KEY = re.compile(r"^(app|features)\s*:", re.MULTILINE)


class SpecNotCollected(FairyWarning):
    """A file that reads as a feature spec is not collected: its name matches no spec pattern."""


def looks_like_spec(path: Path) -> bool:
    """A YAML file with `app:` and `features:` at its top level."""
    if path.suffix not in YAML_SUFFIXES:
        return False
    try:
        with path.open("rb") as handle:
            head = handle.read(PEEK_BYTES).decode("utf-8", errors="replace")
    except OSError:
        return False
    return {found.group(1) for found in _TOP_KEY.finditer(head)} == {"app", "features"}


def warn_if_spec(path: Path, patterns: Sequence[str]) -> None:
    """Say so when `path`, which matches none of `patterns`, reads as a spec."""
    if looks_like_spec(path):
        warnings.warn(
            SpecNotCollected(
                f"{path.name} has app: and features: but is not collected as a feature spec: spec files are "
                f"named {', '.join(patterns)} (ini fairy_spec_patterns); rename it, e.g. test_{path.name}"
            ),
            stacklevel=2,
        )
