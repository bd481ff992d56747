"""New builds of the food app in which chosen screens of the delivery-time run changed, and nothing else.

The run (`delivery_time_model`) sees four screens: home, the delivery-time dialog as it opens (尽快送达
chosen), the dialog with 预约送餐 chosen (its time slots shown), and the delivery page once confirmed.
Each change below adds one line of text to some of them, so each changes those screens' state and no
other's:

- `ASAP_ETA`: the dialog as it opens (shown only while 尽快送达 is chosen): one screen;
- `DIALOG_NOTICE`: both dialog screens;
- `HOME_HOURS`: home, the first screen (where the plan is made).

Other builds replace text: `NO_DIALOG` removes the dialog (two screens gone), `ALREADY_CHOSEN` skips it,
`DELIVERY_TO_COUPONS` sends 麦乐送 to a screen the run never saw.
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


@dataclass(frozen=True)
class Replacement:
    """Text the food app has exactly once, replaced (by "" to remove it)."""

    old: str
    new: str


# The delivery-time dialog no longer opens: neither on entering the delivery page nor from its time row. The
# run's two dialog screens are gone; 麦乐送 leads straight to the delivery page.
NO_DIALOG = (
    Replacement(
        "    on_show:\n      - {when: \"mode == 'delivery' and not time_confirmed\", dialog: delivery_time}\n",
        "",
    ),
    Replacement(
        "on_tap: [{dialog: delivery_time}], when: \"mode == 'delivery'\"}", "when: \"mode == 'delivery'\"}"
    ),
)
# The delivery time comes already chosen and confirmed (预约送餐): the dialog is skipped, and the delivery
# page shows what it showed at the end of the recorded run.
ALREADY_CHOSEN = (
    Replacement(
        "  time_confirmed: false\n  delivery_mode: 尽快送达\n",
        "  time_confirmed: true\n  delivery_mode: 预约送餐\n",
    ),
)
# 麦乐送 opens the coupon page, a screen the delivery-time run never saw.
DELIVERY_TO_COUPONS = (
    Replacement("on_tap: [{set: {mode: delivery}}, {go: delivery}]}\n          - {class: TextView, id: btn_pickup",
                "on_tap: [{go: coupons}]}\n          - {class: TextView, id: btn_pickup"),
)  # fmt: skip


def food_app_with(*changes: Change | Replacement) -> str:
    """The food app's text with `changes` made."""
    text = FOOD_APP.read_text(encoding="utf-8")
    for change in changes:
        old = change.anchor if isinstance(change, Change) else change.old
        assert text.count(old) == 1, f"the food app no longer has {old.strip()!r} once"
        new = change.anchor + change.line if isinstance(change, Change) else change.new
        text = text.replace(old, new)
    return text


def write_build(path: Path, *changes: Change | Replacement) -> Path:
    path.write_text(food_app_with(*changes), encoding="utf-8")
    return path
