"""The exploration loop: perceive -> identify -> record -> judge -> guard -> decide -> policy -> act.

Each phase returns a value to the loop. The tree and the guard are the run's memory; everything the
brain sees is rebuilt from them each step, so the context stays bounded however long the run is.
"""

from __future__ import annotations

import io
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from PIL import Image

from pytest_fairy.devices.protocol import Device, diagnostics_of
from pytest_fairy.errors import BrainError, DeviceError, HookError, PerceptionError
from pytest_fairy.explore.action import Action, ActionError, ActionKind, perform
from pytest_fairy.explore.decisions import (
    Brain,
    Decision,
    Judgement,
    NoRecordedDecision,
    Outcome,
    OutcomeKind,
    Plan,
    StepContext,
    witness,
)
from pytest_fairy.explore.guard import Escape, GuardLimits, GuardVerdict, LoopGuard, VerdictKind
from pytest_fairy.explore.mission import Mission
from pytest_fairy.explore.oracles import Finding, Observation, defects, done
from pytest_fairy.explore.record import Exploration, StepRecord, StepSink
from pytest_fairy.explore.state import StateId, identify
from pytest_fairy.explore.target import Target
from pytest_fairy.explore.tree import FeatureStatus, FeatureTree, RecordResult, TreeError
from pytest_fairy.explore.verdict import Verdict
from pytest_fairy.perception.perceive import Perception, perceive


@dataclass(frozen=True)
class ExplorerSettings:
    """Named limits of one exploration. Budgets from the spec (steps, wall time) come with the Target."""

    llm_long_edge: int = 1024
    # Real devices need a moment for the UI to settle after an action; the virtual device does not.
    settle_seconds: float = 0.0
    guard: GuardLimits = field(default_factory=GuardLimits)


@dataclass(frozen=True, slots=True)
class _Attempt:
    """An action as it was carried out (or not): what the next step reports as the last outcome."""

    action: str
    key: str
    state: StateId
    denial: str = ""
    error: str = ""


@dataclass(frozen=True, slots=True)
class _End:
    verdict: Verdict
    reason: str
    findings: tuple[Finding, ...] = ()


class Explorer:
    def __init__(
        self,
        device: Device,
        brain: Brain,
        *,
        settings: ExplorerSettings | None = None,
        sinks: Sequence[StepSink] = (),
    ) -> None:
        self.device = device
        self.diagnostics = diagnostics_of(device)
        self.brain = brain
        self.settings = settings or ExplorerSettings()
        self.sinks = list(sinks)

    def explore(self, target: Target, mission: Mission | None = None) -> Exploration:
        mission = mission or Mission()
        run = _Run(target, mission, _tree_for(target), LoopGuard(self.settings.guard))
        end = self._guarded(run)
        story = run.story(end)
        try:
            summary = self.brain.summarize(target, story)
        except BrainError as exc:
            summary = f"{story}\n(the brain could not write a summary: {exc})"
        result = Exploration(
            target=target,
            verdict=end.verdict,
            reason=end.reason,
            plan=run.plan,
            tree=run.tree,
            steps=run.steps,
            summary=summary,
            findings=end.findings,
            escapes=run.escapes,
            usage=self.brain.usage(),
            seconds=time.monotonic() - run.started,
            final_state=run.last_state,
            final_png=_png(run.last_seen.som.full) if run.last_seen is not None else b"",
        )
        for sink in self.sinks:
            sink.finish(result)
        return result

    def _guarded(self, run: _Run) -> _End:
        """Run the loop; a lost device, a failing brain or an unreadable screen ends it inconclusive."""
        try:
            return self._loop(run)
        except DeviceError as exc:
            return _End(Verdict.INCONCLUSIVE, f"device error: {exc}")
        except NoRecordedDecision as exc:
            return _End(Verdict.INCONCLUSIVE, str(exc))
        except BrainError as exc:
            return _End(Verdict.INCONCLUSIVE, f"brain unavailable: {exc}")
        except PerceptionError as exc:
            return _End(Verdict.INCONCLUSIVE, f"could not read the screen: {exc}")
        except HookError as exc:
            return _End(Verdict.INCONCLUSIVE, str(exc))
        finally:
            run.flush(self.sinks, None, "")

    def _loop(self, run: _Run) -> _End:
        target = run.target
        self.device.stop(target.package)
        self.diagnostics.clear_logcat()
        self.device.launch(target.package, target.launch_activity)
        seen = self._perceive()
        run.plan = self.brain.plan(target, seen.screen, seen.som.llm_jpeg)
        for name in run.plan.sub_features:
            run.tree_feature(name)
        run.tree.focus(target.feature)
        for sink in self.sinks:
            sink.start(target, run.plan)
        while True:
            state = identify(seen.screen)
            run.last_seen, run.last_state = seen, state.name
            outcome = run.arrive(state, seen)
            run.flush(self.sinks, state, str(outcome) if outcome else "")
            ctx, end = self._assess(run, seen, state, outcome)
            if end is not None:
                return end
            decision = self._decide(run, ctx)
            if isinstance(decision, _End):
                return decision
            if decision.finished:
                return self._finish(run, ctx)
            run.pending = self._act(run, seen, state, decision, ctx)
            seen = self._perceive()

    def _assess(
        self, run: _Run, seen: Perception, state: StateId, outcome: Outcome | None
    ) -> tuple[StepContext, _End | None]:
        """Judge what is on screen now: defects, done-when oracles, the guard, the budgets."""
        mission, target = run.mission, run.target
        observed = Observation(seen.screen, self.diagnostics.logcat(), state.name)
        findings = defects(mission.must_not, observed, target.package, app_name=target.app_name)
        findings += [finding for check in mission.checks for finding in check(observed)]
        check = done(mission.done_when, observed)
        verdict = run.guard_verdict(state, outcome)
        ctx = StepContext(
            step=run.steps + 1,
            target=target,
            plan=run.plan,
            screen=seen.screen,
            som_jpeg=seen.som.llm_jpeg,
            state=state,
            last=outcome,
            recent_states=run.guard.evidence(),
            tree_summary=run.tree.summary_text(),
            warning=verdict if verdict.kind is not VerdictKind.OK else None,
            unmet_oracles=tuple(check.unmet),
            oracles_met=bool(mission.done_when) and check.holds,
            denial=run.pending_denial,
            last_key=run.attempt.key if run.attempt else "",
        )
        run.oracles_seen = run.oracles_seen or ctx.oracles_met
        if findings:
            return ctx, _End(Verdict.FAILED, "; ".join(f.message for f in findings), tuple(findings))
        if ctx.oracles_met and run.judge_due(state):
            judgement = self.brain.judge(ctx)
            if judgement.findings:
                return ctx, _defect(judgement)
            if judgement.complete:
                return ctx, _End(Verdict.PASSED, judgement.reason)
        if verdict.kind is VerdictKind.STOP:
            return ctx, _End(Verdict.INCONCLUSIVE, f"loop guard stopped the run: {verdict.reason}")
        if run.steps >= target.max_steps:
            return ctx, _End(
                Verdict.INCONCLUSIVE, f"step budget of {target.max_steps} spent before the feature was done"
            )
        if time.monotonic() - run.started > target.wall_seconds:
            return ctx, _End(Verdict.INCONCLUSIVE, f"wall-time budget of {target.wall_seconds:.0f}s spent")
        usage = self.brain.usage()
        if target.token_budget is not None and usage.total_tokens > target.token_budget:
            return ctx, _End(
                Verdict.INCONCLUSIVE, f"token budget of {target.token_budget} spent ({usage.total_tokens})"
            )
        if target.cost_budget is not None and usage.cost_usd > target.cost_budget:
            return ctx, _End(
                Verdict.INCONCLUSIVE,
                f"cost budget of ${target.cost_budget:.2f} spent (${usage.cost_usd:.4f})",
            )
        return ctx, None

    def _decide(self, run: _Run, ctx: StepContext) -> Decision | _End:
        """The brain decides, unless the guard demands an escape from a loop.

        When the brain says the sub-feature it works on is complete and the judge agrees, the
        sub-feature is marked done and a return step (out of the dialog, or back) replaces the action,
        so the next decision starts from where the sub-feature was entered (seed 001).

        The brain is told of the escapes and return steps it did not decide (`witness`), once each.
        """
        if ctx.warning is not None and ctx.warning.kind is VerdictKind.ESCAPE:
            run.escapes += 1
            escape = _escape(ctx.warning, ctx)
            witness(self.brain, ctx, escape)
            return escape
        decision = self.brain.decide(ctx)
        feature = decision.sub_feature
        if feature and feature != run.target.feature:
            run.tree_feature(feature)
        if decision.assessment.is_completed and feature and not decision.finished:
            judgement = self.brain.judge(ctx)
            if judgement.findings:
                return _defect(judgement)
            if judgement.complete:
                run.tree.set_status(feature, FeatureStatus.DONE, judgement.reason)
                way_out = _return_step(ctx, f"'{feature}' is complete ({judgement.reason})")
                witness(self.brain, ctx, way_out)
                return way_out
        return decision

    def _finish(self, run: _Run, ctx: StepContext) -> _End:
        """The brain has nothing left to try: the judge says whether the feature is done."""
        judgement = self.brain.judge(ctx)
        if judgement.findings:
            return _defect(judgement)
        # With done-when oracles, only they can make a pass: a judge's word is not enough.
        if judgement.complete and (not run.mission.done_when or run.oracles_seen):
            return _End(Verdict.PASSED, judgement.reason)
        if run.mission.done_when:
            unmet = "; ".join(ctx.unmet_oracles)
            return _End(
                Verdict.FAILED,
                f"explored the feature to its end ({len(run.tree.states)} screens) but never saw: {unmet}",
                judgement.findings,
            )
        return _End(
            Verdict.INCONCLUSIVE, f"the brain stopped without completing the feature: {judgement.reason}"
        )

    def _act(
        self, run: _Run, seen: Perception, state: StateId, decision: Decision, ctx: StepContext
    ) -> StepRecord:
        action = decision.action
        assert action is not None
        target = run.target
        screen = seen.screen
        words = action.describe(screen)
        key, denial, error = words, "", ""
        reasoning = decision.reasoning
        try:
            key = action.key(screen)
            denial = run.mission.policy.check(action, screen) or ""
            review = run.mission.review if not denial else None  # asked only of what the policy allows
            second = review(action, screen, run.steps + 1) if review is not None else None
            if isinstance(second, str):
                denial = f"vetoed: {second or '(no reason given)'}"
            elif second is not None:
                reasoning += f" (rewritten by a hook: the brain chose {words})"
                action, words = second, second.describe(screen)
                key = action.key(screen)
                denial = run.mission.policy.check(action, screen) or ""  # a rewrite obeys the policy too
            if not denial:
                perform(self.device, action, screen, package=target.package, activity=target.launch_activity)
                if self.settings.settle_seconds:
                    time.sleep(self.settings.settle_seconds)
        except ActionError as exc:
            error = str(exc)
        run.attempt = _Attempt(words, key, state, denial, error)
        run.steps += 1
        return StepRecord(
            step=run.steps,
            state=state.name,
            title=screen.title,
            screen_text=screen.text,
            som_png=_png(seen.som.full),
            action=words,
            reasoning=reasoning,
            expected=decision.expected,
            guard=ctx.warning.kind.value if ctx.warning else "ok",
            guard_reason=ctx.warning.reason if ctx.warning else "",
            denial=denial,
            escape=decision.reasoning.startswith(ESCAPE_PREFIX),
            usage=self.brain.usage(),
            replayed=decision.reasoning.startswith(REPLAY_PREFIX),
        )

    def _perceive(self) -> Perception:
        return perceive(self.device, llm_long_edge=self.settings.llm_long_edge)


ESCAPE_PREFIX = "loop guard escape"
RETURN_PREFIX = "return step"
REPLAY_PREFIX = "replayed"


def _defect(judgement: Judgement) -> _End:
    """The judge saw an app defect and backs it with evidence: the item fails with it."""
    return _End(
        Verdict.FAILED,
        "; ".join(f.message for f in judgement.findings) or judgement.reason,
        judgement.findings,
    )


def _return_step(ctx: StepContext, why: str) -> Decision:
    way_out = ctx.screen.dismiss_mark() if ctx.screen.has_dialog else None
    if way_out is not None:
        return Decision(
            Action(ActionKind.TAP, way_out.number), f"{RETURN_PREFIX}: {why}; close via '{way_out.label}'"
        )
    return Decision(Action(ActionKind.BACK), f"{RETURN_PREFIX}: {why}; go back")


def _tree_for(target: Target) -> FeatureTree:
    tree = FeatureTree()
    tree.add_feature(target.feature)
    for name in target.sub_features:
        tree.add_feature(name, parent=target.feature)
    tree.focus(target.feature)
    return tree


def _png(image: Image.Image) -> bytes:
    """Encode once per step for every sink; level 1 because the run waits for it and disk is cheap."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


def _escape(verdict: GuardVerdict, ctx: StepContext) -> Decision:
    why = f"{ESCAPE_PREFIX}: {verdict.reason}"
    if verdict.escape is Escape.DISMISS_DIALOG:
        way_out = ctx.screen.dismiss_mark()
        if way_out is not None:
            return Decision(
                Action(ActionKind.TAP, way_out.number), f"{why}; close the dialog via '{way_out.label}'"
            )
        return Decision(Action(ActionKind.BACK), f"{why}; the dialog has no close button, press back")
    if verdict.escape is Escape.RESTART:
        return Decision(Action(ActionKind.RESTART), f"{why}; restart the app")
    return Decision(Action(ActionKind.BACK), f"{why}; go back")


class _Run:
    """The bookkeeping of one exploration: its tree, guard, counters and the step awaiting its outcome."""

    def __init__(self, target: Target, mission: Mission, tree: FeatureTree, guard: LoopGuard) -> None:
        self.target = target
        self.mission = mission
        self.tree = tree
        self.guard = guard
        self.plan = Plan(root=target.feature, sub_features=target.sub_features)
        self.started = time.monotonic()
        self.steps = 0
        self.escapes = 0
        self.last_seen: Perception | None = None
        self.last_state = ""
        self.oracles_seen = False
        self.attempt: _Attempt | None = None
        self.pending: StepRecord | None = None
        self.change: RecordResult | None = None
        # Screens (state and content) already judged "not yet" while the done-when oracles held, with
        # how many states were known then: the same screen with nothing new found since gets the same
        # answer (a queued plan can pass one several times), but new ground may change the judge's mind.
        self.judged: set[tuple[str, str, int]] = set()

    def judge_due(self, state: StateId) -> bool:
        """Whether the judge should look at this screen: once per screen and per progress made."""
        screen = (state.key, state.content_hash, len(self.tree.states))
        due = screen not in self.judged
        self.judged.add(screen)
        return due

    def tree_feature(self, name: str) -> None:
        """Focus the tree on sub-feature `name`, adding it under the feature when the brain found it."""
        try:
            self.tree.feature(name)
        except TreeError:
            self.tree.add_feature(name, parent=self.target.feature)
        self.tree.focus(name)

    @property
    def pending_denial(self) -> str:
        return self.attempt.denial if self.attempt else ""

    def arrive(self, state: StateId, seen: Perception) -> Outcome | None:
        """Record the state reached by the last attempt; return what that attempt did."""
        attempt = self.attempt
        self.change = self.tree.record(
            step=self.steps,
            before=attempt.state if attempt else None,
            action=attempt.action if attempt else None,
            after=state,
            title=seen.screen.title,
            is_dialog=seen.screen.has_dialog,
            action_key=attempt.key if attempt else None,
        )
        if attempt is None:
            return None
        if attempt.denial:
            return Outcome(attempt.action, OutcomeKind.DENIED, attempt.denial)
        if attempt.error:
            return Outcome(attempt.action, OutcomeKind.FAILED, attempt.error)
        if self.change.new_state:
            return Outcome(attempt.action, OutcomeKind.NEW_STATE, state.name)
        if state.key != attempt.state.key:
            return Outcome(attempt.action, OutcomeKind.STATE_CHANGED, state.name)
        if self.change.content_changed:
            return Outcome(attempt.action, OutcomeKind.CONTENT_CHANGED)
        return Outcome(attempt.action, OutcomeKind.NO_CHANGE)

    def guard_verdict(self, state: StateId, outcome: Outcome | None) -> GuardVerdict:
        moved = outcome is not None and outcome.kind in (
            OutcomeKind.NEW_STATE,
            OutcomeKind.STATE_CHANGED,
            OutcomeKind.CONTENT_CHANGED,
        )
        change = self.change
        return self.guard.observe(
            step=self.steps,
            state=state,
            action_key=self.attempt.key if self.attempt else None,
            succeeded=outcome is None or moved,
            new_state=bool(change and change.new_state),
            new_transition=bool(change and change.new_transition),
        )

    def flush(self, sinks: Sequence[StepSink], reached: StateId | None, outcome: str) -> None:
        """Hand the pending step, now that its outcome is known, to every sink."""
        if self.pending is None:
            return
        record = self.pending
        self.pending = None
        if reached is not None:
            record = replace(record, reached=reached.name, outcome=outcome)
        for sink in sinks:
            sink.step(record)

    def story(self, end: _End) -> str:
        return (
            f"Verdict: {end.verdict} - {end.reason}\n"
            f"{self.steps} steps, {len(self.tree.states)} states, {len(self.tree.transitions)} transitions, "
            f"{self.escapes} loop escapes.\n{self.tree.summary_text()}"
        )
