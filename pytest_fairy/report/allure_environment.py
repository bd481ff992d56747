"""The Allure run's Environment section: `environment.properties` in the alluredir, written by every
process of a session (the xdist controller and each worker) under a file lock, in the Java .properties
format both Allure 2 and 3 read."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

from filelock import FileLock, Timeout

from pytest_fairy.devices.protocol import Device, Diagnostics
from pytest_fairy.errors import DeviceError
from pytest_fairy.explore.target import Target


@dataclass(frozen=True, slots=True)
class ReportLimits:
    """The Allure report's limits (allure.py's sink reads them too)."""

    # Allure shows step parameters in one line each: a long reasoning goes whole into the decision text.
    parameter_chars: int = 240
    # Several xdist workers add to environment.properties; one waits at most this long for the others.
    environment_lock_seconds: float = 30.0


class AllureEnvironment:
    """`environment.properties` in the alluredir: the report's Environment section.

    Every process of a session (the xdist controller and each worker) adds what it knows under a file
    lock; values of one key from several devices are listed together. A file left by an earlier session
    in a reused alluredir is merged into, not replaced: that session's results are still in the folder
    and in the report, so its devices and app versions are listed too (`fairy.session` lists the
    sessions). `--clean-alluredir` starts the folder, and the list, afresh.
    """

    FILE = "environment.properties"
    SESSION_KEY = "fairy.session"

    def __init__(
        self,
        folder: Path,
        session_id: str,
        *,
        facts: Mapping[str, str] | None = None,
        limits: ReportLimits | None = None,
    ) -> None:
        self.path = folder / self.FILE
        self.session_id = session_id
        self.facts = {"pytest_fairy": version("pytest-fairy"), **(facts or {})}
        self.limits = limits or ReportLimits()

    def add(self, facts: Mapping[str, str]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        lock = FileLock(self.path.parent / f".{self.FILE}.lock")
        try:
            with lock.acquire(timeout=self.limits.environment_lock_seconds):
                found = read_properties(self.path) if self.path.exists() else {}
                merged = dict(found)
                for key, value in {self.SESSION_KEY: self.session_id, **self.facts, **facts}.items():
                    known = merged[key].split(", ") if key in merged else []
                    merged[key] = ", ".join(known + ([value] if value not in known else []))
                if merged != found:
                    self.path.write_text(write_properties(merged), encoding="ascii")
        except Timeout as exc:
            raise OSError(
                f"{self.path}: waited {self.limits.environment_lock_seconds:.0f}s for {exc.lock_file}"
            ) from exc

    def read(self) -> dict[str, str]:
        return read_properties(self.path)


def device_facts(device: Device, target: Target) -> dict[str, str]:
    """What the Environment section says about the device and the app under test."""
    if not isinstance(device, Diagnostics):
        return {"device": device.serial}
    try:
        info = device.info()
        version = device.app_version(target.package)
    except DeviceError as exc:
        return {"device": f"{device.serial} (its properties could not be read: {exc.reason})"}
    device_line = f"{info.serial} ({info.model})" if info.model else info.serial
    return {
        "device": device_line,
        "android": f"{info.android_version} (SDK {info.sdk})" if info.sdk else info.android_version,
        "app": f"{target.app_name} {target.package} {version or '(version unknown)'}",
    }


def write_properties(values: Mapping[str, str]) -> str:
    """Java .properties text, ASCII only (Java's Allure 2 reads it as ISO-8859-1): others as \\uXXXX."""
    return "".join(f"{_escape(key)}={_escape(value)}\n" for key, value in values.items())


def read_properties(path: Path) -> dict[str, str]:
    """Read what `write_properties` wrote (one `key=value` a line, \\-escapes; no continuation lines)."""
    values: dict[str, str] = {}
    for number, line in enumerate(path.read_text(encoding="latin-1").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith(("#", "!")):
            continue
        key, sep, value = line.partition("=")
        if not sep:
            raise ValueError(f"{path}:{number}: not a key=value line: {line!r}")
        values[_unescape(key.strip(), path, number)] = _unescape(value, path, number)
    return values


def _escape(text: str) -> str:
    out = []
    for char in text:
        if char == "\\":
            out.append("\\\\")
        elif " " <= char <= "~" and char != '"':
            out.append(char)
        else:
            # UTF-16 code units, as Java writes characters outside the BMP; '"' so JSON can read it back.
            data = char.encode("utf-16-be")
            out.extend(f"\\u{int.from_bytes(data[i : i + 2]):04x}" for i in range(0, len(data), 2))
    return "".join(out)


def _unescape(text: str, path: Path, number: int) -> str:
    # The escapes `_escape` writes (\\ and \uXXXX with surrogate pairs) are exactly JSON's.
    try:
        value = json.loads(f'"{text}"')
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}:{number}: bad escape in {text!r}: {exc}") from exc
    assert isinstance(value, str)
    return value
