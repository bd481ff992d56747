"""Building blocks that open something over the screen: a bottom sheet (or a dialog) of choices, and a
runtime permission prompt.

Their bugs break only the feature that does the job right (confirming a choice, Allow): the feature that
denies the permission keeps working on every bug twin.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import bugs
from .blocks import Block, Context, button, entry, error_page, feature, page, status, text
from .bugs import BugSite, Model
from .truth import CRASH, DEAD, ERROR, tap

SHEET_TOPICS = {
    "zh": (
        ("配送方式", ("快递配送", "到店自提", "同城闪送")),
        ("排序方式", ("综合排序", "价格从低到高", "销量优先")),
        ("提醒时间", ("提前10分钟", "提前30分钟", "提前1小时")),
    ),
    "en": (
        ("Delivery option", ("Standard delivery", "Store pickup", "Express courier")),
        ("Sort order", ("Best match", "Price low to high", "Best selling")),
        ("Reminder", ("10 minutes before", "30 minutes before", "1 hour before")),
    ),
}
PERMISSIONS = {
    "zh": (
        ("扫一扫", "android.permission.CAMERA", "相机", "将二维码放入框内，即可自动扫描"),
        ("附近门店", "android.permission.ACCESS_FINE_LOCATION", "位置信息", "已为您找到 3 家附近门店"),
        ("拍照识别", "android.permission.CAMERA", "相机", "对准物体，拍照即可识别"),
    ),
    "en": (
        ("Scan a code", "android.permission.CAMERA", "your camera", "Point the camera at a QR code"),
        (
            "Stores near me",
            "android.permission.ACCESS_FINE_LOCATION",
            "your location",
            "3 stores found near you",
        ),
        ("Snap to search", "android.permission.CAMERA", "your camera", "Aim at an object and take a photo"),
    ),
}


def sheet(ctx: Context) -> Block:
    w = ctx.words
    kind = "sheet"
    topic, options = w.choice(SHEET_TOPICS[w.lang])
    chosen = options[1 + w.rng.randrange(len(options) - 1)]
    choice, confirmed = ctx.id("choice"), ctx.id("confirmed")
    title = ctx.t(f"选择{topic}", f"Choose a {topic.lower()}")
    confirm = ctx.pick(("确定", "完成"), ("Done", "Apply"))
    dialog_kind = "sheet" if ctx.coin() else "dialog"
    dialog = {
        "id": ctx.id("sheet"),
        "kind": dialog_kind,
        "title": title,
        "elements": [
            {
                "class": "RadioGroup",
                "id": ctx.id("rg"),
                "children": [
                    {"class": "RadioButton", "id": ctx.id(f"rb{k}"), "text": o, "group": choice, "value": o}
                    for k, o in enumerate(options)
                ],
            },
            button(ctx, "confirm", confirm, [{"set": {confirmed: True}}, "close"]),
        ],
    }
    shown = ctx.t(f"{topic}：{chosen}", f"{topic}: {chosen}")
    name = f"{kind} - choose {'an option' if w.zh else chosen}"
    if ctx.coin():
        goal = ctx.t(
            f"在{ctx.place}点「{topic}」，在弹出的面板里选「{chosen}」，点「{confirm}」",
            f"From {ctx.place} tap {topic}, pick '{chosen}' in the panel that opens and tap {confirm}",
        )
    else:
        goal = ctx.t(f"{topic}能改成「{chosen}」", f"The {topic.lower()} can be set to '{chosen}'")
    path = [tap(topic), tap(chosen), tap(confirm)]
    sites = [
        BugSite(
            DEAD,
            name,
            confirm,
            2,
            "the confirm button of the panel does nothing",
            bugs.dead(ctx.id("confirm")),
        ),
        BugSite(
            CRASH, name, confirm, 2, "confirming the panel crashes the app", bugs.crash(ctx.id("confirm"))
        ),
    ]
    return Block(
        kind,
        [entry(ctx, "entry", topic, [{"dialog": ctx.id("sheet")}])],
        dialogs=[dialog],
        variables={choice: options[0], confirmed: False},
        host_extras=[
            status(
                ctx, "chosen", ctx.t(f"{topic}：{{var:{choice}}}", f"{topic}: {{var:{choice}}}"), confirmed
            )
        ],
        features=[feature(ctx, kind, name, goal, [{"visible": shown}, {"not_visible": title}], path)],
        sites=sites,
    )


def permission(ctx: Context) -> Block:
    w = ctx.words
    kind = "permission"
    label, perm, what, result = w.choice(PERMISSIONS[w.lang])
    allowed = ctx.id("allowed")
    allow, deny = ctx.t("允许", "Allow"), ctx.t("拒绝", "Don't allow")
    explain = ctx.t(
        f"需要{what}权限才能使用「{label}」，可在系统设置中开启",
        f"{label} needs access to {what}; turn it on in the system settings",
    )
    on_allow = [{"go": ctx.id("result")}]
    effect = {
        "permission": {
            "name": perm,
            "label": what,
            "var": allowed,
            "on_allow": on_allow,
            "on_deny": [{"dialog": ctx.id("explain")}],
        }
    }
    screens = [
        page(
            ctx,
            "result",
            "CameraActivity",
            label,
            [
                {
                    "class": "ImageView",
                    "id": ctx.id("viewfinder"),
                    "desc": ctx.t("取景框", "Viewfinder"),
                    "height": 500,
                },
                text(ctx, "result_text", result),
            ],
        )
    ]
    dialogs = [
        {
            "id": ctx.id("explain"),
            "title": ctx.t("需要权限", "Permission needed"),
            "message": explain,
            "elements": [button(ctx, "explain_ok", ctx.t("知道了", "OK"), ["close"], primary=False)],
        }
    ]
    name = f"{kind} - allow and use {'it' if w.zh else label}"
    if ctx.coin():
        goal = ctx.t(
            f"在{ctx.place}点「{label}」，系统询问{what}权限时点「{allow}」，进入{label}页面",
            f"From {ctx.place} tap {label}, answer {allow} when Android asks for {what}, and reach {label}",
        )
    else:
        goal = ctx.t(f"授权{what}后能使用「{label}」", f"{label} works once {what} is allowed")
    denied = f"{kind} - deny"
    goal2 = ctx.t(
        f"点「{label}」，拒绝{what}权限，应用说明为什么需要它",
        f"Tap {label} and deny {what}: the app explains why it needs it",
    )
    failed = ctx.error_text()
    element_id = ctx.id("entry")

    def allow_edit(
        effects: Callable[[Model], list[dict[str, Any]]], added: dict[str, Any] | None = None
    ) -> bugs.Edit:
        def edit(model: Model) -> None:
            if added is not None:
                model["screens"].append(added)
            bugs.element(model, element_id)["on_tap"][0]["permission"]["on_allow"] = effects(model)

        return edit

    sites = [
        BugSite(
            CRASH,
            name,
            allow,
            1,
            "allowing the permission crashes the app",
            allow_edit(lambda model: [bugs.crash_effect(model, element_id)]),
        ),
        BugSite(
            ERROR,
            name,
            allow,
            1,
            "after Allow the app shows an error page",
            allow_edit(
                lambda model: [{"go": ctx.id("perm_error")}], error_page(ctx, "perm_error", label, failed)
            ),
            failed,
        ),
    ]
    return Block(
        kind,
        [entry(ctx, "entry", label, [effect])],
        screens,
        dialogs,
        {allowed: False},
        features=[
            feature(ctx, kind, name, goal, [{"visible": result}], [tap(label), tap(allow)]),
            feature(ctx, kind, denied, goal2, [{"visible": explain}], [tap(label), tap(deny)]),
        ],
        sites=sites,
    )
