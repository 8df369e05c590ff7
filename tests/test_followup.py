"""Follow-up detection and resolution (rag.understand.followup) on many wordings, follow-ups and not.

A real planner over a tiny SQLite table; no index, no engine: these tests read plans only.
"""

from __future__ import annotations

import dataclasses
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from conftest import make_articles_db

from rag.data.source import TableSource
from rag.models import Conversation, ConversationTurn, QueryResult
from rag.understand.followup import detect, plan_from_dict, plan_to_dict, resolve
from rag.understand.planner import Planner, QueryPlan


def _row(key: str, title: str, day: str, category: str, content: str, authors: str = "Ann Lee") -> dict[str, Any]:
    return {"url": f"https://example.com/{key}", "title": title, "authors": authors, "published_date": day,
            "article_category": category, "full_content": content}


ROWS = [
    _row("p1", "Mayor wins the vote", "2023-02-10 09:00:00", "Politics", "The mayor won the elections narrowly."),
    _row("p2", "Council approves bike lanes", "2023-05-03 09:00:00", "Politics", "The council voted for lanes."),
    _row("p3", "Vote postponed in the north", "2022-06-01 09:00:00", "Politics", "Regional elections were postponed."),
    _row("s1", "Home side wins the final", "2023-03-12 21:00:00", "Sports", "The home side won after extra time."),
    _row("s2", "Marathon draws record crowd", "2022-04-20 08:00:00", "Sports", "Thousands ran the marathon."),
    _row("b1", "Earnings beat forecasts", "2023-04-03 08:00:00", "Business", "The retailer beat forecasts."),
    _row("h1", "Vaccine trial results", "2022-11-05 10:00:00", "Health", "Early results were promising."),
]


@pytest.fixture(scope="module")
def planner(tmp_path_factory: pytest.TempPathFactory) -> Planner:
    db = make_articles_db(Path(tmp_path_factory.mktemp("followup")) / "articles.db", ROWS)
    source = TableSource(f"sqlite:///{db}", "articles")
    return Planner(source.table, source.roles, source.profile())


def year(value: int) -> tuple[date, date]:
    return date(value, 1, 1), date(value, 12, 31)


def conditions(plan: QueryPlan) -> list[tuple[str, str, Any]]:
    return [(c.kind, c.op, c.value) for c in plan.conditions]


COUNT_2023 = "How many articles per category in 2023?"


# ---------------------------------------------------------------- detection


@pytest.mark.parametrize("question", [
    "and in 2022?", "And in 2022", "what about 2022?", "How about 2022?", "same for 2022", "the same in 2022",
    "2022 instead", "in 2022 instead?", "now for 2022", "and for 2022?", "what about in 2022?",
])
def test_a_new_date_replaces_the_previous_one(planner: Planner, question: str) -> None:
    found = detect(question, planner)
    assert found.kind == "edit", (found.reason, found.evidence)
    followup = resolve(found, planner.plan(COUNT_2023), 1)
    assert conditions(followup.plan) == [("date", "between", year(2022))]
    assert followup.plan.group_by == ["category"] and followup.plan.intent == "count"
    assert followup.changes == ["with published date 2022 instead of 2023"]


@pytest.mark.parametrize("question", ["only politics", "just politics", "politics?", "and only politics",
                                      "only the politics ones", "what about politics?"])
def test_a_new_value_is_added(planner: Planner, question: str) -> None:
    followup = resolve(detect(question, planner), planner.plan(COUNT_2023), 1)
    assert conditions(followup.plan) == [("date", "between", year(2023)), ("category", "=", "Politics")]
    assert followup.changes == ["only article category: Politics"]


def test_a_value_of_the_same_column_replaces_or_with_too_joins_it(planner: Planner) -> None:
    base = planner.plan("How many politics articles per month?")
    replaced = resolve(detect("and sports?", planner), base, 3)
    assert conditions(replaced.plan) == [("category", "=", "Sports")]
    assert replaced.changes == ["with article category: Sports instead of Politics"]
    joined = resolve(detect("and sports too", planner), base, 3)
    assert conditions(joined.plan) == [("category", "in", ["Politics", "Sports"])]
    excluded = resolve(detect("not sports", planner), planner.plan(COUNT_2023), 1)
    assert conditions(excluded.plan)[-1] == ("category", "!=", "Sports")


@pytest.mark.parametrize(("question", "grouping"), [
    ("by month instead", ["month"]), ("show it by month", ["month"]), ("per month", ["month"]),
    ("same but per author", ["author"]), ("break it down by year", ["year"]), ("and by author instead", ["author"]),
])
def test_a_new_grouping_replaces_the_previous_one(planner: Planner, question: str, grouping: list[str]) -> None:
    followup = resolve(detect(question, planner), planner.plan(COUNT_2023), 1)
    assert followup.plan.group_by == grouping and followup.plan.intent == "count"
    assert conditions(followup.plan) == [("date", "between", year(2023))]
    assert followup.changes == [f"per {grouping[0]} instead of per category"]


@pytest.mark.parametrize("question", ["which of those mention elections?", "Which of them are about elections?",
                                      "any of these about elections", "which ones of those talk about elections?",
                                      "among those, which mention elections?"])
def test_which_of_those_restricts_to_the_previous_rows(planner: Planner, question: str) -> None:
    found = detect(question, planner)
    assert found.kind == "restrict", (found.reason, found.evidence)
    followup = resolve(found, planner.plan("List the politics articles from 2023"), 2)
    assert followup.kind == "restrict" and followup.plan.topic == "elections"
    assert followup.plan.conditions == [] and followup.plan.intent == "topic"


@pytest.mark.parametrize("question", ["why SQL?", "Why?", "why was that answered with SQL?", "how did you get that?",
                                      "explain that answer", "why semantic search and not SQL?", "why #1?",
                                      "How was that computed?"])
def test_why_asks_for_an_explanation(planner: Planner, question: str) -> None:
    assert detect(question, planner).kind == "explain"


@pytest.mark.parametrize(("question", "kind"), [
    ("How did you arrive at that figure?", "explain"),  # plain words pointing back at the answer
    ("How did you come up with those numbers?", "explain"),
    ("How did you arrive at the crypto figure?", "none"),  # a rare word: something to search
    ("How did you arrive at that politics figure?", "none"),  # a value of the table: a question of its own
])
def test_plain_words_pointing_back_ask_for_an_explanation(planner: Planner, question: str, kind: str) -> None:
    assert detect(question, planner).kind == kind


def test_an_explanation_names_the_route_or_the_turn_it_asks_about(planner: Planner) -> None:
    assert detect("why SQL?", planner).route_named == "sql"
    assert detect("why semantic search?", planner).route_named == "vector"
    assert detect("why was #2 hybrid?", planner).refers_to == 2


@pytest.mark.parametrize(("question", "check"), [
    ("for all years", lambda p: conditions(p) == [] and p.group_by == ["category"]),
    ("overall", lambda p: p.group_by == [] and conditions(p) == [("date", "between", year(2023))]),
    ("in total", lambda p: p.group_by == [] and p.intent == "count"),
    ("list them", lambda p: p.intent == "list" and p.group_by == []),
    ("how many of them are politics?", lambda p: conditions(p)[-1] == ("category", "=", "Politics")),
    ("the average word count?", lambda p: p.intent == "avg" and p.measure == "word_count"),
    ("what about the ones about crypto?", lambda p: p.topic == "crypto" and p.group_by == ["category"]),
    ("top 2", lambda p: p.limit == 2 and p.order_most),
])
def test_other_edits(planner: Planner, question: str, check: Any) -> None:
    found = detect(question, planner)
    assert found.kind == "edit", (found.reason, found.evidence)
    assert check(resolve(found, planner.plan(COUNT_2023), 1).plan)


@pytest.mark.parametrize("question", [
    "How many health articles are there?", "And how many articles were published in 2022?",
    "What do we have about children?", "Why are there so many articles in 2023?", "Tell me about bees",
    "Which articles mention those elections?", "Explain the election results", "List the sports articles from 2023",
    "Anything about crypto in 2023?", "Who writes the most articles?", "What is the average word count?",
    "How did you vote in the elections?", "Articles about the same mayor", "Only 3 articles mention floods?",
])
def test_questions_of_their_own_are_not_follow_ups(planner: Planner, question: str) -> None:
    found = detect(question, planner)
    assert found.kind == "none", found.evidence
    assert found.reason


@pytest.mark.parametrize("question", [
    "How many health articles are there in total?", "How many articles were published overall?",
    "How many politics articles are there for all years?",
])
def test_a_complete_question_ending_in_a_cue_that_takes_something_away_is_its_own(planner: Planner,
                                                                                  question: str) -> None:
    """'in total', 'overall', 'for all years' take something away from a fragment ("overall"), but end a question
    that names its rows and asks for something without pointing back."""
    found = detect(question, planner)
    assert found.kind == "none" and "complete question" in found.reason, found.evidence
    assert detect("overall", planner).kind == detect("in total", planner).kind == "edit"


@pytest.mark.parametrize(("question", "check"), [
    ("what about May?", lambda p: conditions(p)[-1] == ("date", "between", (date(2023, 5, 1), date(2023, 5, 31)))),
    ("and February?", lambda p: conditions(p)[-1][2][0] == date(2023, 2, 1) and p.group_by == ["category"]),
    ("and the shortest?", lambda p: p.intent == "shortest" and not p.topic),
    ("the longest?", lambda p: p.intent == "longest" and not p.topic),
])
def test_a_fragment_is_read_as_the_short_question_it_stands_for(planner: Planner, question: str, check: Any) -> None:
    """A month name alone, or a superlative with no row noun, is not a topic to search for: read in the context
    of a follow-up as "in May" or "the shortest articles"."""
    found = detect(question, planner)
    assert found.kind == "edit", (found.reason, found.evidence)
    # ("February" is a date on its own since session 16: no other word or name; "May" needs the fragment's reading)
    assert question == "and February?" or any("a fragment, read as" in e for e in found.evidence)
    assert check(resolve(found, planner.plan(COUNT_2023), 1).plan)


def test_a_changed_superlative_keeps_the_number_of_rows_asked_for(planner: Planner) -> None:
    one = resolve(detect("and the longest?", planner), planner.plan("What is the shortest article?"), 1).plan
    three = resolve(detect("and the longest?", planner), planner.plan("Show the 3 shortest articles"), 1).plan
    four = resolve(detect("and the 4 longest?", planner), planner.plan("Show the 3 shortest articles"), 1).plan
    assert (one.intent, one.limit) == ("longest", 1) and three.limit == 3 and four.limit == 4


@pytest.mark.parametrize("question", ["regardless of the year", "irrespective of the date", "no matter the year"])
def test_regardless_of_takes_a_condition_away(planner: Planner, question: str) -> None:
    found = detect(question, planner)
    assert found.kind == "edit" and found.drop_columns == ["published_date"], (found.reason, found.evidence)
    plan = resolve(found, planner.plan("How many politics articles in 2023?"), 1).plan
    assert conditions(plan) == [("category", "=", "Politics")]


def test_a_follow_up_that_keeps_the_topic_searches_for_it(planner: Planner) -> None:
    """The text searched for "only politics" after a search about elections in 2023 is the earlier question
    without the year it replaced, plus what it adds, not "politics" alone."""
    base = planner.plan("articles about elections in 2023")
    politics = resolve(detect("only politics", planner), base, 1).plan
    assert politics.topic == "elections" and "elections" in politics.question and "politics" in politics.question
    year = resolve(detect("and in 2022?", planner), base, 1).plan
    assert "2023" not in year.question and "elections" in year.question and "2022" in year.question
    other = resolve(detect("what about marathons?", planner), base, 1).plan
    assert other.topic == "marathons" and "elections" not in other.question


def test_resolution_leaves_the_base_plan_unchanged(planner: Planner) -> None:
    base = planner.plan(COUNT_2023)
    before = plan_to_dict(base)
    for question in ("and in 2022?", "only politics", "by month instead", "for all years", "list them"):
        resolve(detect(question, planner), base, 1)
    assert plan_to_dict(base) == before


def test_routing_follows_the_resolved_plan(planner: Planner) -> None:
    base = planner.plan("articles about elections in 2023")
    assert base.route()[0].value == "hybrid"
    swapped = resolve(detect("what about floods?", planner), base, 1)
    assert swapped.plan.topic == "floods" and swapped.plan.route()[0].value == "hybrid"
    assert swapped.changes == ["about 'floods' instead of 'elections'"]
    counted = resolve(detect("how many of them?", planner), base, 1)
    assert counted.plan.intent == "count" and counted.plan.route()[0].value == "sql"


# ---------------------------------------------------------------- conversation state as plain data


def test_plans_round_trip_as_plain_data(planner: Planner) -> None:
    for question in (COUNT_2023, "What share of the 2023 articles are politics?", "articles from March onwards",
                     "politics articles without an author on weekends", "List articles with more than 5 words"):
        plan = planner.plan(question)
        again = plan_from_dict(plan_to_dict(plan))
        assert plan_to_dict(again) == plan_to_dict(plan)
        assert [(c.kind, c.column, c.op, c.value) for c in again.conditions] == \
               [(c.kind, c.column, c.op, c.value) for c in plan.conditions]
        assert again.route() == plan.route()


def test_conversation_state_round_trips_as_json(planner: Planner) -> None:
    import json

    state = Conversation([ConversationTurn(1, "t1", COUNT_2023, "sql", "compute", "Counted", ["published_date 2023"],
                                           "SELECT 1", plan_to_dict(planner.plan(COUNT_2023)), None,
                                           QueryResult(["c", "n"], [["a", 1]])),
                          ConversationTurn(2, "t2", "why?", builds_on=1)])
    again = Conversation.from_dict(json.loads(json.dumps(state.to_dict())))
    assert again == state
    assert again.last_answer() is again.turns[0] and again.next_number == 3
    for broken in ({}, {"version": 2, "turns": []}, {"version": 1, "turns": [{"number": 1}]}, [1]):
        with pytest.raises(ValueError):
            Conversation.from_dict(broken)
    assert dataclasses.asdict(again)["turns"][0]["table"] == {"columns": ["c", "n"], "rows": [["a", 1]],
                                                             "row_limit_hit": False, "truncated_cells": 0}


def test_the_routing_reason_drops_what_the_follow_up_replaced(planner: Planner) -> None:
    base = planner.plan(COUNT_2023)
    listed = resolve(detect("list them", planner), base, 1).plan.route()[1]
    assert "group by" not in listed and "count (" not in listed and "list ('list')" in listed
    swapped = resolve(detect("and in 2022?", planner), base, 1).plan.route()[1]
    assert "'in 2022'" in swapped and "2023" not in swapped and "group by category" in swapped


def test_a_bare_threshold_replaces_the_earlier_bound(planner: Planner) -> None:
    """"and over 2,500?" after a count of articles longer than 1,000 words: the new bound of the same column (it was
    a text match on '2 500' with the old bound kept)."""
    base = planner.plan("How many articles from 2023 ran longer than 1,000 words?")
    found = detect("and over 2,500?", planner)
    assert found.is_follow_up
    plan = resolve(found, base, 1).plan
    assert [(c.column, c.op, c.value) for c in plan.conditions if c.kind == "number"] == [("word_count", ">", 2500)]
    assert plan.topic == "" and plan.intent == "count"
    # without a numeric condition to bound, the number is not given a column
    other = resolve(detect("and over 2,500?", planner), planner.plan("How many articles from 2023?"), 1).plan
    assert not [c for c in other.conditions if c.kind == "number"]
