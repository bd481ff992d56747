"""Prompt size of the Claude brain's step message over a long run, and the cache-read share.

    /work/venv/bin/python benchmarks/bench_claude_context.py [--recent-k 6]

Part 1: a synthetic run of 500 steps (tests/claude/synthetic.py: a real FeatureTree and LoopGuard behind
the context texts). At steps 5, 50 and 500 it prints the size of the request the brain sends for
`next_action`: the user text in characters, the whole JSON body in bytes, and the tokens counted by the
fake server (text chars / 4, the image by its pixels / 750 - an estimate, not Anthropic's tokenizer).
The ratio step 500 / step 50 shows whether the context grows with the step count (1.00 = it does not).

Part 2: 20 steps against the fake Messages API through the real SDK. The fake bills the prefix through
the last cache breakpoint (tools + system) as a cache write the first time and as a read after that,
as the API does for a byte-identical prefix above the model's minimum cacheable length; this prints the
cache-read share of all prompt tokens and the estimated cost at the default model's prices. Real share
depends on the real minimum (1024-4096 tokens by model): below it nothing is cached.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pytest_fairy.brain.claude import ClaudeBrain, ClaudeSettings  # noqa: E402
from pytest_fairy.brain.claude_api import make_client  # noqa: E402
from tests.claude import answers, synthetic  # noqa: E402
from tests.claude.fake_api import FakeMessagesAPI, estimate_tokens, tool_reply  # noqa: E402
from tests.claude.stages import stage_of  # noqa: E402

FAKE_KEY = "sk-ant-benchmark-not-a-key"
PROBE_STEPS = (5, 60, 500)
CACHE_RUN_STEPS = 20
SOM_SIZE = (461, 1024)  # a 1080x2400 screen at the default long edge of 1024


def brain_on(api: FakeMessagesAPI, settings: ClaudeSettings) -> ClaudeBrain:
    client = make_client(settings, api_key=FAKE_KEY, base_url=api.url)
    return ClaudeBrain(settings, client=client)


def prompt_sizes(settings: ClaudeSettings) -> None:
    print(f"Step message of a {max(PROBE_STEPS)}-step synthetic run (recent_k={settings.recent_k}):")
    print(f"  {'step':>5} {'text chars':>11} {'body bytes':>11} {'tokens (fake)':>14} {'of which image':>15}")
    som = synthetic.jpeg(*SOM_SIZE)
    with FakeMessagesAPI(responder=lambda request: tool_reply("next_action", answers.action())) as api:
        brain = brain_on(api, settings)
        rows = {}
        for ctx in synthetic.run(max(PROBE_STEPS), som=som):
            brain.decide(ctx)
            if ctx.step in PROBE_STEPS:
                body = api.bodies[-1]
                content = body["messages"][0]["content"]
                text = sum(len(b["text"]) for b in content if b["type"] == "text")
                image = sum(estimate_tokens(b) for b in content if b["type"] == "image")
                usage = api.requests[-1].usage
                tokens = sum(
                    usage[k]
                    for k in ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
                )
                rows[ctx.step] = (text, len(api.requests[-1].raw), tokens)
                size = len(api.requests[-1].raw)
                print(f"  {ctx.step:>5} {text:>11,} {size:>11,} {tokens:>14,} {image:>15,}")
    early, mid, late = (rows[step] for step in PROBE_STEPS)
    print(
        f"  step {PROBE_STEPS[1]} / step {PROBE_STEPS[0]}: tokens x{mid[2] / early[2]:.2f} (target <= 1.20), "
        f"text x{mid[0] / early[0]:.2f} (the memory fills up: milestones, transitions, tree states)"
    )
    print(
        f"  step {PROBE_STEPS[2]} / step {PROBE_STEPS[1]}: tokens x{late[2] / mid[2]:.2f}, "
        f"text x{late[0] / mid[0]:.2f}  (1.00 = no growth with the step count)"
    )


def cache_share(settings: ClaudeSettings) -> None:
    steps = CACHE_RUN_STEPS
    print(f"\nCache over a {steps}-step run (plan + {steps} x next_action + judge + summarize):")
    som = synthetic.jpeg(*SOM_SIZE)
    replies = {
        "plan": answers.PLAN,
        "next_action": answers.action(),
        "judge": answers.JUDGE,
        "summarize": answers.SUMMARY,
    }

    def respond(request: dict) -> object:
        stage = stage_of(request)
        return tool_reply(stage, replies[stage])

    with FakeMessagesAPI(responder=respond) as api:  # type: ignore[arg-type]
        brain = brain_on(api, settings)
        contexts = list(synthetic.run(CACHE_RUN_STEPS, som=som))
        brain.plan(synthetic.TARGET, contexts[0].screen, som_jpeg=som)
        for ctx in contexts:
            brain.decide(ctx)
        brain.judge(contexts[-1])
        brain.summarize(synthetic.TARGET, "Verdict: passed\n" + contexts[-1].tree_summary)
        prefix = json.dumps([api.bodies[0]["tools"], api.bodies[0]["system"]], ensure_ascii=False)
    usage = brain.usage()
    print(f"  calls {usage.calls}; cached prefix (tools + system) {len(prefix):,} chars")
    print(
        f"  tokens: input {usage.input_tokens:,}, cache write {usage.cache_write_tokens:,}, "
        f"cache read {usage.cache_read_tokens:,}, output {usage.output_tokens:,}"
    )
    print(f"  cache-read share of prompt tokens: {usage.cache_read_share:.1%}")
    print(
        f"  estimated cost at {settings.model} prices: ${usage.cost_usd:.4f} "
        f"(${usage.cost_usd / usage.calls:.5f} per call)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--recent-k", type=int, default=ClaudeSettings().recent_k)
    args = parser.parse_args()
    settings = ClaudeSettings(recent_k=args.recent_k, max_retries=0)
    prompt_sizes(settings)
    cache_share(settings)


if __name__ == "__main__":
    main()
