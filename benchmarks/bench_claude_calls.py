"""LLM calls per action and prompt size of the Claude brain on a real example app, against a naive
full-history prompt.

    /work/venv/bin/python benchmarks/bench_claude_calls.py [--steps 60] [--queue 3]

A 60-step exploration of example_suites/food on the virtual device, through the real explorer, the real
ClaudeBrain and the real SDK, against the fake Messages API (tests/claude/fake_api.py) playing a scripted
model ("the tour"): it reads the screen in each prompt, taps what it has not tried on that page, and -
like a model that can foresee the next screens - queues follow-ups where they are predictable: the other
options of a radio group / check list on the same page, or `back` after opening a list row. The brain
takes a queued action without a call only while the screen is what the tour said it would be.

Printed for the bounded brain and for a naive variant built here only (a multi-turn conversation that
keeps every earlier step's message and answer, no queue):
- input tokens per call (uncached + cache write + cache read, as the fake bills them: text chars / 4,
  images by pixels / 750 - an estimate, not Anthropic's tokenizer) for the call at or just after steps
  5, 20 and 60, and the ratio step 60 / step 5 (target <= 1.2 for the bounded brain);
- the identical prefix: how much of each request repeats the previous request from its start (tools,
  system, then message blocks), i.e. what a cache could serve, as a share of the request;
- LLM calls per executed action (all stages; target <= 0.6), and next_action calls per action.

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

from pytest_fairy.brain.base import Decision, StepContext  # noqa: E402
from pytest_fairy.brain.claude import ClaudeBrain, ClaudeSettings, make_client  # noqa: E402
from pytest_fairy.brain.context import Block  # noqa: E402
from pytest_fairy.brain.tools import Stage  # noqa: E402
from pytest_fairy.explorer import Explorer, ExplorerSettings, Mission  # noqa: E402
from pytest_fairy.guard import GuardLimits  # noqa: E402
from pytest_fairy.target import Target  # noqa: E402
from pytest_fairy.virtual import VirtualDevice  # noqa: E402
from pytest_fairy.virtual.clock import ManualClock  # noqa: E402
from tests.claude import answers  # noqa: E402
from tests.claude.fake_api import FakeMessagesAPI, Reply, estimate_tokens, tool_reply  # noqa: E402

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
GUARD = GuardLimits(stagnation_warn=40, stagnation_escape=50, stagnation_stop=60, max_steps=400)


@dataclass(frozen=True)
class Element:
    number: int
    cls: str
    label: str
    in_list: bool
    checked: bool

    @property
    def name(self) -> str:
        """The label without numbers and prices: dynamic text that a model would not quote."""
        return DYNAMIC.sub("", self.label).strip() or self.label


def current_screen(text: str) -> tuple[str, list[Element]]:
    """The title and the marked elements of the screen section of a step prompt."""
    section = text.rsplit("## The current screen: ", 1)[-1].split("## Task", 1)[0]
    title = section.split(" (state ", 1)[0]
    elements, list_indent = [], None
    for line in section.splitlines():
        found = MARK_LINE.match(line)
        if not found:
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
    return title, elements


@dataclass
class Tour:
    """The scripted model: tries every element of each page once (then starts the page over)."""

    queue: int
    tried: dict[str, set[str]] = field(default_factory=dict)
    # What the tour learnt from earlier calls: where a tap led, and what each page offers.
    leads_to: dict[tuple[str, str], str] = field(default_factory=dict)
    pages: dict[str, list[Element]] = field(default_factory=dict)
    last: tuple[str, str] | None = None  # (page, element) of a tap whose result the next call shows

    def __call__(self, request: dict[str, Any]) -> Reply:
        stage = request["tool_choice"]["name"]
        if stage != Stage.NEXT_ACTION:
            fixed = {
                "plan": answers.PLAN,
                "summarize": answers.SUMMARY,
                "judge": {**answers.JUDGE, "verdict": "continue", "feature_completed": False},
            }
            return tool_reply(stage, fixed[stage])
        text = "\n".join(b["text"] for b in request["messages"][-1]["content"] if b["type"] == "text")
        title, elements = current_screen(text)
        if self.last is not None:
            self.leads_to[self.last] = title
        self.pages[title] = elements
        tried = self.tried.setdefault(title, set())
        fresh = list(
            {
                e.name: e
                for e in reversed(elements)
                if e.name not in tried and not e.checked and not any(word in e.label for word in RISKY)
            }.values()
        )[::-1]
        if not fresh:
            self.tried[title] = set()
            return tool_reply("next_action", answers.action("back", None, why="this page is covered"))
        # The feature's own ground first: options on this page and list rows, then the way in (麦乐送).
        chosen = min(fresh, key=lambda e: (e.cls not in TOGGLES, not e.in_list, e.name != "麦乐送"))
        self.tried[title].add(chosen.name)
        then = self._foreseen(chosen, [e for e in fresh if e is not chosen], title)
        self.last = None if then else (title, chosen.name)
        return tool_reply(
            "next_action", answers.action(mark=chosen.number, why=f"try {chosen.name}", then=then)
        )

    def _foreseen(self, chosen: Element, rest: list[Element], title: str) -> list[dict[str, Any]]:
        if self.queue == 0:
            return []
        if chosen.cls in TOGGLES:  # the other options stay on this page
            options = [e for e in rest if e.cls in TOGGLES][: self.queue]
            self.tried[title].update(e.name for e in options)
            return [
                answers.follow_up(e.name, page="same page", expected=f"{e.name} is checked") for e in options
            ]
        if chosen.in_list:  # a row opens its detail page; come straight back
            return [answers.follow_up(None, "back", page="another page", expected=f"back on {title}")]
        destination = self.leads_to.get((title, chosen.name))
        if destination is not None and destination != title:  # a known way: act on what waits there
            tried = self.tried.setdefault(destination, set())
            waiting = [
                e
                for e in self.pages.get(destination, [])
                if e.name not in tried and not e.checked and not any(word in e.label for word in RISKY)
            ]
            if waiting:
                tried.add(waiting[0].name)
                return [
                    answers.follow_up(
                        waiting[0].name,
                        page="another page",
                        visible=destination,
                        expected=f"{waiting[0].name} responds",
                    )
                ]
        return []


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
        messages: Any = self._sdk_client().messages
        return messages.create(
            model=self.settings.model,
            max_tokens=max_tokens,
            system=self._system,
            tools=self._tools,
            tool_choice={"type": "tool", "name": stage.value},
            messages=[*self._history, {"role": "user", "content": content}],
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


def _step_number(body: dict[str, Any]) -> int:
    text = "\n".join(b["text"] for b in body["messages"][-1]["content"] if b["type"] == "text")
    found = re.search(r"# Step (\d+) of", text)
    if found is None:
        raise ValueError("a next_action request without its step heading")
    return int(found[1])


def run(
    name: str, make: Callable[[FakeMessagesAPI, ClaudeSettings], ClaudeBrain], steps: int, queue: int
) -> Figures:
    settings = ClaudeSettings(max_retries=0, max_queued_actions=queue)
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
    with FakeMessagesAPI(responder=Tour(queue)) as api:
        brain = make(api, settings)
        device = VirtualDevice(FOOD, latency=False, clock=ManualClock())
        result = Explorer(device, brain, settings=ExplorerSettings(guard=GUARD)).explore(target, Mission())
        records = list(zip(api.bodies, api.requests, strict=True))
    decides = [(body, r.usage) for body, r in records if body["tool_choice"]["name"] == Stage.NEXT_ACTION]
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
    return Figures(
        name, result.steps, brain.usage().calls, len(decides), tokens_at, sum(shares) / max(1, len(shares))
    )


def bounded(api: FakeMessagesAPI, settings: ClaudeSettings) -> ClaudeBrain:
    return ClaudeBrain(settings, client=make_client(settings, api_key=FAKE_KEY, base_url=api.url))


def naive(api: FakeMessagesAPI, settings: ClaudeSettings) -> ClaudeBrain:
    return NaiveBrain(settings, client=make_client(settings, api_key=FAKE_KEY, base_url=api.url))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=max(PROBES))
    parser.add_argument("--queue", type=int, default=ClaudeSettings().max_queued_actions)
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


if __name__ == "__main__":
    main()
