"""The run's configuration, read once from the command line and ini keys into one typed object."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from pytest_fairy.explorer import ExplorerSettings

BRAINS = ("offline", "claude")
# Kept in step with pytest_fairy.brain.claude.DEFAULT_MODEL, which is not imported here: the anthropic
# SDK takes seconds to import and an offline run should not pay for it.
DEFAULT_CLAUDE_MODEL = "claude-sonnet-5"
DEFAULT_SPEC_PATTERNS = ("test_*.yaml", "test_*.yml", "*.fairy.yaml", "*.fairy.yml")
VIRTUAL = "virtual"


@dataclass(frozen=True)
class FairyConfig:
    devices: tuple[str, ...] = (VIRTUAL,)
    brain: str = "offline"
    brain_reason: str = "no ANTHROPIC_API_KEY set"
    model: str | None = None
    max_steps: int | None = None
    artifacts: Path = Path(".fairy")
    spec_patterns: tuple[str, ...] = DEFAULT_SPEC_PATTERNS
    explorer: ExplorerSettings = field(default_factory=ExplorerSettings)

    @property
    def virtual(self) -> bool:
        return all(d == VIRTUAL or d.startswith(VIRTUAL + ":") for d in self.devices)

    def device_line(self) -> str:
        return ", ".join("virtual (in-process)" if d == VIRTUAL else d for d in self.devices)


def add_options(parser: pytest.Parser) -> None:
    group = parser.getgroup("fairy", "pytest_fairy: LLM-driven GUI exploration")
    group.addoption(
        "--fairy-device",
        action="append",
        dest="fairy_device",
        metavar="SERIAL",
        help="device to explore on, repeatable: an adb serial (emulator-5554, 127.0.0.1:5555) or "
        "'virtual' / 'virtual:APP.yaml' for the built-in virtual device (default: virtual)",
    )
    group.addoption(
        "--fairy-brain",
        dest="fairy_brain",
        metavar="NAME",
        help=f"what decides the actions: {', '.join(BRAINS)} (default: offline)",
    )
    group.addoption(
        "--fairy-model", dest="fairy_model", metavar="MODEL", help="LLM model name for LLM brains"
    )
    group.addoption(
        "--fairy-max-steps",
        dest="fairy_max_steps",
        type=int,
        metavar="N",
        help="cap every feature at N exploration steps (overrides the specs' max_steps)",
    )
    group.addoption(
        "--fairy-artifacts",
        dest="fairy_artifacts",
        metavar="DIR",
        help="folder for the session store: steps, screenshots, trees (default: .fairy)",
    )
    parser.addini("fairy_device", "devices to explore on (see --fairy-device)", type="linelist", default=[])
    parser.addini("fairy_brain", "brain (see --fairy-brain)", default="")
    parser.addini("fairy_model", "LLM model name", default="")
    parser.addini("fairy_max_steps", "cap on exploration steps per feature", default="")
    parser.addini("fairy_artifacts", "artifacts folder (see --fairy-artifacts)", default="")
    parser.addini(
        "fairy_spec_patterns",
        "glob patterns of YAML feature specs to collect",
        type="linelist",
        default=list(DEFAULT_SPEC_PATTERNS),
    )
    parser.addini("fairy_llm_long_edge", "long edge in pixels of the screenshot an LLM sees", default="1024")


def read_config(config: pytest.Config) -> FairyConfig:
    """Options win over ini keys; a bad value is a usage error that names the option."""
    option = config.option
    devices = tuple(option.fairy_device or config.getini("fairy_device") or (VIRTUAL,))
    brain, reason = _brain(option.fairy_brain or config.getini("fairy_brain") or "")
    for device in devices:
        if not (device == VIRTUAL or device.startswith(VIRTUAL + ":")):
            raise pytest.UsageError(
                f"--fairy-device {device}: real devices need the uiautomator2 driver, which is not in this "
                "version; use 'virtual' or 'virtual:APP.yaml'"
            )
    max_steps = option.fairy_max_steps
    if max_steps is None:
        max_steps = _int_ini(config, "fairy_max_steps")
    if max_steps is not None and max_steps < 1:
        raise pytest.UsageError(f"--fairy-max-steps must be at least 1, got {max_steps}")
    artifacts = Path(option.fairy_artifacts or config.getini("fairy_artifacts") or ".fairy")
    if not artifacts.is_absolute():
        artifacts = config.rootpath / artifacts
    return FairyConfig(
        devices=devices,
        brain=brain,
        brain_reason=reason,
        model=option.fairy_model
        or config.getini("fairy_model")
        or (DEFAULT_CLAUDE_MODEL if brain == "claude" else None),
        max_steps=max_steps,
        artifacts=artifacts,
        spec_patterns=tuple(config.getini("fairy_spec_patterns")),
        explorer=ExplorerSettings(llm_long_edge=_int_ini(config, "fairy_llm_long_edge") or 1024),
    )


def _brain(chosen: str) -> tuple[str, str]:
    """The brain to use and why: as chosen, else Claude when an API key is set, else offline."""
    has_key = bool(os.environ.get("ANTHROPIC_API_KEY"))
    if not chosen:
        return ("claude", "ANTHROPIC_API_KEY is set") if has_key else ("offline", "no ANTHROPIC_API_KEY set")
    if chosen not in BRAINS:
        raise pytest.UsageError(f"--fairy-brain {chosen}: unknown brain; choose one of {', '.join(BRAINS)}")
    if chosen == "claude" and not has_key:
        raise pytest.UsageError(
            "--fairy-brain claude needs an API key: set ANTHROPIC_API_KEY (or use --fairy-brain offline)"
        )
    return chosen, "chosen"


def _int_ini(config: pytest.Config, name: str) -> int | None:
    raw = str(config.getini(name) or "").strip()
    if not raw:
        return None
    try:
        return int(raw)
    except ValueError:
        raise pytest.UsageError(f"ini key {name}: expected a whole number, got {raw!r}") from None
