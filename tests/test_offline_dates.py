"""Date conditions found in questions: exact days, months, years, ranges, open and relative ranges.

Timing, measured once and not asserted: the ~200 distinct questions quoted in this file, 200 rounds,
averaged 0.08 ms per question on the development container (0.65 ms for a 30-word question); no
dateparser call is made.
"""

from __future__ import annotations

from datetime import date

import pytest

from rag.understand.dates import DateRange, find_date_ranges, relative_labels

TODAY = date(2023, 6, 15)  # a Thursday: the newest row of an imaginary archive


def only(question: str, *, today: date = TODAY, default_year: int | None = None) -> DateRange:
    """The single range found in `question`."""
    found = find_date_ranges(question, today=today, default_year=default_year)
    assert len(found) == 1, found
    return found[0]


def period(question: str, *, today: date = TODAY, default_year: int | None = None) -> tuple[date, date, str]:
    found = only(question, today=today, default_year=default_year)
    return found.start, found.end, found.granularity


def d(text: str) -> date:
    return date.fromisoformat(text)


# --------------------------------------------------------------------------- exact days


@pytest.mark.parametrize(
    "question",
    [
        "on 17th apr 2023",
        "on April 17, 2023",
        "17 April 2023",
        "2023-04-17",
        "apr 17th 2023",
        "on the 17th of April 2023",
        "17/04/2023",
        "17.04.2023",
        "Apr. 17, 2023",
        "2023/04/17",
        "04/17/2023",  # day-first is impossible here, so month-first
    ],
)
def test_exact_day(question: str) -> None:
    assert period(question) == (d("2023-04-17"), d("2023-04-17"), "day")


def test_day_text_and_span_include_the_preposition() -> None:
    found = only("articles on 17th apr 2023 about rail")
    assert found.text == "on 17th apr 2023"
    assert found.span == (9, 25)


def test_day_without_year_uses_default_year() -> None:
    assert period("on May 17") == (d("2023-05-17"), d("2023-05-17"), "day")
    assert period("on 17 April", default_year=2020)[:2] == (d("2020-04-17"), d("2020-04-17"))


def test_a_year_referred_back_to_and_a_years_part_said_after_it() -> None:
    """"the last quarter of that year" after 2022 read the last quarter before today; "2022's last quarter" too."""
    found = find_date_ranges("Reviewing 2022: the average in the last quarter of that year?", today=TODAY)
    assert (found[-1].start, found[-1].end) == (d("2022-10-01"), d("2022-12-31"))
    assert found[-1].text.endswith("that year")
    assert period("avg rating for 2022's last quarter")[:2] == (d("2022-10-01"), d("2022-12-31"))


def test_impossible_days_are_ignored() -> None:
    assert find_date_ranges("on 31/02/2023", today=TODAY) == []
    assert find_date_ranges("on 29 February", today=TODAY) == []  # 2023 has no 29 February
    assert period("on 29 February", default_year=2024)[:2] == (d("2024-02-29"), d("2024-02-29"))


# --------------------------------------------------------------------------- months


@pytest.mark.parametrize(
    "question", ["in April 2023", "april 2023", "in apr 2023", "2023-04", "April of 2023"]
)
def test_whole_month(question: str) -> None:
    assert period(question) == (d("2023-04-01"), d("2023-04-30"), "month")


def test_month_without_year_uses_default_year_then_today() -> None:
    assert period("in April")[:2] == (d("2023-04-01"), d("2023-04-30"))
    assert period("in April", default_year=2019)[:2] == (d("2019-04-01"), d("2019-04-30"))


def test_period_without_year_is_the_latest_that_has_started_by_today() -> None:
    assert period("in June")[:2] == (d("2023-06-01"), d("2023-06-30"))  # today's month
    assert period("in December")[:2] == (d("2022-12-01"), d("2022-12-31"))  # December 2023 is still to come
    assert period("on 20 June")[:2] == (d("2022-06-20"), d("2022-06-20"))
    assert [(r.start, r.end) for r in find_date_ranges("in November and December", today=TODAY)] == [
        (d("2022-11-01"), d("2022-11-30")), (d("2022-12-01"), d("2022-12-31"))]
    assert period("in December", default_year=2023)[:2] == (d("2023-12-01"), d("2023-12-31"))  # a year was given


def test_leap_february() -> None:
    assert period("in February 2024")[:2] == (d("2024-02-01"), d("2024-02-29"))
    assert period("in February 2023")[:2] == (d("2023-02-01"), d("2023-02-28"))


def test_may_as_a_month_needs_a_day_year_or_preposition() -> None:
    assert period("in may")[:2] == (d("2023-05-01"), d("2023-05-31"))
    assert period("May 2023")[:2] == (d("2023-05-01"), d("2023-05-31"))
    assert period("May 17")[:2] == (d("2023-05-17"), d("2023-05-17"))


# --------------------------------------------------------------------------- years


@pytest.mark.parametrize(
    ("question", "text"),
    [
        ("in 2023", "in 2023"),
        ("during 2023", "during 2023"),
        ("from 2023", "from 2023"),
        ("the best stories of 2023", "of 2023"),
        ("articles published 2023", "2023"),  # "published" lets a bare year in but is not consumed
        ("in the year 2023", "in the year 2023"),
    ],
)
def test_whole_year(question: str, text: str) -> None:
    found = only(question)
    assert (found.start, found.end, found.granularity, found.text) == (
        d("2023-01-01"),
        d("2023-12-31"),
        "year",
        text,
    )


@pytest.mark.parametrize(
    "question",
    [
        "top 5",
        "1000 words",
        "over 800",
        "articles with more than 2000 words",
        "2023",  # a bare year with no preposition
        "the 1999 articles with most words",
        "search for 2000",
        "in 2000 words or fewer",
        "in 1850",  # outside 1900..2100
        "between 5 and 10 articles",
    ],
)
def test_numbers_that_are_not_years(question: str) -> None:
    assert find_date_ranges(question, today=TODAY) == []


# --------------------------------------------------------------------------- ranges


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        ("between March and May 2023", "2023-03-01", "2023-05-31"),
        ("from March to May 2023", "2023-03-01", "2023-05-31"),
        ("March to May 2023", "2023-03-01", "2023-05-31"),
        ("March–May 2023", "2023-03-01", "2023-05-31"),
        ("March - May 2023", "2023-03-01", "2023-05-31"),
        ("from March through May 2023", "2023-03-01", "2023-05-31"),
        ("between 1 March and 15 May 2023", "2023-03-01", "2023-05-15"),
        ("between 2020 and 2022", "2020-01-01", "2022-12-31"),
        ("from 2020 to 2022", "2020-01-01", "2022-12-31"),
        ("in 2020-2022", "2020-01-01", "2022-12-31"),
        ("from January 2023 to June 2023", "2023-01-01", "2023-06-30"),
        ("between March 2022 and May 2023", "2022-03-01", "2023-05-31"),
        ("between November and February 2023", "2022-11-01", "2023-02-28"),  # wraps back a year
        ("from November 2022 to February", "2022-11-01", "2023-02-28"),  # wraps forward a year
        ("from 2023-01-15 to 2023-02-10", "2023-01-15", "2023-02-10"),
        ("between Q1 and Q3 2022", "2022-01-01", "2022-09-30"),
        ("between 2022 and 2020", "2020-01-01", "2022-12-31"),  # reversed ends still cover both
        ("from 2020 to now", "2020-01-01", "2023-06-15"),
        ("from 2021 to date", "2021-01-01", "2023-06-15"),
        ("between March and May", "2023-03-01", "2023-05-31"),  # default year
    ],
)
def test_ranges(question: str, start: str, end: str) -> None:
    found = only(question)
    assert (found.start, found.end, found.granularity) == (d(start), d(end), "range")
    assert found.text == question


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        ("between 10 and 20 Feb 2024", "2024-02-10", "2024-02-20"),  # the month written once, after both days
        ("from the 3rd to the 9th of May 2023", "2023-05-03", "2023-05-09"),
        ("10-20 Feb 2022", "2022-02-10", "2022-02-20"),
        ("between Feb 10 and 20, 2022", "2022-02-10", "2022-02-20"),  # ... or after the first day
        ("Feb 10-20 2022", "2022-02-10", "2022-02-20"),
        ("from March 3 to 15", "2023-03-03", "2023-03-15"),
    ],
)
def test_two_days_of_one_month(question: str, start: str, end: str) -> None:
    found = only(question)
    assert (found.start, found.end, found.text) == (d(start), d(end), question)


def test_a_second_number_after_a_day_is_a_day_only_where_nothing_else_reads_it() -> None:
    assert find_date_ranges("the top 10 to 20 May articles", today=TODAY) == []  # no "from", no dash
    assert only("from March 3 to 15 words").text == "from March 3"
    assert only("between 5 and 31 June 2023").text == "June 2023"  # (no 31 June)
    assert find_date_ranges("articles between 1000 and 2000 words", today=TODAY) == []


def test_range_needs_a_year_or_a_preposition() -> None:
    assert find_date_ranges("may to june", today=TODAY) == []
    assert find_date_ranges("scores 2020-2022", today=TODAY) == []


# --------------------------------------------------------------------------- quarters, halves, decades


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        ("Q1 2023", "2023-01-01", "2023-03-31"),
        ("in Q4 of 2022", "2022-10-01", "2022-12-31"),
        ("2023 Q2", "2023-04-01", "2023-06-30"),
        ("in the first quarter of 2023", "2023-01-01", "2023-03-31"),
        ("the last quarter of 2022", "2022-10-01", "2022-12-31"),
        ("first half of 2023", "2023-01-01", "2023-06-30"),
        ("the second half of 2022", "2022-07-01", "2022-12-31"),
        ("H2 2022", "2022-07-01", "2022-12-31"),
        ("during the first half of March 2024", "2024-03-01", "2024-03-15"),
        ("in the second half of February 2024", "2024-02-16", "2024-02-29"),
        ("over the winter of 2023/24", "2023-12-01", "2024-02-29"),
        ("in the winter 2022-2023", "2022-12-01", "2023-02-28"),
        ("during summer 2022", "2022-06-01", "2022-08-31"),
        ("in Q3", "2022-07-01", "2022-09-30"),  # no year: the latest Q3 that has started by today
        ("in the 1990s", "1990-01-01", "1999-12-31"),
    ],
)
def test_quarters_halves_and_decades(question: str, start: str, end: str) -> None:
    assert period(question) == (d(start), d(end), "range")


def test_spelled_out_halves_and_quarters_need_a_year() -> None:
    assert find_date_ranges("goals in the first half", today=TODAY) == []
    assert find_date_ranges("scored in the third quarter", today=TODAY) == []
    assert find_date_ranges("Q3", today=TODAY) == []  # bare, without a preposition


# --------------------------------------------------------------------------- open ranges


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        ("since 2020", "2020-01-01", None),
        ("after 2020", "2021-01-01", None),
        ("before 2020", None, "2019-12-31"),
        ("prior to 2013", None, "2012-12-31"),
        ("predate 2023", None, "2022-12-31"),
        ("post-dates March 2023", "2023-04-01", None),
        ("after March 2023", "2023-04-01", None),
        ("since March 2023", "2023-03-01", None),
        ("until May 2023", None, "2023-05-31"),
        ("up to May 2023", None, "2023-05-31"),
        ("after 17 April 2023", "2023-04-18", None),
        ("before 17 April 2023", None, "2023-04-16"),
        ("from 2020 onwards", "2020-01-01", None),
        ("from March 2023 on", "2023-03-01", None),  # (it was March 2023 alone)
        ("starting from June 2022", "2022-06-01", None),
        ("since last year", "2022-01-01", None),
        ("since May", "2023-05-01", None),
    ],
)
def test_open_ranges(question: str, start: str | None, end: str | None) -> None:
    expected_start = d(start) if start else date.min
    expected_end = d(end) if end else date.max
    assert period(question) == (expected_start, expected_end, "open")
    assert only(question).text == question


# --------------------------------------------------------------------------- relative to the newest row


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        # counted windows and "past"/"the last": rolling, ending on today, N units back plus one day
        ("last 6 months", "2022-12-16", "2023-06-15"),
        ("past six months", "2022-12-16", "2023-06-15"),
        ("in the last 6 months", "2022-12-16", "2023-06-15"),
        ("over the past twelve months", "2022-06-16", "2023-06-15"),
        ("past 7 days", "2023-06-09", "2023-06-15"),
        ("last 30 days", "2023-05-17", "2023-06-15"),
        ("in the past week", "2023-06-09", "2023-06-15"),
        ("in the last month", "2023-05-16", "2023-06-15"),
        ("in the past year", "2022-06-16", "2023-06-15"),
        ("for the past two weeks", "2023-06-02", "2023-06-15"),
        # counts in words past ninety, as the planner reads them ("the last 120 days" was no date in words)
        ("in the last hundred and twenty days", "2023-02-16", "2023-06-15"),
        ("the past one hundred twenty days", "2023-02-16", "2023-06-15"),
        ("in the last 120 days", "2023-02-16", "2023-06-15"),
        ("the last twenty-four months", "2021-06-16", "2023-06-15"),
        # bare "last"/"previous": the previous calendar unit
        ("last month", "2023-05-01", "2023-05-31"),
        ("last year", "2022-01-01", "2022-12-31"),
        ("last week", "2023-06-05", "2023-06-11"),  # Monday..Sunday
        ("the previous quarter", "2023-01-01", "2023-03-31"),
        # "this": from the unit's first day to today
        ("this month", "2023-06-01", "2023-06-15"),
        ("this year", "2023-01-01", "2023-06-15"),
        ("this week", "2023-06-12", "2023-06-15"),
        # ("this year so far" read 'this year' and left "so far" to be searched as the topic 'far')
        ("this year so far", "2023-01-01", "2023-06-15"),
        ("so far this month", "2023-06-01", "2023-06-15"),
        ("year to date", "2023-01-01", "2023-06-15"),
        # single days and "ago": whole calendar units
        ("yesterday", "2023-06-14", "2023-06-14"),
        ("today", "2023-06-15", "2023-06-15"),
        ("2 years ago", "2021-01-01", "2021-12-31"),
        ("a month ago", "2023-05-01", "2023-05-31"),
        ("three days ago", "2023-06-12", "2023-06-12"),
    ],
)
def test_relative_ranges_anchor_on_today(question: str, start: str, end: str) -> None:
    assert period(question) == (d(start), d(end), "relative")
    assert only(question).text == question


def test_last_calendar_units_are_whole_units() -> None:
    """"the last three calendar months of the data" was read as "the last three" rows."""
    assert period("the last three calendar months of the data")[:2] == (d("2023-04-01"), d("2023-06-15"))
    assert period("last calendar month")[:2] == (d("2023-05-01"), d("2023-05-31"))  # (as "last month")


def test_a_window_counted_back_from_the_newest_row() -> None:
    assert period("going back 28 days from the most recent ticket in the data")[:2] == (d("2023-05-19"), TODAY)
    assert period("counting back three weeks from our most recent article")[:2] == (d("2023-05-26"), TODAY)


def test_a_number_before_last_year_is_not_a_count_of_years() -> None:
    today = date(2023, 6, 27)
    for text in ("a pre-tax loss of $6.3 million last year", "sales of 3 million last year"):
        [found] = find_date_ranges(text, today=today)
        assert (found.text, found.start, found.end) == ("last year", date(2022, 1, 1), date(2022, 12, 31))
    [found] = find_date_ranges("the two last weeks", today=today)  # (a count before the word, plural: a window)
    assert (found.start, found.end) == (date(2023, 6, 14), today)


@pytest.mark.parametrize("text", ["the last 3 million years", "in the last 10000 years", "the last 10000000 days"])
def test_a_window_longer_than_the_calendar_is_all_of_time_not_a_crash(text: str) -> None:
    [found] = find_date_ranges(text, today=date(2023, 6, 27))
    assert found.start <= date(1, 1, 2) and found.end == date(2023, 6, 27)


def test_relative_months_clamp_at_month_end() -> None:
    assert period("last 1 month", today=date(2023, 3, 31))[:2] == (d("2023-03-01"), d("2023-03-31"))
    assert period("last month", today=date(2023, 1, 10))[:2] == (d("2022-12-01"), d("2022-12-31"))


def test_relative_uses_the_given_today_not_the_wall_clock() -> None:
    assert period("last year", today=date(2009, 2, 1))[:2] == (d("2008-01-01"), d("2008-12-31"))


@pytest.mark.parametrize(
    "question",
    ["recent articles about trade", "what was recently said", "articles from USA Today", "past months"],
)
def test_vague_words_are_not_dates(question: str) -> None:
    assert find_date_ranges(question, today=TODAY) == []


# --------------------------------------------------------------------------- several conditions and lists


def test_two_separate_years() -> None:
    question = "in 2022 and in 2023"
    found = find_date_ranges(question, today=TODAY)
    assert [(r.start.year, r.end.year, r.text) for r in found] == [
        (2022, 2022, "in 2022"),
        (2023, 2023, "in 2023"),
    ]
    assert question[found[0].span[1] : found[1].span[0]] == " and "


def test_list_items_without_their_own_preposition() -> None:
    found = find_date_ranges("in 2020, 2021 or 2022", today=TODAY)
    assert [r.text for r in found] == ["in 2020", "2021", "2022"]
    assert [r.start.year for r in found] == [2020, 2021, 2022]


def test_months_listed_after_for() -> None:
    """"the number of reviews per month for April, May and June 2024" read only June ('for' gated no month, and a
    bare 'May' after a comma was taken for the verb)."""
    found = find_date_ranges("reviews per month for April, May and June 2022", today=TODAY)
    assert [(r.text, r.start) for r in found] == [("for April", d("2022-04-01")), ("May", d("2022-05-01")),
                                                  ("June 2022", d("2022-06-01"))]
    assert find_date_ranges("for may I ask", today=TODAY) == []
    assert only("words for January-June 2023").text == "for January-June 2023"  # (a range after 'for' stays one)
    assert [r.text for r in find_date_ranges("in March, may I ask", today=TODAY)] == ["in March"]


def test_an_ungated_list_before_a_written_year() -> None:
    """"I mean April, May and June 2024" read only June: the written year gates the whole list before it (but no
    other kind of point, and nothing not joined by a list word)."""
    found = find_date_ranges("I mean April, May and June 2022", today=TODAY)
    assert [(r.text, r.start) for r in found] == [("April", d("2022-04-01")), ("May", d("2022-05-01")),
                                                  ("June 2022", d("2022-06-01"))]
    assert [r.text for r in find_date_ranges("April then June 2022", today=TODAY)] == ["June 2022"]
    assert [r.text for r in find_date_ranges("2021 and June 2022", today=TODAY)] == ["June 2022"]
    assert [r.text for r in find_date_ranges("we may and June 2022", today=TODAY)] == ["may", "June 2022"]


def test_list_lends_the_year_backwards() -> None:
    found = find_date_ranges("in March and April 2022", today=TODAY)
    assert [(r.start, r.end) for r in found] == [
        (d("2022-03-01"), d("2022-03-31")),
        (d("2022-04-01"), d("2022-04-30")),
    ]


def test_list_does_not_take_a_modal_may_after_a_comma() -> None:
    found = find_date_ranges("in March, may I ask about floods", today=TODAY)
    assert [r.text for r in found] == ["in March"]


def test_mixed_conditions_left_to_right() -> None:
    found = find_date_ranges("sport since 2020 but before March 2023", today=TODAY)
    assert [(r.text, r.granularity) for r in found] == [("since 2020", "open"), ("before March 2023", "open")]


# --------------------------------------------------------------------------- spans leave the topic words


def _remove(question: str, found: list[DateRange]) -> str:
    for item in reversed(found):
        question = question[: item.span[0]] + question[item.span[1] :]
    return " ".join(question.split())


def test_span_removes_only_the_date_words() -> None:
    question = "technology articles about crypto in 2023"
    found = find_date_ranges(question, today=TODAY)
    assert found[0].text == "in 2023"
    assert _remove(question, found) == "technology articles about crypto"


def test_span_of_a_leading_range() -> None:
    question = "between March and May 2023, anything about Mother's Day in fashion?"
    found = find_date_ranges(question, today=TODAY)
    assert found[0].span == (0, len("between March and May 2023"))
    assert _remove(question, found) == ", anything about Mother's Day in fashion?"


def test_spans_match_text() -> None:
    question = "Show fashion news from last 6 months and politics on 2023-04-17"
    for item in find_date_ranges(question, today=TODAY):
        assert question[item.span[0] : item.span[1]] == item.text


# --------------------------------------------------------------------------- no false positives


@pytest.mark.parametrize(
    "question",
    [
        "may I ask about children",
        "what may happen to prices",
        "march of the penguins",
        "protest march in the capital",
        "top 10 articles",
        "average word count",
        "what happened in politics",
        "articles by June Park",
        "articles by April Jones about health",
        "the top 3 may be enough",
        "how many articles per category",
        "",
    ],
)
def test_no_false_positives(question: str) -> None:
    assert find_date_ranges(question, today=TODAY) == []


def test_case_does_not_matter() -> None:
    assert period("IN APRIL 2023")[:2] == (d("2023-04-01"), d("2023-04-30"))
    assert period("Between March And May 2023")[:2] == (d("2023-03-01"), d("2023-05-31"))


def test_result_is_immutable() -> None:
    found = only("in 2023")
    with pytest.raises(AttributeError):
        found.start = date(2000, 1, 1)  # type: ignore[misc]


@pytest.mark.parametrize(("question", "start", "end"), [
    ("reviews in 2023 or later", date(2023, 1, 1), date.max),
    ("from March 2023 or after", date(2023, 3, 1), date.max),
    ("posts in 2021 or earlier", date.min, date(2021, 12, 31)),
    ("during May 2022 and before", date.min, date(2022, 5, 31)),
    # (no gate before a year or a month of a year: "supply agreements signed 2023 or later" read 2023 alone)
    ("supply agreements signed 2023 or later", date(2023, 1, 1), date.max),
    ("contracts 2022 or earlier", date.min, date(2022, 12, 31)),
    ("export issues opened apr 2024 or later", date(2024, 4, 1), date.max),
])
def test_a_point_with_or_later_or_earlier_is_open_ended(question: str, start: date, end: date) -> None:
    [found] = find_date_ranges(question, today=date(2024, 6, 30))
    assert (found.start, found.end) == (start, end)


@pytest.mark.parametrize(("question", "start", "end"), [
    ("tickets opened in the week of 15 May 2024", date(2024, 5, 13), date(2024, 5, 19)),
    ("articles in the week starting Monday 17 April 2023", date(2023, 4, 17), date(2023, 4, 23)),
])
def test_the_week_of_a_day(question: str, start: date, end: date) -> None:
    [found] = find_date_ranges(question, today=date(2024, 6, 30))
    assert (found.start, found.end) == (start, end)


@pytest.mark.parametrize(("question", "start", "end"), [
    ("tickets opened in the second quarter of this year", "2023-04-01", "2023-06-30"),
    ("the first half of last year", "2022-01-01", "2022-06-30"),
    ("in the fourth quarter of the previous year", "2022-10-01", "2022-12-31"),
    ("the first half of the year", "2023-01-01", "2023-06-30"),
])
def test_spelled_quarters_and_halves_of_a_relative_year(question: str, start: str, end: str) -> None:
    """"the second quarter of this year" named the year only through 'this year': the quarter was dropped and the
    whole year (to the newest row) counted, with 'second', 'quarter' listed as not used."""
    assert period(question)[:2] == (d(start), d(end))


def test_a_fortnight_is_fourteen_days() -> None:
    """"the last fortnight" was searched for in the text."""
    assert period("articles from the last fortnight")[:2] == (d("2023-06-02"), d("2023-06-15"))
    assert period("a fortnight ago")[:2] == (d("2023-05-19"), d("2023-06-01"))


def test_older_than_an_age() -> None:
    """"open tickets older than 30 days": rows dated before the day 30 days before the newest row (was a text
    search for 'older 30 days')."""
    assert period("open tickets older than 30 days")[:2] == (date.min, d("2023-05-15"))
    assert period("tickets more than two weeks old")[:2] == (date.min, d("2023-05-31"))


@pytest.mark.parametrize(("question", "start", "end"), [
    ("Which brands got through 2024 without a single one-star review?", "2024-01-01", "2024-12-31"),
    ("made it through March 2023 without a complaint", "2023-03-01", "2023-03-31")])
def test_living_through_a_period_is_the_period(question: str, start: str, end: str) -> None:
    """"got through 2024" is during 2024 ("through 2024" alone is until its end)."""
    assert period(question)[:2] == (d(start), d(end))
    assert period("sales through 2024")[:2] == (date.min, d("2024-12-31"))


@pytest.mark.parametrize(("question", "start", "end"), [
    ("tickets since the start of May 2023", "2023-05-01", None),
    ("until the end of 2022", None, "2022-12-31"),
    ("before the beginning of March 2023", None, "2023-02-28")])
def test_the_start_or_end_of_a_period_bounds_an_open_range(question: str, start: str | None, end: str | None) -> None:
    """"since the start of May" was no date at all (every row counted)."""
    assert period(question) == (d(start) if start else date.min, d(end) if end else date.max, "open")


@pytest.mark.parametrize(("question", "year", "text"), [
    ("Which quarter of twenty twenty-three saw the most?", 2023, "of twenty twenty-three"),
    ("reviews from nineteen ninety-nine", 1999, "from nineteen ninety-nine"),
    ("what ran in two thousand and five", 2005, "in two thousand and five"),
])
def test_a_year_written_in_words(question: str, year: int, text: str) -> None:
    """The year in words is that year, its words the span ("twenty twenty-three" was no date: every quarter of
    every year was ranked)."""
    found = only(question)
    assert (found.start, found.end, found.text) == (date(year, 1, 1), date(year, 12, 31), text)


def test_two_thousand_alone_is_a_number_not_a_year() -> None:
    assert find_date_ranges("articles of two thousand words", today=TODAY) == []


@pytest.mark.parametrize(("question", "start"), [
    ("In the final four weeks of data, how many", date(2023, 5, 19)),
    ("the latest 3 months", date(2023, 3, 16)),
    ("in the most recent 30 days", date(2023, 5, 17)),
    ("In the three months up to our most recent article, which desk", date(2023, 3, 16)),
])
def test_windows_that_end_on_the_newest_row(question: str, start: date) -> None:
    """"final", "latest", "most recent" and "up to our newest article" are rolling windows like "the last"."""
    first, end, _ = period(question)
    assert (first, end) == (start, TODAY)


@pytest.mark.parametrize(("question", "start", "end"), [
    ("How many tickets were received this spring?", date(2023, 3, 1), date(2023, 5, 31)),
    ("Break down this spring's tickets", date(2023, 3, 1), date(2023, 5, 31)),
    ("this summer", date(2023, 6, 1), TODAY),
    ("last summer", date(2022, 6, 1), date(2022, 8, 31)),
])
def test_this_and_last_season(question: str, start: date, end: date) -> None:
    """"this spring" is the newest spring begun by the newest row (it was no date: every ticket was counted)."""
    found = only(question)
    assert (found.start, found.end) == (start, end)


@pytest.mark.parametrize(("question", "start", "text"), [
    ("avg length per desk, Q2 '23, longest first", date(2023, 4, 1), "Q2 '23"),
    ("anything from May '22 tied to Mother's Day?", date(2022, 5, 1), "from May '22"),
])
def test_a_year_written_with_an_apostrophe(question: str, start: date, text: str) -> None:
    found = only(question)
    assert (found.start, found.text) == (start, text)


def test_a_quarter_or_half_with_a_two_digit_year() -> None:
    """"H1 24 vs H1 23" was no date (a search); "in Q1 24 tickets came in" keeps 24 a number of tickets."""
    found = find_date_ranges("H1 24 vs H1 23 review volume", today=TODAY)
    assert [(r.start, r.end) for r in found] == [(date(2024, 1, 1), date(2024, 6, 30)),
                                                 (date(2023, 1, 1), date(2023, 6, 30))]
    assert [r.start for r in find_date_ranges("how many reviews in Q3 22?", today=TODAY)] == [date(2022, 7, 1)]
    assert all(r.start.year != 2024 for r in find_date_ranges("in Q1 24 tickets came in", today=TODAY))


def test_a_month_with_a_two_digit_year_after_in() -> None:
    """"put out in march 23" read 23 March (0 articles); "on March 23" and "in March 23rd" stay days."""
    found = only("how many pieces did we put out in march 23?")
    assert (found.start, found.end) == (date(2023, 3, 1), date(2023, 3, 31))
    assert (only("anything published on March 23, 2023?").start, only("on March 23rd 2023").end) == (
        date(2023, 3, 23), date(2023, 3, 23))


def test_pre_and_post_before_a_year() -> None:
    """"the pre-2023 archive" was 2023 itself ('pre' not used)."""
    assert [(r.start, r.end) for r in find_date_ranges("the pre-2020 articles", today=TODAY)] == [
        (date.min, date(2019, 12, 31))]
    assert only("anything post-2021?").start == date(2022, 1, 1)
    assert find_date_ranges("1999 articles", today=TODAY) == []  # a count, not a year


def test_a_decade_with_an_apostrophe_is_no_year() -> None:
    assert find_date_ranges("music from the '90s", today=TODAY) == []


def test_two_month_names_joined_by_a_range_word_take_the_questions_year() -> None:
    """"summer 2023 (june through august)": June to August 2023 (it read "until August 2024", 'june' a topic), read
    with the summer it restates; "may to june" stays words ("may" is a verb as often as a month)."""
    found = find_date_ranges("five-star reviews over summer 2023 (june through august)?", today=TODAY)
    assert [(r.start, r.end, r.text) for r in found] == [
        (date(2023, 6, 1), date(2023, 8, 31), "over summer 2023 (june through august)")]
    assert find_date_ranges("may to june", today=TODAY) == []


@pytest.mark.parametrize(("question", "second"), [
    ("the last 30 days, and the 30 days before that", (d("2023-04-17"), d("2023-05-16"))),
    ("in May 2023 vs the month before that", (d("2023-04-01"), d("2023-04-30"))),
    ("between 3 and 9 June, and the week prior to that", (d("2023-05-27"), d("2023-06-02"))),
])
def test_a_period_before_the_one_named_just_before(question: str, second: tuple[date, date]) -> None:
    """"… in the last 30 days, and how many in the 30 days before that?" found only the first period (probe 58):
    that many units ending the day before the period said just before it."""
    found = find_date_ranges(question, today=TODAY)
    assert len(found) == 2 and (found[1].start, found[1].end) == second
    assert found[1].text.endswith("before that") or found[1].text.endswith("prior to that")


@pytest.mark.parametrize("question", [
    "articles in the last 30 days vs the 30 days before",
    "how many in the last 30 days compared with the previous 30 days?",
    "the last 30 days vs the preceding 30 days",
])
def test_a_window_said_as_before_or_previous_after_another_is_the_one_before_it(question: str) -> None:
    """"… vs the 30 days before" (no "that") and "… compared with the previous 30 days" read as the last 30 days
    again (the same window twice, or a text match on the words): after another window, the one just before it."""
    found = find_date_ranges(question, today=TODAY)
    assert [(r.start, r.end) for r in found] == [(d("2023-05-17"), TODAY), (d("2023-04-17"), d("2023-05-16"))]


def test_the_previous_window_alone_is_the_last_one() -> None:
    """Without a window before it, "the previous 30 days" is the 30 days up to the newest row."""
    found = find_date_ranges("how many in the previous 30 days", today=TODAY)
    assert [(r.start, r.end) for r in found] == [(d("2023-05-17"), TODAY)]


def test_days_before_it_are_no_period_before_the_one_named() -> None:
    """"the last 30 days - i.e. the latest review date plus the 29 days before it": 'it' is the newest day, the
    window the same one (dev p43), not a second period."""
    found = find_date_ranges("over the last 30 days - i.e. the latest review date plus the 29 days before it",
                             today=TODAY)
    assert [(r.start, r.end) for r in found] == [(d("2023-05-17"), TODAY)]


@pytest.mark.parametrize(("question", "periods"), [
    ("the first six months of 2024", [("2024-01-01", "2024-06-30")]),
    ("the last three months of 2022", [("2022-10-01", "2022-12-31")]),
    ("the final 10 days of March 2023", [("2023-03-22", "2023-03-31")]),
    ("the first two weeks of 2023", [("2023-01-01", "2023-01-14")]),
    ("in the first six months of 2023 compared with the same stretch of 2022",
     [("2023-01-01", "2023-06-30"), ("2022-01-01", "2022-06-30")]),
    ("March 2023 vs the same month in 2021", [("2023-03-01", "2023-03-31"), ("2021-03-01", "2021-03-31")]),
])
def test_the_first_or_last_units_of_a_year_and_the_same_stretch_of_another(
        question: str, periods: list[tuple[str, str]]) -> None:
    """Probe 58: "the first six months of 2024 compared with the same stretch of 2023" read the whole of 2024 and
    2023; "the last three months of 2023" was the newest three months and 2023 (no row has both)."""
    found = find_date_ranges(question, today=TODAY)
    assert [(r.start.isoformat(), r.end.isoformat()) for r in found] == periods


def test_through_a_year_after_unit_by_unit_is_across_it() -> None:
    """"For the electronics quarterly review: quarter by quarter through 2023, how many helpful votes …" read "until
    2023-12-31" (probe 58): after "quarter by quarter" the year is the one gone through; alone, "through" ends a
    range."""
    assert period("quarter by quarter through 2022, how many articles?") == (d("2022-01-01"), d("2022-12-31"), "year")
    assert only("articles through March 2023").start == date.min


def test_the_next_units_after_the_newest_row() -> None:
    """Periods after the newest row (`today`), for what ends later than it starts (a contract's end): "the next 90
    days" and "the coming three months" start the day after; "next month" is the next calendar month."""
    def span(question: str) -> tuple[str, str]:
        found = only(question, today=TODAY)
        return found.start.isoformat(), found.end.isoformat()

    assert span("ending in the next 90 days") == ("2023-06-16", "2023-09-13")
    assert span("in the coming three months") == ("2023-06-16", "2023-09-15")
    assert span("next month") == ("2023-07-01", "2023-07-31")
    assert span("next quarter") == ("2023-07-01", "2023-09-30")
    assert find_date_ranges("next quarter's staffing plan", today=TODAY) == []  # (a possessive names no period)


def test_periods_counted_back_from_the_newest_row_are_named_so() -> None:
    """"the last 8 wks vs the 8 wks before that" named its rows by their dates (a reader, and a reference, says "last
    8 weeks" / "previous 8 weeks"); periods of another kind keep their dates."""
    today = date(2024, 9, 30)
    months = [(date(2024, 3, 31), date(2024, 9, 30)), (date(2023, 9, 30), date(2024, 3, 30))]
    assert relative_labels(months, today, "in the last six months vs the six months before that") == [
        "last 6 months", "previous 6 months"]
    weeks = [(date(2024, 8, 6), date(2024, 9, 30)), (date(2024, 6, 11), date(2024, 8, 5))]
    assert relative_labels(weeks, today, "last 8 wks vs the 8 wks before") == ["last 8 weeks", "previous 8 weeks"]
    quarters = [(date(2024, 4, 1), date(2024, 6, 30)), (date(2024, 7, 1), date(2024, 9, 30))]
    assert relative_labels(quarters, today, "Q2 vs Q3 2024") is None  # (no unit counted back)
    assert relative_labels(weeks[:1] + [(date(2024, 6, 1), date(2024, 8, 5))], today, "8 weeks") is None


def test_a_rolling_window_said_again_as_whole_months_is_the_whole_months() -> None:
    """"over the last 3 months? … the 3 whole calendar months up to and including the month of the latest review"
    counted from 31 March (a rolling window): said again as whole months, April to June; both phrases read."""
    found = find_date_ranges("how many 1 star reviews came in over the last 3 months? count back from the newest "
                             "review: the 3 whole calendar months up to and including the month of the latest review "
                             "date", today=date(2024, 6, 30))
    assert [(r.start, r.end) for r in found] == [(date(2024, 4, 1), date(2024, 6, 30))] * 2
    assert found[1].text.startswith("the 3 whole calendar months")
    # (said once, the window rolls: three months back from the newest day)
    assert [(r.start, r.end) for r in find_date_ranges("reviews over the last 3 months", today=date(2024, 6, 30))] == [
        (date(2024, 3, 31), date(2024, 6, 30))]


def test_a_period_restated_in_brackets_is_read_once_with_its_brackets() -> None:
    """"Q1 2024 (January to March)" was two periods, the second read apart from the first (a change "from Q1 2024
    (January to March) to Q2 2024 (April to June)" was not seen); a bracket holding another period stays apart."""
    found = find_date_ranges("from Q1 2024 (January to March) to Q2 2024 (i.e. April-June)?", today=date(2024, 9, 30))
    assert [(r.text, r.start, r.end) for r in found] == [
        ("from Q1 2024 (January to March)", date(2024, 1, 1), date(2024, 3, 31)),
        ("Q2 2024 (i.e. April-June)", date(2024, 4, 1), date(2024, 6, 30))]
    apart = find_date_ranges("Q1 2024 (and March 2023)", today=date(2024, 9, 30))
    assert [(r.start, r.end) for r in apart] == [(date(2024, 1, 1), date(2024, 3, 31)), (date(2023, 3, 1),
                                                                                          date(2023, 3, 31))]


def test_a_rolling_window_said_again_as_the_newest_rows_unit_and_those_before() -> None:
    """"over the last 3 months, counting back from the newest ticket in the table (its month plus the 2 months
    before)" read a second period two months before the window: the newest row's month and the two before it are
    the three whole months (a count that does not add up stays apart)."""
    found = find_date_ranges("urgent tickets over the last 3 months, counting back from the newest ticket in the "
                             "table (its month plus the 2 months before)", today=date(2024, 6, 28))
    assert [(r.start, r.end) for r in found] == [(date(2024, 4, 1), date(2024, 6, 28))] * 2
    apart = find_date_ranges("tickets over the last 3 months (its month plus the 5 months before)",
                             today=date(2024, 6, 28))
    assert apart[0].start == date(2024, 3, 29)  # (the rolling window)


def test_a_year_with_an_apostrophe_joined_to_another() -> None:
    """"tot. contract val signed in '23 vs '22" read 2023 only: the second year, joined to the first, is a year too
    (a decade, "the '80s vs '90s", is none)."""
    found = find_date_ranges("contract value signed in '23 vs '22", today=TODAY)
    assert [(r.start.year, r.text) for r in found] == [(2023, "in '23"), (2022, "'22")]
    assert find_date_ranges("music of the '80s vs '90s", today=TODAY) == []
