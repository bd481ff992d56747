"""The run's configuration, read once from the command line and ini keys (plugin/option_table.py declares
them all) into one typed object."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from pytest_fairy.brain.claude_settings import ClaudeSettings
from pytest_fairy.brain.models import DEFAULT_MODEL, EFFORTS, model_info, request_line, retired
from pytest_fairy.devices.settings import DeviceSettings
from pytest_fairy.devices.settle import SettleLimits
from pytest_fairy.explore.explorer import ExplorerSettings
from pytest_fairy.explore.state import StateIdentifier
from pytest_fairy.plugin.option_table import (
    DEFAULT_KEEP_SESSIONS,
    DEFAULT_PROGRESS_SECONDS,
    DEFAULT_SPEC_PATTERNS,
    read_values,
)
from pytest_fairy.replay.pruning import CacheLimits
from pytest_fairy.replay.settings import ReplaySettings
from pytest_fairy.report.policy import ArtifactPolicy


@dataclass(frozen=True)
class FairyConfig:
    device: DeviceSettings = field(default_factory=DeviceSettings)
    brain: str = "offline"
    brain_reason: str = "no ANTHROPIC_API_KEY set"
    model: str | None = None
    # The model that judges whether the feature is done (None: `model`).
    judge_model: str | None = None
    # output_config.effort for models that take one (None: pytest_fairy's default; see brain/models.py).
    effort: str | None = None
    max_steps: int | None = None
    # US dollars the whole session's LLM calls may cost, xdist workers included (plugin/session_budget.py).
    max_cost: float | None = None
    # Follow-ups one LLM answer may queue (None: the brain's default; 0: a call for every action).
    max_queued_actions: int | None = None
    artifacts: Path = Path(".fairy")
    # Which step screenshots stay on disk: all, a failed item's only, none (report/policy.py).
    artifacts_policy: ArtifactPolicy = ArtifactPolicy.ON
    spec_patterns: tuple[str, ...] = DEFAULT_SPEC_PATTERNS
    # Without -v, an item under way says how far it got at most this often (plugin/progress.py).
    progress_seconds: float = DEFAULT_PROGRESS_SECONDS
    # Sessions the store keeps: older ones are removed when a run starts (0: all are kept).
    keep_sessions: int = DEFAULT_KEEP_SESSIONS
    # More tries for an item whose device or brain failed (plugin/retries.py).
    retries: int = 0
    explorer: ExplorerSettings = field(default_factory=ExplorerSettings)
    # The decision cache and the build-to-build baseline (see pytest_fairy.replay).
    replay: ReplaySettings = field(default_factory=ReplaySettings)

    def claude_settings(self) -> ClaudeSettings:
        """The Claude brain's settings from the options (the model, effort, image size, queue length)."""
        settings = ClaudeSettings(
            model=self.model or DEFAULT_MODEL,
            effort=self.effort,
            image_long_edge=self.explorer.llm_long_edge,
            judge_model=self.judge_model,
        )
        if self.max_queued_actions is not None:
            settings = replace(settings, max_queued_actions=self.max_queued_actions)
        return settings

    def judge_line(self) -> str:
        """`judge claude-opus-5-5 (effort medium, ...)` for the header when another model judges, else ""."""
        if self.brain != "claude" or not self.judge_model or self.judge_model == self.model:
            return ""
        return f"judge {request_line(self.judge_model, self.claude_settings().judge_settings().effort)}"

    @property
    def devices(self) -> tuple[str, ...]:
        return self.device.devices

    @property
    def real_devices(self) -> tuple[str, ...]:
        return self.device.real_devices

    @property
    def matrix(self) -> bool:
        return self.device.matrix


def read_config(config: pytest.Config) -> FairyConfig:
    """Options win over ini keys; a bad value is a usage error that names the option or key."""
    value = read_values(config)
    brain, reason = _brain(value["fairy_brain"])
    artifacts = _under_root(config, value["fairy_artifacts"])
    model = value["fairy_model"] or None
    if model is None and brain == "claude":
        model = DEFAULT_MODEL
    if model is not None and (gone := retired(model)) is not None:
        raise pytest.UsageError(f"--fairy-model {gone}")
    judge_model = value["fairy_judge_model"] or None
    if judge_model is not None and (gone := retired(judge_model)) is not None:
        raise pytest.UsageError(f"--fairy-judge-model {gone}")
    identifier = StateIdentifier(
        long_text_chars=value["fairy_state_long_text_chars"],
        list_rows_kept=value["fairy_state_list_rows_kept"],
        repeated_min=value["fairy_state_repeated_min"],
    )
    return FairyConfig(
        device=_device_settings(value),
        brain=brain,
        brain_reason=reason,
        model=model,
        judge_model=judge_model,
        effort=_effort(value["fairy_effort"], model),
        max_steps=value["fairy_max_steps"],
        max_cost=value["fairy_max_cost"],
        max_queued_actions=value["fairy_max_queued_actions"],
        artifacts=artifacts,
        artifacts_policy=ArtifactPolicy(value["fairy_artifacts_policy"]),
        spec_patterns=value["fairy_spec_patterns"],
        progress_seconds=value["fairy_progress_seconds"],
        keep_sessions=value["fairy_keep_sessions"],
        retries=value["fairy_retries"],
        explorer=ExplorerSettings(
            llm_long_edge=value["fairy_llm_long_edge"],
            # A fixed pause no more: devices settle by evidence (devices/settle.py); this is a floor on top.
            settle_seconds=value["fairy_settle_seconds"],
            identifier=identifier,
            family_limit=value["fairy_family_limit"],
            confirm=value["fairy_confirm"],
        ),
        replay=_replay_settings(config, value, artifacts / "cache"),
    )


def _device_settings(value: Mapping[str, Any]) -> DeviceSettings:
    lock_dir = value["fairy_lock_dir"]
    return DeviceSettings(
        devices=value["fairy_device"],
        adb_server=value["fairy_adb"],
        matrix=value["fairy_matrix"],
        lock_dir=Path(lock_dir).expanduser() if lock_dir else None,
        device_wait=value["fairy_device_wait"],
        reconnect_attempts=value["fairy_reconnect_attempts"],
        device_timeout=value["fairy_device_timeout"],
        device_lease=value["fairy_device_lease"],
        allow_ime_install=value["fairy_allow_ime_install"],
        settle=SettleLimits(cap=value["fairy_settle_cap"]),
    )


def _replay_settings(config: pytest.Config, value: Mapping[str, Any], default_cache: Path) -> ReplaySettings:
    """Relative folders are under the rootdir, as the artifacts folder is."""
    cache = _under_root(config, value["fairy_cache"]) if value["fairy_cache"] else default_cache
    raw_baseline = value["fairy_baseline"]
    baseline = _under_root(config, raw_baseline) if raw_baseline else None
    if baseline is not None and not baseline.is_dir():
        raise pytest.UsageError(
            f"--fairy-baseline {raw_baseline}: no such folder (give a session folder of a previous run, "
            "e.g. .fairy/sessions/<session>)"
        )
    if value["fairy_fail_on_lost_screens"] and baseline is None:
        raise pytest.UsageError(
            "--fairy-fail-on-lost-screens needs --fairy-baseline DIR (a previous run's session folder): "
            "without one no screen can be lost and the gate could never fail"
        )
    return ReplaySettings(
        cache=cache,
        use_cache=not value["fairy_no_cache"],
        baseline=baseline,
        fail_on_lost_screens=value["fairy_fail_on_lost_screens"],
        cache_limits=CacheLimits(value["fairy_cache_max_age_days"], value["fairy_cache_max_mb"]),
    )


def _under_root(config: pytest.Config, raw: str) -> Path:
    path = Path(raw)
    return path if path.is_absolute() else config.rootpath / path


def _brain(chosen: str) -> tuple[str, str]:
    """The brain to use and why: as chosen, else Claude when an API key is set, else offline."""
    has_key = bool(os.environ.get("ANTHROPIC_API_KEY"))
    if not chosen:
        return ("claude", "ANTHROPIC_API_KEY is set") if has_key else ("offline", "no ANTHROPIC_API_KEY set")
    if chosen == "claude" and not has_key:
        raise pytest.UsageError(
            "--fairy-brain claude needs an API key: set ANTHROPIC_API_KEY (or use --fairy-brain offline)"
        )
    return chosen, "chosen"


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
