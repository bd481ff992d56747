"""The loop guard: a progress monitor that tells the explorer when it is going round in circles.

It watches one observation per step and answers ok / warn / escape / stop. The central notion is the
*productive* step: one that discovered a new state, crossed to another state along a transition never
taken before, or showed content never seen before in the same state (a form field filled, a list page
scrolled into view). Everything else - toggling a radio back to a value already seen, taps that change
nothing, walking a known edge again - is no progress, and that is what the counters count. This is why
five steps toggling 尽快送达 / 预约送餐 inside one dialog trip the guard while filling a long form or
paging through a long list does not.

Escalation: a loop signal first warns the brain; if it persists, the guard asks for an escape (dismiss
the dialog, else back, else restart). Once an escape has been made, the next loop goes straight to the
next, stronger escape, and after `max_escapes` escapes without discovering a new state it stops the run
as inconclusive. Discovering a new state is real progress and resets the escalation.

The guard has no step cap of its own: how many steps a run may take is the feature's `max_steps` (or
--fairy-max-steps), which the step budget (`pytest_fairy.explore.budget`) enforces. A cap here would
only be a second, hidden one, deaf to what the spec says.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum

from pytest_fairy.explore.state import StateId


class VerdictKind(StrEnum):
    OK = "ok"
    WARN = "warn"
    ESCAPE = "escape"
    STOP = "stop"


class Escape(StrEnum):
    """The suggested way out of a loop, gentlest first."""

    DISMISS_DIALOG = "dismiss_dialog"
    BACK = "back"
    RESTART = "restart"


class _Level(IntEnum):
    OK = 0
    WARN = 1
    ESCAPE = 2
    STOP = 3


_KIND = {
    _Level.OK: VerdictKind.OK,
    _Level.WARN: VerdictKind.WARN,
    _Level.ESCAPE: VerdictKind.ESCAPE,
    _Level.STOP: VerdictKind.STOP,
}


@dataclass(frozen=True, slots=True)
class GuardLimits:
    """Every threshold the guard uses. The defaults let a dialog's options toggled back and forth be
    forced back after 4 same states, and give up on 5 failures, 8 steps without progress or 5 repeats of
    one action."""

    same_state_warn: int = 3
    same_state_escape: int = 4
    # An A-B-A-B tail of 4 observations is 2 full cycles.
    oscillation_warn_cycles: int = 2
    oscillation_escape_cycles: int = 3
    same_action_warn: int = 3
    same_action_escape: int = 5
    failures_warn: int = 3
    failures_stop: int = 5
    stagnation_warn: int = 8
    stagnation_escape: int = 12
    stagnation_stop: int = 16
    max_escapes: int = 3
    evidence_steps: int = 8
    # How often one action from one state may count as progress for content alone (one more task in
    # the list after Add task, type, Save): past that, the run is growing the page, not exploring.
    # Scrolling is exempt: a long list shows new rows scroll after scroll.
    content_repeats: int = 3

    def __post_init__(self) -> None:
        pairs = (
            ("same_state_warn", "same_state_escape"),
            ("oscillation_warn_cycles", "oscillation_escape_cycles"),
            ("same_action_warn", "same_action_escape"),
            ("failures_warn", "failures_stop"),
            ("stagnation_warn", "stagnation_escape"),
            ("stagnation_escape", "stagnation_stop"),
        )
        for low, high in pairs:
            if not 1 <= getattr(self, low) <= getattr(self, high):
                raise ValueError(
                    f"GuardLimits: need 1 <= {low} <= {high}, got "
                    f"{getattr(self, low)} and {getattr(self, high)}"
                )
        for name in ("max_escapes", "evidence_steps", "content_repeats"):
            if getattr(self, name) < 1:
                raise ValueError(f"GuardLimits: {name} must be at least 1, got {getattr(self, name)}")


@dataclass(frozen=True, slots=True)
class GuardVerdict:
    kind: VerdictKind
    reason: str = ""
    evidence: str = ""
    escape: Escape | None = None

    @property
    def ok(self) -> bool:
        return self.kind is VerdictKind.OK


OK_VERDICT = GuardVerdict(VerdictKind.OK)


@dataclass(slots=True)
class _Seen:
    step: int
    state: StateId
    action_key: str | None
    productive: bool


@dataclass(slots=True)
class _Signal:
    level: _Level
    reason: str


@dataclass
class LoopGuard:
    """Feed it every observation with `observe`; act on the verdict. Pure: no device, no clock."""

    limits: GuardLimits = field(default_factory=GuardLimits)

    def __post_init__(self) -> None:
        self._recent: deque[_Seen] = deque(maxlen=max(self.limits.evidence_steps, 2))
        self._visits: Counter[str] = Counter()
        self._contents: dict[str, set[str]] = {}
        self._content_yields: Counter[tuple[str, str]] = Counter()  # (from state, action): new content
        self._same_state_run = 0
        self._oscillation_len = 0
        self._action_repeats: Counter[tuple[str, str]] = Counter()
        self._words: dict[str, str] = {}  # action key -> the action in words, as last taken
        self._failures = 0
        self._since_progress = 0
        self._escapes_since_new_state = 0
        self._escapes_total = 0

    @property
    def escapes(self) -> int:
        """How many escapes the guard has asked for in this run."""
        return self._escapes_total

    def observe(
        self,
        step: int,
        state: StateId,
        action_key: str | None,
        succeeded: bool,
        new_state: bool,
        new_transition: bool,
        action_words: str = "",
        *,
        found_dead: bool = False,
    ) -> GuardVerdict:
        """One step: `state` is where `action_key` (taken from the previous state) led; `new_state` and
        `new_transition` come from `FeatureTree.record`. The key identifies the action; `action_words`
        (`tap [2] 预约送餐`) is how warnings and the evidence name it to a reader (and to the model).
        `found_dead`: the action was carried out for the first time here and changed nothing - an element
        found to do nothing is something learnt (a dead button is evidence), not a failure; taking it
        again is no progress."""
        if action_key and action_words:
            self._words[action_key] = action_words
        previous = self._recent[-1] if self._recent else None
        moved = previous is None or previous.state.key != state.key
        novel_content = state.content_hash not in self._contents.setdefault(state.key, set())
        self._contents[state.key].add(state.content_hash)
        if novel_content and not new_state and previous is not None and action_key:
            novel_content = self._grows(previous.state.key, action_key)
        # A self-transition never taken before is not progress by itself (taps that do nothing).
        productive = new_state or (new_transition and moved) or novel_content or found_dead
        self._visits[state.key] += 1
        self._count(previous, state, action_key, succeeded or found_dead, moved, productive, new_state)
        self._recent.append(_Seen(step, state, action_key, productive))

        signals = self._signals(step, state, action_key, previous)
        if not signals:
            return OK_VERDICT
        level = max(s.level for s in signals)
        reason = "; ".join(s.reason for s in sorted(signals, key=lambda s: -s.level))
        escape: Escape | None = None
        if level is _Level.ESCAPE:
            if self._escapes_since_new_state >= self.limits.max_escapes:
                level = _Level.STOP
                reason = f"still looping after {self._escapes_since_new_state} escapes: {reason}"
            else:
                escape = self._escape_for(state)
                self._escapes_since_new_state += 1
                self._escapes_total += 1
                self._clear_loop_counters()
        return GuardVerdict(_KIND[level], reason, self.evidence(), escape)

    def _grows(self, before: str, action_key: str) -> bool:
        """Whether new content after `action_key` from the state `before` still counts as progress: not
        once the same action from the same state has brought only new content `content_repeats` times.
        A scroll always does."""
        if action_key.startswith("scroll"):
            return True
        self._content_yields[(before, action_key)] += 1
        return self._content_yields[(before, action_key)] <= self.limits.content_repeats

    def _named(self, action_key: str) -> str:
        return self._words.get(action_key, action_key)

    def evidence(self, *, path: bool = True) -> str:
        """The recent state sequence with visit counts and what repeated: a text block for the planner.
        `path=False` leaves out the state sequence (a reader that shows the path itself): only the counts
        the guard acts on remain, empty while nothing repeats."""
        lines = ["Recent states (oldest first):"] if path else []
        for seen in self._recent if path else ():
            via = f" <- {self._named(seen.action_key)}" if seen.action_key else ""
            mark = "" if seen.productive else " (nothing new)"
            lines.append(
                f"  step {seen.step}: {seen.state.name} [visits {self._visits[seen.state.key]}]{via}{mark}"
            )
        if self._same_state_run > 1 and self._recent:
            lines.append(f"Same state {self._same_state_run} steps in a row: {self._recent[-1].state.name}")
        repeated = [(k, n) for k, n in self._action_repeats.most_common(3) if n > 1]
        for (where, action), count in repeated:
            lines.append(f"Repeated without effect: '{self._named(action)}' in {where} x{count}")
        if self._failures:
            lines.append(f"Consecutive failed actions: {self._failures}")
        if self._since_progress:
            lines.append(f"Steps since anything new: {self._since_progress}")
        if self._escapes_since_new_state:
            lines.append(f"Escapes since the last new state: {self._escapes_since_new_state}")
        return "\n".join(lines)

    def _count(
        self,
        previous: _Seen | None,
        state: StateId,
        action_key: str | None,
        succeeded: bool,
        moved: bool,
        productive: bool,
        new_state: bool,
    ) -> None:
        self._failures = 0 if succeeded else self._failures + 1
        self._since_progress = 0 if productive else self._since_progress + 1
        if new_state:
            self._escapes_since_new_state = 0
        if productive:
            # Repeats count within a stretch of no progress: `back` out of each new detail page is fine.
            self._action_repeats.clear()
        # A new content in the same state restarts the run: the state is still yielding something.
        self._same_state_run = 1 if moved or productive else self._same_state_run + 1
        if previous is not None and action_key and not productive:
            self._action_repeats[(previous.state.name, action_key)] += 1
        older = self._recent[-2] if len(self._recent) >= 2 else None
        alternating = moved and older is not None and older.state.key == state.key
        if not alternating:
            self._oscillation_len = 2 if moved and previous is not None else 1
        elif productive:
            # The pair may be the first cycle of an oscillation, but nothing has repeated yet.
            self._oscillation_len = 2
        else:
            self._oscillation_len += 1

    def _signals(
        self, step: int, state: StateId, action_key: str | None, previous: _Seen | None
    ) -> list[_Signal]:
        lim = self.limits
        escalated = self._escapes_since_new_state > 0
        found: list[_Signal] = []

        def loop(count: int, warn: int, escape: int, what: str) -> None:
            if count >= escape or (escalated and count >= warn):
                found.append(_Signal(_Level.ESCAPE, what))
            elif count >= warn:
                found.append(_Signal(_Level.WARN, what))

        loop(
            self._same_state_run,
            lim.same_state_warn,
            lim.same_state_escape,
            f"{state.name} seen {self._same_state_run} steps in a row with nothing new",
        )
        cycles = self._oscillation_len // 2
        if cycles and previous is not None:
            loop(
                cycles,
                lim.oscillation_warn_cycles,
                lim.oscillation_escape_cycles,
                f"oscillating between {previous.state.name} and {state.name} for {cycles} cycles",
            )
        if previous is not None and action_key:
            repeats = self._action_repeats[(previous.state.name, action_key)]
            loop(
                repeats,
                lim.same_action_warn,
                lim.same_action_escape,
                f"'{self._named(action_key)}' in {previous.state.name} repeated {repeats} times "
                "without effect",
            )
        stale = self._since_progress
        if stale >= lim.stagnation_warn:
            # One escape when crossing the escape mark, not one per step: the escape itself is no progress.
            level = (
                _Level.STOP
                if stale >= lim.stagnation_stop
                else _Level.ESCAPE
                if stale == lim.stagnation_escape
                else _Level.WARN
            )
            found.append(_Signal(level, f"nothing new for {stale} steps"))
        if self._failures >= lim.failures_stop:
            found.append(_Signal(_Level.STOP, f"{self._failures} actions failed in a row"))
        elif self._failures >= lim.failures_warn:
            found.append(_Signal(_Level.WARN, f"{self._failures} actions failed in a row"))
        return found

    def _escape_for(self, state: StateId) -> Escape:
        ladder = [Escape.BACK, Escape.RESTART]
        if state.has_dialog:
            ladder.insert(0, Escape.DISMISS_DIALOG)
        return ladder[min(self._escapes_since_new_state, len(ladder) - 1)]

    def _clear_loop_counters(self) -> None:
        # The escape is a deliberate move: loops are counted afresh after it; stagnation is not.
        self._same_state_run = 0
        self._oscillation_len = 0
        self._action_repeats.clear()
