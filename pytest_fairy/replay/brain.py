"""The caching brain: replays recorded decisions where the app is unchanged, decides anew where it is not.

It wraps a live brain (or none, for `--fairy-brain replay`) and keeps one recording per feature in the
`DecisionCache`. Modes:

- `RECORD`: every call goes to the live brain; the run is recorded (free, deterministic brains such as
  the offline one are always recorded, never replayed: their own memory must see every step).
- `CACHED`: a call whose step is in the recording is answered from it with no LLM call. While the run
  follows the recording a step is found by position - same state, same visit of it, reached by the same
  action; a step that is not (the app changed there) goes to the live brain, and from then on steps are
  found by screen - same state, same content, same progress of the feature (`lookup.py`) - so the run
  goes back to replaying wherever it reaches a screen the recording knows. The run is recorded anew,
  replayed steps included. A changed spec (the feature's digest) replays nothing. Where the recording says
  the way it went is gone (a recorded action now leads past screens it went through, `way.py`), the item
  ends inconclusive (`WayGone`) rather than the LLM exploring for them; nothing is recorded.
- `STRICT`: replay only, by position; the first miss raises `NoRecordedDecision`, which ends the item
  inconclusive with "no recorded decision for state X". Nothing is written.

Replayed actions are rebuilt on the current screen from the recorded element ref (or, failing that, a
label only one mark has; off the path, by ref and label both); a recorded action whose element is not on
screen is a miss, never a tap at stale coordinates. Replayed decisions have the origin `Origin.REPLAY`
(the step record's `replayed`), and their reasoning starts with "replayed:", which the terminal and the
Allure step show.

The live brain is shown what it did not decide (`witness_plan` / `witness`, when it has them): the
replayed plan and every replayed decision, and the explorer's escapes and return steps passed through.
Replayed judgements are not passed on: a judgement changes nothing a brain remembers, and the step's
context reaches the live brain with the step's decision.

Who made a replayed decision is kept: the recording's `brain` / `model`, or a step's own `by` where it was
replayed from a recording of another maker. `replayed_from` counts the replayed decisions another brain or
model made than this run's, so the run can say that the model it names was not asked for them.
"""

from __future__ import annotations

import logging
import warnings
from collections import Counter
from enum import StrEnum

from pytest_fairy.errors import FairyWarning
from pytest_fairy.explore.decisions import (
    Brain,
    Decision,
    Judgement,
    NoRecordedDecision,
    Plan,
    StepContext,
    Usage,
    witness,
    witness_plan,
)
from pytest_fairy.explore.state import StateIdentifier
from pytest_fairy.explore.target import Target
from pytest_fairy.perception.screen import Screen
from pytest_fairy.replay.cache import CacheError, DecisionCache, now_stamp
from pytest_fairy.replay.lookup import Progress, RecordedSteps, rebuild
from pytest_fairy.replay.recording import (
    RecordedDecision,
    RecordedPlan,
    RecordedStep,
    Recording,
    maker_of,
    recorded_decision,
    story_digest,
    target_digest,
)
from pytest_fairy.replay.way import WayGone, way_gone

log = logging.getLogger(__name__)


class CacheMode(StrEnum):
    RECORD = "record"
    CACHED = "cached"
    STRICT = "strict"


class CacheWarning(FairyWarning):
    """The decision cache could not be used for one item; the run went on without it."""


class CachingBrain:
    def __init__(
        self,
        inner: Brain | None,
        cache: DecisionCache,
        spec: str,
        mode: CacheMode,
        identifier: StateIdentifier | None = None,
    ) -> None:
        """`identifier`: the run's (`ExplorerSettings.identifier`), which tells the first screen's state as
        the explorer tells every later one."""
        if inner is None and mode is not CacheMode.STRICT:
            raise ValueError(f"a {mode} caching brain needs a live brain to decide with")
        self.inner = inner
        self.cache = cache
        self.spec = spec
        self.mode = mode
        self.identifier = identifier or StateIdentifier()
        self.name = inner.name if inner is not None else "replay"
        self.model: str | None = inner.model if inner is not None else None
        self.replayed = 0
        self.decided = 0
        # Replayed decisions made by another brain or model than this one, by their maker.
        self.replayed_from: Counter[str] = Counter()
        # Why the run first left the recording ("" while it follows it): for the report and for tests.
        self.divergence = ""
        self._old: Recording | None = None
        self._steps = RecordedSteps()
        self._new: Recording | None = None
        # Whether the run follows the recorded path (steps found by position), and whether the recording
        # must be written anew (something was decided live).
        self._on_path = True
        self._changed = mode is CacheMode.RECORD
        # Whether a step may be found by screen: not when the plan differs from the recorded one (the
        # recorded decisions work on sub-features this run does not know).
        self._by_screen = False
        self._progress = Progress()
        self._visits: Counter[str] = Counter()
        self._step = -1
        self._here: RecordedStep | None = None
        self._there: RecordedStep | None = None
        # The recorded step whose action was just replayed on its recorded screen (its index), and why the
        # recorded way is gone where that action now leads, if it is (`way.py`).
        self._taken: int | None = None
        self._gone = ""

    def __repr__(self) -> str:
        return f"CachingBrain({self.inner!r}, mode={self.mode.value}, spec={self.spec!r})"

    # -- the Brain protocol ---------------------------------------------------------------------------

    def plan(self, target: Target, screen: Screen, som_jpeg: bytes = b"") -> Plan:
        """A new exploration: load its recording, and replay the plan if the run starts where it did."""
        self._start(target)
        state = self.identifier.identify(screen)
        old = self._old
        plan: Plan | None = None
        if self.mode is not CacheMode.RECORD:
            if old is None:
                self._miss(state.name, f"nothing recorded in {self._where(target)}")
            elif old.target != target_digest(target):
                self._steps = RecordedSteps()  # not one decision of it was made for this feature
                self._miss(state.name, "the feature in the spec changed since it was recorded")
            elif old.plan is None or old.plan.state != state.key:
                started = old.plan.state_name if old.plan else "nothing"
                self._miss(state.name, f"the recording starts on {started}")
            else:
                plan = old.plan.plan
                self._count_replay(maker_of(old))
                self._show_live_plan(target, plan)
        if plan is None:
            plan = self._live_brain().plan(target, screen, som_jpeg)
            self.decided += 1
        recorded = old.plan.plan if old is not None and old.plan is not None else None
        self._by_screen = recorded is not None and (recorded.root, recorded.sub_features) == (
            plan.root,
            plan.sub_features,
        )
        assert self._new is not None
        self._new.plan = RecordedPlan(state.key, state.name, plan)
        return plan

    def decide(self, ctx: StepContext) -> Decision:
        here = self._enter(ctx)
        there = self._there
        if self.mode is not CacheMode.RECORD:
            if there is None or there.decision is None:
                self._stop_if_gone(there)
                self._miss(ctx.state.name, self._unknown(ctx))
            else:
                replayed = self._replay(there.decision, ctx)
                if replayed is not None:
                    here.decision = there.decision
                    self._replayed_step(here, there)
                    self._show_live(ctx, replayed)
                    self._progress.decided(replayed, ctx.target.feature)
                    self._taken = self._steps.number(there)
                    return replayed
        decision = self._live_brain().decide(ctx)
        self.decided += 1
        here.decision = recorded_decision(decision, ctx.screen)
        self._progress.decided(decision, ctx.target.feature)
        return decision

    def judge(self, ctx: StepContext) -> Judgement:
        here = self._enter(ctx)
        there = self._there
        if self.mode is not CacheMode.RECORD:
            done = len(here.judgements)
            if there is None or done >= len(there.judgements):
                self._stop_if_gone(there)
                self._miss(ctx.state.name, self._unknown(ctx, what="judgement"))
            else:
                judgement = there.judgements[done]
                here.judgements.append(judgement)
                self._replayed_step(here, there)
                return judgement
        judgement = self._live_brain().judge(ctx)
        self.decided += 1
        here.judgements.append(judgement)
        return judgement

    def summarize(self, target: Target, story: str) -> str:
        """The recorded summary for the very same story; else the live brain's. Then save the recording."""
        if self._new is None:  # the run ended before it could plan (the device failed at launch)
            return self.inner.summarize(target, story) if self.inner is not None else story
        digest = story_digest(story)
        old = self._old
        try:
            # The very same story: the same summary, whether or not some step was decided live.
            same = old is not None and bool(old.summary) and old.summary_story == digest
            if self.mode is not CacheMode.RECORD and same and old is not None:
                text = old.summary
                self._count_replay(maker_of(old))
            elif self._gone:
                text = f"Replay of '{target.feature}' stopped: {self._gone}.\n{story}"
            elif self.inner is None:
                text = (
                    f"Replayed run of '{target.feature}' (no summary was recorded for this outcome).\n{story}"
                )
            else:
                self._changed = True
                text = self.inner.summarize(target, story)
                self.decided += 1
            self._new.summary_story, self._new.summary = digest, text
            return text
        finally:
            self._save()

    def usage(self) -> Usage:
        return self.inner.usage() if self.inner is not None else Usage()

    @property
    def maker(self) -> str:
        """Who this run's decisions are made by: the model, else the brain's name."""
        return self.model or self.name

    def provenance(self) -> str:
        """What this run replayed that another brain or model made: `4 decisions replayed, made by
        'offline', not by 'claude-opus-5-5'`. Empty when nothing was, and in strict replay (none asked)."""
        if self.mode is CacheMode.STRICT or not self.replayed_from:
            return ""
        makers = ", ".join(f"'{maker}'" for maker in sorted(self.replayed_from))
        count = sum(self.replayed_from.values())
        return f"{count} decision{'s' if count > 1 else ''} replayed, made by {makers}, not by '{self.maker}'"

    # -- what was decided elsewhere, passed on to the live brain ----------------------------------------

    def witness_plan(self, target: Target, plan: Plan) -> None:
        """A plan made outside this brain (an outer cache replayed it) reaches the live brain too."""
        self._show_live_plan(target, plan)

    def witness(self, ctx: StepContext, decision: Decision) -> None:
        """The explorer's escapes and return steps go to the live brain as they are. They are not recorded:
        the explorer takes them again on replay, and counting them as visits would change the keys of
        the steps after them. A return step tells the feature's progress that a sub-feature is done."""
        self._progress.witnessed(decision)
        self._show_live(ctx, decision)

    def _show_live_plan(self, target: Target, plan: Plan) -> None:
        if self.inner is not None:
            witness_plan(self.inner, target, plan)

    def _show_live(self, ctx: StepContext, decision: Decision) -> None:
        """The live brain sees every step, replayed ones too: when the run leaves the recording, it
        decides with a memory of the whole path, not from the first changed screen on."""
        if self.inner is not None:
            witness(self.inner, ctx, decision)

    # -- bookkeeping ----------------------------------------------------------------------------------

    def _start(self, target: Target) -> None:
        self._old, self._steps = None, RecordedSteps()
        self._on_path, self._changed, self._by_screen = True, self.mode is CacheMode.RECORD, False
        self._progress = Progress()
        self._visits.clear()
        self._step, self._here, self._there = -1, None, None
        self._taken, self._gone = None, ""
        self.divergence = ""
        self._new = Recording(
            spec=self.spec,
            feature=target.feature,
            target=target_digest(target),
            brain=self.name,
            model=self.model,
            recorded=now_stamp(),
        )
        if self.mode is not CacheMode.RECORD:
            loaded = self.cache.load(self.spec, target.feature)
            if loaded.recording is None and loaded.notes and self.mode is CacheMode.STRICT:
                raise NoRecordedDecision(f"cannot replay '{target.feature}': {'; '.join(loaded.notes)}")
            for note in loaded.notes:
                warnings.warn(CacheWarning(f"decision cache: {note}"), stacklevel=3)
            self._old = loaded.recording
        if self._old is not None:
            self._steps = RecordedSteps(self._old)

    def _enter(self, ctx: StepContext) -> RecordedStep:
        """The recorded step of `ctx` (created on its first call), and the old one it may replay."""
        if ctx.step != self._step or self._here is None:
            assert self._new is not None, "decide() / judge() before plan()"
            key = ctx.state.key
            visit = self._visits[key]
            self._visits[key] += 1
            self._step = ctx.step
            self._progress.saw(ctx.unmet_oracles, ctx.oracles_met)
            self._here = RecordedStep(
                key, visit, ctx.last_key, ctx.state.name, ctx.screen.title, ctx.step,
                content=ctx.state.content_hash, progress=self._progress.digest(),
            )  # fmt: skip
            self._new.steps.append(self._here)
            self._there = self._find(self._here)
            if self._there is None and self._taken is not None:
                self._gone = way_gone(self._steps.steps, self._taken, self._here)
            self._taken = None
        return self._here

    def _find(self, here: RecordedStep) -> RecordedStep | None:
        """The recorded step `here` may replay: by position while the run follows the recording; once it
        has left it (a miss, or a position the recording does not have), by screen (`lookup`). Strict
        replay finds by position only: its first miss ends the item anyway."""
        if self.mode is CacheMode.RECORD:
            return None
        there = self._steps.at(here.key) if self._on_path else None
        if there is None and self.mode is CacheMode.CACHED:
            self._on_path = False
            if self._by_screen:
                there = self._steps.like(here.key, here.content, here.progress)
        return there

    def _replayed_step(self, here: RecordedStep, there: RecordedStep) -> None:
        """A decision or judgement of `there` replayed at `here`: who made it goes with it."""
        assert self._old is not None
        maker = there.by or maker_of(self._old)
        here.by = "" if maker == self.maker else maker
        self._count_replay(maker)

    def _count_replay(self, maker: str) -> None:
        self.replayed += 1
        if maker != self.maker:
            self.replayed_from[maker] += 1

    def _replay(self, recorded: RecordedDecision, ctx: StepContext) -> Decision | None:
        """`recorded` on the current screen; None (a miss) when it does not fit it. Off the path the element
        must keep its recorded ref and label both."""
        chars = None if self._on_path else self.identifier.long_text_chars
        rebuilt = rebuild(recorded, ctx.screen, identity_chars=chars)
        if isinstance(rebuilt, str):
            self._miss(ctx.state.name, rebuilt)
            return None
        return rebuilt

    def _stop_if_gone(self, there: RecordedStep | None) -> None:
        """No recorded decision here, and the recording says the way it went is gone: end the item, saying
        so, rather than ask the LLM to explore for screens the build no longer has."""
        if there is None and self._gone:
            self.divergence = self.divergence or self._gone
            raise WayGone(self._gone)

    def _miss(self, state_name: str, why: str) -> None:
        """Leave the recorded path: strict replay ends here; cached replay decides this call live, finds
        the next steps by screen, and records the run anew."""
        message = f"no recorded decision for state {state_name}: {why}"
        if self.mode is CacheMode.STRICT:
            raise NoRecordedDecision(message)
        log.info("deciding live in %s: %s", self.spec, message)
        self.divergence = self.divergence or message
        self._on_path = False
        self._changed = True

    def _unknown(self, ctx: StepContext, what: str = "decision") -> str:
        if not self._on_path:
            return f"no {what} recorded for this screen with the feature as far as it is now"
        after = f"after '{ctx.last_key}'" if ctx.last_key else "at the start"
        visit = self._here.visit + 1 if self._here else 1
        return f"no {what} recorded for visit {visit} of this state {after}"

    def _live_brain(self) -> Brain:
        assert self.inner is not None, "strict replay never decides live"
        return self.inner

    def _where(self, target: Target) -> str:
        return str(self.cache.item_folder(self.spec, target.feature))

    def _save(self) -> None:
        # A run that replayed everything leaves the file as it was (a committed cache stays clean); one
        # that could not even plan (the LLM was down) has nothing worth replacing it with.
        if self.mode is CacheMode.STRICT or not self._changed or self._new is None or self._new.plan is None:
            return
        try:
            self.cache.save(self._new)
        except CacheError as exc:
            warnings.warn(CacheWarning(f"decisions not recorded: {exc}"), stacklevel=3)
