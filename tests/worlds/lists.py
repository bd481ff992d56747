"""Building blocks with long content: a long list with one special row beyond the first screen, and a
long page (an agreement) to read to its end before accepting it."""

from __future__ import annotations

from . import bugs
from .blocks import Block, Context, button, entry, error_page, feature, page, status, text
from .bugs import BugSite
from .truth import CRASH, DEAD, ERROR, WRONG_SCREEN, scroll_to, tap

LIST_ROWS = (40, 80)  # how many rows a long list has
FIRST_SCREEN_ROWS = 15  # rows past this one are beyond the first screen
ROW_HEIGHT = 180
PARAGRAPHS = (18, 30)


def long_list(ctx: Context) -> Block:
    w = ctx.words
    kind = "long_list"
    label = ctx.pick(("全部{p}", "{p}大全", "热门{p}"), ("All {p}", "Browse {p}", "Popular {p}")).format(
        p=w.thing(True)
    )
    count = w.rng.randint(*LIST_ROWS)
    items = w.items(12)
    special_at = w.rng.randint(FIRST_SCREEN_ROWS + 2, count - 3)
    words = w.special()
    item = items[0]
    special = ctx.t(f"{words} · {item}", f"{words}: {item}")
    detail = ctx.t(f"{words}专题：{item}的完整介绍", f"{words} feature - all about {item}")
    rows = []
    for i in range(1, count + 1):
        if i == special_at:
            rows.append(text(ctx, "row_special", special, on_tap=[{"go": ctx.id("special")}]))
        else:
            rows.append(
                text(ctx, f"row_{i}", f"{items[i % len(items)]} {i}", on_tap=[{"go": ctx.id("detail")}])
            )
    screens = [
        page(
            ctx,
            "list",
            "CatalogActivity",
            label,
            [
                text(
                    ctx,
                    "count",
                    ctx.t(f"共 {count} 个{w.thing()}", f"{count} {w.thing(True)}"),
                    style="caption",
                ),
                {
                    "class": "RecyclerView",
                    "id": ctx.id("rv"),
                    "list": {"rows": rows, "row_height": ROW_HEIGHT},
                },
            ],
        ),
        page(
            ctx,
            "detail",
            "ItemDetailActivity",
            ctx.t("详情", "Details"),
            [
                text(
                    ctx,
                    "detail_text",
                    ctx.t(f"{w.thing()}详情：暂无更多介绍", f"No more details for this {w.thing()}"),
                )
            ],
        ),
        page(ctx, "special", "SpecialActivity", special, [text(ctx, "special_text", detail, height=220)]),
    ]
    name = f"{kind} - open the {words} row"
    if ctx.coin():
        goal = ctx.t(
            f"在{ctx.place}打开「{label}」，向下滚动列表找到「{special}」并点开，看到{words}专题页",
            f"From {ctx.place} open {label}, scroll down the list to '{special}' and open it to read "
            f"its {words} feature",
        )
    else:
        goal = ctx.t(
            f"「{special}」的专题页能打开，显示{item}的完整介绍",
            f"The '{special}' page opens and shows all about {item}",
        )
    path = [tap(label), scroll_to(special), tap(special)]
    entries = [entry(ctx, "entry", label, [{"go": ctx.id("list")}])]
    sites = [
        BugSite(
            WRONG_SCREEN,
            name,
            special,
            2,
            "the special row opens the plain details page",
            bugs.redirect(ctx.id("row_special"), ctx.id("special"), ctx.id("detail")),
            ".ui.ItemDetailActivity",
        ),
        BugSite(
            ERROR,
            name,
            special,
            2,
            "the special row opens an error page",
            bugs.error_page(
                ctx.id("row_special"), error_page(ctx, "special_error", special, e := ctx.error_text())
            ),
            e,
        ),
    ]
    return Block(
        kind,
        entries,
        screens,
        features=[feature(ctx, kind, name, goal, [{"visible": detail}], path)],
        sites=sites,
    )


def long_page(ctx: Context) -> Block:
    w = ctx.words
    kind = "long_page"
    label = ctx.pick(
        ("用户协议", "隐私政策", "会员规则"), ("Terms of Service", "Privacy Policy", "Membership Rules")
    )
    agree = ctx.pick(("同意并继续", "我已阅读并同意"), ("I agree", "Accept and continue"))
    done = ctx.t(f"已同意《{label}》", f"You accepted the {label}")
    rows = [
        text(
            ctx,
            f"para_{i}",
            ctx.t(
                f"第 {i} 条 本条款说明{label}中关于{w.thing()}的第 {i} 项约定，请仔细阅读。",
                f"Section {i}. This section of the {label} explains rule {i} about "
                f"{w.thing(True)}; read it carefully.",
            ),
            height=200,
        )
        for i in range(1, w.rng.randint(*PARAGRAPHS) + 1)
    ]
    rows.append(button(ctx, "agree", agree, [{"set": {ctx.id("agreed"): True}}, "back"]))
    screens = [
        page(
            ctx,
            "doc",
            "AgreementActivity",
            label,
            [{"class": "RecyclerView", "id": ctx.id("rv_doc"), "list": {"rows": rows, "row_height": 220}}],
        )
    ]
    name = f"{kind} - accept the {'agreement' if w.zh else label}"
    if ctx.coin():
        goal = ctx.t(
            f"在{ctx.place}打开「{label}」，读到最后，点「{agree}」",
            f"From {ctx.place} open {label}, read it to the end and tap '{agree}'",
        )
    else:
        goal = ctx.t(
            f"接受《{label}》：{ctx.host_words}显示“{done}”",
            f"Accept the {label} so that {ctx.host_words} says '{done}'",
        )
    path = [tap(label), scroll_to(agree), tap(agree)]
    sites = [
        BugSite(DEAD, name, agree, 2, "the agree button at the end does nothing", bugs.dead(ctx.id("agree"))),
        BugSite(CRASH, name, agree, 2, "the agree button crashes the app", bugs.crash(ctx.id("agree"))),
    ]
    return Block(
        kind,
        [entry(ctx, "entry", label, [{"go": ctx.id("doc")}])],
        screens,
        variables={ctx.id("agreed"): False},
        host_extras=[status(ctx, "agreed_line", done, ctx.id("agreed"))],
        features=[feature(ctx, kind, name, goal, [{"visible": done}], path)],
        sites=sites,
    )
