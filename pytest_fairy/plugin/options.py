"""The run's configuration, read once from the command line and ini keys into one typed object."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from pytest_fairy.brain.claude_settings import ClaudeSettings
from pytest_fairy.brain.models import DEFAULT_MODEL, EFFORTS, model_info, retired
from pytest_fairy.devices.settings import (
    DEFAULT_DEVICE_TIMEOUT,
    DEFAULT_DEVICE_WAIT,
    DEFAULT_RECONNECT_ATTEMPTS,
    VIRTUAL,
    DeviceSettings,
)
from pytest_fairy.devices.settle import DEFAULT_SETTLE_CAP, DEFAULT_SETTLE_FLOOR, SettleLimits
from pytest_fairy.explore.explorer import DEFAULT_LLM_LONG_EDGE, MIN_LLM_LONG_EDGE, ExplorerSettings
from pytest_fairy.replay.options import ReplaySettings, add_replay_options, read_replay_settings
from pytest_fairy.report.policy import ArtifactPolicy

BRAINS = ("offline", "claude", "replay")
DEFAULT_SPEC_PATTERNS = ("test_*.yaml", "test_*.yml", "*.fairy.yaml", "*.fairy.yml")


@dataclass(frozen=True)
class FairyConfig:
    device: DeviceSettings = field(default_factory=DeviceSettings)
    brain: str = "offline"
    brain_reason: str = "no ANTHROPIC_API_KEY set"
    model: str | None = None
    # output_config.effort for models that take one (None: pytest_fairy's default; see brain/models.py).
    effort: str | None = None
    max_steps: int | None = None
    # Follow-ups one LLM answer may queue (None: the brain's default; 0: a call for every action).
    max_queued_actions: int | None = None
    artifacts: Path = Path(".fairy")
    # Which step screenshots stay on disk: all, a failed item's only, none (report/policy.py).
    artifacts_policy: ArtifactPolicy = ArtifactPolicy.ON
    spec_patterns: tuple[str, ...] = DEFAULT_SPEC_PATTERNS
    explorer: ExplorerSettings = field(default_factory=ExplorerSettings)
    # The decision cache and the build-to-build baseline (see pytest_fairy.replay).
    replay: ReplaySettings = field(default_factory=ReplaySettings)

    def claude_settings(self) -> ClaudeSettings:
        """The Claude brain's settings from the options (the model, effort, image size, queue length)."""
        settings = ClaudeSettings(
            model=self.model or DEFAULT_MODEL,
            effort=self.effort,
            image_long_edge=self.explorer.llm_long_edge,
        )
        if self.max_queued_actions is not None:
            settings = replace(settings, max_queued_actions=self.max_queued_actions)
        return settings

    @property
    def devices(self) -> tuple[str, ...]:
        return self.device.devices

    @property
    def real_devices(self) -> tuple[str, ...]:
        return self.device.real_devices

    @property
    def matrix(self) -> bool:
        return self.device.matrix


# Replays of an app defect's way before the item fails on it.
DEFAULT_CONFIRM = 1


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
        help=f"what decides the actions: {', '.join(BRAINS)} "
        "(default: claude when ANTHROPIC_API_KEY is set, else offline)",
    )
    group.addoption(
        "--fairy-model",
        dest="fairy_model",
        metavar="MODEL",
        help=f"Claude model id, e.g. claude-opus-5-5 (default: {DEFAULT_MODEL}); docs/options.md lists the "
        "models, what each accepts and costs",
    )
    group.addoption(
        "--fairy-effort",
        dest="fairy_effort",
        metavar="LEVEL",
        help=f"how hard the model thinks on each call: {', '.join(EFFORTS)} (default: medium on models that "
        "think; older models take none)",
    )
    group.addoption(
        "--fairy-max-steps",
        dest="fairy_max_steps",
        type=int,
        metavar="N",
        help="cap every feature at N exploration steps (overrides the specs' max_steps)",
    )
    group.addoption(
        "--fairy-confirm",
        dest="fairy_confirm",
        type=int,
        metavar="N",
        help="replay an app defect's shortest way from a fresh launch N times before the item fails on it; "
        "one that does not show again is inconclusive (0: fail on what was seen once; default: 1)",
    )
    group.addoption(
        "--fairy-artifacts",
        dest="fairy_artifacts",
        metavar="DIR",
        help="folder for the session store: steps, screenshots, trees (default: .fairy)",
    )
    group.addoption(
        "--fairy-artifacts-policy",
        dest="fairy_artifacts_policy",
        metavar="POLICY",
        help="which step screenshots the session store and Allure keep: on (all), retain-on-failure (deleted "
        "when the item passes), off (none; steps.jsonl and the tree still written) (default: on)",
    )
    parser.addini("fairy_device", "devices to explore on (see --fairy-device)", type="linelist", default=[])
    parser.addini("fairy_brain", "brain (see --fairy-brain)", default="")
    parser.addini("fairy_model", "LLM model name", default="")
    parser.addini("fairy_effort", "how hard the LLM thinks per call (see --fairy-effort)", default="")
    parser.addini("fairy_max_steps", "cap on exploration steps per feature", default="")
    parser.addini(
        "fairy_max_queued_actions",
        "follow-up actions one LLM answer may queue, taken without a call while the screens match (0: a call "
        "for every action; default: the brain's, 5 for claude)",
        default="",
    )
    parser.addini("fairy_confirm", "replays confirming an app defect (see --fairy-confirm)", default="")
    parser.addini("fairy_artifacts", "artifacts folder (see --fairy-artifacts)", default="")
    parser.addini(
        "fairy_artifacts_policy", "step screenshots kept (see --fairy-artifacts-policy)", default=""
    )
    parser.addini(
        "fairy_spec_patterns",
        "glob patterns of YAML feature specs to collect",
        type="linelist",
        default=list(DEFAULT_SPEC_PATTERNS),
    )
    parser.addini(
        "fairy_llm_long_edge",
        "long edge in pixels of the screenshot an LLM sees",
        default=str(DEFAULT_LLM_LONG_EDGE),
    )
    parser.addini(
        "fairy_settle_seconds",
        "extra pause after each action, once the device's UI settled (default "
        f"{DEFAULT_SETTLE_FLOOR:g}; e.g. 0.5 for an app that changes its screen again after it looked idle)",
        default="",
    )
    parser.addini(
        "fairy_settle_cap",
        "most seconds a real device waits for its UI to settle after an action before the screen is read "
        f"as it is (default {DEFAULT_SETTLE_CAP:g})",
        default="",
    )
    add_replay_options(parser, group)
    group.addoption(
        "--fairy-adb",
        dest="fairy_adb",
        metavar="HOST:PORT",
        help="adb server of the real devices, e.g. a farm's farm-host:5037 (default: ANDROID_ADB_SERVER_HOST"
        " / ANDROID_ADB_SERVER_PORT, else 127.0.0.1:5037)",
    )
    group.addoption(
        "--fairy-matrix",
        dest="fairy_matrix",
        action="store_true",
        default=None,
        help="run every feature on every --fairy-device (item ids end in [SERIAL]); with xdist use "
        "--dist loadgroup",
    )
    group.addoption(
        "--fairy-lock-dir",
        dest="fairy_lock_dir",
        metavar="DIR",
        help="folder of the per-device locks shared by every run on this host "
        "(default: ~/.cache/pytest_fairy/locks)",
    )
    parser.addini("fairy_adb", "adb server HOST:PORT (see --fairy-adb)", default="")
    parser.addini("fairy_matrix", "every feature on every device", type="bool", default=False)
    parser.addini("fairy_lock_dir", "device lock folder (see --fairy-lock-dir)", default="")
    parser.addini(
        "fairy_device_wait", "seconds a worker waits for a free device", default=str(DEFAULT_DEVICE_WAIT)
    )
    parser.addini(
        "fairy_device_lease",
        "hold each real device by a lease on the device too (/data/local/tmp/pytest_fairy.lease), so that "
        "runs on other hosts sharing a farm's adb server leave it alone (default: true)",
        type="bool",
        default=True,
    )
    parser.addini(
        "fairy_allow_ime_install",
        "let typing on a real device install uiautomator2's input method APK and switch the keyboard to it "
        "when the clipboard cannot be used (default: false; the action fails instead)",
        type="bool",
        default=False,
    )
    parser.addini(
        "fairy_device_timeout",
        "seconds each adb, shell, sync and uiautomator2 call of a real device may take before the device "
        "counts as not answering",
        default=str(DEFAULT_DEVICE_TIMEOUT),
    )
    parser.addini(
        "fairy_reconnect_attempts",
        "tries to reconnect a real device that stopped answering before the item is inconclusive",
        default=str(DEFAULT_RECONNECT_ATTEMPTS),
    )


def read_config(config: pytest.Config) -> FairyConfig:
    """Options win over ini keys; a bad value is a usage error that names the option."""
    option = config.option
    devices = tuple(option.fairy_device or config.getini("fairy_device") or (VIRTUAL,))
    brain, reason = _brain(option.fairy_brain or config.getini("fairy_brain") or "")
    for device in devices:
        if not device.strip() or any(c.isspace() for c in device):
            raise pytest.UsageError(f"--fairy-device {device!r}: expected an adb serial or 'virtual'")
    real = _real_device_options(config)
    max_steps = option.fairy_max_steps
    if max_steps is None:
        max_steps = _int_ini(config, "fairy_max_steps")
    if max_steps is not None and max_steps < 1:
        raise pytest.UsageError(f"--fairy-max-steps must be at least 1, got {max_steps}")
    queued = _int_ini(config, "fairy_max_queued_actions")
    if queued is not None and queued < 0:
        raise pytest.UsageError(f"ini key fairy_max_queued_actions: expected 0 or more, got {queued}")
    confirm = option.fairy_confirm
    if confirm is None:
        confirm = _int_ini(config, "fairy_confirm")
    if confirm is not None and confirm < 0:
        raise pytest.UsageError(f"--fairy-confirm must be 0 or more, got {confirm}")
    artifacts = Path(option.fairy_artifacts or config.getini("fairy_artifacts") or ".fairy")
    if not artifacts.is_absolute():
        artifacts = config.rootpath / artifacts
    policy = _artifacts_policy(
        option.fairy_artifacts_policy or config.getini("fairy_artifacts_policy") or "on"
    )
    model = option.fairy_model or config.getini("fairy_model") or None
    if model is None and brain == "claude":
        model = DEFAULT_MODEL
    if model is not None and (gone := retired(model)) is not None:
        raise pytest.UsageError(f"--fairy-model {gone}")
    return FairyConfig(
        device=DeviceSettings(devices=devices, **real),
        brain=brain,
        brain_reason=reason,
        model=model,
        effort=_effort(option.fairy_effort or config.getini("fairy_effort") or None, model),
        max_steps=max_steps,
        max_queued_actions=queued,
        artifacts=artifacts,
        artifacts_policy=policy,
        spec_patterns=tuple(config.getini("fairy_spec_patterns")),
        explorer=ExplorerSettings(
            llm_long_edge=_long_edge(config),
            # A fixed pause no more: devices settle by evidence (devices/settle.py); this is a floor on top.
            settle_seconds=_seconds(config, "fairy_settle_seconds", DEFAULT_SETTLE_FLOOR),
            confirm=DEFAULT_CONFIRM if confirm is None else confirm,
        ),
        replay=read_replay_settings(config, artifacts / "cache"),
    )


def _real_device_options(config: pytest.Config) -> dict[str, Any]:
    """--fairy-adb, --fairy-matrix, --fairy-lock-dir and the fairy_device_* / fairy_allow_ime_install keys."""
    option = config.option
    adb = (option.fairy_adb or config.getini("fairy_adb") or "").strip()
    host, _, port = adb.rpartition(":")
    if adb and not (host and port.isdigit() and 0 < int(port) < 65536):
        raise pytest.UsageError(f"--fairy-adb {adb}: expected the HOST:PORT of an adb server")
    raw_wait = str(config.getini("fairy_device_wait")).strip()
    try:
        wait = float(raw_wait)
    except ValueError:
        raise pytest.UsageError(f"ini key fairy_device_wait: expected seconds, got {raw_wait!r}") from None
    if wait < 0:
        raise pytest.UsageError(f"ini key fairy_device_wait: must not be negative, got {raw_wait!r}")
    raw_timeout = str(config.getini("fairy_device_timeout")).strip()
    try:
        timeout = float(raw_timeout)
    except ValueError:
        timeout = -1.0
    if not timeout > 0:
        raise pytest.UsageError(f"ini key fairy_device_timeout: expected seconds > 0, got {raw_timeout!r}")
    lock_dir = option.fairy_lock_dir or config.getini("fairy_lock_dir")
    matrix = option.fairy_matrix if option.fairy_matrix is not None else config.getini("fairy_matrix")
    return {
        "adb_server": adb,
        "matrix": bool(matrix),
        "lock_dir": Path(lock_dir).expanduser() if lock_dir else None,
        "device_wait": wait,
        "reconnect_attempts": _int_ini(config, "fairy_reconnect_attempts") or 0,
        "device_timeout": timeout,
        "device_lease": bool(config.getini("fairy_device_lease")),
        "allow_ime_install": bool(config.getini("fairy_allow_ime_install")),
        "settle": SettleLimits(cap=_seconds(config, "fairy_settle_cap", DEFAULT_SETTLE_CAP)),
    }


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


def _artifacts_policy(raw: str) -> ArtifactPolicy:
    try:
        return ArtifactPolicy(raw.strip())
    except ValueError:
        choices = ", ".join(p.value for p in ArtifactPolicy)
        raise pytest.UsageError(f"--fairy-artifacts-policy {raw}: expected one of {choices}") from None


def _effort(effort: str | None, model: str | None) -> str | None:
    """The effort asked for, if the model takes it: a level it refuses would be a 400 on every call."""
    if effort is None:
        return None
    if effort not in EFFORTS:
        raise pytest.UsageError(f"--fairy-effort {effort}: expected one of {', '.join(EFFORTS)}")
    accepted = model_info(model).efforts if model else EFFORTS
    if effort not in accepted:
        raise pytest.UsageError(
            f"--fairy-effort {effort}: {model} takes no effort setting (its thinking is off unless asked); "
            "leave the option out or choose a model that thinks, e.g. claude-sonnet-5-5"
        )
    return effort


def _seconds(config: pytest.Config, name: str, default: float) -> float:
    """A settle ini key: seconds, not negative; `default` when unset."""
    raw = str(config.getini(name) or "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise pytest.UsageError(f"ini key {name}: expected seconds, got {raw!r}") from None
    if value < 0:
        raise pytest.UsageError(f"ini key {name}: must not be negative, got {raw!r}")
    return value


def _long_edge(config: pytest.Config) -> int:
    edge = _int_ini(config, "fairy_llm_long_edge")
    if edge is None:
        return DEFAULT_LLM_LONG_EDGE
    if edge < MIN_LLM_LONG_EDGE:
        raise pytest.UsageError(
            f"ini key fairy_llm_long_edge: at least {MIN_LLM_LONG_EDGE} pixels (below that the model cannot "
            f"read the screen), got {edge}"
        )
    return edge


def _int_ini(config: pytest.Config, name: str) -> int | None:
    raw = str(config.getini(name) or "").strip()
    if not raw:
        return None
    try:
        return int(raw)
    except ValueError:
        raise pytest.UsageError(f"ini key {name}: expected a whole number, got {raw!r}") from None
