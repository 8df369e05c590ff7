"""Deterministic text-to-SQL: plans become SELECTs that parse, pass the guard and return exact results.

Every statement is run against a real SQLite file (read-only, through `TableSource`) with known rows,
after `guard_sql`, exactly as the engines run them. User words only ever become literals.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
import sqlite3
from collections import Counter
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import sqlglot
from conftest import make_articles_db, sha256_file
from sqlglot import exp
from test_planner import TICKET_PROFILE, TICKET_ROLES

from rag.answer.sql_guard import guard_sql
from rag.data.source import TableSource
from rag.models import QueryResult
from rag.understand.planner import Condition, Planner, QueryPlan
from rag.understand.text_to_sql import SQLBuilder, text_match_forms


def _row(url: str, title: str, authors: str, day: str, category: str, words: int, content: str) -> dict[str, Any]:
    return {"url": url, "title": title, "authors": authors, "published_date": day, "article_category": category,
            "word_count": words, "full_content": content}


ROWS = [
    _row("u1", "Solar farms expand", "Jane Doe", "2022-01-10 10:00:00", "Technology", 500,
         "New solar farms open in the valley."),
    _row("u2", "Grid upgrade", "Jane Doe; Li Wei", "2022-03-31 23:59:59", "Technology", 800,
         "The grid operator upgrades substations."),
    _row("u3", "Spring collection", "Li Wei", "2022-04-01 00:00:00", "Fashion", 300,
         "Designers show bright colours for spring."),
    _row("u4", "Marathon record", "Tom O'Brien", "2023-02-14 08:00:00", "Sports", 2500,
         "Coach O'Brien praised the marathon runners."),
    _row("u5", "Cup final", "Ann Lee | Tom O'Brien", "2023-03-01 00:00:00", "Sports", 1200,
         "The cup final went to penalties."),
    _row("u6", "Runway report", "Ann Lee; Jane Doe", "2023-03-15 12:00:00", "Fashion", 700,
         "Models walked the runway in recycled fabrics; the variable snake_case_name was printed on shirts."),
    _row("u7", "100% renewable city", "Maria Lopez", "2023-06-30 23:59:59", "Technology", 2001,
         "The city now runs on renewable power all year."),
    _row("u8", "Quiet week", "", "2021-12-31 23:59:59", "Business", 100, "Markets were calm before the holiday."),
]
COLUMNS = ["url", "title", "authors", "published_date", "article_category", "word_count", "full_content"]


@dataclass
class Setup:
    db: Path
    source: TableSource
    planner: Planner
    builder: SQLBuilder

    def run(self, sql: str) -> QueryResult:
        """Parse, guard and run `sql` read-only, like the engines do."""
        statements = sqlglot.parse(sql, read="sqlite")
        assert len(statements) == 1
        assert isinstance(statements[0], exp.Select | exp.SetOperation)
        guarded = guard_sql(sql, table=self.source.table, columns=list(self.source.columns), dialect="sqlite")
        return self.source.run_select(guarded.sql)

    def ask(self, question: str) -> QueryResult:
        return self.run(self.builder.answer_sql(self.planner.plan(question)))

    def rows(self, question: str) -> list[tuple[Any, ...]]:
        return [tuple(row) for row in self.ask(question).rows]

    def values(self, question: str) -> list[tuple[Any, ...]]:
        """Each row's group and its last value, the one asked for (without the counts shown beside it)."""
        return [(*row[:1], row[-1]) for row in self.rows(question)]

    def scalar(self, question: str) -> Any:
        result = self.ask(question)
        assert len(result.rows) == 1 and len(result.columns) == 1, result
        return result.rows[0][0]


def make_setup(tmp_path: Path, rows: list[dict[str, Any]] = ROWS, name: str = "articles.db") -> Setup:
    db = make_articles_db(tmp_path / name, rows)
    source = TableSource(f"sqlite:///{db}", "articles")
    profile = source.profile()
    return Setup(db, source, Planner("articles", source.roles, profile),
                 SQLBuilder("articles", source.roles, profile, source.dialect))


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> Setup:
    return make_setup(tmp_path_factory.mktemp("t2s"))


def test_fixture_roles(setup: Setup) -> None:
    roles = setup.source.roles
    assert (roles.title, roles.date, roles.category, roles.authors, roles.numeric) == (
        "title", "published_date", "article_category", "authors", ["word_count"])
    assert setup.source.key_columns == ["url"]


# --------------------------------------------------------------------------- every statement is valid


QUESTIONS = [
    "How many articles per year and category?",
    "average word count per category",
    "How many articles by author?",
    "What share of articles are in each category?",
    "latest 3 articles",
    "the 2 oldest articles",
    "3 longest articles",
    "Which category has the most articles?",
    "Which category has the fewest articles?",
    "Top 2 authors",
    "total word count per author",
    "How many articles per month in 2023?",
    "articles per day in March 2023",
    "How many climate articles per year?",
    "articles between 500 and 800 words",
    "List fashion articles",
    "articles by Lee",
    "How many articles did Jane Doe write?",
    "What percentage of articles are about sports?",
    "maximum word count per category",
    "minimum word count in 2022",
]


@pytest.mark.parametrize("question", QUESTIONS)
def test_generated_sql_parses_passes_the_guard_and_runs(setup: Setup, question: str) -> None:
    sql = setup.builder.answer_sql(setup.planner.plan(question))
    result = setup.run(sql)
    assert result.columns
    guarded = guard_sql(sql, table="articles", columns=COLUMNS)
    assert guarded.sql.upper().startswith("SELECT")


# --------------------------------------------------------------------------- exact results


def test_counts_per_year_and_category(setup: Setup) -> None:
    result = setup.ask("How many articles per year and category?")
    assert result.columns == ["year", "article_category", "article_count"]
    assert [tuple(r) for r in result.rows] == [
        ("2021", "Business", 1), ("2022", "Fashion", 1), ("2022", "Technology", 2),
        ("2023", "Fashion", 1), ("2023", "Sports", 2), ("2023", "Technology", 1)]


def test_average_per_category(setup: Setup) -> None:
    result = setup.ask("What is the average word count per category?")
    # (each category's articles beside its average, before it: the value asked for stays last)
    assert result.columns == ["article_category", "article_count", "avg_word_count"]
    assert {row[0]: tuple(row[1:]) for row in result.rows} == {
        "Business": (1, 100.0), "Fashion": (2, 500.0), "Sports": (2, 1850.0), "Technology": (3, 1100.33)}


def test_single_aggregates(setup: Setup) -> None:
    assert setup.scalar("How many articles are there?") == 8
    assert setup.scalar("What is the average word count?") == 1012.63
    assert setup.scalar("What is the total word count of fashion articles?") == 1000
    assert setup.scalar("What is the maximum word count?") == 2500
    assert setup.scalar("What is the minimum word count in 2022?") == 300
    assert setup.scalar("How many words in total in 2022?") == 1600


def test_per_author_counts_split_multi_author_cells(setup: Setup) -> None:
    result = setup.ask("How many articles by author?")
    assert result.columns == ["author", "article_count"]
    # "Jane Doe; Li Wei" counts for both; "Ann Lee | Tom O'Brien" too; the empty cell for nobody.
    assert [tuple(r) for r in result.rows] == [
        ("Jane Doe", 3), ("Ann Lee", 2), ("Li Wei", 2), ("Tom O'Brien", 2), ("Maria Lopez", 1)]
    assert setup.rows("Top 2 authors") == [("Jane Doe", 3), ("Ann Lee", 2)]
    assert setup.rows("Who writes the most?") == [("Jane Doe", 3)]
    assert dict(setup.rows("total word count per author"))["Jane Doe"] == 500 + 800 + 700


def test_rows_by_the_number_of_people_they_name(setup: Setup) -> None:
    """'Jane Doe; Li Wei', 'Ann Lee | Tom O'Brien' and 'Ann Lee; Jane Doe' name two people; the empty cell none."""
    assert setup.scalar("How many articles were written by two or more people?") == 3
    assert setup.scalar("How many articles have fewer than two authors?") == 5
    assert dict(setup.rows("co-written articles per category")) == {"Fashion": 1, "Sports": 1, "Technology": 1}


def test_a_bound_on_an_average_keeps_the_groups_that_pass(setup: Setup) -> None:
    """"categories that averaged more than 1,000 words": each category's average is tested, not each article."""
    assert setup.values("Which categories averaged more than 1,000 words?") == [
        ("Sports", 1850.0), ("Technology", 1100.33)]
    assert setup.values("categories whose average word count is below 600") == [("Business", 100.0), ("Fashion", 500.0)]
    assert setup.values("Which years averaged over 1100.5 words?") == [("2023", 1600.25)]  # a decimal bound


def test_groups_spanning_several_values_of_another_dimension(setup: Setup) -> None:
    """Jane Doe and Li Wei wrote in Technology and Fashion; Ann Lee in Sports and Fashion; Tom O'Brien only Sports."""
    assert setup.rows("Which authors have articles in more than one category?") == [
        ("Ann Lee", 2), ("Jane Doe", 2), ("Li Wei", 2)]


def test_the_values_of_groups_spanning_several_are_listed_when_asked(setup: Setup) -> None:
    """"Has anyone written for more than one category? If so who, and for which ones?" gave each writer's number of
    categories (the pairs were asked): a row per writer and category, with its articles; "which ones" alone are the
    writers."""
    assert setup.rows("Has anyone written for more than one category? If so who, and for which ones?") == [
        ("Ann Lee", "Fashion", 1), ("Ann Lee", "Sports", 1), ("Jane Doe", "Fashion", 1), ("Jane Doe", "Technology", 2),
        ("Li Wei", "Fashion", 1), ("Li Wei", "Technology", 1)]
    assert setup.rows("Which authors have articles in more than one category? list them + which categories")[:2] == [
        ("Ann Lee", "Fashion", 1), ("Ann Lee", "Sports", 1)]
    assert setup.rows("Are there authors with articles in more than one category? Which ones?") == [
        ("Ann Lee", 2), ("Jane Doe", 2), ("Li Wei", 2)]


def test_rows_without_a_group_are_in_no_group_s_top(tmp_path: Path) -> None:
    """"the longest article in each category": an article with no category heads no group of its own."""
    rows = [*ROWS, _row("u9", "Unfiled", "Ann Lee", "2023-05-05 05:05:05", None, 9000, "No category.")]
    setup = make_setup(tmp_path, rows)
    longest = setup.rows("the longest article in each category")
    assert [r[0] for r in longest] == ["Business", "Fashion", "Sports", "Technology"]
    top = setup.rows("which author wrote the most articles in each category?")
    assert None not in [r[0] for r in top]



def test_the_group_of_rows_naming_nobody_is_named_when_counted_per_person(setup: Setup) -> None:
    """"how many does each contract manager have? (Show any that nobody owns as 'unassigned')" dropped the rows
    without a person: counted per person named in a cell, they are one more group with the name asked for."""
    counts = dict(setup.values("how many articles per author? Put articles with no author under 'nobody'."))
    assert counts["nobody"] == sum(1 for r in ROWS if not r["authors"].strip())
    assert counts["Jane Doe"] == sum(1 for r in ROWS if "Jane Doe" in r["authors"])
    assert "nobody" not in dict(setup.values("how many articles per author?"))


def test_a_negated_subject_counts_the_rows_that_do_not_say_it(setup: Setup) -> None:
    """"How many articles are not about crypto?" counted the crypto articles: the rows whose title or text does not
    hold the words are counted (a row without text counts among them)."""
    saying = sum(1 for r in ROWS if "substations" in (r["title"] + r["full_content"]).lower())
    assert setup.scalar("How many articles are not about substations?") == len(ROWS) - saying
    assert setup.scalar("How many articles don't mention substations?") == len(ROWS) - saying
    assert setup.scalar("How many articles are about substations?") == saying


def test_each_group_s_top_row_shows_its_labels(setup: Setup) -> None:
    """"in each region, what's our single largest contract and who is it with?" showed each top row's id, date and
    value only: it shows the labels a listing shows (here the author), the grouping column once."""
    result = setup.ask("the longest article in each category")
    assert "authors" in result.columns and result.columns.count("article_category") == 1
    by_category = {row[0]: row for row in result.rows}
    longest_sports = max((r for r in ROWS if r["article_category"] == "Sports"), key=lambda r: r["word_count"])
    assert longest_sports["authors"] in by_category["Sports"]

def test_groups_tested_for_a_property_leave_out_rows_without_a_group(tmp_path: Path) -> None:
    """"which categories have more than one article": articles with no category are no category's."""
    rows = [*ROWS, *(_row(f"u{9 + i}", f"Unfiled {i}", "Ann Lee", f"2023-05-0{5 + i} 05:05:05", None if i < 2 else "  ",
                          10, "No category.") for i in range(4))]
    setup = make_setup(tmp_path, rows)
    assert [r[0] for r in setup.rows("Which categories have more than one article?")] == [
        "Fashion", "Sports", "Technology"]


def test_ranked_groups_leave_out_rows_without_a_group(tmp_path: Path) -> None:
    """"Which category has the most articles": four articles with no category were the answer (an empty name)."""
    rows = [*ROWS, *(_row(f"u{9 + i}", f"Unfiled {i}", "Ann Lee", f"2023-05-0{5 + i} 05:05:05", None if i < 2 else "",
                          10, "No category.") for i in range(4))]
    setup = make_setup(tmp_path, rows)
    assert setup.rows("Which category has the most articles?") == [("Technology", 3)]
    assert [r[0] for r in setup.rows("the two categories with the fewest articles")] == ["Business", "Fashion"]
    assert ("", 2) in setup.rows("articles per category")  # a breakdown still shows them
    # ("… Leave out articles with no category": said and implied, one condition in the SQL)
    said = setup.builder.answer_sql(setup.planner.plan("Which two categories have the most articles? Leave out "
                                                       "articles with no category."))
    assert said.count("TRIM(") == 1
    assert [r[0] for r in setup.rows("Which two categories have the most articles? Leave out articles with no "
                                     "category.")] == ["Technology", "Fashion"]  # (tied with Sports: by name)


def test_groups_without_a_kind_of_row_also_pass_their_own_test(setup: Setup) -> None:
    """"Of the companies we have twenty or more contracts with, which ones have never had one terminated?" listed
    every company with none terminated: the reading said "only groups with at least 20", the SQL did not test it."""
    question = "Of the categories with two or more articles, which ones have never had an article by Jane Doe?"
    assert setup.rows(question) == [("Sports",)]  # (Business has none by her, but only one article)


def test_how_many_groups_have_none_of_a_kind_of_row(setup: Setup) -> None:
    """"how many of our counterparties have never had an NDA with us, not even a draft one?" counted the NDAs that are
    not drafts: the number of groups without such rows."""
    assert setup.scalar("How many of our categories have never had an article by Jane Doe?") == 2  # Sports, Business
    assert setup.rows("Which categories have never had an article by Jane Doe?") == [("Business",), ("Sports",)]


def test_groups_counted_by_the_date_of_their_first_row(setup: Setup) -> None:
    """"how many brand-new counterparties did we pick up in 2024, i.e. whose very first contract was signed this
    year" counted every 2024 contract (probe 61): each value is dated by its first row."""
    assert setup.scalar("How many new categories in 2023?") == 1  # Sports (the others had 2021-2022 articles)
    assert setup.scalar("How many first-time authors in 2023?") == 3  # Tom O'Brien, Ann Lee, Maria Lopez
    assert setup.scalar("How many categories in 2023?") == 3  # (without 'new': the categories with 2023 articles)
    assert setup.scalar("How many new categories do we have?") == 4  # (no period: all of them, 'new' unused)


def test_single_author_count(setup: Setup) -> None:
    assert setup.scalar("How many articles did Jane Doe write?") == 3
    assert setup.scalar("How many articles did Tom O'Brien write?") == 2


def test_author_names_match_whole_names_only(tmp_path: Path) -> None:
    rows = [*ROWS, _row("u9", "Extra", "Jane Doerr", "2023-05-05 05:05:05", "Business", 50, "Extra text.")]
    setup = make_setup(tmp_path, rows)
    assert setup.scalar("How many articles did Jane Doe write?") == 3
    assert dict(setup.rows("How many articles by author?"))["Jane Doe"] == 3


def test_share_per_category_sums_to_100(setup: Setup) -> None:
    result = setup.ask("What share of articles are in each category?")
    assert result.columns == ["article_category", "matching_article_count", "article_count", "share_pct"]
    assert {row[2] for row in result.rows} == {8}  # (each category's articles of all 8)
    shares = dict(setup.values("What share of articles are in each category?"))
    assert shares == {"Business": 12.5, "Fashion": 25.0, "Sports": 25.0, "Technology": 37.5}
    assert sum(shares.values()) == pytest.approx(100, abs=0.5)


def test_share_per_category_within_a_year_sums_to_100(setup: Setup) -> None:
    shares = dict(setup.values("What share of articles in 2023 are in each category?"))
    assert shares == {"Fashion": 25.0, "Sports": 50.0, "Technology": 25.0}


def test_a_share_whose_part_follows_its_verb_is_taken_within_each_group(setup: Setup) -> None:
    """"what percentage of each year's articles were sports": of that year's articles, not of all sports ones."""
    assert dict(setup.values("What percentage of each year's articles were sports?")) == {
        "2021": 0.0, "2022": 0.0, "2023": 50.0}
    assert dict(setup.values("For each category, what share of articles were published in 2023?")) == {
        "Business": 0.0, "Fashion": 50.0, "Sports": 100.0, "Technology": 33.33}
    # a condition on the grouped column picks the groups: never part of the share
    assert dict(setup.values("For each category except fashion, what share of articles were published in 2023?")) == {
        "Business": 0.0, "Sports": 100.0, "Technology": 33.33}
    # the part named before the verb, the groups after it: each group's share of one whole
    assert dict(setup.values("What share of the 2023 articles went to each category?")) == {
        "Fashion": 25.0, "Sports": 50.0, "Technology": 25.0}


def test_a_grouped_share_or_average_shows_the_counts_it_is_read_with(setup: Setup) -> None:
    """An analyst reads "50%" with "2 of 4": each group's matching rows and its rows come before a share of each
    group's rows (and each group's rows before an average); the value asked for stays last, which the answer and
    the chart read. A count the question asked for itself is not shown twice; a single value stays alone."""
    result = setup.ask("What percentage of each year's articles were sports?")
    assert result.columns == ["year", "matching_article_count", "article_count", "share_pct"]
    assert [tuple(row) for row in result.rows] == [("2021", 0, 1, 0.0), ("2022", 0, 3, 0.0), ("2023", 2, 4, 50.0)]
    assert setup.ask("average word count per year").columns == ["year", "article_count", "avg_word_count"]
    asked = setup.ask("average word count and number of articles per year").columns
    assert asked.count("article_count") == 1
    assert setup.ask("average word count in 2023").columns == ["avg_word_count"]


def test_a_count_beside_a_share_is_its_whole_and_a_count_of_those_is_its_part(setup: Setup) -> None:
    """"how many articles in 2023, and what percentage of them were sports" showed the sports articles as the
    count asked first (2, not 4); "…, and how many of those …" answered only the second count. Both are a share's
    part and whole, shown with it."""
    assert setup.rows("how many articles in 2023, and what percentage of them were sports") == [(2, 4, 50.0)]
    assert setup.rows("how many articles in 2023, and how many of them were sports?") == [(2, 4, 50.0)]
    # (the people column: Jane Doe wrote u1 alone, u2 and u6 with someone)
    assert setup.rows("how many articles by Jane Doe, and on how many of those was she the only writer?") == [
        (1, 3, 33.33)]
    assert setup.rows("jane doe: how many pieces, how many of those shared w/ someone else") == [(2, 3, 66.67)]
    # (a total asked beside them is the whole's: all her words, not the shared pieces'; "incl. co-bylines" said
    # first includes rows, the second people phrase picks the part)
    assert setup.rows("jane doe - how many pieces has she worked on incl. co-bylines, how many of those shared w/ "
                      "someone else, and total words") == [(2, 3, 66.67, 500 + 800 + 700)]
    # (nothing said after it picks a part: the one count)
    assert setup.rows("how many articles in 2023, and how many of them") == [(4,)]


def test_a_bound_on_each_group_s_share_keeps_the_groups_that_pass(setup: Setup) -> None:
    """"Which sections have at least a quarter of their stories co-written?" counted the co-written stories of every
    section: each group's share of its own rows, tested (a third of Technology's three is 33.33%)."""
    assert setup.values("Which categories have at least a third of their articles co-written?") == [
        ("Fashion", 50.0), ("Sports", 50.0), ("Technology", 33.33)]
    assert setup.values("which categories have more than half of their articles co-written") == []
    assert setup.values("categories with at least 50% of their articles published in 2023") == [
        ("Fashion", 50.0), ("Sports", 100.0)]
    plan = setup.planner.plan("Which categories have under 40 percent of their articles co-written?")
    assert (plan.intent, plan.group_share, plan.unused) == ("share", ("<", 40.0), [])
    assert setup.values("Which categories have under 40 percent of their articles co-written?") == [
        ("Business", 0.0), ("Technology", 33.33)]


def test_share_of_one_category(setup: Setup) -> None:
    """The category narrows the numerator only; a date narrows both (share of 2023's articles)."""
    assert setup.rows("What percentage of articles are about sports?") == [(2, 8, 25.0)]  # (2 of 8)
    assert setup.rows("What share of 2023 articles are sports?") == [(2, 4, 50.0)]


def test_listing_order_and_latest_n(setup: Setup) -> None:
    result = setup.ask("latest 3 articles")
    assert result.columns == ["title", "published_date", "article_category", "authors", "url"]
    assert [r[0] for r in result.rows] == ["100% renewable city", "Runway report", "Cup final"]
    assert [r[0] for r in setup.ask("the 2 oldest articles").rows] == ["Quiet week", "Solar farms expand"]
    assert [r[0] for r in setup.ask("the latest article").rows] == ["100% renewable city"]
    fashion = setup.ask("List fashion articles")
    assert [r[0] for r in fashion.rows] == ["Runway report", "Spring collection"]  # newest first


def test_longest_and_shortest(setup: Setup) -> None:
    longest = setup.ask("3 longest articles")
    assert "word_count" in longest.columns
    assert [r[0] for r in longest.rows] == ["Marathon record", "100% renewable city", "Cup final"]
    assert [r[0] for r in setup.ask("the 2 shortest articles").rows] == ["Quiet week", "Spring collection"]


def test_a_listing_shows_the_number_its_rows_were_picked_by(setup: Setup) -> None:
    """"which reviews have more than two hundred helpful votes?" listed them without their votes."""
    result = setup.ask("list the articles over 1000 words")
    assert "word_count" in result.columns
    shown = result.columns.index("word_count")
    assert sorted(r[shown] for r in result.rows) == [1200, 2001, 2500]


def test_which_category_has_the_most_and_fewest(setup: Setup) -> None:
    assert setup.rows("Which category has the most articles?") == [("Technology", 3)]
    assert setup.rows("Which category has the fewest articles?") == [("Business", 1)]


def test_monthly_counts(setup: Setup) -> None:
    assert setup.rows("How many articles per month in 2023?") == [("2023-02", 1), ("2023-03", 2), ("2023-06", 1)]


@pytest.mark.parametrize(("question", "count"), [
    # 2022-03-31 23:59:59 is inside; 2022-04-01 00:00:00 is not
    ("How many articles from 1 January 2022 to 31 March 2022?", 2),
    ("How many articles were published in March 2022?", 1),
    ("How many articles were published in March 2023?", 2),  # 2023-03-01 00:00:00 is inside
    ("How many articles were published in 2022?", 3),
    ("How many articles were published since March 2023?", 3),
    ("How many articles were published before 2022?", 1),  # 2021-12-31 23:59:59
    ("How many articles were published in June 2023?", 1),  # 2023-06-30 23:59:59, the last second
    ("How many articles were published on 31 March 2022?", 1),
    ("How many articles were published on 1 April 2022?", 1),
])
def test_date_ranges_are_inclusive_at_both_ends(setup: Setup, question: str, count: int) -> None:
    assert setup.scalar(question) == count


def test_date_range_listing_boundaries(setup: Setup) -> None:
    rows = setup.ask("articles from 1 January 2022 to 31 March 2022").rows
    assert [r[4] for r in rows] == ["u2", "u1"]


@pytest.mark.parametrize(("question", "count"), [
    ("How many articles have more than 2000 words?", 2),  # 2001 and 2500
    ("How many articles have between 500 and 800 words?", 3),  # 500, 700 and 800: inclusive
    ("How many articles have under 300 words?", 1),
    ("How many articles have at least 2500 words?", 1),
    ("How many articles have exactly 700 words?", 1),
])
def test_numeric_conditions(setup: Setup, question: str, count: int) -> None:
    assert setup.scalar(question) == count


def test_topic_words_become_a_text_match(setup: Setup) -> None:
    assert setup.scalar("How many articles mention marathon?") == 1
    assert setup.scalar("How many articles mention runway fabrics?") == 1  # all words must match
    assert setup.scalar("How many articles mention zeppelins?") == 0


def test_a_text_match_finds_the_singular_of_a_plural(setup: Setup) -> None:
    """"In how many fashion pieces do people talk about their grandmothers?" found 2 of 4: the texts say
    "grandmother" too; "what % of our travel pieces bring up ferries" missed "ferry". A plural matches its singular
    as well; a short or non-English singular is no form ("news" is not "new", "series" not "sery")."""
    assert setup.scalar("How many articles mention substation?") == 1
    assert setup.scalar("How many articles mention substations?") == 1  # (the text says "substations")
    assert setup.scalar("How many articles mention shirts?") == 1
    assert setup.scalar("How many articles mention marathons?") == 1  # (the text says "marathon")
    assert text_match_forms("ferries") == ["ferry", "ferries"]
    assert text_match_forms("grandmothers") == ["grandmother"]
    assert text_match_forms("news") == ["news"] and text_match_forms("series") == ["series"]


def test_a_share_of_described_rows_picked_by_a_text_match(setup: Setup) -> None:
    """"Roughly what % of our travel pieces bring up ferries?" divided by every article (1.5% for 31.3%): the
    conditions said between "share of" and the matched words are the whole, whatever the verb."""
    plan = setup.planner.plan("What percentage of our sports articles bring up penalties?")
    assert [c.value for c in plan.share_whole] == ["Sports"]
    assert setup.rows("What percentage of our sports articles bring up penalties?")[0][-1] == 50.0
    # (a condition after the matched words picks the part, as before)
    plan = setup.planner.plan("What percentage of the articles about penalties are in sports?")
    assert plan.share_whole == []


def test_a_share_whose_whole_is_picked_by_a_text_match(setup: Setup) -> None:
    """"Of the tickets where they'd attached screenshots, what % were high or urgent?" divided by every ticket: a
    text match said before the share word, the conditions after it, is in the whole as well as in the part."""
    plan = setup.planner.plan("Of the articles mentioning renewable, what % are in technology?")
    assert plan.topic_in_whole and plan.share_whole == []
    assert setup.rows("Of the articles mentioning renewable, what % are in technology?")[0][-1] == 100.0
    assert setup.rows("Of the articles mentioning runway, what % are in technology?")[0][-1] == 0.0


def test_a_share_whose_part_nothing_picks_says_so(setup: Setup) -> None:
    """"What percentage of our travel pieces have somebody apologizing in them?" answered 12.3%, the travel pieces'
    share of every article, with 'apologizing' not held by any text: the conditions before the verb are the whole,
    and the part said after it is what the table lacks."""
    planner = Planner("articles", setup.source.roles, setup.source.profile(),
                      text_mentions=lambda word: word.lower() != "yodelling")
    plan = planner.plan("What percentage of our sports articles have somebody yodelling in them?")
    assert plan.missing and "yodelling" in plan.missing and plan.intent != "share"
    # (any verb of what the part does: "… consulting contracts let the consultants claim back their travel costs")
    assert "yodelling" in (planner.plan("What percentage of our sports articles let fans try yodelling?").missing or "")
    # (a condition said after the verb picks the part: no whole said before it)
    assert planner.plan("What percentage of articles are in sports, roughly?").missing is None
    plan = setup.planner.plan("What percentage of our sports articles have somebody yodelling in them?")
    assert [c.value for c in plan.share_whole] == ["Sports"] and plan.topic == "yodelling"  # (no keyword index)


# --------------------------------------------------------------------------- user words are literals


HOSTILE = ["O'Brien", "100%", "snake_case", "'; DROP TABLE articles; --", "x\" OR \"1\"=\"1", "a%' OR '1'='1",
           "Robert'); DELETE FROM articles; --", "\\'; ATTACH DATABASE 'x' AS y; --"]


@pytest.mark.parametrize("words", HOSTILE)
def test_hostile_words_in_questions_stay_literals(tmp_path: Path, words: str) -> None:
    setup = make_setup(tmp_path)
    before = sha256_file(setup.db)
    for question in (f"How many articles mention {words}?", f"articles about {words} in 2023",
                     f"latest articles by {words}", f"How many articles per year about {words}"):
        plan = setup.planner.plan(question)
        setup.run(setup.builder.answer_sql(plan))
        setup.run(setup.builder.row_keys_sql(plan, ["url"]))
    assert sha256_file(setup.db) == before
    with sqlite3.connect(setup.db) as connection:
        assert connection.execute("SELECT COUNT(*) FROM articles").fetchone() == (8,)


def test_quote_is_matched_literally(setup: Setup) -> None:
    assert setup.scalar("How many articles mention O'Brien?") == 1
    assert setup.scalar("How many articles mention 100%?") == 1


def test_underscore_and_percent_are_not_wildcards(setup: Setup) -> None:
    assert setup.scalar("How many articles mention snake_case_name?") == 1
    # '_' and '%' never act as LIKE wildcards: 'r_nway' would match 'runway' if '_' were a wildcard
    plan = QueryPlan(question="q", intent="count", conditions=[Condition("text_like", "", "like", "r_nway", "")])
    assert setup.run(setup.builder.answer_sql(plan)).rows == [[0]]
    plan = QueryPlan(question="q", intent="count", conditions=[Condition("text_like", "", "like", "r%way", "")])
    assert setup.run(setup.builder.answer_sql(plan)).rows == [[0]]


@pytest.mark.parametrize("value", ["x'; DROP TABLE articles; --", "O'Brien", "100%", "a_b", "' OR 1=1 --"])
def test_condition_values_are_sql_literals(setup: Setup, value: str) -> None:
    plan = QueryPlan(question="q", intent="list", conditions=[
        Condition("category", "article_category", "=", value, value),
        Condition("author_like", "authors", "like", value, value),
    ], topic=value)
    sql = setup.builder.answer_sql(plan)
    tree = sqlglot.parse_one(sql, read="sqlite")
    literals = [lit.this for lit in tree.find_all(exp.Literal) if lit.is_string]
    assert value in literals  # the category equality keeps the exact value, as one string literal
    assert not list(tree.find_all(exp.Drop, exp.Delete, exp.Insert, exp.Update))
    assert setup.run(sql).rows == []


def test_category_in_list(setup: Setup) -> None:
    plan = QueryPlan(question="q", intent="count", conditions=[
        Condition("category", "article_category", "in", ["Sports", "Fashion"], "")])
    assert setup.run(setup.builder.answer_sql(plan)).rows == [[4]]


# --------------------------------------------------------------------------- row keys for the hybrid route


def test_row_keys_sql_selects_the_key_columns(setup: Setup) -> None:
    plan = setup.planner.plan("articles about runners in 2023 with more than 1000 words")
    sql = setup.builder.row_keys_sql(plan, ["url"])
    result = setup.run(sql)
    assert result.columns == ["url"]
    assert sorted(r[0] for r in result.rows) == ["u4", "u5", "u7"]  # topic words are NOT applied here
    assert "runners" not in sql.lower()


def test_row_keys_sql_without_conditions_selects_every_row(setup: Setup) -> None:
    sql = setup.builder.row_keys_sql(QueryPlan(question="q", topic="anything"), ["url", "title"])
    result = setup.run(sql)
    assert result.columns == ["url", "title"]
    assert len(result.rows) == 8


def test_row_keys_sql_without_key_columns_selects_all_columns(setup: Setup) -> None:
    plan = setup.planner.plan("articles about runners in 2023")
    result = setup.run(setup.builder.row_keys_sql(plan, []))
    assert sorted(result.columns) == sorted(COLUMNS)
    keys = {setup.source.key_of(dict(zip(result.columns, row, strict=True))) for row in result.rows}
    indexed = {r.key for r in setup.source.iter_rows()}
    assert keys and keys <= indexed


# --------------------------------------------------------------------------- other tables and options


TICKETS_DDL = ("CREATE TABLE tickets (ticket_id INTEGER PRIMARY KEY, subject TEXT, body TEXT, opened_at TEXT, "
               "status TEXT, assignee TEXT, priority_score REAL)")
TICKETS = [
    (1, "VPN drops", "The VPN disconnects every hour.", "2024-03-01 09:00:00", "open", "Priya Natarajan", 8.0),
    (2, "Printer jam", "Third floor printer jams.", "2024-03-15 10:00:00", "closed", "Bob Stone", 2.0),
    (3, "Password reset", "Cannot reset my password.", "2024-04-02 11:00:00", "open", "Bob Stone", 5.0),
    (4, "VPN slow", "VPN is slow from home.", "2024-04-20 12:00:00", "pending", "Priya Natarajan; Bob Stone", 6.0),
]


def test_ticket_table(tmp_path: Path) -> None:
    db = tmp_path / "tickets.db"
    with sqlite3.connect(db) as connection:
        connection.execute(TICKETS_DDL)
        connection.executemany("INSERT INTO tickets VALUES (?, ?, ?, ?, ?, ?, ?)", TICKETS)
    source = TableSource(f"sqlite:///{db}", "tickets")
    profile = source.profile()
    planner = Planner("tickets", source.roles, profile)
    builder = SQLBuilder("tickets", source.roles, profile)

    def run(question: str) -> list[tuple[Any, ...]]:
        sql = builder.answer_sql(planner.plan(question))
        guarded = guard_sql(sql, table="tickets", columns=list(source.columns))
        return [tuple(r) for r in source.run_select(guarded.sql).rows]

    assert run("How many tickets per status?") == [("closed", 1), ("open", 2), ("pending", 1)]
    assert run("average priority score per status") == [("closed", 1, 2.0), ("open", 2, 6.5), ("pending", 1, 6.0)]
    assert run("How many tickets per assignee?") == [("Bob Stone", 3), ("Priya Natarajan", 2)]
    assert run("How many tickets in March 2024?") == [(2,)]
    # (a table without urls lists each row's id first: how a ticket is referred to)
    assert [r[:2] for r in run("latest 2 tickets")] == [(4, "VPN slow"), (3, "Password reset")]
    keys = source.run_select(builder.row_keys_sql(planner.plan("tickets by Natarajan about VPN"),
                                                  source.key_columns))
    assert sorted(r[0] for r in keys.rows) == [1, 4]
    # no length column: the text's length in characters; rows named by their id
    assert run("average length in characters per status") == [
        ("closed", 1, len(TICKETS[1][2])), ("open", 2, (len(TICKETS[0][2]) + len(TICKETS[2][2])) / 2),
        ("pending", 1, len(TICKETS[3][2]))]
    assert [r[0] for r in run("tickets longer than 25 characters")] == [1]
    assert [r[:2] for r in run("show me tickets 2 and 3")] == [(3, "Password reset"), (2, "Printer jam")]


def test_ticket_count_with_the_date_columns_verb(tmp_path: Path) -> None:
    db = tmp_path / "tickets.db"
    with sqlite3.connect(db) as connection:
        connection.execute(TICKETS_DDL)
        connection.executemany("INSERT INTO tickets VALUES (?, ?, ?, ?, ?, ?, ?)", TICKETS)
    source = TableSource(f"sqlite:///{db}", "tickets")
    planner = Planner("tickets", source.roles, source.profile())
    sql = SQLBuilder("tickets", source.roles, source.profile()).answer_sql(
        planner.plan("How many tickets were opened in March 2024?"))
    assert source.run_select(guard_sql(sql, table="tickets", columns=list(source.columns)).sql).rows == [[2]]


def test_non_text_date_column_is_cast_for_grouping(setup: Setup) -> None:
    builder = SQLBuilder("articles", setup.source.roles, setup.source.profile(), date_is_text=False)
    sql = builder.answer_sql(setup.planner.plan("How many articles per year?"))
    assert "CAST" in sql.upper()
    assert [tuple(r) for r in setup.run(sql).rows] == [("2021", 1), ("2022", 3), ("2023", 4)]


@pytest.mark.parametrize("limit", [500, 50])
def test_many_authors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, limit: int) -> None:
    """Up to MAX_AUTHOR_UNION known names are joined as a derived table; beyond it, the raw column is grouped."""
    import rag.understand.text_to_sql as text_to_sql

    monkeypatch.setattr(text_to_sql, "MAX_AUTHOR_UNION", limit)
    rows = [_row(f"k{i}", f"T{i}", f"Writer Number{i}", "2023-01-01 00:00:00", "Business", 10, "text")
            for i in range(70)]
    setup = make_setup(tmp_path, rows)
    result = setup.ask("How many articles by author?")
    sql = setup.builder.answer_sql(setup.planner.plan("How many articles by author?")).upper()
    assert ("UNION" in sql) == (limit > 70)
    assert len(sql) < 6000
    assert len(result.rows) == 70 and all(r[-1] == 1 for r in result.rows)


def test_date_condition_without_bounds_is_ignored(setup: Setup) -> None:
    plan = QueryPlan(question="q", intent="count",
                     conditions=[Condition("date", "published_date", "between", (date.min, date.max), "")])
    assert setup.run(setup.builder.answer_sql(plan)).rows == [[8]]


# ----------------------------------------------------------------------------- a grouping the table cannot give


def _notes_table(tmp_path: Path) -> Path:
    """A table of notes with a title, a body and a kind, and no date column at all."""
    path = tmp_path / "notes.db"
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT, body TEXT, kind TEXT)")
    connection.executemany("INSERT INTO notes VALUES (?, ?, ?, ?)",
                           [(i, f"Note {i}", f"Body of note {i} about the office move.", "memo" if i % 2 else "todo")
                            for i in range(30)])
    connection.commit()
    connection.close()
    return path


@pytest.mark.parametrize("question", ["How many per year?", "How many notes per month?", "Notes per year"])
def test_per_year_on_a_table_without_a_date_says_so(tmp_path: Path, question: str) -> None:
    from conftest import settings_for

    from rag.assistant import Assistant
    from rag.errors import NotInTable

    db = _notes_table(tmp_path)
    settings = settings_for(db, tmp_path / "index", table="notes")
    source = TableSource(settings.db_url, "notes")
    assert source.roles.date is None
    builder = SQLBuilder("notes", source.roles, source.profile(), columns=list(source.columns))
    with pytest.raises(NotInTable, match="no date column"):  # it was silently a total count of 30 notes
        builder.answer_sql(QueryPlan(question=question, intent="count", group_by=["year"]))
    turn = Assistant.build(settings).ask(question)
    assert turn.error and "no date column" in turn.error and "RAG_COLUMN_ROLES" in turn.error
    assert turn.route in (None, "sql") and "30" not in turn.answer
    assert Assistant.build(settings).ask("How many notes are there?").error is None  # no grouping asked: fine


# --------------------------------------------------------------------------- exclusion, inequality, ranks per group


@pytest.mark.parametrize("question", [
    "How many articles per category? Leave out articles that have no author.",
    "number of articles in each category (skip the ones without an author)",
    "Ignore articles without an author: how many per category?",
])
def test_rows_without_a_value_set_aside_keep_the_rows_that_have_one(setup: Setup, question: str) -> None:
    """An exclusion verb before "rows without X" keeps the rows that have an X (u8 has an empty author): it was read
    as "author is empty", which answered with the one row the question set aside."""
    expected = sorted((c, n) for c, n in {"Technology": 3, "Fashion": 2, "Sports": 2}.items())
    assert sorted(setup.rows(question)) == expected
    assert setup.scalar("How many articles have no author?") == 1


def test_a_number_other_than_a_value(setup: Setup) -> None:
    """"other than 500 words": every row but those with exactly that value (the number was dropped unread)."""
    assert setup.scalar("How many articles are other than 500 words?") == 7
    assert setup.scalar("how many articles have a word count other than 800") == 7


def test_which_n_values_have_the_most_and_the_top_value_within_each_group(setup: Setup) -> None:
    """"which three categories have the most articles" keeps three (it kept one); "for each year, which category has the
    most articles" keeps the top category of every year, ties included (it was one count per year)."""
    assert sorted(setup.rows("Which three categories have the most articles?")) == [
        ("Fashion", 2), ("Sports", 2), ("Technology", 3)]
    assert setup.rows("For each year, which category has the most articles?") == [
        ("2021", "Business", 1), ("2022", "Technology", 2), ("2023", "Sports", 2)]


def test_the_top_n_groups_within_each_value_of_another(setup: Setup) -> None:
    """"the top 2 categories for each year": ranked within each year, ties at the cut kept (RANK); it was the top 2
    (year, category) pairs overall."""
    assert setup.rows("top 2 categories for each year") == [
        ("2021", "Business", 1), ("2022", "Technology", 2), ("2022", "Fashion", 1),
        ("2023", "Sports", 2), ("2023", "Fashion", 1), ("2023", "Technology", 1)]


def test_a_negated_value_keeps_the_rows_without_a_value(tmp_path: Path) -> None:
    """"articles that are not Sports" includes an article with no category: NOT (NULL = 'Sports') is unknown, which
    dropped it."""
    rows = [*ROWS, _row("u9", "Untitled", "Ann Lee", "2023-05-01 10:00:00", None, 50, "No section.")]
    setup = make_setup(tmp_path, rows)
    assert setup.scalar("How many articles are not Sports?") == 7
    assert setup.scalar("How many articles are neither Sports nor Fashion?") == 5


def test_a_grouping_by_people_and_another_column_counts_each_person(setup: Setup) -> None:
    """"articles per author and year": each person named in a cell, not the cell ("Jane Doe; Li Wei" is no person,
    and an article with no author is no group); it grouped the raw cells."""
    rows = setup.rows("How many articles per author and year?")
    assert ("Jane Doe", "2022", 2) in rows and ("Li Wei", "2022", 2) in rows and ("Ann Lee", "2023", 2) in rows
    assert all(";" not in str(r[0]) and "|" not in str(r[0]) and r[0] for r in rows)
    assert ("2023", "Ann Lee", 2) in setup.rows("For each year, which author wrote the most articles?")


def test_the_authors_and_categories_with_none_of_the_rows_and_their_rows(setup: Setup) -> None:
    """"Which authors never wrote a technology article?": each person named in a cell counts (Jane Doe co-wrote one,
    so she is not listed); the guard passes the grouped subquery, and "which of those ..." reads those people's rows
    (the distinct rows that name one of them)."""
    plan = setup.planner.plan("Which authors never wrote a technology article?")
    assert plan.none_of
    assert setup.rows("Which authors never wrote a technology article?") == [("Ann Lee",), ("Tom O'Brien",)]
    keys = setup.run(setup.builder.answered_rows_sql(plan, ["url"])).rows
    assert len(keys) == 3 == len({tuple(k) for k in keys})  # Tom's two and Ann's other; the shared one once
    assert setup.rows("Which categories had no articles in 2023?") == [("Business",)]


def test_a_time_of_day_bounds_the_hour(setup: Setup) -> None:
    """"before noon", "from 2 pm onwards": whole hours of the date column; a bare "after 8" is no time."""
    hours = [int(str(r["published_date"])[11:13]) for r in ROWS if str(r["published_date"])[11:13]]
    assert setup.scalar("How many articles were published before noon?") == sum(h < 12 for h in hours)
    assert setup.scalar("How many articles were published from 2 pm onwards?") == sum(h >= 14 for h in hours)
    plan = setup.planner.plan("How many articles were published after 8?")
    assert not [c for c in plan.conditions if c.kind == "hour"]


def test_the_two_sides_of_an_hour_compared(setup: Setup) -> None:
    """"before noon or after" and "before noon vs after noon" counted the rows on both sides at once (none); the
    afternoon side is labelled "noon or later" (12:00 is in it)."""
    hours = [int(str(r["published_date"])[11:13]) for r in ROWS if str(r["published_date"])[11:13]]
    sides = Counter("before noon" if h < 12 else "noon or later" for h in hours)
    for question in ("Do more articles get published before noon or after? Give me both counts.",
                     "how many articles were published before noon vs after noon?"):
        assert sorted(setup.rows(question)) == sorted(sides.items()), question
    plan = setup.planner.plan("how many articles were published before 9 am vs after 9 am?")
    assert plan.group_by == ["part_of_day:9"] and plan.unused == []


def test_two_sets_of_days_compared(setup: Setup) -> None:
    """"… opened on a Friday with those opened Monday to Thursday" gave one row per weekday: the two sets, a group
    each (two single days stay one group per day)."""
    days = [date.fromisoformat(str(r["published_date"])[:10]).isoweekday() % 7 for r in ROWS]
    sides = Counter("Friday" if d == 5 else "Monday-Thursday" for d in days if 1 <= d <= 5)
    question = "Compare the number of articles published on a Friday with those published Monday to Thursday"
    assert sorted(setup.rows(question)) == sorted(sides.items())
    assert setup.planner.plan("compare articles published on Mondays with those published on Fridays").group_by == [
        "weekday"]


def test_rows_naming_more_people_compared_with_single_author_ones(setup: Setup) -> None:
    """"Are articles with more than one author longer on average than single-author ones?" asked for rows naming
    both at once (none)."""
    def names(row: dict[str, Any]) -> int:
        return len([n for n in re.split(r"[;,|]", str(row["authors"] or "")) if n.strip()])

    def average(rows: list[dict[str, Any]]) -> float:
        return round(sum(r["word_count"] for r in rows) / len(rows), 2)

    shared, single = average([r for r in ROWS if names(r) >= 2]), average([r for r in ROWS if names(r) == 1])
    rows = setup.rows("Are articles with more than one author longer on average than single-author ones?")
    assert rows == [(shared, single, round(shared - single, 2), "yes" if shared > single else "no")]


def test_the_two_sides_of_a_test_contrasted_in_one_row(setup: Setup) -> None:
    """"How many more words do co-written articles have than solo ones on average" showed both averages, not their
    difference (and "solo ones" was not read); "how many fewer … at the weekend than on weekdays" puts the side said
    first first."""
    def names(row: dict[str, Any]) -> int:
        return len([n for n in re.split(r"[;,|]", str(row["authors"] or "")) if n.strip()])

    def average(rows: list[dict[str, Any]]) -> float:
        return sum(r["word_count"] for r in rows) / len(rows)

    shared, solo = average([r for r in ROWS if names(r) >= 2]), average([r for r in ROWS if names(r) == 1])
    result = setup.ask("How many more words do co-written articles have than solo ones on average?")
    assert result.columns == ["avg_word_count (2 or more)", "avg_word_count (fewer than 2)", "difference"]
    assert [tuple(r) for r in result.rows] == [(round(shared, 2), round(solo, 2), round(shared - solo, 2))]
    result = setup.ask("Are solo articles shorter than co-written ones on average?")
    assert [tuple(r) for r in result.rows] == [(round(solo, 2), round(shared, 2), round(solo - shared, 2),
                                                "yes" if solo < shared else "no")]


def test_the_top_group_of_those_that_pass_a_size_test(setup: Setup) -> None:
    """"Among writers with at least two bylines, whose run longest on average" (was an average over rows naming four
    or more people: NULL), "which categories with at least two articles have the lowest average" (the size test
    was dropped: Business, one article, came out lowest). Each group's number of rows is shown beside its value."""
    assert setup.rows("Among writers with at least two bylines, whose articles run longest on average?") == [
        ("Tom O'Brien", 2, 1850.0)]
    assert setup.rows("Which categories with at least two articles have the lowest average word count?") == [
        ("Fashion", 2, 500.0)]
    assert setup.rows("Among categories with at least 2 articles, which ones average below 1200 words?") == [
        ("Fashion", 2, 500.0), ("Technology", 3, 1100.33)]


def test_how_many_more_is_one_row_with_both_counts_and_their_difference(setup: Setup) -> None:
    """"How many more technology than fashion articles" was a row per category: the difference was left to the
    reader (and a reference expecting one number failed)."""
    result = setup.ask("How many more technology articles than fashion articles are there?")
    assert result.columns == ["article_count (Technology)", "article_count (Fashion)", "difference"]
    assert [tuple(r) for r in result.rows] == [(3, 2, 1)]


def test_a_yes_no_comparison_of_two_periods_says_yes_or_no(setup: Setup) -> None:
    """"Did 2022 beat 2023": the two years were two conditions joined by AND (no row is in both: 0 articles)."""
    result = setup.ask("Did 2022 beat 2023 on articles published?")
    assert result.columns[-1] == "2022 more than 2023"
    assert [tuple(r) for r in result.rows] == [(3, 4, -1, "no")]
    fewer = setup.ask("Were there fewer fashion articles than technology articles?")
    assert fewer.columns[-1] == "Fashion less than Technology" and fewer.rows[0][-1] == "yes"


def test_the_difference_of_two_averages_is_taken_before_rounding(setup: Setup) -> None:
    rows = setup.rows("By how many words does the average sports article outrun the average technology one?")
    assert rows == [(1850.0, 1100.33, 749.67)]


def test_which_of_two_values_keeps_a_row_each(setup: Setup) -> None:
    """"Which had more, technology or fashion?" asks which: a row per value, no yes/no, the answer first."""
    assert setup.rows("Which had more articles, technology or fashion?") == [("Technology", 3), ("Fashion", 2)]


def test_a_yes_no_bound_on_a_count_gives_the_count_and_the_verdict(setup: Setup) -> None:
    """"Did Kessler & Vogt get more than 200 reviews?" was a text search for '200'."""
    result = setup.ask("Did Technology get more than 2 articles?")
    assert result.columns == ["article_count", "above_2"] and [tuple(r) for r in result.rows] == [(3, "yes")]
    assert setup.rows("Were there fewer than 2 fashion articles?") == [(2, "no")]


def test_how_many_groups_span_more_than_one_value_of_another_dimension(setup: Setup) -> None:
    """"How many brands show up in more than one department" counted every brand (the bound was not used)."""
    assert setup.scalar("How many authors have articles in more than one category?") == 3
    assert setup.scalar("How many categories have articles in more than one year?") == 2  # Technology, Fashion


def test_counts_per_decade(setup: Setup) -> None:
    """"Break down the archive by decade" was a search for the words."""
    assert setup.rows("How many articles per decade?") == [("2020s", 8)]
    assert setup.rows("Break down the pre-2023 articles by decade") == [("2020s", 4)]


def test_a_second_computation_is_a_column_beside_the_first(setup: Setup) -> None:
    result = setup.ask("How many fashion articles are there, and what is the average word count?")
    assert result.columns == ["article_count", "avg_word_count"] and [tuple(r) for r in result.rows] == [(2, 500.0)]
    grouped = setup.ask("How many articles per category and the total word count?")
    assert grouped.columns == ["article_category", "article_count", "total_word_count"]
    assert ("Fashion", 2, 1000) in [tuple(r) for r in grouped.rows]


def test_text_matched_in_the_title_only(setup: Setup) -> None:
    rows = setup.ask("articles whose title starts with 'Grid'").rows
    assert [r[0] for r in rows] == ["Grid upgrade"]
    assert setup.ask("articles whose title starts with 'upgrade'").rows == []  # (it ends the title)
    assert setup.scalar("how many articles have 'record' in the title") == 1


def test_rows_with_a_value_against_rows_without(setup: Setup) -> None:
    result = setup.ask("how many articles with vs without an author")
    assert [tuple(r) for r in result.rows] == [("has author", 7), ("no author", 1)]


def test_groups_ranked_by_matching_rows_include_groups_with_none(setup: Setup) -> None:
    """"Which agent has the fewest high-priority tickets?" named the agent with one; the agent with none was
    filtered out before grouping."""
    assert setup.rows("which author has the fewest sports articles") == [
        ("Jane Doe", 0), ("Li Wei", 0), ("Maria Lopez", 0)]
    assert setup.rows("which category has the fewest articles by Jane Doe") == [("Business", 0), ("Sports", 0)]
    # a condition on the grouped column still picks the groups; the most is unchanged
    assert setup.rows("which author has the most sports articles") == [("Tom O'Brien", 2)]
    # "rank the authors by …" ranks every one of them
    ranked = setup.rows("rank the authors by how many sports articles they wrote")
    assert ranked[0] == ("Tom O'Brien", 2) and {("Jane Doe", 0), ("Li Wei", 0), ("Maria Lopez", 0)} <= set(ranked)


def test_named_groups_compared_include_a_group_with_none(setup: Setup) -> None:
    """"politics vs sports articles in 2022" showed politics alone: the named group with no matching row was filtered
    out before grouping; each value the question names is shown, at 0 when it has none."""
    assert setup.rows("fashion vs sports articles by Jane Doe") == [("Fashion", 1), ("Sports", 0)]
    assert setup.rows("who wrote more sports articles, Jane Doe or Tom O'Brien?") == [
        ("Tom O'Brien", 2), ("Jane Doe", 0)]


def test_a_range_is_the_highest_minus_the_lowest(setup: Setup) -> None:
    assert setup.scalar("what's the gap between the longest and shortest sports articles?") == 2500 - 1200
    assert dict(setup.rows("range of word counts per category"))["Technology"] == 2001 - 500


def test_a_rate_per_month_for_each_group(setup: Setup) -> None:
    """Each author's articles over the months of the period (not only the months they wrote in)."""
    rows = dict(setup.rows("On average, how many articles a month does each author write in 2023?"))
    months_2023 = len({r["published_date"][:7] for r in ROWS if r["published_date"].startswith("2023")})
    assert rows["Ann Lee"] == round(2 / months_2023, 2) and rows["Maria Lopez"] == round(1 / months_2023, 2)


def test_groups_kept_for_few_matching_rows_include_groups_with_none(setup: Setup) -> None:
    """"Which categories ran fewer than 2 sports articles" filtered the rows first: a category with none was lost."""
    assert setup.rows("which categories have fewer than 2 articles by Jane Doe") == [
        ("Business", 0), ("Fashion", 1), ("Sports", 0)]
    assert setup.rows("which categories have at least 2 articles by Jane Doe") == [("Technology", 2)]


def test_rows_holding_a_quoted_text_set_aside(setup: Setup) -> None:
    """"not counting the 'Explainer:' ones" matched 'counting' and 'explainer' in the texts (the rows it was to leave
    out); a quoted value of a column is still that value."""
    assert setup.rows("how many articles, not counting the 'Cup final' ones") == [(7,)]
    assert setup.rows("how many articles excluding 'Sports'") == [(6,)]


def test_the_count_of_a_listing_s_rows(setup: Setup) -> None:
    """The rows a listing matches, counted with the same conditions (a listing shows the first 50)."""
    plan = setup.planner.plan("sports articles")
    counted = setup.builder.count_sql(plan)
    assert counted.startswith("SELECT COUNT(*) FROM")
    assert setup.run(counted).rows[0][0] == len(setup.rows("sports articles")) == 2  # (guarded like any statement)


def test_two_periods_set_against_each_other_within_each_group(setup: Setup) -> None:
    """"Which sections published more articles in Q2 2023 than in Q1 2023?" listed every section's count in each
    quarter (probe 52): each group's two values side by side, and with "which …", only the groups where the first
    is more."""
    assert setup.rows("Which categories published more articles in 2023 than they did in 2022?") == [
        ("Sports", 2, 0, 2)]
    assert setup.rows("For each category, how many more articles in 2023 than in 2022?") == [
        ("Fashion", 1, 1, 0), ("Sports", 2, 0, 2), ("Technology", 1, 2, -1)]
    assert setup.rows("Which categories had fewer articles in 2023 than in 2022?") == [("Technology", 1, 2, -1)]
    # a change between the periods said as a verb, the later value against the earlier, whichever is said first
    # ("comparing 2022 with 2023, which categories saw their count go down": per category and year, unranked)
    assert setup.rows("Comparing 2022 with 2023, which categories saw their article count go down?") == [
        ("Technology", 1, 2, -1)]
    assert setup.rows("which categories' article counts rose between 2022 and 2023") == [("Sports", 2, 0, 2)]


def test_a_change_between_two_periods_within_each_group(setup: Setup) -> None:
    """"how did the average change from 2022 to 2023 per category" averaged both years together; "which category's
    average rose the most between 2022 and 2023" summed the words; "which … go up, and by how much, biggest increase
    first" kept every category: each group's later and earlier value and the change, as asked."""
    assert setup.rows("how did the average word count change from 2022 to 2023 per category") == [
        ("Fashion", 700.0, 300.0, 400.0), ("Sports", 1850.0, None, None), ("Technology", 2001.0, 650.0, 1351.0)]
    assert setup.rows("which category's average word count rose the most between 2022 and 2023") == [
        ("Technology", 2001.0, 650.0, 1351.0)]
    assert setup.rows("which categories saw their average word count go up between 2022 and 2023, and by how much, "
                      "biggest increase first") == [("Technology", 2001.0, 650.0, 1351.0), ("Fashion", 700.0, 300.0,
                                                                                         400.0)]


def test_days_of_the_week_and_periods_set_aside(setup: Setup) -> None:
    """"excluding mondays" counted the Monday rows (a weekday took no negation), and "not published in 2023" the 2023
    rows (the negation's verb, which the date column is named after, hid it)."""
    assert setup.scalar("how many articles excluding mondays") == 7
    assert setup.scalar("leaving out fridays and mondays, how many articles") == 4
    assert setup.scalar("how many articles were not published on a wednesday") == 6
    assert setup.scalar("how many articles were not published in 2023") == 4


def test_the_groups_where_one_side_of_a_test_comes_out_ahead(setup: Setup) -> None:
    """"For each category, compare the average word count of articles with a byline … with those without: in which
    categories do the bylined ones come out ahead?" listed every category's two sides: each category's two averages
    side by side, only where the first is more."""
    assert setup.rows("For each category, compare the average word count of articles published after noon with "
                      "those published before noon: in which categories do the afternoon ones come out ahead?") == [
        ("Fashion", 700.0, 300.0, 400.0), ("Technology", 1400.5, 500.0, 900.5)]


def test_the_two_sides_of_a_bound_on_a_number_compared(setup: Setup) -> None:
    """"articles of 1000 words or more vs under 1000 words" required both bounds at once (0 rows): the rows grouped by
    the side they fall on, each side's share within it too ("what share were co-written, versus the share for the
    shorter ones")."""
    assert setup.rows("how many articles of 1000 words or more vs under 1000 words") == [
        ("word count 1000 or more", 3), ("word count below 1000", 5)]
    assert setup.values("Among articles of 1000 words or more, what share were written by two or more people, versus "
                        "the share for the articles under 1000 words?") == [
        ("word count 1000 or more", 33.33), ("word count below 1000", 40.0)]


def test_periods_open_at_one_end_are_named_by_their_bound(setup: Setup) -> None:
    """"articles before 2023 vs in 2023" named the first period "0001-01-01 to 2022-12-31"."""
    assert [row[0] for row in setup.rows("how many articles were published before 2023 compared with in 2023?")] == [
        "before 2023", "2023"]


def test_rows_grouped_by_the_hour_of_the_day(setup: Setup) -> None:
    """"what hour of the day has the most articles" had no grouping for the hour ('hour' listed as missing)."""
    assert setup.rows("which hour of the day has the most articles") == [(23, 3)]
    assert setup.rows("articles per hour of the day, not counting fridays")[:2] == [(0, 1), (8, 1)]


def test_groups_ranked_by_how_far_their_value_moved(setup: Setup) -> None:
    """"Which agent's number of tickets fell the most between Q1 and Q2?" ranked each agent's count in both quarters
    (the change was left out, and a person could not be the group a change is taken in): each group's later and
    earlier value and how far it moved, the top one (ties kept), or both ends when both are asked."""
    assert setup.rows("Comparing 2022 with 2023, which author's article count fell the most?") == [
        ("Li Wei", 0, 2, 2)]
    assert setup.rows("which author had the biggest rise in articles from 2022 to 2023") == [
        ("Ann Lee", 2, 0, 2), ("Tom O'Brien", 2, 0, 2)]
    assert setup.rows("Comparing 2022 with 2023, which category's article count rose the most, and which one fell "
                      "the most?") == [("Sports", 2, 0, 2), ("Technology", 1, 2, -1)]
    result = setup.ask("Comparing 2022 with 2023, which author's article count fell the most?")
    assert result.columns[-1] == "decrease"


def test_quarters_of_compared_years_are_named_within_the_year(setup: Setup) -> None:
    """"break down signings per quarter, 2023 vs 2022" named the quarters '2022-Q1' beside the year 2022, so a
    quarter's two years could not be set side by side: with the year its own group, the quarter is 'Q1'."""
    assert setup.rows("break down articles per quarter, 2023 vs 2022") == [
        ("Q1", "2022", 2), ("Q1", "2023", 3), ("Q2", "2022", 1), ("Q2", "2023", 1)]
    assert [row[0] for row in setup.rows("articles per quarter in 2023")] == ["2023-Q1", "2023-Q2"]
    # (a quarter of one year against the same quarter of another: '2022-Q1' held one of the two values, 0 rows;
    # the values asked first, then which quarters: every quarter with whether 2023 is higher)
    assert setup.rows("For each calendar quarter, how many articles did we publish in 2022 versus the same quarter of "
                      "2023, and in which quarters was 2023 higher than 2022?") == [("Q1", 3, 2, 1, "yes"),
                                                                                    ("Q2", 1, 1, 0, "no")]
    assert setup.rows("In which calendar quarters did we publish more articles in 2023 than in the same quarter of "
                      "2022?") == [("Q1", 3, 2, 1)]


def test_groups_with_none_of_the_rows_and_their_counts_asked_beside(setup: Setup) -> None:
    """"Which agents were never assigned a single urgent ticket, and how many tickets did each of them handle in
    total?" named the agents only: each group's rows counted beside it, when asked."""
    assert setup.rows("which categories never had an article over 2000 words, and how many articles did each of "
                      "them have") == [("Business", 1), ("Fashion", 2)]
    assert setup.rows("which categories never had an article over 2000 words") == [("Business",), ("Fashion",)]


def test_groups_without_a_value_in_one_period_are_not_ranked_by_change(setup: Setup) -> None:
    """"which section's average rose the most between H1 2023 and H2 2023" on a table without H2 rows listed every
    section with no change as "the most" (each NULL change ranked first; PostgreSQL sorts NULLs first too): a group
    without a value on both sides has no change to rank."""
    assert setup.rows("which category's average word count rose the most between H1 2023 and H2 2023") == []
    assert setup.rows("Comparing 2022 with 2023, which category's average word count rose the most, and which one "
                      "fell the most?") == [("Technology", 2001.0, 650.0, 1351.0), ("Fashion", 700.0, 300.0, 400.0)]


def test_groups_whose_average_is_above_the_overall_average(setup: Setup) -> None:
    """"Which sections run longer than the overall avg article" averaged the counts per section (probe 51): the
    groups whose average passes the average of all the matching rows."""
    assert setup.values("Which categories run longer than the overall average article?") == [
        ("Sports", 1850.0), ("Technology", 1100.33)]
    assert setup.values("categories whose average word count is below the overall average") == [
        ("Business", 100.0), ("Fashion", 500.0)]
    # (the overall average of the matching rows: 2023's is 1600.25, which Fashion's 700 is not above)
    assert setup.values("which categories had an above-average word count in 2023?") == [
        ("Sports", 1850.0), ("Technology", 2001.0)]


def test_rows_whose_number_is_above_the_average_of_the_matching_rows(setup: Setup) -> None:
    """"How many articles are longer than the average article?" counted every article (probe 55): the rows whose
    number passes the average of the rows the other conditions match, computed in the same statement."""
    def reference(sql: str) -> list[tuple[Any, ...]]:
        with sqlite3.connect(setup.db) as connection:
            return connection.execute(sql).fetchall()

    above = reference("SELECT COUNT(*) FROM articles WHERE word_count > (SELECT AVG(word_count) FROM articles)")
    assert setup.rows("How many articles are longer than the average article?") == above
    assert 0 < above[0][0] < len(reference("SELECT url FROM articles"))
    below_2023 = reference("SELECT COUNT(*) FROM articles WHERE published_date LIKE '2023%' AND word_count < "
                           "(SELECT AVG(word_count) FROM articles WHERE published_date LIKE '2023%')")
    assert setup.rows("how many 2023 articles have a below-average word count?") == below_2023
    titles = reference("SELECT title FROM articles WHERE article_category = 'Sports' AND word_count > "
                       "(SELECT AVG(word_count) FROM articles WHERE article_category = 'Sports')")
    listed = setup.ask("which Sports articles are longer than average?")
    assert titles and below_2023[0][0] > 0
    assert sorted(row[listed.columns.index("title")] for row in listed.rows) == sorted(t for (t,) in titles)


def test_ranking_every_group_leaves_out_the_rows_without_a_value(tmp_path: Path) -> None:
    """"rank depts by share of 1-star reviews, worst first" ranked the reviews with no department first (probe 56): a
    ranking of a dimension's values has no place for the rows without one (a breakdown keeps them)."""
    rows = [*ROWS, _row("u9", "Unfiled note", "Ann Lee", "2023-05-01 10:00:00", "", 9000, "A long unfiled note.")]
    setup = make_setup(tmp_path, rows)
    ranked = setup.rows("Rank the categories by average word count, longest first")
    assert ranked and all(label not in (None, "") for label, *_ in ranked)
    assert ranked[0][0] == "Sports"  # (the unfiled note's 9,000 words would have come first)
    assert any(label in (None, "") for label, *_ in setup.rows("average word count per category"))


@pytest.mark.parametrize("question", [
    "how many articles between 2023-02-10 and 2023-03-10 vs between 2023-03-11 and 2023-06-30?",
    "how many articles were published between 2023-03-11 and 2023-06-30, and how many in the 29 days before that?",
])
def test_periods_of_no_calendar_unit_compared_are_counted_apart(setup: Setup, question: str) -> None:
    """Two compared periods that are no whole months, quarters or years were summed ("comparison per " nothing):
    each is a group of its own, named by its days (probe 58: "the last 30 days, and the 30 days before that")."""
    result = setup.ask(question)
    assert result.columns == ["period", "article_count"]
    assert [tuple(r) for r in result.rows] == [("2023-02-10 to 2023-03-10", 2), ("2023-03-11 to 2023-06-30", 2)]


def test_a_share_of_a_measures_total(setup: Setup) -> None:
    """"Of all the words we published in 2023, what percentage came out in June?" gave the share of the articles
    (words listed as not used, probe 58): the share of the measure's total, overall and within each group."""
    plan = setup.planner.plan("Of all the words we published in 2023, what percentage came out in June?")
    assert plan.share_of_measure and plan.unused == []
    words_2023 = 2500 + 1200 + 700 + 2001  # u4..u7
    assert setup.scalar("Of all the words we published in 2023, what percentage came out in June?") == round(
        100 * 2001 / words_2023, 2)
    shares = dict(setup.rows("what percentage of each category's words are from 2023"))  # (no counts of rows)
    assert shares["Sports"] == 100.0 and shares["Fashion"] == round(100 * 700 / 1000, 2)
    assert setup.rows("what share of 2023 articles are sports") == [(2, 4, 50.0)]  # (a share of the rows, as before)


def test_different_values_with_a_group_size_counted_per_group(setup: Setup) -> None:
    """"On how many different days did we publish at least one article? The figure for each year" counted the days
    of every year together: the groups passing the size are counted within each of the asked groups."""
    assert setup.rows("how many different days had at least one article, per year") == [
        ("2021", 1), ("2022", 3), ("2023", 4)]


def test_the_average_number_of_people_a_row_names(setup: Setup) -> None:
    """"avg number of names on a byline? skip the unsigned ones" said 'no column for names' (probe 58): each row's
    names counted (any of the separators), averaged."""
    named = [len(re.split(r"\s*[;|,]\s*", r["authors"])) for r in ROWS if r["authors"].strip()]
    assert setup.scalar("avg number of names on a byline? skip the unsigned ones") == round(sum(named) / len(named), 2)
    everyone = [len(re.split(r"\s*[;|,]\s*", r["authors"])) if r["authors"].strip() else 0 for r in ROWS]
    assert setup.scalar("average number of authors per article") == round(sum(everyone) / len(everyone), 2)


def test_the_groups_with_only_one_row(setup: Setup) -> None:
    """"which writer has only one article?" matched 'one' in the texts (probe 58): exactly one row per group, a
    person of a multi-author cell counted in each of theirs."""
    counts = Counter(name for r in ROWS for name in re.split(r"\s*[;|,]\s*", r["authors"]) if name)
    single = sorted(name for name, n in counts.items() if n == 1)
    assert sorted(row[0] for row in setup.rows("which writer only shows up on one single article?")) == single
    assert sorted(row[0] for row in setup.rows("which author has only one article?")) == single


def test_the_widest_gap_between_consecutive_rows(setup: Setup) -> None:
    """"The longest quiet spell between two consecutive new tickets" went to a search that found nothing, "the
    longest run of days on which we published nothing" to a text match (probe 58): the consecutive rows (in date
    order, of the matching rows) with the most calendar days between them, ties kept."""
    days = sorted(date.fromisoformat(r["published_date"][:10]) for r in ROWS)
    widest = max((b - a).days for a, b in itertools.pairwise(days))
    result = setup.ask("what was the longest gap between two consecutive articles?")
    assert result.columns == ["earlier", "earlier_date", "later", "later_date", "days_between", "empty_days"]
    assert [(r[4], r[5]) for r in result.rows] == [(widest, widest - 1)]
    in_2022 = sorted(date.fromisoformat(r["published_date"][:10]) for r in ROWS if r["published_date"] < "2023")
    widest_2022 = max((b - a).days for a, b in itertools.pairwise(in_2022))
    assert [r[4] for r in setup.rows("in 2022, what was the longest run of days on which we published nothing?")] \
        == [widest_2022]


def test_groups_without_a_row_of_a_kind_within_the_period_asked(setup: Setup) -> None:
    """"Which months of 2023 had no unsigned articles?" listed every month of every year without one: the date picks
    the months, the other conditions the rows none of them may have."""
    months = {r["published_date"][:7] for r in ROWS if r["published_date"].startswith("2022")}
    fashion = {r["published_date"][:7] for r in ROWS if r["article_category"] == "Fashion"}
    assert [row[0] for row in setup.rows("which months of 2022 had no fashion articles?")] == sorted(months - fashion)


def _dates_per_author() -> dict[str, list[date]]:
    days: dict[str, list[date]] = {}
    for r in ROWS:
        for name in filter(None, re.split(r"\s*[;|,]\s*", r["authors"])):
            days.setdefault(name, []).append(date.fromisoformat(r["published_date"][:10]))
    return days


def test_the_group_with_the_longest_span_and_the_one_idle_longest(setup: Setup) -> None:
    """Probe 58: "which writer has the longest stretch of time between their earliest and their most recent article"
    listed each day's newest article with a text match on 'stretch'; "which agent has gone the longest without being
    handed a new ticket" searched the texts. Each person of a multi-author cell counts in their own group."""
    days = _dates_per_author()
    spans = {name: (max(d) - min(d)).days for name, d in days.items()}
    widest = max(spans.values())
    rows = setup.rows("which author has the longest stretch between their first and their most recent article?")
    assert len(rows) == 1 and rows[0][3] == widest and spans[rows[0][0]] == widest
    newest = max(d for ds in days.values() for d in ds)
    idle = min(days, key=lambda name: max(days[name]))
    rows = setup.rows("which author has gone the longest without a new article?")
    assert [(r[0], r[2]) for r in rows] == [(idle, (newest - max(days[idle])).days)]


def test_groups_with_no_row_about_a_subject(setup: Setup) -> None:
    """"Which section has no articles about golf?" counted the golf articles of the sections that have some: the
    groups none of whose rows mention the subject."""
    marathon = {r["article_category"] for r in ROWS if "marathon" in (r["title"] + r["full_content"]).lower()}
    every = {r["article_category"] for r in ROWS}
    assert [row[0] for row in setup.rows("which categories have no articles about the marathon?")] == sorted(
        every - marathon)
    assert setup.planner.plan("how many articles about the marathon per category").none_of is False


LEASES = [  # (ref, tenant, start, term in months, notes): a row runs from its start date for its term
    ("L-2023-0001", "Acme", "2023-10-31", 12, "Office floor two, with parking."),
    ("L-2024-0002", "Birch", "2024-01-31", 1, "Storage unit, month to month."),
    ("L-2024-0003", "Acme", "2024-02-15", 8, "Warehouse bay with loading dock."),
    ("L-2022-0004", "Cobalt", "2022-11-30", 23, "Retail space on the high street."),
    ("L-2024-0005", "Birch", "2024-03-01", 24, "Second storage unit."),
]


def test_rows_that_end_are_dated_by_their_date_plus_their_term(tmp_path: Path) -> None:
    """"Which leases expire in October 2024?" counted the leases *started* then: a period after a verb of ending is
    the rows' date plus their term (a numeric column named with a unit of time), a month after 31 January being the
    last day of February as in PostgreSQL (SQLite's DATE alone gives 2 March)."""
    db = tmp_path / "leases.db"
    with sqlite3.connect(db) as connection:
        connection.execute("CREATE TABLE leases (lease_ref TEXT NOT NULL UNIQUE, tenant TEXT, start_on TEXT, "
                           "term_months INTEGER, notes TEXT)")
        connection.executemany("INSERT INTO leases VALUES (?, ?, ?, ?, ?)", LEASES)
    source = TableSource(f"sqlite:///{db}", "leases")
    assert source.roles.end == "start_on + term_months"
    planner = Planner("leases", source.roles, source.profile())
    builder = SQLBuilder("leases", source.roles, source.profile(), columns=list(source.columns))

    def run(question: str) -> QueryResult:
        guarded = guard_sql(builder.answer_sql(planner.plan(question)), table="leases", columns=list(source.columns))
        return source.run_select(guarded.sql)

    assert run("how many leases end in October 2024?").rows == [[3]]  # (L-2023-0001, L-2024-0003, L-2022-0004)
    assert run("how many leases started in October 2024?").rows == [[0]]
    listed = run("which leases expire in February 2024?")
    assert [(row[0], row[listed.columns.index("end_date")]) for row in listed.rows] == [("L-2024-0002", "2024-02-29")]
    shown = run("when does L-2022-0004 run out?")
    assert shown.rows[0][shown.columns.index("end_date")] == "2024-10-30"
    # (PostgreSQL: the date cast to DATE, plus an interval of that many months)
    sql = SQLBuilder("leases", source.roles, source.profile(), "postgresql").answer_sql(
        planner.plan("how many leases end in October 2024?"))
    assert "INTERVAL '1 MONTH' * \"term_months\"" in sql


def test_a_grouping_by_month_of_rows_dated_by_their_end_groups_their_ends(tmp_path: Path) -> None:
    """"contracts that run out in oct, nov or dec 2024, count per month" counted them per month they were signed."""
    db = tmp_path / "leases.db"
    with sqlite3.connect(db) as connection:
        connection.execute("CREATE TABLE leases (lease_ref TEXT NOT NULL UNIQUE, tenant TEXT, start_on TEXT, "
                           "term_months INTEGER, notes TEXT)")
        connection.executemany("INSERT INTO leases VALUES (?, ?, ?, ?, ?)", [
            ("L-1", "Acme", "2023-10-31", 12, "Office floor."), ("L-2", "Birch", "2024-02-15", 8, "Warehouse bay."),
            ("L-3", "Cobalt", "2023-11-10", 12, "Retail space."), ("L-4", "Acme", "2024-09-01", 2, "Storage.")])
    source = TableSource(f"sqlite:///{db}", "leases")
    planner = Planner("leases", source.roles, source.profile())
    sql = SQLBuilder("leases", source.roles, source.profile(), columns=list(source.columns)).answer_sql(
        planner.plan("how many leases run out in oct or nov 2024, count per month"))
    assert source.run_select(sql).rows == [["2024-10", 2], ["2024-11", 2]]


def test_a_change_in_percent_is_the_difference_over_the_earlier_value(setup: Setup) -> None:
    """"By what percentage did the number of tickets change from Q1 2024 (January to March) to Q2 2024 (April to
    June)?" gave the share of both quarters' rows among all rows (100%): the bracketed restatements hid the change
    and "percentage" was read as a share. Now the later value, the earlier, their difference and the difference in
    percent of the earlier value; a share asked "by what percentage of" stays a share."""
    result = setup.ask("By what percentage did the number of articles change from Q1 2022 (January to March) to "
                       "Q1 2023 (January to March)?")
    assert result.columns[-1] == "difference_pct"
    assert [tuple(r) for r in result.rows] == [(3, 2, 1, 50.0)]
    assert setup.rows("what was the % change in articles from 2022 to 2023") == [(4, 3, 1, 33.33)]
    assert setup.rows("percent increase in average word count from 2022 to 2023") == [(1600.25, 533.33, 1066.92,
                                                                                         200.05)]
    shares = setup.ask("Rank the categories by what percentage of their articles are from 2023")
    assert "share_pct" in shares.columns and "difference_pct" not in shares.columns


def test_a_bound_on_each_groups_count_is_no_comparison_of_the_values_joined_by_or(setup: Setup) -> None:
    """"Which assignees have more than 5 tickets marked high or urgent priority?" grouped by assignee and priority:
    "more … or" was read as the two priorities set against each other; "more than 5" is a bound on each group."""
    assert setup.rows("Which authors have more than 1 article in Technology or Fashion?") == [
        ("Jane Doe", 3), ("Li Wei", 2)]
    # (set against each other, as before: "which had more articles, technology or fashion?")
    assert setup.rows("Which had more articles, technology or fashion?") == [("Technology", 3), ("Fashion", 2)]


def test_the_largest_rows_are_listed_by_the_tables_measure_of_size(setup: Setup) -> None:
    """"list the 3 largest contracts" gave the highest value alone: the rows, largest first, by the measure of size."""
    result = setup.ask("list the 2 largest articles")
    assert "word_count" in result.columns
    assert [r[result.columns.index("word_count")] for r in result.rows] == [2500, 2001]


def test_top_without_a_number_before_by_is_the_first_one(setup: Setup) -> None:
    """"top contract by value" searched the texts for 'top': "top"/"bottom" before "… by" without a number ranks the
    rows or groups and keeps the first."""
    result = setup.ask("top article by word count")
    assert [r[result.columns.index("word_count")] for r in result.rows] == [2500]
    assert setup.rows("bottom category by average word count") == [("Business", 1, 100.0)]


def test_a_ratio_of_two_values_counts_the_first_per_one_of_the_second(setup: Setup) -> None:
    """"nord-lys: how many 5 star reviews do they get per 1 star review? ratio to 2 dp" counted the reviews rated 5
    and 1 at once (0): both values' counts, and the first per one of the second."""
    result = setup.ask("how many Technology articles do we publish per Fashion article?")
    assert result.columns[-1] == "ratio" and [tuple(r) for r in result.rows] == [(3, 2, 1.5)]
    assert setup.rows("ratio of technology to fashion articles") == [(3, 2, 1.5)]


def test_amounts_in_thousands_are_divided_and_named_so(setup: Setup) -> None:
    """"in thousands": the sums divided by 1,000 and rounded, the column named with the unit, the order kept."""
    result = setup.ask("total word count per category in thousands, highest first")
    assert result.columns[-1] == "total_word_count_thousands"
    assert [(row[0], row[-1]) for row in result.rows] == [
        ("Sports", 3.7), ("Technology", 3.3), ("Fashion", 1.0), ("Business", 0.1)]


def test_the_nth_longest_rows_hold_the_nth_distinct_value(setup: Setup) -> None:
    """"the 2nd longest technology article": the rows of the second distinct word count (ties share a place)."""
    assert [row[0] for row in setup.rows("the 2nd longest technology article by word count")] == ["Grid upgrade"]
    assert [row[0] for row in setup.rows("the third shortest article by word count")] == ["Solar farms expand"]


def test_a_running_total_beside_each_group(setup: Setup) -> None:
    """"running total of articles per year": each year's count and the sum of those up to it."""
    result = setup.ask("running total of articles per year")
    assert result.columns[-1] == "running_article_count"
    assert [tuple(row) for row in result.rows] == [("2021", 1, 1), ("2022", 3, 4), ("2023", 4, 8)]


def test_the_week_in_order_from_the_day_said(setup: Setup) -> None:
    """"articles per weekday, friday first": the days from Friday on (Sunday first by default)."""
    days = [row[0] for row in setup.rows("articles per weekday")]
    start = [row[0] for row in setup.rows("articles per weekday, friday first")]
    order = ["Friday", "Saturday", "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday"]
    assert sorted(days) == sorted(start) and start == [d for d in order if d in days]


def test_tied_groups_are_ranked_by_their_names(setup: Setup) -> None:
    """Groups with the same value keep the order of their names (the database's order was arbitrary)."""
    assert setup.values("number of articles per category, most first") == [
        ("Technology", 3), ("Fashion", 2), ("Sports", 2), ("Business", 1)]
    assert setup.values("number of articles per category, fewest first") == [
        ("Business", 1), ("Fashion", 2), ("Sports", 2), ("Technology", 3)]


def test_the_empty_group_named_as_asked(tmp_path: Path) -> None:
    """"Put articles with no category under 'unfiled'": the rows with a NULL or blank category are one group of
    that name (it was shown as an empty name, NULL and blank apart)."""
    rows = [*ROWS, _row("u9", "Loose", "Ann Lee", "2023-05-05 05:05:05", None, 10, "No category."),
            _row("u10", "Blank", "Ann Lee", "2023-05-06 05:05:05", " ", 10, "Blank category.")]
    setup = make_setup(tmp_path, rows)
    plan = setup.planner.plan("How many articles per category? Put articles with no category under 'unfiled'.")
    assert plan.empty_label == "unfiled"
    assert ("unfiled", 2) in setup.values("How many articles per category? Put articles with no category under "
                                          "'unfiled'.")


def test_the_nth_group_holds_the_nth_distinct_value(setup: Setup) -> None:
    """"the category with the second most articles": the groups of the second distinct count (Fashion and Sports
    tie at 2)."""
    assert setup.values("which category has the second most articles") == [("Fashion", 2), ("Sports", 2)]


def test_an_average_per_calendar_unit_counts_the_units_without_rows(setup: Setup) -> None:
    """"On average, how many articles a month did we publish in 2023?" divided by the months that had an article
    (3); the calendar's months of the period within the table's dates are 6, an empty month included. An average of a
    total per month ("how much … per month on average") divides the measure's total the same way."""
    assert setup.scalar("On average, how many articles a month did we publish in 2023?") == round(4 / 6, 2)
    plan = setup.planner.plan("On average, how many articles a month did we publish in 2023?")
    total = setup.run(setup.builder.answer_sql(dataclasses.replace(plan, measure="word_count")))
    assert total.rows == [[round(6401 / 6, 2)]]
    assert setup.scalar("What was our average monthly output in 2023?") == round(4 / 6, 2)


def test_a_bound_on_a_total_keeps_the_groups_whose_total_passes(setup: Setup) -> None:
    """"which authors have written more than 2,000 words in total?" kept the articles of more than 2,000 words."""
    assert setup.values("Which authors have written more than 2,000 words in total?") == [
        ("Tom O'Brien", 3700), ("Maria Lopez", 2001)]


def test_people_denied_or_set_aside_by_their_whole_names(setup: Setup) -> None:
    """"did Jane Doe not write" counted her articles (the "not" dropped); "someone other than Jane Doe or Li Wei" set
    aside Jane only and searched for 'Li Wei'."""
    assert setup.scalar("How many Technology articles did Jane Doe not write?") == 1
    assert setup.scalar("How many articles were written by someone other than Jane Doe or Li Wei?") == 4


def test_top_groups_with_ties_at_the_last_place(setup: Setup) -> None:
    """"which 3 managers signed the most? If several are tied for third place list all of them" cut the ranking at 3
    while the reading said ties were shown: every group ranked within the limit (RANK() <= n), best first."""
    assert setup.rows("top 2 categories by number of articles, ties included") == [
        ("Technology", 3), ("Fashion", 2), ("Sports", 2)]
    assert setup.rows("top 2 categories by number of articles") == [("Technology", 3), ("Fashion", 2)]
    assert setup.rows("the 2 categories with the fewest articles, ties included") == [
        ("Business", 1), ("Fashion", 2), ("Sports", 2)]
    question = "which 2 writers have the most articles? If several are tied for second place, list all of them."
    assert setup.rows(question) == [("Jane Doe", 3), ("Ann Lee", 2), ("Li Wei", 2), ("Tom O'Brien", 2)]


def test_a_measure_asked_in_another_unit_is_converted(tmp_path: Path) -> None:
    """"the average agreed term in years" averaged a column of months (28.88 for 2.41): a measure whose name says
    its unit is converted to the unit asked, where the ratio is fixed; months are never turned into days."""
    db = tmp_path / "contracts.db"
    with sqlite3.connect(db) as connection:
        connection.execute("CREATE TABLE contracts (contract_ref TEXT, summary TEXT, signed_on TEXT, "
                           "contract_type TEXT, term_months INTEGER)")
        connection.executemany("INSERT INTO contracts VALUES (?, ?, ?, ?, ?)", [
            (f"CT-{i}", "Standard terms apply.", f"2024-0{i % 9 + 1}-01", ["Lease", "NDA"][i % 2], term)
            for i, term in enumerate((12, 24, 36, 18, 30, 6))])
    source = TableSource(f"sqlite:///{db}", "contracts")
    profile = source.profile()
    contracts = Setup(db, source, Planner("contracts", source.roles, profile),
                      SQLBuilder("contracts", source.roles, profile, source.dialect))
    assert contracts.scalar("average term in years?") == 1.75  # 21 months
    assert contracts.scalar("average term in years, one decimal") == 1.8
    assert contracts.scalar("average term in months?") == 21
    assert contracts.scalar("total term of all contracts in years") == 10.5
    assert contracts.planner.plan("average term in days").scale is None



def test_text_match_alternatives(setup: Setup) -> None:
    """"articles about solar or marathon": either word, not both (which matched none)."""
    assert setup.scalar("how many articles mention solar or marathon?") == 2
    assert setup.scalar("how many articles mention solar marathon?") == 0


def test_words_listed_as_alternatives_match_any_of_them() -> None:
    """The SQL of a named text column's alternatives matches a row holding any one of them."""
    plan = Planner("tickets", TICKET_ROLES, TICKET_PROFILE).plan(
        "How many tickets have a subject that mentions vpn or proxy?")
    connection = sqlite3.connect(":memory:")
    connection.execute("CREATE TABLE tickets (ticket_id INTEGER, subject TEXT, body TEXT, opened_at TEXT, "
                       "status TEXT, assignee TEXT, priority_score REAL)")
    connection.executemany("INSERT INTO tickets (ticket_id, subject, body) VALUES (?, ?, ?)",
                           [(1, "VPN drops", "x"), (2, "Proxy errors", "x"), (3, "Printer", "vpn in body only")])
    sql = SQLBuilder("tickets", TICKET_ROLES, TICKET_PROFILE).answer_sql(plan)
    assert connection.execute(sql).fetchall() == [(2,)]
