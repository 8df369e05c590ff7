"""Grammar that covers what people ask, on a table whose names share nothing with the sample: comparisons,
days of the week, quarters, yes/no columns, shares of a stated whole, rankings of a dimension's values.
Expected answers are computed here in Python from the same rows, independently of the SQL builder."""

from __future__ import annotations

import sqlite3
from collections import Counter
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal

import pytest

from rag.data.source import TableSource
from rag.understand.planner import Planner
from rag.understand.text_to_sql import SQLBuilder

BRANDS = ["Kessler & Vogt", "Nord-Lys", "St. Alder", "H&N"]
DEPARTMENTS = ["Home & Kitchen", "Garden & Patio", "Toys & Games"]
NAMES = ["Ana Ruiz", "Ben Ode", "Cleo Marsh", "Dev Patel", "Eli Stone", "Fay Wong", "Gus Lind", "Hana Sato"]


def make_rows() -> list[dict[str, object]]:
    start = date(2023, 1, 2)
    return [{"review_id": f"R-{i:04d}", "headline": f"Headline {i}", "review_text": f"Review body {i}. " * 20,
             "brand": BRANDS[i % 4], "department": DEPARTMENTS[(i // 4) % 3], "rating": 1 + (i * 7) % 5,
             "verified_purchase": int(i % 3 != 0), "reviewer": NAMES[i % len(NAMES)],
             "reviewed_on": (start + timedelta(days=(i * 5) % 500)).isoformat()} for i in range(240)]


ROWS = make_rows()


@pytest.fixture(scope="module")
def ask(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201 - a closure over the table
    db = tmp_path_factory.mktemp("grammar") / "reviews.db"
    columns = list(ROWS[0])
    with sqlite3.connect(db) as connection:
        connection.execute("CREATE TABLE reviews (" + ", ".join(
            f"{c} {'INTEGER' if isinstance(ROWS[0][c], int) else 'TEXT'}" for c in columns) + ")")
        connection.executemany(f"INSERT INTO reviews VALUES ({', '.join('?' * len(columns))})",
                               [[r[c] for c in columns] for r in ROWS])
    connection.close()
    source = TableSource(f"sqlite:///{db}", "reviews")
    planner = Planner("reviews", source.roles, source.profile())
    builder = SQLBuilder("reviews", source.roles, source.profile(), columns=list(source.columns))

    def run(question: str) -> list[tuple[object, ...]]:
        return [tuple(r) for r in source.run_select(builder.answer_sql(planner.plan(question))).rows]

    run.planner = planner  # type: ignore[attr-defined]
    return run


def weekday(row: dict[str, object]) -> int:  # 0 = Sunday, as SQL
    return (date.fromisoformat(str(row["reviewed_on"])).weekday() + 1) % 7


def test_roles_of_the_table(ask) -> None:  # noqa: ANN001
    roles = ask.planner.roles
    assert (roles.title, roles.content, roles.authors, roles.date) == ("headline", "review_text", "reviewer",
                                                                      "reviewed_on")
    assert set(roles.categorical) == {"brand", "department"}
    assert "verified_purchase" in ask.planner.vocab.flags.values()


def test_comparison_of_named_values_is_one_row_each(ask) -> None:  # noqa: ANN001
    counts = Counter(r["brand"] for r in ROWS if r["brand"] in ("Kessler & Vogt", "Nord-Lys"))
    for question in ("Kessler & Vogt vs Nord-Lys: number of reviews", "compare kessler and vogt and nord lys",
                     "Which had more reviews, Nord-Lys or Kessler & Vogt?"):
        assert sorted(ask(question)) == sorted(counts.items()), question


def test_weekend_and_weekday_conditions(ask) -> None:  # noqa: ANN001
    in_2023 = [r for r in ROWS if str(r["reviewed_on"]).startswith("2023")]
    assert ask("How many reviews were posted on weekends in 2023?") == [
        (sum(weekday(r) in (0, 6) for r in in_2023),)]
    assert ask("How many reviews on a Sunday?") == [(sum(weekday(r) == 0 for r in ROWS),)]
    assert ask("how many reviews on weekdays") == [(sum(weekday(r) in range(1, 6) for r in ROWS),)]


def test_weekends_compared_with_weekdays_are_two_groups(ask) -> None:  # noqa: ANN001
    """"at the weekend … than Monday to Friday" split the rows by each day of the week."""
    parts = Counter("weekend" if weekday(r) in (0, 6) else "weekday" for r in ROWS)
    assert sorted(ask("how many reviews on weekends vs weekdays?")) == sorted(parts.items())
    # a yes/no comparison: both sides in one row, their difference and the answer
    weekend, weekdays = parts["weekend"], parts["weekday"]
    assert ask("Do more reviews come in at the weekend than Monday to Friday?") == [
        (weekend, weekdays, weekend - weekdays, "yes" if weekend > weekdays else "no")]


def test_the_span_of_dates(ask) -> None:  # noqa: ANN001
    """"How many days lie between the first review and the newest one?" counted the different days."""
    days = sorted(date.fromisoformat(str(r["reviewed_on"])) for r in ROWS)
    expected = (days[0].isoformat(), days[-1].isoformat(), (days[-1] - days[0]).days)
    for question in ("How many days lie between the reviewed date of the very first review and that of the newest "
                     "one?", "what date range does the table cover?", "the earliest and the latest review dates?"):
        assert ask(question) == [expected], question
    plan = ask.planner.plan("On average, how many days did it take between ordering and delivery for these items?")
    assert (plan.missing, plan.intent) == ("days between ordering and delivery", "count")  # (two events, one date)
    in_2023 = sorted(d for d in days if d.year == 2023)
    assert ask("how many days between the first and the last review in 2023?") == [
        (in_2023[0].isoformat(), in_2023[-1].isoformat(), (in_2023[-1] - in_2023[0]).days)]


def test_rows_outside_a_period(ask) -> None:  # noqa: ANN001
    outside = sum(not str(r["reviewed_on"]).startswith("2023") for r in ROWS)
    for question in ("how many reviews not in 2023?", "Leaving 2023 out, how many reviews are there?"):
        assert ask(question) == [(outside,)], question


def test_a_month_of_every_year(ask) -> None:  # noqa: ANN001
    """"December across all years" read December of the newest row's year, after the newest row (0 rows)."""
    def month(row: dict[str, object]) -> int:
        return int(str(row["reviewed_on"])[5:7])

    in_march = [r for r in ROWS if month(r) == 3]
    assert len({str(r["reviewed_on"])[:4] for r in in_march}) == 2  # (March of two years)
    for question in ("Across all years, how many reviews were written in March?", "every March, how many reviews?",
                     "reviews in march of any year: how many"):
        assert ask(question) == [(len(in_march),)], question
    assert ask("How many March reviews per year?") == sorted(Counter(str(r["reviewed_on"])[:4]
                                                                     for r in in_march).items())
    assert ask("how many reviews outside March, regardless of the year") == [(len(ROWS) - len(in_march),)]
    assert ask("How many reviews in Q1 of any year?") == [(sum(month(r) <= 3 for r in ROWS),)]
    plan = ask.planner.plan("Across all years, how many reviews were written in March?")
    assert [c.describe() for c in plan.conditions] == ["reviewed_on in March of any year"]
    # without such words, a month without a year is the latest one the table has reached
    newest = max(str(r["reviewed_on"]) for r in ROWS)
    december = f"{int(newest[:4]) - 1}-12"
    assert ask("How many reviews in December?") == [(sum(str(r["reviewed_on"]).startswith(december) for r in ROWS),)]


def test_medians_overall_and_per_group(ask) -> None:  # noqa: ANN001
    """"median rating" was a statistic the reading did not compute (it listed reviews); SQLite has no median, so
    the app's connections add percentile_cont, as SQLite's own extension defines it."""
    from statistics import median

    assert ask("What is the median rating?") == [(median(r["rating"] for r in ROWS),)]
    per_brand = {b: median(r["rating"] for r in ROWS if r["brand"] == b) for b in BRANDS}
    assert [(row[0], row[-1]) for row in ask("median rating per brand")] == sorted(per_brand.items())
    in_2023 = [r["rating"] for r in ROWS if str(r["reviewed_on"]).startswith("2023")]
    assert ask("median rating of the 2023 reviews") == [(median(in_2023),)]
    assert ask.planner.plan("the medians and quartiles of the ratings").intent != "median"  # (not computed: said)


def test_days_of_the_week_are_grouped_by_name_in_the_weeks_order(ask) -> None:  # noqa: ANN001
    """Groups read "Tuesday", not 2; Sunday first, as the week runs (alphabetical order would put Friday first)."""
    names = ("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")
    counts = Counter(weekday(r) for r in ROWS)
    assert ask("How many reviews per day of the week?") == [(names[d], counts[d]) for d in sorted(counts)]
    # set against each other: one row per named day
    assert ask("Tuesdays vs Thursdays: on which weekday did more reviews come in?") == [
        (names[d], counts[d]) for d in (2, 4) if counts[d]]


def test_the_groups_with_none_of_the_rows(ask) -> None:  # noqa: ANN001
    """"Which brands have no 1-star reviews?" names the brands none of whose reviews has 1 star; it counted the
    1-star reviews of the brands that have some ('no' unread)."""
    brands = {str(r["brand"]) for r in ROWS}
    for stars in (1, 5):
        expected = sorted(brands - {str(r["brand"]) for r in ROWS if r["rating"] == stars})
        assert ask(f"Which brands have no {stars}-star reviews?") == [(b,) for b in expected]
    in_2022 = {str(r["brand"]) for r in ROWS if str(r["reviewed_on"]).startswith("2022")}
    assert ask("Which brands never got a review in 2022?") == [(b,) for b in sorted(brands - in_2022)]


def test_quarters_as_a_grouping(ask) -> None:  # noqa: ANN001
    expected = Counter(f"{str(r['reviewed_on'])[:4]}-Q{(int(str(r['reviewed_on'])[5:7]) + 2) // 3}" for r in ROWS)
    assert sorted(ask("How many reviews per quarter?")) == sorted(expected.items())


def test_yes_no_columns_are_conditions(ask) -> None:  # noqa: ANN001
    assert ask("How many verified purchases?") == [(sum(r["verified_purchase"] == 1 for r in ROWS),)]
    assert ask("How many unverified reviews?") == [(sum(r["verified_purchase"] == 0 for r in ROWS),)]


def test_share_of_a_stated_whole(ask) -> None:  # noqa: ANN001
    nord = [r for r in ROWS if r["brand"] == "Nord-Lys"]
    share = round(100 * sum(r["verified_purchase"] == 1 for r in nord) / len(nord), 2)
    verified = sum(r["verified_purchase"] == 1 for r in nord)  # (the part and the whole, then the share)
    assert ask("Share of verified purchases among Nord-Lys reviews") == [(verified, len(nord), share)]
    restated = ask.planner.plan("Share of verified purchases among Nord-Lys reviews")
    assert [c.column for c in restated.population] == ["brand"]


def test_star_ratings_and_ranked_dimensions(ask) -> None:  # noqa: ANN001
    assert ask("How many four-star ratings did H&N receive?") == [
        (sum(r["rating"] == 4 and r["brand"] == "H&N" for r in ROWS),)]
    assert ask("how many 1- or 2-star reviews") == [(sum(r["rating"] in (1, 2) for r in ROWS),)]
    garden = Counter(r["brand"] for r in ROWS if r["department"] == "Garden & Patio" and r["rating"] > 1)
    top = ask("the two most reviewed brands in garden and patio with more than 1 star")
    assert [count for _, count in top] == [count for _, count in garden.most_common(2)]
    assert all(garden[brand] == count for brand, count in top)


def test_a_lower_case_name_is_not_a_reviewer(ask) -> None:  # noqa: ANN001
    plan = ask.planner.plan("reviews about cleo marsh walks")
    assert [c.kind for c in plan.conditions] == []
    assert [c.kind for c in ask.planner.plan("reviews by Cleo Marsh").conditions] == ["author"]


def test_named_periods_are_alternatives_and_comparing_them_groups(ask) -> None:  # noqa: ANN001
    months = Counter(str(r["reviewed_on"])[:7] for r in ROWS if str(r["reviewed_on"])[:7] in ("2023-03", "2023-04"))
    assert ask("How many reviews in March and April 2023?") == [(sum(months.values()),)]
    assert sorted(ask("Compare the number of reviews in March and April 2023")) == sorted(months.items())
    years = Counter(str(r["reviewed_on"])[:4] for r in ROWS)
    assert sorted(ask("Which year had more reviews, 2023 or 2024?")) == sorted(years.items())


def test_named_people_are_alternatives_and_comparing_them_groups(ask) -> None:  # noqa: ANN001
    either = sum(r["reviewer"] in ("Ana Ruiz", "Ben Ode") for r in ROWS)
    assert ask("How many reviews by Ana Ruiz or Ben Ode?") == [(either,)]
    counts = Counter(r["reviewer"] for r in ROWS if r["reviewer"] in ("Ana Ruiz", "Ben Ode"))
    assert sorted(ask("Who wrote more reviews, Ana Ruiz or Ben Ode?")) == sorted(counts.items())


def top_per_group(group: str, key: str, most: bool, n: int = 1) -> set[tuple[object, object]]:
    """(group value, headline) of the rows ranked 1..n in each group by `key`, ties kept (as SQL RANK)."""
    found: set[tuple[object, object]] = set()
    for value in {r[group] for r in ROWS}:
        members = [r for r in ROWS if r[group] == value]
        ordered = sorted({r[key] for r in members}, reverse=most)[:n]  # the n best distinct values: ranks <= n
        best = sorted((r[key] for r in members), reverse=most)[n - 1]
        found |= {(value, r["headline"]) for r in members if r[key] in ordered and (r[key] >= best if most
                                                                                    else r[key] <= best)}
    return found


def test_the_top_rows_of_each_group(ask) -> None:  # noqa: ANN001
    """"the newest review for each brand", "the 2 oldest reviews per department", "the highest-rated review per
    brand": rows at the top of each group (ties kept), not one number per group."""
    def shown(question: str) -> set[tuple]:  # each row's group and headline (after the review's id)
        return {(row[0], row[2]) for row in ask(question)}

    assert shown("the newest review for each brand") == top_per_group("brand", "reviewed_on", True)
    assert shown("the 2 oldest reviews per department") == top_per_group("department", "reviewed_on", False, 2)
    assert shown("the highest-rated review per brand") == top_per_group("brand", "rating", True)
    assert shown("the newest review for each reviewer") == top_per_group("reviewer", "reviewed_on", True)
    plan = ask.planner.plan("the 2 oldest reviews per department")
    assert plan.per_group and plan.limit == 2 and plan.intent == "earliest"
    # a count per group stays a count ("which brand got the most reviews"), a value per group stays a value
    assert not ask.planner.plan("Which brand got the most reviews?").per_group
    assert ask.planner.plan("What is the highest rating per brand?").intent == "max"
    assert not ask.planner.plan("What is the highest rating per brand?").per_group


def test_counts_of_things_that_are_not_rows(ask) -> None:  # noqa: ANN001
    """"how many units did X sell" counts no rows: the plan names what is missing (answered "Not in this table");
    a count of a fact with rare topic words stays a search of the texts."""
    for question in ("How many units did Kessler & Vogt sell?", "How many units were sold per brand?",
                     "How many returns did Nord-Lys get in 2023?"):
        plan = ask.planner.plan(question)
        assert plan.intent == "count" and plan.missing in ("units", "returns") and not plan.topic, question
    fact = ask.planner.plan("How many deliveries did the longest-serving midwife at Lowfield log?")
    assert fact.missing is None and fact.intent == "topic"
    assert ask.planner.plan("How many Home & Kitchen reviews were there in 2023?").missing is None


def test_words_naming_the_rows_or_a_value_are_not_text_matches(ask) -> None:  # noqa: ANN001
    """"product reviews" are the rows themselves; "the Nord-Lys team" names a value: neither filters the text."""
    assert ask("How many product reviews do we have in total?") == [(len(ROWS),)]
    assert ask("How many customer reviews were posted in 2023?") == [
        (sum(str(r["reviewed_on"]).startswith("2023") for r in ROWS),)]
    plan = ask.planner.plan("How many reviews did the Nord-Lys team get in 2023?")
    assert not plan.topic and "team" in plan.unused
    assert ask.planner.plan("How many product reviews mention batteries?").topic == "batteries"


def test_groups_ranked_by_a_measure(ask) -> None:  # noqa: ANN001
    """"the lowest rated brand", "which brand has the highest average rating": a dimension's values ranked by the
    measure's exact average (before, the dimension was dropped without a word and one overall figure came back)."""
    ratings: dict[object, list[int]] = {}
    for r in ROWS:
        if str(r["reviewed_on"]).startswith("2023"):
            ratings.setdefault(r["brand"], []).append(int(r["rating"]))  # type: ignore[call-overload]
    average = {brand: sum(v) / len(v) for brand, v in ratings.items()}
    assert len(set(average.values())) > 2  # the 2023 rows give the brands different averages
    lowest, highest = min(average, key=average.__getitem__), max(average, key=average.__getitem__)
    assert [row[0] for row in ask("What is the lowest rated brand in 2023?")] == [lowest]
    assert [row[0] for row in ask("Which brand has the highest average rating in 2023?")] == [highest]
    plan = ask.planner.plan("What are the three lowest rated brands?")
    assert (plan.intent, plan.measure, plan.group_by, plan.limit, plan.order_most) == ("avg", "rating", ["brand"], 3,
                                                                                       False)
    assert ask.planner.plan("the 2 brands with the lowest average rating").limit == 2


def test_a_negated_yes_no_word_and_a_small_scale_as_a_grouping(ask) -> None:  # noqa: ANN001
    verified = [r["rating"] for r in ROWS if r["brand"] == "Nord-Lys" and r["verified_purchase"] == 1]
    assert ask("average rating of Nord-Lys reviews excluding unverified ones") == [
        (round(sum(verified) / len(verified), 1),)]  # type: ignore[arg-type]
    assert sorted(ask("how many reviews for each star rating")) == sorted(Counter(r["rating"] for r in ROWS).items())
    assert ask.planner.plan("top 3 brands by rating").group_by == ["brand"]  # "by" after a grouping ranks it


def test_how_many_of_a_dimension_counts_its_different_values(ask) -> None:  # noqa: ANN001
    """"how many brands are there" is the number of different brands, not a count of reviews per brand."""
    assert ask("How many brands are there?") == [(len({r["brand"] for r in ROWS}),)]
    per_department = Counter()
    for department in {r["department"] for r in ROWS}:
        per_department[department] = len({r["reviewer"] for r in ROWS if r["department"] == department})
    assert sorted(ask("the number of different reviewers per department")) == sorted(per_department.items())
    assert ask("how many reviewers reviewed Nord-Lys") == [(len({r["reviewer"] for r in ROWS
                                                                 if r["brand"] == "Nord-Lys"}),)]


def test_the_longest_row_without_a_length_column_is_the_longest_text(ask) -> None:  # noqa: ANN001
    """No word-count column: "the longest review" orders by the text's length, never by another number (rating)."""
    (row,) = ask("What is the longest review?")
    assert row[-1] == max(len(str(r["review_text"])) for r in ROWS)
    assert ask.planner.plan("What is the longest review?").measure == "review_text_length_chars"  # (not rating)


def test_totals_over_all_but_one_value_and_bounds_in_words(ask) -> None:  # noqa: ANN001
    """Fresh wordings (#8): "all brands except H&N" is one total (it was a row per other brand), "four stars or
    more" a bound (it was rating = 4), "which brand is rated lowest on average" the lowest average rating (it was
    the brand with the fewest reviews)."""
    assert ask("How many reviews are there for all brands except H&N?") == [
        (sum(r["brand"] != "H&N" for r in ROWS),)]
    assert ask("How many Toys & Games reviews have four stars or more?") == [
        (sum(r["department"] == "Toys & Games" and int(r["rating"]) >= 4 for r in ROWS),)]  # type: ignore[call-overload]
    ratings: dict[object, list[int]] = {}
    for r in ROWS:
        if str(r["reviewed_on"]).startswith("2024"):
            ratings.setdefault(r["brand"], []).append(int(r["rating"]))  # type: ignore[call-overload]
    average = {brand: sum(v) / len(v) for brand, v in ratings.items()}
    fewest = min(ratings, key=lambda brand: len(ratings[brand]))
    lowest = min(average, key=average.__getitem__)
    assert lowest != fewest and list(average.values()).count(average[lowest]) == 1
    assert [row[0] for row in ask("Which brand is rated lowest on average in 2024?")] == [lowest]


def test_weeks_as_a_grouping(ask) -> None:  # noqa: ANN001
    """Weeks start on Monday and are named by that day; every dialect builds the same label."""
    expected = Counter()
    for r in ROWS:
        day = date.fromisoformat(str(r["reviewed_on"]))
        if day.year == 2024:
            expected[(day - timedelta(days=day.weekday())).isoformat()] += 1
    assert sorted(ask("How many reviews per week in 2024?")) == sorted(expected.items())


def test_groups_kept_by_their_number_of_rows(ask) -> None:  # noqa: ANN001
    """"which departments have more than 16 reviews", "how many reviewers have at least 31 Nord-Lys reviews": the groups
    whose row count passes (the number and the row noun were a text match, or ignored)."""
    in_2024 = [r for r in ROWS if str(r["reviewed_on"]).startswith("2024")]
    counts = Counter(r["department"] for r in in_2024)
    assert sorted(ask("Which departments have more than 16 reviews in 2024?")) == sorted(
        (d, n) for d, n in counts.items() if n > 16) and min(counts.values()) <= 16
    people = Counter(r["reviewer"] for r in in_2024)
    assert 0 < sum(n >= 7 for n in people.values()) < len(people)
    assert ask("How many reviewers have at least 7 reviews in 2024?") == [(sum(n >= 7 for n in people.values()),)]
    nord = Counter(r["reviewer"] for r in ROWS if r["brand"] == "Nord-Lys")
    assert ask("How many reviewers have at least 31 Nord-Lys reviews?") == [(sum(n >= 31 for n in nord.values()),)]
    plan = ask.planner.plan("Which departments have more than 16 reviews in 2024?")
    from rag.understand.interpretation import interpret
    assert "only groups with more than 16 reviews" in interpret(plan, "reviews").action


def test_average_number_of_rows_per_group(ask) -> None:  # noqa: ANN001
    """"average number of reviews per brand", "average 5-star reviews per reviewer in 2024": the matching rows divided
    by the groups of the period, a group without a matching row counting as 0 (it was a count per group with
    'average' unused)."""
    assert ask("average number of reviews per brand") == [(round(len(ROWS) / len({r["brand"] for r in ROWS}), 2),)]
    in_2024 = [r for r in ROWS if str(r["reviewed_on"]).startswith("2024")]
    five = sum(r["rating"] == 5 for r in in_2024)
    ratio = Decimal(five / len({r["reviewer"] for r in in_2024}))
    assert ask("average 5-star reviews per reviewer in 2024") == [
        (float(ratio.quantize(Decimal("0.01"), ROUND_HALF_UP)),)]  # SQL rounds halves up
    plan = ask.planner.plan("average number of reviews per brand")
    from rag.understand.interpretation import interpret
    assert (plan.count_per, plan.group_by, plan.unused) == ("brand", [], [])
    assert interpret(plan, "reviews").action == "Average number of reviews per brand"


def test_median_number_of_rows_per_group(ask) -> None:  # noqa: ANN001
    """"median # of reviews per brand", "median number of 5-star reviews per reviewer in 2024": each group's matching
    rows (0 for a group of the period without one), then their median ('median' was left unused and the counts
    listed). "median number of <a measure>" is the median of the measure, not a sum."""
    import statistics
    per_brand = Counter(r["brand"] for r in ROWS)
    assert ask("median # of reviews per brand") == [(round(statistics.median(per_brand.values()), 2),)]
    in_2024 = [r for r in ROWS if str(r["reviewed_on"]).startswith("2024")]
    fives = Counter(r["reviewer"] for r in in_2024 if r["rating"] == 5)
    counts = [fives.get(name, 0) for name in {r["reviewer"] for r in in_2024 if r["reviewer"]}]
    assert ask("median number of 5-star reviews per reviewer in 2024") == [(round(statistics.median(counts), 2),)]
    plan = ask.planner.plan("median number of reviews per brand")
    from rag.understand.interpretation import interpret
    assert (plan.intent, plan.count_per, plan.group_by, plan.unused) == ("median", "brand", [], [])
    assert interpret(plan, "reviews").action == "Median number of reviews per brand"
    plan = ask.planner.plan("what's the median number of ratings among verified purchases?")
    assert (plan.intent, plan.measure) == ("median", "rating")


def test_a_value_of_the_measure_inside_a_ranking(ask) -> None:  # noqa: ANN001
    """"which brand got the most five-star reviews" counts the five-star reviews per brand (it ranked the brands by
    average rating and dropped 'five-star' without a word)."""
    in_2024 = [r for r in ROWS if str(r["reviewed_on"]).startswith("2024")]
    fives = Counter(r["brand"] for r in in_2024 if r["rating"] == 5)
    top = max(fives.values())
    assert sorted(ask("Which brand got the most five-star reviews in 2024?")) == sorted(
        (b, n) for b, n in fives.items() if n == top)


def test_a_yes_no_grouping_is_labelled_in_words(ask) -> None:  # noqa: ANN001
    """"verified buyers vs everyone else" grouped by verified_purchase showed 1 and 0."""
    def average(flag: int) -> float:
        ratings = [int(r["rating"]) for r in ROWS if r["verified_purchase"] == flag]  # type: ignore[call-overload]
        return float(Decimal(sum(ratings) / len(ratings)).quantize(Decimal("0.01"), ROUND_HALF_UP))
    rows = ask("Verified buyers vs everyone else: how do their average star ratings compare?")
    assert {row[0]: row[-1] for row in rows} == {
        "not verified": average(0), "verified": average(1)}


def test_a_listing_shows_every_short_label_of_its_rows(ask) -> None:  # noqa: ANN001
    """A listed review named its department but not its brand, which the table's users read it by."""
    row = ask("the newest review")[0]
    assert set(row) & set(BRANDS) and set(row) & set(DEPARTMENTS)
