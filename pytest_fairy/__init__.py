"""pytest_fairy: LLM-driven GUI test exploration of Android apps, as a pytest plugin.

This module is the public face: import what you use from here, not from the packages inside, which may
move::

    from fairy_virtual import VirtualDevice
    from pytest_fairy import Explorer, OfflineBrain, Target

    device = VirtualDevice("example_suites/notes", latency=False)
    result = Explorer(device, OfflineBrain()).explore(
        Target(app_name="随手记", package="com.example.notes", feature="login", goal="log in")
    )
    print(result.verdict, result.reason)

Each name is imported on first use, so `import pytest_fairy` stays cheap, a module of the package that
imports `pytest_fairy.errors` does not drag the rest in, and offline runs never import the Anthropic SDK.

- Exploring: `Explorer`, `ExplorerSettings`, `Target`, `Mission`, `RiskPolicy`, and the result,
  `Exploration` (its `StepRecord` steps, its `Verdict`).
- Devices: the `Device` and `Diagnostics` protocols and `Key` (the virtual device that simulates one is
  the `fairy_virtual` package beside this one).
- What the brains see and do: `Screen`, `Mark`, `Action`, `ActionKind`, `Direction`.
- Brains: the `Brain` protocol and its messages (`StepContext`, `Decision`, `Plan`, `Judgement`), and the
  shipped ones: `ScriptedBrain`, `OfflineBrain`, `ClaudeBrain` with its `ClaudeSettings`.
- Hooks: `Observation` and `Finding` for `pytest_fairy_check`, `Attachment` for
  `pytest_fairy_step_attachments`.
- Specs: `load_spec`, `Spec`, `Oracle`, `OracleKind`.
- Errors: `FairyError` and its kinds `UsageError`, `DeviceError`, `BrainError`, `PerceptionError`,
  `HookError`; warnings derive from `FairyWarning`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# Public name -> the module it lives in. The TYPE_CHECKING imports below say the same for mypy and IDEs
# (tests/core/test_public_api.py keeps the two, and __all__, equal).
_HOMES: dict[str, str] = {
    # exploring
    "Explorer": "pytest_fairy.explore.explorer",
    "ExplorerSettings": "pytest_fairy.explore.explorer",
    "Target": "pytest_fairy.explore.target",
    "Mission": "pytest_fairy.explore.mission",
    "RiskPolicy": "pytest_fairy.explore.policy",
    "Exploration": "pytest_fairy.explore.record",
    "StepRecord": "pytest_fairy.explore.record",
    "Verdict": "pytest_fairy.explore.verdict",
    # devices
    "Device": "pytest_fairy.devices.protocol",
    "Diagnostics": "pytest_fairy.devices.protocol",
    "Key": "pytest_fairy.devices.protocol",
    # what the brains see and do
    "Screen": "pytest_fairy.perception.screen",
    "Mark": "pytest_fairy.perception.marks",
    "Action": "pytest_fairy.explore.action",
    "ActionKind": "pytest_fairy.explore.action",
    "Direction": "pytest_fairy.explore.action",
    # brains
    "Brain": "pytest_fairy.explore.decisions",
    "StepContext": "pytest_fairy.explore.decisions",
    "Decision": "pytest_fairy.explore.decisions",
    "Plan": "pytest_fairy.explore.decisions",
    "Judgement": "pytest_fairy.explore.decisions",
    "ScriptedBrain": "pytest_fairy.brain.scripted",
    "OfflineBrain": "pytest_fairy.brain.offline",
    "ClaudeBrain": "pytest_fairy.brain.claude",
    "ClaudeSettings": "pytest_fairy.brain.claude_settings",
    # hooks
    "Observation": "pytest_fairy.explore.oracles",
    "Finding": "pytest_fairy.explore.oracles",
    "Attachment": "pytest_fairy.report.allure",
    # specs
    "load_spec": "pytest_fairy.spec.loader",
    "Spec": "pytest_fairy.spec.model",
    "Oracle": "pytest_fairy.spec.model",
    "OracleKind": "pytest_fairy.spec.model",
    # errors
    "FairyError": "pytest_fairy.errors",
    "UsageError": "pytest_fairy.errors",
    "DeviceError": "pytest_fairy.errors",
    "BrainError": "pytest_fairy.errors",
    "PerceptionError": "pytest_fairy.errors",
    "HookError": "pytest_fairy.errors",
    "FairyWarning": "pytest_fairy.errors",
}

# Literal, for the linters; tests/core/test_public_api.py keeps it equal to the table's names.
__all__ = [
    "__version__",
    "Explorer",
    "ExplorerSettings",
    "Target",
    "Mission",
    "RiskPolicy",
    "Exploration",
    "StepRecord",
    "Verdict",
    "Device",
    "Diagnostics",
    "Key",
    "Screen",
    "Mark",
    "Action",
    "ActionKind",
    "Direction",
    "Brain",
    "StepContext",
    "Decision",
    "Plan",
    "Judgement",
    "ScriptedBrain",
    "OfflineBrain",
    "ClaudeBrain",
    "ClaudeSettings",
    "Observation",
    "Finding",
    "Attachment",
    "load_spec",
    "Spec",
    "Oracle",
    "OracleKind",
    "FairyError",
    "UsageError",
    "DeviceError",
    "BrainError",
    "PerceptionError",
    "HookError",
    "FairyWarning",
]

if TYPE_CHECKING:
    from pytest_fairy.brain.claude import ClaudeBrain
    from pytest_fairy.brain.claude_settings import ClaudeSettings
    from pytest_fairy.brain.offline import OfflineBrain
    from pytest_fairy.brain.scripted import ScriptedBrain
    from pytest_fairy.devices.protocol import Device, Diagnostics, Key
    from pytest_fairy.errors import (
        BrainError,
        DeviceError,
        FairyError,
        FairyWarning,
        HookError,
        PerceptionError,
        UsageError,
    )
    from pytest_fairy.explore.action import Action, ActionKind, Direction
    from pytest_fairy.explore.decisions import Brain, Decision, Judgement, Plan, StepContext
    from pytest_fairy.explore.explorer import Explorer, ExplorerSettings
    from pytest_fairy.explore.mission import Mission
    from pytest_fairy.explore.oracles import Finding, Observation
    from pytest_fairy.explore.policy import RiskPolicy
    from pytest_fairy.explore.record import Exploration, StepRecord
    from pytest_fairy.explore.target import Target
    from pytest_fairy.explore.verdict import Verdict
    from pytest_fairy.perception.marks import Mark
    from pytest_fairy.perception.screen import Screen
    from pytest_fairy.report.allure import Attachment
    from pytest_fairy.spec.loader import load_spec
    from pytest_fairy.spec.model import Oracle, OracleKind, Spec


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'pytest_fairy' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # the next lookup does not come here
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
