"""Find date conditions in a question and turn them into inclusive date ranges.

The caller removes each returned `span` from the question and keeps the remaining topic words.
Relative words are anchored on `today`, which the caller sets to the newest row's date (the
archive may be years old), never on the wall clock. No dateparser call happens here: a question
is scanned with a small table of regexes, one builder each, in well under a millisecond.

Grammar, in two layers:

* *Points* (`_POINT_FORMS`): one calendar expression such as "17 April 2023", "2023-04",
  "April", "Q1 2023", "first half of 2023", "the second half of March 2024", "summer 2022", "the winter of
  2023/24", "the 1990s", "2023", "last 6 months", "yesterday".
  A point is *strong* when it can stand alone (it has a year, a day number, or is relative) and
  *weak* otherwise (a bare month, bare year, bare "Q1").
* *Rules* (`_RULES`): "between P and P", "[from] P to/-/until P", "since/after/before/until P",
  and "[in/during/of/from/on/...] P". A weak point only counts behind a gating word
  (in, during, from, since, before, after, until, between, ...; "of" for years; "on" for days) or
  right after "published"/"dated"; so "may I ask", "march of the penguins", "articles by June
  Park" and "more than 2000 words" stay undated, and "may" needs a day, year or such a word.

Conventions:

* Counted or rolling windows end on `today` and include it: "last 6 months", "past six months",
  "the last month", "past week" start one unit-count before `today` plus one day, so
  "past 7 days" is `today - 6 days .. today` and "last 6 months" on 2023-06-15 is
  2022-12-16..2023-06-15 (month ends are clamped: 2023-03-31 minus one month is 2023-02-28).
* "the last N calendar (full, whole) <units>" are whole units, the one holding `today` the last of them:
  "the last three calendar months" on 2024-06-30 is 2024-04-01..2024-06-30.
* "last/previous <unit>" without a number or "the" is the previous calendar unit: "last month",
  "last year", "last quarter", and "last week" = the previous Monday..Sunday.
* "the next N <units>" / "the coming N <units>" start the day after `today` and end N units after it; "next
  <unit>" without a number or "the" is the next calendar unit ("next month", "next quarter").
* "this <unit>" runs from the first day of the current unit to `today`; "N <units> ago" is the
  whole calendar unit containing that day; "yesterday"/"today" are single days.
* "since X" and "from X onwards" include X; "after X" starts the day after X ends; "before X" and
  "prior to X" end the day before X starts; "until/till/through/up to X" include X. The open side
  is `date.min` or `date.max` and the granularity is "open".
* A month or day without a year takes the year of the other end of its range (going back one year
  when that would put the start after the end: "between November and February 2023" starts in
  November 2022), or of the next item in a list ("in March and April 2023"), else `default_year`; without a
  `default_year`, the latest such period that does not start after `today` ("in December" on 2024-06-30 is
  December 2023).
* Quarters and halves have granularity "range", as do decades ("the 1990s"). Spelled-out quarters
  and halves ("first half of ...") need a year, because "in the first half" is usually sport.

Long because it is one grammar (days, months, quarters, ranges, open and relative dates) whose rules read
best side by side.
"""

from __future__ import annotations

import dataclasses
import re
from calendar import monthrange
from collections.abc import Callable
from dataclasses import dataclass
from datetime import MAXYEAR, MINYEAR, date, timedelta

from rag.understand.numbers import WHOLE_NUMBER, number_value

__all__ = ["DateRange", "find_date_ranges", "period_label"]


@dataclass(frozen=True)
class DateRange:
    """A date condition found in a question; `start` and `end` are both inclusive."""

    start: date
    end: date
    granularity: str  # "day" | "month" | "year" | "range" | "relative" | "open"
    text: str  # the matched words, e.g. "between March and May 2023"
    span: tuple[int, int]  # character offsets of `text` in the question


Period = tuple[date, date]

# --------------------------------------------------------------------------- calendar helpers


def period_label(start: date, end: date) -> str:
    """A period as the answer's groups name it: "2023", "2023-H1", "2023-Q2", "2023-03", "2023-03-05", else
    "2023-03-05 to 2023-04-02"."""
    if start == date.min and end != date.max:  # ("before 2023": not from the year 1)
        return f"before {_day_label(end + timedelta(days=1))}"
    if end == date.max and start != date.min:  # ("2023 or later")
        return f"from {_day_label(start)}"
    months = (end.year - start.year) * 12 + end.month - start.month + 1
    whole_months = start.day == 1 and end == _add_months(start, months) - timedelta(days=1)
    if whole_months and months == 12 and start.month == 1:
        return str(start.year)
    if whole_months and months in (6, 3, 1) and (start.month - 1) % months == 0:
        letter = {6: "-H", 3: "-Q", 1: "-"}[months]
        number = (start.month - 1) // months + 1
        return f"{start.year}{letter}{number if months > 1 else f'{start.month:02d}'}"
    return start.isoformat() if start == end else f"{start.isoformat()} to {end.isoformat()}"



def _day_label(day: date) -> str:
    """A day as a period's bound: "2023" (1 January), "2023-03" (the first of a month), else "2023-03-05"."""
    return str(day.year) if (day.month, day.day) == (1, 1) else day.isoformat()[:7] if day.day == 1 else \
        day.isoformat()


def _month_period(year: int, month: int) -> Period:
    return date(year, month, 1), date(year, month, monthrange(year, month)[1])


def _months_period(year: int, first_month: int, count: int) -> Period:
    """Whole months `first_month .. first_month + count - 1` of one year."""
    return date(year, first_month, 1), _month_period(year, first_month + count - 1)[1]


def _add_months(day: date, months: int) -> date:
    """Shift by whole months, clamping the day to the target month's length (and the calendar's ends)."""
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    if not MINYEAR <= year <= MAXYEAR:  # "the last 10,000 years": all of time
        return date.min if months < 0 else date.max
    return date(year, month + 1, min(day.day, monthrange(year, month + 1)[1]))


def _shift(day: date, unit: str, count: int) -> date:
    """Move `count` units (negative goes back) from `day`."""
    days = {"day": 1, "week": 7, "fortnight": 14}.get(unit)
    if days:
        try:
            return day + timedelta(days=days * count)
        except OverflowError:  # beyond the calendar: all of time
            return date.min if count < 0 else date.max
    return _add_months(day, count * {"month": 1, "quarter": 3, "year": 12}[unit])


_UNIT_SAID = re.compile(r"\b(?:(?P<day>days?)|(?P<week>weeks?|wks?)|(?P<month>months?|mos?|mths?)|"
                        r"(?P<year>years?|yrs?))\b", re.I)


def relative_labels(periods: list[Period], today: date, words: str) -> list[str] | None:
    """How compared periods are named when the question counts them back from the newest row ("the last 8 weeks vs
    the 8 weeks before that"): "last 8 weeks" (ending on `today`) and "previous 8 weeks" (the same length, ending the
    day before the next one); None when any period is not of that kind (it is then named by its dates). The unit is
    the first one `words` says."""
    said = _UNIT_SAID.search(words)
    if not said or len(periods) < 2 or not re.search(r"\b(?:last|past|latest|recent|most\s+recent)\b", words, re.I):
        return None  # (not dates that happen to end on the newest row's: "between 2023-03-11 and 2023-06-30")
    unit = said.lastgroup or "day"
    by_start = sorted(periods)
    counts = []
    for i, (start, end) in enumerate(by_start):
        after = today + timedelta(days=1) if i == len(by_start) - 1 else by_start[i + 1][0]  # (the day after it)
        # (N units back from its last day, or from the next period's first: "the 6 months before that")
        count = next((n for n in range(1, 400)
                      if start in (_shift(after, unit, -n), _shift(end, unit, -n) + timedelta(days=1))), 0)
        if end != after - timedelta(days=1) or not count:
            return None
        counts.append(count)
    names = {p: f"{'last' if i == len(by_start) - 1 else 'previous' if i == len(by_start) - 2 else 'earlier'} "
                f"{counts[i]} {unit if counts[i] == 1 else unit + 's'}" for i, p in enumerate(by_start)}
    if len(set(names.values())) != len(names):
        return None
    return [names[p] for p in periods]


def _unit_period(day: date, unit: str) -> Period:
    """The calendar day, Monday..Sunday week, month, quarter or year containing `day`."""
    if unit == "day":
        return day, day
    if unit == "week":
        monday = day - timedelta(days=day.weekday())
        return monday, monday + timedelta(days=6)
    if unit == "fortnight":  # no calendar fortnight: the fourteen days that end on `day`
        return day - timedelta(days=13), day
    if unit == "month":
        return _month_period(day.year, day.month)
    if unit == "quarter":
        return _months_period(day.year, (day.month - 1) // 3 * 3 + 1, 3)
    return date(day.year, 1, 1), date(day.year, 12, 31)


# --------------------------------------------------------------------------- points


@dataclass(frozen=True)
class _Point:
    """One calendar expression; `bounds(year)` gives its period for the year it should use."""

    kind: str  # day | month | quarter | half | year | decade | relative
    bounds: Callable[[int], Period]
    year: int | None  # the year written in the words, None when it must be inherited
    strong: bool  # may stand alone, without a gating word before it

    def period(self, fallback_year: int) -> Period:
        return self.bounds(self.year if self.year is not None else fallback_year)


_MONTH = (
    r"(?P<month>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b"
)
_MONTHS = {
    name: number
    for number, name in enumerate(
        ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], 1
    )
}
_DAY = r"(?P<day>[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?\b"
_YEAR = r"(?P<year>19\d\d|20\d\d|2100)\b"
_REL_YEAR = r"(?:of\s+)?(?P<rel>this|the current|current|the|last|the last|the previous|previous)\s+year\b"
_OPT_YEAR = rf"(?:\.?,?\s+(?:of\s+)?{_YEAR})?"  # "17 April", "17 Apr. 2023", "April of 2023"
_TENS = "twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety"
_UNITS = "one|two|three|four|five|six|seven|eight|nine"
# "45", "six", "forty-five", "a hundred and twenty"
_COUNT = rf"(?P<n>{WHOLE_NUMBER})"
_UNIT = r"(?P<unit>day|week|fortnight|month|quarter|year)(?P<plural>s)?\b"
# a year in words: "twenty twenty-three", "nineteen ninety-nine", "two thousand and five" (not "two thousand": a number)
_TWO_DIGITS = (rf"(?:{_TENS})(?:[\s-](?:{_UNITS}))?|ten|eleven|twelve|thirteen|fourteen|fifteen|"
               r"sixteen|seventeen|eighteen|nineteen")
_YEAR_IN_WORDS = re.compile(rf"\b(?P<century>nineteen|twenty)[\s-]+(?P<rest>{_TWO_DIGITS})\b|"
                            rf"\btwo\s+thousand(?:\s+and)?[\s-]+(?P<rest2>{_TWO_DIGITS}|{_UNITS})\b", re.I)


# a year written with an apostrophe after a date word: "Q2 '23", "May '23", "in '22" (not "the '90s")
_MONTH_WORDS = (r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t|tember)?|"
                r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?")
_SHORT_YEAR = re.compile(rf"\b(?P<pre>q[1-4]|h[12]|{_MONTH_WORDS}|spring|summer|autumn|fall|winter|in|of|from|since|"
                         r"during|until|before|after),?\s+['’](?P<yy>\d\d)\b(?!['’]?s\b)", re.I)
# a quarter or half with a two-digit year and no apostrophe, where nothing can follow the number: "H1 24 vs H1 23",
# "Q3 23?" (not "in Q1 24 tickets came in")
_PERIOD_YY = r"\b(?:q[1-4]|h[12])\s+(\d\d)"
_PERIODS_JOINED = r"\s*,?\s*(?:vs\.?|versus|or|and|to|through|than|compared\s+(?:with|to)|against)\s+(?:in\s+)?"
_BARE_SHORT_YEARS = re.compile(rf"{_PERIOD_YY}(?:{_PERIODS_JOINED}{_PERIOD_YY})?(?=\s*(?:[?.!,;:)]|$))|"
                               rf"{_PERIOD_YY}{_PERIODS_JOINED}{_PERIOD_YY}", re.I)
# a year with an apostrophe joined to another one: "in '23 vs '22", "'21 or '22"
_SHORT_YEARS_JOINED = re.compile(rf"['’]\d\d\b{_PERIODS_JOINED}['’](?P<yy>\d\d)\b(?!['’]?s\b)", re.I)
# a month with a two-digit year behind "in": "in march 23" is March 2023 ("on March 23", "in March 23rd" or "in March
# 23, 2023" name a day)
_MONTH_YY = re.compile(rf"\b(?:in|during|throughout)\s+(?:{_MONTH_WORDS})\s+(\d\d)\b"
                       r"(?!\s*(?:st|nd|rd|th)\b|,?\s*(?:19|20)\d\d|[:./-]\d)", re.I)


# a day of the week named before the day it is ("Monday 15 April", "mon mar 4", "Tue, 5 March"): read as the day
# alone; an abbreviated weekday only beside a month name ("sat 5 days" is a verb)
_WEEKDAY_BEFORE_DAY = re.compile(
    r"\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+(?P<day>\d{1,2})(?=(?:st|nd|rd|th)?(?:\s+of)?\s+[A-Za-z])"
    r"|(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)\.?,?\s+"
    rf"(?P<rest>\d{{1,2}}(?=(?:st|nd|rd|th)?(?:\s+of)?\s+(?:{_MONTH_WORDS})\b)|(?:{_MONTH_WORDS})\.?\s+\d{{1,2}}(?!\d)))",
    re.IGNORECASE)


# a year referred back to ("in the last quarter of that year", "that same year") and a year's part said after it
_THAT_YEAR = re.compile(r"\b(?:that|the\s+same|that\s+same)\s+year\b", re.IGNORECASE)
_YEARS_PART = re.compile(r"\b(?P<year>(?:19|20)\d\d)['’]s\s+(?P<part>(?:first|last|final|second|third|fourth|1st|2nd|"
                         r"3rd|4th)\s+(?:quarter|half))\b", re.IGNORECASE)


def _years_in_digits(text: str) -> tuple[str, list[int]]:
    """`text` with each year written in words ("twenty twenty-three") or with an apostrophe ("Q2 '23") as digits,
    and where each of its positions (and its end) was in `text`: a date's span then covers the words written. A day
    of the week before a day number is dropped ("Monday 15 April" is 15 April)."""
    replacements: list[tuple[int, int, str]] = []
    for match in _YEAR_IN_WORDS.finditer(text):
        if match["century"]:
            year = (1900 if match["century"].lower() == "nineteen" else 2000) + int(number_value(match["rest"]))
        else:
            year = 2000 + int(number_value(match["rest2"]))
        replacements.append((*match.span(), str(year)))
    for match in _SHORT_YEAR.finditer(text):
        if not any(a < match.end() and match.start() < b for a, b, _ in replacements):
            yy = int(match["yy"])
            replacements.append((match.start("yy") - 1, match.end(), str(2000 + yy if yy <= 69 else 1900 + yy)))
    for match in _SHORT_YEARS_JOINED.finditer(text):  # ("signed in '23 vs '22": the second year after the first)
        if not any(a < match.end() and match.start("yy") - 1 < b for a, b, _ in replacements):
            yy = int(match["yy"])
            replacements.append((match.start("yy") - 1, match.end(), str(2000 + yy if yy <= 69 else 1900 + yy)))
    for match in _THAT_YEAR.finditer(text):  # "the last quarter of that year": the year written before it
        earlier = re.findall(r"\b(?:19|20)\d\d\b", text[:match.start()])
        if earlier and not any(a < match.end() and match.start() < b for a, b, _ in replacements):
            replacements.append((match.start(), match.end(), earlier[-1]))
    for match in _YEARS_PART.finditer(text):  # "2022's last quarter": the last quarter of 2022
        if not any(a < match.end() and match.start() < b for a, b, _ in replacements):
            replacements.append((match.start(), match.end(), f"the {match['part']} of {match['year']}"))
    for match in _WEEKDAY_BEFORE_DAY.finditer(text):  # "from Monday 15 April to Sunday 21 April": the days
        if not any(a < match.end() and match.start() < b for a, b, _ in replacements):
            replacements.append((match.start(), match.end(), match.group("day") or match.group("rest")))
    for match in [*_BARE_SHORT_YEARS.finditer(text), *_MONTH_YY.finditer(text)]:
        for group in range(1, (match.lastindex or 0) + 1):
            if match.group(group) and not any(a < match.end(group) and match.start(group) < b
                                              for a, b, _ in replacements):
                yy = int(match.group(group))
                replacements.append((*match.span(group), str(2000 + yy if yy <= 69 else 1900 + yy)))
    digits, where, at = [], [], 0
    for a, b, year in sorted(replacements):
        digits.append(text[at:a])
        where.extend(range(at, a))
        digits.append(year)
        where.extend(min(a + k, b - 1) for k in range(len(year)))
        at = b
    digits.append(text[at:])
    where.extend(range(at, len(text) + 1))  # (the end of a replaced year is where its words end)
    return "".join(digits), where


_ORDINALS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3,
             "fourth": 4, "4th": 4, "last": 4, "final": 4, "latter": 2, "front": 1, "back": 2}


def _year_of(m: re.Match[str], today: date | None = None) -> int | None:
    year = m.groupdict().get("year")
    relative = m.groupdict().get("rel")
    if relative and today is not None:  # "of this year", "of last year": the newest row's year, or the one before
        return today.year - (1 if relative.lower().endswith(("last", "previous")) else 0)
    return int(year) if year else None


def _month_of(m: re.Match[str]) -> int:
    return _MONTHS[m["month"][:3].lower()]


def _checked(point: _Point) -> _Point | None:
    """Drop points that cannot exist (30 February; a yearless 29 February is checked later)."""
    try:
        point.period(2000)  # a leap year, so only impossible dates fail here
    except ValueError:
        return None
    return point


def _day_point(year: int | None, month: int, day: int, strong: bool) -> _Point | None:
    def bounds(y: int) -> Period:
        return date(y, month, day), date(y, month, day)

    return _checked(_Point("day", bounds, year, strong))


def _build_iso_day(m: re.Match[str], today: date) -> _Point | None:
    return _day_point(int(m["year"]), int(m["month"]), int(m["day"]), True)


def _build_numeric_day(m: re.Match[str], today: date) -> _Point | None:
    """Day first ("17/04/2023"); month first only when the day-first reading is impossible."""
    first, second = int(m["first"]), int(m["second"])
    day, month = (first, second) if second <= 12 else (second, first)
    return _day_point(int(m["year"]), month, day, True) if month <= 12 else None


def _build_day_month(m: re.Match[str], today: date) -> _Point | None:
    """Day first: "17 April 2023"; a yearless "3 may" is weak because of "the top 3 may ..."."""
    year = _year_of(m)
    strong = year is not None or m["month"].lower() != "may"
    return _day_point(year, _month_of(m), int(m["day"]), strong)


def _build_month_day(m: re.Match[str], today: date) -> _Point | None:
    return _day_point(_year_of(m), _month_of(m), int(m["day"]), True)


def _month_point(year: int | None, month: int) -> _Point:
    return _Point("month", lambda y: _month_period(y, month), year, year is not None)


def _build_iso_month(m: re.Match[str], today: date) -> _Point | None:
    return _month_point(int(m["year"]), int(m["month"]))


def _build_month(m: re.Match[str], today: date) -> _Point | None:
    return _month_point(_year_of(m), _month_of(m))


def _build_quarter(m: re.Match[str], today: date) -> _Point | None:
    number = m.groupdict().get("q")
    quarter = int(number) if number else _ORDINALS[m["ord"].lower()]
    if quarter > 4:
        return None
    year = _year_of(m, today)
    return _Point("quarter", lambda y: _months_period(y, quarter * 3 - 2, 3), year, year is not None)


def _build_half(m: re.Match[str], today: date) -> _Point | None:
    number = m.groupdict().get("h")
    half = int(number) if number else _ORDINALS[m["ord"].lower()]
    if half > 2:
        return None
    year = _year_of(m, today)
    return _Point("half", lambda y: _months_period(y, half * 6 - 5, 6), year, year is not None)


def _build_edge(m: re.Match[str], today: date) -> _Point | None:
    """"since the start of May", "until the end of 2023": the first or last day of that month or year."""
    month = _month_of(m) if m.groupdict().get("month") else None
    end = m["edge"].lower() == "end"

    def period(y: int) -> Period:
        start, last = _month_period(y, month) if month else (date(y, 1, 1), date(y, 12, 31))
        return (last, last) if end else (start, start)

    # weak: a bound after "since"/"until"/"before"; alone ("at the end of May") it is no exact day
    return _Point("day", period, _year_of(m), False)


def _build_edge_units(m: re.Match[str], today: date) -> _Point | None:
    """"The first six months of 2024" (January-June), "the last 10 days of March": that many units at the start
    or the end of a year or a month, inside it."""
    unit, count = m["unit"].lower(), _count(m)
    month = _month_of(m) if m.groupdict().get("month") else None
    first = m["edge"].lower() in ("first", "opening")
    if not count or (month is None and unit == "day" and count > 366) or (unit == "month" and (month or count > 12)):
        return None

    def period(y: int) -> Period:
        start, end = _month_period(y, month) if month else (date(y, 1, 1), date(y, 12, 31))
        if first:
            return start, min(end, _shift(start, unit, count) - timedelta(days=1))
        return max(start, _shift(end + timedelta(days=1), unit, -count)), end

    return _Point("half", period, _year_of(m), True)  # (a part of a year or month: a range)


def _build_half_month(m: re.Match[str], today: date) -> _Point | None:
    """"the first half of March 2024": days 1-15; "the second half": the 16th to the month's end."""
    month, second = _month_of(m), m["ord"].lower() in ("second", "2nd", "latter")

    def period(y: int) -> Period:
        start, end = _month_period(y, month)
        return (start.replace(day=16), end) if second else (start, start.replace(day=15))

    return _Point("half", period, _year_of(m), True)


_SEASON_START = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9}  # meteorological seasons, northern hemisphere


def _build_season(m: re.Match[str], today: date) -> _Point | None:
    """"summer 2023": June to August; "the winter of 2023/24": December 2023 to February 2024."""
    if m["season"].lower() != "winter":
        first = _SEASON_START[m["season"].lower()]
        return _Point("half", lambda y: _months_period(y, first, 3), int(m["year"]), True)
    start, following = int(m["year"]), m["next"]
    if int(following) % 100 != (start + 1) % 100:
        return None
    return _Point("half", lambda y: (date(y, 12, 1), _month_period(y + 1, 2)[1]), start, True)


def _build_this_season(m: re.Match[str], today: date) -> _Point | None:
    """"this spring": the newest spring that has begun by `today` (up to `today`); "last spring": the one before."""
    first = _SEASON_START[m["season"].lower()]
    year = today.year if date(today.year, first, 1) <= today else today.year - 1
    if m["which"].lower() in ("last", "previous"):
        year -= 1
    start, end = _months_period(year, first, 3)
    return _relative(start, min(end, today))


def _build_decade(m: re.Match[str], today: date) -> _Point | None:
    first = int(m["decade"]) * 10
    return _Point("decade", lambda _: (date(first, 1, 1), date(first + 9, 12, 31)), first, True)


def _build_year(m: re.Match[str], today: date) -> _Point | None:
    """A bare year is weak; "the year 2020" is strong."""
    year = int(m["year"])
    return _Point("year", lambda y: (date(y, 1, 1), date(y, 12, 31)), year, m["word"] is not None)


def _relative(start: date, end: date) -> _Point:
    return _Point("relative", lambda _: (start, end), end.year, True)


def _count(m: re.Match[str]) -> int:
    return int(number_value(m["n"] or "1"))


def _build_last(m: re.Match[str], today: date) -> _Point | None:
    """Rolling window for counts, "past" and "the last"; previous calendar unit otherwise."""
    unit, count = m["unit"].lower(), _count(m)
    if count == 0 or (m["plural"] and not m["n"]):  # "last 0 days", "past months"
        return None
    if (count > 1 and not m["plural"] and m.groupdict().get("which")
            and m.start("n") < m.start("which")):  # "sales of 3 million last year": the number counts something else
        return None
    # (a fortnight has no calendar unit: "last fortnight" is the fourteen days to the newest row)
    which = (m.groupdict().get("which") or "").lower()  # (none: "the three months up to our newest article")
    rolling = (m["n"] or which in ("past", "final", "latest") or which.startswith("most")
               or (m["the"] and which == "last") or unit == "fortnight")
    if rolling and m.groupdict().get("whole") and unit in ("week", "month", "quarter", "year"):
        # "the last three calendar months": whole units, the newest row's own unit the last of them
        return _relative(_unit_period(_shift(today, unit, -(count - 1)), unit)[0], today)
    if rolling:
        return _relative(_shift(today, unit, -count) + timedelta(days=1), today)
    return _relative(*_unit_period(_shift(today, unit, -1), unit))


def _build_next(m: re.Match[str], today: date) -> _Point | None:
    """"the next 90 days", "in the coming three months": the window of that many units after `today`; "next month"
    (no number, no "the"): the next calendar unit."""
    unit, count = m["unit"].lower(), _count(m) if m["n"] else 1
    if count == 0 or (m["plural"] and not m["n"]):
        return None
    if m["n"] or m["the"] or unit == "fortnight":
        return _relative(today + timedelta(days=1), _shift(today, unit, count))
    return _relative(*_unit_period(_shift(today, unit, 1), unit))


def _build_back(m: re.Match[str], today: date) -> _Point | None:
    """"Going back 28 days from the most recent ticket": the window of that many units that ends on `today`."""
    count = _count(m) if m["n"] else 1
    return _relative(_shift(today, m["unit"].lower(), -count) + timedelta(days=1), today) if count else None


def _build_this(m: re.Match[str], today: date) -> _Point | None:
    if m["plural"]:
        return None
    return _relative(_unit_period(today, m["unit"].lower())[0], today)


def _build_ago(m: re.Match[str], today: date) -> _Point | None:
    unit, count = m["unit"].lower(), _count(m)
    return _relative(*_unit_period(_shift(today, unit, -count), unit)) if count else None


def _build_older(m: re.Match[str], today: date) -> _Point | None:
    count = _count(m)
    return _relative(date.min, _shift(today, m["unit"].lower(), -count) - timedelta(days=1)) if count else None


def _build_day_word(m: re.Match[str], today: date) -> _Point | None:
    day = today - timedelta(days=1) if m["word"].lower() == "yesterday" else today
    return _relative(day, day)


def _build_year_to_date(m: re.Match[str], today: date) -> _Point | None:
    return _relative(date(today.year, 1, 1), today)


@dataclass(frozen=True)
class _Form:
    """One way to write a point: a regex matched at a word start, and its builder."""

    regex: re.Pattern[str]
    build: Callable[[re.Match[str], date], _Point | None]


def _form(pattern: str, build: Callable[[re.Match[str], date], _Point | None]) -> _Form:
    return _Form(re.compile(pattern, re.IGNORECASE), build)


# Order only breaks ties between equally long matches: the earlier form wins.
_POINT_FORMS: list[_Form] = [
    _form(rf"{_YEAR}[-/.](?P<month>0?[1-9]|1[0-2])[-/.](?P<day>[12]\d|3[01]|0?[1-9])(?!\d)",
          _build_iso_day),
    _form(rf"(?P<first>\d{{1,2}})[/.-](?P<second>\d{{1,2}})[/.-]{_YEAR}", _build_numeric_day),
    _form(rf"{_YEAR}-(?P<month>0[1-9]|1[0-2])(?![\d-])", _build_iso_month),
    _form(rf"(?:the\s+)?{_DAY}\s+(?:of\s+)?{_MONTH}{_OPT_YEAR}", _build_day_month),
    _form(rf"{_MONTH}\.?\s+(?:the\s+)?{_DAY}{_OPT_YEAR}", _build_month_day),
    _form(rf"{_MONTH}{_OPT_YEAR}", _build_month),
    _form(rf"(?P<the>the\s+)?(?P<which>last|past|previous|preceding|final|latest|most\s+recent)\s+"
          rf"(?:{_COUNT}\s+)?(?P<whole>(?:calendar|full|whole|complete|entire)\s+)?{_UNIT}"
          rf"(?:\s+of\s+(?:the\s+)?data)?", _build_last),
    # "the three most recent calendar months", "the two latest weeks": the count before the word
    _form(rf"(?P<the>the\s+)?{_COUNT}\s+(?P<which>last|past|previous|final|latest|most\s+recent)\s+"
          rf"(?P<whole>(?:calendar|full|whole|complete|entire)\s+)?{_UNIT}(?:\s+(?:of|in)\s+(?:the\s+)?data)?",
          _build_last),
    # "the next 90 days", "the coming three months", "next quarter": after the newest row (when rows end later than
    # they start: a contract's end)
    _form(rf"(?P<the>the\s+)?(?:next|coming|upcoming)\s+(?:{_COUNT}\s+)?{_UNIT}(?!['’])", _build_next),
    # "counting back 30 days from the most recently opened ticket": the window that ends on the newest row
    _form(rf"(?:counting|count|going|go|looking|look|reaching|reach)\s+back\s+(?:over\s+)?(?P<the>the\s+)?{_COUNT}\s+"
          rf"{_UNIT}(?:\s+from\s+(?:the\s+|our\s+)?(?:most\s+recent(?:ly)?|latest|newest|last)(?:\s+[a-z]+){{0,2}}"
          rf"(?<!\bthat)(?<!\bin))?", _build_last),
    # "the three months up to our most recent article": the window that ends on the newest row
    _form(rf"(?P<the>the\s+)?{_COUNT}\s+{_UNIT}\s+(?:(?:leading\s+)?up\s+to|before|until|ending\s+(?:with|on))\s+"
          rf"(?:our|the)\s+(?:most\s+recent|latest|newest|last)\s+[a-z]+", _build_last),
    # "(treat the newest article as today:) the 30 days up to it": the window that ends on the newest row
    # ("the thirty days up to and including that latest one")
    _form(rf"(?P<the>the\s+)?{_COUNT}\s+{_UNIT}\s+(?:(?:leading\s+)?up\s+to|until|ending\s+(?:with|on))"
          rf"(?:\s+and\s+including)?\s+(?:it|then|today|now|that\s+(?:date|day|point)|"
          rf"that\s+(?:latest|newest|most\s+recent|last)\s+[a-z]+)\b", _build_last),
    # "going back 28 days from the most recent ticket", "counting back three weeks from our newest article"
    _form(rf"(?:going|counting|looking|reaching)\s+back\s+(?:{_COUNT}|an?)\s+{_UNIT}(?:\s*\([^()]{{1,20}}\))?\s+"
          rf"(?:from|before)\s+(?:the|our)\s+"
          rf"(?:most\s+recent|latest|newest|last)\s+[a-z]+(?:\s+in\s+the\s+data)?", _build_back),
    # ("this year so far", "so far this month": the same period, up to today)
    _form(rf"(?:so\s+far\s+)?(?:this|the\s+current|current)\s+{_UNIT}(?:\s+(?:so\s+far|to\s+date))?", _build_this),
    # ("Since the start of the year, how many contracts have we signed?": the current year up to today)
    _form(rf"(?:since|from)\s+the\s+(?:start|beginning)\s+of\s+(?:the|this)\s+{_UNIT}(?:\s+(?:so\s+far|to\s+date))?"
          r"(?!,?\s+(?:of\s+)?(?:19|20)\d\d)", _build_this),
    _form(rf"(?:{_COUNT}|an?)\s+{_UNIT}\s+ago\b", _build_ago),
    # "older than 30 days", "more than two weeks old": before the day that many units before the newest row
    _form(rf"older\s+than\s+(?:{_COUNT}|an?)\s+{_UNIT}", _build_older),
    _form(rf"more\s+than\s+(?:{_COUNT}|an?)\s+{_UNIT}\s+old\b", _build_older),
    _form(r"(?P<word>yesterday|(?<!usa\s)today)\b", _build_day_word),  # not "USA Today"
    _form(r"(?:year[\s-]to[\s-]date|ytd)\b", _build_year_to_date),
    _form(rf"q(?P<q>[1-4])\b(?:,?\s*(?:of\s+)?{_YEAR})?", _build_quarter),
    _form(rf"{_YEAR}[\s-]*q(?P<q>[1-4])\b", _build_quarter),
    # "the second quarter of 2023", "... of this year", "... of last year" (never yearless: "scored in the third
    # quarter" is sport)
    _form(rf"(?:the\s+)?(?P<ord>first|second|third|fourth|1st|2nd|3rd|4th|last|final)\s+quarter"
          rf"\s+(?:(?:of\s+)?{_YEAR}|{_REL_YEAR})", _build_quarter),
    _form(rf"h(?P<h>[12])\b(?:,?\s*(?:of\s+)?{_YEAR})?", _build_half),
    _form(rf"{_YEAR}[\s-]*h(?P<h>[12])\b", _build_half),
    _form(rf"(?:the\s+)?(?P<ord>first|second|1st|2nd|latter|front|back)\s+half\s+(?:(?:of\s+)?{_YEAR}|{_REL_YEAR})",
          _build_half),
    _form(rf"(?:the\s+)?(?P<ord>first|second|1st|2nd|latter)\s+half\s+of\s+{_MONTH}{_OPT_YEAR}", _build_half_month),
    # "the first six months of 2024", "the last three months of 2023", "the final 10 days of March 2024"
    _form(rf"(?:the\s+)?(?P<edge>first|opening|last|final|closing)\s+{_COUNT}\s+(?P<unit>day|week|month)s?\s+"
          rf"(?:of|in)\s+(?:{_MONTH}\.?,?\s+(?:of\s+)?)?{_YEAR}", _build_edge_units),
    _form(rf"(?:the\s+)?(?P<edge>first|opening|last|final|closing)\s+{_COUNT}\s+(?P<unit>day|week)s?\s+"
          rf"(?:of|in)\s+{_MONTH}", _build_edge_units),
    # "since the start of May", "until the end of 2023"
    _form(rf"(?:the\s+)?(?P<edge>start|beginning|end)\s+of\s+{_MONTH}{_OPT_YEAR}", _build_edge),
    _form(rf"(?:the\s+)?(?P<edge>start|beginning|end)\s+of\s+{_YEAR}", _build_edge),
    _form(rf"(?:the\s+)?(?P<season>spring|summer|autumn|fall)\s+(?:of\s+)?{_YEAR}", _build_season),
    _form(r"(?:the\s+)?(?P<season>winter)\s+(?:of\s+)?(?P<year>19\d\d|20\d\d)\s*[/-]\s*(?P<next>(?:19|20)?\d\d)\b",
          _build_season),
    _form(r"(?P<which>this|last|previous)\s+(?P<season>spring|summer|autumn|fall)(?:['’]s)?\b", _build_this_season),
    _form(r"(?:the\s+)?(?P<decade>(?:19|20)\d)0'?s\b", _build_decade),
    # a count of things is not a year: "2000 words", "1999 articles" (but "the pre-2020 articles" is dated)
    _form(rf"(?P<dashed>(?<=pre-)|(?<=post-))?(?P<word>(?:the\s+)?year\s+)?{_YEAR}"
          r"(?(dashed)|(?!\s+(?:words?|characters?|chars|articles?|stories|times|results|rows)\b))",
          _build_year),
]

# --------------------------------------------------------------------------- rules


@dataclass(frozen=True)
class _Found:
    """The longest point starting at some offset, and the offset just past it."""

    point: _Point
    end: int


@dataclass(frozen=True)
class _Candidate:
    """A matched date condition whose period still depends on the fallback year."""

    start: int
    end: int
    priority: int  # breaks ties between equally long matches at one offset; lower wins
    granularity: str
    period: Callable[[int], Period]
    point: _Point | None  # set for a lone point, which can take part in a list


_POINT_GRANULARITY = {"day": "day", "month": "month", "year": "year", "relative": "relative",
                      "quarter": "range", "half": "range", "decade": "range"}
_WEAK_GATES = {"in", "during", "throughout", "from"}  # may precede a month or year without one
# month words that are no other word or name (not "may", "march", "june", "april", "august", "jan", "apr" of APR)
_ONLY_A_MONTH = re.compile(r"(?:january|feb|february|jun|jul|july|aug|sept?|september|oct|october|nov|november|dec|"
                           r"december)\.?", re.IGNORECASE)
_TOPIC_BEFORE = re.compile(r"\b(?:about|mention(?:s|ed|ing)?|regarding|concerning|covering|titled|containing|"
                           r"re)\s+(?:(?:the|a|an|our|any)\s+)?(?:[\w-]+\s+)?$", re.IGNORECASE)
_KIND_GATES = {"year": {"of"}, "day": {"on"}, "month": {"for"}}  # "the best of 2023", "on 17 May", "for April"
_OPEN_OPS = {"since": "since", "after": "after", "later than": "after", "before": "before",
             "prior to": "before", "earlier than": "before", "older than": "before", "newer than": "after",
             "until": "until", "till": "until",
             "til": "until", "through": "until", "thru": "until", "up to": "until",
             "starting": "since", "starting in": "since", "starting from": "since",
             "no later than": "until", "no earlier than": "since",
             **{f"{prefix}{dash}date{end}": op for prefix, op in (("pre", "before"), ("post", "after"))
                for dash in ("", "-") for end in ("", "s", "d")},  # "articles that predate 2023"
             "pre-": "before", "post-": "after"}  # "the pre-2023 archive"

_BETWEEN = re.compile(r"between\s+", re.IGNORECASE)
_AND = re.compile(r"\s+and\s+", re.IGNORECASE)
_FROM = re.compile(r"(?:from|in|during|throughout|for)\s+", re.IGNORECASE)
# ("from 1 March up to and including 30 May")
_TO = re.compile(r"\s*(?:->|→|=>|[-–—])\s*|\s+(?:up\s+to\s+and\s+including|up\s+(?:un)?till?|up\s+to|"
                 r"(?:un)?till?\s+and\s+including|to|through|thru|till|until)\s+", re.IGNORECASE)
_NOW = re.compile(r"(?:now|the\s+present|present|date|today)\b", re.IGNORECASE)
_OPEN_WORDS = "|".join(op.replace(" ", r"\s+") for op in sorted(_OPEN_OPS, key=len, reverse=True))
_OPEN = re.compile(rf"(?P<op>{_OPEN_WORDS})(?:\s+|(?<=-))", re.IGNORECASE)
_FROM_ONLY = re.compile(r"(?:from|in|during)\s+", re.IGNORECASE)
_ONWARDS = re.compile(r"\s+(?:onwards?|and\s+(?:later|after|since)|or\s+(?:later|after|since))\b", re.IGNORECASE)
# ("from March 2023 on, which …": "on" closing the phrase)
# ("from march 2023 on were …": a verb after it too; not "from March 2023 on the economy")
_ON_AFTER_FROM = re.compile(r"\s+on\b(?=\s*(?:[,.;:?!)]|$|(?:and|or|but|which|what|how|who|where|that|were|was|are|"
                            r"is|have|has|had|did|do|does|got|came|went|with|by|for|in)\b))", re.IGNORECASE)
_EARLIER = re.compile(r"\s+(?:and|or)\s+(?:earlier|before)\b", re.IGNORECASE)
_GATE = re.compile(r"(?P<gate>in|during|throughout|through|of|from|on|over|within|for)\s+", re.IGNORECASE)
# a verb of living through a period: "got through 2024 without ...", "made it through March" (during, not until)
_LIVED_THROUGH = re.compile(r"\b(?:get|gets|got|getting|made\s+it|make\s+it|went|go|goes|came|come|sailed|passed)\s+$|"
                            # ("quarter by quarter through 2023": across it)
                            r"\b([a-z]+)\s+by\s+\1,?\s+$", re.IGNORECASE)
_PUBLISHED = re.compile(r"\b(?:published|dated)\s+$", re.IGNORECASE)
# (a comparison lists its periods too: "in March versus April")
_LIST_SEP = re.compile(r",\s*(?:(?:and|or)\s+)?|\s+(?:and|or|&|vs\.?|versus)\s+(?:in\s+)?", re.IGNORECASE)
_WORD_START = re.compile(r"\b\w")


def _join(first: _Point, second: _Point, fallback_year: int) -> Period:
    """Cover both ends, lending a written year to the side that lacks one."""
    first_year, second_year = first.year, second.year
    if second_year is None:
        second_year = first_year if first_year is not None else fallback_year
    if first_year is None:
        first_year = second_year
        if first.bounds(first_year)[0] > second.bounds(second_year)[1]:
            first_year -= 1  # "between November and February 2023"
    elif second.year is None and second.bounds(second_year)[1] < first.bounds(first_year)[0]:
        second_year += 1  # "from November 2022 to February"
    (start1, end1), (start2, end2) = first.bounds(first_year), second.bounds(second_year)
    return min(start1, start2), max(end1, end2)


def _open(op: str, point: _Point, fallback_year: int) -> Period:
    start, end = point.period(fallback_year)
    if op == "since":
        return start, date.max
    if op == "after":
        return end + timedelta(days=1), date.max
    if op == "before":
        return date.min, start - timedelta(days=1)
    return date.min, end


class _Scanner:
    """One question: finds the longest point at an offset (memoised) and applies the rules."""

    def __init__(self, question: str, today: date) -> None:
        self.question = question
        self.today = today
        self._points: dict[int, _Found | None] = {}

    def point_at(self, pos: int) -> _Found | None:
        if pos not in self._points:
            best: _Found | None = None
            for form in _POINT_FORMS:
                m = form.regex.match(self.question, pos)
                if m and (best is None or m.end() > best.end) and (point := form.build(m, self.today)):
                    best = _Found(point, m.end())
            self._points[pos] = best
        return self._points[pos]

    def between(self, pos: int) -> _Candidate | None:
        """Match "between P and P"."""
        if not (m := _BETWEEN.match(self.question, pos)):
            return None
        if pair := self._shared_month(m.end(), _AND):
            return self._range(pos, *pair, priority=0)
        if not (first := self.point_at(m.end())):
            return None
        if not (link := _AND.match(self.question, first.end)) or not (second := self.point_at(link.end())):
            return None
        return self._range(pos, first, second, priority=0)

    def _shared_month(self, pos: int, link: re.Pattern[str]) -> tuple[_Found, _Found] | None:
        """Two day numbers of one month written once: "10 and 20 Feb 2024", "the 3rd to the 9th of May" (the month
        after the second day) or "Feb 10-20" (after the first); the bare day takes the other's month and year."""
        q = self.question
        if (bare := _BARE_DAY.match(q, pos)) and (joined := link.match(q, bare.end())) and (
                second := self.point_at(joined.end())) and second.point.kind == "day":
            other, day = second.point, int(bare["day"])
            if other.period(2000)[0].day > day and (point := _day_of_month(other, day)):
                return _Found(point, bare.end()), second
        if (first := self.point_at(pos)) and first.point.kind == "day" and (joined := link.match(q, first.end)) and (
                bare := _BARE_DAY_YEAR.match(q, joined.end())) and not _MORE_DATE.match(q, bare.end()):
            other, day = first.point, int(bare["day"])
            if bare["year"] and other.year is None:  # "Feb 10-20 2024": the year closes both days
                other = _day_of_month(_Point("day", other.bounds, int(bare["year"]), True), other.period(2000)[0].day)
            if other and other.period(2000)[0].day < day and (point := _day_of_month(other, day)):
                return _Found(other, first.end), _Found(point, bare.end())
        return None

    def from_to(self, pos: int) -> _Candidate | None:
        """Match "[from|in] P to/through/until/- P"; "to now/date/present" ends on today."""
        lead = _FROM.match(self.question, pos)
        # (a day range needs "from" or a dash: "the top 10 to 20 May articles" is no date)
        if (lead or _DASHED_DAYS.match(self.question, pos)) and (
                pair := self._shared_month(lead.end() if lead else pos, _TO)):
            return self._range(pos, *pair, priority=1)
        if not (first := self.point_at(lead.end() if lead else pos)):
            return None
        if not (link := _TO.match(self.question, first.end)):
            return None
        if now := _NOW.match(self.question, link.end()):
            second: _Found | None = _Found(_relative(self.today, self.today), now.end())
        else:
            second = self.point_at(link.end())
        # "April-June": two month names joined by a bare hyphen or dash are a range without a year or "from" (two
        # numbers are not: "scores 2020-2022")
        # ("june through august": two month names joined by a range word are as clear)
        # (not from "may", a verb as often as a month: "may to june" stays words)
        linked = self.question[first.end:link.end()].strip().lower()
        tight = (second is not None and first.point.kind == second.point.kind == "month"
                 and (linked in ("-", "–", "—", "->", "→", "=>") or linked in ("to", "through", "thru", "until", "till")
                      and not self.question[pos:first.end].strip().lower().startswith("may")))
        if second is None or not (lead or tight or first.point.strong or second.point.strong):
            return None
        return self._range(pos, first, second, priority=1)

    def open_ended(self, pos: int) -> _Candidate | None:
        """Match "since/after/before/until/prior to P", "from/in P onwards|or later" and "in P or earlier"."""
        q = self.question
        if m := _OPEN.match(q, pos):
            if not (found := self.point_at(m.end())) or (m["op"].lower() in ("through", "thru")
                                                          and _LIVED_THROUGH.search(q, 0, pos)):
                return None  # ("got through 2024 without ...": the period itself, see lone_point)
            op, end = _OPEN_OPS[" ".join(m["op"].lower().split())], found.end
        elif (found := self.point_opening(pos)) and (
                suffix := _ONWARDS.match(q, found.end) or _EARLIER.match(q, found.end)
                or re.match(r"from\s", q[pos:], re.I) and _ON_AFTER_FROM.match(q, found.end)):
            # "from 2023 onwards", "in 2023 or later", "in 2021 or earlier": the point and everything after/before
            op, end = ("until" if suffix.re is _EARLIER else "since"), suffix.end()
        else:
            return None
        point = found.point
        return _Candidate(pos, end, 2, "open", lambda y: _open(op, point, y), None)

    def point_opening(self, pos: int) -> _Found | None:
        """The point of "from/in/during P", or a strong point or a year said without a preposition ("supply
        agreements signed 2023 or later"), where a range may open."""
        gate = _FROM_ONLY.match(self.question, pos)
        found = self.point_at(gate.end() if gate else pos)
        return found if found and (gate or found.point.strong or found.point.kind == "year") else None

    def lone_point(self, pos: int) -> _Candidate | None:
        """Match "[in|during|of|from|on|over|within|for] P"; weak points need a fitting gate."""
        gate = _GATE.match(self.question, pos)
        if not (found := self.point_at(gate.end() if gate else pos)):
            return None
        point, word = found.point, gate["gate"].lower() if gate else None
        allowed = _WEAK_GATES | _KIND_GATES.get(point.kind, set()) | (
            {"through"} if _LIVED_THROUGH.search(self.question, 0, pos) else set())
        published = word is None and _PUBLISHED.search(self.question, 0, pos) is not None
        if word == "for" and self.question[pos:found.end].lower().split()[-1] == "may":
            allowed = _WEAK_GATES  # ("for may I ask")
        # ("feb high prio count": a month word that is no other English word or name needs no gate)
        plain = (not gate and point.kind == "month" and _ONLY_A_MONTH.fullmatch(self.question[pos:found.end])
                 and not _TOPIC_BEFORE.search(self.question, 0, pos))  # (not "tickets about the feb outage")
        if not (point.strong or word in allowed or published or plain):
            return None
        return _Candidate(pos, found.end, 3, _POINT_GRANULARITY[point.kind], point.period, point)

    def week_of(self, pos: int) -> _Candidate | None:
        """Match "the week of 13 May 2024" (Monday..Sunday around that day) and "the week starting 17 April"
        (that day and the six after it)."""
        if not (m := _WEEK_OF.match(self.question, pos)) or not (found := self.point_at(m.end())):
            return None
        if found.point.kind != "day":
            return None
        point, starting = found.point, m["how"].lower() != "of"

        def period(year: int) -> Period:
            day = point.period(year)[0]
            first = day if starting else day - timedelta(days=day.weekday())
            return first, first + timedelta(days=6)

        return _Candidate(pos, found.end, 1, "range", period, None)

    def list_item(self, pos: int, head: _Point) -> _Candidate | None:
        """The next item of "in 2022 and 2023" / "in March, April or May": a point of the same kind."""
        if not (sep := _LIST_SEP.match(self.question, pos)) or not (found := self.point_at(sep.end())):
            return None
        point = found.point
        bare_may = self.question[sep.end() : found.end].lower() == "may"
        if point.kind != head.kind or (bare_may and sep.group().strip(" ,") == "" and not (
                (more := _LIST_SEP.match(self.question, found.end)) and (after := self.point_at(more.end()))
                and after.point.kind == head.kind)):
            return None  # "in March, may I ask ..." (but "for April, May and June")
        return _Candidate(sep.end(), found.end, 3, _POINT_GRANULARITY[point.kind], point.period, point)

    def _range(self, pos: int, first: _Found, second: _Found, priority: int) -> _Candidate:
        a, b = first.point, second.point
        return _Candidate(pos, second.end, priority, "range", lambda y: _join(a, b, y), None)


_BARE_DAY = re.compile(rf"(?:the\s+)?{_DAY}", re.IGNORECASE)
_BARE_DAY_YEAR = re.compile(rf"(?:the\s+)?{_DAY}{_OPT_YEAR}", re.IGNORECASE)
_DASHED_DAYS = re.compile(rf"(?:{_MONTH}\.?\s+)?\d{{1,2}}(?:st|nd|rd|th)?\s*[-–—]\s*\d", re.IGNORECASE)
# what would make a number after a day something else than a second day: a month, a year, a time or a unit
_MORE_DATE = re.compile(rf"\s*(?:[/.:-]\d|(?:of\s+)?{_MONTH}|\d)|(?:\s+[a-z]+)?\s+(?:words?|characters?|chars|"
                        r"votes?|stars?|points?|percent)\b", re.IGNORECASE)


def _day_of_month(other: _Point, day: int) -> _Point | None:
    """The day `day` of the month `other` (a day) falls in, with its written year."""
    def bounds(y: int) -> Period:
        first = other.period(y)[0]
        return date(first.year, first.month, day), date(first.year, first.month, day)

    try:
        bounds(2001)  # (a day that no year has in that month, "30 Feb", is no date)
    except ValueError:
        return None
    return _Point("day", bounds, other.year, True)


_WEEK_OF = re.compile(r"(?:(?:in|during|over)\s+)?(?:the\s+)?week\s+"
                      r"(?P<how>of|(?:(?:that|which)\s+)?(?:start(?:s|ed|ing)|begin(?:s|ning)?|began|commenc(?:es|ed|ing)))"
                      r"(?:\s+on)?\s+(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)?", re.IGNORECASE)

_RULES: list[Callable[[_Scanner, int], _Candidate | None]] = [
    _Scanner.week_of,
    _Scanner.between,
    _Scanner.from_to,
    _Scanner.open_ended,
    _Scanner.lone_point,
]


def _select(candidates: list[_Candidate]) -> list[_Candidate]:
    """Leftmost, then longest, then highest-priority matches that do not overlap."""
    chosen: list[_Candidate] = []
    for cand in sorted(candidates, key=lambda c: (c.start, c.start - c.end, c.priority)):
        if not chosen or cand.start >= chosen[-1].end:
            chosen.append(cand)
    return chosen


def _extend_lists(scanner: _Scanner, chosen: list[_Candidate]) -> list[_Candidate]:
    """Add the weak list items after a lone point ("in 2022 and 2023": 2023 has no gate), and before a point whose
    year is written ("April, May and June 2024": the year gates the whole list)."""
    result: list[_Candidate] = []
    for index, cand in enumerate(chosen):
        limit = chosen[index + 1].start if index + 1 < len(chosen) else len(scanner.question)
        result += _items_before(scanner, cand, result[-1].end if result else 0)
        result.append(cand)
        while cand.point is not None:
            item = scanner.list_item(cand.end, cand.point)
            if item is None or item.end > limit:
                break
            result.append(item)
            cand = item
    return result


def _items_before(scanner: _Scanner, head: _Candidate, floor: int) -> list[_Candidate]:
    """The ungated points of the head's kind listed right before a lone point with a written year, left to right."""
    items: list[_Candidate] = []
    if head.point is None or head.point.year is None:
        return items
    q, end = scanner.question, head.start
    for word in reversed([w for w in _WORD_START.finditer(q, floor, end)]):
        found = scanner.point_at(word.start())
        if found is None or found.point.kind != head.point.kind or not _LIST_SEP.fullmatch(q, found.end, end):
            continue
        point = found.point
        items.insert(0, _Candidate(word.start(), found.end, 3, _POINT_GRANULARITY[point.kind], point.period, point))
        end = word.start()
    return items


def _fallback_years(question: str, items: list[_Candidate], default_year: int, today: date | None) -> list[int]:
    """The year for each item lacking one: the next list item's ("March and April 2023"), else the one year the
    question names elsewhere ("summer 2023 (june through august)"), else default; when default is `today`'s
    year, a period that would start after `today` is last year's ("in December" asked in June 2024 is December
    2023, the latest December there is)."""
    named = {item.point.year for item in items if item.point is not None and item.point.year is not None}
    if len(named) == 1:
        years = [next(iter(named))] * len(items)
    else:
        years = [default_year - 1 if today is not None and _starts_after(item, default_year, today) else default_year
                 for item in items]
    for i in range(len(items) - 2, -1, -1):
        left, right = items[i], items[i + 1]
        if left.point is None or right.point is None:
            continue
        if _LIST_SEP.fullmatch(question, left.end, right.start):
            years[i] = right.point.year if right.point.year is not None else years[i + 1]
    return years


def _starts_after(item: _Candidate, year: int, today: date) -> bool:
    try:
        return item.period(year)[0] > today
    except ValueError:  # 29 February in a year that has none
        return False


# "the last 30 days, and the 30 days before that": the window of that length that ends the day before the period
# named just before it
# (or "the 30 days before" ending its clause: "last 30 days vs the 30 days before?"; not "it": "the latest review
# date plus the 29 days before it")
_BEFORE_THAT = re.compile(rf"\b(?:(?:in|during|over|within)\s+)?(?:the\s+)?(?:(?:{_COUNT}|an?)\s+)?{_UNIT}\s+"
                          r"(?:(?:just|right|immediately)\s+)?(?:(?:before|prior\s+to|preceding)\s+(?:that|those|then)\b"
                          r"|before(?=\s*(?:$|[?.,;:)!]|-\s|\s(?:and|or|for|with|in|on|vs\.?)\b)))",
                          re.IGNORECASE)
# "the last 30 days compared with the previous 30 days": after another window, the one before it (alone, "the
# previous 30 days" is the last 30 days)
_PREVIOUS_WINDOW = re.compile(rf"\b(?:the\s+)?(?:previous|preceding|prior)\s+(?:{_COUNT}\s+)?{_UNIT}",
                              re.IGNORECASE)


def _periods_before_that(question: str, where: list[int], original: str,
                         found: list[DateRange]) -> list[DateRange]:
    """`found` with the periods said as "the N days before that" (see _BEFORE_THAT), each where it was said, and a
    "previous N days" read as the same window as the one named before it moved to just before it."""
    for before_that in (True, False):
        for m in (_BEFORE_THAT if before_that else _PREVIOUS_WINDOW).finditer(question):
            span = (where[m.start()], where[m.end()])
            earlier = [r for r in found if r.span[1] <= span[0]]
            count = _count(m) if m["n"] else 1
            said = [r for r in found if r.span[0] < span[1] and span[0] < r.span[1]]
            if not earlier or not count or earlier[-1].start == date.min:
                continue
            if not before_that and not (len(said) == 1 and (said[0].start, said[0].end) == (earlier[-1].start,
                                                                                           earlier[-1].end)):
                continue  # ("previous" read as the window before only where it repeated the window named before)
            if before_that and said:
                continue
            start = earlier[-1].start
            found = [r for r in found if r not in said]
            found.append(DateRange(_shift(start, m["unit"].lower(), -count), start - timedelta(days=1), "range",
                                   original[span[0]:span[1]], span))
    return sorted(found, key=lambda r: r.span)


# "the first six months of 2024 … the same stretch of 2023": the period named just before, in that year
# ("the second quarter of 2023 … the same quarter of 2024", "the same half of 2024")
_SAME_PERIOD = re.compile(rf"\b(?:the\s+)?same\s+(?:stretch|period|months?|weeks?|days|span|window|dates|part|quarter|"
                          rf"half|"
                          rf"time(?:\s+of\s+(?:the\s+)?year)?)\s+(?:of|in)\s+{_YEAR}", re.IGNORECASE)


def _same_period_in(question: str, where: list[int], original: str, found: list[DateRange]) -> list[DateRange]:
    """`found` with "the same stretch of 2023" read as the period named before it, moved to that year (in place of
    the whole year those words would be)."""
    for m in _SAME_PERIOD.finditer(question):
        span = (where[m.start()], where[m.end()])
        earlier = [r for r in found if r.span[1] <= span[0] and r.start != date.min and r.end != date.max]
        if not earlier or earlier[-1].start.year != earlier[-1].end.year:
            continue
        year = int(m["year"])
        try:
            start, end = earlier[-1].start.replace(year=year), earlier[-1].end.replace(year=year)
        except ValueError:  # (29 February)
            continue
        found = [r for r in found if not (r.span[0] < span[1] and span[0] < r.span[1])]
        found.append(DateRange(start, end, earlier[-1].granularity, original[span[0]:span[1]], span))
    return sorted(found, key=lambda r: r.span)


def find_date_ranges(question: str, *, today: date, default_year: int | None = None) -> list[DateRange]:
    """Non-overlapping matches, left to right. default_year is used when a month/day has no year
    (defaults to today's year); relative words are anchored on `today`, the newest row's date.
    """
    question, where = _years_in_digits(original := question)
    scanner = _Scanner(question, today)
    candidates = [
        cand
        for word in _WORD_START.finditer(question)
        for rule in _RULES
        if (cand := rule(scanner, word.start())) is not None
    ]
    items = _extend_lists(scanner, _select(candidates))
    years = (_fallback_years(question, items, today.year, today) if default_year is None
             else _fallback_years(question, items, default_year, None))
    found: list[DateRange] = []
    for item, year in zip(items, years, strict=True):
        try:
            start, end = item.period(year)
        except ValueError:  # 29 February in a year that has none
            continue
        # (positions in the question as written: "twenty twenty-three", "Q2 '23")
        span = (where[item.start], where[item.end])
        text = original[span[0] : span[1]]
        found.append(DateRange(start, end, item.granularity, text, span))
    found = _restated_in_brackets(original, _whole_units_restated(original, today, found))
    return _same_period_in(question, where, original, _periods_before_that(question, where, original, found))


_BRACKET_OPENS = re.compile(r"\s*\(\s*(?:i\.\s?e\.,?\s+|that\s+is,?\s+|so\s+|meaning\s+)?$", re.I)
_BRACKET_CLOSES = re.compile(r"\s*(?:inclusive\s*)?\)")


def _restated_in_brackets(question: str, found: list[DateRange]) -> list[DateRange]:
    """"Q1 2024 (January to March)", "H2 (i.e. July-December)": a period said again in brackets right after it is
    the same period, read with it (one range whose words include the brackets), not a second one."""
    merged: list[DateRange] = []
    for said in found:
        before = merged[-1] if merged else None
        closes = _BRACKET_CLOSES.match(question, said.span[1])
        if before and closes and _same_period(before, said) \
                and _BRACKET_OPENS.fullmatch(question, before.span[1], said.span[0]):
            span = (before.span[0], closes.end())
            merged[-1] = dataclasses.replace(before, text=question[span[0]:span[1]], span=span)
            continue
        merged.append(said)
    return merged


def _same_period(period: DateRange, again: DateRange) -> bool:
    """Whether `again` says `period` once more; without a year of its own ("(January to March)" after "Q1 2022"),
    in the year of `period` (it took today's)."""
    if (period.start, period.end) == (again.start, again.end):
        return True
    if re.search(r"\b(?:19|20)\d\d\b|'\d\d\b", again.text):
        return False
    years = period.start.year - again.start.year
    try:
        return (period.start, period.end) == (again.start.replace(year=again.start.year + years),
                                              again.end.replace(year=again.end.year + years))
    except ValueError:  # (29 February)
        return False


_ROLLING_SAID = re.compile(rf"(?:over\s+|in\s+|during\s+)?(?:the\s+)?(?:last|past|previous)\s+{_COUNT}\s+{_UNIT}",
                           re.I)


def _whole_units_restated(question: str, today: date, found: list[DateRange]) -> list[DateRange]:
    """"over the last 3 months? … the 3 whole calendar months up to and including the month of the latest review":
    a rolling window said again as that many whole units is the whole units (the newest row's own the last of
    them), and the words saying so are read with it (a second range of the same period)."""
    for index, said in enumerate(list(found)):
        rolling = _ROLLING_SAID.fullmatch(said.text)
        if not rolling or said.granularity != "relative":
            continue
        count, unit = rolling["n"], rolling["unit"].lower()
        again = re.search(rf"\b(?:the\s+)?{re.escape(count)}\s+(?:(?:calendar|full|whole|complete|entire)\s+){{1,2}}"
                          rf"{unit}s?\b(?:\s+up\s+to\s+and\s+including\s+(?:the\s+)?{unit}\s+of\s+(?:the\s+)?"
                          rf"(?:latest|newest|most\s+recent|last)(?:\s+[a-z]+){{0,2}})?", question, re.I)
        # ("… counting back from the newest ticket (its month plus the 2 months before)": the newest row's own unit
        # and the ones before it, as many in all)
        before = re.search(rf"\b(?:its|that|the\s+(?:latest|newest|last)(?:\s+[a-z]+)?['’]s)\s+{unit}\s+(?:plus|and|"
                           rf"\+)\s+(?:the\s+)?(?P<before>{WHOLE_NUMBER})\s+{unit}s?\s+(?:before|prior)"
                           rf"(?:\s+(?:it|that))?\b", question, re.I)
        if not again and before and number_value(before["before"]) == number_value(count) - 1:
            again = before
        if unit not in ("week", "month", "quarter", "year") or not again or (
                said.span[0] <= again.start() < said.span[1]):
            continue
        start = _unit_period(_shift(today, unit, -(int(number_value(count)) - 1)), unit)[0]
        found[index] = dataclasses.replace(said, start=start)
        found.append(DateRange(start, said.end, said.granularity, again.group(0), again.span()))
    return sorted(found, key=lambda r: r.span)
