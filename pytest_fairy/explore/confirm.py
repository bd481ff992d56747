"""Confirming an app defect: replay the way to it from a fresh launch, without the brain, and see it again.

An LLM explorer wanders, and a defect it saw once may have needed the wandering, or luck. Before an item
fails, the defect's way (`reproduction.ways_to`: the shortest known path, else the run's own walk) is
replayed on the device: the app relaunched as the item started (its data reset when the item's was),
each move done on the element it was done on (found by ref; an element no longer there is a miss: the
way does not lead where it did). What counts as "seen again" depends on how the run saw
it (`Proof`): the oracles' kind of finding again (a crash, an ANR, a must-not condition, a project
check); for a judge's finding, the very screen it judged (the judge is not asked again); for a done-when
never seen, the evidence again: the same element's action contradicting the feature the same way (it
changes nothing, shows an error, opens the screen another element names), with the done-when still unmet;
for a done-when not kept over time, the run's own walk (which set it, left and came back) ending on the
same screen without it.
A replay that only repeats the way without that contradiction confirms nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from pytest_fairy.devices.protocol import Device, Diagnostics, settle_after_action
from pytest_fairy.errors import FairyError
from pytest_fairy.explore.action import ActionError, perform
from pytest_fairy.explore.decisions import OutcomeKind
from pytest_fairy.explore.evidence import Against, Contradiction, contradiction
from pytest_fairy.explore.facts import facts_of, seen_texts, usable
from pytest_fairy.explore.oracles import Observation
from pytest_fairy.explore.reproduction import NO_WAY, Move, Proof, Reproduction, Way, ways_to
from pytest_fairy.explore.run import Run
from pytest_fairy.explore.settings_kept import Lost
from pytest_fairy.explore.state import StateId
from pytest_fairy.explore.step import Ending, read_oracles
from pytest_fairy.explore.verdict import Verdict
from pytest_fairy.perception.perceive import Perception
from pytest_fairy.spec.secrets import NO_SECRETS, Secrets

# The ways tried: the shortest known one, then the run's own walk (`reproduction.ways_to`).
WAYS = 2
# Looks at the screen after the way's last move before saying the defect did not show (an ANR's dialog,
# a crash's, may come a moment after the action that caused it).
CONFIRM_LOOKS = 3


@dataclass(frozen=True, slots=True)
class Replay:
    reproduced: bool
    why: str = ""  # what happened instead, when it did not reproduce


@dataclass(frozen=True)
class Confirmer:
    """Replays ways on one device for one run; `perceive` looks at the screen as the explorer does."""

    device: Device
    diagnostics: Diagnostics
    run: Run
    launch: Callable[[], Perception]  # the app started as the item started (`launch.Launcher`)
    perceive: Callable[[], Perception]
    reset_data: bool
    secrets: Secrets = NO_SECRETS

    def verdict(self, ending: Ending, times: int) -> tuple[Ending, Reproduction | None]:
        """`ending` (an app defect) as the replays leave it: failed with how often it reproduced, or
        inconclusive when no replay showed it again, its evidence kept."""
        found = self.confirm(ending, times)
        if found.confirmed:
            return replace(ending, reason=f"{ending.reason} ({found.figures})"), found
        reason = f"{found.figures} ({'; '.join(found.misses)}): the run saw {ending.reason}"
        return replace(ending, verdict=Verdict.INCONCLUSIVE, reason=reason), found

    def confirm(self, ending: Ending, times: int) -> Reproduction:
        """Replay the defect of `ending` up to `times` times on the first way that reproduces it: the
        shortest known way, and when its first replay misses, the run's own walk."""
        misses: list[str] = []
        made = 0
        tried: Way | None = None
        for which in range(WAYS):
            first = self._replay(ending, which)
            if first is None:  # no such way from where the app starts
                continue
            way, replay = first
            tried, made = tried or way, made + 1
            if not replay.reproduced:
                misses.append(f"{way.how} ({len(way)} step{'s' if len(way) != 1 else ''}): {replay.why}")
                continue
            replays = [replay]
            for _ in range(times - 1):
                again = self._replay(ending, which)
                replays.append(again[1] if again is not None else Replay(False, "no way from the start"))
            misses += [f"replay {i}: {r.why}" for i, r in enumerate(replays, 1) if not r.reproduced]
            return self._reproduction(ending, way, times, sum(r.reproduced for r in replays), misses)
        if tried is None:
            misses.append(f"no way to replay step {ending.at_step}: its action was not carried out")
        return self._reproduction(ending, tried or NO_WAY, made, 0, misses)

    def _reproduction(
        self, ending: Ending, way: Way, tries: int, reproduced: int, misses: list[str]
    ) -> Reproduction:
        target = self.run.target
        return Reproduction(
            package=target.package,
            activity=target.launch_activity,
            reset_data=self.reset_data,
            finding=ending.findings[0],
            way=way,
            tries=tries,
            reproduced=reproduced,
            done_when=tuple(self.run.mission.done_when),
            must_not=tuple(self.run.mission.must_not),
            proof=ending.proof,
            app_name=target.app_name,
            misses=tuple(misses),
            against=self._against(ending),
        )

    def _against(self, ending: Ending) -> Against | None:
        tried = self.run.coverage.at(ending.at_step) if ending.proof is Proof.NEVER_SEEN else None
        return tried.against if tried is not None else None

    def _replay(self, ending: Ending, which: int) -> tuple[Way, Replay] | None:
        """Launch the app, find way number `which` from the screen it starts on (a phone whose data is
        kept may start signed in, where the run started at the login), and replay it; None when there is
        no such way."""
        try:
            ways = self._ways(ending, self._state(self.launch()).key)
        except FairyError as exc:
            return NO_WAY, Replay(False, exc.as_reason())
        if which >= len(ways):
            return None
        way = ways[which]
        try:
            before: Perception | None = None
            for i, move in enumerate(way.moves, start=1):
                before = self.perceive()
                miss = self._move(move, before, i, len(way))
                if miss:
                    return way, Replay(False, miss)
            return way, self._look(way, ending, before)
        except FairyError as exc:
            return way, Replay(False, exc.as_reason())

    def _ways(self, ending: Ending, start: str) -> list[Way]:
        """The ways to try; for a done-when never seen whose evidence came after the feature changed the
        app's data (a product added, a recipe saved), only the run's own walk, which changes it too."""
        if ending.at_step == 0:  # on the first screen: a fresh launch is the whole way
            return [Way((), start, "a fresh launch")]
        run = self.run
        same = run.coverage.log.same_before(ending.at_step) if ending.proof is Proof.NEVER_SEEN else set()
        ways = ways_to(run.tree, run.moves, ending.at_step, run.idle, start=start, same_before=same)
        if ending.proof is Proof.NOT_KEPT:  # the walk sets what must be kept, then leaves and comes back
            return ways[-1:]
        if ending.proof is Proof.NEVER_SEEN and run.coverage.changed_before(
            ending.at_step, run.feature_words()
        ):
            return ways[-1:]
        return ways

    def _move(self, move: Move, seen: Perception, i: int, n: int) -> str:
        """Do `move` on the element it was done on, on the screen `seen`; what went wrong instead, else "".
        The screen need not be the very state it was taken on (a page may show a line more after a note
        was saved on the way): its element being there is what a person replaying the steps would check."""
        action = move.action.resolve(seen.screen)
        if action is None:
            state = self._state(seen)
            what = move.action.label or move.action.ref
            return f"step {i}/{n} ({move.words}): '{what}' is not on {state.name}, where the replay was"
        target = self.run.target
        try:
            perform(
                self.device,
                action,
                seen.screen,
                package=target.package,
                activity=target.launch_activity,
                secrets=self.secrets,
            )
        except ActionError as exc:
            return f"step {i}/{n} ({move.words}): {exc}"
        settle_after_action(self.device)
        return ""

    def _look(self, way: Way, ending: Ending, before: Perception | None) -> Replay:
        """Whether the defect shows after the way's last move (taken on `before`), as `ending.proof` says
        it must."""
        target, mission = self.run.target, self.run.mission
        kinds = {f.kind for f in ending.findings}
        why = ""
        for _ in range(CONFIRM_LOOKS):
            seen = self.perceive()
            state = self._state(seen)
            log = self.secrets.mask(self.diagnostics.logcat())
            reading = read_oracles(mission, target, Observation(seen.screen, log, state.name))
            match ending.proof:
                case Proof.ORACLES:
                    if kinds & {f.kind for f in reading.findings}:
                        return Replay(True)
                    why = f"no {' / '.join(sorted(kinds))} this time (the replay reached {state.name})"
                case Proof.SCREEN:
                    if state.key == way.expected:
                        return Replay(True)
                    why = f"the replay reached {state.name}, not {self._name(way.expected)}"
                case Proof.NOT_KEPT:
                    if state.key == way.expected and not reading.met:
                        return Replay(True)
                    held = "the done-when held again" if reading.met else "the way ended elsewhere"
                    why = f"{held} this time (the replay reached {state.name})"
                case Proof.NEVER_SEEN:
                    if reading.met:
                        return Replay(False, f"the done-when conditions held this time, on {state.name}")
                    why = self._contradicted(way, ending.at_step, before, seen, state)
                    if not why:
                        return Replay(True)
            settle_after_action(self.device)
        return Replay(False, why)

    def _contradicted(
        self, way: Way, step: int, before: Perception | None, after: Perception, state: StateId
    ) -> str:
        """ "" when the way's last move, the action of `step` replayed on `before`, contradicted the feature
        as it did in the run (`evidence`); else what it did instead."""
        tried = self.run.coverage.at(step)
        if tried is not None and tried.lost is not None:
            return _kept(tried.lost, after)
        if tried is not None and tried.forgotten is not None:
            forgotten, texts = tried.forgotten, seen_texts(after.screen)
            where = after.screen.title or "the screen"
            if forgotten.missing:
                if not any(forgotten.missing in text for text in texts):
                    return ""
                return f"this time {where} listed '{forgotten.missing}', not: {forgotten}"
            if forgotten.empty in texts:
                return ""
            return f"this time {where} did not show '{forgotten.empty}', not: {forgotten}"
        action = way.moves[-1].action.resolve(before.screen) if way.moves and before is not None else None
        element = action.target(before.screen) if action is not None and before is not None else None
        if tried is None or tried.contradiction is None or before is None or element is None:
            return f"step {step} shows nothing against the feature to look for again"
        was = self._state(before)
        if state.key != was.key:
            kind = OutcomeKind.STATE_CHANGED
        else:
            kind = (
                OutcomeKind.CONTENT_CHANGED
                if state.content_hash != was.content_hash
                else OutcomeKind.NO_CHANGE
            )
        title = after.screen.title or state.name
        cov = self.run.coverage
        facts = facts_of(
            before.screen,
            element.ref,
            after.screen,
            tried.blanks,
            cov.inputs,
            cov.empty,
            cov.refusing(before.screen, tried.label),
        )
        again = contradiction(kind, facts, tried.label, title)
        expected, said = tried.contradiction
        if again is not None and again[0] is expected:
            return ""
        if expected is Contradiction.WRONG_SCREEN and state.key == tried.to_key:
            return ""  # the very screen it opened in the run, which another element is named for
        if kind is OutcomeKind.NO_CHANGE:
            did = "changed nothing"
        elif title == before.screen.title:
            did = f"changed what {title} shows"
        else:
            did = f"opened {title}"
        return f"this time '{tried.label}' {again[1] if again is not None else did}, not: {said}"

    def _state(self, seen: Perception) -> StateId:
        return self.run.recognizer.state_of(seen.screen)

    def _name(self, key: str) -> str:
        info = self.run.tree.states.get(key)
        return info.name if info is not None else key


def _kept(lost: Lost, after: Perception) -> str:
    """ "" when the setting shows lost again after the way; else what the replay saw of it."""
    switches = [m for m in usable(after.screen) if m.node.checkable and m.label == lost.label]
    if not switches:
        return f"'{lost.label}' is not on {after.screen.title or 'the screen'} this time"
    if switches[0].node.checked != lost.was:
        return ""
    return f"this time '{lost.label}' was kept {'on' if lost.was else 'off'}, not: {lost}"
