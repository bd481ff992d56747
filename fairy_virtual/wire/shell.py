"""A small `/system/bin/sh`: words, quotes, `$?` / `$VAR`, `;` `&&` `||` `|` chains, and command dispatch.

Enough for what adb clients send: adbutils' `shell2` appends `; echo X4EXIT:$?` to read the exit code,
its `dump_hierarchy` sends `rm -f F; uiautomator dump F && echo success`, u2 starts its server with
`CLASSPATH=... app_process ...`. Command substitution, redirection and background jobs are refused with
a syntax error (exit 2) rather than run wrongly.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from fairy_virtual.wire.filesystem import FileSystemError
from fairy_virtual.wire.system import AndroidSystem
from pytest_fairy.errors import DeviceError, FairyError

SHELL = "/system/bin/sh"
NOT_FOUND_EXIT = 127
SYNTAX_ERROR_EXIT = 2
_OPERATORS = ("&&", "||", ";", "|", "\n")
_UNSUPPORTED = {
    "`": "command substitution",
    "<": "redirection",
    ">": "redirection",
    "&": "background jobs",
    "(": "subshells",
    ")": "subshells",
}
_VARIABLE = re.compile(r"\$(\?|[A-Za-z_][A-Za-z0-9_]*|\{[A-Za-z_][A-Za-z0-9_]*\})")
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")


class ShellSyntaxError(FairyError):
    pass


@dataclass(frozen=True, slots=True)
class Word:
    """One shell word as parts: (text, expand) where expand says `$` substitutions apply."""

    parts: tuple[tuple[str, bool], ...]

    def expand(self, variables: Callable[[str], str]) -> str:
        return "".join(
            _VARIABLE.sub(lambda m: variables(m.group(1).strip("{}")), text) if expand else text
            for text, expand in self.parts
        )

    @property
    def raw(self) -> str:
        return "".join(text for text, _ in self.parts)


Token = Word | str  # a word, or one of _OPERATORS


def tokenize(line: str) -> list[Token]:
    tokens: list[Token] = []
    parts: list[tuple[str, bool]] = []
    current: list[str] = []
    in_word = False
    i = 0

    def flush_text(expand: bool = True) -> None:
        if current:
            parts.append(("".join(current), expand))
            current.clear()

    def end_word() -> None:
        nonlocal in_word
        flush_text()
        if in_word:
            tokens.append(Word(tuple(parts)))
            parts.clear()
        in_word = False

    while i < len(line):
        ch = line[i]
        if ch in " \t":
            end_word()
            i += 1
        elif op := next((op for op in _OPERATORS if line.startswith(op, i)), None):
            end_word()
            tokens.append(op)
            i += len(op)
        elif ch in _UNSUPPORTED or line.startswith("$(", i):
            what = "command substitution" if ch == "$" else _UNSUPPORTED[ch]
            raise ShellSyntaxError(f"{what} ({line[i : i + 2]!r}) is not supported by the virtual device")
        elif ch == "'":
            end = line.find("'", i + 1)
            if end < 0:
                raise ShellSyntaxError("unterminated single quote")
            flush_text()
            parts.append((line[i + 1 : end], False))
            in_word, i = True, end + 1
        elif ch == '"':
            flush_text()
            i, quoted = _double_quoted(line, i + 1)
            parts.extend(quoted)
            in_word = True
        elif ch == "\\":
            flush_text()
            if i + 1 < len(line) and line[i + 1] != "\n":
                parts.append((line[i + 1], False))
            in_word, i = True, i + 2
        else:
            current.append(ch)
            in_word, i = True, i + 1
    end_word()
    return tokens


def _double_quoted(line: str, i: int) -> tuple[int, list[tuple[str, bool]]]:
    """The parts of a double-quoted string starting after its quote; escaped characters are literal."""
    parts: list[tuple[str, bool]] = []
    text: list[str] = []
    while i < len(line):
        ch = line[i]
        if ch == '"':
            return i + 1, [*parts, ("".join(text), True)]
        if ch == "`" or line.startswith("$(", i):
            raise ShellSyntaxError("command substitution is not supported by the virtual device")
        if ch == "\\" and i + 1 < len(line) and line[i + 1] in '"\\$`':
            parts += [("".join(text), True), (line[i + 1], False)]
            text.clear()
            i += 2
            continue
        text.append(ch)
        i += 1
    raise ShellSyntaxError("unterminated double quote")


def _constant(data: bytes) -> Callable[[], bytes]:
    return lambda: data


@dataclass(slots=True)
class Invocation:
    """What a command sees: its arguments, environment, stdin and output sinks."""

    system: AndroidSystem
    args: list[str]
    env: dict[str, str]
    stdin: Callable[[], bytes]
    out: Callable[[bytes], None]
    err: Callable[[bytes], None]
    hangup: threading.Event

    @property
    def name(self) -> str:
        return self.args[0]

    def print(self, text: str = "", end: str = "\n") -> None:
        self.out((text + end).encode())

    def error(self, text: str) -> None:
        self.err((text + "\n").encode())


Command = Callable[[Invocation], int]


@dataclass
class Shell:
    """Runs command lines against one `AndroidSystem` with a table of commands."""

    system: AndroidSystem
    commands: dict[str, Command]
    hangup: threading.Event
    variables: dict[str, str] = field(default_factory=dict)
    status: int = 0

    def run(
        self,
        line: str,
        out: Callable[[bytes], None],
        err: Callable[[bytes], None],
        stdin: Callable[[], bytes] = lambda: b"",
    ) -> int:
        try:
            tokens = tokenize(line)
        except ShellSyntaxError as exc:
            err(f"{SHELL}: syntax error: {exc}\n".encode())
            return SYNTAX_ERROR_EXIT
        if tokens and tokens[-1] in ("&&", "||", "|"):
            err(f"{SHELL}: syntax error: unexpected end of line after {tokens[-1]!r}\n".encode())
            return SYNTAX_ERROR_EXIT
        pipelines: list[tuple[list[list[Word]], str]] = []
        pipeline: list[list[Word]] = [[]]
        for token in [*tokens, ";"]:
            if isinstance(token, Word):
                pipeline[-1].append(token)
                continue
            if not pipeline[-1] and (len(pipeline) > 1 or token in ("&&", "||", "|")):
                err(f"{SHELL}: syntax error: {token!r} unexpected\n".encode())
                return SYNTAX_ERROR_EXIT
            if token == "|":
                pipeline.append([])
            else:
                if pipeline[-1]:
                    pipelines.append((pipeline, token))
                pipeline = [[]]
        skip = False
        for stages, separator in pipelines:
            if self.hangup.is_set():
                break
            if not skip:
                self.status = self._pipeline(stages, out, err, stdin)
            skip = (separator == "&&" and self.status != 0) or (separator == "||" and self.status == 0)
        return self.status

    def _pipeline(
        self,
        stages: list[list[Word]],
        out: Callable[[bytes], None],
        err: Callable[[bytes], None],
        stdin: Callable[[], bytes],
    ) -> int:
        status = 0
        for position, words in enumerate(stages):
            last = position == len(stages) - 1
            sink = bytearray()
            status = self._simple(words, out if last else sink.extend, err, stdin)
            stdin = _constant(bytes(sink))
        return status

    def _variable(self, name: str) -> str:
        if name == "?":
            return str(self.status)
        return self.variables.get(name, "")

    def _simple(
        self,
        words: list[Word],
        out: Callable[[bytes], None],
        err: Callable[[bytes], None],
        stdin: Callable[[], bytes],
    ) -> int:
        env: dict[str, str] = {}
        while words and _ASSIGNMENT.match(words[0].raw):
            name, _, value = words[0].expand(self._variable).partition("=")
            env[name] = value
            words = words[1:]
        args = [w.expand(self._variable) for w in words]
        if not args:
            self.variables.update(env)
            return 0
        command = self.commands.get(args[0].rsplit("/", 1)[-1])
        if command is None:
            err(f"{SHELL}: {args[0]}: inaccessible or not found\n".encode())
            return NOT_FOUND_EXIT
        invocation = Invocation(self.system, args, {**self.variables, **env}, stdin, out, err, self.hangup)
        try:
            return command(invocation)
        except DeviceError as exc:
            invocation.error(f"{args[0]}: {exc.reason}")
        except FileSystemError as exc:
            invocation.error(f"{args[0]}: {exc.path}: {exc.reason}")
        return 1
