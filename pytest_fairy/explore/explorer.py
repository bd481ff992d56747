"""The exploration loop: perceive -> identify -> record -> oracles -> guard -> judge -> limits -> decide ->
policy -> act.

Each phase returns a value to the loop (`pytest_fairy.explore.step`). The run's memory is its tree, its
guard and its budget (`pytest_fairy.explore.run.Run`); everything the brain sees is rebuilt from them each
step, so the context stays bounded however long the run is. Phases that ask the device or the brain live
here; the others beside the loop, where they can be tested without either.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from pytest_fairy.devices.events import still_running
from pytest_fairy.devices.protocol import (
    Device,
    Diagnostics,
    diagnostics_of,
    settle_after_action,
)
from pytest_fairy.errors import BrainError, FairyError, UsageError
from pytest_fairy.explore.action import ActionError, perform
from pytest_fairy.explore.budget import Budget, BudgetLimits, Clock
from pytest_fairy.explore.confirm import Confirmer
from pytest_fairy.explore.decisions import (
    ESCAPE_PREFIX,
    REPLAY_PREFIX,
    RETURN_PREFIX,
    Brain,
    Decision,
    Origin,
    StepContext,
    witness,
)
from pytest_fairy.explore.families import FAMILY_LIMIT, Families
from pytest_fairy.explore.guard import GuardLimits, LoopGuard, VerdictKind
from pytest_fairy.explore.keyguard import unlocked
from pytest_fairy.explore.launch import Launcher, resets_data
from pytest_fairy.explore.login import Login
from pytest_fairy.explore.mission import Mission
from pytest_fairy.explore.oracles import Observation
from pytest_fairy.explore.recognize import Recognizer
from pytest_fairy.explore.record import Exploration, Interrupted, StepRecord, StepSink, tell_result
from pytest_fairy.explore.reproduction import Move, Proof, Reproduction
from pytest_fairy.explore.run import Run
from pytest_fairy.explore.screenshot import NO_SCREENSHOT, ScreenshotEncoder
from pytest_fairy.explore.state import StateIdentifier
from pytest_fairy.explore.step import (
    Arrival,
    Attempt,
    Choice,
    Course,
    Ending,
    Reading,
    broken,
    choose,
    defect,
    escape_from,
    interruption,
    noted,
    read_oracles,
    return_step,
    take_note,
)
from pytest_fairy.explore.target import Target
from pytest_fairy.explore.tree import FeatureStatus
from pytest_fairy.explore.verdict import Verdict
from pytest_fairy.perception.perceive import Perception, perceive
from pytest_fairy.spec.secrets import NO_SECRETS, Secrets

# The reasoning prefixes stay importable from here.
__all__ = ["ESCAPE_PREFIX", "REPLAY_PREFIX", "RETURN_PREFIX", "Explorer", "ExplorerSettings", "Mission"]

# The long edge in pixels of the screenshot an LLM sees (`fairy_llm_long_edge`), and the least that still
# shows a phone's text legibly.
DEFAULT_LLM_LONG_EDGE = 1024
MIN_LLM_LONG_EDGE = 256


@dataclass(frozen=True)
class ExplorerSettings:
    """Named limits of one exploration. Budgets from the spec (steps, wall time) come with the Target."""

    llm_long_edge: int = DEFAULT_LLM_LONG_EDGE
    # Real devices need a moment for the UI to settle after an action; the virtual device does not.
    settle_seconds: float = 0.0
    guard: GuardLimits = field(default_factory=GuardLimits)
    # How a screen's state is told: dynamic text, long text, hash length (explore/state.py).
    identifier: StateIdentifier = field(default_factory=StateIdentifier)
    # Pages of one layout kept apart as states before the rest fold into the first (explore/families.py).
    family_limit: int = FAMILY_LIMIT
    # Replays of an app defect's way from a fresh launch before the item fails on it (--fairy-confirm);
    # 0 fails on what the run saw once.
    confirm: int = 1


class Explorer:
    """Explores one feature at a time on `device`, as `brain` decides, telling `sinks` of every step.

    Holds no state of a run: each `explore` builds its own memory (`Run`), so one explorer serves the
    features of a spec one after another (the plugin's fixture swaps its `brain` between items)."""

    def __init__(
        self,
        device: Device,
        brain: Brain,
        *,
        settings: ExplorerSettings | None = None,
        sinks: Sequence[StepSink] = (),
        diagnostics: Diagnostics | None = None,
        clock: Clock = time.monotonic,
        screenshots: ScreenshotEncoder | None = None,
        login: Login | None = None,
        secrets: Secrets | None = None,
    ) -> None:
        """`diagnostics` default to the device's own (the app's log for crash and ANR oracles); `clock`
        times the wall-time budget and the result (a test may pass a fake one); `screenshots` encodes the
        step screenshots off the loop (default: WebP on one background thread); `login` signs in before
        each item whose first screen is not signed in; `secrets` (default: the login's) are typed by
        placeholder and masked in everything read back from the device."""
        self.device = device
        self.diagnostics = diagnostics if diagnostics is not None else diagnostics_of(device)
        self.brain = brain
        self.settings = settings or ExplorerSettings()
        self.sinks = list(sinks)
        self.clock = clock
        self.screenshots = screenshots or ScreenshotEncoder()
        self.secrets = secrets or (login.secrets if login is not None else NO_SECRETS)
        self.launcher = Launcher(self.device, self.diagnostics, self._perceive, login, self._sign_in)

    def explore(self, target: Target, mission: Mission | None = None) -> Exploration:
        mission = mission or Mission()
        budget = Budget.start(BudgetLimits.of(target), self.clock)
        recognizer = Recognizer(self.settings.identifier, Families(self.settings.family_limit))
        run = Run(target, mission, LoopGuard(self.settings.guard), budget, recognizer)
        ending, course = self._loop(run)
        ending, reproduction = self._confirm(run, ending)
        story = run.story(ending, course)
        try:
            summary = story if ending.interrupted else self.brain.summarize(target, story)
        except BrainError as exc:
            summary = f"{story}\n(the brain could not write a summary: {exc})"
        last = course.last
        result = Exploration(
            target=target,
            verdict=ending.verdict,
            reason=ending.reason,
            plan=run.plan,
            tree=run.tree,
            steps=course.steps,
            summary=summary,
            findings=ending.findings,
            escapes=course.escapes,
            usage=self.brain.usage(),
            seconds=budget.elapsed(),
            final_state=last.state.name if last is not None else "",
            # As a step's: lossless, a photo-like final screen alone (4 MB) would be more than the whole
            # feature's budget; its text is in the screen text and the logcat excerpt.
            final_screenshot=self.screenshots.submit(last.seen.som.full)
            if last is not None
            else NO_SCREENSHOT,
            reproduction=reproduction,
            at_step=ending.at_step if ending.verdict is Verdict.FAILED else None,
            infrastructure=ending.infrastructure,
        )
        result = tell_result(self.sinks, result)
        if ending.interrupted:
            raise Interrupted(result)
        return result

    def _loop(self, run: Run) -> tuple[Ending, Course]:
        """Step until a phase reaches a verdict. A lost device, a failing brain, an unreadable screen or a
        raising hook end the run inconclusive with what was seen so far (`FairyError.as_reason` words
        it); a usage error (a broken app model) is the user's to fix and goes up as it is."""
        course = Course()
        try:
            seen = self._begin(run)  # launch, perceive, plan
            while True:
                course = noted(self.device, course)  # a reconnect since the last action joins its record
                if course.awaiting is not None:  # and after it, the app under test must still be in front
                    still_running(
                        self.device, run.target.package, course.awaiting.record.device_note, course.steps
                    )
                arrival = run.arrive(seen, course)  # identify, record
                course = course.arrived(arrival)  # told once, even if a sink raises (an interrupt)
                self._report(arrival)
                reading = read_oracles(run.mission, run.target, self._observe(run, arrival))  # oracles
                warning = run.watch(arrival)  # guard
                ctx = run.context(arrival, reading, warning)
                course = course.saw(ctx)
                ending = self._judge(run, ctx, reading)  # judge
                unmet = () if course.oracles_seen else ctx.unmet_oracles  # and a step against the feature
                ending = ending or run.limits(warning, course.steps, self.brain.usage(), unmet)  # budgets
                decision = ending or self._decide(run, ctx)  # decide (or escape, or return)
                if isinstance(decision, Ending):
                    return decision, course
                if decision.finished:
                    return self._finish(run, ctx, course), course
                choice = choose(decision, seen.screen, run.mission, ctx.step)  # policy, review
                course = course.acted(self._act(run, choice, arrival, ctx))  # act
                seen = self._perceive()  # perceive
        except UsageError:
            raise
        except FairyError as exc:
            return broken(exc), course
        except KeyboardInterrupt as stop:  # the item ends inconclusive, its records kept; then the session
            return interruption(stop, course.steps), course
        finally:
            if course.awaiting is not None:  # the run ended before the last action's outcome was seen
                self._tell(course.awaiting.record)

    def _begin(self, run: Run) -> Perception:
        """Launch the app afresh (signed in, where the spec has a login), look at its first screen, and
        have the brain plan the feature there."""
        target = run.target
        seen = self.launcher.launch(target)
        run.planned(self.brain.plan(target, seen.screen, seen.som.llm_jpeg))
        for sink in self.sinks:
            sink.start(target, run.plan)
        return seen

    def _perceive(self) -> Perception:
        # A phone that locked itself is unlocked where a swipe lock allows, else the item is inconclusive.
        def look() -> Perception:
            return perceive(self.device, llm_long_edge=self.settings.llm_long_edge, secrets=self.secrets)

        return unlocked(self.device, look)

    def _sign_in(self, login: Login) -> Exploration:
        """The login explored by an explorer of its own (no sinks: its steps are not the item's)."""
        settings = replace(self.settings, confirm=0)
        inner = Explorer(
            self.device,
            login.brain(),
            settings=settings,
            diagnostics=self.diagnostics,
            clock=self.clock,
            screenshots=self.screenshots,
            secrets=self.secrets,
        )
        return inner.explore(login.target, login.mission)

    def _observe(self, run: Run, arrival: Arrival) -> Observation:
        """What the oracles look at: the screen, and the app's log, read on from where they stopped."""
        log = self.secrets.mask(self.diagnostics.logcat())
        return Observation(arrival.seen.screen, log, arrival.state.name, log_from=run.unread_log(log))

    def _report(self, arrival: Arrival) -> None:
        """Hand the step that led to `arrival` to every sink, now that its outcome is known."""
        if arrival.record is not None:
            self._tell(arrival.record)

    def _tell(self, record: StepRecord) -> None:
        for sink in self.sinks:
            sink.step(record)

    def _judge(self, run: Run, ctx: StepContext, reading: Reading) -> Ending | None:
        """A defect on screen fails the item; where the done-when oracles hold, the judge may pass it."""
        if reading.findings:
            reason = "; ".join(f.message for f in reading.findings)
            return Ending(Verdict.FAILED, reason, reading.findings, Proof.ORACLES, ctx.step - 1)
        if run.keeping is not None:  # left and on the way back: the done-when must hold again there
            return None if run.keeping.pending else run.keeping.verdict(ctx)
        if ctx.oracles_met and run.judge_due(ctx.state):
            judgement = self.brain.judge(ctx)
            if judgement.findings:
                return defect(judgement, ctx.step - 1)
            if judgement.complete:
                return run.complete(ctx, judgement.reason)
        return None

    def _decide(self, run: Run, ctx: StepContext) -> Decision | Ending:
        """The brain decides, unless the guard demands an escape from a loop.

        When the brain says the sub-feature it works on is complete and the judge agrees (the phase is
        complete, or the whole feature), the sub-feature is marked done and a return step (out of the
        dialog, or back) replaces the action, so the next decision starts from where the sub-feature was
        entered. A judge that said "continue" on this screen is asked again only after new
        ground; until then the brain's action is taken.

        The brain is told of the escapes and return steps it did not decide (`witness`), once each.
        """
        if run.keeping is not None and run.keeping.pending:  # the way out and back of a check over time
            check = run.keeping.next(ctx.screen)
            if isinstance(check, str):
                return run.keeping.lost(check)
            witness(self.brain, ctx, check)
            return check
        if ctx.warning is not None and ctx.warning.kind is VerdictKind.ESCAPE:
            escape = escape_from(ctx.warning, ctx.screen)
            witness(self.brain, ctx, escape)
            return escape
        decision = self.brain.decide(ctx)
        feature = decision.sub_feature
        if feature and feature != run.target.feature:
            run.focus(feature)
        claimed = decision.assessment.is_completed and feature and not decision.finished
        if claimed and run.judge_due(ctx.state):
            judgement = self.brain.judge(ctx)
            if judgement.findings:
                return defect(judgement, ctx.step - 1)
            if judgement.phase_complete or judgement.complete:
                run.tree.set_status(feature, FeatureStatus.DONE, judgement.reason)
                way_out = return_step(
                    ctx.screen, f"'{feature}' is complete ({judgement.reason})", sub_feature=feature
                )
                witness(self.brain, ctx, way_out)
                return way_out
        return decision

    def _finish(self, run: Run, ctx: StepContext, course: Course) -> Ending:
        """The brain has nothing left to try: the judge says whether the feature is done.

        With done-when oracles, only they can make a pass. Oracles never seen are an app defect only
        when the run's coverage shows the reachable part of the app exhausted (`coverage`); otherwise
        the run cannot tell, and says what it left."""
        judgement = self.brain.judge(ctx)
        if judgement.findings:
            return defect(judgement, ctx.step - 1)
        done_when = run.mission.done_when
        if judgement.complete and (not done_when or course.oracles_seen):
            return run.passed(judgement.reason)
        missing = bool(done_when) and not course.oracles_seen
        if missing and not run.coverage.left():
            return run.never_saw(ctx.unmet_oracles)
        if judgement.says_continue:
            # The brain's "done" is a claim, not evidence: with the judge saying there is more, only a step
            # against the feature shows the app broken.
            why = (
                f"the brain stopped early: the judge says the feature is not done ({judgement.reason}) "
                f"after {len(run.tree.states)} screens"
            )
        else:  # the judge calls it complete, but the spec's done-when oracles were never seen: they decide
            held = "its done-when oracles never held"
            why = f"the judge calls the feature complete ({judgement.reason}), but {held}"
        unmet = ctx.unmet_oracles if missing else ()
        left = f"; {run.never_saw_text(unmet)}{run.untried()}" if missing else ""
        return run.against(why, unmet) or Ending(Verdict.INCONCLUSIVE, why + left)

    def _confirm(self, run: Run, ending: Ending) -> tuple[Ending, Reproduction | None]:
        """An app defect fails the item once a replay of its way from a fresh launch shows it again."""
        if ending.verdict is not Verdict.FAILED or not ending.findings or self.settings.confirm < 1:
            return ending, None
        confirmer = Confirmer(
            self.device,
            self.diagnostics,
            run,
            launch=lambda: self.launcher.launch(run.target),
            perceive=self._perceive,
            reset_data=resets_data(run.target, self.device),
            secrets=self.secrets,
        )
        return confirmer.verdict(ending, self.settings.confirm)

    def _act(self, run: Run, choice: Choice, arrival: Arrival, ctx: StepContext) -> Attempt:
        """Carry out what was chosen, unless it was denied. An action the screen cannot take (an unknown
        mark) is a failed step, its outcome fed back to the brain, not the end of the run."""
        error, screen = choice.error, arrival.seen.screen
        if not (choice.denial or error):
            assert choice.taken.action is not None
            target = run.target
            try:
                perform(
                    self.device,
                    choice.taken.action,
                    arrival.seen.screen,
                    package=target.package,
                    activity=target.launch_activity,
                    secrets=self.secrets,
                )
                run.moved(Move.of(ctx.step, choice.taken.action, screen, choice.words, arrival.state.key))
                # Until the UI is idle (a real device's action waited already).
                settle_after_action(self.device)
                if self.settings.settle_seconds:  # fairy_settle_seconds: an extra pause after that, default 0
                    time.sleep(self.settings.settle_seconds)
            except ActionError as exc:
                error = str(exc)
        warning = ctx.warning
        record = StepRecord(
            step=ctx.step,
            state=arrival.state.name,
            title=screen.title,
            screen_text=screen.text,
            action=choice.words,
            reasoning=choice.taken.reasoning,
            expected=choice.taken.expected,
            guard=warning.kind if warning else VerdictKind.OK,
            guard_reason=warning.reason if warning else "",
            denial=choice.denial,
            escape=choice.decided.origin is Origin.ESCAPE,
            usage=self.brain.usage(),
            replayed=choice.decided.origin is Origin.REPLAY,
            origin=choice.taken.origin,
            device_note=take_note(self.device),
            # Encoded on the encoder's thread: the next step does not wait for it; the sinks take the bytes.
            screenshot=self.screenshots.submit(arrival.seen.som.full),
        )
        return Attempt(choice.words, choice.key, arrival.state, record, choice.denial, error)
