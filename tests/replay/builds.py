"""New builds of the food app in which chosen screens of the delivery-time run changed, and nothing else.

The run (`delivery_time_model`) sees four screens: home, the delivery-time dialog as it opens (尽快送达
chosen), the dialog with 预约送餐 chosen (its time slots shown), and the delivery page once confirmed.
Each change below adds one line of text to some of them, so each changes those screens' state and no
other's:

- `ASAP_ETA`: the dialog as it opens (shown only while 尽快送达 is chosen): one screen;
- `DIALOG_NOTICE`: both dialog screens;
- `HOME_HOURS`: home, the first screen (where the plan is made).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tests.replay.helpers import DIALOG_HEAD, FOOD_APP, NOTICE

HOME_TAIL = '      - {class: TextView, id: tv_news, text: "今日特惠 · 麦辣鸡翅 {price:13}", style: caption}\n'


@dataclass(frozen=True)
class Change:
    """One line inserted after `anchor`, which the food app has exactly once."""

    anchor: str
    line: str


ASAP_ETA = Change(
    DIALOG_HEAD,
    "      - {class: TextView, id: tv_asap_eta, text: 尽快送达：约 30 分钟, when: \"delivery_mode == '尽快送达'\"}\n",
)
DIALOG_NOTICE = Change(DIALOG_HEAD, NOTICE)
HOME_HOURS = Change(
    HOME_TAIL, "      - {class: TextView, id: tv_hours, text: 营业时间 06:00-23:00, style: caption}\n"
)


def food_app_with(*changes: Change) -> str:
    """The food app's text with `changes` made."""
    text = FOOD_APP.read_text(encoding="utf-8")
    for change in changes:
        assert text.count(change.anchor) == 1, f"the food app no longer has {change.anchor.strip()!r} once"
        text = text.replace(change.anchor, change.anchor + change.line)
    return text


def write_build(path: Path, *changes: Change) -> Path:
    path.write_text(food_app_with(*changes), encoding="utf-8")
    return path
