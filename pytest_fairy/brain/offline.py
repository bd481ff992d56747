"""The offline brain: a deterministic, systematic explorer that needs no LLM and no API key.

It keeps a frontier of untried elements per state, tries the ones most relevant to the feature first
(goal, sub-feature and done-when words), fills text fields with plausible values, scrolls lists a
bounded number of times, backs out of dialogs and pages whose frontier is spent, and declares the
feature explored when the start page has nothing left to try. It is the default without an API key and
the baseline an LLM brain has to beat.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from pytest_fairy.action import Action, ActionKind, Direction
from pytest_fairy.brain.base import Decision, Judgement, OutcomeKind, Plan, StepContext, Usage
from pytest_fairy.brain.relevance import overlap, tokens
from pytest_fairy.guard import GuardVerdict
from pytest_fairy.perception.layers import LayerKind
from pytest_fairy.perception.screen import Mark, Screen
from pytest_fairy.target import Target

MAX_SCROLLS_PER_STATE = 3
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


class OfflineBrain:
    name = "offline"
    model: str | None = None

    def __init__(self) -> None:
        self._tried: defaultdict[str, set[str]] = defaultdict(set)
        self._tried_anywhere: defaultdict[str, int] = defaultdict(int)
        self._submits: defaultdict[str, set[str]] = defaultdict(set)
        self._goal = ""
        self._scrolls: defaultdict[str, int] = defaultdict(int)
        self._root: str | None = None
        self._topic: frozenset[str] = frozenset()
        self._hints: frozenset[str] = frozenset()

    def plan(self, target: Target, screen: Screen) -> Plan:
        self._topic = tokens(target.words())
        self._hints = tokens(" ".join(target.done_hints))
        self._goal = " ".join((target.goal, *target.done_hints))
        steps = tuple(f"explore {name}" for name in target.sub_features) or (f"explore {target.feature}",)
        return Plan(root=target.feature, sub_features=target.sub_features, steps=steps)

    def decide(self, ctx: StepContext) -> Decision:
        state = ctx.state.key
        if self._root is None:
            self._root = state
        if ctx.screen.package != ctx.target.package and not ctx.screen.has_dialog:
            return Decision(Action(ActionKind.RESTART), f"left the app (now in {ctx.screen.package or '?'})")
        if _looping(ctx.warning):
            # The guard saw us going round: treat this page as spent and leave it.
            self._tried[state].update(c.key for c in self._candidates(ctx))
        untried = [c for c in self._candidates(ctx) if c.key not in self._tried[state]]
        if untried:
            best = max(untried, key=lambda c: (c.score, -c.order))
            self._tried[state].add(best.key)
            self._tried_anywhere[best.ref] += 1
            if best.submits:
                self._submits[state].add(best.key)
            if best.action.kind is ActionKind.SCROLL:
                self._scrolls[state] += 1
            if best.action.kind is ActionKind.TYPE:
                # A field filled: the page's submit buttons may do something new now.
                self._tried[state] -= self._submits[state]
            return Decision(best.action, best.why, sub_feature=ctx.plan.root)
        return self._leave(ctx)

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
        screen = ctx.screen
        if screen.has_dialog:
            way_out = screen.dismiss_mark()
            key = f"dismiss|{way_out.ref}" if way_out else "dismiss|back"
            if way_out is not None and key not in self._tried[ctx.state.key]:
                self._tried[ctx.state.key].add(key)
                return Decision(
                    Action(ActionKind.TAP, way_out.number), f"dialog explored: close it via '{way_out.label}'"
                )
            return Decision(Action(ActionKind.BACK), "dialog explored: back out of it")
        if ctx.state.key == self._root:
            return Decision(None, "every element reachable from the start page has been tried")
        if ctx.last is not None and ctx.last.kind is OutcomeKind.NO_CHANGE and ctx.last.action == "back":
            return Decision(Action(ActionKind.RESTART), "back does not leave this page: restart the app")
        return Decision(Action(ActionKind.BACK), "page explored: go back")

    def _candidates(self, ctx: StepContext) -> list[Candidate]:
        screen, state = ctx.screen, ctx.state.key
        chosen = self._goal_choices(screen)
        found: list[Candidate] = []
        for order, mark in enumerate(screen.marks):
            if screen.has_dialog and mark.layer in (LayerKind.APP, LayerKind.SYSTEM_UI):
                continue
            if _undoes(mark, chosen):
                continue
            found.extend(self._actions_for(mark, order, ctx, commit=bool(chosen)))
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

    def _actions_for(self, mark: Mark, order: int, ctx: StepContext, *, commit: bool) -> list[Candidate]:
        node, label, ref = mark.node, mark.label, mark.ref
        relevance = 3 * overlap(label, self._hints) + overlap(label, self._topic)
        score = relevance * 10 - self._tried_anywhere[ref] * 3 - (40 if _leaves(mark) else 0)
        if node.editable:
            # Forms first: a submit button tried before its fields are filled teaches nothing. But a
            # search box narrows what is on screen: try the page's own elements before searching.
            searching = any(word in f"{node.resource_id} {label}".lower() for word in SEARCH_WORDS)
            action = Action(ActionKind.TYPE, mark.number, _plausible_text(mark, ctx.target))
            bonus = -15 if searching else FORM_FIRST_BONUS
            return [Candidate(score + bonus, order, action, f"type|{ref}", f"fill '{label}'", ref)]
        if node.scrollable and not (node.clickable or node.checkable):
            action = Action(ActionKind.SCROLL, mark.number, direction=Direction.DOWN)
            key = f"scroll|{ref}|{self._scrolls[ctx.state.key]}"
            return [Candidate(score - 20, order, action, key, f"scroll '{label or 'list'}' for more", ref)]
        submits = "Button" in node.class_name and not node.checkable
        why = f"unexplored element '{label}'"
        if relevance:
            why += f" matching the feature (relevance {relevance})"
        if commit and label.strip().lower() in CONFIRM_WORDS:
            score += COMMIT_BONUS
            why = f"the option the goal names is chosen: confirm it with '{label}'"
        kind = ActionKind.LONG_TAP if node.long_clickable and not node.clickable else ActionKind.TAP
        return [Candidate(score, order, Action(kind, mark.number), f"{kind}|{ref}", why, ref, submits)]


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
