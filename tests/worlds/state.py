"""Building blocks whose pages depend on earlier actions: favourites (a saved page that is empty until
something is saved elsewhere) and settings (switches that must still be on after leaving the page, and
after a restart)."""

from __future__ import annotations

from typing import Any

from . import bugs
from .blocks import Block, Context, Element, button, entry, feature, page, status, text
from .bugs import BugSite, Model
from .truth import BACK, CRASH, DEAD, KEPT_NOTHING, LOST_SETTING, tap

FAVOURITE_ITEMS = 6
SWITCHES = {
    "zh": (
        ("夜间模式", "夜间模式已开启"),
        ("消息通知", "消息通知已开启"),
        ("自动播放视频", "自动播放已开启"),
        ("省流量模式", "省流量模式已开启"),
        ("大字体", "大字体已开启"),
    ),
    "en": (
        ("Dark mode", "Dark mode is on"),
        ("Notifications", "Notifications are on"),
        ("Autoplay videos", "Autoplay is on"),
        ("Data saver", "Data saver is on"),
        ("Large text", "Large text is on"),
    ),
}
SETTINGS_SWITCHES = 3
# The visit on which the crash-on-visit bug strikes.
CRASH_VISIT = 2


def favourites(ctx: Context) -> Block:
    w = ctx.words
    kind = "favourites"
    browse = ctx.pick(("发现{p}", "浏览{p}"), ("Discover {p}", "Explore {p}")).format(p=w.thing(True))
    mine = ctx.pick(("我的收藏", "收藏夹"), ("My favourites", "Saved items"))
    save = ctx.t("收藏", "Save")
    said = ctx.t("收藏成功", "Saved")
    items = w.items(FAVOURITE_ITEMS)
    current, count = ctx.id("current"), ctx.id("count")
    saved = [ctx.id(f"saved{k}") for k in range(len(items))]
    subtitle = ctx.t(f"你收藏的{w.thing(True)}都在这里", f"Your saved {w.thing(True)} live here")
    empty = ctx.t("还没有收藏，去逛逛吧", "Nothing saved yet")
    rows = [
        text(ctx, f"row{k}", item, on_tap=[{"set": {current: item}}, {"go": ctx.id("detail")}])
        for k, item in enumerate(items)
    ]
    detail: list[dict[str, Any]] = []
    for k, item in enumerate(items):
        here = f"{current} == '{item}'"
        detail += [
            text(
                ctx,
                f"about{k}",
                ctx.t(
                    f"{item}：编辑推荐，{w.rng.randint(2, 9)}.{w.rng.randint(0, 9)} 万人喜欢",
                    f"{item}: {w.rng.randint(2, 9)}.{w.rng.randint(0, 9)}k people like it",
                ),
                when=here,
            ),
            button(
                ctx,
                f"save{k}",
                save,
                [{"set": {saved[k]: True}}, {"inc": {count: 1}}, {"toast": said}],
                when=f"{here} and not {saved[k]}",
            ),
            text(
                ctx,
                f"saved_note{k}",
                ctx.t("已加入收藏", "Added to favourites"),
                when=f"{here} and {saved[k]}",
            ),
        ]
    screens = [
        page(
            ctx,
            "browse",
            "BrowseActivity",
            browse,
            [{"class": "RecyclerView", "id": ctx.id("rv_browse"), "list": {"rows": rows, "row_height": 170}}],
        ),
        page(ctx, "detail", "FavDetailActivity", f"{{var:{current}}}", detail),
        page(
            ctx,
            "mine",
            "FavouritesActivity",
            mine,
            [
                text(ctx, "subtitle", subtitle, style="caption"),
                text(ctx, "empty", empty, when=f"{count} == 0"),
                *[text(ctx, f"fav{k}", item, when=saved[k]) for k, item in enumerate(items)],
            ],
        ),
    ]
    one, two, three = items[0], items[1], items[2]
    name_one = f"{kind} - saved item shows"
    if ctx.coin():
        goal_one = ctx.t(
            f"在{ctx.place}打开「{browse}」，点开「{one}」，点「{save}」，返回后打开「{mine}」，能看到{one}",
            f"From {ctx.place} open {browse}, open '{one}', tap {save}, go back and open {mine}: "
            f"{one} is there",
        )
    else:
        goal_one = ctx.t(f"收藏的「{one}」出现在{mine}里", f"The saved '{one}' shows in {mine}")
    path_one = [tap(browse), tap(one), tap(save), BACK, BACK, tap(mine)]
    name_two = f"{kind} - save two items"
    goal_two = ctx.t(
        f"收藏「{two}」和「{three}」两个{w.thing()}，{mine}里两个都有",
        f"Save both '{two}' and '{three}': {mine} lists the two of them",
    )
    path_two = [tap(browse), tap(two), tap(save), BACK, tap(three), tap(save), BACK, BACK, tap(mine)]
    name_empty = f"{kind} - empty at first"
    goal_empty = ctx.t(
        f"还没收藏任何{w.thing()}时，打开「{mine}」会提示“{empty}”",
        f"Before anything is saved, {mine} says '{empty}'",
    )
    visits = ctx.id("detail_visits")

    def crash_on_visit(model: Model) -> None:
        model.setdefault("variables", {})[visits] = 0
        for k in range(len(items)):
            row = bugs.element(model, ctx.id(f"row{k}"))
            row["on_tap"] = [
                {"inc": {visits: 1}},
                bugs.crash_effect(model, ctx.id(f"row{k}"), f"{visits} >= {CRASH_VISIT}"),
                *row["on_tap"],
            ]

    sites = [
        BugSite(
            DEAD, name_one, save, 2, f"the {save} button of {one} does nothing", bugs.dead(ctx.id("save0"))
        ),
        BugSite(
            KEPT_NOTHING,
            name_one,
            mine,
            5,
            f"the {save} button of {one} says '{said}' and keeps nothing",
            bugs.replace_effects(ctx.id("save0"), [{"toast": said}]),
            empty,
        ),
        BugSite(
            CRASH,
            name_two,
            three,
            4,
            f"the app crashes on the visit {CRASH_VISIT} of a detail page",
            crash_on_visit,
            also_at=tuple(item for item in items if item != three),
        ),
    ]
    return Block(
        kind,
        [
            entry(ctx, "entry", browse, [{"go": ctx.id("browse")}]),
            entry(ctx, "mine_entry", mine, [{"go": ctx.id("mine")}]),
        ],
        screens,
        variables={current: "", count: 0, **{v: False for v in saved}},
        features=[
            feature(ctx, kind, name_one, goal_one, [{"visible": subtitle}, {"visible": one}], path_one),
            feature(
                ctx,
                kind,
                name_two,
                goal_two,
                [{"visible": subtitle}, {"visible": two}, {"visible": three}],
                path_two,
            ),
            feature(ctx, kind, name_empty, goal_empty, [{"visible": empty}], [tap(mine)]),
        ],
        sites=sites,
    )


def settings(ctx: Context) -> Block:
    w = ctx.words
    kind = "settings"
    label = ctx.pick(("设置", "通用设置"), ("Settings", "Preferences"))
    switches = list(SWITCHES[w.lang])
    w.rng.shuffle(switches)
    switches = switches[:SETTINGS_SWITCHES]
    target = w.rng.randrange(len(switches))
    elements: list[Element] = []
    on_show: list[dict[str, Any]] = []
    extras: list[Element] = []
    variables: dict[str, Any] = {}
    for k, (switch, on_words) in enumerate(switches):
        shown, stored = ctx.id(f"sw{k}_ui"), ctx.id(f"sw{k}")
        variables[shown] = False
        variables[stored] = {"initial": False, "persist": True}
        on_show += [{"when": stored, "set": {shown: True}}, {"when": f"not {stored}", "set": {shown: False}}]
        elements.append(
            {
                "class": "Switch",
                "id": ctx.id(f"switch{k}"),
                "text": switch,
                "var": shown,
                "on_tap": [
                    {"when": shown, "set": {stored: True}},
                    {"when": f"not {shown}", "set": {stored: False}},
                ],
            }
        )
        extras.append(status(ctx, f"sw{k}_line", on_words, stored))
    elements.append(text(ctx, "version", ctx.t("当前版本 3.2.1", "Version 3.2.1"), style="caption"))
    switch, on_words = switches[target]
    name = f"{kind} - {'switch' if w.zh else switch.lower()} stays on"
    if ctx.coin():
        goal = ctx.t(
            f"打开{ctx.place}的「{label}」，打开「{switch}」，返回后{ctx.host_words}显示“{on_words}”；再打开「{label}」，"
            f"开关仍是开着的",
            f"Open {label} from {ctx.place}, turn on {switch}, go back ({ctx.host_words} says "
            f"'{on_words}') and open {label} again: the switch is still on",
        )
    else:
        goal = ctx.t(f"「{switch}」打开后离开设置页也保持开启", f"{switch} stays on after leaving {label}")
    path = [tap(label), tap(switch), BACK]
    sites = [
        BugSite(
            LOST_SETTING,
            name,
            switch,
            1,
            f"{switch} is off again once {label} is left",
            bugs.forget(ctx.id(f"switch{target}"), ctx.id(f"sw{target}")),
        )
    ]
    return Block(
        kind,
        [entry(ctx, "entry", label, [{"go": ctx.id("settings")}])],
        [page(ctx, "settings", "SettingsActivity", label, elements, on_show=on_show)],
        variables=variables,
        host_extras=extras,
        features=[feature(ctx, kind, name, goal, [{"visible": on_words}], path)],
        sites=sites,
    )
