"""The words of generated apps: themes (what the app is about, its items) in Chinese and English, and
`Words`, which picks from them for one app's language.

Every pick goes through the app's `random.Random`, so the same seed picks the same words.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

LANGUAGES = ("zh", "en")
T = TypeVar("T")

# theme -> language -> (app names, the thing (singular, plural), items)
THEMES: dict[str, dict[str, tuple[tuple[str, ...], tuple[str, str], tuple[str, ...]]]] = {
    "recipes": {
        "zh": (
            ("下厨房", "美食杰", "香哈菜谱", "豆果美食"),
            ("菜谱", "菜谱"),
            (
                "宫保鸡丁",
                "红烧肉",
                "麻婆豆腐",
                "番茄炒蛋",
                "鱼香肉丝",
                "糖醋排骨",
                "水煮鱼",
                "回锅肉",
                "酸辣土豆丝",
                "清蒸鲈鱼",
                "可乐鸡翅",
                "蒜蓉西兰花",
            ),
        ),
        "en": (
            ("CookPal", "Kitchen Stories", "Yummly Lite", "Tasty Box"),
            ("recipe", "recipes"),
            (
                "Lemon Chicken",
                "Beef Stew",
                "Pad Thai",
                "Tomato Soup",
                "Fish Tacos",
                "Mushroom Risotto",
                "Pancakes",
                "Caesar Salad",
                "Chili Con Carne",
                "Banana Bread",
                "Veggie Curry",
                "Pesto Pasta",
            ),
        ),
    },
    "shop": {
        "zh": (
            ("好物集", "优选商城", "小象优品", "每日鲜"),
            ("商品", "商品"),
            (
                "无线耳机",
                "保温杯",
                "机械键盘",
                "双肩背包",
                "跑步鞋",
                "台灯",
                "充电宝",
                "雨伞",
                "电动牙刷",
                "蓝牙音箱",
                "羽绒服",
                "咖啡豆",
            ),
        ),
        "en": (
            ("ShopMate", "DailyDeals", "Cartly", "GoodFinds"),
            ("product", "products"),
            (
                "Wireless Earbuds",
                "Travel Mug",
                "Desk Lamp",
                "Running Shoes",
                "Backpack",
                "Power Bank",
                "Umbrella",
                "Smart Watch",
                "Coffee Beans",
                "Yoga Mat",
                "Rain Jacket",
                "Bluetooth Speaker",
            ),
        ),
    },
    "travel": {
        "zh": (
            ("去哪玩", "途游记", "飞猪旅行", "周末去哪"),
            ("目的地", "目的地"),
            (
                "西湖",
                "黄山",
                "鼓浪屿",
                "丽江古城",
                "张家界",
                "九寨沟",
                "故宫",
                "洱海",
                "泰山",
                "外滩",
                "乌镇",
                "长白山",
            ),
        ),
        "en": (
            ("TripNest", "Wanderly", "GoPlaces", "RoamBook"),
            ("destination", "destinations"),
            (
                "Lisbon",
                "Kyoto",
                "Reykjavik",
                "Cape Town",
                "Vancouver",
                "Marrakesh",
                "Prague",
                "Queenstown",
                "Havana",
                "Edinburgh",
                "Hanoi",
                "Santorini",
            ),
        ),
    },
    "reading": {
        "zh": (
            ("书旗阅读", "掌阅书城", "微读", "书香"),
            ("图书", "图书"),
            (
                "三体",
                "活着",
                "围城",
                "平凡的世界",
                "白夜行",
                "百年孤独",
                "红楼梦",
                "边城",
                "追风筝的人",
                "小王子",
                "解忧杂货店",
                "人间失格",
            ),
        ),
        "en": (
            ("PageTurner", "BookNook", "ReadMore", "Shelfie"),
            ("book", "books"),
            (
                "Dune",
                "Emma",
                "Beloved",
                "Ulysses",
                "Dracula",
                "Persuasion",
                "Middlemarch",
                "Rebecca",
                "Frankenstein",
                "Walden",
                "Ivanhoe",
                "Moby Dick",
            ),
        ),
    },
    "fitness": {
        "zh": (
            ("Keep练", "悦动圈", "每日健身", "燃脂日记"),
            ("课程", "课程"),
            (
                "晨间瑜伽",
                "腹肌撕裂者",
                "HIIT燃脂",
                "拉伸放松",
                "跳绳入门",
                "核心训练",
                "普拉提",
                "臀腿塑形",
                "肩颈舒缓",
                "有氧操",
                "哑铃全身",
                "冥想呼吸",
            ),
        ),
        "en": (
            ("FitDaily", "PulseUp", "StrideOn", "CoreCoach"),
            ("workout", "workouts"),
            (
                "Morning Yoga",
                "Core Blast",
                "HIIT Burn",
                "Full Stretch",
                "Jump Rope Basics",
                "Pilates Flow",
                "Leg Day",
                "Desk Relief",
                "Cardio Dance",
                "Dumbbell Circuit",
                "Breathing Reset",
                "Plank Ladder",
            ),
        ),
    },
}

# Distinctive words a special row carries, so a goal can name it.
SPECIAL_WORDS = {
    "zh": ("限时特惠", "编辑精选", "年度之选", "隐藏款", "会员专享", "今日头条"),
    "en": ("Editor's Pick", "Hidden Gem", "Members Only", "Staff Favourite", "Flash Deal", "Award Winner"),
}
# Words of test data typed into forms.
PEOPLE = {
    "zh": ("张伟", "王芳", "李娜", "刘洋", "陈静", "赵磊"),
    "en": ("Alice Chen", "Ben Ortiz", "Chloe Kim", "Dan Murphy", "Eva Novak", "Farid Khan"),
}
PHONES = ("13800138000", "13912345678", "18611112222", "15055556666")
USERS = ("qa_tester", "ci_runner", "test.user", "qa.lead")
PASSWORDS = ("Test1234", "Pa55word!", "Secret#99", "Qwerty2024")


@dataclass
class Words:
    """One app's language and theme, and the random source that picks among synonyms."""

    rng: random.Random
    lang: str
    theme: str

    @property
    def zh(self) -> bool:
        return self.lang == "zh"

    def t(self, zh: str, en: str) -> str:
        """The text in this app's language."""
        return zh if self.zh else en

    def pick(self, zh: tuple[str, ...] | list[str], en: tuple[str, ...] | list[str]) -> str:
        """One of the synonyms of this app's language (the draw happens in both languages alike)."""
        options = zh if self.zh else en
        return options[self.rng.randrange(len(options))]

    def app_names(self) -> tuple[str, ...]:
        return THEMES[self.theme][self.lang][0]

    def thing(self, plural: bool = False) -> str:
        singular, many = THEMES[self.theme][self.lang][1]
        return many if plural else singular

    def items(self, count: int) -> list[str]:
        """`count` distinct item names of the theme, in a seeded order."""
        pool = list(THEMES[self.theme][self.lang][2])
        self.rng.shuffle(pool)
        return pool[:count]

    def special(self) -> str:
        return self.pick(SPECIAL_WORDS["zh"], SPECIAL_WORDS["en"])

    def person(self) -> str:
        return self.pick(PEOPLE["zh"], PEOPLE["en"])

    def choice(self, options: Sequence[T]) -> T:
        return options[self.rng.randrange(len(options))]
