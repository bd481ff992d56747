"""What one exploration is about: the app, the feature and its goal, as told to a brain."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Target:
    app_name: str
    package: str
    feature: str
    goal: str
    description: str = ""
    start: str = ""
    launch_activity: str | None = None
    sub_features: tuple[str, ...] = ()
    # Texts the done-when oracles look for: hints for where the feature ends.
    done_hints: tuple[str, ...] = ()
    # The labels the done-when wants checked (`checked: 打卡提醒`): once on, such a switch is left on.
    keep_checked: tuple[str, ...] = ()
    allowed_risks: frozenset[str] = field(default_factory=frozenset)
    max_steps: int = 30
    wall_seconds: float = 600.0
    # LLM budgets; None = no cap. Over budget, the run stops inconclusive (and is still summarised).
    token_budget: int | None = None
    cost_budget: float | None = None
    # Clear the app's data before the item ("data"), keep it ("none"), or the device's default (None).
    reset: str | None = None
    # The spec's secrets, by name: a brain types `{{NAME}}`, the device seam types the value.
    secrets: tuple[str, ...] = ()
    # Test data: the text to type, by the field it goes into (a label, hint or resource id); "" keeps the
    # field empty. Secrets in a value are placeholders.
    inputs: tuple[tuple[str, str], ...] = ()

    def words(self) -> str:
        """Everything that says what the feature is about, for relevance scoring."""
        given = (word for pair in self.inputs for word in pair)
        return " ".join((self.feature, self.goal, self.start, *self.sub_features, *self.done_hints, *given))

    def input_for(self, *names: str) -> str | None:
        """The test data for a field known by `names` (`input_named`)."""
        return input_named(self.inputs, *names)


def input_named(inputs: Sequence[tuple[str, str]], *names: str) -> str | None:
    """The test data of `inputs` for a field known by `names` (its label, hint, text, resource id): a
    value whose name is one of them (case aside) first, else the one whose name is the longest within one
    (`新金额` over `金额` for `输入新金额`); None when none is."""
    known = [n.strip().casefold() for n in names if n and n.strip()]
    named = [(name.strip().casefold(), value) for name, value in inputs]
    exact = next((value for wanted, value in named if wanted in known), None)
    if exact is not None:
        return exact
    within = [
        (len(wanted), -i, value) for i, (wanted, value) in enumerate(named) if any(wanted in n for n in known)
    ]
    return max(within)[2] if within else None


# Test data a goal gives in its own words: 姓名填“王芳”, 手机号输入为「139...」; type 'banana' into the Search
# products field. The value quoted, the field named before the verb (Chinese) or after `into` (English).
_GOAL_INPUT_ZH = re.compile(
    r"([^\s，。；、,;:：（）()“”\"'「」]{1,12}?)(?:填写|填入|输入|填)(?:为|成)?[“\"'「]([^”\"'」]+)[”\"'」]"
)
_GOAL_INPUT_EN = re.compile(
    r"\b(?:type|enter)\s+[“\"']([^”\"']+)[”\"']\s+in(?:to)?\s+(?:the\s+)?"
    r"([^,.;:()]+?)(?:\s+(?:field|box)\b|\s*(?=[,.;:()]|$))",
    re.IGNORECASE,
)
_LEADING = ("在", "于", "往", "向")


def goal_inputs(goal: str) -> tuple[tuple[str, str], ...]:
    """The test data `goal` gives for named fields, as `inputs` pairs (field, value), in order."""
    found = [(field.lstrip("".join(_LEADING)), value) for field, value in _GOAL_INPUT_ZH.findall(goal)]
    found += [(field, value) for value, field in _GOAL_INPUT_EN.findall(goal)]
    return tuple((field.strip(), value.strip()) for field, value in found if field.strip() and value.strip())
