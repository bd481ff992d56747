"""What one exploration leaves behind: a record per step, and the result of the whole run.

Records are plain data, handed to every `StepSink` (session store, Allure, terminal) as the run goes, so a
killed run leaves every completed step on disk.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from pytest_fairy.errors import ArtifactError
from pytest_fairy.explore.decisions import Origin, Plan, Usage
from pytest_fairy.explore.guard import VerdictKind
from pytest_fairy.explore.oracles import Finding
from pytest_fairy.explore.reproduction import Reproduction
from pytest_fairy.explore.screenshot import NO_SCREENSHOT, StepScreenshot
from pytest_fairy.explore.target import Target
from pytest_fairy.explore.tree import FeatureTree
from pytest_fairy.explore.verdict import Verdict


@dataclass(frozen=True, slots=True)
class StepRecord:
    step: int
    state: str
    title: str
    screen_text: str
    action: str | None
    reasoning: str
    expected: str = ""
    reached: str = ""  # the state the action led to, and its screen's title as the feature tree keeps it
    reached_title: str = ""
    outcome: str = ""
    guard: VerdictKind = VerdictKind.OK  # what the loop guard said of this step
    guard_reason: str = ""
    denial: str = ""
    # The decision was the loop guard's escape (even if a review hook then rewrote it).
    escape: bool = False
    usage: Usage = field(default_factory=Usage)
    # The decision came from the decision cache (no LLM call), not from the brain deciding anew (even if
    # a review hook then rewrote it).
    replayed: bool = False
    # Who made the action taken: `Origin.HOOK` when a review hook rewrote the decision. `escape` and
    # `replayed` say what was decided before any rewrite; they stay fields (not properties of `origin`)
    # because the session store writes every field as a key of steps.jsonl, and readers know those keys.
    origin: Origin = Origin.BRAIN
    # How the device carried the action out, when it says (a real device names its typing method).
    device_note: str = ""
    # The Set-of-Mark screenshot of the screen the action was taken on, encoded off the loop (WebP):
    # `screenshot.data()` waits for its bytes. Not a key of steps.jsonl (the store writes a file).
    screenshot: StepScreenshot = NO_SCREENSHOT


@dataclass(frozen=True)
class Exploration:
    target: Target
    verdict: Verdict
    reason: str
    plan: Plan
    tree: FeatureTree
    steps: int
    summary: str
    findings: tuple[Finding, ...] = ()
    escapes: int = 0
    usage: Usage = field(default_factory=Usage)
    seconds: float = 0.0
    # The last screen seen, Set-of-Mark, encoded as the step screenshots are: a crash dialog, the page where
    # a budget ran out.
    final_state: str = ""
    final_screenshot: StepScreenshot = NO_SCREENSHOT
    # An app defect's confirmation: the way replayed, how often it reproduced, the exports written of it.
    reproduction: Reproduction | None = None
    # A failure's: the step whose action showed the defect (0: the first screen); None for other verdicts.
    at_step: int | None = None
    # An inconclusive run's: the device or the brain failed (lost, unavailable), not the exploration.
    infrastructure: bool = False

    def figures(self) -> str:
        """One line for the terminal summary."""
        line = (
            f"{self.steps} steps, {len(self.tree.states)} states, {len(self.tree.transitions)} transitions, "
            f"{self.escapes} loops escaped, {self.seconds:.1f}s"
        )
        if self.usage.calls:
            share = self.usage.cache_read_share
            note = f"; {self.usage.note}" if self.usage.note else ""
            line += (
                f", {self.usage.total_tokens} tokens ({share:.0%} cache reads{note}), "
                f"${self.usage.cost_usd:.4f}"
            )
        return line

    def unkept(self, failure: ArtifactError) -> Exploration:
        """This result when what the run saw could not all be kept (a full disk): inconclusive, saying why
        and how the exploration itself had ended. Never passed: a record that is not kept proves nothing."""
        if self.verdict is Verdict.INCONCLUSIVE and self.reason.startswith(failure.as_reason()):
            return self
        ended = f"the exploration had ended {self.verdict.value}: {self.reason}"
        return replace(
            self, verdict=Verdict.INCONCLUSIVE, reason=f"{failure.as_reason()} ({ended})", at_step=None
        )


class StepSink(Protocol):
    """Something that keeps what the explorer saw: the session store, the Allure reporter, the terminal.

    A sink that writes a step's files off the loop also has `kept()`: it waits until every step told so far
    is written and raises the ArtifactError of one that could not be, so that the result says so before
    any sink is told it (`Explorer`)."""

    def start(self, target: Target, plan: Plan) -> None: ...

    def step(self, record: StepRecord) -> None: ...

    def finish(self, result: Exploration) -> None: ...


def tell_result(sinks: Sequence[StepSink], result: Exploration) -> Exploration:
    """Tell every sink how the run ended, once each has kept its steps, and return the result they were
    told. A sink that could not keep a step, or the result itself (a full disk), makes the result
    inconclusive (`Exploration.unkept`) for itself and for every sink after it: the session store comes
    first, so no record says passed where the item is not."""
    for sink in sinks:
        kept = getattr(sink, "kept", None)
        if kept is not None:
            try:
                kept()
            except ArtifactError as failure:
                result = result.unkept(failure)
    for sink in sinks:
        try:
            sink.finish(result)
        except ArtifactError as failure:
            result = result.unkept(failure)
    return result


class Interrupted(KeyboardInterrupt):
    """The run was asked to stop (Ctrl-C, SIGTERM) during an exploration: its `result`, inconclusive, has
    been told to every sink. A KeyboardInterrupt, so that whoever does not know it stops as on Ctrl-C; the
    plugin reports the item and then stops the session."""

    def __init__(self, result: Exploration) -> None:
        super().__init__(result.reason)
        self.result = result
