"""The memory of one exploration: its feature tree, loop guard, budget and plan, and the screens the judge
has already seen.

Memory only: the counters and the step awaiting its outcome travel through the loop as values
(`step.Course`). Each method here is one phase that needs the memory - record the screen reached, let the
guard watch it, build the brain's context from it, check the limits - and returns what it found.
"""

from __future__ import annotations

from collections.abc import Sequence

from pytest_fairy.explore.budget import Budget
from pytest_fairy.explore.coverage import Coverage
from pytest_fairy.explore.decisions import OutcomeKind, Plan, StepContext, Usage
from pytest_fairy.explore.guard import GuardVerdict, LoopGuard, VerdictKind
from pytest_fairy.explore.keeping import AFTER_WORDS, Keeping
from pytest_fairy.explore.mission import Mission
from pytest_fairy.explore.oracles import Finding
from pytest_fairy.explore.recognize import Recognizer
from pytest_fairy.explore.reproduction import Move, Proof
from pytest_fairy.explore.state import StateId
from pytest_fairy.explore.step import MOVED, Arrival, Course, Ending, Reading, outcome_of
from pytest_fairy.explore.target import Target
from pytest_fairy.explore.tree import FeatureTree, SummaryLimits, TreeError
from pytest_fairy.explore.verdict import Verdict
from pytest_fairy.perception.perceive import Perception

# The oracles read the app's log from where they stopped, this many characters earlier (a block half
# written at the last read), and know it is the same log by its first `LOG_HEAD` characters.
LOG_OVERLAP = 4096
LOG_HEAD = 512
# What an inconclusive ending names of what the run left untried, at most.
LEFT_NAMED = 3
# The tree as the brain reads it: its own memory shows the path walked, so the tree leaves it out.
BRAIN_SUMMARY = SummaryLimits(max_path=0)


class Run:
    """One exploration's memory, and the phases that read or grow it."""

    def __init__(
        self,
        target: Target,
        mission: Mission,
        guard: LoopGuard,
        budget: Budget,
        recognizer: Recognizer | None = None,
    ) -> None:
        self.target = target
        self.mission = mission
        self.guard = guard
        self.budget = budget
        self.recognizer = recognizer or Recognizer()  # which state each screen shows
        self.tree = tree_for(target)
        # What was tried of what was reached: the evidence a "never saw" failure needs.
        self.coverage = Coverage(mission.policy, target.words(), target.inputs, target.done_hints)
        # The spec's own structure until the brain has planned (a run that fails before keeps it).
        self.plan = Plan(root=target.feature, sub_features=target.sub_features)
        # Screens (state and content) already judged "not yet" while the done-when oracles held, with
        # how many states were known then: the same screen with nothing new found since gets the same
        # answer (a queued plan can pass one several times), but new ground may change the judge's mind.
        self._judged: set[tuple[str, str, int]] = set()
        # Every action carried out, by step: the ways a defect's confirmation replays (`reproduction`).
        self.moves: dict[int, Move] = {}
        self.idle: set[int] = set()  # the steps whose action changed nothing
        self.keeping: Keeping | None = None  # a check over time under way (`keeping`)
        # Each done-when condition that held on some screen, though not with the rest: where it first did.
        self._held: dict[str, str] = {}
        # How much of the app's log the oracles have read, and how it began (to know it only grew).
        self._log_read = 0
        self._log_head = ""

    def planned(self, plan: Plan) -> None:
        """The brain's plan: its sub-features join the tree, pending until the brain works on one; the
        tree stays focused on the feature."""
        self.plan = plan
        for name in plan.sub_features:
            self._known(name)
        self.tree.focus(self.target.feature)

    def _known(self, name: str) -> None:
        try:
            self.tree.feature(name)
        except TreeError:
            self.tree.add_feature(name, parent=self.target.feature)

    def focus(self, name: str) -> None:
        """Focus the tree on sub-feature `name`, adding it under the feature when the brain found it."""
        self._known(name)
        self.tree.focus(name)

    def moved(self, move: Move) -> None:
        self.moves[move.step] = move

    def arrive(self, seen: Perception, course: Course) -> Arrival:
        """Record in the tree the screen the course's last action led to (a page of a known layout as its
        family's state, see `recognize`); say what that action did."""
        state = self.recognizer.state_of(seen.screen)
        attempt = course.awaiting
        change = self.tree.record(
            step=course.steps,
            before=attempt.state if attempt else None,
            action=attempt.action if attempt else None,
            after=state,
            title=seen.screen.title,
            is_dialog=seen.screen.has_dialog,
            action_key=attempt.key if attempt else None,
        )
        outcome = outcome_of(attempt, state, change)
        screen = seen.screen
        self.coverage.saw(state, screen, in_app=screen.package == self.target.package or screen.has_dialog)
        if attempt is not None and outcome is not None:
            if outcome.kind is OutcomeKind.NO_CHANGE:
                self.idle.add(course.steps)
            acted_on = course.last.seen.screen if course.last is not None else None
            screens = (acted_on, screen) if acted_on is not None else None
            self.coverage.acted(
                course.steps, attempt.state, attempt.key, attempt.action, outcome, state, screens
            )
        title = self.tree.states[state.key].title
        return Arrival(seen, state, course.steps, change, outcome, attempt, title)

    def watch(self, arrival: Arrival) -> GuardVerdict:
        """The loop guard's word on this screen: ok, warn, escape or stop."""
        outcome, change = arrival.outcome, arrival.change
        return self.guard.observe(
            step=arrival.steps,
            state=arrival.state,
            action_key=arrival.attempt.key if arrival.attempt else None,
            action_words=arrival.attempt.action if arrival.attempt else "",
            succeeded=outcome is None or outcome.kind in MOVED,
            new_state=change.new_state,
            new_transition=change.new_transition,
            found_dead=change.new_transition
            and outcome is not None
            and outcome.kind is OutcomeKind.NO_CHANGE,
        )

    def context(self, arrival: Arrival, reading: Reading, warning: GuardVerdict) -> StepContext:
        """Everything the brain may look at for this step, rebuilt from the memory each time: however long
        the run, the context stays bounded."""
        attempt = arrival.attempt
        for condition in map(str, self.mission.done_when):
            if condition not in self._held and not any(_reads(unmet, condition) for unmet in reading.unmet):
                where = f"after step {arrival.steps}" if arrival.steps else "at the start"
                self._held[condition] = f"{where}, on {arrival.title or arrival.state.name}"
        return StepContext(
            step=arrival.steps + 1,
            target=self.target,
            plan=self.plan,
            screen=arrival.seen.screen,
            som_jpeg=arrival.seen.som.llm_jpeg,
            state=arrival.state,
            last=arrival.outcome,
            recent_states=self.guard.evidence(),
            tree_summary=self.tree.summary_text(limits=BRAIN_SUMMARY),
            warning=None if warning.ok else warning,
            unmet_oracles=reading.unmet,
            oracles_met=reading.met,
            denial=attempt.denial if attempt else "",
            last_key=attempt.key if attempt else "",
            loop_facts=self.guard.evidence(path=False),
            visits=self.tree.states[arrival.state.key].visits if arrival.state.key in self.tree.states else 0,
        )

    def unread_log(self, log: str) -> int:
        """Where the oracles should read the app's log (`Diagnostics.logcat`, since the item began) from:
        what they have not read yet, `LOG_OVERLAP` characters earlier, so a crash block being written while
        the log was read is read whole next time. A log that is not the last one grown (cleared) is read
        whole."""
        start = self._log_read if log.startswith(self._log_head) else 0
        self._log_read = len(log)
        self._log_head = log[: min(len(log), LOG_HEAD)]
        return max(0, start - LOG_OVERLAP)

    def judge_due(self, state: StateId) -> bool:
        """Whether the judge should look at this screen: once per screen and per progress made."""
        screen = (state.key, state.content_hash, len(self.tree.states))
        due = screen not in self._judged
        self._judged.add(screen)
        return due

    def complete(self, ctx: StepContext, reason: str) -> Ending | None:
        """The judge calls the feature complete on the screen of `ctx`: passed; or, for a feature whose
        done-when must hold again after something (`Mission.after`), the check over time begins (None:
        the run goes on, `keeping`)."""
        after = self.mission.after
        if after is None or self.keeping is not None:
            return self.passed(reason)
        self.keeping = Keeping.start(after, ctx, reason, self.tree, self.moves)
        return None

    def passed(self, reason: str) -> Ending:
        """The judge's "complete" as the run's last word: passed, unless the done-when must hold again
        after something (`Mission.after`) and the run ends before it was seen to."""
        after = self.mission.after
        if after is None:
            return Ending(Verdict.PASSED, reason)
        return Ending(
            Verdict.INCONCLUSIVE,
            f"the judge calls the feature complete ({reason}), but the run ended before the done-when was "
            f"seen again after {AFTER_WORDS[after]}",
        )

    def limits(
        self, warning: GuardVerdict, steps: int, usage: Usage, unmet: Sequence[str] = ()
    ) -> Ending | None:
        """The guard's stop, else a spent budget: the run ends, never passed; failed when a step acted
        against the feature while its done-when conditions `unmet` never held (`against`), else
        inconclusive, saying what it had not tried yet."""
        if warning.kind is VerdictKind.STOP:
            why = f"loop guard stopped the run: {warning.reason}"
        elif (spent := self.budget.spent(steps, usage)) is not None:
            why = spent
        else:
            return None
        return self.against(why, unmet) or Ending(Verdict.INCONCLUSIVE, why + self.untried())

    def never_saw(self, unmet: Sequence[str]) -> Ending:
        """The reachable part of the app is exhausted and the done-when oracles never held: an app defect
        when a step acted against the feature (`against`); otherwise inconclusive, saying what the run could
        not know."""
        explored = (
            f"explored the feature to its end ({self.coverage.screens} screens: every element tried or "
            f"denied, every list scrolled to its end) but {self.never_saw_text(unmet)}"
        )
        failed = self.against(explored, unmet)
        if failed is not None:
            return failed
        unknown = self.coverage.unknown(self.feature_words(unmet))
        why = "; ".join(unknown[:LEFT_NAMED]) or "no element the feature names did anything against it"
        return Ending(Verdict.INCONCLUSIVE, f"{explored}, and no step shows the app at fault: {why}")

    def against(self, ended: str, unmet: Sequence[str]) -> Ending | None:
        """An app defect, when the run `ended` with the done-when conditions `unmet` and an action on an
        element the feature points to contradicted it (`evidence`): that step is the evidence, which the
        confirmation replays and must see again; whether the run tried the rest of the app does not change
        what that step showed. None when no step did, or no done-when is unmet."""
        found = self.coverage.evidence(self.feature_words(unmet)) if unmet else None
        if found is None:
            return None
        never = "" if "never saw" in ended else f", and {self.never_saw_text(unmet)}"
        finding = Finding("never_seen", f"{ended}{never}; {found}")
        return Ending(Verdict.FAILED, finding.message, (finding,), Proof.NEVER_SEEN, found.step)

    def never_saw_text(self, unmet: Sequence[str]) -> str:
        """The done-when conditions `unmet` (as the last screen read them), as never seen; or, when some of
        them held on another screen, as never seen at once, with where those held."""
        held = {u: self._held[c] for u in unmet for c in self._held if _reads(u, c)}
        if not held:
            return f"never saw: {'; '.join(unmet)}"
        shown = [f"{u.split(' (', 1)[0]} (held {held[u]})" if u in held else u for u in unmet]
        return f"never saw at once: {'; '.join(shown)}"

    def feature_words(self, unmet: Sequence[str] = ()) -> list[str]:
        """What the feature is about, for the evidence: its unmet done-when, its hints, its own words."""
        return [*unmet, *self.target.done_hints, self.target.words()]

    def untried(self) -> str:
        """`; left untried: list rv_goods on 全部商品 not scrolled past 商品 12; ...`; "" when nothing is."""
        left = self.coverage.left()
        return f"; left untried: {'; '.join(left[:LEFT_NAMED])}" if left else ""

    def story(self, ending: Ending, course: Course) -> str:
        """The run in a few lines, for the brain's summary."""
        tree = self.tree
        return (
            f"Verdict: {ending.verdict} - {ending.reason}\n"
            f"{course.steps} steps, {len(tree.states)} states, {len(tree.transitions)} transitions, "
            f"{course.escapes} loop escapes.\n{tree.summary_text()}"
        )


def tree_for(target: Target) -> FeatureTree:
    """The feature tree as the spec knows it: the feature and its sub-features, focused on the feature."""
    tree = FeatureTree()
    tree.add_feature(target.feature)
    for name in target.sub_features:
        tree.add_feature(name, parent=target.feature)
    tree.focus(target.feature)
    return tree


def _reads(unmet: str, condition: str) -> bool:
    """The unmet condition `unmet` (`visible: X (no view shows 'X')`) is `condition` (`visible: X`)."""
    return unmet == condition or unmet.startswith(f"{condition} (")
