"""Building blocks that shape how an app is navigated: bottom tabs and a navigation drawer (a side
menu). The generator puts the other blocks' entries on the home screen, on the last tab (`我的` / `Me`)
or in the side menu these make."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import bugs
from .blocks import Block, Context, feature, text
from .bugs import BugSite
from .truth import DEAD, WRONG_SCREEN, Step, tap

HOME = "home"
CONTENT_TABS = {
    "zh": (
        ("消息", "暂无新消息，去和朋友打个招呼吧"),
        ("发现", "发现更多有趣的内容"),
        ("动态", "你关注的人还没有发布动态"),
        ("社区", "社区精选话题每天更新"),
    ),
    "en": (
        ("Inbox", "No new messages yet"),
        ("Discover", "Fresh picks for you every day"),
        ("Activity", "People you follow have not posted yet"),
        ("Community", "Top community threads"),
    ),
}
DRAWER_PAGES = {
    "zh": (
        ("关于我们", "我们是一支热爱生活的小团队，成立于 2016 年"),
        ("版本说明", "3.2.1 版本：修复了已知问题，提升了稳定性"),
        ("联系我们", "客服电话 400-820-8820，工作日 9:00-18:00"),
        ("加入我们", "我们正在招聘 Android 工程师"),
    ),
    "en": (
        ("About us", "A small team that loves good apps, since 2016"),
        ("What's new", "Version 3.2.1 fixes known issues and improves stability"),
        ("Contact us", "Write to help@example.com, weekdays 9-18"),
        ("Careers", "We are hiring Android engineers"),
    ),
}
TAB_BAR_HEIGHT = 150


def tab_labels(ctx: Context) -> tuple[str, list[tuple[str, str]], str]:
    """The home tab's label, the content tabs (label, what it shows), the last tab's label."""
    w = ctx.words
    content = list(CONTENT_TABS[w.lang])
    w.rng.shuffle(content)
    return ctx.t("首页", "Home"), content[: w.rng.randint(1, 2)], ctx.t("我的", "Me")


def tab_bar(screen: str, tabs: list[tuple[str, str]]) -> dict[str, Any]:
    """The bottom tab bar shown on `screen`: one tab per (label, screen id), the current one selected."""
    children = []
    for label, target in tabs:
        tab: dict[str, Any] = {
            "class": "TextView",
            "id": f"nav_tab_{screen}_{target}",
            "text": label,
            "clickable": True,
            "selected": target == screen,
            "on_tap": [] if target == screen else [{"replace": target}],
        }
        children.append(tab)
    return {
        "class": "BottomNavigationView",
        "id": f"nav_bar_{screen}",
        "orientation": "horizontal",
        "dock": "bottom",
        "height": TAB_BAR_HEIGHT,
        "children": children,
    }


def tabs(ctx: Context, me_screen: dict[str, Any]) -> Block:
    """Bottom tabs: home, one or two content tabs, and the last tab (`me_screen`, which hosts blocks).
    The generator adds the tab bar to the home screen (`tab_bar(HOME, ...)`, the `tab_targets` of the
    block's first screen)."""
    kind = "tabs"
    home_label, content, me_label = tab_labels(ctx)
    targets = [(home_label, HOME)] + [(label, f"nav_tab{k}") for k, (label, _) in enumerate(content)]
    targets.append((me_label, me_screen["id"]))
    screens = []
    for k, (label, shows) in enumerate(content):
        screens.append(
            {
                "id": f"nav_tab{k}",
                "activity": f".ui.Tab{k}Fragment",
                "title": label,
                "up": False,
                "elements": [
                    text(ctx, f"tab{k}_text", shows, id=f"nav_tab{k}_text"),
                    tab_bar(f"nav_tab{k}", targets),
                ],
            }
        )
    me_screen["elements"].append(tab_bar(me_screen["id"], targets))
    features, sites = [], []
    for k, (label, shows) in enumerate(content):
        name = f"{kind} - open the {label} tab"
        goal = (
            ctx.t(
                f"切换到底部的「{label}」标签，看到“{shows}”",
                f"Switch to the {label} tab at the bottom: it shows '{shows}'",
            )
            if ctx.coin()
            else ctx.t(f"「{label}」标签页能打开", f"The {label} tab opens")
        )
        features.append(feature(ctx, kind, name, goal, [{"visible": shows}], [tap(label)]))
        other = targets[(k + 2) % len(targets)][1]
        bars = [f"nav_tab_{screen}_nav_tab{k}" for _, screen in targets if screen != f"nav_tab{k}"]
        sites += [
            BugSite(DEAD, name, label, 0, f"the {label} tab does nothing", _on_all(bars, bugs.dead)),
            BugSite(
                WRONG_SCREEN,
                name,
                label,
                0,
                f"the {label} tab opens another tab",
                _on_all(bars, _redirect_to(f"nav_tab{k}", other)),
                _activity(other, screens, me_screen),
            ),
        ]
    block = Block(kind, [], [*screens, me_screen], features=features, sites=sites)
    block.variables = {}
    block.dialogs = []
    block.host_extras = []
    block.entries = [tab_bar(HOME, targets)]
    return block


def _redirect_to(old: str, new: str) -> Callable[[str], bugs.Edit]:
    def make(element_id: str) -> bugs.Edit:
        return bugs.redirect(element_id, old, new)

    return make


def _on_all(element_ids: list[str], make: Callable[[str], bugs.Edit]) -> bugs.Edit:
    """One bug on every copy of an element (a tab on the tab bar of each tab's screen)."""
    edits = [make(element_id) for element_id in element_ids]

    def edit(model: bugs.Model) -> None:
        for each in edits:
            each(model)

    return edit


def _activity(screen_id: str, screens: list[dict[str, Any]], me_screen: dict[str, Any]) -> str:
    if screen_id == HOME:
        return ".ui.MainActivity"
    return next(s["activity"] for s in [*screens, me_screen] if s["id"] == screen_id)


def drawer(ctx: Context) -> tuple[Block, Step]:
    """A side menu opened from the menu button at the top of home: pages of its own plus the entries of
    the blocks it hosts (the generator appends them to the block's dialog). Returns the block and the
    step that opens the menu."""
    w = ctx.words
    kind = "drawer"
    menu = ctx.t("打开菜单", "Open navigation menu")
    pages = list(DRAWER_PAGES[w.lang])
    w.rng.shuffle(pages)
    pages = pages[:2]
    items, screens = [], []
    for k, (label, shows) in enumerate(pages):
        items.append(
            {
                "class": "TextView",
                "id": f"nav_drawer_item{k}",
                "text": label,
                "clickable": True,
                "height": 130,
                "on_tap": [{"go": f"nav_page{k}"}],
            }
        )
        screens.append(
            {
                "id": f"nav_page{k}",
                "activity": f".ui.DrawerPage{k}Activity",
                "title": label,
                "elements": [text(ctx, f"page{k}_text", shows, id=f"nav_page{k}_text")],
            }
        )
    label, shows = pages[0]
    name = f"{kind} - open {label}"
    goal = (
        ctx.t(
            f"点左上角的菜单按钮（{menu}），在侧边菜单里点「{label}」",
            f"Tap the menu button at the top ({menu}) and choose {label} in the side menu",
        )
        if ctx.coin()
        else ctx.t(f"「{label}」页面能打开，显示“{shows}”", f"The {label} page opens and says '{shows}'")
    )
    sites = [
        BugSite(
            DEAD, name, label, 1, f"{label} in the side menu does nothing", bugs.dead("nav_drawer_item0")
        ),
        BugSite(
            WRONG_SCREEN,
            name,
            label,
            1,
            f"{label} in the side menu opens {pages[1][0]}",
            bugs.redirect("nav_drawer_item0", "nav_page0", "nav_page1"),
            ".ui.DrawerPage1Activity",
        ),
    ]
    dialog = {"id": "nav_drawer", "kind": "popup", "width": 640, "elements": items}
    button = {"class": "ImageButton", "id": "nav_menu", "desc": menu, "on_tap": [{"dialog": "nav_drawer"}]}
    block = Block(
        kind,
        [button],
        screens,
        [dialog],
        features=[feature(ctx, kind, name, goal, [{"visible": shows}], [tap(menu), tap(label)])],
        sites=sites,
    )
    return block, tap(menu)
