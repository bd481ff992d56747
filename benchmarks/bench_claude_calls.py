"""LLM calls per action and prompt size of the Claude brain on a real example app, against a naive
full-history prompt.

    /work/venv/bin/python benchmarks/bench_claude_calls.py [--steps 60] [--queue 5] [--sweep 3 6]

A 60-step exploration of example_suites/food on the virtual device, through the real explorer, the real
ClaudeBrain and the real SDK, against the fake Messages API (tests/claude/fake_api.py) playing a scripted
model ("the tour"). The tour tries every element of each page once (options and list rows first), then
starts the page over. It knows the app only from its prompts: the screens it was sent, and the "last
transitions" each prompt lists, from which it learns where a tap led and keeps the trail of pages it
opened (back returns to the page the current one was opened from). It reads from the `then` description
how many follow-ups it may queue, and plans as far ahead as that knowledge reaches:
- the other options of a group on the same page (those an earlier choice revealed first);
- a tour of the list rows on the screen, folded ones included: open a row, back, open the next, back;
- a way it has walked: taps whose destination it saw, `back` / up to the page it came from, then the
  next untried element waiting there;
- nothing after a tap whose destination it has not seen.
It quotes labels as the screen text shows them, prices and counters included (they move between dumps).
The brain takes a queued action without a call only while the screen is what the tour said it would be;
the tour's guesses are sometimes wrong (two pages titled 麦乐送 go back to different places, a list's
领取 button opens nothing) and those plans are dropped, as they must be.

Printed for the bounded brain and for a naive variant built here only (a multi-turn conversation that
keeps every earlier step's message and answer, no queue):
- input tokens per call (uncached + cache write + cache read, as the fake bills them: text chars / 4,
  images by pixels / 750 - an estimate, not Anthropic's tokenizer) for the call at or just after steps
  5, 20 and 60, and the ratio step 60 / step 5 (target <= 1.2 for the bounded brain);
- the identical prefix: how much of each request repeats the previous request from its start (tools,
  system, then message blocks), i.e. what a cache could serve, as a share of the request;
- LLM calls per executed action (all stages; target <= 0.6), and next_action calls per action;
- for the queue: the calls by stage, the follow-ups the tour proposed, how many the brain took without
  a call, and how many it dropped and why (`ClaudeBrain.queue_stats`); and calls per action for other
  values of `max_queued_actions` (--sweep);
- the cache-read share of prompt tokens per model (--models), with the run's note where the cached
  prefix is shorter than the model caches.

The guard's stagnation limits are raised so that the tour runs its 60 steps; its loop warnings stay on
(and drop queued plans, as they should).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from fairy_virtual import VirtualDevice  # noqa: E402
from fairy_virtual.clock import ManualClock  # noqa: E402
from pytest_fairy.brain.claude import ClaudeBrain, ClaudeSettings  # noqa: E402
from pytest_fairy.brain.claude_api import make_client  # noqa: E402
from pytest_fairy.brain.context import Block  # noqa: E402
from pytest_fairy.brain.follow_ups import QueueStats  # noqa: E402
from pytest_fairy.brain.models import DEFAULT_MODEL  # noqa: E402
from pytest_fairy.brain.tools import Stage  # noqa: E402
from pytest_fairy.explore.decisions import Decision, StepContext  # noqa: E402
from pytest_fairy.explore.explorer import Explorer, ExplorerSettings, Mission  # noqa: E402
from pytest_fairy.explore.guard import GuardLimits  # noqa: E402
from pytest_fairy.explore.target import Target  # noqa: E402
from tests.claude import answers  # noqa: E402
from tests.claude.fake_api import FakeMessagesAPI, Reply, estimate_tokens, tool_reply  # noqa: E402
from tests.claude.stages import stage_of  # noqa: E402

FAKE_KEY = "sk-ant-benchmark-not-a-key"
FOOD = ROOT / "example_suites" / "food"
PROBES = (5, 20, 60)
FLAT_TARGET = 1.2
CALLS_TARGET = 0.6
TOGGLES = ("RadioButton", "CheckBox", "Switch")
RISKY = ("支付", "退出登录", "清空", "去结算")  # the tour leaves these alone: the policy would deny them
DYNAMIC = re.compile(r"¥[\d.]+|(?<![\d:])\d+(?![\d:])")  # prices and counters, not times like 12:30
MARK_LINE = re.compile(
    r'^(?P<indent>\s*)\[(?P<n>\d+)\] (?P<cls>\w+)(?: #\S+)?(?: "(?P<label>[^"]*)")?(?P<rest>.*)$'
)
GUARD = GuardLimits(stagnation_warn=40, stagnation_escape=50, stagnation_stop=60)
DIALOG = " [dialog]"  # a page with a dialog (or sheet) open over it is another page to the tour
TAIL_ENTRY = re.compile(r"\[(?P<n>\d+)\] (?P<label>[^·]+?)\s*(?:·|$)")
TRANSITION = re.compile(
    r"^- step (?P<step>\d+): (?P<action>.+?) -> .+ -> (?P<title>.+) \((?P<state>[^()]+)\)$"
)
STEP_HEADING = re.compile(r"^# Step (\d+) of", re.M)
LIMIT = re.compile(r"At most (\d+) actions")
STOPPED = re.compile(r"Your queued plan stopped before step (\d+)/(\d+)")
BACK = "back"
UP = ("转到上一层级", "Navigate up")  # Android's up button: a model knows it leads where back does


@dataclass(frozen=True)
class Element:
    number: int
    cls: str
    label: str
    in_list: bool
    checked: bool

    @property
    def name(self) -> str:
        """The label without numbers and prices: what stays the same between two looks at the page."""
        return DYNAMIC.sub("", self.label).strip() or self.label


def _section(text: str) -> str:
    return text.rsplit("## The current screen: ", 1)[-1].split("## Task", 1)[0]


def current_screen(text: str) -> tuple[str, list[Element]]:
    """The page (title, and whether a dialog is open) and the marked elements of a step prompt."""
    section = _section(text)
    page = section.split(" (state ", 1)[0] + (DIALOG if ", a dialog is open)" in section else "")
    elements: list[Element] = []
    list_indent: int | None = None
    for line in section.splitlines():
        found = MARK_LINE.match(line)
        stripped = line.strip()
        if found is None and list_indent is not None and stripped.startswith("… and "):
            # The rows the compressed text folds into one line are marked rows all the same.
            tail = stripped.split(":", 1)[-1]
            elements += [
                Element(int(m["n"]), "row", m["label"], True, False) for m in TAIL_ENTRY.finditer(tail)
            ]
            continue
        if found is None:
            continue
        indent = len(found["indent"])
        if list_indent is not None and indent <= list_indent:
            list_indent = None
        if found["cls"] in ("RecyclerView", "ListView", "ScrollView"):
            list_indent = indent
            continue
        if found["label"]:
            checked = found["rest"].split()[:1] == ["checked"]
            elements.append(
                Element(int(found["n"]), found["cls"], found["label"], list_indent is not None, checked)
            )
    return page, elements


def _page_of_state(title: str, state: str) -> str:
    return title + (DIALOG if "+dlg_" in state else "")


def _title(page: str) -> str:
    return page.removesuffix(DIALOG)


def _edge(action: str) -> str:
    """A transition's action as the tour names edges: `back`, or the tapped element's name."""
    if action == BACK:
        return BACK
    label = action.split("] ", 1)[-1] if "] " in action else action
    return DYNAMIC.sub("", label).strip() or label


@dataclass(frozen=True)
class Move:
    """One action of a plan: on `page`, tap `element` (or press back); where it should lead."""

    page: str
    element: Element | None
    leads_to: str | None  # the page it leads to, when the tour has seen where it leads
    same_page: bool = False  # an option: the page stays, its content changes


@dataclass
class Tour:
    """The scripted model: tries every element of each page once (then starts the page over), and plans
    ahead as far as what it has been shown lets it (see the module doc). It knows the app only from the
    prompts: the screens it was sent, and the transitions each prompt lists (where its taps led)."""

    tried: dict[str, set[str]] = field(default_factory=dict)
    pages: dict[str, list[Element]] = field(default_factory=dict)  # each page as last seen
    leads_to: dict[tuple[str, str], str] = field(default_factory=dict)  # (page, element | back) -> page
    page_at: dict[int, str] = field(default_factory=dict)  # the page each step started on
    # The pages the current one was opened from, innermost last: where back (or up) leads.
    trail: list[str] = field(default_factory=list)
    walked: int = 0  # the last step whose transition is in `trail`
    first_looks: dict[str, set[str]] = field(default_factory=dict)  # what each page showed at first
    revealed: set[str] = field(default_factory=set)  # on the current page, not there at the first look
    proposed: int = 0  # follow-ups put in `then`
    _planned: list[Move] = field(default_factory=list)  # the follow-ups of the last answer

    def __call__(self, request: dict[str, Any]) -> Reply:
        stage = stage_of(request)
        if stage != Stage.NEXT_ACTION:
            fixed = {
                "plan": answers.PLAN,
                "summarize": answers.SUMMARY,
                "judge": {**answers.JUDGE, "verdict": "continue", "feature_completed": False},
            }
            return tool_reply(stage, fixed[stage])
        text = "\n".join(b["text"] for b in request["messages"][-1]["content"] if b["type"] == "text")
        self._learn(text)
        page, elements = current_screen(text)
        step = int(STEP_HEADING.search(text)[1])  # type: ignore[index]
        self.page_at[step] = page
        first_look = self.first_looks.setdefault(page, {e.name for e in elements})
        self.revealed = {e.name for e in elements} - first_look
        self.pages[page] = elements
        moves = self._plan(page, self._limit(request))
        first, *then = moves
        self._planned = then
        self.proposed += len(then)
        if first.element is None:
            answer = answers.action(
                BACK, None, why="this page is covered", then=self._follow_ups(first, then)
            )
        else:
            answer = answers.action(
                mark=first.element.number, why=f"try {first.element.name}", then=self._follow_ups(first, then)
            )
        return tool_reply("next_action", answer)

    @staticmethod
    def _limit(request: dict[str, Any]) -> int:
        """How many follow-ups the request allows: the `then` description says so."""
        tool = next(t for t in request["tools"] if t["name"] == Stage.NEXT_ACTION)
        found = LIMIT.search(tool["input_schema"]["properties"]["then"]["description"])
        return int(found[1]) if found else 0

    def _learn(self, text: str) -> None:
        """Where the last actions led (the prompt's transitions), and where the last plan stopped."""
        stopped = STOPPED.search(text)
        if stopped is not None:  # the moves not taken are untried after all
            for move in self._planned[int(stopped[1]) - 2 :]:
                if move.element is not None:
                    self.tried.get(move.page, set()).discard(move.element.name)
        block = text.split("Last transitions (oldest first):", 1)[-1].split("\n## ", 1)[0]
        for line in block.splitlines():
            found = TRANSITION.match(line.strip())
            if found is None:
                continue
            step, reached = int(found["step"]), _page_of_state(found["title"], found["state"])
            source = self.page_at.get(step)
            if source is not None:
                self.leads_to[(source, _edge(found["action"]))] = reached
                if step > self.walked:
                    self._walk(step, source, _edge(found["action"]), reached)
            self.page_at[step + 1] = reached

    def _walk(self, step: int, source: str, edge: str, reached: str) -> None:
        """Keep the trail of opened pages: a tap to another page opens it, back (or up) closes it."""
        if step > self.walked + 1:  # steps the prompts did not show: where back leads is unknown
            self.trail.clear()
        self.walked = step
        if _title(reached) == _title(source):  # a dialog opened or closed, an option changed
            return
        if edge != BACK and edge not in UP:
            self.trail.append(source)
        elif self.trail and _title(self.trail[-1]) == _title(reached):
            self.trail.pop()
        else:
            self.trail.clear()

    def _fresh(self, page: str) -> list[Element]:
        tried = self.tried.setdefault(page, set())
        fresh = {
            e.name: e
            for e in reversed(self.pages.get(page, []))
            if e.name not in tried and not e.checked and not any(word in e.label for word in RISKY)
        }
        return list(fresh.values())[::-1]

    def _plan(self, page: str, limit: int) -> list[Move]:
        """The next action on `page` and as many follow-ups (up to `limit`) as the tour can foresee."""
        moves: list[Move] = []
        trail = list(self.trail)  # as it will be along the plan
        here: str | None = page
        while here is not None and len(moves) <= limit:
            # Back (or up) returns to the page this one was opened from, else where it led the last time.
            back = trail.pop() if trail else self.leads_to.get((here, BACK))
            fresh = self._fresh(here)
            if not fresh:  # the page is covered: start it over next time, go back
                self.tried[here] = set()
                moves.append(Move(here, None, back))
                here = back
                continue
            if back is not None:
                trail.append(back)  # not gone back yet
            # The feature's own ground first: options on this page and list rows, then the way in (麦乐送).
            chosen = min(
                fresh,
                key=lambda e: (
                    e.cls not in TOGGLES,
                    e.name not in self.revealed,
                    not e.in_list,
                    e.name != "麦乐送",
                ),
            )
            self.tried[here].add(chosen.name)
            if chosen.cls in TOGGLES:  # the other options stay on this page; what follows them may not
                # Options that an earlier choice revealed first: going back on that choice may hide them.
                toggles = sorted(
                    (e for e in fresh if e.cls in TOGGLES), key=lambda e: e.name not in self.revealed
                )
                options = toggles[: limit + 1 - len(moves)]
                self.tried[here].update(e.name for e in options)
                moves += [Move(here, e, here, same_page=True) for e in options]
                break
            if chosen.in_list:  # a row opens its detail page: look, come back, open the next row
                moves.append(Move(here, chosen, self.leads_to.get((here, chosen.name))))
                moves.append(Move(moves[-1].leads_to or "", None, here))
                continue
            up = chosen.name in UP
            moves.append(Move(here, chosen, back if up else self.leads_to.get((here, chosen.name))))
            destination = moves[-1].leads_to
            if destination is None or _title(destination) == _title(here):
                break
            if up:
                trail.pop()
            else:
                trail.append(here)
            here = destination
        return moves[: limit + 1]

    @staticmethod
    def _follow_ups(first: Move, then: list[Move]) -> list[dict[str, Any]]:
        """Each follow-up with what the screen must show before it: the page the previous move leads to."""
        out = []
        for before, move in zip([first, *then], then, strict=False):
            where = "same page" if before.same_page else "another page"
            visible = None if before.same_page else (before.leads_to or "").removesuffix(DIALOG) or None
            if move.element is None:
                out.append(
                    answers.follow_up(None, BACK, page=where, visible=visible, expected="the page before")
                )
            else:
                expected = (
                    f"{move.element.name} is checked" if move.same_page else f"{move.element.name} responds"
                )
                out.append(
                    answers.follow_up(move.element.label, page=where, visible=visible, expected=expected)
                )
        return out


class NaiveBrain(ClaudeBrain):
    """For comparison only: every step's message and answer stay in one growing conversation."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._history: list[dict[str, Any]] = []

    def decide(self, ctx: StepContext) -> Decision:
        decision = super().decide(ctx)
        turn = self._messages.step(ctx, self._memory)
        self._history += [
            {"role": "user", "content": [b for b in turn if b["type"] == "text"]},
            {"role": "assistant", "content": f"{decision.action}: {decision.reasoning}"},
        ]
        return decision

    def _create(self, stage: Stage, content: list[Block], max_tokens: int) -> Any:
        if stage is not Stage.NEXT_ACTION:
            return super()._create(stage, content, max_tokens)
        messages: Any = self._api.client().messages
        return messages.create(
            model=self.settings.model,
            max_tokens=max_tokens,
            system=self._api.system,
            tools=self._api.tools,
            tool_choice=self._api.shape.tool_choice(stage.value),
            messages=[*self._history, {"role": "user", "content": content}],
            **self._api.shape.options(),
        )


def _blocks(body: dict[str, Any]) -> list[str]:
    """A request as the sequence a cache sees: each tool, each system block, each message block."""
    out = [json.dumps(t, sort_keys=True, ensure_ascii=False) for t in body["tools"]]
    out += [json.dumps(b, sort_keys=True, ensure_ascii=False) for b in body["system"]]
    for message in body["messages"]:
        content = message["content"]
        for block in [content] if isinstance(content, str) else content:
            out.append(json.dumps([message["role"], block], sort_keys=True, ensure_ascii=False))
    return out


MODELS_COMPARED = (
    "claude-sonnet-5-5", "claude-opus-5-5", "claude-fable-5-1", "claude-sonnet-5", "claude-haiku-4-5"
)


def identical_prefix_share(previous: dict[str, Any], body: dict[str, Any]) -> float:
    before, now = _blocks(previous), _blocks(body)
    same = 0
    for a, b in zip(before, now, strict=False):
        if a != b:
            break
        same += 1
    tokens = [estimate_tokens(json.loads(b)) for b in now]
    return sum(tokens[:same]) / sum(tokens)


@dataclass
class Figures:
    name: str
    steps: int
    calls: int
    decide_calls: int
    tokens_at: dict[int, int]
    prefix_share: float
    proposed: int  # follow-ups the tour put in `then`
    queue: QueueStats  # what the brain made of them
    judge_calls: int
    cache_read_share: float = 0.0
    cache_note: str = ""


def _step_number(body: dict[str, Any]) -> int:
    text = "\n".join(b["text"] for b in body["messages"][-1]["content"] if b["type"] == "text")
    found = re.search(r"# Step (\d+) of", text)
    if found is None:
        raise ValueError("a next_action request without its step heading")
    return int(found[1])


def run(
    name: str,
    make: Callable[[FakeMessagesAPI, ClaudeSettings], ClaudeBrain],
    steps: int,
    queue: int,
    model: str = DEFAULT_MODEL,
) -> Figures:
    settings = ClaudeSettings(model=model, max_retries=0, max_queued_actions=queue)
    target = Target(
        app_name="麦当劳",
        package="com.mcdonalds.gma.cn",
        feature="delivery ordering",
        goal="麦乐送点餐: browse the menu, open products, choose options",
        description="fast-food app",
        start="home screen",
        max_steps=steps,
        wall_seconds=3600,
    )
    tour = Tour()
    with FakeMessagesAPI(responder=tour) as api:
        brain = make(api, settings)
        device = VirtualDevice(FOOD, latency=False, clock=ManualClock())
        result = Explorer(device, brain, settings=ExplorerSettings(guard=GUARD)).explore(target, Mission())
        records = list(zip(api.bodies, api.requests, strict=True))
    decides = [(body, r.usage) for body, r in records if stage_of(body) == Stage.NEXT_ACTION]
    step_of = [_step_number(body) for body, _ in decides]
    tokens_at = {}
    for probe in PROBES:
        at = next((i for i, s in enumerate(step_of) if s >= probe), len(decides) - 1)
        usage = decides[at][1]
        tokens_at[probe] = sum(
            usage[k] for k in ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
        )
    shares = [identical_prefix_share(a[0], b[0]) for a, b in zip(decides, decides[1:], strict=False)]
    if result.steps < steps:
        print(f"  ({name}: the run ended at step {result.steps}: {result.reason})")
    judges = sum(1 for body, _ in records if stage_of(body) == Stage.JUDGE)
    return Figures(
        name,
        result.steps,
        brain.usage().calls,
        len(decides),
        tokens_at,
        sum(shares) / max(1, len(shares)),
        tour.proposed,
        brain.queue_stats,
        judges,
        brain.usage().cache_read_share,
        brain.usage().note,
    )


def bounded(api: FakeMessagesAPI, settings: ClaudeSettings) -> ClaudeBrain:
    return ClaudeBrain(settings, client=make_client(settings, api_key=FAKE_KEY, base_url=api.url))


def naive(api: FakeMessagesAPI, settings: ClaudeSettings) -> ClaudeBrain:
    return NaiveBrain(settings, client=make_client(settings, api_key=FAKE_KEY, base_url=api.url))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=max(PROBES))
    parser.add_argument("--queue", type=int, default=ClaudeSettings().max_queued_actions)
    parser.add_argument("--sweep", type=int, nargs="*", default=[3, 6], help="other queue lengths to try")
    parser.add_argument(
        "--models", nargs="*", default=list(MODELS_COMPARED), help="models whose cache-read share to print"
    )
    args = parser.parse_args()
    rows = [
        run("bounded + queue", bounded, args.steps, args.queue),
        run("bounded, no queue", bounded, args.steps, 0),
        run("naive full history", naive, args.steps, 0),
    ]
    probes = " ".join(f"{'tok@' + str(p):>8}" for p in PROBES)
    print(f"\nfood app, {args.steps} steps, scripted model on the fake API (tokens: the fake's estimate)")
    print(
        f"  {'variant':<20} {'steps':>5} {'calls':>5} {probes} {'60/5':>6} {'same prefix':>11} "
        f"{'calls/act':>9} {'decide/act':>10}"
    )
    for f in rows:
        ratio = f.tokens_at[PROBES[-1]] / f.tokens_at[PROBES[0]]
        sizes = " ".join(f"{f.tokens_at[p]:>8,}" for p in PROBES)
        print(
            f"  {f.name:<20} {f.steps:>5} {f.calls:>5} {sizes} {ratio:>6.2f} {f.prefix_share:>11.1%} "
            f"{f.calls / f.steps:>9.2f} {f.decide_calls / f.steps:>10.2f}"
        )
    best, worst = rows[0], rows[-1]
    flat = best.tokens_at[PROBES[-1]] / best.tokens_at[PROBES[0]]
    print(
        f"\n  bounded step {PROBES[-1]} / step {PROBES[0]}: x{flat:.2f} (target <= {FLAT_TARGET}); "
        f"naive: x{worst.tokens_at[PROBES[-1]] / worst.tokens_at[PROBES[0]]:.2f}"
    )
    print(
        f"  tokens per call at step {PROBES[-1]}, naive / bounded: "
        f"x{worst.tokens_at[PROBES[-1]] / best.tokens_at[PROBES[-1]]:.2f}"
    )
    print(
        f"  LLM calls per executed action with the queue: {best.calls / best.steps:.2f} "
        f"(target <= {CALLS_TARGET}); without: {rows[1].calls / rows[1].steps:.2f}"
    )
    q = best.queue
    other = best.calls - best.decide_calls - best.judge_calls
    print(
        f"  calls with the queue: {best.decide_calls} next_action, {best.judge_calls} judge, {other} plan + "
        f"summarize; actions: {q.taken} taken from a queue without a call, "
        f"{best.steps - q.taken} decided by a call or by the explorer (escapes, return steps)"
    )
    print(
        f"  the tour proposed {best.proposed} follow-ups in {q.plans} plans; the brain kept {q.queued} "
        f"(max_queued_actions={args.queue}), took {q.taken}, dropped {sum(q.dropped.values())} in "
        f"{sum(q.stopped.values())} stopped plans, {q.pending} pending at the end; "
        f"{q.completed} plans ran to their end"
    )
    for reason, lost in q.dropped.most_common():
        print(f"    dropped: {lost:>3} follow-ups in {q.stopped[reason]:>2} plans: {reason}")
    sweep = {0: rows[1], args.queue: best}
    sweep.update({n: run(f"queue {n}", bounded, args.steps, n) for n in args.sweep if n not in sweep})
    print(
        "  calls per action by max_queued_actions: "
        + ", ".join(f"{n}: {f.calls / f.steps:.2f}" for n, f in sorted(sweep.items()))
    )


    print("  cache-read share of prompt tokens by model (bounded + queue; the fake caches per the model):")
    for model in args.models:
        f = best if model == DEFAULT_MODEL else run(model, bounded, args.steps, args.queue, model)
        print(f"    {model:<18} {f.cache_read_share:>6.1%}  {f.cache_note}")


if __name__ == "__main__":
    main()
