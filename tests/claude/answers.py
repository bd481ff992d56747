"""Valid tool inputs for each stage, to script the fake API with (tests change one field at a time)."""

from __future__ import annotations

from typing import Any

from tests.claude.fake_api import Reply, tool_reply
from tests.claude.stages import stage_of

PLAN: dict[str, Any] = {
    "thought": "the home screen has a 麦乐送 entry; the menu is probably behind it",
    "root_feature": "delivery ordering",
    "sub_features": [{"name": "menu browsing", "description": "categories and products"},
                     {"name": "delivery time", "description": "the 预约送餐 / 尽快送达 dialog"}],
    "steps": [{"instruction": "tap [3] 麦乐送", "sub_goal": "the delivery menu"},
              {"instruction": "tap a product", "sub_goal": ""}],
}


def action(kind: str = "tap", mark: int | None = 2, text: str | None = None, direction: str | None = None,
           **overrides: Any) -> dict[str, Any]:
    answer: dict[str, Any] = {
        "observation": "a category list and a product list",
        "kind": kind, "mark": mark, "text": text, "direction": direction,
        "why": "open the first category", "expected": "its products are listed",
        "sub_feature": "menu browsing", "then": [],
        "assessment": {"is_completed": False, "completion_rate": 70, "reason": "options not tried yet",
                       "should_return": False, "next_action_type": "continue_current"},
    }
    answer.update(overrides)
    return answer


def follow_up(label: str | None = "确定", kind: str = "tap", *, page: str = "same page",
              visible: str | None = None, text: str | None = None, direction: str | None = None,
              expected: str = "the choice is confirmed") -> dict[str, Any]:
    """One entry of next_action's `then` queue."""
    return {"when_page": page, "when_visible": visible, "kind": kind, "label": label, "text": text,
            "direction": direction, "expected": expected}


JUDGE: dict[str, Any] = {
    "phase_completed": True, "feature_completed": True, "verdict": "pass",
    "reason": "the cart shows the product", "findings": [],
}

SUMMARY: dict[str, Any] = {
    "summary": "Explored delivery ordering: menu, options and the cart all worked.",
    "highlights": ["added a product to the cart"], "issues": [],
}


def scripted_model(next_actions: list[dict[str, Any]]) -> Any:
    """A fake-API responder: `next_actions` in turn for next_action, the fixed answers for the other stages."""

    def respond(request: dict[str, Any]) -> Reply:
        stage = stage_of(request)
        if stage == "next_action":
            return tool_reply(stage, next_actions.pop(0))
        fixed = {"plan": PLAN, "judge": JUDGE, "summarize": SUMMARY}
        return tool_reply(stage, fixed[stage])

    return respond
