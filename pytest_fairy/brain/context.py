"""The bounded user message: what the model sees at each stage, built from templates and a small memory.

Each call is a fresh single-turn request, so everything the model knows about the run is in one user
message, and that message must not grow with the step count (seed 003's Markov context). It holds the
target, the plan, the current screen (the Set-of-Mark JPEG, downscaled, and the compressed text), the
last outcome, the guard's recent states and warning, the tree summary - all bounded by the explorer - and
the brain's own `RunMemory`: a progress summary in counts, the last `recent_k` transitions and the last
`max_milestones` milestones. Every free text is cut to a named limit, so a huge screen or a chatty tree
cannot blow the prompt up either. Steps the brain did not decide - loop-guard escapes, return steps,
replayed decisions - reach the memory through `RunMemory.witnessed`, so its counts and transitions
cover every step, each witnessed one marked with the words it was taken for.

The other half of the brain's memory, the model's queued follow-ups, is `follow_ups.FollowUpQueue`.
"""

from __future__ import annotations

import base64
import io
import re
from collections import deque
from dataclasses import dataclass
from functools import cache
from importlib import resources
from string import Template
from typing import Any

from PIL import Image

from pytest_fairy.explore.decisions import Decision, Origin, OutcomeKind, Plan, StepContext
from pytest_fairy.explore.target import Target
from pytest_fairy.perception.screen import Screen
from pytest_fairy.perception.som import colour_legend

Block = dict[str, Any]
NONE = "(none)"
CUT_MARK = "\n[... cut]"


@dataclass(frozen=True, slots=True)
class ContextLimits:
    """How much of each part of the run goes into one message."""

    recent_k: int = 6  # the last K transitions shown verbatim
    max_milestones: int = 8
    image_long_edge: int = 1024
    jpeg_quality: int = 80
    max_screen_chars: int = 6000
    max_section_chars: int = 2000  # recent states, tree summary, plan steps, guard evidence
    max_story_chars: int = 8000  # the explorer's story handed to the summary
    max_note_chars: int = 240  # the words of a step the brain did not decide, beside its transition

    def __post_init__(self) -> None:
        positive = (
            "recent_k",
            "max_milestones",
            "image_long_edge",
            "max_screen_chars",
            "max_section_chars",
            "max_note_chars",
        )
        for name in positive:
            if getattr(self, name) <= 0:
                raise ValueError(f"ContextLimits.{name} must be positive, got {getattr(self, name)}")


@cache
def template(name: str) -> Template:
    """A prompt template shipped in pytest_fairy/prompts/NAME.md."""
    path = resources.files("pytest_fairy").joinpath("prompts", f"{name}.md")
    return Template(path.read_text(encoding="utf-8"))


def render(name: str, **values: object) -> str:
    return template(name).substitute({k: str(v) for k, v in values.items()})


def cut(text: str, limit: int) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[: max(0, limit - len(CUT_MARK))] + CUT_MARK


def listing(items: tuple[str, ...] | list[str]) -> str:
    return ", ".join(items) if items else NONE


def one_line(text: str, limit: int) -> str:
    """`text` on one line, cut to `limit` characters with an ellipsis."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: max(0, limit - 3)] + "..."


@dataclass(frozen=True, slots=True)
class Transition:
    step: int
    action: str
    outcome: str
    reached: str
    # Why the action was taken when the brain did not decide it ("loop guard escape: ...", "replayed:
    # ..."): the model must not read an escape as its own choice.
    note: str = ""

    def __str__(self) -> str:
        text = f"step {self.step}: {self.action} -> {self.outcome} -> {self.reached}"
        return f"{text} [{self.note}]" if self.note else text


class RunMemory:
    """What the brain remembers of one exploration: counts, the last K transitions, the last milestones."""

    def __init__(self, limits: ContextLimits) -> None:
        self.limits = limits
        self.reset()

    def reset(self) -> None:
        self.transitions: deque[Transition] = deque(maxlen=self.limits.recent_k)
        self.milestones: deque[str] = deque(maxlen=self.limits.max_milestones)
        self.milestone_count = 0
        self.counts = {kind: 0 for kind in OutcomeKind}
        self.completed: dict[str, int] = {}  # sub-feature -> step the judge confirmed it complete
        self.claimed: set[str] = set()  # sub-features the brain called complete, unconfirmed
        self.current = ""
        self.rate = 0.0
        self._seen_step = 0
        # (step, words) of the last witnessed decision, until the next step shows its outcome.
        self._note: tuple[int, str] | None = None

    def observe(self, ctx: StepContext) -> None:
        """Take in what the last action did; a step seen twice (judge, then decide) counts once."""
        if ctx.step <= self._seen_step:
            return
        self._seen_step = ctx.step
        note = self._note[1] if self._note is not None and self._note[0] == ctx.step - 1 else ""
        self._note = None
        last = ctx.last
        if last is None:
            return
        self.counts[last.kind] += 1
        reached = f"{ctx.screen.title} ({ctx.state.name})"
        self.transitions.append(Transition(ctx.step - 1, last.action, str(last.kind), reached, note))
        if last.kind is OutcomeKind.NEW_STATE:
            self._milestone(f"step {ctx.step - 1}: found new page {reached} by {last.action}")
        elif last.kind is OutcomeKind.DENIED:
            self._milestone(f"step {ctx.step - 1}: {last.action} denied ({last.detail})")

    @property
    def last_step(self) -> int:
        return self._seen_step

    def witnessed(self, decision: Decision, step: int) -> None:
        """A step decided elsewhere (an escape, a return step, a replayed decision): its words go with
        its transition, seen at the next step; its sub-feature and assessment count as the brain's own.
        The caller has observed the step's context first, as `decide` does."""
        if decision.reasoning:
            self._note = (step, one_line(decision.reasoning, self.limits.max_note_chars))
        self.decided(decision, step)
        name = decision.sub_feature
        if decision.origin is Origin.RETURN and name and name not in self.completed:
            # The explorer returns from a sub-feature only after the judge confirmed it complete.
            if len(self.completed) < self.limits.max_milestones:
                self.completed[name] = step
            self._milestone(f"step {step}: the judge confirmed sub-feature '{name}' complete")

    def decided(self, decision: Decision, step: int) -> None:
        if decision.sub_feature:
            self.current = decision.sub_feature
            self.rate = decision.assessment.completion_rate
        name = decision.sub_feature
        claim = name and decision.assessment.is_completed and decision.origin is not Origin.RETURN
        if claim and name not in self.completed and name not in self.claimed:
            # A claim of the brain's own, written as one: the judge has not confirmed it (seed 004).
            self.claimed.add(name)
            self._milestone(
                f"step {step}: you called sub-feature '{name}' complete (the judge has not agreed)"
            )

    def _milestone(self, text: str) -> None:
        self.milestone_count += 1
        self.milestones.append(text)

    def progress(self, step: int) -> str:
        c = self.counts
        moved = c[OutcomeKind.NEW_STATE] + c[OutcomeKind.STATE_CHANGED] + c[OutcomeKind.CONTENT_CHANGED]
        lines = [
            f"{max(0, step - 1)} steps taken: {c[OutcomeKind.NEW_STATE]} new pages found, {moved} actions "
            f"changed something, {c[OutcomeKind.NO_CHANGE]} had no effect, {c[OutcomeKind.FAILED]} failed, "
            f"{c[OutcomeKind.DENIED]} were denied.",
            "Sub-features the judge confirmed complete: " + listing(list(self.completed)),
        ]
        if self.current:
            lines.append(f"Current sub-feature: {self.current} ({self.rate:.0%} explored, last estimate)")
        return "\n".join(lines)

    def milestones_text(self) -> str:
        if not self.milestones:
            return NONE
        hidden = self.milestone_count - len(self.milestones)
        lines = [f"({hidden} earlier milestones not shown)"] if hidden else []
        return "\n".join([*lines, *(f"- {m}" for m in self.milestones)])

    def transitions_text(self) -> str:
        return "\n".join(f"- {t}" for t in self.transitions) or NONE


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
            **self._plan(ctx.plan),
            **self._screen(ctx, images),
            **self._memory(ctx, memory),
            step=ctx.step,
            unmet_oracles=listing(ctx.unmet_oracles),
            current_sub_feature=memory.current or ctx.plan.root,
            last_outcome=str(ctx.last) if ctx.last else "(this is the first step)",
            denial=f"Denied by policy: {ctx.denial}" if ctx.denial else "",
            queue_note=queue_note,
            recent_states=cut(ctx.recent_states, lim.max_section_chars) or NONE,
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
        }

    def _plan(self, plan: Plan) -> dict[str, object]:
        steps = "\n".join(f"{i}. {s}" for i, s in enumerate(plan.steps, 1))
        return {
            "plan_root": plan.root,
            "plan_sub_features": listing(plan.sub_features),
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
            "progress": memory.progress(ctx.step),
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
