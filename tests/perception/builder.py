"""Realistic uiautomator dumps built in code: the attribute order, window set and view nesting of real
Android 12-14 dumps (decor view, android:id/content, toolbar, RecyclerView with clipped rows, system bars).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from xml.sax.saxutils import quoteattr

PKG = "com.example.food"
W, H = 1080, 2400
STATUS_BAR = 63
NAV_TOP = 2337

ATTRS = (
    "index", "text", "resource-id", "class", "package", "content-desc", "checkable", "checked", "clickable",
    "enabled", "focusable", "focused", "scrollable", "long-clickable", "password", "selected",
    "visible-to-user", "bounds",
)
DISHES = ("巨无霸", "麦辣鸡腿堡", "板烧鸡腿堡", "麦香鱼", "薯条", "麦乐鸡", "可乐", "圆筒冰淇淋", "苹果派",
          "双层吉士汉堡")


@dataclass
class V:
    """A view to be dumped. `rid` is the short id; the package prefix is added when dumping."""

    cls: str
    bounds: tuple[int, int, int, int]
    children: list[V] = field(default_factory=list)
    text: str = ""
    rid: str = ""
    desc: str = ""
    pkg: str = ""
    naf: bool = False
    flags: dict[str, bool] = field(default_factory=dict)


def v(cls: str, bounds: tuple[int, int, int, int], *children: V, text: str = "", rid: str = "",
      desc: str = "", pkg: str = "", naf: bool = False, **flags: bool) -> V:
    full_cls = cls if "." in cls else f"android.widget.{cls}"
    return V(full_cls, bounds, list(children), text, rid, desc, pkg, naf, flags)


def _xml(view: V, index: int, pkg: str) -> str:
    package = view.pkg or pkg
    if view.rid.startswith("#"):  # an HTML element's id in a WebView: written bare, as Chrome does
        rid = view.rid[1:]
    else:
        rid = view.rid if (":" in view.rid or not view.rid) else f"{package}:id/{view.rid}"
    values: dict[str, object] = {
        "index": index, "text": view.text, "resource-id": rid, "class": view.cls, "package": package,
        "content-desc": view.desc, "checkable": False, "checked": False, "clickable": False,
        "enabled": True, "focusable": False, "focused": False, "scrollable": False,
        "long-clickable": False, "password": False, "selected": False, "visible-to-user": True,
        "bounds": "[{},{}][{},{}]".format(*view.bounds),
    }
    values.update({k.replace("_", "-"): val for k, val in view.flags.items()})
    attrs = " ".join(f"{name}={quoteattr(_text(values[name]))}" for name in ATTRS)
    naf = 'NAF="true" ' if view.naf else ""
    inner = "".join(_xml(child, i, package) for i, child in enumerate(view.children))
    return f"<node {naf}{attrs}>{inner}</node>" if inner else f"<node {naf}{attrs} />"


def _text(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def dump(*windows: V, pkg: str = PKG, seed: int | None = None) -> str:
    """The dump of `windows`; `seed` shuffles their order as real dumps do."""
    roots = list(windows)
    if seed is not None:
        random.Random(seed).shuffle(roots)
    body = "\n".join(_xml(root, 0, pkg) for root in roots)
    head = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"
    return f'{head}\n<hierarchy rotation="0">\n{body}\n</hierarchy>'


def status_bar() -> V:
    sys = "com.android.systemui"
    return v("FrameLayout", (0, 0, W, STATUS_BAR),
             v("TextView", (40, 0, 160, STATUS_BAR), text="12:30", rid="clock", pkg=sys),
             v("ImageView", (960, 0, 1040, STATUS_BAR), desc="电池电量为 80%", pkg=sys), pkg=sys)


def nav_bar() -> V:
    sys = "com.android.systemui"
    return v("FrameLayout", (0, NAV_TOP, W, H),
             v("ImageView", (200, NAV_TOP, 340, H), desc="返回", rid="back", pkg=sys, clickable=True),
             v("ImageView", (470, NAV_TOP, 610, H), desc="主屏幕", rid="home", pkg=sys, clickable=True),
             pkg=sys)


def decor(*content: V, pkg: str = PKG) -> V:
    """An app window: DecorView > LinearLayout > android:id/content holding `content`."""
    frame = v("FrameLayout", (0, STATUS_BAR, W, NAV_TOP), *content, rid="android:id/content", pkg=pkg)
    return v("FrameLayout", (0, 0, W, H), v("LinearLayout", (0, 0, W, H), frame, pkg=pkg), pkg=pkg)


LIST_TOP, LIST_BOTTOM, ROW = 440, 2150, 200


def dish_name(k: int) -> str:
    return f"{DISHES[k % len(DISHES)]} {k // len(DISHES) + 1}号"


def row(k: int, top: int, price: str) -> V:
    """Row `k` drawn at `top`, clipped to the list viewport as uiautomator does (a child scrolled out
    of view keeps a zero-height box and is not visible to the user)."""
    def part(cls: str, x1: int, dy1: int, x2: int, dy2: int, **kw: object) -> V:
        t, b = max(top + dy1, LIST_TOP), min(top + dy2, LIST_BOTTOM)
        seen = b > t
        view = v(cls, (x1, t, x2, b if seen else t), **kw)  # type: ignore[arg-type]
        view.flags["visible_to_user"] = seen
        return view

    t, b = max(top, LIST_TOP), min(top + ROW, LIST_BOTTOM)
    return v("LinearLayout", (0, t, W, b),
             part("ImageView", 30, 20, 210, 180, rid="img"),
             part("TextView", 240, 30, 800, 100, text=dish_name(k), rid="name"),
             part("TextView", 240, 110, 600, 170, text=price, rid="price"),
             part("ImageButton", 900, 50, 1040, 150, rid="btn_add", naf=True, clickable=True, focusable=True),
             rid="item_root", clickable=True, focusable=True)


def menu_list(rows: int = 40, offset: int = 0, prices: dict[int, str] | None = None) -> V:
    """The dish list scrolled down by `offset` pixels: only rows in the viewport are dumped."""
    views = []
    for k in range(rows):
        top = LIST_TOP + k * ROW - offset
        if top + ROW <= LIST_TOP or top >= LIST_BOTTOM:
            continue
        price = (prices or {}).get(k, f"¥{12 + k}.00")
        views.append(row(k, top, price))
    return v("androidx.recyclerview.widget.RecyclerView", (0, LIST_TOP, W, LIST_BOTTOM), *views,
             rid="menu_list", scrollable=True, focusable=True)


def toolbar(title: str) -> V:
    return v("androidx.appcompat.widget.Toolbar", (0, STATUS_BAR, W, 210),
             v("ImageButton", (0, STATUS_BAR, 147, 210), desc="转到上一层级", clickable=True, focusable=True),
             v("TextView", (180, 100, 400, 180), text=title),
             rid="toolbar")


def tabs() -> V:
    names = ("汉堡", "小食", "饮品", "甜品")
    return v("LinearLayout", (0, 330, W, 430),
             *(v("TextView", (i * 270, 330, (i + 1) * 270, 430), text=name, clickable=True, selected=i == 0)
               for i, name in enumerate(names)), rid="tabs")


def bottom_nav() -> V:
    names = ("首页", "菜单", "购物车", "我的")
    items = [
        v("FrameLayout", (i * 270, 2160, (i + 1) * 270, NAV_TOP),
          v("ImageView", (i * 270 + 100, 2170, i * 270 + 170, 2240), rid="icon"),
          v("TextView", (i * 270 + 80, 2250, i * 270 + 190, 2320), text=name, rid="label"),
          rid="tab_item", clickable=True, selected=i == 1)
        for i, name in enumerate(names)
    ]
    return v("LinearLayout", (0, 2160, W, NAV_TOP), *items, rid="bottom_nav")


def menu_page(rows: int = 40, offset: int = 0, prices: dict[int, str] | None = None) -> V:
    return v("LinearLayout", (0, STATUS_BAR, W, NAV_TOP),
             toolbar("菜单"),
             v("EditText", (30, 220, 1050, 320), text="搜索商品", rid="search", clickable=True),
             tabs(), menu_list(rows, offset, prices), bottom_nav(), rid="root")


def menu_window(rows: int = 40, offset: int = 0, prices: dict[int, str] | None = None,
                overlay: V | None = None) -> V:
    content = [menu_page(rows, offset, prices)]
    if overlay is not None:
        content.append(overlay)
    return decor(*content)


def menu_screen(rows: int = 40, offset: int = 0, prices: dict[int, str] | None = None,
                seed: int | None = None, extra: tuple[V, ...] = ()) -> str:
    return dump(status_bar(), menu_window(rows, offset, prices), nav_bar(), *extra, seed=seed)


def delivery_overlay(scrim_clickable: bool = False, chosen: str = "尽快送达") -> V:
    """The delivery-time dialog that the app draws inside its own window."""
    panel = v("LinearLayout", (90, 800, 990, 1600),
              v("TextView", (130, 830, 950, 920), text="请选择您的送达时间", rid="dlg_title"),
              v("RadioGroup", (130, 940, 950, 1240),
                v("RadioButton", (130, 940, 950, 1080), text="尽快送达", checkable=True, clickable=True,
                  checked=chosen == "尽快送达"),
                v("RadioButton", (130, 1100, 950, 1240), text="预约送餐", checkable=True, clickable=True,
                  checked=chosen == "预约送餐"), rid="time_group"),
              v("LinearLayout", (130, 1450, 950, 1570),
                v("Button", (130, 1450, 530, 1570), text="取消", rid="btn_cancel", clickable=True),
                v("Button", (550, 1450, 950, 1570), text="确定", rid="btn_ok", clickable=True)),
              rid="panel")
    scrim = v("View", (0, STATUS_BAR, W, NAV_TOP), rid="scrim", clickable=scrim_clickable)
    return v("FrameLayout", (0, STATUS_BAR, W, NAV_TOP), scrim, panel, rid="overlay")


def alert_window(title: str = "提示", message: str = "确定要清空购物车吗？",
                 buttons: tuple[str, ...] = ("取消", "确定"), close_icon: bool = False) -> V:
    # As AlertDialog names them: the last button given is the positive one, the one before it the negative
    # one, a third the neutral one.
    ids = ("android:id/button1", "android:id/button2", "android:id/button3")[: len(buttons)][::-1]
    row_views = [
        v("Button", (560 - 300 * i, 1380, 1000 - 300 * i, 1480), text=t, rid=ids[i], clickable=True)
        for i, t in enumerate(buttons)
    ]
    head = [v("TextView", (110, 930, 900, 1010), text=title, rid="android:id/alertTitle")]
    if close_icon:
        head.append(v("ImageView", (920, 920, 1000, 1000), rid="iv_close", naf=True, clickable=True))
    panel = v("LinearLayout", (66, 900, 1014, 1500), *head,
              v("TextView", (110, 1050, 970, 1300), text=message, rid="android:id/message"),
              v("LinearLayout", (66, 1370, 1014, 1490), *row_views, rid="android:id/buttonPanel"),
              rid="android:id/parentPanel")
    return v("FrameLayout", (66, 900, 1014, 1500), v("FrameLayout", (66, 900, 1014, 1500), panel,
                                                     rid="android:id/content"))


def sheet_window(hinted: bool = True) -> V:
    sheet_id = "design_bottom_sheet" if hinted else "share_panel"
    items = [v("TextView", (0, 1600 + i * 200, W, 1800 + i * 200), text=t, clickable=True, rid="sheet_item")
             for i, t in enumerate(("分享给朋友", "复制链接", "取消"))]
    sheet = v("FrameLayout", (0, 1500, W, H), v("LinearLayout", (0, 1500, W, H),
              v("TextView", (40, 1520, 1040, 1590), text="分享到"), *items), rid=sheet_id)
    outside = v("View", (0, 0, W, H), rid="touch_outside" if hinted else "dim", clickable=True)
    coordinator = v("androidx.coordinatorlayout.widget.CoordinatorLayout", (0, 0, W, H), outside, sheet,
                    rid="coordinator" if hinted else "wrap")
    return v("FrameLayout", (0, 0, W, H), coordinator)


def popup_window() -> V:
    items = [v("TextView", (600, 80 + i * 130, 1070, 200 + i * 130), text=t, clickable=True, rid="title")
             for i, t in enumerate(("分享", "收藏", "举报"))]
    return v("FrameLayout", (600, 70, 1070, 480), v("ListView", (600, 70, 1070, 480), *items))


PERMISSION_PKG = "com.android.permissioncontroller"


def permission_window() -> V:
    p = PERMISSION_PKG
    buttons = [
        v("Button", (100, 1400 + i * 150, 980, 1520 + i * 150), text=t, pkg=p, clickable=True,
          rid=f"{p}:id/{rid}")
        for i, (t, rid) in enumerate((("仅在使用该应用时允许", "permission_allow_foreground_only_button"),
                                      ("仅限这一次", "permission_allow_one_time_button"),
                                      ("不允许", "permission_deny_button")))
    ]
    panel = v("LinearLayout", (60, 1000, 1020, 1900),
              v("TextView", (100, 1100, 980, 1300), text="要允许“美食”获取此设备的位置信息吗？", pkg=p,
                rid=f"{p}:id/permission_message"), *buttons, pkg=p, rid=f"{p}:id/grant_dialog")
    return v("FrameLayout", (0, 0, W, H), panel, pkg=p)


def system_window(kind: str = "crash") -> V:
    """Android's crash ("keeps stopping") or ANR ("isn't responding") dialog, package `android`."""
    p = "android"
    title = "美食 keeps stopping" if kind == "crash" else "美食 isn't responding"
    labels = ("App info", "Close app") if kind == "crash" else ("Close app", "Wait")
    buttons = [v("Button", (100, 1250 + i * 130, 980, 1360 + i * 130), text=t, pkg=p, clickable=True,
                 rid=f"android:id/aerr_{t.split()[-1].lower()}") for i, t in enumerate(labels)]
    return v("FrameLayout", (66, 1000, 1014, 1550),
             v("TextView", (110, 1050, 970, 1200), text=title, pkg=p, rid="android:id/alertTitle"),
             *buttons, pkg=p)


IME_PKG = "com.google.android.inputmethod.latin"


def ime_window(top: int = 1500) -> V:
    """Gboard's shape: window-sized wrappers holding a header strip and the keyboard body under it."""
    keys = [v("Button", (i * 108, top + 200, (i + 1) * 108, top + 330), desc=c, pkg=IME_PKG, clickable=True)
            for i, c in enumerate("qwertyuiop")]
    header = v("FrameLayout", (0, top, W, top + 130), rid="keyboard_header_view_holder", pkg=IME_PKG)
    body = v("FrameLayout", (0, top + 130, W, NAV_TOP), *keys, pkg=IME_PKG)
    holder = v("LinearLayout", (0, top, W, NAV_TOP), header, body, rid="keyboard_holder", pkg=IME_PKG)
    return v("FrameLayout", (0, top, W, NAV_TOP), holder, pkg=IME_PKG)


LAUNCHER_PKG = "com.google.android.apps.nexuslauncher"


def launcher_window() -> V:
    icons = [v("TextView", (40 + i * 250, 1800, 240 + i * 250, 2050), text=t, desc=t, pkg=LAUNCHER_PKG,
               clickable=True, long_clickable=True) for i, t in enumerate(("美食", "设置", "相机", "电话"))]
    return v("FrameLayout", (0, 0, W, H), *icons, pkg=LAUNCHER_PKG)


def form_window() -> V:
    """A login form: password, checkbox, disabled button, long text, escaped characters."""
    return decor(v("LinearLayout", (0, STATUS_BAR, W, NAV_TOP),
                   toolbar("登录 & 注册"),
                   v("EditText", (40, 300, 1040, 420), text="user@example.com", rid="account", clickable=True,
                     focusable=True, focused=True),
                   v("EditText", (40, 450, 1040, 570), text="hunter2", rid="password", clickable=True,
                     password=True),
                   v("CheckBox", (40, 600, 600, 700), text="记住我 <7 天>", rid="remember", checkable=True,
                     clickable=True, checked=True),
                   v("Button", (40, 750, 1040, 870), text="登录", rid="login", clickable=True, enabled=False),
                   v("TextView", (40, 900, 1040, 1200), rid="terms",
                     text="登录即表示您同意《用户协议》和《隐私政策》，" * 4),
                   rid="form"))
