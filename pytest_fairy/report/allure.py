"""The Allure reporter: a timeline of exploration steps, the feature tree, the summary, labels, environment.

It is a StepSink like the session store; the plugin adds it only when allure-pytest is writing results
(`--alluredir`), so a run without Allure does not pay for it.

Each exploration step becomes an Allure step titled with the action in words and the state it reached
(`3. tap [7] 预约送餐 → 菜单 [state_menu_e960fb61]`), holding the step's Set-of-Mark screenshot, the
reasoning and the loop guard's warning. A step is written once, when the explorer hands it over with
where it led; `finish` knows the verdict and marks the step that showed an app defect (its action led to
the defect on screen, or it is the evidence of a done-when never seen) as failed. `where_shown` words the
same step for the failure message, so the message leads to the step.

A step's screenshot is registered in its Allure step at once and written into the results folder from the
encoder's thread when its bytes are there (a hard link to the session store's file where it can be);
`finish` waits for them, and under `retain-on-failure` takes a passed item's screenshots out again.
"""

from __future__ import annotations

import mimetypes
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import allure
from allure_commons.types import AttachmentType

from pytest_fairy.devices.protocol import Device
from pytest_fairy.errors import ArtifactError
from pytest_fairy.explore.decisions import Plan
from pytest_fairy.explore.guard import VerdictKind
from pytest_fairy.explore.record import Exploration, StepRecord
from pytest_fairy.explore.target import Target
from pytest_fairy.explore.verdict import Verdict
from pytest_fairy.report.allure_adapter import (
    AllureAttachment,
    close_step,
    fail_step,
    new_attachment,
    open_step,
    step_attachments,
    step_result,
)
from pytest_fairy.report.allure_environment import AllureEnvironment, ReportLimits, device_facts
from pytest_fairy.report.exports import exports
from pytest_fairy.report.policy import ArtifactPolicy
from pytest_fairy.report.progress_chart import ProgressTally, progress_png
from pytest_fairy.report.screenshots import place
from pytest_fairy.report.tree_picture import tree_png
from pytest_fairy.text import one_line

# The item's chart of states found, loops escaped and cost over the steps (`progress_chart`).
PROGRESS_CHART = "progress over the steps"


def step_title(record: StepRecord) -> str:
    """The step in words: `3. tap [7] 预约送餐 → 菜单 [state_menu_e960fb61]`, flagged when guarded."""
    title = _heading(record.step, record.action, record.reached, record.reached_title)
    if record.denial:
        title += " (denied by the risk policy)"
    if record.escape:
        title += " (loop-guard escape)"
    elif record.guard != VerdictKind.OK:
        title += f" (loop guard: {record.guard})"
    return title


def _heading(step: int, action: str | None, reached: str, reached_title: str) -> str:
    heading = f"{step}. {action or 'observe'}"
    if reached:
        heading += f" → {reached_title} [{reached}]" if reached_title else f" → {reached}"
    return heading


def screenshot_name(step: int, screen_title: str) -> str:
    return f"step {step} screenshot: {screen_title}" if screen_title else f"step {step} screenshot"


def where_shown(result: Exploration) -> str:
    """Which report step shows the verdict, for the failure message: names the Allure step.

    A failure's is the step whose action showed the defect (`Exploration.at_step`: for a done-when never
    seen, the evidence step, often long before the end); any other verdict's is the last step. That step
    (titled as `step_title` titles it, less the loop guard's flags) and its screenshot are where to look,
    named from the feature tree, which knows the transition's action and the reached state's name and title.
    """
    tree = result.tree
    seen = "seen" if result.verdict is Verdict.FAILED else "the run ended"
    # Steps after the last screen recorded (the device stopped answering, or the phone locked itself).
    unread = f"{seen} after step {result.steps}, before the screen it led to was recorded"
    if not tree.transitions:
        return unread if result.steps else "seen on the app's first screen, before any step"
    at = next((t for t in tree.transitions if t.step == result.at_step), None)
    last = at or tree.transitions[-1]
    reached = tree.states[last.to_key]
    shown = f"see the report step '{_heading(last.step, last.action, reached.name, reached.title)}'"
    if at is None and result.steps > last.step:
        return f"{unread}; the last screen reached: {shown}"
    return f"{seen} after step {last.step}: {shown}"


@dataclass(frozen=True, slots=True)
class Attachment:
    """One more file in a report step: `body` text or bytes, `mime` its type (text/plain, image/png...)."""

    name: str
    body: bytes | str
    mime: str = "text/plain"


class AllureSink:
    def __init__(
        self,
        *,
        spec_name: str = "",
        environment: AllureEnvironment | None = None,
        device: Device | None = None,
        limits: ReportLimits | None = None,
        attachments: Callable[[StepRecord], Iterable[Attachment]] | None = None,
        results: Path | None = None,
        policy: ArtifactPolicy = ArtifactPolicy.ON,
    ) -> None:
        """`results`: the alluredir, where step screenshots are written (linked) off the loop; without it
        they are attached through allure-pytest once encoded. `policy`: which step screenshots stay."""
        self.spec_name = spec_name
        self.results = results
        self.policy = policy
        self._screenshots: list[_Written] = []
        self._failed: ArtifactError | None = None
        self.attachments = attachments
        self.environment = environment
        self.device = device
        self.limits = limits or ReportLimits()
        self._steps: dict[int, object] = {}  # allure-pytest's record of each step written, by step number
        self._progress = ProgressTally()  # the chart's few numbers per step, drawn at finish

    def start(self, target: Target, plan: Plan) -> None:
        allure.dynamic.title(target.feature)
        allure.dynamic.description(_description(target, plan))
        # Behaviors groups by epic / feature: app, feature. story repeats the feature, as it did before
        # feature was the feature, so filters and dashboards on story keep working.
        allure.dynamic.epic(target.app_name)
        allure.dynamic.feature(target.feature)
        allure.dynamic.story(target.feature)
        allure.dynamic.parent_suite(target.app_name)
        if self.spec_name:
            allure.dynamic.suite(self.spec_name)
        # Not "package": allure-pytest uses that label for the Python module path.
        allure.dynamic.label("app_package", target.package)
        if self.environment is not None and self.device is not None:
            self.environment.add(device_facts(self.device, target))

    def step(self, record: StepRecord) -> None:
        self._progress.add(record)
        title = step_title(record)
        uuid = open_step(title, self._parameters(record))
        step = step_result(uuid)
        if step is not None:
            self._steps[record.step] = step
        try:
            self._attach(record, step)
        finally:
            close_step(uuid, title, None)

    def kept(self) -> None:
        """Until every step screenshot is in the results folder; raises the failure of one that is not."""
        for written in self._screenshots:
            written.done.wait()
        if self._failed is not None:
            raise self._failed

    def finish(self, result: Exploration) -> None:
        shown = self._steps.get(result.at_step) if result.at_step is not None else None
        if result.verdict is Verdict.FAILED and shown is not None:
            fail_step(shown, AssertionError(result.reason))
        for written in self._screenshots:
            written.done.wait()
        keep = self.policy.keeps(passed=result.verdict is Verdict.PASSED)
        if not keep:  # retain-on-failure, and the item passed
            for written in self._screenshots:
                written.attachments.remove(written.attachment)
                written.path.unlink(missing_ok=True)
        allure.dynamic.description(_description(result.target, result.plan) + "\n\n" + _outcome_text(result))
        final = result.final_screenshot
        if keep and self.policy.writes() and final.data():
            # What the run ended on: the crash or ANR dialog, the page where a budget ran out.
            name = f"final screen ({result.verdict.value}): {result.final_state}"
            allure.attach(
                final.data(), name=name, attachment_type=final.format.mime, extension=final.format.extension
            )
        allure.attach(tree_png(result), name="feature tree", attachment_type=AttachmentType.PNG)
        chart = progress_png(self._progress.figures, result)
        if chart:  # else a ChartWarning said why; the verdict stands
            allure.attach(chart, name=PROGRESS_CHART, attachment_type=AttachmentType.PNG)
        allure.attach(result.tree.to_json(), name="feature tree (json)", attachment_type=AttachmentType.JSON)
        allure.attach(result.summary, name="summary", attachment_type=AttachmentType.TEXT)
        for finding in result.findings:
            allure.attach(
                finding.evidence or finding.message,
                name=f"finding: {finding.kind}",
                attachment_type=AttachmentType.TEXT,
            )
        if result.reproduction is not None:
            for name, text in exports(result.reproduction, result.target.feature).items():
                allure.attach(text, name=name, attachment_type=_export_type(name), extension=_extension(name))
        # Figures, excluded from Allure's history id: they change from run to run of the same item.
        figures: dict[str, int | float] = {
            "steps": result.steps,
            "states": len(result.tree.states),
            "loop escapes": result.escapes,
            "LLM calls": result.usage.calls,
        }
        if result.usage.calls:
            figures |= {"tokens": result.usage.total_tokens, "cost usd": round(result.usage.cost_usd, 4)}
        add_figures(figures)
        if self._failed is not None:
            raise self._failed

    def _attach(self, record: StepRecord, step: object | None) -> None:
        """The open step's screenshot, decision, loop guard's word and screen text."""
        self._attach_screenshot(record, step)
        allure.attach(
            _decision_text(record), name=f"step {record.step} decision", attachment_type=AttachmentType.TEXT
        )
        if record.guard != VerdictKind.OK:
            allure.attach(
                record.guard_reason,
                name=f"step {record.step} loop guard: {record.guard}",
                attachment_type=AttachmentType.TEXT,
            )
        allure.attach(
            record.screen_text, name=f"step {record.step} screen text", attachment_type=AttachmentType.TEXT
        )
        for extra in self.attachments(record) if self.attachments else ():
            extension = (mimetypes.guess_extension(extra.mime) or ".bin").lstrip(".")
            allure.attach(extra.body, name=extra.name, attachment_type=extra.mime, extension=extension)

    def _attach_screenshot(self, record: StepRecord, step: object | None) -> None:
        """The step's screenshot in its open Allure step, its file written when the encoder is done."""
        shot = record.screenshot
        if not self.policy.writes() or (shot.done() and not shot.data()):
            return
        name = screenshot_name(record.step, record.title)
        kind = shot.format
        attachments = step_attachments(step)
        if self.results is None or attachments is None:  # not allure-pytest's run: through its public API
            allure.attach(shot.data(), name=name, attachment_type=kind.mime, extension=kind.extension)
            return
        attachment = new_attachment(name, kind.mime, kind.extension)
        attachments.append(attachment)
        written = _Written(attachments, attachment, self.results / attachment.source)
        self._screenshots.append(written)
        shot.when_ready(lambda _: self._write_screenshot(record, written))

    def _write_screenshot(self, record: StepRecord, written: _Written) -> None:
        try:
            place(record.screenshot, written.path)
        except ArtifactError as exc:
            self._failed = self._failed or exc
        except Exception as exc:  # the encoder failed: the attachment cannot be written
            self._failed = self._failed or ArtifactError(
                written.path, f"the screenshot could not be encoded: {exc}"
            )
        finally:
            written.done.set()

    def _parameters(self, record: StepRecord) -> dict[str, str]:
        shown = {
            "why": record.reasoning,
            "expected": record.expected,
            "outcome": record.outcome,
            "loop guard": f"{record.guard}: {record.guard_reason}" if record.guard != VerdictKind.OK else "",
            "risk policy": record.denial,
            "device": record.device_note,  # how it typed, a reconnect
        }
        if record.usage.calls:
            shown["tokens so far"] = str(record.usage.total_tokens)
        return {name: one_line(value, self.limits.parameter_chars) for name, value in shown.items() if value}


def add_figures(figures: Mapping[str, int | float]) -> None:
    """An item's figures as Allure parameters, excluded from its history id: they change from run to run of
    the same item. Also for figures the reporter does not know itself (the decisions replayed from the
    decision cache, which the caching brain counts)."""
    for name, value in figures.items():
        allure.dynamic.parameter(name, value, excluded=True)


@dataclass
class _Written:
    """A step screenshot attached to an Allure step: the step's list, the entry in it, its file."""

    attachments: list[AllureAttachment]
    attachment: AllureAttachment
    path: Path
    done: threading.Event = field(default_factory=threading.Event)


def _description(target: Target, plan: Plan) -> str:
    lines = [f"**Goal:** {target.goal}", f"**App:** {target.app_name} (`{target.package}`)"]
    if target.start:
        lines.append(f"**Start:** {target.start}")
    if plan.sub_features:
        lines.append("**Sub-features:** " + ", ".join(plan.sub_features))
    return "\n\n".join(lines)


def _outcome_text(result: Exploration) -> str:
    lines = [
        f"**Verdict:** {result.verdict.value}: {result.reason}",
        f"**Where:** {where_shown(result)}",
        f"**Figures:** {result.figures()}",
    ]
    if result.usage.calls:
        lines.append(
            f"**LLM:** {result.usage.calls} calls, {result.usage.total_tokens} tokens "
            f"({result.usage.cache_read_share:.0%} cache reads), ${result.usage.cost_usd:.4f}"
        )
    # The summary is plain text with its own line breaks: a code block keeps them (Markdown would not).
    fence = "~~~~"
    lines.append(f"**Summary:**\n\n{fence}text\n{result.summary.replace(fence, '~~~')}\n{fence}")
    return "\n\n".join(lines)


def _decision_text(record: StepRecord) -> str:
    lines = [
        f"state: {record.state} ({record.title})",
        f"action: {record.action or '-'}",
        f"why: {record.reasoning}",
    ]
    if record.expected:
        lines.append(f"expected: {record.expected}")
    if record.outcome:
        lines.append(f"outcome: {record.outcome}")
    if record.reached:
        lines.append(f"reached: {record.reached}")
    if record.denial:
        lines.append(f"policy: {record.denial}")
    if record.device_note:
        lines.append(f"device: {record.device_note}")
    return "\n".join(lines)


def _export_type(name: str) -> str:
    """Shown as text in the report (Allure offers a download of any attachment)."""
    if name.endswith(".py"):
        return "text/x-python"
    return "text/yaml" if name.endswith(".yaml") else "text/plain"


def _extension(name: str) -> str:
    return "maestro.yaml" if name.endswith(".maestro.yaml") else name.rsplit(".", 1)[-1]
