"""Every option and ini key of pytest_fairy, declared once: `SETTINGS`.

A `Setting` has an ini key (`fairy_max_steps`), a command-line flag where one is worth having
(`--fairy-max-steps`), how its text is read (`Parse`), its default and its help. `add_options` registers
them all with pytest; `read_values` reads them all, the flag winning over the ini key, and refuses a bad
value in one line that names the flag or key, what it got and what it expected. docs/options.md lists the
same table (a test keeps the two in step).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from pytest_fairy.brain.models import DEFAULT_MODEL, EFFORTS
from pytest_fairy.devices.settings import (
    DEFAULT_DEVICE_TIMEOUT,
    DEFAULT_DEVICE_WAIT,
    DEFAULT_RECONNECT_ATTEMPTS,
    VIRTUAL,
)
from pytest_fairy.devices.settle import DEFAULT_SETTLE_CAP, DEFAULT_SETTLE_FLOOR
from pytest_fairy.explore.explorer import DEFAULT_LLM_LONG_EDGE, MIN_LLM_LONG_EDGE
from pytest_fairy.explore.families import FAMILY_LIMIT
from pytest_fairy.explore.state import StateIdentifier
from pytest_fairy.plugin.option_parsers import (
    Parse,
    Refused,
    adb_server,
    choice,
    dollars,
    limit,
    seconds,
    serial,
    text,
    whole,
)
from pytest_fairy.replay.pruning import DEFAULT_MAX_AGE_DAYS, DEFAULT_MAX_MB
from pytest_fairy.report.policy import ArtifactPolicy

BRAINS = ("offline", "claude", "replay")
DEFAULT_SPEC_PATTERNS = ("test_*.yaml", "test_*.yml", "*.fairy.yaml", "*.fairy.yml")
# Sessions the store keeps (the newest); older ones are removed when a run starts.
DEFAULT_KEEP_SESSIONS = 20
# Without -v, how often at most an item under way says how far it got.
DEFAULT_PROGRESS_SECONDS = 5.0
# Replays of an app defect's way before the item fails on it.
DEFAULT_CONFIRM = 1
GROUP = ("fairy", "pytest_fairy: LLM-driven GUI exploration")


@dataclass(frozen=True)
class Setting:
    """One setting: `ini` is its ini key (also its name in `read_values`), `flag` its command-line option
    (None: ini only), `parse` reads one text value. `many`: repeatable, a line list in ini files; `switch`:
    a flag without a value, a bool in ini files. `ini_key=False`: a command-line switch only."""

    ini: str
    help: str
    parse: Parse = str
    default: Any = None
    flag: str | None = None
    metavar: str | None = None
    many: bool = False
    switch: bool = False
    ini_key: bool = True


_IDENTIFIER = StateIdentifier()

SETTINGS: tuple[Setting, ...] = (
    Setting(
        "fairy_device",
        "device to explore on, repeatable: an adb serial (emulator-5554, 127.0.0.1:5555), "
        "'virtual' / 'virtual:APP.yaml' for the built-in virtual device (default: virtual), or a phone "
        "booked from a farm: stf+https://HOST:PORT?abi=arm64-v8a&sdk>=30 (token in STF_TOKEN)",
        serial, (VIRTUAL,), flag="--fairy-device", metavar="SERIAL", many=True,
    ),
    Setting(
        "fairy_brain",
        f"what decides the actions: {', '.join(BRAINS)} (default: claude when ANTHROPIC_API_KEY is set, "
        "else offline)",
        choice(*BRAINS), "", flag="--fairy-brain", metavar="NAME",
    ),
    Setting(
        "fairy_model",
        f"Claude model id, e.g. claude-opus-5-5 (default: {DEFAULT_MODEL}); docs/options.md lists the "
        "models, what each accepts and costs",
        text, flag="--fairy-model", metavar="MODEL",
    ),
    Setting(
        "fairy_judge_model", "Claude model that judges whether the feature is done and works (default: "
        "the --fairy-model)", text, flag="--fairy-judge-model", metavar="MODEL",
    ),
    Setting(
        "fairy_effort",
        f"how hard the model thinks on each call: {', '.join(EFFORTS)} (default: medium on models that "
        "think; older models take none)",
        choice(*EFFORTS), flag="--fairy-effort", metavar="LEVEL",
    ),
    Setting(
        "fairy_max_steps",
        "cap every feature at N exploration steps (overrides the specs' max_steps)",
        whole(1), flag="--fairy-max-steps", metavar="N",
    ),
    Setting(
        "fairy_max_cost", "US dollars the session's LLM calls may cost (xdist workers included), e.g. 2.50; "
        "then the items left end inconclusive", dollars, flag="--fairy-max-cost", metavar="DOLLARS",
    ),
    Setting(
        "fairy_retries",
        "run an item that ended inconclusive because the device or the brain failed up to N more times; "
        "never one with another verdict (default 0)",
        whole(0), 0, flag="--fairy-retries", metavar="N",
    ),
    Setting(
        "fairy_max_queued_actions",
        "follow-up actions one LLM answer may queue, taken without a call while the screens match (0: a call "
        "for every action; default: the brain's, 5 for claude)",
        whole(0),
    ),
    Setting(
        "fairy_confirm",
        "replay an app defect's shortest way from a fresh launch N times before the item fails on it; "
        "one that does not show again is inconclusive (0: fail on what was seen once; default: 1)",
        whole(0), DEFAULT_CONFIRM, flag="--fairy-confirm", metavar="N",
    ),
    Setting(
        "fairy_artifacts",
        "folder for the session store: steps, screenshots, trees (default: .fairy)",
        text, ".fairy", flag="--fairy-artifacts", metavar="DIR",
    ),
    Setting(
        "fairy_artifacts_policy",
        "which step screenshots the session store and Allure keep: on (all), retain-on-failure (deleted "
        "when the item passes), off (none; steps.jsonl and the tree still written) (default: on)",
        choice(*(p.value for p in ArtifactPolicy)), ArtifactPolicy.ON.value,
        flag="--fairy-artifacts-policy", metavar="POLICY",
    ),
    Setting(
        "fairy_keep_sessions",
        "sessions the store keeps under the artifacts folder: when a run starts, older ones are removed "
        f"(never a --fairy-baseline); 0 keeps all (default {DEFAULT_KEEP_SESSIONS})",
        whole(0), DEFAULT_KEEP_SESSIONS,
    ),
    Setting(
        "fairy_spec_patterns", "glob patterns of YAML feature specs to collect", text, DEFAULT_SPEC_PATTERNS,
        many=True,
    ),
    Setting(
        "fairy_progress_seconds",
        "without -v, an item under way says how far it got (step, states, loops escaped, cost, screen) at "
        f"most this often, in seconds; 0: after every step (default {DEFAULT_PROGRESS_SECONDS:g})",
        seconds(), DEFAULT_PROGRESS_SECONDS,
    ),
    Setting(
        "fairy_llm_long_edge",
        f"long edge in pixels of the screenshot an LLM sees (default {DEFAULT_LLM_LONG_EDGE})",
        whole(MIN_LLM_LONG_EDGE, "pixels", "below that the model cannot read the screen"),
        DEFAULT_LLM_LONG_EDGE,
    ),
    Setting(
        "fairy_settle_seconds",
        "extra pause after each action, once the device's UI settled (default "
        f"{DEFAULT_SETTLE_FLOOR:g}; e.g. 0.5 for an app that changes its screen again after it looked idle)",
        seconds(), DEFAULT_SETTLE_FLOOR,
    ),
    Setting(
        "fairy_settle_cap",
        "most seconds a real device waits for its UI to settle after an action before the screen is read "
        f"as it is (default {DEFAULT_SETTLE_CAP:g})",
        seconds(), DEFAULT_SETTLE_CAP,
    ),
    Setting(
        "fairy_state_long_text_chars",
        "text longer than this (after dynamic parts are masked) tells a state only by its length class "
        f"(default {_IDENTIFIER.long_text_chars})",
        whole(1), _IDENTIFIER.long_text_chars,
    ),
    Setting(
        "fairy_state_list_rows_kept",
        "rows of a repeated group (not a scrolling list) whose text tells a state apart "
        f"(default {_IDENTIFIER.list_rows_kept})",
        whole(0), _IDENTIFIER.list_rows_kept,
    ),
    Setting(
        "fairy_state_repeated_min",
        f"children of one shape that make a repeated group (default {_IDENTIFIER.repeated_min})",
        whole(2), _IDENTIFIER.repeated_min,
    ),
    Setting(
        "fairy_family_limit",
        "pages of one layout (a product page per product) kept apart as states before the rest fold into "
        f"the first (default {FAMILY_LIMIT})",
        whole(1), FAMILY_LIMIT,
    ),
    Setting(
        "fairy_adb",
        "adb server of the real devices, e.g. a farm's farm-host:5037 (default: ANDROID_ADB_SERVER_HOST"
        " / ANDROID_ADB_SERVER_PORT, else 127.0.0.1:5037)",
        adb_server, "", flag="--fairy-adb", metavar="HOST:PORT",
    ),
    Setting(
        "fairy_matrix",
        "run every feature on every --fairy-device (item ids end in [SERIAL]); with xdist use "
        "--dist loadgroup",
        default=False, flag="--fairy-matrix", switch=True,
    ),
    Setting(
        "fairy_lock_dir",
        "folder of the per-device locks shared by every run on this host "
        "(default: ~/.cache/pytest_fairy/locks)",
        text, flag="--fairy-lock-dir", metavar="DIR",
    ),
    Setting(
        "fairy_device_wait",
        f"seconds a worker waits for a free device (default {DEFAULT_DEVICE_WAIT:g})",
        seconds(), DEFAULT_DEVICE_WAIT,
    ),
    Setting(
        "fairy_device_lease",
        "hold each real device by a lease on the device too (/data/local/tmp/pytest_fairy.lease), so that "
        "runs on other hosts sharing a farm's adb server leave it alone (default: true)",
        default=True, switch=True,
    ),
    Setting(
        "fairy_allow_ime_install",
        "let typing on a real device install uiautomator2's input method APK and switch the keyboard to it "
        "when the clipboard cannot be used (default: false; the action fails instead)",
        default=False, switch=True,
    ),
    Setting(
        "fairy_device_timeout",
        "seconds each adb, shell, sync and uiautomator2 call of a real device may take before the device "
        f"counts as not answering (default {DEFAULT_DEVICE_TIMEOUT:g})",
        seconds(above_zero=True), DEFAULT_DEVICE_TIMEOUT,
    ),
    Setting(
        "fairy_reconnect_attempts",
        "tries to reconnect a real device that stopped answering before the item is inconclusive "
        f"(default {DEFAULT_RECONNECT_ATTEMPTS})",
        whole(0), DEFAULT_RECONNECT_ATTEMPTS,
    ),
    Setting(
        "fairy_cache",
        "decision cache folder: every exploration records its decisions there, and LLM brains "
        "replay them where the screens are unchanged (default: .fairy/cache)",
        text, flag="--fairy-cache", metavar="DIR",
    ),
    Setting(
        "fairy_cache_max_age_days",
        "at the end of a run, recordings of the decision cache not replayed or written for this many days "
        f"are removed, never one this run used; 0 keeps them (default {DEFAULT_MAX_AGE_DAYS:g})",
        limit("days"), DEFAULT_MAX_AGE_DAYS,
    ),
    Setting(
        "fairy_cache_max_mb",
        "at the end of a run, the decision cache is cut to this many megabytes: superseded versions first, "
        "then the least recently used items, never one this run used; 0: no limit "
        f"(default {DEFAULT_MAX_MB:g})",
        limit("megabytes"), DEFAULT_MAX_MB,
    ),
    Setting(
        "fairy_no_cache",
        "do not replay recorded decisions: the LLM decides every step (and the run is recorded anew)",
        default=False, flag="--fairy-no-cache", switch=True, ini_key=False,
    ),
    Setting(
        "fairy_baseline",
        "compare each item's feature tree with a previous run's: a session folder such as "
        ".fairy/sessions/20250101_120000_000001, or a committed copy of one (<item>/tree.json)",
        text, flag="--fairy-baseline", metavar="DIR",
    ),
    Setting(
        "fairy_fail_on_lost_screens",
        "fail an item when screens of its baseline are gone (as `must_not: [lose_screens]` does)",
        default=False, flag="--fairy-fail-on-lost-screens", switch=True, ini_key=False,
    ),
)  # fmt: skip


def add_options(parser: pytest.Parser) -> None:
    """Register every setting: its flag in pytest_fairy's option group, its ini key."""
    group = parser.getgroup(*GROUP)
    for setting in SETTINGS:
        if setting.flag is not None:
            kind: dict[str, Any] = (
                {"action": "store_true", "default": None}
                if setting.switch
                else {"action": "append" if setting.many else "store", "metavar": setting.metavar}
            )
            group.addoption(setting.flag, dest=setting.ini, help=setting.help, **kind)
        if setting.ini_key:
            if setting.switch:
                parser.addini(setting.ini, setting.help, type="bool", default=setting.default)
            elif setting.many:
                parser.addini(setting.ini, setting.help, type="linelist")
            else:
                parser.addini(setting.ini, setting.help, type="string")


def read_values(config: pytest.Config) -> Mapping[str, Any]:
    """Every setting's value by its ini key: the flag's if given, else the ini key's, else the default."""
    return {setting.ini: _value(config, setting) for setting in SETTINGS}


def _value(config: pytest.Config, setting: Setting) -> Any:
    given = getattr(config.option, setting.ini, None) if setting.flag is not None else None
    if given is not None and given != []:
        return _parsed(setting, given, setting.flag or setting.ini)
    if not setting.ini_key:
        return setting.default
    raw = config.getini(setting.ini)
    if setting.switch:
        return bool(raw)
    if setting.many:
        return _parsed(setting, raw, f"ini key {setting.ini}") if raw else setting.default
    if not str(raw).strip():
        return setting.default
    return _parsed(setting, raw, f"ini key {setting.ini}")


def _parsed(setting: Setting, raw: Any, where: str) -> Any:
    if setting.switch:
        return bool(raw)
    values = list(raw) if setting.many else [raw]
    parsed = []
    for value in values:
        try:
            parsed.append(setting.parse(str(value)))
        except Refused as refused:
            if where.startswith("-"):
                shown = str(value) if str(value).strip() and str(value).split() == [value] else repr(value)
                message = f"{where} {shown}: expected {refused}"
            else:
                message = f"{where}: expected {refused}, got {str(value)!r}"
            raise pytest.UsageError(message) from None
    return tuple(parsed) if setting.many else parsed[0]
