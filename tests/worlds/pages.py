"""Building blocks that are pages to look things up on: a WebView-like help page with question links,
and a search page that shows results only for a typed query."""

from __future__ import annotations

from . import bugs
from .blocks import Block, Context, button, entry, error_page, feature, page, text
from .bugs import BugSite
from .truth import CRASH, ERROR, WRONG_SCREEN, tap, type_into

QUESTIONS = {
    "zh": (
        (
            "如何修改绑定手机号？",
            "修改手机号说明",
            "进入「我的」-「账号与安全」-「手机号」，验证后即可修改。",
        ),
        ("如何申请退款？", "退款说明", "在订单详情页点击「申请售后」，审核通过后 1-3 个工作日退回原账户。"),
        ("如何开具发票？", "发票说明", "在订单完成后 30 天内，进入订单详情页选择「开具发票」并填写抬头。"),
        ("忘记密码怎么办？", "找回密码说明", "在登录页点击「忘记密码」，通过手机验证码重新设置密码。"),
    ),
    "en": (
        (
            "How do I change my phone number?",
            "Changing your phone number",
            "Go to Me > Account > Phone number and verify the new number.",
        ),
        (
            "How do I get a refund?",
            "Refund policy",
            "Open the order and tap Request refund; approved refunds arrive in 1-3 business days.",
        ),
        (
            "How do I get an invoice?",
            "Invoices explained",
            "Within 30 days of an order, open it and choose Issue invoice.",
        ),
        (
            "I forgot my password",
            "Resetting your password",
            "On the sign-in page tap Forgot password and follow the verification code.",
        ),
    ),
}


def webview(ctx: Context) -> Block:
    w = ctx.words
    kind = "webview"
    label = ctx.pick(("帮助中心", "常见问题", "客服与帮助"), ("Help Center", "FAQ", "Help & Support"))
    questions = list(QUESTIONS[w.lang])
    w.rng.shuffle(questions)
    questions = questions[:3]
    chosen = w.rng.randrange(len(questions))
    links = [
        text(ctx, f"q{k}", q, style="link", clickable=True, on_tap=[{"go": ctx.id(f"answer{k}")}])
        for k, (q, _, _) in enumerate(questions)
    ]
    web = {
        "class": "WebView",
        "id": ctx.id("web"),
        "children": [
            text(ctx, "web_title", ctx.t(f"{label} - 热门问题", f"{label} - top questions"), style="title"),
            *links,
        ],
    }
    screens = [page(ctx, "help", "HelpWebActivity", label, [web])]
    for k, (_, heading, body) in enumerate(questions):
        screens.append(
            page(
                ctx,
                f"answer{k}",
                f"HelpAnswer{k}Activity",
                label,
                [
                    {
                        "class": "WebView",
                        "id": ctx.id(f"web{k}"),
                        "children": [
                            text(ctx, f"a{k}_title", heading, style="title"),
                            text(ctx, f"a{k}_body", body, height=330),
                        ],
                    }
                ],
            )
        )
    question, heading, body = questions[chosen]
    name = f"{kind} - help answer"
    if ctx.coin():
        goal = ctx.t(
            f"在{ctx.place}打开「{label}」，点问题「{question}」，看到{heading}",
            f"From {ctx.place} open {label} and tap '{question}' to read the {heading.lower()}",
        )
    else:
        goal = ctx.t(f"帮助页面能回答「{question}」", f"The help pages answer '{question}'")
    path = [tap(label), tap(question)]
    other = (chosen + 1) % len(questions)
    broken = ctx.t(
        "网页无法打开 net::ERR_CONNECTION_TIMED_OUT", "Webpage not available net::ERR_CONNECTION_TIMED_OUT"
    )
    sites = [
        BugSite(
            ERROR,
            name,
            question,
            1,
            "the help link shows a page that cannot load",
            bugs.error_page(ctx.id(f"q{chosen}"), error_page(ctx, "web_error", label, broken)),
            broken,
        ),
        BugSite(
            WRONG_SCREEN,
            name,
            question,
            1,
            "the help link opens the answer to another question",
            bugs.redirect(ctx.id(f"q{chosen}"), ctx.id(f"answer{chosen}"), ctx.id(f"answer{other}")),
            f".ui.HelpAnswer{other}Activity",
        ),
    ]
    return Block(
        kind,
        [entry(ctx, "entry", label, [{"go": ctx.id("help")}])],
        screens,
        features=[feature(ctx, kind, name, goal, [{"visible": heading}, {"visible": body[:12]}], path)],
        sites=sites,
    )


def search(ctx: Context) -> Block:
    w = ctx.words
    kind = "search"
    label = ctx.t(f"搜索{w.thing(True)}", f"Search {w.thing(True)}")
    go = ctx.pick(("搜索", "查找"), ("Search", "Go"))
    hint = ctx.t(f"输入{w.thing()}名称", f"Type a {w.thing()} name")
    query = w.items(1)[0]
    missing = ctx.t("火星特产", "zzqx")
    q, searched = ctx.id("query"), ctx.id("searched")
    found = ctx.t(f"找到 3 条“{query}”的结果", f'3 results for "{query}"')
    none = ctx.t("没有找到相关结果", "No results found")
    hit = f"{q} == '{query}'"
    results = [
        text(ctx, f"result{k}", f"{query} {suffix}")
        for k, suffix in enumerate(
            ctx.t("经典版|家常做法|精选推荐", "Classic|Quick version|Top rated").split("|")
        )
    ]
    screens = [
        page(
            ctx,
            "search",
            "SearchActivity",
            label,
            [
                {"class": "EditText", "id": ctx.id("field"), "hint": hint, "var": q},
                button(ctx, "go", go, [{"when": f"{q} != ''", "set": {searched: True}}]),
                text(
                    ctx,
                    "tip",
                    ctx.t("输入关键词后点击搜索", "Type a word, then tap Search"),
                    style="caption",
                    when=f"not {searched}",
                ),
                text(ctx, "found", found, when=f"{searched} and {hit}"),
                *[{**r, "when": f"{searched} and {hit}"} for r in results],
                text(ctx, "none", none, when=f"{searched} and not {hit}"),
            ],
        )
    ]
    name = f"{kind} - find {query}"
    if ctx.coin():
        goal = ctx.t(
            f"在{ctx.place}打开「{label}」，在搜索框输入“{query}”，点「{go}」，看到搜索结果",
            f"From {ctx.place} open {label}, type '{query}' in the search box and tap {go}: results show",
        )
    else:
        goal = ctx.t(
            f"搜索“{query}”能找到结果（搜索词：{query}）",
            f"Searching for '{query}' finds results (type {query})",
        )
    path = [tap(label), type_into(hint, query), tap(go)]
    nothing = f"{kind} - no results"
    goal2 = ctx.t(
        f"搜索一个不存在的词“{missing}”，页面提示{none}",
        f"Search for a word that matches nothing ('{missing}'): the page says {none}",
    )
    failed = ctx.error_text()
    sites = [
        BugSite(
            ERROR,
            name,
            go,
            2,
            f"searching for {query} shows an error instead of the results",
            _error_first(ctx.id("go"), hit, error_page(ctx, "search_error", label, failed)),
            failed,
        ),
        BugSite(
            CRASH, name, go, 2, f"searching for {query} crashes the app", bugs.crash(ctx.id("go"), when=hit)
        ),
    ]
    return Block(
        kind,
        [entry(ctx, "entry", label, [{"go": ctx.id("search")}])],
        screens,
        variables={q: "", searched: False},
        features=[
            feature(ctx, kind, name, goal, [{"visible": found}], path, inputs={hint: query}),
            feature(
                ctx,
                kind,
                nothing,
                goal2,
                [{"visible": none}],
                [tap(label), type_into(hint, missing), tap(go)],
                inputs={hint: missing},
            ),
        ],
        sites=sites,
    )


def _error_first(element_id: str, when: str, error: dict[str, object]) -> bugs.Edit:
    """An edit: while `when` holds, the element opens the error page `error` (added to the model) instead
    of doing what it does (which it still does otherwise)."""

    def edit(model: bugs.Model) -> None:
        model["screens"].append(error)
        target = bugs.element(model, element_id)
        instead = [
            {**e, "when": f"not ({when})" + (f" and ({e['when']})" if "when" in e else "")}
            for e in target["on_tap"]
        ]
        target["on_tap"] = [{"when": when, "go": error["id"]}, *instead]

    return edit
