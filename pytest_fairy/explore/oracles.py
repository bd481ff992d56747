"""The oracles: whether a feature is done, and which app defects are on screen or in the log.

Pure functions of an `Observation` (the screen, the log since the app was launched, the state name);
no device access. Crashes and ANRs are always looked for, whatever the spec says: a feature that
crashes the app is never "done". `must_not` adds conditions on top; `done_when` says when to stop.

What "on screen" means for text conditions: the visible views of every layer except the keyboard and
the system bars (an IME's "发送" key is not the app's send button), and the toasts shown with the screen
(never in a dump, yet how many apps say "网络异常"). Views under a dialog still count: the page is there,
only covered.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from pytest_fairy.perception.hierarchy import Node
from pytest_fairy.perception.layers import LayerKind
from pytest_fairy.perception.screen import Screen
from pytest_fairy.spec.model import BARE_KINDS, Oracle, OracleKind

MAX_EVIDENCE_LINES = 20  # of a crash / ANR log block, or of log lines matching a pattern
MAX_EVIDENCE_ITEMS = 5  # views named as evidence for a text condition
MAX_BLOCKS_PER_KIND = 3  # crash (or ANR) blocks reported from one log
BLOCK_SCAN_LINES = 200  # how far after "FATAL EXCEPTION" / "ANR in" the block's own lines are looked for
CHECK_ANCESTOR_DEPTH = 2  # a label's checked state may live on its row, up to this many levels up

IGNORED_LAYERS = frozenset({LayerKind.KEYBOARD, LayerKind.SYSTEM_UI, LayerKind.DECOR})
CRASH_DIALOG_WORDS = ("has stopped", "keeps stopping", "停止运行", "已停止")
ANR_DIALOG_WORDS = ("isn't responding", "is not responding", "没有响应", "无响应", "未响应")

_CRASH_PROCESS = re.compile(r"Process: ([\w.]+(?::[\w.]+)?)")
_ANR_PROCESS = re.compile(r"ANR in ([\w.]+(?::[\w.]+)?)")
_NATIVE_CRASH = re.compile(r"Fatal signal \d+.*\bpid \d+ \(([^)]*)\)")
_LOG_PREFIX = re.compile(r"^.*?\b(?:AndroidRuntime|ActivityManager)\s*(?:\(\s*\d+\))?:\s?")


@dataclass(frozen=True, slots=True)
class Observation:
    """What the explorer sees at one step: the screen, the app's log so far, the state's name. The built-in
    oracles read the log from `log_from` on (what they have not read at an earlier step, with a margin):
    a long run's log is not scanned whole at every step."""

    screen: Screen
    logcat: str = ""
    state_name: str = ""
    log_from: int = 0

    @property
    def new_log(self) -> str:
        return self.logcat[self.log_from :]


@dataclass(frozen=True, slots=True)
class OracleCheck:
    holds: bool
    unmet: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Finding:
    """An app defect: `kind` is crash, anr or the must_not condition's kind; `evidence` is the excerpt."""

    kind: str
    message: str
    evidence: str = ""


@dataclass(frozen=True, slots=True)
class _Result:
    holds: bool
    evidence: str = ""


def done(oracles: Sequence[Oracle], obs: Observation) -> OracleCheck:
    """Whether every done-when condition holds on this one screen (vacuously true with none)."""
    unmet = []
    for oracle in oracles:
        result = evaluate(oracle, obs)
        if not result.holds:
            unmet.append(f"{oracle} ({result.evidence})" if result.evidence else str(oracle))
    return OracleCheck(holds=not unmet, unmet=unmet)


def defects(
    must_not: Sequence[Oracle], obs: Observation, package: str, *, app_name: str | None = None
) -> list[Finding]:
    """Crashes and ANRs of `package` (always), then every `must_not` condition that holds.

    `app_name`, when given, must appear in a system crash / ANR dialog for it to count as this app's
    (the dialog names the app by its label, not its package); without it any such dialog counts.
    """
    findings = [*crashes(obs, package, app_name), *anrs(obs, package, app_name)]
    for oracle in must_not:
        if oracle.kind in BARE_KINDS:
            continue  # always checked above
        result = evaluate(oracle, obs)
        if result.holds:
            findings.append(Finding(oracle.kind.value, f"must_not condition seen: {oracle}", result.evidence))
    return findings


def evaluate(oracle: Oracle, obs: Observation) -> _Result:
    """Whether one condition holds now, with what shows it (or, when it does not, what was there)."""
    screen, value = obs.screen, oracle.value
    match oracle.kind:
        case OracleKind.VISIBLE:
            return _visible(screen, value)
        case OracleKind.NOT_VISIBLE:
            seen = _visible(screen, value)
            return _Result(not seen.holds, seen.evidence)
        case OracleKind.ACTIVITY:
            current = screen.activity or "unknown"
            return _Result(activity_matches(value, screen.activity, screen.package), f"activity is {current}")
        case OracleKind.STATE:
            return _Result(obs.state_name.startswith(value), f"state is {obs.state_name or 'unknown'}")
        case OracleKind.CHECKED:
            return _checked(screen, value)
        case OracleKind.TEXT_MATCHES:
            return _text_matches(screen, re.compile(value))
        case OracleKind.LOGCAT_MATCHES:
            pattern = re.compile(value)
            lines = [line for line in obs.new_log.splitlines() if pattern.search(line)]
            return _Result(bool(lines), "\n".join(lines[:MAX_EVIDENCE_LINES]))
        case OracleKind.CRASH:
            found = crashes(obs, obs.screen.package)
            return _Result(bool(found), "\n".join(f.evidence for f in found))
        case OracleKind.ANR:
            found = anrs(obs, obs.screen.package)
            return _Result(bool(found), "\n".join(f.evidence for f in found))
        case OracleKind.LOSE_SCREENS:
            # Not a property of one screen: pytest_fairy.replay.regression checks it against the baseline.
            return _Result(False, "checked against the baseline when the run ends")


# ------------------------------------------------------------------------------------- screen conditions


def screen_nodes(screen: Screen) -> Iterator[Node]:
    """The visible views text conditions look at (module doc)."""
    for layer in screen.layers:
        if layer.kind not in IGNORED_LAYERS:
            yield from (node for node in layer.nodes() if node.visible)


def _names(nodes: Sequence[Node]) -> str:
    shown = [repr(node.text or node.content_desc) for node in nodes[:MAX_EVIDENCE_ITEMS]]
    more = len(nodes) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def _with_toasts(toasts: list[str], nodes: list[Node]) -> str:
    """Toasts first (they go away), then the views: the evidence of a text condition."""
    shown = ", ".join(f"toast {toast!r}" for toast in toasts)
    return f"{shown}, {_names(nodes)}" if nodes else shown


def _visible(screen: Screen, text: str) -> _Result:
    wanted = text.strip().casefold()
    found = [
        node
        for node in screen_nodes(screen)
        if wanted in node.text.casefold() or wanted in node.content_desc.casefold()
    ]
    toasts = [toast for toast in screen.toasts if wanted in toast.casefold()]
    if toasts:
        return _Result(True, f"on screen: {_with_toasts(toasts, found)}")
    return _Result(bool(found), f"on screen: {_names(found)}" if found else f"no view shows {text!r}")


def _text_matches(screen: Screen, pattern: re.Pattern[str]) -> _Result:
    found = [
        node
        for node in screen_nodes(screen)
        if pattern.search(node.text) or pattern.search(node.content_desc)
    ]
    toasts = [toast for toast in screen.toasts if pattern.search(toast)]
    if toasts:
        return _Result(True, f"matching: {_with_toasts(toasts, found)}")
    if found:
        return _Result(True, f"matching: {_names(found)}")
    return _Result(False, f"no view matches /{pattern.pattern}/")


def _is_on(node: Node) -> bool:
    return node.checked or node.selected


def _checked(screen: Screen, text: str) -> _Result:
    """A view labelled `text` is checked (or selected): itself, its row, or an unlabelled box beside it."""
    wanted = text.strip().casefold()
    labelled = [n for n in screen_nodes(screen) if wanted in (n.text or n.content_desc).casefold()]
    if not labelled:
        return _Result(False, f"no view shows {text!r}")
    for node in labelled:
        candidates = [node]
        ancestor = node.parent
        for _ in range(CHECK_ANCESTOR_DEPTH):
            if ancestor is None:
                break
            candidates.append(ancestor)
            ancestor = ancestor.parent
        # A bare check box beside the label (or inside its row) is its box; a labelled one is another option.
        neighbours = [*(node.parent.children if node.parent else []), *node.iter()]
        candidates += [n for n in neighbours if n.checkable and not (n.text or n.content_desc)]
        if any(_is_on(candidate) for candidate in candidates):
            return _Result(True, f"{text!r} is checked")
    return _Result(False, f"{text!r} is on screen but not checked")


def activity_matches(wanted: str, current: str, package: str) -> bool:
    """`.CartActivity` matches any activity class named CartActivity under a package ending so;
    `CartActivity` matches the class name; a full name must match exactly. `current` may be
    `pkg/.Act`, `.Act` (relative to `package`) or fully qualified."""
    if not current:
        return False
    if "/" in current:
        package, current = current.split("/", 1)

    def full(name: str) -> str:
        return package + name if name.startswith(".") else name

    current_full = full(current)
    if wanted.startswith("."):
        return current_full.endswith(wanted)
    if "." not in wanted:
        return current_full.rsplit(".", 1)[-1] == wanted
    return current_full == wanted


# ---------------------------------------------------------------------------------------- crash and ANR


def _belongs(process: str, package: str) -> bool:
    # Apps may run extra processes named `package:name`; a crash there is the app's crash too.
    return process == package or process.startswith(package + ":")


def _block(lines: list[str], start: int, tag: str, opener: str) -> list[str]:
    """The log lines of one crash / ANR report: `tag` lines after `start`, up to the next report."""
    block = [lines[start]]
    for line in lines[start + 1 : start + BLOCK_SCAN_LINES]:
        if opener in line or len(block) >= MAX_EVIDENCE_LINES:
            break
        if tag in line:
            block.append(line)
    return block


def _message(line: str) -> str:
    return _LOG_PREFIX.sub("", line).strip()


def _dialog_findings(screen: Screen, words: Sequence[str], who: Sequence[str], kind: str) -> list[Finding]:
    for layer in screen.layers:
        if layer.kind is not LayerKind.SYSTEM_DIALOG:
            continue
        texts = [node.text or node.content_desc for node in layer.nodes() if node.text or node.content_desc]
        joined = " | ".join(texts)
        folded = joined.casefold()
        if any(word in folded for word in words) and (not who or any(w.casefold() in folded for w in who)):
            what = "crashed" if kind == "crash" else "is not responding (ANR)"
            return [Finding(kind, f"app {what}: system dialog says {texts[0]!r}", joined)]
    return []


def crashes(obs: Observation, package: str, app_name: str | None = None) -> list[Finding]:
    """The app's crashes: Java `FATAL EXCEPTION` blocks and native fatal signals of its process in the
    log; without any, a system "has stopped" dialog."""
    lines = obs.new_log.splitlines()
    found: list[Finding] = []
    for i, line in enumerate(lines):
        if len(found) >= MAX_BLOCKS_PER_KIND:
            break
        if "FATAL EXCEPTION" in line:
            block = _block(lines, i, "AndroidRuntime", "FATAL EXCEPTION")
            process = next((m.group(1) for m in map(_CRASH_PROCESS.search, block) if m), "")
            if not _belongs(process, package):
                continue
            body = [b for b in block[1:] if not _CRASH_PROCESS.search(b)]
            cause = next((text for text in map(_message, body) if text), "no exception line in the log")
            found.append(Finding("crash", f"app crashed: {cause}", "\n".join(block)))
        elif (native := _NATIVE_CRASH.search(line)) is not None:
            # Older Androids cut the process name in this line to its last 15 characters.
            name = native.group(1)
            if name and (_belongs(name, package) or package.endswith(name)):
                found.append(Finding("crash", f"app crashed natively: {_message(line)}", line))
    if found:
        return found
    return _dialog_findings(obs.screen, CRASH_DIALOG_WORDS, [app_name, package] if app_name else [], "crash")


def anrs(obs: Observation, package: str, app_name: str | None = None) -> list[Finding]:
    """The app's ANRs: `ANR in PKG` reports in the log; without any, an "isn't responding" dialog."""
    lines = obs.new_log.splitlines()
    found: list[Finding] = []
    for i, line in enumerate(lines):
        match = _ANR_PROCESS.search(line)
        if match is None or not _belongs(match.group(1), package):
            continue
        block = _block(lines, i, "ActivityManager", "ANR in")
        reason = next((_message(b) for b in block if "Reason:" in b), _message(line))
        found.append(Finding("anr", f"app not responding (ANR): {reason}", "\n".join(block)))
        if len(found) >= MAX_BLOCKS_PER_KIND:
            break
    if found:
        return found
    return _dialog_findings(obs.screen, ANR_DIALOG_WORDS, [app_name, package] if app_name else [], "anr")
