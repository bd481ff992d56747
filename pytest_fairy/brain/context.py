"""The bounded user message: what the model sees at each stage, built from templates and a small memory.

Each call is a fresh single-turn request, so everything the model knows about the run is in one user
message, and that message must not grow with the step count. It holds the
target, the plan, the current screen (the Set-of-Mark JPEG, downscaled, and the compressed text), the
last outcome, the loop guard's counts and warning, the tree summary - all bounded by the explorer - and
the brain's own `RunMemory` (memory.py): a progress summary in counts, the last `recent_k` transitions
and the last `max_milestones` milestones. Every free text is cut to a named limit (limits.py), so a huge
screen or a chatty tree cannot blow the prompt up either. Steps the brain did not decide - loop-guard
escapes, return steps, replayed decisions - reach the memory through `RunMemory.witnessed`, so its
counts and transitions cover every step, each witnessed one marked with the words it was taken for.

The other half of the brain's memory, the model's queued follow-ups, is `follow_ups.FollowUpQueue`.
"""

from __future__ import annotations

import base64
import io
import re
from collections.abc import Sequence
from functools import cache
from importlib import resources
from string import Template
from typing import Any

from PIL import Image

from pytest_fairy.brain.limits import ContextLimits
from pytest_fairy.brain.memory import NONE, RunMemory, listing
from pytest_fairy.explore.decisions import Plan, StepContext
from pytest_fairy.explore.target import Target
from pytest_fairy.perception.screen import Screen
from pytest_fairy.perception.som import colour_legend
from pytest_fairy.spec.secrets import placeholder
from pytest_fairy.text import cut as text_cut

Block = dict[str, Any]
CUT_MARK = "\n[... cut]"


@cache
def template(name: str) -> Template:
    """A prompt template shipped in pytest_fairy/prompts/NAME.md."""
    path = resources.files("pytest_fairy").joinpath("prompts", f"{name}.md")
    return Template(path.read_text(encoding="utf-8"))


def render(name: str, **values: object) -> str:
    return template(name).substitute({k: str(v) for k, v in values.items()})


def cut(text: str, limit: int) -> str:
    return text_cut(text, limit, CUT_MARK)


class MessageBuilder:
    """Builds the system blocks and each stage's user content (image blocks first, then the text)."""

    def __init__(self, limits: ContextLimits) -> None:
        self.limits = limits

    def system(self, cache_control: dict[str, str] | None) -> list[Block]:
        block: Block = {"type": "text", "text": render("system", mark_colours=colour_legend())}
        if cache_control is not None:
            block["cache_control"] = cache_control
        return [block]

    def plan(self, target: Target, screen: Screen, som_jpeg: bytes = b"") -> list[Block]:
        images = self._images(som_jpeg)
        text = render(
            "plan",
            **self._target(target),
            sub_features=listing(target.sub_features),
            screen_title=screen.title,
            screenshot_note=self._note(images, immediate=False),
            screen_text=cut(screen.text, self.limits.max_screen_chars),
        )
        return [*images, _text(text)]

    def step(self, ctx: StepContext, memory: RunMemory, queue_note: str = "") -> list[Block]:
        images = self._images(ctx.immediate_jpeg, ctx.som_jpeg)
        lim = self.limits
        text = render(
            "step",
            **self._target(ctx.target),
            **self._plan(ctx.plan, memory),
            **self._screen(ctx, images),
            **self._memory(ctx, memory),
            progress=memory.progress(ctx.step, sub_features=False),
            step=ctx.step,
            unmet_oracles=listing(ctx.unmet_oracles),
            last_outcome=str(ctx.last) if ctx.last else "(this is the first step)",
            expectation=memory.expectation(),
            loop_facts=cut(ctx.loop_facts, lim.max_section_chars),
            denial=f"Denied by policy: {ctx.denial}" if ctx.denial else "",
            queue_note=queue_note,
            mark_range=f"[1]..[{len(ctx.screen.marks)}]" if ctx.screen.marks else "none",
        )
        return [*images, _text(text)]

    def judge(self, ctx: StepContext, memory: RunMemory) -> list[Block]:
        images = self._images(ctx.som_jpeg)
        if ctx.oracles_met:
            oracle_status = "all done-when conditions hold on this screen"
        else:
            oracle_status = "not yet seen: " + listing(ctx.unmet_oracles) if ctx.unmet_oracles else NONE
        text = render(
            "judge",
            **self._target(ctx.target),
            **self._screen(ctx, images),
            **self._memory(ctx, memory),
            progress=memory.progress(ctx.step),
            step=ctx.step,
            oracle_status=oracle_status,
        )
        return [*images, _text(text)]

    def summary(self, target: Target, story: str, memory: RunMemory) -> list[Block]:
        text = render(
            "summary",
            **self._target(target),
            sub_features=listing(target.sub_features),
            story=cut(story, self.limits.max_story_chars),
            progress=memory.progress(memory.last_step + 1),
            milestones=memory.milestones_text(),
        )
        return [_text(text)]

    def _target(self, target: Target) -> dict[str, object]:
        return {
            "app_name": target.app_name,
            "package": target.package,
            "description": target.description or NONE,
            "feature": target.feature,
            "goal": target.goal,
            "start": target.start or NONE,
            "done_hints": listing(target.done_hints),
            "max_steps": target.max_steps,
            "secrets": secrets_line(target.secrets),
            "inputs": inputs_line(target.inputs),
        }

    def _plan(self, plan: Plan, memory: RunMemory) -> dict[str, object]:
        """The plan as it stands: each sub-feature with its status, so the plan moves as they complete."""
        steps = "\n".join(f"{i}. {s}" for i, s in enumerate(plan.steps, 1))
        names = dict.fromkeys([*plan.sub_features, *memory.completed, *sorted(memory.claimed)])
        if memory.current and memory.current != plan.root:
            names[memory.current] = None
        return {
            "plan_root": plan.root,
            "plan_sub_features": "".join(f"\n  - {memory.sub_feature_status(n)}" for n in names) or NONE,
            "plan_steps": ("\n" + cut(steps, self.limits.max_section_chars)) if steps else NONE,
        }

    def _screen(self, ctx: StepContext, images: list[Block]) -> dict[str, object]:
        return {
            "screen_title": ctx.screen.title,
            "state_name": ctx.state.name,
            "dialog_note": ", a dialog is open" if ctx.screen.has_dialog else "",
            "screenshot_note": self._note(images, immediate=bool(ctx.immediate_jpeg)),
            "screen_text": cut(ctx.screen.text, self.limits.max_screen_chars),
        }

    def _memory(self, ctx: StepContext, memory: RunMemory) -> dict[str, object]:
        lim = self.limits
        warning = ""
        if ctx.warning is not None:
            w = ctx.warning
            warning = render(
                "warning",
                kind=w.kind.value,
                reason=cut(w.reason, lim.max_section_chars),
                # The guard's evidence is usually the recent-states block the message shows anyway.
                evidence=""
                if w.evidence.strip() == ctx.recent_states.strip()
                else cut(w.evidence, lim.max_section_chars),
            )
        return {
            "milestones": memory.milestones_text(),
            "transitions": memory.transitions_text(),
            "guard_warning": warning,
            "tree_summary": cut(ctx.tree_summary, lim.max_section_chars) or NONE,
        }

    def _note(self, images: list[Block], *, immediate: bool) -> str:
        if not images:
            return render("no_screenshot").strip()
        return render("screenshot_immediate" if immediate and len(images) > 1 else "screenshot").strip()

    def _images(self, *jpegs: bytes) -> list[Block]:
        """Image blocks for the given (non-empty) JPEGs in order, each no larger than the long edge."""
        return [image_block(j, self.limits.image_long_edge, self.limits.jpeg_quality) for j in jpegs if j]


def image_block(jpeg: bytes, long_edge: int, quality: int) -> Block:
    """A base64 JPEG block; downscaled when the explorer sent something larger than the long edge."""
    with Image.open(io.BytesIO(jpeg)) as image:
        if max(image.size) > long_edge:
            scale = long_edge / max(image.size)
            size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
            buffer = io.BytesIO()
            image.convert("RGB").resize(size, Image.Resampling.BILINEAR).save(buffer, "JPEG", quality=quality)
            jpeg = buffer.getvalue()
    data = base64.b64encode(jpeg).decode("ascii")
    return {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": data}}


_BLANK_RUN = re.compile(r"\n{3,}")


def _text(text: str) -> Block:
    """A text block; the blank lines left by empty optional sections are collapsed to one."""
    return {"type": "text", "text": _BLANK_RUN.sub("\n\n", text)}


def secrets_line(names: Sequence[str]) -> str:
    """The Target section's line on the spec's secrets, "" without any: the brain types placeholders."""
    if not names:
        return ""
    shown = ", ".join(f"`{placeholder(n)}`" for n in names)
    return f"\n- Secrets: type {shown} exactly so; the harness types the real values (never guess one)"


def inputs_line(inputs: Sequence[tuple[str, str]]) -> str:
    """The Target section's line on the spec's test data, "" without any: what to type where."""
    if not inputs:
        return ""
    shown = "; ".join(
        f"into '{field}' type `{value}`" if value else f"leave '{field}' empty" for field, value in inputs
    )
    return f"\n- Test data (type exactly this where a field asks for it): {shown}"
