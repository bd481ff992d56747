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
    visits: int = 0  # the visit to `reached` this was (1 = first time there)
    expected: str = ""  # what the model said the screen should show after the action

    def __str__(self) -> str:
        text = f"step {self.step}: {self.action} -> {self.outcome} -> {self.reached}"
        if self.visits > 1:
            text += f" [visit {self.visits}]"
        return f"{text} [{self.note}]" if self.note else text


@dataclass(frozen=True, slots=True)
class Milestone:
    step: int
    text: str
    # A milestone that only says what a transition says ("found new page ..."): left out while that
    # transition is among the recent ones shown, so the history appears once.
    is_transition: bool = False


class RunMemory:
    """What the brain remembers of one exploration: counts, the last K transitions, the last milestones."""

    def __init__(self, limits: ContextLimits) -> None:
        self.limits = limits
        self.reset()

    def reset(self) -> None:
        self.transitions: deque[Transition] = deque(maxlen=self.limits.recent_k)
        # Room for the milestones a recent step already tells, which are not shown while it is recent.
        self.milestones: deque[Milestone] = deque(maxlen=self.limits.max_milestones + self.limits.recent_k)
        self.milestone_count = 0
        self.counts = {kind: 0 for kind in OutcomeKind}
        self.completed: dict[str, int] = {}  # sub-feature -> step the judge confirmed it complete
        self.claimed: set[str] = set()  # sub-features the brain called complete, unconfirmed
        self.current = ""
        self.rate = 0.0
        self._seen_step = 0
        # (step, words) of the last witnessed decision, until the next step shows its outcome.
        self._note: tuple[int, str] | None = None
        # (step, words) of what the model expected its last action to show, until the next step.
        self._expected: tuple[int, str] | None = None

    def observe(self, ctx: StepContext) -> None:
        """Take in what the last action did; a step seen twice (judge, then decide) counts once."""
        if ctx.step <= self._seen_step:
            return
        self._seen_step = ctx.step
        step = ctx.step - 1
        note = self._note[1] if self._note is not None and self._note[0] == step else ""
        expected = self._expected[1] if self._expected is not None and self._expected[0] == step else ""
        self._note = self._expected = None
        last = ctx.last
        if last is None:
            return
        self.counts[last.kind] += 1
        reached = f"{ctx.screen.title} ({ctx.state.name})"
        self.transitions.append(
            Transition(step, last.action, str(last.kind), reached, note, ctx.visits, expected)
        )
        if last.kind is OutcomeKind.NEW_STATE:
            self._milestone(step, f"step {step}: found new page {reached} by {last.action}", transition=True)
        elif last.kind is OutcomeKind.DENIED:
            self._milestone(step, f"step {step}: {last.action} denied ({last.detail})", transition=True)

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
            self._milestone(step, f"step {step}: the judge confirmed sub-feature '{name}' complete")

    def decided(self, decision: Decision, step: int) -> None:
        if decision.expected:
            self._expected = (step, one_line(decision.expected, self.limits.max_note_chars))
        if decision.sub_feature:
            self.current = decision.sub_feature
            self.rate = decision.assessment.completion_rate
        name = decision.sub_feature
        claim = name and decision.assessment.is_completed and decision.origin is not Origin.RETURN
        if claim and name not in self.completed and name not in self.claimed:
            # A claim of the brain's own, written as one: the judge has not confirmed it (seed 004).
            self.claimed.add(name)
            self._milestone(
                step, f"step {step}: you called sub-feature '{name}' complete (the judge has not agreed)"
            )

    def _milestone(self, step: int, text: str, *, transition: bool = False) -> None:
        self.milestone_count += 1
        self.milestones.append(Milestone(step, text, transition))

    def progress(self, step: int, *, sub_features: bool = True) -> str:
        """The run in counts; `sub_features=False` where the plan shows each sub-feature's status."""
        c = self.counts
        moved = c[OutcomeKind.NEW_STATE] + c[OutcomeKind.STATE_CHANGED] + c[OutcomeKind.CONTENT_CHANGED]
        lines = [
            f"{max(0, step - 1)} steps taken: {c[OutcomeKind.NEW_STATE]} new pages found, {moved} actions "
            f"changed something, {c[OutcomeKind.NO_CHANGE]} had no effect, {c[OutcomeKind.FAILED]} failed, "
            f"{c[OutcomeKind.DENIED]} were denied.",
        ]
        if not sub_features:
            return lines[0]
        lines.append("Sub-features the judge confirmed complete: " + listing(list(self.completed)))
        if self.current:
            lines.append(f"Current sub-feature: {self.current} ({self.rate:.0%} explored, last estimate)")
        return "\n".join(lines)

    def milestones_text(self) -> str:
        """The milestones not already told by a recent transition, oldest first."""
        recent = {t.step for t in self.transitions}
        kept = [m for m in self.milestones if not (m.is_transition and m.step in recent)]
        kept = kept[-self.limits.max_milestones :]
        told = sum(1 for m in self.milestones if m.is_transition and m.step in recent)
        hidden = self.milestone_count - len(kept) - told
        lines = [f"({hidden} earlier milestones not shown)"] if hidden else []
        lines += [f"- {m.text}" for m in kept]
        return "\n".join(lines) or NONE

    def transitions_text(self) -> str:
        return "\n".join(f"- {t}" for t in self.transitions) or NONE

    def expectation(self) -> str:
        """What the model expected its last action to show, to set beside what it did; "" if nothing."""
        last = self.transitions[-1] if self.transitions else None
        if last is None or not last.expected or last.step != self._seen_step - 1:
            return ""
        return f"You expected: {last.expected}"

    def sub_feature_status(self, name: str) -> str:
        if name in self.completed:
            return f"{name} (done: the judge confirmed it at step {self.completed[name]})"
        claim = "you called it complete, the judge has not agreed" if name in self.claimed else ""
        if name == self.current:
            return f"{name} (working on it, {self.rate:.0%} explored{', ' + claim if claim else ''})"
        return f"{name} ({claim or 'to do'})"


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
