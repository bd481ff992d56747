"""Date and time words of the languages phones are set to, taken from CLDR through Babel: the rules that
`dynamic_text` runs beside its hand-written Chinese and English ones.

CLDR is what Android itself formats dates with (through ICU), so its names, plural forms and patterns are
the ones apps print: `Domingo`, `hace 3 minutos` / `hace 1 hora`, `2 godziny temu` / `5 godzin temu`,
`Sex, 17 de jul`, `오후 3:05`. Hand-made word lists miss plural and case forms (`5 минут назад`,
`1 минуту назад`, `17 июля`). The rules are built once per process (`rules()`) for the fixed set
`LOCALES`. Which names count:

- weekdays and months, wide and abbreviated, format and stand-alone forms. Not the narrow ones: in these
  languages they are one letter that names two days (`M`, `T`) or a bare number (`7`);
- a one-letter name only in brackets, as dates print it (`7月17日(金)`, `7월 17일 (금)`);
- a two-letter Latin name only before a dot, a comma or a number (`Mo., 17.`), so `do`, `mi`, `ma` stay
  words;
- a name the English rules read keeps its English kind, as they run first: Spanish `mar` (Tuesday) alone
  is a month. Inside a date (`mar, 17 jul`) it is part of `<date>`, as every name is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from babel import Locale

# Babel's locales with modern CLDR coverage that phones ship in: the languages this tool meets most.
LOCALES = (
    "en",
    "zh",
    "zh_Hant",
    "ja",
    "ko",
    "es",
    "pt",
    "fr",
    "de",
    "it",
    "nl",
    "ru",
    "pl",
    "tr",
    "id",
    "ar",
)
# English and Chinese dates are the hand-written rules' (their placeholders are pinned down by tests).
_HAND_DATES = frozenset({"en", "zh"})
UNITS = ("second", "minute", "hour", "day", "week", "month", "year")
_NUMBER = r"[-+]?\d+(?:[.,]\d+)?"
_SPACES = re.compile(r"\s+")
_FIELD = re.compile(r"'[^']*'|([A-Za-z])\1*|.", re.S)
_DATE_FIELDS = frozenset("EcMLdy")
# A word of a label, with its combining marks (Arabic `غدًا`); not the words of placeholders (`<ago>`).
_LETTER = r"(?:[^\W\d_]|[\u0300-\u036f\u0610-\u061a\u064b-\u065f\u0670])"
_TOKEN = re.compile(rf"(?<!<){_LETTER}+(?:[-'’]{_LETTER}+)*\.?")
_BEFORE_TWO_LETTERS = re.compile(r"\.|\s*[,\d]")

Replacement = str | Callable[[re.Match[str]], str]


@dataclass(frozen=True, slots=True)
class Rule:
    """A pattern and what replaces it. `needs` is a character every match contains ("0": a digit), so
    that a label without it skips the pattern for the price of one `in`."""

    pattern: re.Pattern[str]
    replacement: Replacement
    needs: str = ""

    def apply(self, text: str, has_digit: bool) -> str:
        if self.needs and not (has_digit if self.needs == "0" else self.needs in text):
            return text
        return self.pattern.sub(self.replacement, text)


@dataclass(frozen=True, slots=True)
class DateRule:
    """Dates in the languages whose weekday or month names the label holds. One regex of every
    language's date patterns would cost a tenth of a millisecond a label; a look at the label's words
    picks the one or two languages worth trying, and most labels (no name and a number) none."""

    by_language: dict[str, frozenset[str]]  # the regexes of its date patterns
    languages_of: dict[str, frozenset[str]]  # a name's key -> the languages it is a name in
    cjk_names: tuple[tuple[str, frozenset[str]], ...]  # names inside a run of CJK (`17日(金)`)

    @classmethod
    def build(cls, languages: list[tuple[str, LocaleWords]]) -> DateRule:
        by_language: dict[str, frozenset[str]] = {}
        languages_of: dict[str, set[str]] = {}
        for code, w in languages:
            by_language[code] = frozenset(r for p in w.date_patterns if (r := _date_regex(p, w)))
            for name in w.weekdays | w.months:
                languages_of.setdefault(_key(name), set()).add(code)
        cjk = tuple((n, frozenset(c)) for n, c in languages_of.items() if any(map(_is_cjk, n)))
        return cls(by_language, {n: frozenset(c) for n, c in languages_of.items()}, cjk)

    def apply(self, text: str, has_digit: bool) -> str:
        if not has_digit:
            return text
        languages: set[str] = set()
        for word in _TOKEN.findall(text):
            languages |= self.languages_of.get(_key(word), frozenset())
        for name, codes in self.cjk_names:
            if name in text:
                languages |= codes
        if not languages:
            return text
        # One alternation for all of them: `juli` is German, Dutch and Indonesian, and the longest
        # pattern must win (`Senin, 14 Juli 2025`, not `Juli 2025` first).
        return _dates_of(frozenset().union(*(self.by_language[c] for c in languages))).sub("<date>", text)


@cache
def _dates_of(patterns: frozenset[str]) -> re.Pattern[str]:
    return re.compile(alternation(patterns), re.I)


@dataclass(frozen=True, slots=True)
class LocaleWords:
    weekdays: frozenset[str]
    months: frozenset[str]  # with the numbered ones of Japanese and Korean (`7월`), for dates only
    relative: frozenset[str]  # a day or moment relative to now: `ayer`, `heute`, `сейчас`, `قبل دقيقتين`
    day_periods: frozenset[str]  # `a. m.`, `오후`, `nachm.`
    ago: frozenset[tuple[str, str]]  # around the number of `hace {0} minutos`, `{0}분 전`
    duration_units: frozenset[str]  # after the number of a bare duration: `{0} minutos`, `{0} Std.`
    date_patterns: frozenset[str]  # `E, d 'de' MMM`


def _clean(text: str) -> str:
    return _SPACES.sub(" ", text.replace("\u200f", "").replace("\u200e", "")).strip()


def _calendar_names(locale: Locale, field: str) -> set[str]:
    """Wide and abbreviated names, format and stand-alone."""
    return {
        _clean(name)
        for widths in getattr(locale, field).values()
        for width in ("wide", "abbreviated")
        for name in widths.get(width, {}).values()
    }


def _forms(table: Mapping[Any, str]) -> Iterable[str]:
    """The plural forms of one pattern (one, few, many, other...), without the `per` unit."""
    return (_clean(pattern) for plural, pattern in table.items() if plural != "per")


@cache
def words(code: str) -> LocaleWords:
    """The date and time words of one locale, from its CLDR data."""
    locale = Locale.parse(code)
    fields, units = locale._data["date_fields"], locale._data["unit_patterns"]
    relative = {_clean(fields["second"]["relative"][0]), *map(_clean, fields["day"]["relative"].values())}
    ago: set[tuple[str, str]] = set()
    durations: set[str] = set()
    for unit in UNITS:
        for width in ("", "-short", "-narrow"):
            for direction in ("past", "future"):
                for pattern in _forms(fields.get(unit + width, {}).get(direction, {})):
                    if "{0}" not in pattern:
                        relative.add(pattern)  # Arabic's `قبل دقيقتين`, two minutes ago, has no number
                        continue
                    before, after = (part.strip() for part in pattern.split("{0}", 1))
                    ago.add((before, after))
        for width in ("long", "short"):
            for pattern in _forms(units.get(f"duration-{unit}", {}).get(width, {})):
                if pattern.startswith("{0}") and pattern[3:].strip():
                    durations.add(pattern[3:].strip())
                elif "{0}" not in pattern:
                    relative.add(pattern)  # Arabic's `ثانيتان`, two seconds
    periods = {
        _clean(v) for context in locale.day_periods.values() for w in context.values() for v in w.values()
    }
    patterns = {p.pattern for p in locale.date_formats.values()}
    patterns |= {str(p) for s, p in locale.datetime_skeletons.items() if set(s) <= _DATE_FIELDS}
    return LocaleWords(
        weekdays=frozenset(_calendar_names(locale, "days")),
        months=frozenset(_calendar_names(locale, "months")),
        relative=frozenset(w for w in relative if len(w) > 1),
        day_periods=frozenset(p for p in periods if len(p) > 1 or not p.isascii()),
        ago=frozenset((b, a) for b, a in ago if b or a),
        duration_units=frozenset(durations),
        date_patterns=frozenset(patterns),
    )


def _is_cjk(char: str) -> bool:
    """Han, kana and hangul: scripts written without spaces between words."""
    point = ord(char)
    return 0x3040 <= point <= 0x30FF or 0x3400 <= point <= 0x9FFF or 0xAC00 <= point <= 0xD7AF


def _edge(char: str) -> bool:
    return char.isalnum() and not _is_cjk(char)


def literal(word: str, *, left_edge: bool = True) -> str:
    """`word` as a regex: whole words only (but in CJK), spaces and dots optional (`a. m.`, `am`)."""
    parts = (re.escape(part).replace(r"\.", r"\.?").replace("'", "['’]") for part in word.split(" "))
    regex = r"\s*".join(parts)
    trailing_dot = word.endswith(".") and len(word) > 1
    if trailing_dot:
        regex = regex[: -len(r"\.?")]
    if left_edge and _edge(word[0]):
        regex = r"(?<!\w)" + regex
    if _edge(word.rstrip(".")[-1:] or " "):
        return regex + r"(?!\w)\.?"  # abbreviations are dotted in one language and not in the next
    return regex + (r"\.?" if trailing_dot else "")


def alternation(items: Iterable[str]) -> str:
    """Longest first, so that `lunes` is tried before `lun`."""
    return "|".join(sorted(set(items), key=lambda s: (-len(s), s)))


def _names(names: Iterable[str], *, left_edge: bool = True) -> str:
    return alternation(literal(n, left_edge=left_edge) for n in names)


def _date_regex(pattern: str, words: LocaleWords) -> str | None:
    """A CLDR date pattern (`E, d 'de' MMM`) as a regex; None unless it names a weekday or a month
    beside a number (numbers alone are counts already), or when it holds other fields (era, quarter,
    week)."""
    parts: list[str] = []
    named = numbered = False
    for match in _FIELD.finditer(pattern):
        token, letter = match.group(0), match.group(1)
        if letter is None:
            text = _clean(token[1:-1] if token.startswith("'") and len(token) > 1 else token)
            parts.append(r"\s*".join(map(re.escape, text.split())) if text else r"\s*")
        elif letter not in _DATE_FIELDS:
            return None
        elif letter in "Ec" or (letter in "ML" and len(token) >= 3):
            named = True
            parts.append(f"(?:{_names(words.weekdays if letter in 'Ec' else words.months)})")
        else:
            numbered = True
            year = (
                r"\d{2}" if token == "yy" else r"\d{4}"
            )  # `y` is the full year: `Jan 10` is no month and year
            parts.append((year if letter == "y" else r"\d{1,2}(?:er)?") + r"(?![\d:])")
    return "".join(parts) if named and numbered else None


@cache
def rules() -> dict[str, tuple[Rule | DateRule, ...]]:
    """The rules of all `LOCALES`, by where `dynamic_text` runs them: "first" (clock times with their part
    of the day, relative times, dates), "durations" (before its own bare durations), "names" (after its
    weekdays and months)."""
    every = [words(code) for code in LOCALES]
    units = alternation(literal(u) + r"(?!\w)" for w in every for u in w.duration_units)
    periods = [p for w in every for p in w.day_periods]
    clock = r"\d{1,2}:\d{2}(?::\d{2})?"
    before, after = _names(periods), _names(periods, left_edge=False)
    return {
        # Clock times first: `12:00 a. m.` is no `00 a` (Spanish: zero years), `de la mañana` no "tomorrow".
        "first": (
            Rule(re.compile(rf"(?:{before})\s*{clock}|{clock}\s*(?:{after})", re.I), "<time>", ":"),
            Rule(re.compile(_ago_regex(every), re.I), "<ago>", "0"),
            DateRule.build([(c, w) for c, w in zip(LOCALES, every, strict=True) if c not in _HAND_DATES]),
        ),
        "durations": (Rule(re.compile(rf"(?<![\w.,]){_NUMBER}\s*(?:{units})(?!\+)", re.I), "<ago>", "0"),),
        "names": _name_rules(every),
    }


def _ago_regex(every: list[LocaleWords]) -> str:
    """`hace 3 minutos`, `vor 1 Std.`, `3분 전`, `2 godziny temu`: a direction word before the number, or
    one after its unit."""
    before = _names(b for w in every for b, _ in w.ago if b)
    after_prefixed = _names(a for w in every for b, a in w.ago if b and a)
    after_suffixed = _names((a for w in every for b, a in w.ago if not b), left_edge=False)
    return rf"(?:{before})\s*{_NUMBER}\s*(?:{after_prefixed})|(?<![\w.,]){_NUMBER}\s*(?:{after_suffixed})"


def _name_rules(every: list[LocaleWords]) -> tuple[Rule, ...]:
    """Weekday, month and relative-day names. Those of several words or of a script without spaces are
    found by a regex; the rest by looking each word of the label up, which costs as little for 16
    languages as for one."""
    kinds: dict[str, str] = {}
    for placeholder, names in (
        ("<ago>", (n for w in every for n in w.relative)),
        ("<month>", (n for w in every for n in w.months if not any(c.isdigit() for c in n))),
        ("<weekday>", (n for w in every for n in w.weekdays)),
    ):
        kinds.update((_key(n), placeholder) for n in names)
    phrases = {k: v for k, v in kinds.items() if " " in k or (len(k) >= 2 and all(map(_is_cjk, k)))}
    found = [
        Rule(
            re.compile(_names(name for name, kind in phrases.items() if kind == placeholder), re.I),
            placeholder,
        )
        for placeholder in sorted(set(phrases.values()))
    ]
    single = {k: v for k, v in kinds.items() if k not in phrases}
    return (*found, Rule(_TOKEN, _word_lookup(single)))


def _key(word: str) -> str:
    """How a name is looked up: any case, any apostrophe (`aujourd’hui`, `aujourd'hui`), dot or not."""
    return word.casefold().replace("’", "'").rstrip(".")


def _word_lookup(kinds: dict[str, str]) -> Callable[[re.Match[str]], str]:
    def replace(match: re.Match[str]) -> str:
        word, text, start, end = match.group(0), match.string, match.start(), match.end()
        kind = kinds.get(_key(word))
        letters = len(word.rstrip("."))
        if kind is None:
            return word
        if letters == 1 and not (
            start > 0 and text[start - 1] in "(（" and text[end : end + 1] in (")", "）")
        ):
            return word
        if letters == 2 and word.isascii() and not _BEFORE_TWO_LETTERS.match(text, end - word.endswith(".")):
            return word
        return kind

    return replace
