"""The offline brain: a deterministic, systematic explorer that needs no LLM and no API key.

It keeps a frontier of untried elements per state, tries the ones most relevant to the feature first
(goal, sub-feature and done-when words), fills text fields with plausible values, scrolls lists a
bounded number of times, backs out of dialogs and pages whose frontier is spent, and declares the
feature explored when the start page has nothing left to try. It is the default without an API key and
the baseline an LLM brain has to beat.
"""

from __future__ import annotations

import re
from collections import defaultdict, deque
from dataclasses import dataclass

from pytest_fairy.brain.relevance import overlap, tokens
from pytest_fairy.explore.action import Action, ActionKind, Direction
from pytest_fairy.explore.decisions import Decision, Judgement, OutcomeKind, Plan, StepContext, Usage
from pytest_fairy.explore.guard import GuardVerdict
from pytest_fairy.explore.target import Target
from pytest_fairy.perception.layers import LayerKind
from pytest_fairy.perception.screen import Mark, Screen
from pytest_fairy.spec.risk import risky_category

MAX_SCROLLS_PER_STATE = 3
# Rows of a list that all open the same page are sampled this many times, not tapped one by one.
FAMILY_SAMPLE = 2
_REF_TEXT = re.compile(r"\[[^\]]*\]")
TOGGLE_PENALTY = 15
# Walking back to unfinished pages gives up after this many steps without finding new work.
MAX_WALK_STEPS = 8
NAVIGABLE = frozenset({ActionKind.TAP, ActionKind.LONG_TAP, ActionKind.BACK})
FORM_FIRST_BONUS = 100
# Labels that lead away rather than deeper: explored last, so the frontier of a page is spent first.
LEAVING_WORDS = frozenset(
    {
        "返回",
        "back",
        "navigate up",
        "转到上一层级",
        "向上导航",
        "关闭",
        "close",
        "取消",
        "cancel",
        "up",
    }
)
LEAVING_IDS = ("up", "back", "close", "navigate", "home_as_up")
SEARCH_WORDS = ("search", "搜索", "查找")
CONFIRM_WORDS = frozenset({"确定", "确认", "完成", "保存", "提交", "ok", "done", "save", "confirm", "apply"})
COMMIT_BONUS = 50
# In an open exploration (no done-when oracle to reach), a form's submit button goes after the page's
# other ways on (links such as 忘记密码 / 注册): submitting often leaves the page for good (a login page is
# not seen again once logged in). With an oracle to reach, the submit is the main road and goes first.
SUBMIT_LAST_PENALTY = 10

PLAUSIBLE_VALUES = (
    (("password", "密码", "pwd"), "Passw0rd!"),
    (("email", "邮箱", "mail"), "qa@example.com"),
    (("phone", "mobile", "手机", "电话"), "13800138000"),
    (("user", "name", "账号", "用户", "昵称"), "qa_tester"),
    (("search", "搜索"), ""),  # filled with the feature's first word
    (("title", "标题"), "测试标题 test"),
    (("code", "验证码"), "123456"),
    (("address", "地址"), "上海市黄浦区人民大道 1 号"),
)
DEFAULT_TEXT = "测试内容 test input"


@dataclass(frozen=True, slots=True)
class Candidate:
    score: int
    order: int
    action: Action
    key: str
    why: str
    ref: str = ""
    submits: bool = False
    relevant: bool = False
    toggle: bool = False


class OfflineBrain:
    name = "offline"
    model: str | None = None

    def __init__(self) -> None:
        self._tried: defaultdict[str, set[str]] = defaultdict(set)
        self._tried_anywhere: defaultdict[str, int] = defaultdict(int)
        self._submits: defaultdict[str, set[str]] = defaultdict(set)
        self._reopened: defaultdict[str, set[str]] = defaultdict(set)
        self._family_led_to: defaultdict[str, list[str]] = defaultdict(list)
        self._scrolls: defaultdict[str, int] = defaultdict(int)
        # What the brain has learnt of the app: state -> {action key: (next state, kind, ref)}, and how
        # many untried elements each state had when last seen. Enough to walk back to unfinished pages.
        self._edges: defaultdict[str, dict[str, tuple[str, ActionKind, str]]] = defaultdict(dict)
        self._open: dict[str, int] = {}
        self._toggles: dict[str, int] = {}
        self._searched: set[str] = set()
        # Fields typed into since the brain came to the current page: a submit wants its form filled, and a
        # relaunch empties a login form that was filled before.
        self._filled_here: set[str] = set()
        self._heading: str | None = None
        self._last: tuple[str, str, ActionKind, str] | None = None
        # Pages whose back leaves the app (the app's first page): backing out of them ends the run.
        self._exits: set[str] = set()
        self._foreign: set[str] = set()
        self._walks = 0
        self._root: str | None = None
        self._goal = ""
        self._topic: frozenset[str] = frozenset()
        self._hints: frozenset[str] = frozenset()

    def plan(self, target: Target, screen: Screen, som_jpeg: bytes = b"") -> Plan:
        self._topic = tokens(target.words())
        self._hints = tokens(" ".join(target.done_hints))
        self._goal = " ".join((target.goal, *target.done_hints))
        steps = tuple(f"explore {name}" for name in target.sub_features) or (f"explore {target.feature}",)
        return Plan(root=target.feature, sub_features=target.sub_features, steps=steps)

    def decide(self, ctx: StepContext) -> Decision:
        state = ctx.state.key
        outside = ctx.screen.package != ctx.target.package and not ctx.screen.has_dialog
        if outside:
            self._foreign.add(state)
        self._learn(state)
        if self._root is None:
            self._root = state
        if outside:
            return self._chose(
                state,
                Action(ActionKind.RESTART),
                "restart",
                "",
                f"left the app (now in {ctx.screen.package or '?'})",
            )
        candidates = self._candidates(ctx)
        if _looping(ctx.warning):
            # The guard saw us going round: what keeps us on this page (fields, toggles, scrolling) is
            # spent; only an untried way off the page is still worth a step.
            self._tried[state].update(c.key for c in candidates if not _navigates(c))
        untried = [c for c in candidates if self._fresh(state, c)]
        # Pages first, toggles later: a new page is worth more than a radio flipped on a known one, so
        # toggles wait until no page with untried navigation is reachable.
        leading = [
            c for c in untried if not c.toggle or (c.relevant and c.action.kind is not ActionKind.SCROLL)
        ]
        # What is left here once this step's choice is made: the counts walks steer by.
        self._open[state] = max(0, len(leading) - 1)
        self._toggles[state] = len(untried) - len(leading) - (0 if leading else 1)
        if leading:
            return self._try(state, _best(leading), ctx, candidates)
        heading = self._heading
        if heading is not None and heading != state:
            # On the way to a page with work left: keep going rather than rethink at every hop.
            walk = self._walk(ctx, {heading: 1})
            if walk is not None:
                return walk
        self._heading = None
        if untried and state in self._searched:
            return self._try(state, _best(untried), ctx, candidates)
        walk = self._walk(ctx, self._open)
        if walk is not None:
            return walk
        searching = self._pages_left(state) and state != self._root and state not in self._searched
        if searching:
            # Back, once per page, towards pages with untried navigation that no known path reaches.
            self._searched.add(state)
            return self._leave(ctx)
        if untried:
            return self._try(state, _best(untried), ctx, candidates)
        walk = self._walk(ctx, self._toggles)  # second pass: toggles left on other pages
        return walk if walk is not None else self._leave(ctx)

    def _pages_left(self, here: str) -> bool:
        """Some other page still has untried navigation, though no known path leads there yet."""
        return any(count > 0 for state, count in self._open.items() if state != here)

    def _fresh(self, state: str, candidate: Candidate) -> bool:
        """Worth trying here: not tried in this state, and either new anywhere or relevant to the goal.

        The same element on a sibling page (the size options of every product) teaches nothing new,
        unless the feature is about it.
        """
        if candidate.key in self._tried[state]:
            return False
        if candidate.relevant or candidate.key in self._reopened[state]:
            return True
        led_to = self._family_led_to[_family(candidate.ref)]
        if len(led_to) >= FAMILY_SAMPLE and len(set(led_to)) == 1:
            return False  # its siblings (rows of one list) all open the same page: one more will too
        return self._tried_anywhere[candidate.ref] == 0

    def _try(self, state: str, best: Candidate, ctx: StepContext, candidates: list[Candidate]) -> Decision:
        if best.submits:
            best = self._unfilled_field(candidates) or best
        self._walks = 0  # new work found: walks may go on
        self._tried[state].add(best.key)
        self._tried_anywhere[best.ref] += 1
        if best.submits:
            self._submits[state].add(best.key)
        if best.action.kind is ActionKind.SCROLL:
            self._scrolls[state] += 1
        if best.action.kind is ActionKind.TYPE:
            self._filled_here.add(best.key)
            # A field filled: the page's submit buttons may do something new now.
            self._tried[state] -= self._submits[state]
            self._reopened[state] |= self._submits[state]
        return self._chose(state, best.action, best.key, best.ref, best.why, ctx.plan.root)

    def _unfilled_field(self, candidates: list[Candidate]) -> Candidate | None:
        """A field of this page's form not filled since the brain came here: filled before a submit."""
        fields = (c for c in candidates if c.action.kind is ActionKind.TYPE)
        return next((c for c in fields if c.key not in self._filled_here), None)

    def _chose(self, state: str, action: Action, key: str, ref: str, why: str, feature: str = "") -> Decision:
        self._last = (state, key, action.kind, ref)
        return Decision(action, why, sub_feature=feature)

    def _learn(self, state: str) -> None:
        """Remember where the last action led, to find the way back to pages with work left."""
        if self._last is not None:
            before, key, kind, ref = self._last
            if before != state:
                self._filled_here.clear()
            if before != state and kind in NAVIGABLE:
                self._edges[before][key] = (state, kind, ref)
            elif before == state:
                self._edges[before].pop(key, None)  # it led somewhere once; not any more
            if kind is ActionKind.BACK and self._outside(state):
                self._exits.add(before)
            if ref:
                self._family_led_to[_family(ref)].append(state)
        self._last = None

    def _outside(self, state: str) -> bool:
        return state in self._foreign

    def _walk(self, ctx: StepContext, work: dict[str, int]) -> Decision | None:
        """The first step of the shortest known path to a page that still has untried elements."""
        if self._walks >= MAX_WALK_STEPS:
            return None
        start = ctx.state.key
        queue: deque[tuple[str, tuple[str, ActionKind, str] | None]] = deque([(start, None)])
        seen = {start}
        while queue:
            state, first = queue.popleft()
            # Only pages the brain has stood on count: a crash dialog or another app is no destination.
            if state != start and work.get(state, 0) > 0 and first is not None:
                key, kind, ref = first
                action = _resolve(kind, ref, ctx.screen)
                if action is None:
                    return None
                self._walks += 1
                self._heading = state
                return self._chose(start, action, key, ref, f"walk back towards unfinished page {state[:40]}")
            for key, (to, kind, ref) in self._edges[state].items():
                if to not in seen:
                    seen.add(to)
                    queue.append((to, first or (key, kind, ref)))
        return None

    def judge(self, ctx: StepContext) -> Judgement:
        if ctx.oracles_met:
            return Judgement(True, "the done-when oracles hold on this screen")
        if ctx.unmet_oracles:
            return Judgement(False, "still unmet: " + "; ".join(ctx.unmet_oracles))
        return Judgement(True, "every reachable element of the feature was tried and no defect was seen")

    def summarize(self, target: Target, story: str) -> str:
        return f"Offline exploration of '{target.feature}' in {target.app_name}.\n{story}"

    def usage(self) -> Usage:
        return Usage()

    def _leave(self, ctx: StepContext) -> Decision:
        screen, state = ctx.screen, ctx.state.key
        if screen.has_dialog:
            way_out = screen.dismiss_mark()
            # The dialog's own button is the way out (many dialogs ignore back); back only without one.
            if way_out is not None:
                key = f"tap|{way_out.ref}"
                self._tried[state].add(key)
                action = Action(ActionKind.TAP, way_out.number)
                return self._chose(
                    state, action, key, way_out.ref, f"dialog explored: close it via '{way_out.label}'"
                )
            return self._chose(state, Action(ActionKind.BACK), "back|", "", "dialog explored: back out of it")
        if state == self._root or state in self._exits:
            return Decision(None, "every element reachable from the start page has been tried")
        if ctx.last is not None and ctx.last.kind is OutcomeKind.NO_CHANGE and ctx.last.action == "back":
            return self._chose(
                state, Action(ActionKind.RESTART), "restart", "", "back does not leave this page: restart"
            )
        return self._chose(state, Action(ActionKind.BACK), "back|", "", "page explored: go back")

    def _candidates(self, ctx: StepContext) -> list[Candidate]:
        screen, state = ctx.screen, ctx.state.key
        chosen = self._goal_choices(screen)
        submit_last = not ctx.unmet_oracles and any(mark.node.editable for mark in screen.marks)
        found: list[Candidate] = []
        for order, mark in enumerate(screen.marks):
            if screen.has_dialog and mark.layer in (LayerKind.APP, LayerKind.SYSTEM_UI):
                continue
            if _undoes(mark, chosen):
                continue
            found.extend(self._actions_for(mark, order, ctx, commit=bool(chosen), submit_last=submit_last))
        if self._scrolls[state] >= MAX_SCROLLS_PER_STATE:
            found = [c for c in found if c.action.kind is not ActionKind.SCROLL]
        return found

    def _goal_choices(self, screen: Screen) -> set[int]:
        """Groups (by parent node) whose checked option is one the goal names: keep it, commit it."""
        return {
            id(mark.node.parent)
            for mark in screen.marks
            if mark.node.checkable and mark.node.checked and mark.label and mark.label in self._goal
        }

    def _actions_for(
        self, mark: Mark, order: int, ctx: StepContext, *, commit: bool, submit_last: bool
    ) -> list[Candidate]:
        node, label, ref = mark.node, mark.label, mark.ref
        risk = risky_category(label) if label else None
        if risk is not None and risk not in ctx.target.allowed_risks:
            return []  # the policy would deny it: do not spend a step finding that out
        relevance = 3 * overlap(label, self._hints) + overlap(label, self._topic)
        score = relevance * 10 - self._tried_anywhere[ref] * 3 - (40 if _leaves(mark) else 0)
        if node.editable:
            # Forms first: a submit button tried before its fields are filled teaches nothing. But a
            # search box narrows what is on screen: try the page's own elements before searching.
            searching = any(word in f"{node.resource_id} {label}".lower() for word in SEARCH_WORDS)
            action = Action(ActionKind.TYPE, mark.number, _plausible_text(mark, ctx.target))
            bonus = -15 if searching else FORM_FIRST_BONUS
            return [
                Candidate(score + bonus, order, action, f"type|{ref}", f"fill '{label}'", ref, relevant=True)
            ]
        if node.scrollable and not (node.clickable or node.checkable):
            action = Action(ActionKind.SCROLL, mark.number, direction=Direction.DOWN)
            key = f"scroll|{ref}|{self._scrolls[ctx.state.key]}"
            why = f"scroll '{label or 'list'}' for more"
            return [Candidate(score - 20, order, action, key, why, ref, relevant=True, toggle=True)]
        submits = "Button" in node.class_name and not node.checkable
        if submits and submit_last:
            score -= SUBMIT_LAST_PENALTY
        if node.checkable:
            # A toggle changes the page's content, rarely the page: new pages first.
            score -= TOGGLE_PENALTY
        why = f"unexplored element '{label}'"
        if relevance:
            why += f" matching the feature (relevance {relevance})"
        if commit and label.strip().lower() in CONFIRM_WORDS:
            score += COMMIT_BONUS
            why = f"the option the goal names is chosen: confirm it with '{label}'"
        kind = ActionKind.LONG_TAP if node.long_clickable and not node.clickable else ActionKind.TAP
        relevant = relevance > 0 or why.startswith("the option the goal names")
        action = Action(kind, mark.number)
        return [Candidate(score, order, action, f"{kind}|{ref}", why, ref, submits, relevant, node.checkable)]


def _best(candidates: list[Candidate]) -> Candidate:
    """The highest score; of equals, the first in reading order."""
    return max(candidates, key=lambda c: (c.score, -c.order))


def _family(ref: str) -> str:
    """The ref with its texts and ordinals taken out: the rows of one list share it."""
    return _REF_TEXT.sub("[]", ref).split("#", 1)[0]


def _resolve(kind: ActionKind, ref: str, screen: Screen) -> Action | None:
    """A remembered action made concrete on this screen: by the element's stable ref, never by position."""
    if kind is ActionKind.BACK:
        return Action(ActionKind.BACK)
    mark = screen.marks_by_ref.get(ref)
    return Action(kind, mark.number) if mark is not None else None


def _undoes(mark: Mark, chosen: set[int]) -> bool:
    """Tapping a checked radio does nothing; tapping a sibling of a goal-named choice undoes it."""
    node = mark.node
    if not node.checkable or "Radio" not in node.class_name:
        return False
    return node.checked or id(node.parent) in chosen


def _leaves(mark: Mark) -> bool:
    if mark.label.strip().lower() in LEAVING_WORDS:
        return True
    short_id = mark.node.short_id.lower()
    return bool(short_id) and any(part in LEAVING_IDS for part in short_id.split("_"))


def _navigates(candidate: Candidate) -> bool:
    kind = candidate.action.kind
    return kind in NAVIGABLE and not candidate.toggle


def _looping(warning: GuardVerdict | None) -> bool:
    return warning is not None and warning.kind.value in ("warn", "escape")


def _plausible_text(mark: Mark, target: Target) -> str:
    hint = f"{mark.node.resource_id} {mark.node.text} {mark.node.content_desc}".lower()
    if mark.node.password:
        return "Passw0rd!"
    for words, value in PLAUSIBLE_VALUES:
        if any(word in hint for word in words):
            return value or (target.feature.split() or ["test"])[0]
    return DEFAULT_TEXT
