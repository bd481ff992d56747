"""Dynamic text in the phone's language never splits a state: weekdays, months, relative times, durations,
dates and clock times as Babel formats them (CLDR, what Android prints through ICU), in 14 languages, keep
the state key of a screen; a label that changes its meaning gets a new one. The lock screen and the
status bar count for nothing, whatever their clock says."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from babel import Locale
from babel.dates import format_date, format_skeleton, format_time, format_timedelta
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_fairy.explore.dynamic_text import normalize
from pytest_fairy.explore.state import StateId, identify
from pytest_fairy.perception.screen import build_screen
from tests.core.core_dumps import V, dump, v, window

LIMIT = 40
PKG = "com.example.news"
SYSTEMUI = "com.android.systemui"
LANGUAGES = ("es", "pt", "de", "fr", "ru", "pl", "ko", "ja", "it", "tr", "nl", "id", "ar", "zh_Hant")
# Two labels per language that name different screens: a new key when one replaces the other.
LABELS = {
    "es": ("Configuración", "Perfil"), "pt": ("Configurações", "Perfil"), "de": ("Einstellungen", "Profil"),
    "fr": ("Paramètres", "Profil"), "ru": ("Настройки", "Профиль"), "pl": ("Ustawienia", "Profil"),
    "ko": ("설정", "프로필"), "ja": ("設定", "プロフィール"), "it": ("Impostazioni", "Profilo"),
    "tr": ("Ayarlar", "Profil"), "nl": ("Instellingen", "Profiel"), "id": ("Pengaturan", "Profil"),
    "ar": ("الإعدادات", "الملف الشخصي"), "zh_Hant": ("設定", "個人資料"),
}
DAYS = st.dates(dt.date(2000, 1, 1), dt.date(2039, 12, 31))
CLOCKS = st.times().map(lambda t: t.replace(second=0, microsecond=0))
UNITS_SECONDS = (1, 60, 3600, 86400, 7 * 86400, 31 * 86400, 366 * 86400)


# Alone, a name of one or two letters stays a word (`do`, `日`; in brackets or a date it counts), and
# Spanish, Italian and French `mar` (Tuesday) reads as March, as in English (see locale_words).
AMBIGUOUS_ALONE = frozenset({"mar", "mar."})


def alone_is_a_word(text: str) -> bool:
    return text.casefold() in AMBIGUOUS_ALONE or len(text.rstrip(".")) == 1 or (
        len(text.rstrip(".")) == 2 and text.isascii()
    )


Pair = tuple[str, str]


def _pair(fmt: Callable[[Any], str], values: st.SearchStrategy[Any]) -> st.SearchStrategy[Pair]:
    """Two values in one format: a label keeps its format while what it says changes."""
    return st.tuples(values, values).map(lambda ab: (fmt(ab[0]), fmt(ab[1])))


def weekday(code: str) -> st.SearchStrategy[Pair]:
    """Wide and abbreviated, format and stand-alone forms: `Domingo`, `dom`, `воскресенье`, `日曜日`."""
    pairs = st.sampled_from(["EEEE", "EEE", "cccc", "ccc"]).flatmap(
        lambda f: _pair(lambda day: format_date(day, f, locale=code), DAYS)
    )
    return pairs.filter(lambda ab: not (alone_is_a_word(ab[0]) or alone_is_a_word(ab[1])))


def month(code: str) -> st.SearchStrategy[Pair]:
    """Every form of a month but the numbered ones (`7月` is a count already): `julio`, `июля`, `lip`."""
    fmts = ["MMMM", "LLLL"] + ([] if code in ("ko", "ja", "zh_Hant") else ["MMM", "LLL"])
    return st.sampled_from(fmts).flatmap(lambda f: _pair(lambda day: format_date(day, f, locale=code), DAYS))


def relative_time(code: str) -> st.SearchStrategy[Pair]:
    """`hace 3 minutos` / `hace 1 hora`, `vor 1 Std.`, `3분 전`, `2 godziny temu`, `через 5 минут`; bare
    `3 minutos`; and the words `ayer`, `heute`, `сейчас` beside them."""
    fields = Locale.parse(code)._data["date_fields"]
    named = [*fields["day"]["relative"].values(), fields["second"]["relative"][0]]
    words = st.sampled_from([w for w in named if not alone_is_a_word(w)])
    deltas = st.builds(
        lambda unit, n, sign: dt.timedelta(seconds=unit * n * sign),
        st.sampled_from(UNITS_SECONDS), st.integers(1, 59), st.sampled_from([-1, 1]),
    )

    def styled(style: tuple[bool, str]) -> st.SearchStrategy[Pair]:
        direction, width = style
        phrases = deltas.map(lambda d: format_timedelta(d, add_direction=direction, format=width, locale=code))
        return _pair(lambda x: x, st.one_of(phrases, words) if direction else phrases)

    widths = st.sampled_from(["long", "short", "narrow"])
    return st.one_of(
        widths.map(lambda w: (True, w)), st.sampled_from(["long", "short"]).map(lambda w: (False, w))
    ).flatmap(styled)


def date(code: str) -> st.SearchStrategy[Pair]:
    """Dates with a weekday or a month name: `Sex, 17 de jul`, `lundi 17 juillet 2025`, `7月17日(金)`."""
    skeletons = st.sampled_from(["MMMEd", "MMMd", "MMMMd", "MMMMEd", "yMMMd", "yMMMEd", "yMMMMd"])
    by_skeleton = skeletons.flatmap(lambda k: _pair(lambda day: format_skeleton(k, day, locale=code), DAYS))
    formats = st.sampled_from(["full", "long", "medium"])
    by_format = formats.flatmap(lambda f: _pair(lambda day: format_date(day, f, locale=code), DAYS))
    return st.one_of(by_skeleton, by_format)


def clock(code: str) -> st.SearchStrategy[Pair]:
    """Clock times with the day period the language puts around them: `오후 3:05`, `3:05 p. m.`."""
    return st.sampled_from(["short", "h:mm a"]).flatmap(
        lambda f: _pair(lambda t: format_time(t, f, locale=code), CLOCKS)
    )


KINDS = {"weekday": weekday, "month": month, "relative time": relative_time, "date": date, "clock": clock}


def feed(label: str, stamp: str, *extra: V) -> str:
    """A news screen: its title, a story and when it was posted."""
    story = v("LinearLayout", "", v("TextView", "Lorem ipsum", id="headline"),
              v("TextView", stamp, id="posted"), id="story", clickable=True)
    return dump(window(PKG, v("TextView", label, id="title"), story), *extra)


def key(xml: str) -> str:
    return identify(build_screen(xml, package=PKG, activity=f"{PKG}.FeedActivity")).key


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("code", LANGUAGES)
def test_two_values_of_a_kind_in_the_same_screen_keep_its_state(code: str, kind: str) -> None:
    title = LABELS[code][0]

    @settings(max_examples=25, deadline=None)
    @given(KINDS[kind](code))
    def check(pair: Pair) -> None:
        a, b = pair
        assert normalize(a, LIMIT) == normalize(b, LIMIT), (a, b)
        assert key(feed(title, a)) == key(feed(title, b)), (a, b)

    check()


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_label_that_changes_its_meaning_is_a_new_state(code: str) -> None:
    @settings(max_examples=10, deadline=None)
    @given(st.sampled_from(list(KINDS)).flatmap(lambda kind: KINDS[kind](code)))
    def check(pair: Pair) -> None:
        stamp = pair[0]
        first, second = LABELS[code]
        assert key(feed(first, stamp)) != key(feed(second, stamp))

    check()


@pytest.mark.parametrize(
    ("text", "normal"),
    [
        ("Domingo", "<weekday>"),
        ("hace 3 minutos", "<ago>"),
        ("5 минут назад", "<ago>"),
        ("Sex, 17 de jul", "<date>"),
        ("mar, 17 jul", "<date>"),  # Spanish Tuesday: English rules alone would read March
        ("7月17日(金)", "<date>"),
        ("월요일에", "<weekday>에"),
        ("depois de amanhã", "<ago>"),
        ("aujourd'hui", "<ago>"),  # CLDR writes it with ’
        ("오후 3:05", "<time>"),
        ("10:30 de la mañana", "<time>"),  # the part of the day, not "tomorrow"
        ("vor 1 Std", "<ago>"),
        ("12 Min.", "<ago>"),
        ("Mo., 17.", "<date>"),
        ("Mar", "<month>"),  # a name English reads keeps its English kind
    ],
)
def test_real_labels(text: str, normal: str) -> None:
    assert normalize(text, LIMIT) == normal


@pytest.mark.parametrize(
    ("a", "b"),
    [("日", "月"),  # day / month tabs: one-letter names count only in brackets
     ("Do it", "So it"),  # two-letter names count only before a dot, a comma or a number
     ("Impostazioni", "Profilo"), ("Monitor", "Sunscreen"), ("Set alarm", "Set timer")],
)
def test_static_labels_stay_apart(a: str, b: str) -> None:
    assert normalize(a, LIMIT) != normalize(b, LIMIT)


def test_prices_and_counts_follow_the_count_rules() -> None:
    assert normalize("3.5 km", LIMIT) == normalize("12 km", LIMIT) == "# km"
    assert normalize("€12.50", LIMIT) == "<price>"
    assert normalize("1.234 Me gusta", LIMIT) == "# Me gusta"


# ---- the lock screen and the status bar ---------------------------------------------------------------

REAL_LOCK = Path(__file__).parents[1] / "perception/real_screens/dumps/coloros_systemui__lock_screen.xml"


def lock_screen(clock_text: str, date_text: str, notifications: int) -> V:
    """An AOSP-like keyguard: a clock, a date, notifications arrived while locked."""
    rows = [v("FrameLayout", "", v("TextView", f"Mensaje {i}", id="title"), id="notification_row")
            for i in range(notifications)]
    return window(
        SYSTEMUI,
        v("FrameLayout", "", v("TextView", clock_text, id="keyguard_clock"),
          v("TextView", date_text, id="date_view"), *rows, id="keyguard_root_view"),
    )


def status_bar(clock_text: str, icons: int) -> V:
    return window(SYSTEMUI, v("TextView", clock_text, id="clock"),
                  *[v("ImageView", "", id="notification_icon", desc=f"App {i}") for i in range(icons)],
                  bounds=(0, 0, 1080, 80))


def state(xml: str, activity: str = f"{PKG}.FeedActivity") -> StateId:
    return identify(build_screen(xml, package=PKG, activity=activity))


@settings(max_examples=25, deadline=None)
@given(st.datetimes(dt.datetime(2020, 1, 1), dt.datetime(2039, 12, 31)), st.integers(0, 6),
       st.sampled_from(["es", "de", "ko", "ru"]))
def test_a_lock_screen_keeps_its_state_whatever_its_clock_date_and_notifications(
    moment: dt.datetime, notifications: int, code: str
) -> None:
    locked = state(feed("Noticias", "hace 3 minutos", lock_screen("9:41", "lunes, 14 de julio", 0)))
    later = lock_screen(format_time(moment, "H:mm", locale=code), format_date(moment, "EEEE, d MMMM", locale=code),
                        notifications)
    assert state(feed("Noticias", "hace 3 minutos", later)).key == locked.key
    assert locked.key != state(feed("Noticias", "hace 3 minutos")).key  # locked is not the app itself


def test_a_real_lock_screen_keeps_its_state_when_the_minute_changes() -> None:
    xml = REAL_LOCK.read_text(encoding="utf-8")
    ticked = xml.replace('text="42"', 'text="43"').replace('text="1"', 'text="2"', 1)
    moved = ticked.replace("3月23日 周一", "3月24日 周二").replace(
        'text=":"', 'text=""')  # a vendor clock that blinks its colon
    assert ticked != xml and moved != ticked
    keys = {identify(build_screen(x)).key for x in (xml, ticked, moved)}
    assert len(keys) == 1


@settings(max_examples=25, deadline=None)
@given(st.times(), st.integers(0, 8))
def test_the_status_bar_counts_for_nothing(moment: dt.time, icons: int) -> None:
    base = state(feed("Noticias", "ayer", status_bar("9:41", 2)))
    assert state(feed("Noticias", "ayer", status_bar(moment.strftime("%H:%M"), icons))).key == base.key
    assert state(feed("Noticias", "ayer")).key == base.key
