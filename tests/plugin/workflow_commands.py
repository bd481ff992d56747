"""The command lines of the example workflows in docs/workflows/, split as a shell splits them, for
tests/plugin/test_shards.py: it checks each one's options against the real CLIs and runs some of them."""

from __future__ import annotations

import shlex
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[2]
WORKFLOWS = REPO / "docs" / "workflows"
# What GitHub puts in place of the expressions in the command lines: the second of four shards.
EXPRESSIONS = {"${{ matrix.group }}": "2", "${{ strategy.job-total }}": "4"}
# How each CLI checked is called in a workflow: its first words.
PROGRAMS = {
    ("pytest",): "pytest",
    ("python", "-m", "pytest_fairy.report.allure_merge"): "allure_merge",
    ("junitparser",): "junitparser",
    ("npx", "--yes", "allure@3"): "allure",
}
OPERATORS = frozenset({"||", "&&", ";", "|", "{", "}"})


@dataclass(frozen=True)
class Command:
    where: str  # file, job and step, for a failure message
    job: str
    step: dict[str, Any]
    words: tuple[str, ...]  # expressions replaced

    @property
    def program(self) -> str | None:
        return next((name for start, name in PROGRAMS.items() if self.words[: len(start)] == start), None)

    @property
    def args(self) -> list[str]:
        start = next(start for start, name in PROGRAMS.items() if name == self.program)
        return list(self.words[len(start) :])


def workflows() -> dict[Path, dict[str, Any]]:
    return {
        path: yaml.safe_load(path.read_text(encoding="utf-8")) for path in sorted(WORKFLOWS.glob("*.yml"))
    }


def commands(path: Path, workflow: dict[str, Any], values: dict[str, str] = EXPRESSIONS) -> Iterator[Command]:
    """Every command of every step's `run` and emulator `script`, one line each (as the emulator runner
    runs them; no workflow here continues a line), with `values` for the expressions."""
    for job, body in workflow["jobs"].items():
        for number, step in enumerate(body["steps"], 1):
            text = step.get("run") or step.get("with", {}).get("script") or ""
            for line in text.splitlines():
                for expression, value in values.items():
                    line = line.replace(expression, value)
                assert "${{" not in line, (
                    f"{path.name}: {job} step {number}: an expression not known here: {line}"
                )
                for words in _split(line):
                    yield Command(f"{path.name}: {job} step {number}", job, step, tuple(words))


def _split(line: str) -> Iterator[list[str]]:
    """The simple commands of a shell line, apart at `||`, `&&`, `;`, `|` and braces."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    words: list[str] = []
    for token in lexer:
        if token in OPERATORS:
            if words:
                yield words
            words = []
        else:
            words.append(token)
    if words:
        yield words


def every_command() -> list[Command]:
    return [command for path, workflow in workflows().items() for command in commands(path, workflow)]


def pytest_args(file: str, job: str, group: int = 1, splits: int = 1) -> list[str]:
    """The arguments of `job`'s pytest command in `file` for a run here, as shard `group` of `splits`: on
    the example suites (`specs/` in the workflow) and the virtual device (its `--fairy-device` left out)."""
    path = WORKFLOWS / file
    values = {"${{ matrix.group }}": str(group), "${{ strategy.job-total }}": str(splits)}
    found = commands(path, workflows()[path], values)
    (command,) = (c for c in found if c.job == job and c.program == "pytest")
    args = command.args
    at = args.index("--fairy-device")
    del args[at : at + 2]
    return ["example_suites" if arg == "specs/" else arg for arg in args]
