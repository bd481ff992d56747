"""The actions a run took, each with what it did (`Tried`), and the one among them that is evidence
against the feature (`Log.evidence`, by the rules of `evidence`), or what the run could not know.

Pure bookkeeping: `coverage.Coverage` records each action as the loop hands it in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from pytest_fairy.explore.decisions import Outcome, OutcomeKind
from pytest_fairy.explore.evidence import Against, Contradiction, changes_data, contradiction, relevance
from pytest_fairy.explore.facts import Control, Facts
from pytest_fairy.explore.keeps_kept import Forgotten
from pytest_fairy.explore.naming import mentions, names, signs_in
from pytest_fairy.explore.settings_kept import Lost
from pytest_fairy.explore.vocabulary import asks_empty
from pytest_fairy.perception.relevance import overlap, tokens

MOVED_ON = frozenset({OutcomeKind.NEW_STATE, OutcomeKind.STATE_CHANGED})


@dataclass(frozen=True, slots=True)
class Tried:
    """An action taken, with what it did: the evidence a verdict points at."""

    step: int
    words: str
    label: str
    page: str
    outcome: Outcome
    led_to: str = ""  # the title (else the state name) of the screen it led to
    facts: Facts = Facts()
    via: str = ""  # the label of the element whose action first led to its page
    blanks: tuple[str, ...] = ()  # what its page's fields showed at first sight
    to_key: str = ""  # the state it led to
    # Another element, named for the screen this one opened, that led there too: `'关于每日新闻' on 设置`.
    elsewhere: str = ""
    lost: Lost | None = None  # a setting the screen it led to showed lost
    forgotten: Forgotten | None = None  # a keep the screen it led to showed not kept
    named: bool = False  # the feature's words name it (most of its words, and its numbers)

    def __str__(self) -> str:
        """`step 7 (tap [3] 检查更新 on 设置) changed nothing`."""
        return f"step {self.step} ({self.words} on {self.page}) {self.did}"

    @property
    def contradiction(self) -> tuple[Contradiction, str] | None:
        """How its outcome contradicts the feature it was taken for, if it does (`evidence`)."""
        if self.lost is not None:
            return Contradiction.LOST, str(self.lost)
        if self.forgotten is not None:
            return Contradiction.FORGOTTEN, str(self.forgotten)
        found = contradiction(self.outcome.kind, self.facts, self.label, self.led_to)
        if found is None and self.elsewhere:
            return Contradiction.WRONG_SCREEN, f"opened {self.led_to} instead, which {self.elsewhere} opens"
        return found

    def relevance(self, words: frozenset[str]) -> int:
        """How strongly the feature's words point at it (at the setting it found lost, if it did; at the keep
        it found not kept, or at the thing kept)."""
        if self.lost is not None:
            return relevance(self.lost.label, "", Control.OPTION, words)
        if self.forgotten is not None:
            keep = relevance(self.forgotten.label, "", Control.BUTTON, words)
            return max(keep, relevance(self.forgotten.missing, "", Control.OPTION, words))
        as_asked = self.facts.emptied or self.facts.spec_data
        return relevance(self.label, self.via, self.facts.control, words, as_asked)

    @property
    def against(self) -> Against | None:
        """Its contradiction as the check a reproduction makes after it."""
        found = self.contradiction
        if found is None:
            return None
        if self.lost is not None:
            return Against(Contradiction.LOST, self.lost.label, "on" if self.lost.was else "off")
        if self.forgotten is not None:
            forgotten = self.forgotten
            return Against(
                Contradiction.FORGOTTEN, forgotten.label, forgotten.empty, missing=forgotten.missing
            )
        shown = {
            Contradiction.ERROR: self.facts.error,
            Contradiction.WRONG_SCREEN: self.facts.row_shown or self.facts.arrived or self.led_to,
            Contradiction.NOTHING_FOUND: self.facts.nothing_found,
            Contradiction.ACCEPTED: self.facts.accepted,
        }
        wrong = found[0] is Contradiction.WRONG_SCREEN and not self.facts.row_shown  # not: another row's page
        screen = self.led_to if wrong else ""
        return Against(found[0], self.label, shown.get(found[0], ""), screen)

    @property
    def did(self) -> str:
        found = self.contradiction
        if found is not None:
            return found[1]
        match self.outcome.kind:
            case OutcomeKind.NO_CHANGE:
                return "changed nothing"
            case OutcomeKind.CONTENT_CHANGED:
                return "changed only what its page shows"
            case OutcomeKind.NEW_STATE | OutcomeKind.STATE_CHANGED:
                return f"opened {self.led_to}"
            case _:
                return f"{self.outcome.kind} ({self.outcome.detail})"


class Log:
    """Every action the run took, in order."""

    def __init__(self) -> None:
        self._actions: list[Tried] = []

    def add(self, tried: Tried) -> None:
        self._actions.append(self._refused_again(tried))

    def _refused_again(self, tried: Tried) -> Tried:
        """`tried`, as the refusal it met again: a tap that changed nothing while its page still showed the
        error an earlier tap of the same element on that page showed (`Invalid phone number` up since the
        first Confirm). It showed that error as much as the first did; a fixed app would have moved on."""
        facts = tried.facts
        if tried.outcome.kind is not OutcomeKind.NO_CHANGE or facts.error or not facts.showing:
            return tried
        for earlier in reversed(self._actions):
            same = (earlier.label, earlier.page) == (tried.label, tried.page)
            if same and earlier.facts.error and earlier.facts.error in facts.showing:
                return replace(tried, facts=replace(facts, error=earlier.facts.error))
        return tried

    def evidence(self, words: Sequence[str], first: str = "") -> Tried | None:
        """The action that shows the feature (`words`: its oracles, goal, names) not working: one on an
        element the words point to whose outcome contradicts the feature (`evidence`). Of these, the one
        they point to most; of equals, the earliest: the same tap tried again later proves no more, and
        the earliest is the shortest way to show it again. A keep found not kept stands whatever the run
        did after: the page showed what it showed then, and its replay stops there. None: no action of
        the run is evidence."""
        wanted = tokens(" ".join(words))
        scored = [
            (score, t.step, t)
            for t in self._judged_all(first)
            if t.label
            and t.contradiction is not None
            and (score := t.relevance(wanted)) > 0
            and (t.forgotten is not None or self._stands(t, " ".join(words)))
            and not self._did_before(t)
            and not self._shown_before(t)
        ]
        best = max(scored, key=lambda s: (s[0], -s[1]), default=None)
        return best[2] if best is not None else None

    def _did_before(self, tried: Tried) -> bool:
        """A tap that changed nothing right after the same element, on the same page, did something (the
        last action that changed anything): the first tap's effect was there already (the error it
        showed), so the second proves nothing. After a field typed or a box ticked it proves as much as
        any."""
        if tried.contradiction is None or tried.contradiction[0] is not Contradiction.NOTHING:
            return False
        earlier = [
            t for t in self._actions if t.step < tried.step and t.outcome.kind is not OutcomeKind.NO_CHANGE
        ]
        last = earlier[-1] if earlier else None
        return last is not None and last.label == tried.label and last.page == tried.page

    def _shown_before(self, tried: Tried) -> bool:
        """An error another action showed already: the page it came back on still shows it, and that
        earlier action is the one to name. The same element's earlier taps on its page are not another's:
        which of them is the evidence, the data's changes decide (`_stands`)."""
        if tried.contradiction is None or tried.contradiction[0] is not Contradiction.ERROR:
            return False
        return any(
            t.step < tried.step
            and t.facts.error == tried.facts.error
            and (t.label, t.page) != (tried.label, tried.page)
            for t in self._actions
        )

    def at(self, step: int, first: str = "") -> Tried | None:
        """The action taken at `step`, if the run recorded one there."""
        return next((t for t in self._judged_all(first) if t.step == step), None)

    def _judged_all(self, first: str) -> list[Tried]:
        return [self._judged(t, first) for t in self._actions]

    def _judged(self, tried: Tried, first: str) -> Tried:
        """`tried`, knowing what the rest of the run saw: another element, named for the screen it opened,
        that led there too from a page of its own (a drawer's `意见反馈` opening the page that 设置's
        `关于每日新闻` opens). Not for the app's first screen, which a home tab and a logo alike lead back
        to, nor for a sign-in screen, which any element of a signed-out app may lead to."""
        facts = tried.facts
        moved = tried.outcome.kind in MOVED_ON and not (facts.dialog or facts.leaving)
        if not moved or tried.to_key == first or tried.facts.control is not Control.BUTTON:
            return tried
        if not facts.retitled:
            return self._same_heading(tried)
        if mentions(tried.label, tried.led_to) or signs_in(tried.led_to):
            return tried
        for other in self._actions:
            # The very screen (a state folded with its family is not: 商品 23 and 商品 24 share one).
            same = other.to_key == tried.to_key and other.led_to == tried.led_to
            same = same and other.label != tried.label and other.facts.retitled
            if same and other.outcome.kind in MOVED_ON and names(other.label, other.led_to):
                return replace(tried, elsewhere=f"'{other.label}' on {other.page}")
        return self._like_its_siblings(tried)

    def _like_its_siblings(self, tried: Tried) -> Tried:
        """`tried`, a row of a list the feature names, knowing that another row of that list opened the very
        screen it opened, which shows none of its words: `Award Winner: Kyoto` opening the Details page
        every plain row opens (`No more details for this destination`). A row the feature does not name
        (`Kyoto 12`, for "open Kyoto"), or a screen that says what it opened for (`Kyoto`), is not."""
        facts = tried.facts
        if not tried.named or not facts.in_list or facts.echoed:
            return tried
        for other in self._actions:
            sibling = other.facts.in_list == facts.in_list and other.page == tried.page
            same = other.to_key == tried.to_key and other.led_to == tried.led_to
            if sibling and same and other.label != tried.label and other.outcome.kind in MOVED_ON:
                return replace(tried, elsewhere=f"'{other.label}' on {other.page}")
        return tried

    def _same_heading(self, tried: Tried) -> Tried:
        """`tried`, knowing that a sibling on its page opened the very page it opened, under the same
        title (help articles in one WebView), and that page's heading shares words with the sibling's
        label and none with this one's: `如何修改绑定手机号？` opening `发票说明`, which `如何开具发票？`
        opens too."""
        heading = tried.facts.arrived
        if not heading or overlap(tried.label, tokens(heading)):
            return tried
        for other in self._actions:
            sibling = (other.to_key, other.page) == (tried.to_key, tried.page) and other.label != tried.label
            if sibling and other.outcome.kind in MOVED_ON and overlap(other.label, tokens(heading)):
                return replace(tried, led_to=f"'{heading}'", elsewhere=f"'{other.label}' on {other.page}")
        return tried

    def _changed_since(self, tried: Tried, words: str) -> Tried | None:
        """The first action of the feature (`words`) after `tried` that changed the app's data
        (`evidence.changes_data`): what `tried` did then may not be what it does now. None if none did."""
        return next((t for t in self._actions if t.step > tried.step and self._changes(t, words)), None)

    def _stands(self, tried: Tried, words: str) -> bool:
        """Whether `tried` is evidence as far as the app's data goes. Not when the data changed after it
        (`_changes`), so that what it showed may no longer hold - unless the same element on the same page
        showed the same on both sides of such a change (收藏 on 洱海 dead before and after 黄山 was saved):
        the data did not explain it. Nor when it showed the same again after a change that followed it:
        the later one is the evidence, its way through the change (去结算 dead on an empty cart proves
        nothing; dead after 加入购物车 it does) - when it stayed on its page, so that a replay of the later
        one can leave it out; one that led away (an error page) is on the later one's way, evidence itself."""
        seen, changes = self._again(tried, words)
        across = any(min(seen) < c < max(seen) for c in changes)  # the same on both sides of a change
        explained = any(c > tried.step for c in changes) and not across
        superseded = not tried.facts.away and any(tried.step < c < later for later in seen for c in changes)
        return not explained and not superseded

    def _again(self, tried: Tried, words: str) -> tuple[list[int], list[int]]:
        """The steps that showed what `tried` showed on its element and page; the steps that changed the
        app's data."""
        assert tried.contradiction is not None
        same = (tried.label, tried.page, tried.contradiction[0])
        # `tried` itself: judged with the rest of the run (`_judged`), it may show what it alone shows.
        seen = sorted({tried.step, *(u.step for u in self._actions if _sees(u, same))})
        return seen, [c.step for c in self._actions if self._changes(c, words)]

    def same_before(self, step: int) -> set[int]:
        """When the action of `step` changed nothing or showed an error: the earlier taps of its element on
        its page that did the same (changed nothing; showed an error, or met it again)."""
        tried = next((t for t in self._actions if t.step == step), None)
        if tried is None or tried.contradiction is None:
            return set()
        kind = tried.contradiction[0]
        if kind not in (Contradiction.NOTHING, Contradiction.ERROR):
            return set()
        same = (tried.label, tried.page, kind)
        return {u.step for u in self._actions if u.step < step and _sees(u, same)}

    def changed_before(self, step: int, words: Sequence[str]) -> bool:
        """Whether an action of the feature changed the app's data before `step`: a replay of that step
        must take the run's own walk, which changes it too, not a shorter way."""
        wanted = " ".join(words)
        return any(t.step < step and self._changes(t, wanted) for t in self._actions)

    @staticmethod
    def _changes(tried: Tried, words: str) -> bool:
        """An action of the feature (`words`) that changed the app's data: its label mostly the feature's
        words (`订单状态通知` shares one word of five with `我的订单`: not the feature's), or the Save of a
        form an element the feature names opened."""
        ours = mentions(tried.label, words) or (
            tried.relevance(tokens(words)) and not overlap(tried.label, tokens(words))
        )
        return bool(ours) and changes_data(tried.label, tried.facts, tried.outcome.kind)

    def unknown(self, words: Sequence[str], first: str = "") -> list[str]:
        """What the run cannot know of the feature (`words`), though it tried everything it reached: the
        steps against it taken before the feature changed the app's data, and not since; the buttons it
        points to that were only ever tried with their form unset, or, when the feature asks for an empty
        form (`asks_empty`), only with it filled."""
        wanted = tokens(" ".join(words))
        stale: dict[str, str] = {}
        for t in self._judged_all(first):
            change = (
                self._changed_since(t, " ".join(words))
                if t.contradiction is not None and t.relevance(wanted)
                else None
            )
            again = change is not None and any(
                u.step > change.step and u.label == t.label for u in self._actions
            )
            if change is not None and not again:
                stale.setdefault(
                    t.label,
                    f"'{t.label}' on {t.page} {t.did} at step {t.step}, before step {change.step} "
                    f"({change.words}) changed the app's data, and was not tried since",
                )
        pointed = [t for t in self._actions if t.facts.control is Control.BUTTON and t.relevance(wanted) > 0]
        set_once = {(t.page, t.label) for t in pointed if not t.facts.unset}
        unset_at: dict[tuple[str, str], list[Tried]] = {}
        for t in pointed:
            if t.facts.unset and (t.page, t.label) not in set_once:
                unset_at.setdefault((t.page, t.label), []).append(t)
        found = {where: _never_complete(tries) for where, tries in unset_at.items()}
        if asks_empty(" ".join(words)):
            forms = [t for t in pointed if t.blanks]
            emptied = {(t.page, t.label) for t in forms if _empty_fields(t) == len(t.blanks)}
            for t in forms:
                if (t.page, t.label) not in emptied:
                    found.setdefault(
                        (t.page, t.label),
                        f"'{t.label}' on {t.page} never tried with its form empty, as the feature asks",
                    )
        return [*stale.values(), *found.values()]


def _sees(tried: Tried, same: tuple[str, str, Contradiction]) -> bool:
    return tried.contradiction is not None and (tried.label, tried.page, tried.contradiction[0]) == same


def _never_complete(tries: Sequence[Tried]) -> str:
    """A submit tried only with its form incomplete: with which inputs unset, and how many of the form's
    combinations are left (a form of n inputs set or unset has 2**n)."""
    first = tries[0]
    where = f"'{first.label}' on {first.page}"
    combinations = {frozenset(t.facts.unset) for t in tries}
    if len(combinations) == 1:
        return f"{where} tried only with {', '.join(first.facts.unset)}"
    every = [what for what in first.facts.unset if all(what in t.facts.unset for t in tries)]
    inputs = max(t.facts.inputs for t in tries)
    left = max(0, 2**inputs - len(combinations))
    always = f" ({', '.join(every)} each time)" if every else ""
    return (
        f"{where} tried with {len(combinations)} of the {2**inputs} combinations of its {inputs} inputs, "
        f"never with all set{always}: {left} left"
    )


def _empty_fields(tried: Tried) -> int:
    return sum(1 for what in tried.facts.unset if what.endswith(" empty"))
