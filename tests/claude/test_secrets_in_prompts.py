"""Claude is told the spec's secrets by placeholder, and types them so: the plan and step
prompts name `{{SHOP_PASSWORD}}`, through the real SDK against the fake Messages API."""

from __future__ import annotations

from dataclasses import replace

from pytest_fairy.brain.claude import ClaudeBrain
from pytest_fairy.explore.action import Action, ActionKind
from tests.claude import answers, synthetic
from tests.claude.fake_api import FakeMessagesAPI, tool_reply
from tests.claude.test_round_trips import user_text

TARGET = replace(synthetic.TARGET, secrets=("SHOP_USER", "SHOP_PASSWORD"))
LINE = "- Secrets: type `{{SHOP_USER}}`, `{{SHOP_PASSWORD}}` exactly so; the harness types the real values"


def test_plan_and_step_prompts_name_the_placeholders(api: FakeMessagesAPI, brain: ClaudeBrain) -> None:
    api.push(tool_reply("plan", answers.PLAN))
    brain.plan(TARGET, synthetic.page(1))
    api.push(tool_reply("next_action", answers.action("type", 2, text="{{SHOP_PASSWORD}}")))
    decision = brain.decide(replace(synthetic.context(1), target=TARGET))
    assert decision.action == Action(ActionKind.TYPE, 2, "{{SHOP_PASSWORD}}")  # typed as the placeholder
    assert all(LINE in user_text(body) for body in api.bodies)


def test_no_secrets_no_line(api: FakeMessagesAPI, brain: ClaudeBrain) -> None:
    api.push(tool_reply("plan", answers.PLAN))
    brain.plan(synthetic.TARGET, synthetic.page(1))
    assert "Secrets" not in user_text(api.bodies[0])
    assert "Test data" not in user_text(api.bodies[0])


def test_plan_and_step_prompts_give_the_specs_test_data(api: FakeMessagesAPI, brain: ClaudeBrain) -> None:
    target = replace(synthetic.TARGET, inputs=(("Search products", "banana"), ("Note", "")))
    api.push(tool_reply("plan", answers.PLAN))
    brain.plan(target, synthetic.page(1))
    api.push(tool_reply("next_action", answers.action("type", 2, text="banana")))
    brain.decide(replace(synthetic.context(1), target=target))
    line = (
        "- Test data (type exactly this where a field asks for it): into 'Search products' type `banana`; "
        "leave 'Note' empty"
    )
    assert all(line in user_text(body) for body in api.bodies)
