"""Oracles on real Screens built from small dumps, and crash / ANR detection in logcat excerpts."""

from __future__ import annotations

from dataclasses import dataclass, field
from xml.sax.saxutils import quoteattr

import pytest

from pytest_fairy.explore.oracles import (
    MAX_EVIDENCE_LINES,
    Finding,
    Observation,
    activity_matches,
    defects,
    done,
)
from pytest_fairy.perception.screen import build_screen
from pytest_fairy.spec.model import Oracle, OracleKind

PKG = "com.example.shop"
W, H = 1080, 2400


@dataclass
class V:
    """A view for a test dump; children stack vertically inside their parent's bounds."""

    cls: str = "TextView"
    text: str = ""
    children: list[V] = field(default_factory=list)
    desc: str = ""
    flags: dict[str, bool] = field(default_factory=dict)


def v(text: str = "", *children: V, cls: str = "TextView", desc: str = "", **flags: bool) -> V:
    return V(cls, text, list(children), desc, flags)


def row(*children: V, **flags: bool) -> V:
    return V("LinearLayout", "", list(children), "", flags)


def _xml(view: V, package: str, bounds: tuple[int, int, int, int]) -> str:
    left, top, right, bottom = bounds
    attrs = {
        "index": "0",
        "text": view.text,
        "resource-id": "",
        "class": f"android.widget.{view.cls}",
        "package": package,
        "content-desc": view.desc,
        "checkable": "false",
        "checked": "false",
        "clickable": "false",
        "enabled": "true",
        "focusable": "false",
        "focused": "false",
        "scrollable": "false",
        "long-clickable": "false",
        "password": "false",
        "selected": "false",
        "visible-to-user": "true",
        "bounds": f"[{left},{top}][{right},{bottom}]",
    }
    attrs.update({k.replace("_", "-"): str(val).lower() for k, val in view.flags.items()})
    step = (bottom - top) // max(1, len(view.children))
    inner = "".join(
        _xml(child, package, (left, top + i * step, right, top + (i + 1) * step))
        for i, child in enumerate(view.children)
    )
    return "<node " + " ".join(f"{k}={quoteattr(val)}" for k, val in attrs.items()) + f">{inner}</node>"


def screen(*views: V, activity: str = ".CartActivity", windows: tuple[tuple[str, V, tuple], ...] = ()):
    app = _xml(V("FrameLayout", "", list(views)), PKG, (0, 0, W, H))
    extra = "".join(_xml(view, package, bounds) for package, view, bounds in windows)
    head = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"
    xml = f"{head}<hierarchy rotation='0'>{app}{extra}</hierarchy>"
    return build_screen(xml, activity=activity, package=PKG)


def obs(*views: V, logcat: str = "", state: str = "cart_1234abcd", **kw: object) -> Observation:
    return Observation(screen(*views, **kw), logcat, state)  # type: ignore[arg-type]


def o(kind: str, value: str = "") -> Oracle:
    return Oracle(kind=OracleKind(kind), value=value)


CART = obs(
    v("购物车"),
    v("巨无霸 ¥25"),
    row(v("预约送餐"), v(cls="RadioButton", checkable=True, checked=True)),
    row(v("尽快送达"), v(cls="RadioButton", checkable=True)),
)
KEYBOARD = (
    "com.google.android.inputmethod.latin",
    v("", v("发送", cls="Button", clickable=True)),
    (0, 1600, W, H),
)
CRASH_DIALOG = (
    "android",
    v("", v("Shop keeps stopping"), v("Close app", cls="Button", clickable=True)),
    (100, 900, 980, 1500),
)
ANR_DIALOG = (
    "android",
    v("", v("Shop isn't responding"), v("Wait", cls="Button", clickable=True)),
    (100, 900, 980, 1500),
)


def test_done_when_all_hold_on_one_screen() -> None:
    oracles = [
        o("visible", "购物车"),
        o("activity", ".CartActivity"),
        o("state", "cart"),
        o("checked", "预约送餐"),
        o("not_visible", "网络异常"),
        o("text_matches", r"¥\d+"),
    ]
    assert done(oracles, CART).holds
    assert done([], CART).holds  # nothing to hold: vacuously true (the explorer asks the judge then)


def test_unmet_conditions_say_what_was_seen() -> None:
    check = done(
        [
            o("visible", "支付成功"),
            o("activity", ".PayActivity"),
            o("checked", "尽快送达"),
            o("state", "pay"),
            o("visible", "购物车"),
        ],
        CART,
    )
    assert not check.holds
    assert check.unmet == [
        "visible: 支付成功 (no view shows '支付成功')",
        "activity: .PayActivity (activity is .CartActivity)",
        "checked: 尽快送达 ('尽快送达' is on screen but not checked)",
        "state: pay (state is cart_1234abcd)",
    ]


def test_visible_is_case_insensitive_and_reads_content_desc() -> None:
    seen = obs(v(desc="Shopping Cart", cls="ImageButton", clickable=True))
    assert done([o("visible", "shopping cart")], seen).holds
    assert not done([o("visible", "checkout")], seen).holds


def test_keyboard_keys_are_not_the_app_s_text() -> None:
    typing = obs(v("消息"), windows=(KEYBOARD,))
    assert not done([o("visible", "发送")], typing).holds


def test_checked_reads_the_row_or_the_view_itself() -> None:
    on_row = obs(row(v("预约送餐"), checkable=True, checked=True))
    on_self = obs(v("预约送餐", cls="CheckBox", checkable=True, checked=True))
    tab = obs(v("外卖", cls="TextView", selected=True))
    other_option = v("尽快送达", cls="RadioButton", checkable=True, checked=True)
    labelled_neighbour = obs(row(v("预约送餐"), other_option))
    assert done([o("checked", "预约送餐")], on_row).holds
    assert done([o("checked", "预约送餐")], on_self).holds
    assert done([o("checked", "外卖")], tab).holds
    assert not done([o("checked", "预约送餐")], labelled_neighbour).holds


@pytest.mark.parametrize(
    ("wanted", "current", "holds"),
    [
        (".CartActivity", ".CartActivity", True),
        (".CartActivity", "com.example.shop.CartActivity", True),
        (".CartActivity", "com.example.shop/.CartActivity", True),
        (".CartActivity", "com.example.shop.order.CartActivity", True),
        (".order.CartActivity", "com.example.shop/.order.CartActivity", True),
        ("CartActivity", "com.example.shop.order.CartActivity", True),
        ("com.example.shop.CartActivity", ".CartActivity", True),
        (".CartActivity", ".MiniCartActivity", False),
        ("CartActivity", ".MiniCartActivity", False),
        ("com.other.CartActivity", ".CartActivity", False),
        (".CartActivity", "", False),
    ],
)
def test_activity_names(wanted: str, current: str, holds: bool) -> None:
    assert activity_matches(wanted, current, PKG) is holds


JAVA_CRASH = """\
12-20 17:23:05.001  1234  1234 I ActivityManager: Start proc 1234:com.example.shop/u0a123
12-20 17:23:06.120  1234  1234 E AndroidRuntime: FATAL EXCEPTION: main
12-20 17:23:06.120  1234  1234 E AndroidRuntime: Process: com.example.shop, PID: 1234
12-20 17:23:06.121  1300  1300 I chatty  : uid=10123 expire 3 lines
12-20 17:23:06.121  1234  1234 E AndroidRuntime: java.lang.NullPointerException: cart is null
12-20 17:23:06.121  1234  1234 E AndroidRuntime: \tat com.example.shop.CartActivity.onCreate(Cart.java)
12-20 17:23:06.122   567   890 W ActivityManager:   Force finishing activity com.example.shop/.CartActivity
"""
OTHER_CRASH = JAVA_CRASH.replace("com.example.shop,", "com.other.app,")
BRIEF_CRASH = """\
E/AndroidRuntime( 4321): FATAL EXCEPTION: main
E/AndroidRuntime( 4321): Process: com.example.shop:push, PID: 4321
E/AndroidRuntime( 4321): java.lang.IllegalStateException: boom
"""
NATIVE_CRASH = (
    "12-20 17:23:06.120  1234  1290 F libc    : Fatal signal 11 (SIGSEGV), code 1 (SEGV_MAPERR), "
    "fault addr 0x0 in tid 1290 (RenderThread), pid 1234 (ample.shop)\n"
)
ANR = """\
12-20 17:30:00.000   567   600 E ActivityManager: ANR in com.example.shop (com.example.shop/.CartActivity)
12-20 17:30:00.000   567   600 E ActivityManager: PID: 1234
12-20 17:30:00.000   567   600 E ActivityManager: Reason: Input dispatching timed out (Waiting for key)
12-20 17:30:00.001   567   600 E ActivityManager: Load: 12.0 / 10.5 / 9.8
"""


def test_java_crash_of_the_app_with_a_bounded_excerpt() -> None:
    (finding,) = defects([], obs(v("购物车"), logcat=JAVA_CRASH), PKG)
    assert finding.kind == "crash"
    assert finding.message == "app crashed: java.lang.NullPointerException: cart is null"
    lines = finding.evidence.splitlines()
    assert lines[0].endswith("FATAL EXCEPTION: main")
    # chatty's and ActivityManager's lines are not part of the block
    assert "Cart.java" in lines[-1] and len(lines) == 4


def test_crash_excerpt_is_bounded() -> None:
    long_trace = JAVA_CRASH + "".join(
        f"12-20 17:23:06.130  1234  1234 E AndroidRuntime: \tat frame{i}\n" for i in range(100)
    )
    (finding,) = defects([], obs(logcat=long_trace), PKG)
    assert len(finding.evidence.splitlines()) == MAX_EVIDENCE_LINES


def test_crash_of_another_process_is_not_the_app_s() -> None:
    assert defects([], obs(logcat=OTHER_CRASH), PKG) == []


def test_crash_in_an_app_subprocess_brief_format() -> None:
    (finding,) = defects([], obs(logcat=BRIEF_CRASH), PKG)
    assert finding.message == "app crashed: java.lang.IllegalStateException: boom"


def test_native_crash_with_a_truncated_process_name() -> None:
    (finding,) = defects([], obs(logcat=NATIVE_CRASH), PKG)
    assert finding.kind == "crash" and "SIGSEGV" in finding.message


def test_anr_in_the_log() -> None:
    (finding,) = defects([], obs(logcat=ANR), PKG)
    assert finding.kind == "anr"
    assert finding.message == (
        "app not responding (ANR): Reason: Input dispatching timed out (Waiting for key)"
    )
    assert len(finding.evidence.splitlines()) == 4


def test_anr_of_another_app_is_ignored() -> None:
    assert defects([], obs(logcat=ANR.replace("com.example.shop", "com.other")), PKG) == []


def test_crash_and_anr_dialogs() -> None:
    (crash,) = defects([], obs(v("首页"), windows=(CRASH_DIALOG,)), PKG)
    assert crash == Finding(
        "crash", "app crashed: system dialog says 'Shop keeps stopping'", "Shop keeps stopping | Close app"
    )
    (anr,) = defects([], obs(v("首页"), windows=(ANR_DIALOG,)), PKG)
    assert anr.kind == "anr"
    # With the app's name known, another app's dialog does not count.
    assert defects([], obs(windows=(CRASH_DIALOG,)), PKG, app_name="Mall") == []
    assert len(defects([], obs(windows=(CRASH_DIALOG,)), PKG, app_name="Shop")) == 1


def test_a_logged_crash_is_reported_once_even_with_its_dialog() -> None:
    findings = defects([], obs(windows=(CRASH_DIALOG,), logcat=JAVA_CRASH), PKG)
    assert [f.kind for f in findings] == ["crash"] and "FATAL EXCEPTION" in findings[0].evidence


def test_crash_and_anr_are_checked_even_when_must_not_does_not_list_them() -> None:
    quiet = obs(v("购物车"), logcat=JAVA_CRASH + ANR)
    assert [f.kind for f in defects([], quiet, PKG)] == ["crash", "anr"]
    assert [f.kind for f in defects([o("crash"), o("anr")], quiet, PKG)] == ["crash", "anr"]


def test_must_not_conditions() -> None:
    error_page = obs(v("网络异常，请重试"), v("错误码 500"), logcat="E/Network( 99): timeout\n")
    findings = defects(
        [
            o("visible", "网络异常"),
            o("text_matches", r"错误码\s*\d+"),
            o("logcat_matches", "E/Network"),
            o("not_visible", "购物车"),
            o("visible", "支付成功"),
            o("activity", ".ErrorActivity"),
        ],
        error_page,
        PKG,
    )
    assert [(f.kind, f.message) for f in findings] == [
        ("visible", "must_not condition seen: visible: 网络异常"),
        ("text_matches", r"must_not condition seen: text_matches: 错误码\s*\d+"),
        ("logcat_matches", "must_not condition seen: logcat_matches: E/Network"),
        ("not_visible", "must_not condition seen: not_visible: 购物车"),
    ]
    assert findings[0].evidence == "on screen: '网络异常，请重试'"
    assert findings[2].evidence == "E/Network( 99): timeout"


def test_clean_screen_has_no_defects() -> None:
    assert defects([o("visible", "网络异常"), o("crash")], CART, PKG) == []


def test_a_toast_counts_as_on_screen_for_text_conditions_and_is_named_in_the_evidence() -> None:
    """Toasts are never in a dump; the device reports them beside it (devices.protocol.Toasts)."""
    from dataclasses import replace

    plain = obs(v("暂无内容"))
    toasted = Observation(replace(plain.screen, toasts=("网络异常，请稍后重试",)), "", plain.state_name)
    assert not defects([o("visible", "网络异常")], plain, PKG)
    (finding,) = defects([o("visible", "网络异常")], toasted, PKG)
    assert finding.evidence == "on screen: toast '网络异常，请稍后重试'"
    assert done([o("text_matches", r"网络异常.*重试")], toasted).holds
    assert not done([o("not_visible", "网络异常")], toasted).holds
    assert not done([o("text_matches", r"网络异常")], plain).holds
