"""Evidence: the step of a run that shows a feature does not work, when one does.

A feature whose done-when oracles never held is an app defect only with positive evidence: a step that
acted on an element the feature's own words point to, whose outcome contradicts the feature. Having tried
every element proves nothing on its own: the explorer may have typed the wrong thing, skipped the one
combination a form needs, or looked at a page before the data it shows existed.

What contradicts a feature (`Contradiction`), from what the screens before and after the action show
(`facts.Facts`):
- nothing: a button that changed nothing at all - no screen, no content, no toast (even one it may have
  shown again: `Followed`) - with its form set and no query of the run's own making (a search may find none);
- an error: error text (or an error toast) that was not there before, after a button whose form was set,
  with no credentials on either screen (made-up credentials are refused by a working app too), unless
  the spec's inputs gave every field of the form (the tester's own credentials); a validation message
  (`Invalid phone number`, `请输入正确的手机号`) only then: made-up input is refused by a working app too;
  and a tap of a button that changed nothing while its page still showed the error an earlier tap of it
  showed there: the same refusal (`tried.Log`);
- a wrong screen: a tap (not a way out such as Navigate up, nor a dialog's button that closed it) that
  left its page for the screen another element names - one of the same page (a copy-paste slip `我的订单`
  -> `我的收藏`), or one that led to that very screen elsewhere in the run - not merely a screen whose
  title differs from the label; or a
  list's row the feature names that opened the screen another row of that list opened, which shows none
  of its words (`tried.Log`), or a row's page that shows another row's label and none of its words
  (普拉提核心塑形 opening the page of 战绳爆发力训练, the row above it);
- a lost setting: a switch or box the run set, shown the other way when the run came back to its page,
  untouched since (`Settings`);
- kept nothing: a keep tapped once (收藏, Add to favourites) that said it succeeded, then its page of kept
  things (我的收藏) showing no row and saying it is empty (`暂无收藏`), or, every row shown, naming another
  thing the run kept by its page's title but not the title of the page this keep was made on; nothing
  taken back since (`Keeps`);
- nothing found: a search on the spec's own test data (its `inputs`), whose outcome says that nothing
  was found (`No results`, `没有找到`);
- an empty form taken: the commit of a form whose every field is empty, for a feature that asks for it
  so to see it refused (its done-when shows the refusal, `请填写收货人`), that went on to another page
  with no error (`facts.Facts.accepted`).

A form is set when each of its text fields holds something other than what it showed when the page was
first seen (its hint), and each check box is ticked: a submit that does nothing while a field is empty,
or a box unticked, may be the app's validation. Such a submit is no evidence, and the verdict says so.

What points to the feature (`relevance`): the element's label shares words with the feature's own
(name, goal, start, done-when, sub-features); or it commits a form (Save, 提交) on a screen that such an
element opened (the Save of the dialog `Add task` opened).

What an element does may depend on the app's data: Checkout does nothing while the cart is empty. A step
taken before an action of the feature changed the data (`changes_data`: a commit such as Save or 加入购物车,
a switch or box toggled, that did something; an action of the feature when the feature's words hold most
of its label's, or it is the Save of a form the feature opened; not the OK that closes an error alert)
is no evidence until the element is tried again after it. One that showed the same on both sides of
such a change stays evidence: the data did not explain it (`tried.Log`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from pytest_fairy.explore.decisions import OutcomeKind
from pytest_fairy.explore.facts import Control, Facts
from pytest_fairy.explore.naming import (
    MENTIONS_SHARE,
    NAMES_SHARE,
    other_named,
    share,
    signs_in,
)
from pytest_fairy.explore.vocabulary import (
    ALLOWING_LABELS,
    COMMIT_WORDS,
    KEEP_WORDS,
    SUBMIT_QUERY_WORDS,
    says,
)
from pytest_fairy.perception.relevance import overlap

MOVED = frozenset({OutcomeKind.NEW_STATE, OutcomeKind.STATE_CHANGED})


class Contradiction(StrEnum):
    """How an action's outcome contradicts the feature (what a replay must see again)."""

    NOTHING = "nothing"
    ERROR = "error"
    WRONG_SCREEN = "wrong screen"
    LOST = "lost setting"
    FORGOTTEN = "kept nothing"
    NOTHING_FOUND = "nothing found"
    ACCEPTED = "accepted empty"


@dataclass(frozen=True, slots=True)
class Against:
    """A step's contradiction of its feature, as a check an exported reproduction makes after that step:
    the element `label`'s action must change the screen (NOTHING), must not show the error `shown`
    (ERROR), must not open the screen `screen` (WRONG_SCREEN: no `shown`, a text only that screen showed),
    must not say `shown`, that nothing was found (NOTHING_FOUND); what it kept must not show `shown`, that
    there is none, or must list `missing` (FORGOTTEN)."""

    kind: Contradiction
    label: str
    shown: str = ""
    screen: str = ""  # WRONG_SCREEN: the title of the screen it opened
    missing: str = ""  # FORGOTTEN: what its page of kept things did not list

    def __str__(self) -> str:
        match self.kind:
            case Contradiction.NOTHING:
                return f"tapping '{self.label}' changes the screen"
            case Contradiction.ERROR:
                return f"tapping '{self.label}' shows no '{self.shown}'"
            case Contradiction.NOTHING_FOUND:
                return f"searching with '{self.label}' finds something, not '{self.shown}'"
            case Contradiction.ACCEPTED:
                return f"tapping '{self.label}' on the empty form keeps it there, not '{self.shown}'"
            case Contradiction.LOST:
                return f"'{self.label}' stays {self.shown}"
            case Contradiction.FORGOTTEN if self.missing:
                return f"what '{self.label}' kept lists '{self.missing}'"
            case Contradiction.FORGOTTEN:
                return f"what '{self.label}' kept shows, not '{self.shown}'"
            case _:
                return f"tapping '{self.label}' does not open {self.screen or self.shown}"


def contradiction(
    kind: OutcomeKind, facts: Facts, label: str, led_to: str
) -> tuple[Contradiction, str] | None:
    """How an action on `label` that ended `kind` (at the screen titled `led_to`) contradicts the feature,
    in words for the verdict; None when it does not."""
    if facts.searched and facts.nothing_found and facts.control in (Control.BUTTON, Control.FIELD):
        return Contradiction.NOTHING_FOUND, f"found nothing for the spec's input ('{facts.nothing_found}')"
    if facts.control is not Control.BUTTON:
        return None
    if facts.accepted and kind in MOVED:
        return Contradiction.ACCEPTED, f"took the empty form and went on to {led_to} ('{facts.accepted}')"
    if facts.error and not facts.unset and not facts.credentials:
        return Contradiction.ERROR, f"showed '{facts.error}'"
    if facts.unset:
        return None  # the app may be asking for the inputs left unset
    if kind is OutcomeKind.NO_CHANGE and not (facts.toasting or facts.here or facts.query):
        return Contradiction.NOTHING, "changed nothing"
    if kind in MOVED and facts.row_shown:
        return Contradiction.WRONG_SCREEN, f"opened the {led_to} of '{facts.row_shown}', another row, instead"
    if kind in MOVED and facts.retitled and not (facts.dialog or facts.leaving or signs_in(led_to)):
        named = other_named(label, led_to, facts.siblings)
        if named:
            return Contradiction.WRONG_SCREEN, f"opened {led_to} instead, which '{named}' names"
    return None


def changes_data(label: str, facts: Facts, kind: OutcomeKind) -> bool:
    """Whether an action that ended `kind` may have changed what the app keeps: a switch or box toggled
    (not a form's, which its submit keeps), or a button that commits a form (Save, 提交) or keeps
    something where it stands (加入购物车, 收藏; not `我的收藏`, which opens a page), that did something (a
    toast counts: `已加入` on an unchanged page).
    Not one whose outcome showed an error, a submit of a form not set (refused, as a working app may),
    nor the OK that closes an alert telling of a failure: nothing was kept."""
    if kind not in (*MOVED, OutcomeKind.CONTENT_CHANGED) and not facts.toast or facts.acknowledged:
        return False
    if facts.error or facts.control is Control.BUTTON and facts.unset:
        return False
    keeps = says(label, COMMIT_WORDS) or says(label, KEEP_WORDS) and not facts.retitled
    setting = facts.control is Control.OPTION and not facts.on_form
    return setting or (facts.control is Control.BUTTON and keeps)


def relevance(label: str, via: str, control: Control, words: frozenset[str], as_asked: bool = False) -> int:
    """How strongly the feature's words (`tokens` of them) point at an element: the words its label
    shares with them, when they are at least half its words (`国庆特惠 机票低至3折` shares one of eight with
    "search 机票": a banner beside the feature, not one of its elements); else (`确认提交` shares one of
    three with "提交成功") 1 for a form's commit button, or a permission prompt's `Allow`, on a screen an
    element they name opened (most of its words are theirs: `Add task` is not named by "rename a task";
    the `允许` of the prompt `附近门店` raised, for "授权位置信息后能使用「附近门店」"), or on a form
    that holds what the feature asks (`as_asked`: submitted empty as it asks, or holding the spec's own
    test data), a search's `查找` or `Go` too."""
    shared = overlap(label, words)
    if shared and share(label, words) >= MENTIONS_SHARE:
        return shared
    if control is not Control.BUTTON:
        return 0
    if as_asked and says(label, COMMIT_WORDS | SUBMIT_QUERY_WORDS):
        return 1
    finishes = says(label, COMMIT_WORDS) or label.strip().casefold() in ALLOWING_LABELS
    return 1 if finishes and via and share(via, words) >= NAMES_SHARE else 0
