"""The onboarding block: welcome pages on the first launch, before the home screen."""

from __future__ import annotations

from typing import Any

from . import bugs
from .blocks import Block, Context, feature, text
from .bugs import BugSite
from .navigation import HOME
from .truth import CRASH, DEAD, Step, tap

ONBOARDED = "nav_onboarded"
ONBOARDING_PAGES = (2, 3)


def onboarding(ctx: Context) -> tuple[Block, str, Step]:
    """Welcome pages on first launch: each has Skip and Next, the last one Start; either ends on home
    (and never shows again: `nav_onboarded` persists). Returns the block, the launch screen, the step
    that skips them."""
    w = ctx.words
    kind = "onboarding"
    count = w.rng.randint(*ONBOARDING_PAGES)
    skip, next_, start = (
        ctx.t("跳过", "Skip"),
        ctx.pick(("下一步", "继续"), ("Next", "Continue")),
        ctx.t("开始使用", "Get started"),
    )
    lines: tuple[str, ...] = (
        ctx.t(f"海量{w.thing(True)}，随心发现", f"Thousands of {w.thing(True)} to discover"),
        ctx.t(f"收藏喜欢的{w.thing()}，随时回看", f"Save the {w.thing(True)} you love"),
        ctx.t("准备好了吗？开始你的旅程", "Ready? Let's get going"),
    )
    lines = lines[: count - 1] + lines[-1:]
    screens = []
    for k, line in enumerate(lines, 1):
        last = k == count
        buttons = [
            {"class": "Button", "id": f"nav_skip{k}", "text": skip, "style": "link", "on_tap": _finish()}
        ]
        if last:
            buttons.append(
                {
                    "class": "Button",
                    "id": f"nav_start{k}",
                    "text": start,
                    "style": "primary",
                    "on_tap": _finish(),
                }
            )
        else:
            buttons.append(
                {
                    "class": "Button",
                    "id": f"nav_next{k}",
                    "text": next_,
                    "style": "primary",
                    "on_tap": [{"replace": f"nav_welcome{k + 1}"}],
                }
            )
        screens.append(
            {
                "id": f"nav_welcome{k}",
                "activity": f".ui.WelcomeActivity{'' if k == 1 else k}",
                "title": "",
                "up": False,
                "on_show": [{"when": ONBOARDED, "replace": HOME}] if k == 1 else [],
                "elements": [
                    {
                        "class": "ImageView",
                        "id": f"nav_art{k}",
                        "desc": ctx.t(f"引导图 {k}", f"Welcome art {k}"),
                        "height": 700,
                    },
                    text(ctx, f"welcome{k}", line, style="title", id=f"nav_line{k}"),
                    text(ctx, f"dots{k}", f"{k} / {count}", style="caption", id=f"nav_dots{k}"),
                    {
                        "class": "LinearLayout",
                        "id": f"nav_buttons{k}",
                        "orientation": "horizontal",
                        "dock": "bottom",
                        "children": buttons,
                    },
                ],
            }
        )
    name = f"{kind} - reach the last welcome page"
    goal = ctx.t(
        f"第一次打开应用时，用「{next_}」翻完引导页，到最后一页（“{lines[-1]}”）",
        f"On first launch, go through the welcome pages with {next_} to the last one ('{lines[-1]}')",
    )
    path = [tap(next_)] * (count - 1)
    step = count - 2  # the Next of the page before the last
    sites = [
        BugSite(
            DEAD,
            name,
            next_,
            step,
            f"{next_} on page {step + 1} does nothing",
            bugs.dead(f"nav_next{step + 1}"),
        ),
        BugSite(
            CRASH,
            name,
            next_,
            step,
            f"{next_} on page {step + 1} crashes the app",
            bugs.crash(f"nav_next{step + 1}"),
        ),
    ]
    block = Block(
        kind,
        [],
        screens,
        variables={ONBOARDED: {"initial": False, "persist": True}},
        features=[feature(ctx, kind, name, goal, [{"visible": lines[-1]}], path)],
        sites=sites,
    )
    return block, "nav_welcome1", tap(skip)


def _finish() -> list[dict[str, Any]]:
    return [{"set": {ONBOARDED: True}}, {"replace": HOME}]
