"""The SQL, vector and hybrid engines end to end over a real SQLite file and a real Chroma index.

Built per module in tmp_path with the deterministic hashing embedder: similarity is word overlap, so
the rows below are written to make the expected matches unambiguous.
"""

from __future__ import annotations

import math
import shutil
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from conftest import answer_body, make_articles_db, settings_for, sha256_file
from llama_index.core.schema import NodeWithScore, TextNode
from llama_index.core.vector_stores.types import FilterCondition, FilterOperator, MetadataFilters

from rag import tracing
from rag.answer import hybrid_engine, retrieval, sql_engine
from rag.answer.context import EngineContext
from rag.answer.filters import chroma_filters
from rag.answer.retrieval import best_chunk_per_row, retrieve, to_chunk
from rag.answer.sql_database import GuardedSQLDatabase
from rag.answer.sql_engine import build_sql_engine
from rag.assistant import Assistant
from rag.data.index import VectorIndex
from rag.data.source import TableSource
from rag.errors import QueryFailed, UnsafeSQL
from rag.models import Chunk, Trace, Turn
from rag.providers import build_embedder
from rag.settings import Settings
from rag.understand import text_to_sql
from rag.understand.offline_writer import OFFLINE_TEXT_TO_SQL_PROMPT, OfflineSQLWriter
from rag.understand.planner import Condition, QueryPlan


def _row(key: str, title: str, authors: str, day: str, category: str, content: str) -> dict[str, Any]:
    return {"url": key, "title": title, "authors": authors, "published_date": day, "article_category": category,
            "full_content": content}


ROWS = [
    _row("k1", "Honey harvest on city roofs", "Ann Lee", "2023-03-10 09:00:00", "Environment",
         "Rooftop beekeepers harvest honey from city hives every summer."),
    _row("k2", "Bees swarm a bus shelter", "Tom Baker; Ann Lee", "2023-05-20 14:00:00", "Environment",
         "A swarm of bees settled on a bus shelter downtown until a volunteer collected it."),
    _row("k3", "Election results announced", "Maria Lopez", "2022-11-09 21:00:00", "Politics",
         "The mayor won the election by a narrow margin after a recount."),
    _row("k4", "Quarterly earnings beat forecasts", "", "2023-04-03 08:00:00", "Business",
         "The retailer reported earnings well above analyst forecasts this quarter."),
    _row("k5", "Seed funding for farm software", "John Smith; Li Wei", "2023-09-28 16:00:00", "Business",
         "A startup raised seed funding to build software for small farms."),
    _row("k6", "Marathon record falls", "Tom Baker", "2022-04-24 12:00:00", "Sports",
         "The marathon record fell on a cold morning as runners crossed the bridge."),
]


@dataclass
class Corpus:
    db: Path
    settings: Settings
    assistant: Assistant

    @property
    def context(self) -> EngineContext:
        return self.assistant.context


def build_corpus(root: Path, rows: list[dict[str, Any]] = ROWS, **settings_kw: Any) -> Corpus:
    db = make_articles_db(root / "articles.db", rows)
    settings = settings_for(db, root / "index", **settings_kw)
    VectorIndex(settings, build_embedder(settings)).sync(TableSource(settings.db_url, settings.table))
    return Corpus(db, settings, Assistant.build(settings))


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    return build_corpus(tmp_path_factory.mktemp("engines"))


def span_names(turn: Turn) -> list[str]:
    return [s.name for s in turn.trace.spans]


def spans(turn: Turn, name: str) -> list[Any]:
    return [s for s in turn.trace.spans if s.name == name]


def cited_keys(turn: Turn) -> list[str]:
    return [c.row_key or c.url for c in turn.citations]


# --------------------------------------------------------------------------- the three routes


def test_sql_route(corpus: Corpus) -> None:
    turn = corpus.assistant.ask("How many articles per year?")
    assert turn.error is None
    assert turn.route == "sql"
    assert turn.result.sql.startswith("SELECT") and "LIMIT" in turn.result.sql
    assert turn.result.sql_verdict.startswith("allowed")
    assert turn.result.result.columns == ["year", "article_count"]
    assert turn.result.result.rows == [["2022", 2], ["2023", 4]]
    assert answer_body(turn).startswith("2 groups by year; highest number of articles: 2023 (4); lowest: 2022 (2).")
    assert "Computed with SQL over table `articles`" in turn.answer
    assert turn.chart is not None and turn.chart.kind == "bar"
    assert {"sql.guard", "sql.execute", "sql.nl_to_sql", "synthesize"} <= set(span_names(turn))
    assert "vector.search" not in span_names(turn)


def test_sql_route_rounds_to_the_decimals_asked(corpus: Corpus) -> None:
    """"… what is that total (rounded to the euro)?" showed 7105859.09: the numbers of the plan's SQL are rounded to
    the decimals asked, fewer than the two shown by default; counts stay whole."""
    turn = corpus.assistant.ask("What is the average word count per category, rounded to whole numbers?")
    assert turn.error is None and turn.route == "sql"
    rows = turn.result.result.rows
    assert rows and all(float(row[-1]).is_integer() for row in rows), rows
    plain = corpus.assistant.ask("What is the average word count per category?").result.result.rows
    assert [math.floor(row[-1] + 0.5) for row in plain] == [row[-1] for row in rows]  # (halves up, as SQL rounds)
    assert any(not float(row[-1]).is_integer() for row in plain)  # (the fixture has averages with decimals)
    # (a total the SQL does not round is rounded after: halves away from zero, as SQL's ROUND)
    assert [sql_engine.half_up(v, 0) for v in (2.5, -2.5, 7105859.09, 0.49)] == [3.0, -3.0, 7105859.0, 0.0]


def test_sql_route_listing_cites_rows(corpus: Corpus) -> None:
    turn = corpus.assistant.ask("latest 2 articles")
    assert turn.route == "sql"
    assert [c.title for c in turn.citations] == ["Seed funding for farm software", "Bees swarm a bus shelter"]
    assert [c.url for c in turn.citations] == ["k5", "k2"]


def test_a_full_listing_says_how_many_rows_match(corpus: Corpus, monkeypatch: pytest.MonkeyPatch) -> None:
    """A listing shows its first LIST_LIMIT rows; when it is full, one more guarded COUNT says how many match ("Found
    50 articles" for 56 was a wrong number that looked right)."""
    monkeypatch.setattr(text_to_sql, "LIST_LIMIT", 2)
    monkeypatch.setattr(sql_engine, "LIST_LIMIT", 2)
    turn = corpus.assistant.ask("articles published in 2023")
    assert turn.route == "sql" and len(turn.result.result.rows) == 2
    assert answer_body(turn).startswith("Found 4 articles") and "the first 2 are in the table" in turn.answer
    assert any("COUNT(*)" in str(s.attributes.get("sql")) for s in spans(turn, "sql.execute"))
    monkeypatch.setattr(text_to_sql, "LIST_LIMIT", 50)
    monkeypatch.setattr(sql_engine, "LIST_LIMIT", 50)
    turn = corpus.assistant.ask("articles published in 2023")  # (not full: no second statement)
    assert answer_body(turn).startswith("Found 4 articles") and len(spans(turn, "sql.execute")) == 1


def test_vector_route(corpus: Corpus) -> None:
    turn = corpus.assistant.ask("What do the articles say about rooftop honey harvest?")
    assert turn.route == "vector"
    assert turn.result.reason.startswith("topic 'rooftop honey harvest'")
    assert cited_keys(turn)[0] == "k1"
    assert "[1]" in turn.answer and "Honey harvest on city roofs" in turn.answer
    [search] = spans(turn, "vector.search")
    assert search.attributes["batches"] == 1
    assert search.attributes["results"][0]["score"] == turn.result.chunks[0].score
    assert 0 < turn.result.chunks[0].score <= 1
    assert turn.result.chunks[0].row_key == "k1"
    assert "sql.execute" not in span_names(turn)


def test_vector_route_with_category_filter(corpus: Corpus) -> None:
    turn = corpus.assistant.ask("Which business articles are about funding?")
    assert turn.route == "vector"
    assert [f.describe() for f in turn.result.filters] == ["article_category == 'Business'"]
    assert turn.result.chunks
    assert {c.metadata["article_category"] for c in turn.result.chunks} == {"Business"}
    assert cited_keys(turn)[0] == "k5"


def test_vector_route_with_exact_author_in_a_multi_author_cell(corpus: Corpus) -> None:
    turn = corpus.assistant.ask("What did Ann Lee write about bees?", route="vector")  # routed hybrid: a person
    assert turn.route == "vector"
    assert [f.describe() for f in turn.result.filters] == ["author_* == 'Ann Lee'"]
    # k2 lists Ann Lee second ("Tom Baker; Ann Lee"): it is found through author_1
    assert {c.row_key for c in turn.result.chunks} == {"k1", "k2"}


def test_hybrid_route(corpus: Corpus) -> None:
    turn = corpus.assistant.ask("articles about bees in May 2023")
    assert turn.route == "hybrid"
    assert "published_date in [2023-05-01, 2023-05-31]" in turn.result.reason
    assert turn.result.restricted_row_keys == 1
    assert turn.result.filters[0].describe() == "row_key in '1 rows selected by SQL'"
    assert {c.row_key for c in turn.result.chunks} == {"k2"}
    assert cited_keys(turn) == ["k2"]
    names = span_names(turn)
    assert names.index("sql.execute") < names.index("vector.search")


def test_hybrid_with_partial_author(corpus: Corpus) -> None:
    turn = corpus.assistant.ask("articles by Baker about bees")
    assert turn.route == "hybrid"
    assert turn.result.restricted_row_keys == 2  # k2 and k6
    assert {c.row_key for c in turn.result.chunks} <= {"k2", "k6"}
    assert cited_keys(turn)[0] == "k2"


def test_hybrid_with_no_matching_rows_skips_the_vector_search(corpus: Corpus) -> None:
    turn = corpus.assistant.ask("articles about bees in January 2023")  # inside the table's dates, no rows
    assert turn.route == "hybrid"
    assert turn.error is None
    assert answer_body(turn).startswith("No rows match the structured part of the question "
                                  "(published\\_date in \\[2023-01-01, 2023-01-31\\])")  # escaped once
    assert turn.result.restricted_row_keys == 0
    assert "vector.search" not in span_names(turn)
    assert "embed.query" not in span_names(turn)
    assert turn.result.chunks == []
    assert turn.citations == []


def test_hybrid_with_a_year_outside_the_table_says_which_dates_it_has(corpus: Corpus) -> None:
    turn = corpus.assistant.ask("articles about bees from 2020")  # the table runs from 2022 to 2023
    assert turn.route == "hybrid" and turn.result.restricted_row_keys == 0
    assert answer_body(turn).endswith("nothing to search. The table's dates run from 2022-04-24 to 2023-09-28.")


def test_an_exact_author_with_a_topic_is_searched_inside_their_rows(corpus: Corpus) -> None:
    turn = corpus.assistant.ask("What did Ann Lee write about bees?")
    assert turn.route == "hybrid" and "a person" in turn.result.reason
    assert turn.result.restricted_row_keys == 2  # k1 and k2 (Ann Lee second in "Tom Baker; Ann Lee")
    assert {c.row_key for c in turn.result.chunks} <= {"k1", "k2"}


def test_forced_vector_route_applies_dates_inside_chroma(corpus: Corpus) -> None:
    turn = corpus.assistant.ask("articles about bees in May 2023", route="vector")
    assert turn.route == "vector"
    assert [f.describe() for f in turn.result.filters] == ["date_ymd >= 20230501", "date_ymd <= 20230531"]
    assert {c.row_key for c in turn.result.chunks} == {"k2"}


def test_nothing_relevant_is_said_plainly(corpus: Corpus) -> None:
    turn = corpus.assistant.ask("What do we know about volcanoes erupting?")
    assert turn.route == "vector"
    assert answer_body(turn).startswith("I found nothing relevant about “volcanoes erupting”")
    assert turn.citations == []


# --------------------------------------------------------------------------- pre-filtering


def test_hybrid_prefilters_so_a_weaker_match_inside_the_rows_is_found(tmp_path: Path) -> None:
    """Fifteen perfect matches outside the date range would fill a post-filter's candidate list."""
    decoys = [_row(f"d{i}", "Honey bees", "Ann Lee", f"2022-06-{i + 1:02d} 10:00:00", "Environment",
                   "Honey bees. Honey bees.") for i in range(15)]
    target = _row("t1", "Spring in the park", "Ann Lee", "2023-03-12 10:00:00", "Environment",
                  "Honey bees returned to the park hives after a long winter of rain.")
    corpus = build_corpus(tmp_path, [*decoys, target], top_k=1)
    context = corpus.context
    candidates = context.settings.top_k * retrieval.CANDIDATES_PER_RESULT
    assert candidates < len(decoys)
    trace = Trace(question="q")
    with tracing.recording(trace):
        unrestricted = retrieve(context, "honey bees", None).evidence
    assert unrestricted[0].row_key.startswith("d")  # global search prefers the decoys
    everything = context.vector_index().as_retriever(similarity_top_k=candidates).retrieve("honey bees")
    assert "t1" not in {n.node.metadata["row_key"] for n in everything}  # so post-filtering would lose t1

    turn = corpus.assistant.ask("honey bees in March 2023")
    assert turn.route == "hybrid"
    assert turn.result.restricted_row_keys == 1
    assert [c.row_key for c in turn.result.chunks] == ["t1"]
    assert cited_keys(turn) == ["t1"]
    assert turn.result.chunks[0].score < unrestricted[0].score


# --------------------------------------------------------------------------- key batching


def test_restricted_keys_are_batched(corpus: Corpus, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(retrieval, "ROW_KEYS_PER_QUERY", 2)
    turn = corpus.assistant.ask("articles about honey bees from 2023")  # 4 rows from 2023
    assert turn.route == "hybrid"
    assert turn.result.restricted_row_keys == 4
    [search] = spans(turn, "vector.search")
    assert search.attributes["batches"] == 2
    assert len(spans(turn, "llamaindex.retrieve")) == 2
    assert turn.result.chunks
    assert {c.row_key for c in turn.result.chunks} <= {"k1", "k2", "k4", "k5"}


def test_best_results_are_merged_across_batches(corpus: Corpus, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(retrieval, "ROW_KEYS_PER_QUERY", 1)
    keys = ["k3", "k4", "k5", "k6", "k1"]  # the best match comes last, alone in its batch
    trace = Trace(question="q")
    with tracing.recording(trace):
        chunks = retrieve(corpus.context, "rooftop beekeepers harvest honey", None, restrict_keys=keys).evidence
    assert chunks[0].row_key == "k1"
    assert [s.attributes["batches"] for s in trace.spans if s.name == "vector.search"] == [5]
    assert [c.score for c in chunks] == sorted((c.score for c in chunks), reverse=True)


def test_more_than_a_batch_of_keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(retrieval, "ROW_KEYS_PER_QUERY", 500)
    rows = [_row(f"n{i}", f"Note {i}", "Ann Lee", f"2023-0{1 + i % 9}-1{i % 9} 10:00:00", "Misc",
                 f"Gardening tip number {i} about tomatoes.") for i in range(1001)]
    corpus = build_corpus(tmp_path, rows)
    monkeypatch.setattr(hybrid_engine, "ID_LIST_LIMIT", 10_000)  # keep the id-list path for this test
    turn = corpus.assistant.ask("tomatoes articles in 2023")
    assert turn.route == "hybrid"
    assert turn.result.restricted_row_keys == 1001
    [search] = spans(turn, "vector.search")
    assert search.attributes["batches"] == 3
    assert len(turn.citations) == 3 and turn.result.chunks


# --------------------------------------------------------------------------- filters


def test_partial_author_in_a_forced_vector_route_is_dropped_and_recorded(corpus: Corpus) -> None:
    turn = corpus.assistant.ask("articles by Baker about bees", route="vector")
    assert turn.route == "vector"
    [dropped] = turn.result.filters_dropped
    assert dropped.description == "authors like 'Baker'"
    assert "Chroma cannot express" in dropped.reason and "hybrid" in dropped.reason
    assert turn.result.filters == []
    [infer] = spans(turn, "filters.infer")
    assert infer.attributes["dropped"] == ["authors like 'Baker'"]


def plan_with(*conditions: Condition) -> QueryPlan:
    return QueryPlan(question="q", conditions=list(conditions), topic="t")


def test_chroma_filters_from_conditions() -> None:
    applied, dropped, filters = chroma_filters(plan_with(
        Condition("category", "article_category", "=", "Sports", "sports"),
        Condition("category", "article_category", "in", ["Sports", "Business"], "s, b"),
        Condition("author", "authors", "=", "Ann Lee", "Ann Lee"),
        Condition("number", "word_count", ">=", 500, "at least 500 words"),
        Condition("date", "published_date", "between", (date(2023, 3, 1), date.max), "since March 2023"),
        Condition("author_like", "authors", "like", "Lee", "by Lee"),
    ), with_dates=True)
    assert [f.describe() for f in applied] == [
        "article_category == 'Sports'", "article_category in ['Sports', 'Business']", "author_* == 'Ann Lee'",
        "word_count >= 500", "date_ymd >= 20230301"]
    assert [d.description for d in dropped] == ["authors like 'Lee'"]
    assert isinstance(filters, MetadataFilters) and filters.condition == FilterCondition.AND
    author = filters.filters[2]
    assert author.condition == FilterCondition.OR
    assert [f.key for f in author.filters] == [f"author_{i}" for i in range(5)]
    for part in filters.filters:
        for leaf in getattr(part, "filters", [part]):
            assert leaf.operator in {FilterOperator.EQ, FilterOperator.IN, FilterOperator.GTE, FilterOperator.LTE}
            assert isinstance(leaf.value, str | int | float | list)


def test_chroma_filters_in_the_hybrid_route_leave_dates_to_sql() -> None:
    applied, dropped, filters = chroma_filters(plan_with(
        Condition("date", "published_date", "between", (date(2023, 3, 1), date(2023, 3, 31)), "in March")),
        with_dates=False)
    assert applied == [] and filters is None
    assert dropped[0].reason == "applied by SQL in the hybrid route"


def test_chroma_filters_without_conditions() -> None:
    assert chroma_filters(plan_with(), with_dates=True) == ([], [], None)


def test_to_chunk_normalises_chroma_scores(corpus: Corpus) -> None:
    node = TextNode(text="body", id_="c1", metadata={"row_key": "k1", "title": "T", "url": "k1", "chunk": 2,
                                                      "content_hash": "h", "published_date": "2023-01-01"})
    assert to_chunk(NodeWithScore(node=node, score=math.exp(-0.25)), corpus.context).score == 0.75
    assert to_chunk(NodeWithScore(node=node, score=1.0), corpus.context).score == 1.0
    assert to_chunk(NodeWithScore(node=node, score=math.exp(-1.5)), corpus.context).score == 0.0
    assert to_chunk(NodeWithScore(node=node, score=0.0), corpus.context).score == 0.0
    chunk = to_chunk(NodeWithScore(node=node, score=None), corpus.context)
    assert (chunk.row_key, chunk.title, chunk.url, chunk.chunk, chunk.text) == ("k1", "T", "k1", 2, "body")
    assert "content_hash" not in chunk.metadata


def test_best_chunk_per_row() -> None:
    def c(key: str, score: float) -> Chunk:
        return Chunk(f"{key}{score}", key, "", "", 0, "", score)

    best = best_chunk_per_row([c("a", 0.2), c("b", 0.9), c("a", 0.8), c("c", 0.5), c("b", 0.1)], 2)
    assert [(x.row_key, x.score) for x in best] == [("b", 0.9), ("a", 0.8)]


# --------------------------------------------------------------------------- the SQL engine's guard


def sql_engine_writing(corpus: Corpus, sql: str) -> Any:
    context = EngineContext(**{**corpus.context.__dict__, "llm": OfflineSQLWriter(lambda _question: sql),
                               "_vector_index": None})
    return build_sql_engine(context, OFFLINE_TEXT_TO_SQL_PROMPT)


def writable_copy(corpus: Corpus, folder: Path) -> TableSource:
    """The corpus table in a copy opened READ-WRITE (no mode=ro, no query_only): only the guard protects it."""
    db = folder / "writable.db"
    shutil.copy(corpus.db, db)
    source = TableSource(f"sqlite:///{db}", "articles")
    source.engine.dispose()
    source.engine = sa.create_engine(f"sqlite:///{db}")
    return source


def test_the_writable_copy_really_is_writable(corpus: Corpus, tmp_path: Path) -> None:
    """The control for the next test: there, an unchanged checksum means the guard stopped the statement."""
    source = writable_copy(corpus, tmp_path)
    before = sha256_file(tmp_path / "writable.db")
    with source.engine.begin() as connection:
        connection.exec_driver_sql("DELETE FROM articles")
    source.close()
    assert sha256_file(tmp_path / "writable.db") != before


@pytest.mark.parametrize("sql", [
    "DROP TABLE articles",
    "DELETE FROM articles",
    "SELECT * FROM articles; DROP TABLE articles",
    "WITH x AS (DELETE FROM articles RETURNING *) SELECT * FROM x",
    "PRAGMA writable_schema = 1",
    "SELECT * FROM sqlite_master",
    "SELECT secret FROM articles",
])
def test_sql_engine_rejects_unsafe_sql_before_running_it(corpus: Corpus, sql: str, tmp_path: Path) -> None:
    source = writable_copy(corpus, tmp_path)
    before = sha256_file(tmp_path / "writable.db")
    context = EngineContext(**{**corpus.context.__dict__, "source": source, "database": GuardedSQLDatabase(source, 100),
                               "llm": OfflineSQLWriter(lambda _question: sql), "_vector_index": None})
    trace = Trace(question="q")
    with tracing.recording(trace), pytest.raises(UnsafeSQL) as raised:
        build_sql_engine(context, OFFLINE_TEXT_TO_SQL_PROMPT).query("anything")
    source.close()
    assert raised.value.partial.sql_verdict.startswith("rejected")
    assert not [s for s in trace.spans if s.name == "sql.execute"]
    assert sha256_file(tmp_path / "writable.db") == before


def test_sql_engine_surfaces_execution_errors(corpus: Corpus) -> None:
    trace = Trace(question="q")
    with tracing.recording(trace), pytest.raises(QueryFailed, match="integer overflow"):
        sql_engine_writing(corpus, "SELECT ABS(-9223372036854775807 - 1) AS x FROM articles").query("anything")
    [execute] = [s for s in trace.spans if s.name == "sql.execute"]
    assert "integer overflow" in execute.error


def test_sql_engine_strips_fences_and_caps_the_limit(corpus: Corpus) -> None:
    trace = Trace(question="q")
    with tracing.recording(trace):
        response = sql_engine_writing(corpus, "```sql\nSELECT title FROM articles LIMIT 100000\n```").query("x")
    outcome = response.metadata["engine_result"]
    assert outcome.sql == "SELECT title FROM articles LIMIT 1000"
    assert "capped" in outcome.sql_verdict
    assert outcome.result.columns == ["title"]
    assert len(outcome.result.rows) == len(ROWS)


def test_hybrid_key_cap_is_not_silent(corpus: Corpus, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hybrid_engine, "MAX_SELECTED_ROWS", 2)
    turn = corpus.assistant.ask("articles about seed funding from 2023")  # 4 rows from 2023; k5 is the match
    assert turn.route == "hybrid"
    capped = "More than 2 rows matched the structured part; only the first 2 rows were searched."
    assert capped in turn.result.notes
    assert [f.value for f in turn.result.filters if f.key == "row_key"] == ["2 rows selected by SQL"]


def test_large_hybrid_selections_search_through_equivalent_filters(corpus: Corpus,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Past ID_LIST_LIMIT rows, date/category conditions go to Chroma as filters: same rows, one query."""
    monkeypatch.setattr(hybrid_engine, "ID_LIST_LIMIT", 1)
    by_ids = corpus.assistant.ask("articles about seed funding from 2023")
    monkeypatch.setattr(hybrid_engine, "ID_LIST_LIMIT", 10_000)
    by_list = corpus.assistant.ask("articles about seed funding from 2023")
    assert by_ids.route == by_list.route == "hybrid"
    assert any("metadata filters" in note for note in by_ids.result.notes)
    assert [f.key for f in by_ids.result.filters] == ["date_ymd", "date_ymd"]
    assert cited_keys(by_ids) == cited_keys(by_list)
    search = next(s for s in by_ids.trace.spans if s.name == "vector.search")
    assert search.attributes["batches"] == 1
