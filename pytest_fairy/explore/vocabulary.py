"""The words of an app's UI that tell what an element or a text means to the evidence (`evidence`) and to
the offline brain: a failure shown, a form committed, a way out, a search, a sign-in wall. Matched in lower
case, English and Chinese.
"""

from __future__ import annotations

from pytest_fairy.perception.relevance import tokens

# Words of a failure shown to the user, matched in lower case: an error screen, an error text or toast.
# Not validation words ("invalid", "格式"): values the explorer made up may well be invalid.
ERROR_WORDS = (
    "error",
    "failed",
    "failure",
    "went wrong",
    "try again",
    "unable to",
    "could not",
    "couldn't",
    "not available",
    "出错",
    "错误",
    "失败",
    "异常",
    "请重试",
    "无法",
    "不可用",
)
# Words of a form's validation message: the app refusing what was typed. Right for made-up input, a
# defect for the tester's own (the spec's inputs in every field).
INVALID_WORDS = (
    "invalid",
    "not valid",
    "is required",
    "are required",
    "must be",
    "must contain",
    "incorrect",
    "无效",
    "不正确",
    "格式不对",
    "不能为空",
    "请输入正确",
    "不合法",
)
# Labels that commit a form: its Save, its Submit. An element with one of them, on a screen that an element
# the feature names opened, belongs to the feature too.
COMMIT_WORDS = frozenset(
    {
        "确定",
        "确认",
        "完成",
        "保存",
        "提交",
        "发送",
        "添加",
        "创建",
        "ok",
        "done",
        "save",
        "submit",
        "confirm",
        "apply",
        "send",
        "add",
        "create",
        "post",
        "continue",
        "agree",  # an agreement accepted: `I agree`, `Accept`, `我已阅读并同意`
        "accept",
        "同意",
        "接受",
    }
)
# Words of a button that finishes its page (accepts, confirms, saves): it names no screen, and goes back
# wherever the app came from, so where it leads is never a wrong screen.
FINISHING_WORDS = frozenset(
    {"确定", "确认", "完成", "保存", "提交", "同意", "接受"}
    | {"ok", "done", "save", "submit", "confirm", "apply", "agree", "accept"}
)
# Labels of a way out of a screen: where it leads is the back stack's business, never a wrong screen.
LEAVING_LABELS = frozenset(
    {"navigate up", "转到上一层级", "向上导航", "返回", "back", "关闭", "close", "取消", "cancel"}
)
# Labels of the button that runs a search, matched as words: `查找`, `Go`.
SUBMIT_QUERY_WORDS = frozenset({"search", "find", "go", "搜索", "查找", "查询"})
# Words of a field or button that asks for a query: what the run typed may well find nothing.
QUERY_WORDS = ("search", "find", "query", "keyword", "搜索", "查找", "关键词", "关键字")
# Words of a text saying that a search found nothing: no evidence for a query the run made up, but for
# the spec's own test data.
NOTHING_FOUND_WORDS = (
    "no results",
    "no result",
    "nothing found",
    "no matches",
    "not found",
    "0 results",
    "没有找到",
    "未找到",
    "无结果",
    "没有相关",
    "暂无",
)
# Words of a feature that asks for a form submitted with its fields empty; and of one that only says a
# field may be left empty (optional), which asks no such thing.
ASKS_EMPTY = ("empty", "blank", "without filling", "不填", "留空", "为空", "空白", "未填")
MAY_BE_EMPTY = (
    "may be empty",
    "can be empty",
    "may be left empty",
    "can be left empty",
    "可不填",
    "可以不填",
    "可留空",
    "可为空",
    "可以为空",
    "选填",
)


# Words of a message asking for what a form left out (`请填写收货人`, `Name is required`).
FILL_IN_WORDS = (
    "请填写",
    "请输入",
    "请选择",
    "必填",
    "please enter",
    "please fill",
    "please select",
    "required",
    "can't be empty",
    "cannot be empty",
)


def tells_to_fill(text: str) -> bool:
    """Whether `text` refuses a form for what it left out (or for an error): `请填写收货人`."""
    lowered = text.casefold()
    return is_error(text) or is_invalid(text) or any(word in lowered for word in FILL_IN_WORDS)


def asks_empty(text: str) -> bool:
    """Whether `text` (a feature's words) asks for a form submitted empty."""
    text = text.casefold()
    for optional in MAY_BE_EMPTY:
        text = text.replace(optional, " ")
    return any(word in text for word in ASKS_EMPTY)


# Words of a feature that asks for a refusal (a permission denied), and the labels of the refusing choice.
ASKS_REFUSAL = ("deny", "denied", "refuse", "decline", "reject", "don't allow", "拒绝", "不允许", "不同意")
REFUSING_LABELS = frozenset(
    {"拒绝", "不允许", "禁止", "deny", "don't allow", "dont allow", "decline", "refuse"}
)
# The choices of a permission prompt that grant it.
ALLOWING_LABELS = frozenset(
    {"允许", "始终允许", "仅在使用中允许", "仅使用期间允许", "本次运行允许", "allow", "allow all the time"}
    | {"while using the app", "only this time", "allow only while using the app"}
)


def asks_refusal(text: str) -> bool:
    """Whether `text` (a feature's words) asks for a refusal: `deny the camera`, `拒绝相机权限`."""
    text = text.casefold()
    return any(word in text for word in ASKS_REFUSAL)


# Titles of a screen that asks to sign in: a login wall any element of a signed-out app may lead to.
SIGN_IN_WORDS = ("sign in", "sign-in", "log in", "login", "登录", "登入")
# Labels that keep something in the app's data besides committing a form: what a feature saves or adds.
# A form's button showing a choice not made yet: a date, a time, a city to pick.
PICK_WORDS = ("请选择", "未选择", "select a", "select your", "choose a", "choose your", "pick a")
KEEP_WORDS = frozenset({"收藏", "加入", "关注", "点赞", "like", "favourite", "favorite", "follow", "buy"})


def is_error(text: str) -> bool:
    """Error text: `Something went wrong`, `加载失败`."""
    lowered = text.casefold()
    return any(word in lowered for word in ERROR_WORDS)


def is_invalid(text: str) -> bool:
    """A validation message: the app refusing what was typed (`Invalid phone number`)."""
    lowered = text.casefold()
    return any(word in lowered for word in INVALID_WORDS)


def refuses(text: str, tester: bool) -> bool:
    """Whether `text` tells of an error; of a validation message only when the input is the `tester`'s
    own (the spec's): made-up input is refused by a working app too."""
    return is_error(text) or tester and is_invalid(text)


def says(label: str, words: frozenset[str]) -> bool:
    """Whether the label is one of `words`, or holds one as a word (`Save recipe`, `加入购物车`)."""
    return label.strip().casefold() in words or bool(tokens(label) & words)
