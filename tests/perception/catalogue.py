"""A generated shop of named products: the list and each product's detail page, as a real shop draws
them (a gallery, the name, a subtitle, a price, a rating, a seller, an optional promotion badge, the
description, buttons). For the state-family tests and benchmarks/bench_families.py."""

from __future__ import annotations

import random

from .builder import NAV_TOP, STATUS_BAR, W, decor, dump, nav_bar, status_bar, toolbar, v

ADJECTIVES = ("香辣", "经典", "芝士", "双层", "田园", "照烧", "黑椒", "蜂蜜", "Crispy", "Classic", "Smoky", "Spicy",
              "Golden", "Garden", "Truffle", "Maple")
NOUNS = ("鸡腿堡", "牛肉堡", "鱼排堡", "鸡翅", "薯条", "沙拉", "奶茶", "冰淇淋", "Burger", "Wrap", "Nuggets",
         "Salad", "Latte", "Sundae", "Pie", "Shake")
SELLERS = ("麦当劳 徐汇店", "麦当劳 静安店", "Downtown Kitchen", "Harbour Grill", "人民广场店")


def product_name(k: int) -> str:
    rng = random.Random(k)
    return f"{rng.choice(ADJECTIVES)}{rng.choice(NOUNS)} {rng.choice(('', '套餐', 'Combo', '(大)', '(小)'))}".strip()


def detail_page(k: int) -> str:
    """Product `k`'s detail page: same layout for every product, except a promotion badge on some."""
    rng = random.Random(1000 + k)
    description = "".join(rng.choice("鲜嫩多汁外酥里嫩精选原料现点现做 fresh crispy juicy ") for _ in range(rng.randint(12, 90)))
    parts = [
        toolbar(product_name(k)),
        v("ImageView", (0, 210, W, 900), desc=f"{product_name(k)} 图片 {rng.randint(1, 5)}/5", rid="gallery"),
        v("TextView", (40, 920, 1040, 1000), text=product_name(k), rid="tv_name"),
        v("TextView", (40, 1000, 1040, 1060), text=rng.choice(("人气单品", "新品上市", "Best seller", "今日推荐")),
          rid="tv_subtitle"),
        v("TextView", (40, 1070, 400, 1150), text=f"¥{rng.randint(9, 99)}.{rng.randint(0, 9)}0", rid="tv_price"),
        v("TextView", (420, 1070, 1040, 1150), text=f"★ {rng.randint(35, 50) / 10} ({rng.randint(10, 9999)}评价)",
          rid="tv_rating"),
        v("TextView", (40, 1160, 1040, 1220), text=rng.choice(SELLERS), rid="tv_seller", clickable=True),
    ]
    if k % 5 == 0:
        parts.append(v("TextView", (40, 1230, 400, 1290), text="限时折扣", rid="tv_promo"))
    parts += [
        v("TextView", (40, 1300, 1040, 1900), text=description, rid="tv_description"),
        v("LinearLayout", (0, 2160, W, NAV_TOP),
          v("Button", (20, 2170, 520, 2320), text="加入购物车", rid="btn_add", clickable=True),
          v("Button", (560, 2170, 1060, 2320), text="立即购买", rid="btn_buy", clickable=True)),
    ]
    page = v("LinearLayout", (0, STATUS_BAR, W, NAV_TOP), *parts, rid="detail_root")
    return dump(status_bar(), decor(page), nav_bar())


def list_page(first: int) -> str:
    """The product list scrolled so that product `first` is the top row."""
    rows = [
        v("LinearLayout", (0, 220 + i * 240, W, 460 + i * 240),
          v("ImageView", (30, 240 + i * 240, 230, 440 + i * 240), rid="img"),
          v("TextView", (260, 250 + i * 240, 1000, 320 + i * 240), text=product_name(first + i), rid="name"),
          v("TextView", (260, 340 + i * 240, 600, 400 + i * 240), text=f"¥{10 + (first + i) % 80}.00", rid="price"),
          rid="item", clickable=True)
        for i in range(8)
    ]
    page = v("LinearLayout", (0, STATUS_BAR, W, NAV_TOP), toolbar("全部商品"),
             v("androidx.recyclerview.widget.RecyclerView", (0, 210, W, NAV_TOP), *rows, rid="list", scrollable=True),
             rid="list_root")
    return dump(status_bar(), decor(page), nav_bar())
