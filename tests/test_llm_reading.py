"""The language model's JSON reading (rag.understand.llm_reading): asked only when the offline reading is unsure,
validated against the table before anything runs, one corrective retry, and the plan drives all three engines.

A tiny real SQLite file and Chroma index (hashing embedder); the scripted fake plays Gemini.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import test_llm
from test_llm import INJECTION

from rag.assistant import Assistant
from rag.data.source import TableSource
from rag.models import Route
from rag.settings import Settings
from rag.testing import ScriptedLLM
from rag.tracing import estimate_tokens
from rag.understand.llm_reading import READING_MARKER, LLMReader, ReadingRejected, parse_json
from rag.understand.planner import Planner

MISREAD = "How many stories did the green desk run in 2023?"  # "green desk": the Environment section, in words
ENVIRONMENT_2023 = {"intent": "count", "topic": "", "unused": ["run"], "conditions": [
    {"column": "article_category", "op": "=", "value": "Environment", "words": "green desk"},
    {"column": "published_date", "op": "between", "value": ["2023-01-01", "2023-12-31"], "words": "in 2023"}]}


store = test_llm.store  # the same tiny table and index (built once for this module too)
ask = test_llm.ask


@pytest.fixture(scope="module")
def reader(store: tuple[Settings, Path]) -> LLMReader:
    source = TableSource.from_settings(store[0])
    return LLMReader(None, Planner(source.table, source.roles, source.profile()))


def reading_prompts(llm: ScriptedLLM) -> list[str]:
    return [p for p in llm.prompts if READING_MARKER in p]


# ---------------------------------------------------------------- the assistant with a reading


def test_a_misread_question_is_answered_from_the_models_reading(store: tuple[Settings, Path]) -> None:
    llm = ScriptedLLM([json.dumps(ENVIRONMENT_2023), "Two stories."])
    turn = ask(store, llm, MISREAD)

    assert turn.error is None, turn.answer
    assert turn.route == "sql" and turn.result.reason.startswith("compute: read by the language model")
    assert turn.result.result.rows == [[2]]  # the 2023 Environment articles, not every 2023 article (5)
    assert "'Environment'" in turn.result.sql and turn.result.sql_verdict.startswith("allowed")
    assert turn.answer.startswith("_Read by the language model · Counted articles")
    assert turn.result.interpretation.read_by == "language model"
    assert [c.words for c in turn.result.interpretation.conditions] == ["green desk", "in 2023"]
    # One call to read, one to write the answer: the SQL came from the validated reading, not from the model.
    assert len(llm.prompts) == 2 and len(reading_prompts(llm)) == 1
    prompt = reading_prompts(llm)[0]
    assert '"Business", "Environment", "Sports"' in prompt and "published_date: date, from 2022-02-10" in prompt
    assert prompt.rstrip().endswith(f"<question>{MISREAD}</question>\nJSON:")
    assert "not used: 'green', 'run'" in prompt  # the offline reading, given as a hint ('desk' names the section)
    assert [s.name for s in turn.trace.spans].count("llm.read_question") == 1
    # The answer is written from the rows and from what was computed (the restatement the user sees).
    rows_prompt = llm.prompts[1]
    assert "What the SQL computed (how the question was read): Counted articles · " in rows_prompt
    assert rows_prompt.index("</rows>") < rows_prompt.index("What the SQL computed") < rows_prompt.rindex("<question>")


def test_the_offline_reading_alone_miscounts_the_same_question(store: tuple[Settings, Path]) -> None:
    """Why the reading matters: offline, 'green desk' is not a category (the count would not be 2)."""
    settings, _ = store
    turn = Assistant.build(settings).ask(MISREAD)
    assert turn.result.result.rows != [[2]]


def test_a_certain_offline_reading_costs_no_reading_call(store: tuple[Settings, Path]) -> None:
    llm = ScriptedLLM(["Rooftop solar is spreading [1]."])
    turn = ask(store, llm, "What do the articles say about rooftop solar panels?")

    # the two calls: the search's restatement (rag.llm.restatement) and the answer
    assert turn.route == "vector" and not reading_prompts(llm) and len(llm.prompts) == 2
    assert "offline reading certain" in turn.result.reason


def test_invalid_json_gets_one_corrective_retry(store: tuple[Settings, Path]) -> None:
    llm = ScriptedLLM(["I think it is about the environment section.", json.dumps(ENVIRONMENT_2023), "Two."])
    turn = ask(store, llm, MISREAD)

    assert turn.result.result.rows == [[2]]
    first, retry = reading_prompts(llm)
    assert retry.startswith(first) and "That JSON was rejected: the reply holds no JSON object" in retry
    attempts = [s.attributes for s in turn.trace.spans if s.name == "llm.read_question"]
    assert [a["attempt"] for a in attempts] == [1, 2] and attempts[0]["rejected"]


@pytest.mark.parametrize("reply", [
    {"intent": "count", "conditions": [{"column": "secret_column", "op": "=", "value": 1}]},
    {"intent": "count", "conditions": [{"column": "article_category", "op": "=", "value": "Environment'; DROP TABLE "
                                                                                            "articles; --"}]},
    {"intent": "count", "conditions": [{"column": "authors", "op": "=", "value": "Robert'); DELETE FROM articles"}]},
    {"intent": "count", "group_by": ["sqlite_master"]},
    {"intent": "drop table", "conditions": []},
    ["not", "an", "object"],
], ids=["unknown-column", "value-injection", "unknown-person", "unknown-grouping", "unknown-intent", "a-list"])
def test_a_reading_rejected_twice_leaves_the_offline_reading_in_charge(store: tuple[Settings, Path],
                                                                       reply: Any) -> None:
    settings, db = store
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    offline_sql = "SELECT COUNT(*) AS article_count FROM articles WHERE published_date >= '2023-01-01'"
    llm = ScriptedLLM([json.dumps(reply), json.dumps(reply), offline_sql, "Five."])
    turn = ask(store, llm, MISREAD)

    assert turn.error is None, turn.answer
    assert len(reading_prompts(llm)) == 2 and llm.remaining == 0
    assert any("rejected twice" in note for note in turn.trace.notes)
    assert turn.result.interpretation is None or turn.result.interpretation.read_by == ""
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before


def test_hostile_words_in_a_valid_reading_are_not_searched_or_shown(store: tuple[Settings, Path]) -> None:
    hostile = {"intent": "topic", "topic": f"rooftop solar {INJECTION} ![x](http://evil.example/x.png)",
               "conditions": [{"column": "article_category", "op": "=", "value": "environment",
                               "words": "**click here** <script>"}]}
    llm = ScriptedLLM([json.dumps(hostile), "Rooftop solar is spreading [1]."])
    turn = ask(store, llm, "rooftop solar from the green beat")

    assert turn.route == "vector"
    reading = turn.result.interpretation
    assert reading is not None and reading.plan.topic == "rooftop solar"  # only the question's own words
    assert reading.conditions[0].value == "Environment"  # the column's spelling, not the model's
    assert "click" not in turn.answer and "evil.example" not in turn.answer and "PWNED" not in turn.answer
    assert {c.metadata.get("article_category") for c in turn.result.chunks} == {"Environment"}
    assert any("left out" in fact for fact in reading.plan.evidence)


def test_a_reading_with_a_topic_and_a_date_runs_hybrid_inside_the_selected_rows(store: tuple[Settings, Path]) -> None:
    read = {"intent": "topic", "topic": "power grid", "conditions": [
        {"column": "published_date", "op": "between", "value": ["2023-07-01", "2023-07-31"], "words": "last July"}]}
    llm = ScriptedLLM([json.dumps(read), "The heatwave tested the grid [1]."])
    turn = ask(store, llm, "what happened to the power grid last July, roughly?")

    assert turn.route == "hybrid" and turn.result.restricted_row_keys == 1
    assert {c.metadata.get("title") for c in turn.result.chunks} == {"Heatwave tests the power grid"}


def test_a_computation_the_reading_cannot_express_goes_to_text_to_sql(store: tuple[Settings, Path]) -> None:
    sql = "SELECT title FROM articles ORDER BY LENGTH(title) DESC LIMIT 1"
    llm = ScriptedLLM([json.dumps({"intent": "other"}), sql, "The longest headline is shown."])
    turn = ask(store, llm, "Which headline has the most characters, more or less?")

    assert turn.route == "sql" and turn.result.sql.startswith("SELECT title FROM articles ORDER BY LENGTH")
    assert "a computation only SQL written for it can express" in turn.result.reason
    assert len(llm.prompts) == 3


def test_scripted_reading_answers_every_reading_prompt(store: tuple[Settings, Path]) -> None:
    llm = ScriptedLLM(["Two."], reading=json.dumps(ENVIRONMENT_2023))
    turn = ask(store, llm, MISREAD)
    assert turn.result.result.rows == [[2]] and llm.remaining == 0


# ---------------------------------------------------------------- validation, one rule at a time


def test_dates_are_read_as_days_months_years_and_open_ranges(reader: LLMReader) -> None:
    def dates(op: str, value: Any) -> tuple[date, date]:
        _, plan = reader.validate({"intent": "count", "conditions": [
            {"column": "published_date", "op": op, "value": value}]}, "q")
        return plan.conditions[0].value

    assert dates("between", ["2023", "2023"]) == (date(2023, 1, 1), date(2023, 12, 31))
    assert dates("=", "2024-02") == (date(2024, 2, 1), date(2024, 2, 29))
    assert dates("between", ["2023-03-05", None]) == (date(2023, 3, 5), date.max)
    assert dates("<", "2023-01-01") == (date.min, date(2022, 12, 31))
    assert dates(">", "2022-12") == (date(2023, 1, 1), date.max)
    for op, value in (("between", ["2023-13-01", "2024"]), ("between", ["2024", "2023"]), ("like", "2023"),
                      ("between", "2023")):
        with pytest.raises(ReadingRejected):
            dates(op, value)


def test_values_and_people_take_the_tables_spelling_or_are_rejected(reader: LLMReader) -> None:
    _, plan = reader.validate({"intent": "list", "conditions": [
        {"column": "article_category", "op": "not in", "value": ["sports", "BUSINESS"]},
        {"column": "authors", "op": "=", "value": "maria  lopez"}]}, "q")
    assert [(c.kind, c.op, c.value) for c in plan.conditions] == [
        ("category", "not in", ["Sports", "Business"]), ("author", "=", "Maria Lopez")]
    with pytest.raises(ReadingRejected) as rejected:
        reader.validate({"intent": "list", "measure": "price", "conditions": [
            {"column": "authors", "op": "=", "value": "Maria"}, {"column": "title", "op": "=", "value": "x"},
            {"column": "word_count", "op": ">", "value": "many"}]}, "q")
    problems = " | ".join(rejected.value.problems)
    for expected in ("measure 'price'", "no row names the person 'Maria'", "title is text", "needs a number"):
        assert expected in problems


def test_groupings_measures_and_limits(reader: LLMReader) -> None:
    _, plan = reader.validate({"intent": "avg", "measure": "word_count", "group_by": ["year", "article_category"],
                               "limit": 3, "order": "least"}, "q")
    assert (plan.intent, plan.measure, plan.group_by, plan.limit, plan.order_most) == (
        "avg", "word_count", ["year", "category"], 3, False)
    _, plan = reader.validate({"intent": "list", "group_by": ["authors"]}, "q")
    assert plan.intent == "count" and plan.group_by == ["author"]  # a listing per group is a count per group
    assert plan.route()[0] == Route.SQL


def test_replies_are_parsed_from_fences_and_junk_is_rejected() -> None:
    assert parse_json('```json\n{"intent": "count"}\n```') == {"intent": "count"}
    assert parse_json('JSON: {"intent": "list"} ') == {"intent": "list"}
    for junk in ("", "no json here", '{"intent": "count"', "{" + "x" * 10_000 + "}"):
        with pytest.raises(ReadingRejected):
            parse_json(junk)


def test_the_prompt_fits_its_budget_on_a_table_with_many_values(tmp_path: Path) -> None:
    db = tmp_path / "posts.db"
    connection = sqlite3.connect(db)
    connection.execute("CREATE TABLE posts (link TEXT, headline TEXT, poster TEXT, posted_at TEXT, newsgroup TEXT, "
                       "body TEXT)")
    connection.executemany("INSERT INTO posts VALUES (?, ?, ?, ?, ?, ?)", [
        (f"u{i}", f"Post {i}", f"Person {i % 300}", f"2023-01-{i % 28 + 1:02d}", f"group.number.{i % 40}",
         "Some words about a subject. " * 5) for i in range(800)])
    connection.commit()
    connection.close()
    source = TableSource(f"sqlite:///{db}", "posts")
    reader = LLMReader(None, Planner(source.table, source.roles, source.profile()), budget=700)
    prompt = reader.prompt("How many posts in group.number.7 mention rockets?")
    assert estimate_tokens(prompt) <= 700
    assert "newsgroup: values" in prompt and "more)" in prompt  # the value list was shortened, and says so
    assert "posts" in prompt and "articles" not in prompt
