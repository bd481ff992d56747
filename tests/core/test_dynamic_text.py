"""Dynamic text never splits a state: for each kind, any two values in the same label normalise alike.
Labels real apps print (Chinese and English), each kind generated over its whole range; and static labels
stay apart, so the placeholders do not merge pages that differ."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_fairy.explore.dynamic_text import normalize

LIMIT = 40
# Static text around the dynamic part, as labels put it.
TEMPLATES = ("{}", "{} · 广州", "更新于 {}", "Posted {}", "{} 发布", "Last seen {}", "({})")

WEEKDAYS = st.sampled_from(
    ["周一", "周二", "周三", "周四", "周五", "周六", "周日", "星期一", "星期天", "星期日", "礼拜三",
     "Mon", "Tue", "Tues", "Wed", "Thu", "Thurs", "Fri", "Sat", "Sun",
     "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "MON", "sat."]
)
MONTHS = st.sampled_from(
    ["一月", "二月", "三月", "六月", "九月", "十月", "十一月", "十二月",
     "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Sept", "Oct", "Nov", "Dec",
     "January", "February", "March", "April", "June", "July", "August", "September", "October",
     "November", "December", "OCT"]
)
MINUTES = st.integers(0, 59).map(lambda m: f"{m:02d}")


@st.composite
def clock_with_part_of_day(draw: st.DrawFn) -> str:
    hour, minute = draw(st.integers(1, 12)), draw(MINUTES)
    style = draw(st.sampled_from(["cn", "cn_point", "en", "en_short"]))
    if style == "cn":
        return f"{draw(st.sampled_from(['上午', '下午', '中午', '晚上', '凌晨', '早上']))}{draw(st.sampled_from(['', ' ']))}{hour}:{minute}"
    if style == "cn_point":
        return f"{draw(st.sampled_from(['上午', '下午', '晚上']))}{hour}点{draw(st.sampled_from(['', '半', f'{int(minute)}分']))}"
    if style == "en":
        return f"{hour}:{minute} {draw(st.sampled_from(['AM', 'PM', 'am', 'p.m.']))}"
    return f"{hour} {draw(st.sampled_from(['am', 'pm', 'PM']))}"


@st.composite
def relative_time(draw: st.DrawFn) -> str:
    n = draw(st.integers(1, 999))
    style = draw(st.sampled_from(["cn_ago", "cn_bare", "en_ago", "en_short", "en_in", "word"]))
    if style == "cn_ago":
        return f"{n}{draw(st.sampled_from(['秒', '分钟', '小时', '天', '周', '个月', '年']))}前"
    if style == "cn_bare":
        return f"{n}{draw(st.sampled_from(['分钟', '小时', '天', '周', '个月', '年']))}"
    if style == "en_ago":
        unit = draw(st.sampled_from(["sec", "secs", "min", "mins", "minute", "minutes", "hr", "hrs", "hour",
                                     "hours", "day", "days", "week", "weeks", "month", "months", "year", "years"]))
        return f"{n} {unit} ago"
    if style == "en_short":
        return f"{n}{draw(st.sampled_from(['s', 'm', 'h', 'd', 'w', 'mo', 'y']))}"
    if style == "en_in":
        return f"in {n} {draw(st.sampled_from(['min', 'minutes', 'hours', 'days']))}"
    return draw(st.sampled_from(["刚刚", "刚才", "just now", "yesterday", "昨天", "今天", "today"]))


@st.composite
def count(draw: st.DrawFn) -> str:
    n = draw(st.integers(0, 999_999_999))
    style = draw(st.sampled_from(["plain", "comma", "k", "m", "wan", "yi", "w_plus", "plus"]))
    if style == "plain":
        return str(n)
    if style == "comma":
        return f"{n:,}"
    if style == "k":
        return f"{n / 1000:.1f}{draw(st.sampled_from(['k', 'K']))}"
    if style == "m":
        return f"{n / 1_000_000:.1f}M"
    if style == "wan":
        return f"{n / 10_000:.1f}万"
    if style == "yi":
        return f"{n / 100_000_000:.2f}亿"
    if style == "w_plus":
        return f"{max(1, n // 10_000)}w+"
    return f"{min(n, 999)}+"


@st.composite
def date(draw: st.DrawFn) -> str:
    y, m, d = draw(st.integers(2000, 2039)), draw(st.integers(1, 12)), draw(st.integers(1, 28))
    month = draw(st.sampled_from(["Jan", "Feb", "March", "Oct", "November", "Dec"]))
    return draw(st.sampled_from([f"{y}-{m:02d}-{d:02d}", f"{y}年{m}月{d}日", f"{m}月{d}日", f"{d}/{m}",
                                 f"{month} {d}", f"{month} {d}, {y}", f"{d} {month} {y}"]))


KINDS = {
    "weekday": WEEKDAYS,
    "month": MONTHS,
    "clock with part of day": clock_with_part_of_day(),
    "relative time": relative_time(),
    "count": count(),
    "date": date(),
}


@pytest.mark.parametrize("kind", KINDS)
def test_two_values_of_a_kind_in_the_same_label_normalise_alike(kind: str) -> None:
    @given(st.sampled_from(TEMPLATES), KINDS[kind], KINDS[kind])
    def check(template: str, a: str, b: str) -> None:
        assert normalize(template.format(a), LIMIT) == normalize(template.format(b), LIMIT), (a, b)

    check()


@pytest.mark.parametrize(
    ("text", "normal"),
    [
        ("周一 上午 10:30", "<weekday> <time>"),
        ("Tue, Oct 14", "<weekday>, <date>"),
        ("3.4万人看过", "#人看过"),
        ("1.2k likes", "# likes"),
        ("2h", "<ago>"),
        ("下午 3:05", "<time>"),
        ("十一月账单", "<month>账单"),
        ("12月20日", "<date>"),
        ("7天无理由退货", "#天无理由退货"),
    ],
)
def test_real_labels(text: str, normal: str) -> None:
    assert normalize(text, LIMIT) == normal


@pytest.mark.parametrize(
    ("a", "b"),
    [("设置", "关于"), ("Settings", "About"), ("首页", "我的"), ("Following", "Followers"), ("登录", "注册"),
     ("Monitor", "Sunscreen"), ("Marketplace", "Messages")],
)
def test_static_labels_stay_apart(a: str, b: str) -> None:
    assert normalize(a, LIMIT) != normalize(b, LIMIT)
