"""Interpretation: every condition comes from words of the question, unused words are reported, and the
restatement shown above each answer says what was computed (offline plans and LLM-written SQL alike)."""

from __future__ import annotations

import pytest
from test_planner import ARTICLE_PROFILE, ARTICLE_ROLES, TICKET_PROFILE, TICKET_ROLES

from rag.models import PlanEdit
from rag.understand.interpretation import apply_edit, interpret, interpret_sql, reading, row_noun
from rag.understand.planner import Condition, Planner
from rag.understand.text_to_sql import SQLBuilder


@pytest.fixture(scope="module")
def planner() -> Planner:
    return Planner("articles", ARTICLE_ROLES, ARTICLE_PROFILE)


def test_common_verbs_of_a_count_question_are_reported_not_filtered(planner: Planner) -> None:
    plan = planner.plan("How many reports did we put out in March 2023?")
    assert plan.topic == "" and "put" in plan.unused
    assert [c.kind for c in plan.conditions] == ["date"]
    restated = interpret(plan, "articles").restatement()
    assert restated.startswith("Counted articles") and "not used: 'put'" in restated
    sql = SQLBuilder("articles", ARTICLE_ROLES, ARTICLE_PROFILE).answer_sql(plan)
    assert "LIKE" not in sql.upper()


@pytest.mark.parametrize("question", ["How many articles about crypto in 2023?", "How many crypto articles in 2023?",
                                      'How many articles mention "interest rates"?'])
def test_marked_or_rare_topic_words_stay_a_visible_text_match(planner: Planner, question: str) -> None:
    plan = planner.plan(question)
    assert plan.topic and not plan.unused
    restated = interpret(plan, "articles").restatement()
    assert f"title or text contains '{plan.topic}'" in restated


@pytest.mark.parametrize(("question", "op", "value"), [
    ("How many articles are not about sports?", "!=", "Sports"),
    ("count the stories except politics", "!=", "Politics"),
    ("How many articles other than sports or travel?", "not in", ["Sports", "Travel"]),
])
def test_negated_categories(planner: Planner, question: str, op: str, value: object) -> None:
    [condition] = [c for c in planner.plan(question).conditions if c.kind == "category"]
    assert (condition.op, condition.value) == (op, value)
    sql = SQLBuilder("articles", ARTICLE_ROLES, ARTICLE_PROFILE).answer_sql(planner.plan(question))
    assert "NOT" in sql.upper()


@pytest.mark.parametrize("question", ["How many articles have no author?", "How many pieces have no byline?",
                                      "How many articles were published without a writer's name?"])
def test_missing_values_are_a_condition(planner: Planner, question: str) -> None:
    plan = planner.plan(question)
    [condition] = [c for c in plan.conditions if c.kind == "missing"]
    assert condition.column == ARTICLE_ROLES.authors
    sql = SQLBuilder("articles", ARTICLE_ROLES, ARTICLE_PROFILE).answer_sql(plan)
    assert "IS NULL" in sql.upper() and "TRIM" in sql.upper()
    assert f"{ARTICLE_ROLES.authors} is empty" in interpret(plan, "articles").restatement()


def test_missing_values_on_another_schema() -> None:
    tickets = Planner("tickets", TICKET_ROLES, TICKET_PROFILE)
    plan = tickets.plan("How many tickets have no assignee?")
    assert [c.column for c in plan.conditions if c.kind == "missing"] == [TICKET_ROLES.authors]


def test_restatement_of_llm_sql_lists_its_conditions() -> None:
    reading = interpret_sql("SELECT article_category, COUNT(*) FROM articles WHERE published_date >= '2023-01-01' "
                            "AND authors LIKE '%Lee%' AND article_category = 'politics' AND word_count > 1000 "
                            "GROUP BY article_category", labels={"article_category": "category"})
    texts = [c.text for c in reading.conditions]
    # plain comparisons in the columns' labels (#13), anything else as the SQL it is
    assert texts == ["published date at least 2023-01-01", "authors LIKE '%Lee%'", "category: politics",
                     "word count above 1,000"]
    assert [c.column for c in reading.conditions] == ["published_date", "authors", "article_category", "word_count"]
    assert reading.group_by == ["article_category"] and reading.group_labels == ["category"]
    assert reading.restatement().endswith("per category") and reading.action.startswith("Computed COUNT")


def test_row_noun_from_the_table_name() -> None:
    assert (row_noun("articles"), row_noun("support_ticket"), row_noun("posts")) == ("articles", "tickets", "posts")


def test_misspellings_are_read_as_the_tables_words_and_reported(planner: Planner) -> None:
    plan = planner.plan("how many artcles were pubished in the sports categroy in 2023")
    assert plan.corrections == [("artcles", "articles"), ("pubished", "published"), ("categroy", "category")]
    assert plan.intent == "count" and not plan.unused and not plan.topic
    assert "read 'artcles' as 'articles'" in interpret(plan, "articles").restatement()


@pytest.mark.parametrize("word", ["Dooley", "Szczepanksi", "crypto", "KX220"])
def test_rare_names_and_codes_are_left_as_written(planner: Planner, word: str) -> None:
    assert planner.plan(f"anything about {word}?").corrections == []


@pytest.mark.parametrize(("question", "missing"), [("What's the average price of an article?", "price"),
                                                   ("total revenue of sports articles", "revenue"),
                                                   ("highest salary in politics", "salary")])
def test_a_measure_the_table_lacks_is_named_not_replaced(planner: Planner, question: str, missing: str) -> None:
    plan = planner.plan(question)
    assert plan.missing == missing and plan.measure is None


@pytest.mark.parametrize("question", ["average word count in politics", "the typical length of a sports piece",
                                      "average number of words per category", "highest word count"])
def test_measures_the_table_has_are_computed(planner: Planner, question: str) -> None:
    plan = planner.plan(question)
    assert plan.missing is None and plan.measure == "word_count"


@pytest.fixture(scope="module")
def tickets() -> Planner:
    return Planner("tickets", TICKET_ROLES, TICKET_PROFILE)


@pytest.mark.parametrize("question", ["How many requests are open?", "how many issues are in open state?",
                                      "count the open cases"])
def test_plain_names_for_rows_and_columns(tickets: Planner, question: str) -> None:
    """'requests'/'issues'/'cases' name a ticket table's rows and 'state' its status column."""
    plan = tickets.plan(question)
    assert plan.intent == "count" and not plan.topic and not plan.unused
    assert [(c.column, c.value) for c in plan.conditions] == [("status", "open")]


def test_ownership_verbs_and_excluded_people(tickets: Planner) -> None:
    assert [(c.op, c.value) for c in tickets.plan("open tickets that Bob Stone owns").conditions
            if c.kind == "author"] == [("=", "Bob Stone")]
    plan = tickets.plan("open tickets not handled by Bob Stone or Carla de la Cruz")
    assert sorted((c.op, c.value) for c in plan.conditions if c.kind == "author") == [
        ("!=", "Bob Stone"), ("!=", "Carla de la Cruz")]
    sql = SQLBuilder("tickets", TICKET_ROLES, TICKET_PROFILE).answer_sql(plan)
    assert sql.count("NOT ") == 2 and "IS NULL" in sql  # unassigned tickets are not handled by either
    assert not [c for c in plan.conditions if c.kind == "author" and c.chroma_ok]
    assert "assignee does not include 'Bob Stone'" in interpret(plan, "tickets").restatement()


def test_a_listing_keeps_its_structure_and_reports_filler_words(planner: Planner) -> None:
    plan = planner.plan("Which sports stories went out on a Sunday?")
    assert plan.intent == "list" and plan.route()[0].value == "sql" and plan.topic == ""
    assert [c.kind for c in plan.conditions] == ["weekday", "category"]


def test_words_between_which_and_the_row_noun_are_read(tickets: Planner) -> None:
    plan = tickets.plan("Which open tickets are not assigned to Bob Stone?")
    assert plan.intent == "list"
    assert sorted((c.kind, c.op, c.value) for c in plan.conditions) == [
        ("author", "!=", "Bob Stone"), ("category", "=", "open")]


@pytest.mark.parametrize(("typed", "read"), [("lenght", "length"), ("entertanment", "entertainment"),
                                             ("Febuary", "february")])
def test_swapped_and_missing_letters_are_corrected(planner: Planner, typed: str, read: str) -> None:
    assert planner.plan(f"average {typed} of sports articles in 2023").corrections == [(typed, read)]


def test_a_grouped_share_says_whether_it_is_within_each_group_or_of_one_whole(planner: Planner) -> None:
    within = interpret(planner.plan("What percentage of each year's articles were sports?"), "articles")
    assert within.action == "Share of each year's articles"
    assert [r.text for r in within.conditions] == ["category: Sports"]
    parts = interpret(planner.plan("What share of the 2023 articles went to each category?"), "articles")
    assert parts.action == "Each category's share of the articles"
    assert all(r.text.startswith("of all with") for r in parts.conditions)


def test_a_contrast_is_restated_as_one_against_the_other(planner: Planner) -> None:
    """"Did Q2 2023 beat Q1 2023": the two quarters are alternatives (they were ANDed: 0 articles), one row
    against the other with the answer to the yes/no, not a split per quarter; removing a quarter counts the other."""
    plan = planner.plan("Did Q2 2023 beat Q1 2023 on number of articles published?")
    assert plan.contrast == ">" and [c.kind for c in plan.conditions] == ["date_any"]
    reading = interpret(plan, "articles")
    assert reading.group_by == [] and "whether the first is more" in reading.restatement()
    edited = apply_edit(plan, PlanEdit(drop=["condition:0"]))
    assert edited.contrast == "" and edited.conditions == []
    fewer = planner.plan("How many fewer politics articles than sports articles?")  # (the second minus the first)
    assert fewer.contrast == "shortfall" and "falls short of the second" in interpret(fewer, "articles").restatement()
    assert planner.plan("did sports or politics run more pieces?").contrast == ""  # which of them: a row each
    change = planner.plan("by what percentage did the number of articles change from 2022 to 2023?")
    assert "their difference, also in percent of the second" in interpret(change, "articles").restatement()


def test_a_range_is_restated_as_one(planner: Planner) -> None:
    plan = planner.plan("what's the difference between the longest and the shortest article")
    assert "Range of word count (highest minus lowest)" in interpret(plan, "articles").restatement()


def test_a_quoted_text_set_aside_is_restated() -> None:
    condition = Condition("text_like", "", "not contains", "Explainer:", "not counting the 'Explainer:' ones")
    assert reading(condition).text == "title or text does not contain 'Explainer:'"


def test_words_listed_as_alternatives_are_restated_as_such() -> None:
    condition = Condition("text_like", "subject", "contains", ["login", "log in", "password"],
                          "subject mentions login, log in or password")
    assert reading(condition).text == "subject contains 'login', 'log in' or 'password'"


def test_a_contrast_within_each_group_says_so(planner: Planner) -> None:
    """"Which sections published more articles in Q2 2023 than in Q1 2023?": the restatement says the two values are
    set against each other for each section, and that only the sections where the first is more are kept."""
    reading = interpret(planner.plan("Which categories published more articles in Q2 2023 than in Q1 2023?"),
                        "articles")
    assert "for each category, only the category values where the first is more" in reading.action
    assert reading.group_by == ["category"]


def test_rows_sorted_by_a_number_say_the_order_and_the_sql_has_no_top_n(planner: Planner) -> None:
    """"articles sorted by word count, low to high": every row in that order, said so (it read "Shortest articles
    by word count (top 5)" or grouped)."""
    plan = planner.plan("list Sports articles sorted by word count, low to high")
    assert interpret(plan, "articles").action == "Listed articles, lowest word count first"
    sql = SQLBuilder("articles", ARTICLE_ROLES, ARTICLE_PROFILE).answer_sql(plan)
    assert 'ORDER BY "word_count" ASC' in sql and "LIMIT 50" in sql and "GROUP BY" not in sql


def test_a_condition_against_the_average_is_restated_with_its_base(planner: Planner) -> None:
    plan = planner.plan("How many Sports articles are shorter than average?")
    restated = interpret(plan, "articles").restatement()
    assert "word count below the average of the matching rows" in restated and "category: Sports" in restated
