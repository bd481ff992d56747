"""Building blocks that take typed input: a form with required fields, a check box and an inline error,
and a login wall in front of a page.

Their bugs break only the feature that does the job right (a valid submit, the right password): the
features that check the error paths keep working on every bug twin.
"""

from __future__ import annotations

from typing import Any

from . import bugs
from .blocks import Block, Context, button, entry, error_alert, error_page, feature, page, text
from .bugs import BugSite, Model
from .truth import ACCEPTED_EMPTY, CRASH, ERROR, tap, type_into
from .words import PASSWORDS, PHONES, USERS


def _when_ok(
    element_id: str, ok: str, bad: str, effects_if_ok: list[dict[str, Any]], added: dict[str, Any], into: str
) -> bugs.Edit:
    """An edit: the element's effects for a valid input (`ok`) become `effects_if_ok`; `added` (a screen
    or a dialog) is added to the model's `into` list; the effects for an invalid input (`bad`) stay."""

    def edit(model: Model) -> None:
        model.setdefault(into, []).append(added)
        target = bugs.element(model, element_id)
        kept = [e for e in target["on_tap"] if e.get("when") == bad]
        target["on_tap"] = [*[{**e, "when": ok} for e in effects_if_ok], *kept]

    return edit


def form(ctx: Context) -> Block:
    w = ctx.words
    kind = "form"
    label = ctx.pick(("意见反馈", "预约到店", "活动报名"), ("Feedback", "Book a visit", "Event sign-up"))
    name_hint = ctx.t("姓名（必填）", "Name (required)")
    phone_hint = ctx.t("手机号（必填）", "Phone (required)")
    agree = ctx.t("我已阅读并同意服务条款", "I agree to the terms")
    submit = ctx.pick(("提交", "确认提交"), ("Submit", "Confirm"))
    name_var, phone_var, agree_var, err = (ctx.id(n) for n in ("name", "phone", "agree", "error"))
    ok = f"{name_var} != '' and {phone_var} != '' and {agree_var}"
    bad = f"{name_var} == '' or {phone_var} == '' or not {agree_var}"
    error_words = ctx.t("请填写必填项并勾选同意服务条款", "Fill in the required fields and accept the terms")
    thanks = ctx.t("提交成功，我们会尽快联系您", "Thanks! We received your request")
    person, phone = w.person(), w.choice(PHONES)
    screens = [
        page(
            ctx,
            "form",
            "FormActivity",
            label,
            [
                {"class": "EditText", "id": ctx.id("et_name"), "hint": name_hint, "var": name_var},
                {"class": "EditText", "id": ctx.id("et_phone"), "hint": phone_hint, "var": phone_var},
                {
                    "class": "EditText",
                    "id": ctx.id("et_email"),
                    "hint": ctx.t("邮箱（选填）", "Email (optional)"),
                },
                {"class": "CheckBox", "id": ctx.id("cb_agree"), "text": agree, "var": agree_var},
                text(ctx, "inline_error", error_words, when=err),
                button(
                    ctx,
                    "submit",
                    submit,
                    [{"when": bad, "set": {err: True}}, {"when": ok, "replace": ctx.id("done")}],
                    dock="bottom",
                ),
            ],
        ),
        page(ctx, "done", "FormDoneActivity", label, [text(ctx, "thanks", thanks)]),
    ]
    name = f"{kind} - submit {label if not w.zh else 'the form'}"
    data = ctx.t(f"姓名填“{person}”，手机号填“{phone}”", f"name '{person}', phone {phone}")
    if ctx.coin():
        goal = ctx.t(
            f"在{ctx.place}打开「{label}」，{data}，勾选「{agree}」，点「{submit}」",
            f"From {ctx.place} open {label}, fill in {data}, tick '{agree}' and tap {submit}",
        )
    else:
        goal = ctx.t(
            f"{label}表单能提交成功（{data}，邮箱可不填）",
            f"The {label} form can be sent ({data}; email is optional)",
        )
    path = [tap(label), type_into(name_hint, person), type_into(phone_hint, phone), tap(agree), tap(submit)]
    empty = f"{kind} - required fields"
    goal2 = ctx.t(
        f"{label}表单什么都不填直接点「{submit}」，页面提示必填项",
        f"Tap {submit} on the empty {label} form: it says which fields are required",
    )
    failed = ctx.error_text()
    sites = [
        BugSite(
            CRASH, name, submit, 4, "a valid submit crashes the app", bugs.crash(ctx.id("submit"), when=ok)
        ),
        BugSite(
            ACCEPTED_EMPTY,
            empty,
            submit,
            1,
            "an empty submit goes on to the thanks page, no field asked for",
            bugs.replace_effects(ctx.id("submit"), [{"replace": ctx.id("done")}]),
            thanks,
        ),
        BugSite(
            ERROR,
            name,
            submit,
            4,
            "a valid submit shows an error page instead of the thanks",
            _when_ok(
                ctx.id("submit"),
                ok,
                bad,
                [{"go": ctx.id("form_error")}],
                error_page(ctx, "form_error", label, failed),
                "screens",
            ),
            failed,
        ),
    ]
    return Block(
        kind,
        [entry(ctx, "entry", label, [{"go": ctx.id("form")}])],
        screens,
        variables={name_var: "", phone_var: "", agree_var: False, err: False},
        features=[
            feature(ctx, kind, name, goal, [{"visible": thanks}], path),
            feature(ctx, kind, empty, goal2, [{"visible": error_words}], [tap(label), tap(submit)]),
        ],
        sites=sites,
    )


def login_wall(ctx: Context) -> Block:
    w = ctx.words
    kind = "login_wall"
    label, marker = ctx.words.choice(
        (
            (ctx.t("我的订单", "My orders"), ctx.t("全部订单（3）", "All orders (3)")),
            (ctx.t("我的优惠券", "My coupons"), ctx.t("可用优惠券（2）", "Coupons you can use (2)")),
            (ctx.t("会员中心", "Member center"), ctx.t("会员等级：黄金会员", "Member level: Gold")),
        )
    )
    user_hint, pwd_hint = ctx.t("账号", "Username"), ctx.t("密码", "Password")
    sign_in = ctx.t("登录", "Sign in")
    user, password = w.choice(USERS), w.choice(PASSWORDS)
    user_var, pwd_var, logged, err = (ctx.id(n) for n in ("user", "pwd", "logged_in", "login_error"))
    ok = f"{user_var} != '' and {pwd_var} == '{password}'"
    bad = f"not ({ok})"
    wrong = ctx.t("账号或密码错误", "Wrong username or password")
    screens = [
        page(
            ctx,
            "private",
            "PrivateActivity",
            label,
            [text(ctx, "marker", marker), text(ctx, "private_row", ctx.t("更多内容请稍后查看", "More soon"))],
            on_show=[{"when": f"not {logged}", "replace": ctx.id("login")}],
        ),
        page(
            ctx,
            "login",
            "LoginActivity",
            ctx.t("账号登录", "Sign in to continue"),
            [
                {"class": "EditText", "id": ctx.id("et_user"), "hint": user_hint, "var": user_var},
                {
                    "class": "EditText",
                    "id": ctx.id("et_pwd"),
                    "hint": pwd_hint,
                    "var": pwd_var,
                    "password": True,
                },
                text(ctx, "login_error_text", wrong, when=err),
                button(
                    ctx,
                    "sign_in",
                    sign_in,
                    [
                        {"when": ok, "set": {logged: True}},
                        {"when": logged, "replace": ctx.id("private")},
                        {"when": bad, "set": {err: True}},
                    ],
                ),
            ],
        ),
    ]
    name = f"{kind} - sign in to {label if not w.zh else 'the private page'}"
    if ctx.coin():
        goal = ctx.t(
            f"在{ctx.place}点「{label}」，用账号 {user}、密码 {password} 登录，看到{label}",
            f"From {ctx.place} tap {label}, sign in as {user} with password {password}, and see {label}",
        )
    else:
        goal = ctx.t(
            f"登录后能看到{label}（账号 {user}，密码 {password}）",
            f"{label} shows after signing in (username {user}, password {password})",
        )
    path = [tap(label), type_into(user_hint, user), type_into(pwd_hint, password), tap(sign_in)]
    wrong_name = f"{kind} - wrong password"
    goal2 = ctx.t(
        f"用账号 {user} 和错误的密码 wrong000 登录{label}，页面提示{wrong}",
        f"Try to open {label} as {user} with the wrong password wrong000: the page says '{wrong}'",
    )
    busy = ctx.t("登录失败：服务器繁忙，请稍后再试", "Sign-in failed: the server is busy, try again later")
    sites = [
        BugSite(
            CRASH,
            name,
            sign_in,
            3,
            "signing in with the right password crashes the app",
            bugs.crash(ctx.id("sign_in"), when=ok),
        ),
        BugSite(
            ERROR,
            name,
            sign_in,
            3,
            "signing in with the right password shows a server error",
            _when_ok(
                ctx.id("sign_in"),
                ok,
                bad,
                [{"dialog": ctx.id("busy")}],
                error_alert(ctx, "busy", busy),
                "dialogs",
            ),
            busy,
        ),
    ]
    return Block(
        kind,
        [entry(ctx, "entry", label, [{"go": ctx.id("private")}])],
        screens,
        variables={user_var: "", pwd_var: "", logged: False, err: False},
        features=[
            feature(
                ctx,
                kind,
                name,
                goal,
                [{"visible": marker}],
                path,
                inputs={user_hint: user, pwd_hint: password},
            ),
            feature(
                ctx,
                kind,
                wrong_name,
                goal2,
                [{"visible": wrong}],
                [tap(label), type_into(user_hint, user), type_into(pwd_hint, "wrong000"), tap(sign_in)],
                inputs={user_hint: user, pwd_hint: "wrong000"},
            ),
        ],
        sites=sites,
    )
