"""Text that changes while the screen stays the same, replaced by placeholders before states are hashed.

Real apps print the time of day, the weekday, how long ago something happened and how many people liked
it in labels that are part of the page; each of those would make a new state on every visit. The kinds
below are each replaced by one placeholder, in Chinese and English by the rules here, and in the other
languages of `locale_words.LOCALES` by rules built from CLDR (`locale_words`: `Domingo`, `hace 3 minutos`,
`Sex, 17 de jul`, `오후 3:05`, `vor 5 Minuten`, `2 godziny temu`):

- relative times in any unit, long or short (`3分钟前`, `2小时`, `3天前`, `刚刚`, `5 mins ago`, `2h`, `15m`,
  `3d`, `1w`, `in 5 min`, `yesterday`, `今天`) -> `<ago>`
- weekdays (`周一`, `星期天`, `礼拜三`, `Mon`, `Tuesday`) -> `<weekday>`
- months (`十一月`, `Oct`, `November`) -> `<month>`; dates (`2025-12-20`, `12月20日`, `20/12`) -> `<date>`
- clock times, with the part of the day before or after them (`上午 10:30`, `下午3点`, `10:30 PM`) -> `<time>`
- prices (`¥12.5`, `28.5元`) -> `<price>`
- counts, plain or abbreviated (`12`, `1,234`, `1.2k`, `3.4万`, `2M`, `1.5亿`, `10w+`, `999+`) -> `#`

Order matters: the specific patterns run before the catch-all for numbers, and other languages' relative
times and dates before the English rules, which would read Spanish `mar` (Tuesday) or `jul` alone. Free
text longer than a limit is reduced to its length class by the caller (`normalize`).
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from pytest_fairy.explore.locale_words import DateRule, Rule, rules

_WEEKDAYS_EN = (
    r"mon(?:day)?|tue(?:s|sday)?|wed(?:nesday)?|thu(?:rs|rsday)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?"
)
_MONTHS_EN = (
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t|tember)?|"
    r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
)
_CN_NUMBER = r"[一二三四五六七八九十]"
_UNITS_EN = r"secs?|seconds?|mins?|minutes?|hrs?|hours?|days?|wks?|weeks?|mos|months?|yrs?|years?"
# "2h", "15m", "3d": lower case only, so that "2M" stays a count (two million).
_SHORT_UNITS = r"(?-i:s|m|h|d|w|mo|y)"
_UNITS_CN = r"秒钟?|分钟|小时|个?钟头|天|周|星期|个月|年"
_PART_OF_DAY = r"上午|下午|中午|晚上|凌晨|早上|傍晚|夜里"
_AM_PM = r"[ap]\.?m\.?"

_RELATIVE: tuple[tuple[re.Pattern[str], str], ...] = (
    # Relative times: "3分钟前", "2小时后", "刚刚", "5 mins ago", "in 5 min", and the short "2h", "15m".
    (re.compile(rf"\d+\s*(?:{_UNITS_CN}|日)\s*[前后内]|刚刚|刚才|just now", re.I), "<ago>"),
    (
        re.compile(
            rf"\b\d+\s*(?:{_UNITS_EN}|{_SHORT_UNITS})\s+ago\b|\bin\s+\d+\s*(?:{_UNITS_EN}|{_SHORT_UNITS})\b",
            re.I,
        ),
        "<ago>",
    ),
    (re.compile(r"今天|明天|昨天|前天|后天|\b(?:today|tomorrow|yesterday|tonight)\b", re.I), "<ago>"),
)
_DATES: tuple[tuple[re.Pattern[str], str], ...] = (
    # Dates before weekdays and months, which they may contain.
    (re.compile(r"\d{4}\s*[-/.年]\s*\d{1,2}\s*[-/.月]\s*\d{1,2}(?:\s*日)?"), "<date>"),
    (re.compile(r"\d{1,2}\s*月\s*\d{1,2}\s*[日号]"), "<date>"),
    (re.compile(r"\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b"), "<date>"),
    (re.compile(rf"\b(?:{_MONTHS_EN})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?\b", re.I), "<date>"),
    (re.compile(rf"\b\d{{1,2}}\s+(?:{_MONTHS_EN})\.?(?:\s+\d{{4}})?\b", re.I), "<date>"),
)
# Bare durations, after the dates that use the same characters ("20日"): "2h", "15m", "3天", "2小时".
_DURATIONS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(rf"(?<![\d.,])\b\d+\s?(?:{_UNITS_EN}|{_SHORT_UNITS})\b(?!\+)", re.I), "<ago>"),
    (re.compile(rf"\d+\s*(?:{_UNITS_CN})(?![\w])"), "<ago>"),
)
_NAMES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(rf"(?:周|星期|礼拜)[一二三四五六日天]|\b(?:{_WEEKDAYS_EN})\b\.?", re.I), "<weekday>"),
    (re.compile(rf"(?:{_CN_NUMBER}|十[一二])月(?!份?\d)|\b(?:{_MONTHS_EN})\b\.?", re.I), "<month>"),
)
_REST: tuple[tuple[re.Pattern[str], str], ...] = (
    # Clock times, with the part of the day around them: "上午 10:30" and "下午 3:05" are one label.
    (
        re.compile(
            rf"(?:(?:{_PART_OF_DAY})\s*)?\d{{1,2}}:\d{{2}}(?::\d{{2}})?(?:\s*{_AM_PM}(?![a-z]))?"
            rf"|(?:(?:{_PART_OF_DAY})\s*)?\d{{1,2}}\s*[点時](?:\s*(?:\d{{1,2}}\s*分|半))?"
            rf"|\b\d{{1,2}}\s*{_AM_PM}(?![a-z])",
            re.I,
        ),
        "<time>",
    ),
    (
        re.compile(r"[¥￥$€£]\s*-?\d[\d,]*(?:\.\d+)?|-?\d[\d,]*(?:\.\d+)?\s*(?:元|块|USD|RMB|CNY)", re.I),
        "<price>",
    ),
    # Counts: "1.2k", "3.4万", "2M", "1.5亿", "10w+", "999+" are all one count.
    (re.compile(r"\d+(?:[.,]\d+)*(?:\s?(?:[kKmMbBwW](?![a-zA-Z])|万|亿|千))?\+?"), "#"),
)
_SPACES = re.compile(r"\s+")
# The same labels come back on every step of a screen; the regexes are the bulk of identify's cost.
CACHE_SIZE = 8192


_DIGIT = re.compile(r"\d")


@cache
def pipeline() -> tuple[Rule | DateRule, ...]:
    """All rules in the order they run, built once per process: at import (below), so that no screen and
    no test with a deadline pays the 0.1-0.3 s that reading CLDR and compiling its patterns takes."""
    cldr = rules()

    def own(patterns: tuple[tuple[re.Pattern[str], str], ...]) -> tuple[Rule, ...]:
        return tuple(Rule(pattern, placeholder) for pattern, placeholder in patterns)

    return (
        *cldr["first"],
        *own(_RELATIVE),
        *own(_DATES),
        *cldr["durations"],
        *own(_DURATIONS),
        *own(_NAMES),
        *cldr["names"],
        *own(_REST),
    )


pipeline()


@lru_cache(maxsize=CACHE_SIZE)
def normalize(text: str, long_text_chars: int) -> str:
    """`text` with its dynamic parts replaced by placeholders; longer than the limit: its length class."""
    text = _SPACES.sub(" ", text).strip()
    has_digit = _DIGIT.search(text) is not None
    for rule in pipeline():
        text = rule.apply(text, has_digit)
    if len(text) > long_text_chars:
        return f"<text~{1 << (len(text) - 1).bit_length()}>"
    return text
