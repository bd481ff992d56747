"""What the offline brain may try on a screen, and how promising each is: one scored `Candidate` per
action a marked element offers (fill a field, scroll a list, tap, long-tap).

The score weighs relevance to the feature (its goal, sub-feature and done-when words: `Focus`) and what
the element likely does: a form's fields before its submit, new pages before toggles, a way out of the
page last, the confirm button once the option the goal names is chosen. Elements of a risky category the
target does not allow are no candidates at all. Pure: the brain (brain/offline.py) passes in what it has
learnt (how often each element was tried anywhere, how often this page was scrolled).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Mapping, Set
from dataclasses import dataclass, replace

from pytest_fairy.brain.choices import (
    goal_choices,
    group_of,
    names_option,
    picks,
    unchecks,
    undoes,
    unset_groups,
)
from pytest_fairy.brain.field_values import text_for
from pytest_fairy.explore.action import Action, ActionKind, Direction
from pytest_fairy.explore.decisions import StepContext
from pytest_fairy.explore.target import Target
from pytest_fairy.explore.vocabulary import LEAVING_LABELS, REFUSING_LABELS, asks_empty, asks_refusal
from pytest_fairy.perception.layers import LayerKind
from pytest_fairy.perception.refs import family, list_row
from pytest_fairy.perception.relevance import loose_overlap, overlap, tokens, with_forms
from pytest_fairy.perception.screen import Mark, Screen, in_tab_row
from pytest_fairy.spec.risk import risky_category

# A list is scrolled until a scroll moves nothing (its end); this many scrolls of one list on one page at
# most, whatever happens: a feed that never ends is not scrolled for ever (the step budget ends it first).
MAX_SCROLLS_PER_LIST = 200
# Scrolling a list for more rows: after the page's own elements, before its ways out; first of all when
# the feature's oracles are unmet and nothing on screen matches them (search by scrolling).
SCROLL_SCORE = -20
SEARCH_SCROLL_SCORE = 5
# Screens of a list scrolled in search before its visible rows are tried, unless what the feature waits
# for looks like one of its rows: then to the end.
SEARCH_SCROLLS = 3
# A row of tabs this low on the screen (its top below this share of the height) is the app's sections;
# so is the drawer the toolbar's menu button opens (its bottom above this share of the height).
SECTIONS_FROM = 0.8
TOOLBAR_TO = 0.15
NAVIGATION_LABELS = frozenset({"menu", "菜单", "open drawer", "打开菜单", "侧边栏"})
# What a word of the label in another form of a feature's word adds to the score (a word itself: 10).
RESEMBLES_WEIGHT = 5
# An element the goal names by its whole label (`柴火大院 五常大米 5kg`, `商品 300`).
NAMED_RELEVANCE = 5
# A word on at least this share of a list's visible rows is the list's, not a row's.
ROW_WORD_SHARE = 0.6
TOGGLE_PENALTY = 15
FORM_FIRST_BONUS = 100
# Labels that lead away rather than deeper: explored last, so the frontier of a page is spent first.
LEAVING_WORDS = LEAVING_LABELS | {"up"}
LEAVING_IDS = ("up", "back", "close", "navigate", "home_as_up")
SEARCH_WORDS = ("search", "搜索", "查找")
CONFIRM_WORDS = frozenset({"确定", "确认", "完成", "保存", "提交", "ok", "done", "save", "confirm", "apply"})
COMMIT_BONUS = 50
# In an open exploration (no done-when oracle to reach), a form's submit button goes after the page's
# other ways on (links such as 忘记密码 / 注册): submitting often leaves the page for good (a login page is
# not seen again once logged in). So do its fields, filled just before the submit that needs them: what is
# typed before a link is lost with the page. With an oracle to reach, the form is the main road: first.
SUBMIT_LAST_PENALTY = 10

# A screen showing Han characters is in Chinese: what is typed into it is too.
_HAN = re.compile(r"[\u4e00-\u9fff]")


@dataclass(frozen=True, slots=True)
class Candidate:
    """One action an element offers, scored. `key` is what the brain remembers as tried on a page (kind
    and ref); `ref` names the element across pages; `toggle`: it changes the page's content, not the page."""

    score: int
    order: int
    action: Action
    key: str
    why: str
    ref: str = ""
    submits: bool = False
    relevant: bool = False
    toggle: bool = False
    named: bool = False  # the goal names this very element by its whole label
    fills: bool = False  # part of filling the page's form: a field, a box, a choice it asks for

    @property
    def searching(self) -> bool:
        """A scroll in search of what the feature waits for (scored above a scroll for more rows)."""
        return self.action.kind is ActionKind.SCROLL and self.score > SCROLL_SCORE


@dataclass(frozen=True, slots=True)
class Focus:
    """What the feature is about, as words: the target's (`topic`), its done-when hints, and the goal text."""

    topic: frozenset[str] = frozenset()
    hints: frozenset[str] = frozenset()
    goal: str = ""
    empty: bool = False  # the feature asks for a form submitted empty: its fields are left so
    refuses: bool = False  # the feature asks for a refusal (a permission denied): the refusing choice first

    @classmethod
    def of(cls, target: Target) -> Focus:
        return cls(
            topic=tokens(target.words()),
            hints=tokens(" ".join(target.done_hints)),
            goal=" ".join((target.goal, *target.done_hints)),
            empty=asks_empty(f"{target.feature} {target.goal}"),
            refuses=asks_refusal(f"{target.feature} {target.goal}"),
        )


def find_candidates(
    ctx: StepContext,
    focus: Focus,
    tried_anywhere: Mapping[str, int],
    scrolls: Mapping[str, int],
    ended: Set[str] = frozenset(),
    again: Set[str] = frozenset(),
    sought: str = "",
) -> list[Candidate]:
    """What may be tried on this screen, scored. `tried_anywhere`: how often each element (by ref) was
    tried on any page; `scrolls`: how often each list (by ref) was scrolled on this page; `ended`: the
    lists of this page a scroll found at their end; `again`: the keys worth another try here (the app's
    data changed since they were tried); `sought`: the name the goal quotes for its next step, not on
    screen (brain/goal_order.py)."""
    screen = ctx.screen
    chosen = goal_choices(screen, focus.goal)
    unset = unset_groups(screen)
    submit_last = not ctx.unmet_oracles and any(mark.node.editable for mark in screen.marks)
    # A form the feature asks to submit empty ("submit the empty form"): its fields are left empty.
    form = any(m.node.editable for m in screen.marks)
    empty_first = focus.empty and form and any(m.node.push_button and not _leaves(m) for m in screen.marks)
    common = _common_row_words(screen)
    found: list[Candidate] = []
    for order, mark in enumerate(screen.marks):
        if screen.has_dialog and mark.layer in (LayerKind.APP, LayerKind.SYSTEM_UI):
            continue
        if undoes(mark, chosen) or unchecks(mark, ctx.target.keep_checked):
            continue
        if scrolls_list(mark):
            if mark.ref not in ended and scrolls.get(mark.ref, 0) < MAX_SCROLLS_PER_LIST:
                found.append(_scroll(mark, order, scrolls.get(mark.ref, 0)))
            continue
        found.extend(
            _actions_for(
                mark,
                order,
                ctx,
                focus,
                tried_anywhere,
                common.get(family(mark.ref), frozenset()),
                commit=bool(chosen),
                submit_last=submit_last,
                empty_first=empty_first,
                form=form,
                required=mark.node.checkable and group_of(mark.node) in unset,
            )
        )
    ways_on = [c for c in found if c.action.kind not in _NOT_A_WAY_ON]
    # The goal's next step is a name it quotes, not on screen, that shares words with the rows: a row
    # further down (`莘庄 春申城 3室2厅` among `大宁 大宁金座 3室2厅`; not `收藏` among products).
    seeking = bool(sought) and bool(_row_words(screen) & tokens(sought))
    if seeking or (
        ctx.unmet_oracles
        and not any(c.named and (not tried_anywhere.get(c.ref) or c.key in again) for c in ways_on)
    ):
        # What the feature waits for is not on screen: look further down the lists first - to the end
        # when it looks like a row of a list (`商品 300`; a product among products), else a few screens
        # when nothing on screen matches it at all.
        like_a_row = seeking or bool(_row_words(screen) & tokens(" ".join(ctx.unmet_oracles)))
        fresh = [c for c in ways_on if not tried_anywhere.get(c.ref) or c.key in again]
        if like_a_row or not any(c.relevant for c in fresh):
            # Before the rows that only resemble it, when it looks like a row; else before what is unrelated.
            score = max((c.score + 1 for c in ways_on), default=0) if like_a_row else SEARCH_SCROLL_SCORE
            found = [
                _searching(c, max(score, SEARCH_SCROLL_SCORE))
                if _search(c, scrolls, like_a_row=like_a_row)
                else c
                for c in found
            ]
        here = bool(tokens(screen.title) & (focus.hints | focus.topic))  # a page the feature names
        if not like_a_row and not here and not any(c.relevant or c.score > 0 for c in fresh):
            # Nothing here is the feature's, nor resembles its words, nor is this a page it names: the
            # app's other sections (a bottom navigation's tabs not yet opened, the navigation drawer) show
            # where it may be, each for one step, before this page is searched in depth.
            sections = {ref for ref in _sections(screen) - screen.own_tabs() if not tried_anywhere.get(ref)}
            found = [_opening_section(c) if c.ref in sections else c for c in found]
    return found


def _sections(screen: Screen) -> set[str]:
    """The refs of the app's navigation: a bottom navigation's tabs (a row of tabs low on the screen), and
    the toolbar's button that opens the navigation drawer (`Menu`, `菜单`, `Open navigation menu`)."""
    bounds = screen.bounds
    low, high = bounds.top + SECTIONS_FROM * bounds.height, bounds.top + TOOLBAR_TO * bounds.height
    tabs = {m.ref for m in screen.marks if in_tab_row(m.node) and m.bounds.top >= low}
    menu = {m.ref for m in screen.marks if m.bounds.bottom <= high and _opens_navigation(m.label)}
    return tabs | menu


def _opens_navigation(label: str) -> bool:
    words = label.strip().casefold()
    return words in NAVIGATION_LABELS or "navigation" in words or "导航" in words


def _opening_section(candidate: Candidate) -> Candidate:
    why = candidate.why + ": another section of the app, as nothing here matches the feature"
    return replace(candidate, score=max(candidate.score, SEARCH_SCROLL_SCORE + 1), why=why)


def _row_words(screen: Screen) -> frozenset[str]:
    """The words of every list row on screen."""
    words = (tokens(m.label) for m in screen.marks if m.label and list_row(m.node) is not None)
    return frozenset().union(*words)


# What does not count as a way on to what the feature waits for: filling a field (a search box narrows
# the list rather than finding what is further down), scrolling itself.
_NOT_A_WAY_ON = frozenset({ActionKind.SCROLL, ActionKind.TYPE})


def _search(candidate: Candidate, scrolls: Mapping[str, int], *, like_a_row: bool) -> bool:
    scrolling = candidate.action.kind is ActionKind.SCROLL
    return scrolling and (like_a_row or scrolls.get(candidate.ref, 0) < SEARCH_SCROLLS)


def scrolls_list(mark: Mark) -> bool:
    """The element is a list to scroll (scrollable, not itself tapped or ticked)."""
    node = mark.node
    return node.scrollable and not (node.clickable or node.checkable)


def _scroll(mark: Mark, order: int, scrolled: int) -> Candidate:
    """Scroll the list for more rows: new rows are the page's new elements."""
    action = Action(ActionKind.SCROLL, mark.number, direction=Direction.DOWN)
    why = f"scroll '{mark.label or mark.node.short_id or 'list'}' for more rows"
    return Candidate(SCROLL_SCORE, order, action, f"scroll|{mark.ref}|{scrolled}", why, mark.ref)


def _searching(candidate: Candidate, score: int) -> Candidate:
    why = candidate.why + ": what the feature waits for is not on screen"
    return replace(candidate, score=score, why=why)


def _common_row_words(screen: Screen) -> dict[str, frozenset[str]]:
    """For each family of list rows on screen (`refs.family`), the words most of its visible rows share
    (`商品` of `商品 1`..`商品 12`; a row clipped at the list's edge may show only its price): they match
    the feature on every row alike, so they tell no row apart."""
    rows: defaultdict[str, list[frozenset[str]]] = defaultdict(list)
    for mark in screen.marks:
        if list_row(mark.node) is not None and mark.label:
            rows[family(mark.ref)].append(tokens(mark.label))
    shared: dict[str, frozenset[str]] = {}
    for key, words in rows.items():
        if len(words) > 1:
            counts = Counter(word for row in words for word in row)
            shared[key] = frozenset(w for w, n in counts.items() if n / len(words) >= ROW_WORD_SHARE)
    return shared


def best(candidates: list[Candidate]) -> Candidate:
    """The highest score; of equals, the first in reading order."""
    return max(candidates, key=lambda c: (c.score, -c.order))


def _actions_for(
    mark: Mark,
    order: int,
    ctx: StepContext,
    focus: Focus,
    tried_anywhere: Mapping[str, int],
    shared: frozenset[str],
    *,
    commit: bool,
    submit_last: bool,
    empty_first: bool = False,
    form: bool = False,
    required: bool = False,
) -> list[Candidate]:
    node, label, ref = mark.node, mark.label, mark.ref
    risk = risky_category(label) if label else None
    if risk is not None and risk not in ctx.target.allowed_risks:
        return []  # the policy would deny it: do not spend a step finding that out
    hints, topic = focus.hints - shared, focus.topic - shared
    relevance = 3 * overlap(label, hints) + overlap(label, topic)
    # Another form of the feature's words (`Archive` for "archived") ranks it higher, but only the words
    # themselves make it the feature's own (tried again after a change of data, never sampled away).
    resembles = (
        3 * loose_overlap(label, with_forms(hints)) + loose_overlap(label, with_forms(topic)) - relevance
    )
    named = bool(label) and (_names(focus.goal, label) or node.checkable and names_option(focus.goal, label))
    named = named or (focus.refuses and label.strip().casefold() in REFUSING_LABELS)  # `deny` -> Don't allow
    if named:
        relevance += NAMED_RELEVANCE  # the goal names this very element (`商品 300` of `商品 1`..`商品 300`)
    score = (
        relevance * 10
        + resembles * RESEMBLES_WEIGHT
        - tried_anywhere.get(ref, 0) * 3
        - (40 if _leaves(mark) else 0)
    )
    if empty_first and (node.editable or node.checkable or picks(mark)):
        return []  # the feature asks for its form submitted empty: nothing of it is filled or chosen
    if node.editable:
        # Forms first: a submit button tried before its fields are filled teaches nothing. But a
        # search box narrows what is on screen: try the page's own elements before searching. In an open
        # exploration the fields wait with their submit (`submit_last`).
        searching = any(word in f"{node.resource_id} {label}".lower() for word in SEARCH_WORDS)
        text = text_for(mark, ctx.target, chinese=_HAN.search(ctx.screen.text) is not None)
        given = {value for _, value in ctx.target.inputs if value}
        if not text or node.text == text or node.text in given:
            # The spec's inputs keep it empty; or it holds that text, or the spec's own (its hint gone
            # after a refused submit), already: typing it again would replace it with itself.
            return []
        action = Action(ActionKind.TYPE, mark.number, text)
        bonus = -15 if searching else -SUBMIT_LAST_PENALTY if submit_last else FORM_FIRST_BONUS
        why = f"fill '{label}'"
        return [Candidate(score + bonus, order, action, f"type|{ref}", why, ref, relevant=True, fills=True)]
    picker = form and picks(mark)
    submits = mark.node.push_button and not picker and not in_tab_row(node)  # a tab opens, it submits nothing
    if submits and submit_last:
        score -= SUBMIT_LAST_PENALTY
    form_box = form and "CheckBox" in node.class_name and not node.checked
    if form_box or picker or required:
        # A form's box (I agree to the terms) is set with its fields, before the submit; so is a choice it
        # asks for (看房日期：请选择); and a group of options with none chosen wants one before its confirm.
        score += FORM_FIRST_BONUS
    elif node.checkable:
        # A toggle changes the page's content, rarely the page: new pages first.
        score -= TOGGLE_PENALTY
    why = f"unexplored element '{label}'"
    if form_box or picker:
        why = f"{'tick' if form_box else 'pick'} '{label}' with the form's fields"
    elif required:
        why = f"choose '{label}': its options have none chosen"
    if relevance:
        why += f" matching the feature (relevance {relevance})"
    elif resembles:
        why += " resembling the feature's words"
    if commit and label.strip().lower() in CONFIRM_WORDS:
        score += COMMIT_BONUS
        why = f"the option the goal names is chosen: confirm it with '{label}'"
    kind = ActionKind.LONG_TAP if node.long_clickable and not node.clickable else ActionKind.TAP
    relevant = relevance > 0 or why.startswith("the option the goal names")
    action = Action(kind, mark.number)
    toggle = node.checkable and not (form_box or required)  # part of filling it, not left for later
    fills = form_box or picker or required
    return [
        Candidate(score, order, action, f"{kind}|{ref}", why, ref, submits, relevant, toggle, named, fills)
    ]


def _names(text: str, label: str) -> bool:
    """`text` names `label` as a whole: `商品 300` names `商品 300`, not `商品 3`."""
    return re.search(rf"(?<![0-9A-Za-z]){re.escape(label)}(?![0-9A-Za-z])", text) is not None


def _leaves(mark: Mark) -> bool:
    if mark.label.strip().lower() in LEAVING_WORDS:
        return True
    short_id = mark.node.short_id.lower()
    return bool(short_id) and any(part in LEAVING_IDS for part in short_id.split("_"))
