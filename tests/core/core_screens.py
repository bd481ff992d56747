"""The delivery-time pages as dumps: the McDonald's menu page and its delivery-time dialog."""

from __future__ import annotations

from core_dumps import V, v, window

PKG = "com.mcdonalds.gma.cn"
ACTIVITY = "com.mcdonalds.gma.cn.ProductMdsListActivity"
DISHES = ["巨无霸", "麦辣鸡腿堡", "板烧鸡腿堡", "麦香鱼", "双层吉士堡", "麦乐鸡", "薯条", "可乐", "雪碧",
          "圣代", "麦旋风", "苹果派", "玉米杯", "鸡翅", "鸡块", "奶昔", "咖啡", "拿铁", "早餐堡", "猪柳蛋堡"]


def dish(i: int) -> str:
    return DISHES[i % len(DISHES)] + "套餐" * (i // len(DISHES))


def row(i: int, price: str = "¥12.5") -> V:
    return v("LinearLayout", "", v("TextView", dish(i), id="name"), v("TextView", price, id="price"),
             v("ImageView", desc="加入购物车", id="add", clickable=True), id="item", clickable=True)


def menu_page(*, first: int = 0, rows: int = 6, clock: str = "12:30", cart: str = "购物车(0)",
              total: str = "¥0", eta: str = "预计 30分钟 送达", search: str = "", tab: int = 0,
              extra_title: str = "") -> V:
    tabs = [v("TextView", name, id="tab", clickable=True, selected=i == tab)
            for i, name in enumerate(["汉堡", "小食", "饮料"])]
    return window(
        PKG,
        v("TextView", extra_title or "麦乐送", id="title"),
        v("TextView", clock, id="clock"),
        v("EditText", search, id="search"),
        v("Button", f"配送时间 {eta}", id="delivery_time", clickable=True),
        v("LinearLayout", "", *tabs, id="tabs"),
        v("androidx.recyclerview.widget.RecyclerView", "", *[row(i) for i in range(first, first + rows)],
          id="list", scrollable=True),
        v("TextView", cart, id="cart"),
        v("TextView", total, id="total"),
    )


def time_dialog(*, later: bool = False, eta: str = "12:55") -> V:
    return window(
        PKG,
        v("TextView", "请选择您的送达时间", id="dlg_title"),
        v("RadioButton", "尽快送达", id="asap", checkable=True, clickable=True, checked=not later),
        v("RadioButton", "预约送餐", id="later", checkable=True, clickable=True, checked=later),
        v("TextView", f"预计 {eta} 送达", id="eta"),
        v("Button", "确定", id="ok", clickable=True),
        bounds=(90, 800, 990, 1600),
    )
