"""A defect's reproduction as files a developer acts on: what happened and how to get there again
(`reproduction.txt`), a pytest test on uiautomator2 (`test_reproduce_<feature>.py`) and a Maestro flow
(`<feature>.maestro.yaml`) that replay the way and fail while the defect is there.

The session store writes them beside the item's steps and Allure attaches them. A file that cannot be
written truthfully (a move on a view nothing names, a defect no check can tell) is left out, and the text
says why.
"""

from __future__ import annotations

from dataclasses import replace

from pytest_fairy.explore.action import MASK
from pytest_fairy.explore.reproduction import NO_WAY, Reproduction
from pytest_fairy.report.expectations import Unwritable, expectations
from pytest_fairy.report.export_maestro import flow_file_name, maestro_flow
from pytest_fairy.report.export_pytest import identifier, python_test, reproduction_file_name
from pytest_fairy.report.typed import into_password, run_line
from pytest_fairy.text import one_line

TEXT_FILE = "reproduction.txt"
SHOWN_MASK = MASK.strip("'")  # ••••••
MAX_EVIDENCE_LINES = 20


def exports(reproduction: Reproduction, feature: str) -> dict[str, str]:
    """File name -> text: the reproduction in words, and the runnable files that could be written."""
    reproduction = _masked(reproduction)
    title = f"{feature}: {one_line(reproduction.finding.message)}"
    about = _about(reproduction)
    files: dict[str, str] = {}
    left_out: list[str] = []
    writers = (
        (reproduction_file_name(feature), lambda: python_test(reproduction, feature, title, about)),
        (flow_file_name(identifier(feature)), lambda: maestro_flow(reproduction, f"{title}\n{about}")),
    )
    for name, write in writers:
        if reproduction.way == NO_WAY:
            left_out.append(f"{name} is not written: no way to the defect could be replayed")
            continue
        try:
            files[name] = write()
        except Unwritable as exc:
            left_out.append(f"{name} is not written: {exc}")
    return {TEXT_FILE: _text(reproduction, title, about, list(files), left_out), **files}


def _masked(reproduction: Reproduction) -> Reproduction:
    """The finding with what was typed into password fields masked: a crash message may quote its input
    (`For input string: "..."`)."""
    typed = {m.action.text for m in reproduction.way.moves if into_password(m) and m.action.text}
    finding = reproduction.finding
    message, evidence = finding.message, finding.evidence
    for text in sorted(typed, key=len, reverse=True):
        message, evidence = message.replace(text, SHOWN_MASK), evidence.replace(text, SHOWN_MASK)
    return replace(reproduction, finding=replace(finding, message=message, evidence=evidence))


def _about(reproduction: Reproduction) -> str:
    way = reproduction.way
    where = f"following {way.how}" if way.moves else "on the first screen"
    start = "a fresh launch, the app's data cleared" if reproduction.reset_data else "a fresh launch"
    return f"pytest_fairy {reproduction.figures}, {where}, from {start}."


def _text(reproduction: Reproduction, title: str, about: str, written: list[str], left_out: list[str]) -> str:
    lines = [title, about, "", f"From a fresh launch of {reproduction.package}:"]
    for i, move in enumerate(reproduction.way.moves, start=1):
        lines.append(f"  {i}. {one_line(move.words)}  (on {one_line(move.on_title) or 'the screen'})")
    if reproduction.way == NO_WAY:
        lines.append("  (no way to the defect could be replayed: see the replays below)")
    elif not reproduction.way.moves:
        lines.append("  (no step: the defect shows on the first screen)")
    finding = reproduction.finding
    lines += ["", f"Then: {finding.message}"]
    if finding.evidence:
        evidence = finding.evidence.splitlines()
        lines += [f"  {line}" for line in evidence[:MAX_EVIDENCE_LINES]]
        if len(evidence) > MAX_EVIDENCE_LINES:
            lines.append(f"  ... {len(evidence) - MAX_EVIDENCE_LINES} more lines")
    wanted = expectations(reproduction)
    if wanted.checks:
        lines += ["", "Expected instead: " + "; ".join(str(c) for c in wanted.checks)]
    if reproduction.misses:
        lines += ["", "Replays that did not show it:", *(f"  {miss}" for miss in reproduction.misses)]
    lines += ["", "Files:"]
    for name in written:
        run = (
            run_line(reproduction, f"python -m pytest {name}")
            if name.endswith(".py")
            else f"maestro test {name}"
        )
        lines.append(f"  {name}: {run}")
    lines += [f"  {line}" for line in left_out]
    return "\n".join(lines) + "\n"
