"""Conversations through the Assistant: each kind of follow-up answered with real SQL results and a real index.

A SQLite file and a Chroma index (hashing embedder) are built once; every expected result is computed with
hand-written SQL on the same file, so a follow-up is checked against what the complete question means.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from conftest import make_articles_db, settings_for

from rag.assistant import Assistant
from rag.data.index import VectorIndex
from rag.data.source import TableSource
from rag.models import Conversation, PlanEdit, Turn
from rag.providers import build_embedder, build_providers
from rag.settings import Settings
from rag.testing import ScriptedLLM


def _row(key: str, title: str, day: str, category: str, content: str) -> dict[str, Any]:
    return {"url": f"https://example.com/{key}", "title": title, "authors": "Ann Lee", "published_date": day,
            "article_category": category, "full_content": content}


ROWS = [
    _row("p1", "Mayor wins a narrow vote", "2023-02-10 09:00:00", "Politics",
         "The mayor won the elections by a narrow margin after a recount of every ballot."),
    _row("p2", "Council approves bike lanes", "2023-05-03 09:00:00", "Politics",
         "The council voted to build protected bike lanes downtown before winter."),
    _row("p3", "Vote postponed in the north", "2022-06-01 09:00:00", "Politics",
         "Regional elections were postponed because floods closed the polling stations."),
    _row("s1", "Home side wins the final", "2023-03-12 21:00:00", "Sports",
         "The home side won the championship final after extra time."),
    _row("s2", "Marathon draws a record crowd", "2022-04-20 08:00:00", "Sports",
         "Thousands ran the city marathon in spring sunshine."),
    _row("b1", "Earnings beat forecasts", "2023-04-03 08:00:00", "Business",
         "The retailer reported earnings well above analyst forecasts."),
    _row("b2", "Startup raises seed funding", "2023-09-28 16:00:00", "Business",
         "A startup raised seed funding to build software for small farms."),
    _row("b3", "Markets calm before the vote", "2023-10-02 10:00:00", "Business",
         "Markets stayed calm in the weeks before the national elections."),
    _row("h1", "Vaccine trial results", "2022-11-05 10:00:00", "Health",
         "Early results from a vaccine trial were promising."),
]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Settings, Assistant]:
    root = tmp_path_factory.mktemp("conversation")
    db = make_articles_db(root / "articles.db", ROWS)
    settings = settings_for(db, root / "index")
    VectorIndex(settings, build_embedder(settings)).sync(TableSource(settings.db_url, settings.table))
    return db, settings, Assistant.build(settings)


@pytest.fixture
def assistant(built: tuple[Path, Settings, Assistant]) -> Assistant:
    return built[2]


def sql(db: Path, query: str) -> list[list[Any]]:
    connection = sqlite3.connect(db)
    try:
        return [list(row) for row in connection.execute(query).fetchall()]
    finally:
        connection.close()


def rows(turn: Turn) -> list[list[Any]]:
    assert turn.error is None, turn.answer
    assert turn.result.result is not None
    return sorted(map(list, turn.result.result.rows))


def first_line(turn: Turn) -> str:
    return turn.answer.split("\n\n", 1)[0].replace("\\", "")


def spans(turn: Turn) -> list[str]:
    return [span.name for span in turn.trace.spans]


PER_CATEGORY = "SELECT article_category, COUNT(*) FROM articles WHERE substr(published_date, 1, 4) = '{year}' " \
               "GROUP BY 1 ORDER BY 1"


def test_a_conversation_edits_the_previous_reading_at_each_turn(built: tuple[Path, Settings, Assistant]) -> None:
    db, _, assistant = built
    conversation = Conversation()
    first = assistant.ask("How many articles per category in 2023?", conversation=conversation)
    assert rows(first) == sql(db, PER_CATEGORY.format(year=2023))
    assert first.result.interpretation.builds_on is None

    # replace a condition of the same column
    second = assistant.ask("and in 2022?", conversation=conversation)
    assert rows(second) == sql(db, PER_CATEGORY.format(year=2022)) != rows(first)
    assert second.result.interpretation.builds_on == 1
    assert first_line(second).startswith("_Same as #1, with published date 2022 instead of 2023 · Counted articles")
    assert any("Follow-up of #1" in note and "per category" in note for note in second.trace.notes)
    route = next(s for s in second.trace.spans if s.name == "route")
    assert route.attributes["builds_on"] == 1 and "per category" in route.attributes["inherited"]

    # add a condition
    third = assistant.ask("only politics", conversation=conversation)
    assert rows(third) == sql(db, "SELECT article_category, COUNT(*) FROM articles WHERE published_date LIKE "
                                  "'2022%' AND article_category = 'Politics' GROUP BY 1")
    assert third.result.interpretation.builds_on == 2

    # change the grouping
    fourth = assistant.ask("by month instead", conversation=conversation)
    assert rows(fourth) == sql(db, "SELECT substr(published_date, 1, 7), COUNT(*) FROM articles WHERE published_date "
                                   "LIKE '2022%' AND article_category = 'Politics' GROUP BY 1")
    assert "per month instead of per category" in first_line(fourth)

    assert [t.number for t in conversation.turns] == [1, 2, 3, 4]
    assert conversation.turns[0].table is not None and conversation.turns[0].row_keys is None


def test_which_of_those_searches_exactly_the_previous_rows(built: tuple[Path, Settings, Assistant]) -> None:
    db, _, assistant = built
    conversation = Conversation()
    listing = assistant.ask("List the politics articles from 2023", conversation=conversation)
    listed = {row[-1] if str(row[-1]).startswith("https://") else None for row in listing.result.result.rows}
    assert listed == {"https://example.com/p1", "https://example.com/p2"}
    assert conversation.turns[0].row_keys is not None and set(conversation.turns[0].row_keys) == listed

    narrowed = assistant.ask("which of those mention elections?", conversation=conversation)
    assert narrowed.error is None, narrowed.answer
    assert narrowed.route == "hybrid" and narrowed.result.restricted_row_keys == 2
    found = {chunk.row_key for chunk in narrowed.result.chunks}
    # Only rows of #1 are searched: b3 (2023, business) and p3 (2022) mention elections too, but were not listed.
    assert found and found <= listed
    assert narrowed.citations[0].url == "https://example.com/p1"
    assert "among the 2 articles of #1" in first_line(narrowed)
    assert "sql.execute" not in " ".join(spans(narrowed))  # no SQL: the keys came with turn #1

    # The same question on its own searches everything.
    alone = assistant.ask("which of those mention elections?")
    assert alone.result.interpretation.builds_on is None
    assert {c.row_key for c in alone.result.chunks} - listed


def test_which_of_those_after_an_aggregate_searches_the_rows_it_counted(
        built: tuple[Path, Settings, Assistant]) -> None:
    db, _, assistant = built
    conversation = Conversation()
    assistant.ask("How many articles per category in 2022?", conversation=conversation)
    narrowed = assistant.ask("which of them mention elections?", conversation=conversation)
    keys_2022 = {f"https://example.com/{k}" for k in ("p3", "s2", "h1")}
    assert narrowed.route == "hybrid" and narrowed.result.restricted_row_keys == 3
    assert {c.row_key for c in narrowed.result.chunks} <= keys_2022
    assert narrowed.citations and narrowed.citations[0].url == "https://example.com/p3"
    assert any(s.name == "sql.write" and "rows of #1" in str(s.attributes.get("writer")) for s in narrowed.trace.spans)


def test_why_sql_explains_the_previous_answer_without_a_query(assistant: Assistant) -> None:
    conversation = Conversation()
    first = assistant.ask("How many articles per category in 2023?", conversation=conversation)
    assistant.ask("what do we have about marathons?", conversation=conversation)
    why = assistant.ask("why SQL?", conversation=conversation)
    assert why.error is None and why.route is None and why.result.sql is None
    assert not any(name.startswith(("sql", "vector", "keyword", "embed")) for name in spans(why))
    assert why.result.interpretation.builds_on == 1  # the SQL turn, not the semantic one after it
    assert "SQL" in why.answer and "published_date" in why.answer.replace("\\", "")
    assert first.result.reason.split(";")[0].replace("'", "") in why.answer.replace("\\", "").replace("'", "")
    assert first_line(why).startswith("_About #1")
    assert conversation.turns[-1].plan is None  # an explanation is never built on
    plain = assistant.ask("why?", conversation=conversation)
    assert plain.result.interpretation.builds_on == 2  # the last answer (#3 was itself an explanation)


def test_a_question_of_its_own_is_never_merged(built: tuple[Path, Settings, Assistant]) -> None:
    db, _, assistant = built
    conversation = Conversation()
    assistant.ask("How many articles per category in 2023?", conversation=conversation)
    for question, expected in [
        ("How many health articles are there?", [[1]]),
        ("And how many articles were published in 2022?", [[3]]),
    ]:
        turn = assistant.ask(question, conversation=conversation)
        assert turn.result.interpretation.builds_on is None
        assert rows(turn) == expected
        assert next(s for s in turn.trace.spans if s.name == "followup").attributes["not_a_follow_up"]


def test_without_a_conversation_ask_is_unchanged(built: tuple[Path, Settings, Assistant]) -> None:
    db, _, assistant = built
    turn = assistant.ask("and in 2022?")
    assert turn.result.interpretation.builds_on is None and "followup" not in spans(turn)
    assert turn.route == "sql" and len(rows(turn)) == 3  # the 2022 articles, listed: the question on its own


def test_a_forced_route_reasks_the_question_as_written(assistant: Assistant) -> None:
    conversation = Conversation()
    assistant.ask("How many articles per category in 2023?", conversation=conversation)
    forced = assistant.ask("and in 2022?", route="sql", conversation=conversation)
    assert forced.result.interpretation.builds_on is None
    assert conversation.next_number == 3  # still part of the conversation, so numbers match the chat


def urls(turn: Turn) -> set[str]:
    assert turn.error is None and turn.result.result is not None, turn.answer
    column = turn.result.result.columns.index("url")
    return {row[column] for row in turn.result.result.rows}


def urls_of(db: Path, where: str) -> set[str]:
    return {row[0] for row in sql(db, f"SELECT url FROM articles WHERE {where}")}


def test_asking_a_follow_up_again_on_another_route_keeps_what_it_inherited(
        built: tuple[Path, Settings, Assistant]) -> None:
    """'Ask again as SQL' on "and in 2022?" after a politics search about elections answers the resolved reading
    (politics, 2022, the topic as a text match), not the three words as written (every 2022 article)."""
    db, _, assistant = built
    conversation = Conversation()
    assistant.ask("Politics articles about elections in 2023", conversation=conversation)
    second = assistant.ask("and in 2022?", conversation=conversation)
    assert second.result.interpretation.builds_on == 1 and second.route != "sql"
    again = assistant.ask_again(second, "sql", conversation=conversation)
    assert again.error is None, again.answer
    assert again.route == "sql" and again.trace.forced_route == "sql"
    assert urls(again) == urls_of(db, "article_category = 'Politics' AND published_date LIKE '2022%' AND "
                                      "full_content LIKE '%election%'") == {"https://example.com/p3"}
    assert again.result.interpretation.builds_on == 1
    assert first_line(again).startswith("_Same as #1, with published date 2022 instead of 2023")
    assert "forced by the user" in again.result.reason
    assert conversation.turns[-1].number == 3 and conversation.turns[-1].builds_on == 1
    plain = assistant.ask_again(assistant.ask("How many health articles are there?"), "vector")
    assert plain.route == "vector" and plain.result.interpretation.builds_on is None  # not a follow-up: as written


def test_asking_a_rewritten_follow_up_again_asks_its_standalone_question(
        built: tuple[Path, Settings, Assistant]) -> None:
    """With a language model, 'Ask again as Hybrid' on "and in 2022?" (rewritten from "How many politics articles in
    2023?") asks the standalone question on that route: the politics article of 2022, not every 2022 article."""
    db, settings, _ = built
    standalone = "How many politics articles were published in 2022?"

    def reply(prompt: str) -> str:
        if "Standalone question:" in prompt:
            return standalone
        if prompt.rstrip().endswith("SQL:"):
            year = "2022" if "2022" in prompt.rsplit("<question>", 1)[-1] else "2023"
            return (f"SELECT COUNT(*) AS n FROM articles WHERE article_category = 'Politics' AND published_date "
                    f"LIKE '{year}%'")
        return "One article."

    llm = ScriptedLLM([reply] * 20, route='[{"choice": 1, "reason": "a count"}]')
    gemini = Assistant.build(settings, providers=build_providers(settings, llm=llm))
    conversation = Conversation()
    gemini.ask("How many politics articles in 2023?", conversation=conversation)
    second = gemini.ask("and in 2022?", conversation=conversation)
    assert second.result.interpretation.standalone == standalone
    again = gemini.ask_again(second, "hybrid", conversation=conversation)
    assert again.error is None, again.answer
    assert again.route == "hybrid" and again.question == "and in 2022?"
    assert again.result.restricted_row_keys == len(sql(db, "SELECT url FROM articles WHERE article_category = "
                                                           "'Politics' AND published_date LIKE '2022%'")) == 1
    assert again.result.interpretation.builds_on == 1
    assert any(standalone in note for note in again.trace.notes)


def test_asking_which_of_those_again_searches_the_same_rows(built: tuple[Path, Settings, Assistant]) -> None:
    """Again as semantic, "which of those mention elections?" still searches only the listed rows (b3 and p3 mention
    elections too); again as SQL, the listing's conditions select the rows and the topic is a text match."""
    db, _, assistant = built
    conversation = Conversation()
    assistant.ask("List the politics articles from 2023", conversation=conversation)
    narrowed = assistant.ask("which of those mention elections?", conversation=conversation)
    listed = {"https://example.com/p1", "https://example.com/p2"}
    semantic = assistant.ask_again(narrowed, "vector", conversation=conversation)
    assert semantic.error is None, semantic.answer
    assert semantic.route == "vector" and semantic.result.restricted_row_keys == 2
    assert {c.row_key for c in semantic.result.chunks} <= listed
    assert "among the 2 articles of #1" in first_line(semantic) and first_line(semantic).startswith("_Builds on #1")
    with_sql = assistant.ask_again(narrowed, "sql", conversation=conversation)
    assert with_sql.route == "sql" and with_sql.result.interpretation.builds_on == 1
    assert urls(with_sql) == urls_of(db, "article_category = 'Politics' AND published_date LIKE '2023%' AND "
                                         "full_content LIKE '%election%'") == {"https://example.com/p1"}


def test_an_edited_turn_joins_the_conversation(assistant: Assistant) -> None:
    conversation = Conversation()
    first = assistant.ask("How many politics articles in 2023?", conversation=conversation)
    ref = next(c.ref for c in first.result.interpretation.conditions if c.column == "published_date")
    edited = assistant.rerun(first, PlanEdit(drop=[ref]), conversation=conversation)
    assert rows(edited) == [[3]]
    follow = assistant.ask("and sports?", conversation=conversation)
    assert follow.result.interpretation.builds_on == 2 and rows(follow) == [[2]]


def test_with_a_language_model_the_follow_up_is_rewritten_from_the_reading_and_sql(
        built: tuple[Path, Settings, Assistant]) -> None:
    _, settings, _ = built
    secret = "Business leads with three articles (unique-answer-text)."

    def reply(prompt: str) -> str:
        if "Standalone question:" in prompt:
            return "How many articles per category were published in 2022?"
        if prompt.rstrip().endswith("SQL:"):
            year = "2022" if "2022" in prompt.rsplit("<question>", 1)[-1] else "2023"
            return (f"SELECT article_category, COUNT(*) AS n FROM articles WHERE published_date LIKE '{year}%' "
                    "GROUP BY article_category")
        return secret

    llm = ScriptedLLM([reply] * 10)
    gemini = Assistant.build(settings, providers=build_providers(settings, llm=llm))
    conversation = Conversation()
    first = gemini.ask("How many articles per category in 2023?", conversation=conversation)
    assert first.error is None, first.answer
    second = gemini.ask("and in 2022?", conversation=conversation)
    assert second.error is None, second.answer
    rewrite = next(p for p in llm.prompts if "Standalone question:" in p)
    assert "How many articles per category in 2023?" in rewrite and first.result.sql in rewrite
    assert "and in 2022?" in rewrite and "unique-answer-text" not in rewrite
    assert len(rewrite) // 4 <= 600  # within the rewrite's token budget
    reading = second.result.interpretation
    assert reading.builds_on == 1 and reading.standalone.endswith("in 2022?")
    assert "LIKE '2022%'" in second.result.sql and second.question == "and in 2022?"
    assert first_line(second).startswith("_Builds on #1, read as")
    assert conversation.turns[1].plan is not None  # the offline reading stands in for the model's SQL


# ---------------------------------------------------------------- multi-turn cases in the evaluation


CONVERSATION_CASE = {"id": "conv", "turns": [
    {"question": "How many articles per category in 2023?", "route": "sql",
     "sql_result": [["Business", 3], ["Politics", 2], ["Sports", 1]]},
    {"question": "and in 2022?", "route": "sql", "follows": 1,
     "sql_result": [["Health", 1], ["Politics", 1], ["Sports", 1]]},
    {"question": "why SQL?", "explains": True},
    {"question": "How many health articles are there?", "route": "sql", "follows": False, "sql_result": 1},
]}


def test_conversation_cases_are_parsed_and_validated() -> None:
    from rag.evaluation.cases import CaseFileError, parse_cases

    cases = parse_cases({"version": 1, "table": "articles", "cases": [CONVERSATION_CASE]})
    assert cases.cases == () and cases.turn_count == 4
    turns = cases.conversations[0].turns
    assert [t.id for t in turns] == ["conv#1", "conv#2", "conv#3", "conv#4"]
    assert [t.follows for t in turns] == [None, 1, 2, 0] and [t.kind for t in turns][2] == "explain"
    for turns_raw, words in [
        ([CONVERSATION_CASE["turns"][0]], "at least two"),
        ([CONVERSATION_CASE["turns"][0], {**CONVERSATION_CASE["turns"][1], "follows": 2}], "earlier turn"),
        ([{"question": "why?", "explains": True}, CONVERSATION_CASE["turns"][0]], "cannot be the first"),
        ([CONVERSATION_CASE["turns"][0], {"question": "why?", "explains": True, "route": "sql"}], "only a question"),
        ([CONVERSATION_CASE["turns"][0], {**CONVERSATION_CASE["turns"][1], "id": "x"}], "unknown key"),
        ([CONVERSATION_CASE["turns"][0], {"question": "and in 2022?", "route": "sql"}], "exactly one of"),
    ]:
        with pytest.raises(CaseFileError, match=words):
            parse_cases({"version": 1, "table": "articles", "cases": [{"id": "c", "turns": turns_raw}]})


def test_run_eval_scores_each_turn_and_whether_it_built_on_the_right_one(
        built: tuple[Path, Settings, Assistant]) -> None:
    from rag.evaluation.cases import parse_cases
    from rag.evaluation.report import summary_markdown
    from rag.evaluation.runner import run_eval

    _, settings, assistant = built
    wrong = {"id": "wrong", "turns": [  # the expectations of a question of its own, for a follow-up
        {"question": "How many articles per category in 2023?", "route": "sql",
         "sql_result": [["Business", 3], ["Politics", 2], ["Sports", 1]]},
        {"question": "only politics", "route": "sql", "follows": False, "sql_result": 2},
        {"question": "why?", "explains": True, "follows": 1}]}
    cases = parse_cases({"version": 1, "table": "articles", "cases": [CONVERSATION_CASE, wrong]})
    report = run_eval(cases, settings, assistant=assistant)
    results = {r.id: r for r in report.cases}
    assert [results[f"conv#{n}"].passed for n in (1, 2, 3, 4)] == [True] * 4, \
        [(r.id, r.failure_reasons) for r in report.cases if not r.passed]
    assert results["conv#2"].builds_on == 1 and results["conv#4"].builds_on is None
    assert results["conv#3"].kind == "explain" and results["conv#3"].route_ok
    assert results["wrong#2"].failure_reasons == ["built on #1, but it is a question of its own"]
    assert not results["wrong#3"].passed  # it explained #2, not #1
    conversations = report.summary["conversations"]
    assert conversations == {"cases": 2, "turns": 7, "turns_correct": 5, "turn_accuracy": round(5 / 7, 4),
                             "all_turns_correct": 1, "follow_up_links_judged": 5, "follow_up_links_correct": 3}
    assert "| Conversation turns correct | 71.4% (5 / 7 turns of 2 conversations;" in summary_markdown(report)


def test_the_rewrite_prompt_shortens_the_earlier_reading_and_sql_to_the_token_budget() -> None:
    """The earlier question, its reading and its SQL are given to the model within the rewrite's budget: a long
    reading and SQL are cut (and say so with ' …'), the follow-up and the earlier question are kept whole."""
    from rag import tracing
    from rag.llm.followup import FOLLOWUP_TOKEN_BUDGET, followup_prompt

    long_sql = "SELECT article_category, COUNT(*) FROM articles WHERE " + " OR ".join(
        f"title LIKE '%word{i}%'" for i in range(120))
    reading = "Counted articles · " + " · ".join(f"condition number {i}" for i in range(100))
    prompt = followup_prompt("How many articles per category in 2023?", reading, long_sql, "and in 2022?")
    assert tracing.estimate_tokens(prompt) <= FOLLOWUP_TOKEN_BUDGET
    assert "<followup>\nand in 2022?\n</followup>" in prompt
    assert "question: How many articles per category in 2023?\n" in prompt
    assert "read as: Counted articles · condition number 0 ·" in prompt and "SQL: SELECT article_category" in prompt
    assert prompt.count(" …\n") == 2  # the reading and the SQL were cut, and say so


def test_a_follow_up_too_long_for_the_rewrite_budget_is_resolved_offline(
        built: tuple[Path, Settings, Assistant]) -> None:
    """A follow-up that alone overflows the rewrite's budget is not sent with a context cut to nothing: no rewrite
    call is made, the offline resolution answers it from the earlier reading, and the trace says why."""
    _, settings, _ = built

    def reply(prompt: str) -> str:
        if prompt.rstrip().endswith("SQL:"):
            return ("SELECT article_category, COUNT(*) AS n FROM articles WHERE published_date LIKE '2023%' "
                    "GROUP BY article_category")
        return "Counts per category."

    llm = ScriptedLLM([reply] * 10, route='[{"choice": 1, "reason": "a count per category"}]')
    gemini = Assistant.build(settings, providers=build_providers(settings, llm=llm))
    conversation = Conversation()
    gemini.ask("How many articles per category in 2023?", conversation=conversation)
    long = "and in 2022? " + "Keep everything else exactly as it was in the previous answer, please. " * 25
    assert len(long) < settings.max_question_chars
    second = gemini.ask(long, conversation=conversation)
    assert second.error is None, second.answer
    assert not any("Standalone question:" in p for p in llm.prompts)
    assert second.result.interpretation.builds_on == 1
    assert any("too long to be rewritten" in note for note in second.trace.notes)
    skipped = next(s for s in second.trace.spans if s.name == "llm.rewrite_followup")
    assert skipped.attributes["skipped"] and skipped.attributes["prompt_tokens"] > skipped.attributes["budget_tokens"]


def test_when_the_model_cannot_rewrite_the_follow_up_the_offline_reading_answers(
        built: tuple[Path, Settings, Assistant]) -> None:
    from rag.llm.gemini import ResilientLLM, gemini_error

    db, settings, _ = built

    def reply(prompt: str) -> str:
        if "Standalone question:" in prompt:
            raise gemini_error(503, "The model is overloaded", "UNAVAILABLE")
        if prompt.rstrip().endswith("SQL:"):
            return ("SELECT article_category, COUNT(*) AS n FROM articles WHERE published_date LIKE '2023%' "
                    "GROUP BY article_category")
        return "Counts per category."

    llm = ResilientLLM(ScriptedLLM([reply] * 10), max_attempts=1,
                       sleep=lambda _s: None, provider_label="Gemini")
    gemini = Assistant.build(settings, providers=build_providers(settings, llm=llm))
    conversation = Conversation()
    gemini.ask("How many articles per category in 2023?", conversation=conversation)
    second = gemini.ask("and in 2022?", conversation=conversation)
    assert second.error is None, second.answer
    assert second.answer.startswith("_The language model was unavailable")
    assert second.result.interpretation.builds_on == 1
    assert rows(second) == sql(db, PER_CATEGORY.format(year=2022))
