"""The Allure reporter: one Allure step per exploration step, the feature tree, the summary, labels.

It is a StepSink like the session store; the plugin adds it only when allure-pytest is writing results
(`--alluredir`), so a run without Allure does not pay for it.
"""

from __future__ import annotations

import allure
from allure_commons.types import AttachmentType

from pytest_fairy.brain.base import Plan
from pytest_fairy.brain.pricing import cache_read_share
from pytest_fairy.record import Exploration, StepRecord
from pytest_fairy.target import Target


class AllureSink:
    def __init__(self, *, spec_name: str = "", tags: tuple[str, ...] = ()) -> None:
        self.spec_name = spec_name
        self.tags = tags

    def start(self, target: Target, plan: Plan) -> None:
        allure.dynamic.title(target.feature)
        allure.dynamic.description(_description(target, plan))
        # Behaviors groups by epic / feature / story: app, app, feature.
        allure.dynamic.epic(target.app_name)
        allure.dynamic.feature(target.app_name)
        allure.dynamic.story(target.feature)
        allure.dynamic.parent_suite(target.app_name)
        if self.spec_name:
            allure.dynamic.suite(self.spec_name)
        allure.dynamic.label("package", target.package)

    def step(self, record: StepRecord) -> None:
        with allure.step(record.heading):
            allure.attach(
                record.som_png, name=f"step {record.step}: {record.title}", attachment_type=AttachmentType.PNG
            )
            allure.attach(_step_text(record), name="decision", attachment_type=AttachmentType.TEXT)
            if record.guard != "ok":
                allure.attach(
                    record.guard_reason,
                    name=f"loop guard: {record.guard}",
                    attachment_type=AttachmentType.TEXT,
                )
            allure.attach(record.screen_text, name="screen (compressed)", attachment_type=AttachmentType.TEXT)

    def finish(self, result: Exploration) -> None:
        allure.attach(result.tree_png, name="feature tree", attachment_type=AttachmentType.PNG)
        allure.attach(result.tree.to_json(), name="feature tree (json)", attachment_type=AttachmentType.JSON)
        allure.attach(result.summary, name="summary", attachment_type=AttachmentType.TEXT)
        for finding in result.findings:
            allure.attach(
                finding.evidence or finding.message,
                name=f"finding: {finding.kind}",
                attachment_type=AttachmentType.TEXT,
            )
        allure.dynamic.parameter("verdict", result.verdict.value)
        allure.dynamic.parameter("steps", result.steps)
        allure.dynamic.parameter("states", len(result.tree.states))
        if result.usage.calls:
            allure.dynamic.parameter("tokens", result.usage.total_tokens)
            allure.dynamic.parameter("cost_usd", f"{result.usage.cost_usd:.4f}")
            allure.dynamic.parameter("cache_read_share", f"{cache_read_share(result.usage):.0%}")


def _description(target: Target, plan: Plan) -> str:
    lines = [f"**Goal:** {target.goal}", f"**App:** {target.app_name} (`{target.package}`)"]
    if target.start:
        lines.append(f"**Start:** {target.start}")
    if plan.sub_features:
        lines.append("**Sub-features:** " + ", ".join(plan.sub_features))
    return "\n\n".join(lines)


def _step_text(record: StepRecord) -> str:
    lines = [
        f"state: {record.state} ({record.title})",
        f"action: {record.action or '-'}",
        f"why: {record.reasoning}",
    ]
    if record.expected:
        lines.append(f"expected: {record.expected}")
    if record.outcome:
        lines.append(f"outcome: {record.outcome}")
    if record.denial:
        lines.append(f"policy: {record.denial}")
    return "\n".join(lines)
