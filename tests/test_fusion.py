"""Dense + BM25 retrieval fused by reciprocal rank (#14): an exact rare token found although dense search misses
it, the same pre-filters on both searches, the ranks in the trace, the text searched, and dense-only
retrieval when the keyword index is missing.

Real SQLite and Chroma in tmp_path with the hashing embedder, whose similarity is word overlap: the decoys
below share the question's function words (which BM25 ignores) but not its rare token.
"""

from __future__ import annotations

import math
from dataclasses import replace
from datetime import date
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import answer_body, make_articles_db, settings_for
from llama_index.vector_stores.chroma.base import _to_chroma_filter

from rag import tracing
from rag.answer.context import RetrievalOptions
from rag.answer.filters import chroma_filters
from rag.answer.retrieval import (
    CALIBRATED_THRESHOLDS,
    CHUNKS_PER_ROW,
    UNCALIBRATED,
    acronym_terms,
    chroma_where,
    fuse,
    keyword_terms,
    relevance_thresholds,
    retrieve,
    rrf,
    search_text,
    without_condition_words,
)
from rag.assistant import Assistant
from rag.data.index import VectorIndex
from rag.data.source import TableSource
from rag.models import Trace
from rag.providers import build_embedder
from rag.understand.planner import Condition, QueryPlan

QUESTION = "what is the state of the ZX81 order"


def _row(key: str, title: str, day: str, category: str, content: str) -> dict[str, Any]:
    return {"url": key, "title": title, "authors": "Ann Lee", "published_date": day, "article_category": category,
            "full_content": content}


DECOYS = [_row(f"d{i}", f"What is the plan {i}", f"2023-0{1 + i % 3}-1{i} 10:00:00", "Business",
               "What is the plan? What is the cost of the new roof of the hall? What is the view of the board "
               f"on the matter of the budget {i}?") for i in range(6)]
TARGET = _row("t1", "Shipment update", "2023-03-05 10:00:00", "Business",
              "Shipment ZX81 left the warehouse on Monday and reached the depot a day later.")
OTHER = _row("o1", "Warehouse report", "2023-03-06 10:00:00", "Sports", "A second ZX81 crate was found in a locker.")


@pytest.fixture(scope="module")
def assistant(tmp_path_factory: pytest.TempPathFactory) -> Assistant:
    root = tmp_path_factory.mktemp("fusion")
    db = make_articles_db(root / "articles.db", [*DECOYS, TARGET, OTHER])
    settings = settings_for(db, root / "index", top_k=3)
    VectorIndex(settings, build_embedder(settings)).sync(TableSource.from_settings(settings))
    return Assistant.build(settings)


def traced(function: Any) -> tuple[Any, Trace]:
    trace = Trace(question="q")
    with tracing.recording(trace):
        result = function()
    return result, trace


def attributes(trace: Trace, name: str) -> dict[str, Any]:
    [span] = [s for s in trace.spans if s.name == name]
    return span.attributes


def test_rrf_sums_reciprocal_ranks_and_breaks_ties_by_best_rank() -> None:
    assert rrf([["a", "b", "c"], ["c", "d"]]) == ["c", "a", "b", "d"]
    assert rrf([["a"], []]) == ["a"]
    assert rrf([["x", "y"], ["y", "x"]]) == ["x", "y"]  # equal sums: x's best rank came from the first list


def test_a_fused_document_is_in_one_searchs_top_k_so_low_agreement_cannot_push_out_a_first_rank() -> None:
    """Documents both searches rank low (6th and 5th) must not outrank the document dense search ranks first (a
    paraphrase whose keyword hits share only common words); agreement still orders the documents either search
    would show."""
    dense = ["a", "b", "c", "d", "e", "f", "g"]
    keyword = ["h", "i", "j", "k", "f", "g"]
    assert rrf([dense, keyword])[:2] == ["f", "g"]  # plain RRF over the deep lists: the low agreement wins
    assert fuse([dense, keyword], 3) == ["a", "h", "b", "i", "c", "j"]
    assert fuse([["a", "b", "c", "d"], ["x", "c", "y"]], 2)[0] == "c"  # 3rd and 2nd: in keyword's top 2, agreed on
    assert fuse([dense, []], 3) == ["a", "b", "c"] and fuse([[], keyword], 2) == ["h", "i"]


def test_fusion_finds_the_exact_rare_token_dense_search_misses(assistant: Assistant) -> None:
    context = assistant.context
    dense, _ = traced(lambda: retrieve(context, QUESTION, None, options=RetrievalOptions(mode="dense")))
    assert "t1" not in [c.row_key for c in dense.top]  # the decoys share more words with the question
    fused, trace = traced(lambda: retrieve(context, QUESTION, None))
    assert [c.row_key for c in fused.top][0] in ("t1", "o1")
    assert {"t1", "o1"} <= {c.row_key for c in fused.top}
    keyword = attributes(trace, "keyword.search")
    assert keyword["terms"] == ["state", "zx81", "order"]  # no stop words; digits keep a fragment unjoined
    assert {r["row_key"] for r in keyword["results"]} == {"t1", "o1"}
    ranks = {r["row_key"]: r for r in attributes(trace, "fusion")["results"]}
    assert ranks["t1"]["keyword_rank"] in (1, 2) and ranks["t1"]["dense_rank"] > 3
    assert [r["fused_rank"] for r in attributes(trace, "fusion")["results"]] == [1, 2, 3]
    dense_ranks = {r["row_key"]: r["rank"] for r in attributes(trace, "vector.search")["results"]}
    assert ranks["t1"]["dense_rank"] == dense_ranks["t1"]
    # A keyword-found chunk is scored by its stored vector, as dense search would have scored it.
    alone = retrieve(context, QUESTION, None, ["t1"], options=RetrievalOptions(mode="dense")).top[0]
    assert next(c for c in fused.top if c.row_key == "t1").score == pytest.approx(alone.score, abs=1e-3)
    assert all(len([c for c in fused.evidence if c.row_key == key]) <= CHUNKS_PER_ROW for key in ranks)


def test_keyword_results_obey_the_metadata_filters(assistant: Assistant) -> None:
    plan = QueryPlan(question="which business articles mention ZX81?", topic="ZX81", conditions=[
        Condition("category", "article_category", "=", "Business", "business")])
    _, _, filters = chroma_filters(plan, with_dates=True)
    found, trace = traced(lambda: retrieve(assistant.context, plan, filters))
    keyword = attributes(trace, "keyword.search")
    assert [r["row_key"] for r in keyword["results"]] == ["t1"]  # o1 (Sports) also says ZX81
    assert found.top[0].row_key == "t1" and "o1" not in {c.row_key for c in found.top}
    assert {c.metadata["article_category"] for c in found.evidence} == {"Business"}
    unfiltered, trace = traced(lambda: retrieve(assistant.context, plan, None))
    assert {r["row_key"] for r in attributes(trace, "keyword.search")["results"]} == {"t1", "o1"}


def test_keyword_results_stay_inside_the_sql_selected_rows(assistant: Assistant) -> None:
    turn = assistant.ask("ZX81 shipment news from 5 March 2023")
    assert turn.route == "hybrid" and turn.result.restricted_row_keys == 1
    keyword = next(s for s in turn.trace.spans if s.name == "keyword.search").attributes
    assert [r["row_key"] for r in keyword["results"]] == ["t1"]  # o1 (6 March) also says ZX81
    assert [c.row_key for c in turn.result.chunks] == ["t1"]


def test_without_a_keyword_index_retrieval_is_dense_only(tmp_path: Path) -> None:
    db = make_articles_db(tmp_path / "articles.db", [*DECOYS, TARGET])
    settings = settings_for(db, tmp_path / "index", top_k=3)
    assistant = Assistant.build(settings)
    assistant.context.index.sync(assistant.context.source)
    assistant.context.index.keywords.drop()
    found, trace = traced(lambda: retrieve(assistant.context, QUESTION, None))
    assert "no keyword index" in attributes(trace, "keyword.search")["skipped"]
    assert len(found.top) == 3 and all(r["keyword_rank"] is None for r in attributes(trace, "fusion")["results"])
    turn = assistant.ask(QUESTION)
    assert turn.error is None


# --------------------------------------------------------------------------- the text that is searched


def test_search_texts() -> None:
    question = "Technology articles about crypto by Li Wei in March 2023"
    plan = QueryPlan(question=question, topic="crypto", conditions=[
        Condition("category", "article_category", "=", "Technology", "Technology"),
        Condition("author", "authors", "=", "Li Wei", "Li Wei"),
        Condition("date", "published_date", "between", (date(2023, 3, 1), date(2023, 3, 31)), "in March 2023",
                  span=(question.index("in March"), len(question)))])
    assert without_condition_words(plan) == "articles about crypto by"
    assert search_text(plan, "question") == question
    assert search_text(plan, "minus_conditions") == "articles about crypto by"
    assert search_text(plan, "topic") == "crypto"
    assert search_text(QueryPlan(question="hello"), "topic") == "hello"  # no topic: the question
    with pytest.raises(ValueError, match="unknown"):
        search_text(plan, "everything")
    negated = QueryPlan(question="crypto news not sports, please", conditions=[
        Condition("category", "article_category", "!=", "Sports", "not sports")])
    assert without_condition_words(negated) == "crypto news , please"
    # what the user wrote for a word read as a condition's value goes too (every filtered row has that value)
    abbreviated = QueryPlan(question="Which master services agreement or MSAs can we leave early?", conditions=[
        Condition("category", "contract_type", "=", "Master Services Agreement",
                  "master services agreement, Master Services Agreement")],
        corrections=[("MSAs", "Master Services Agreement"), ("leve", "leave")])
    assert without_condition_words(abbreviated) == "Which or can we leave early?"


def test_a_phrase_spelt_out_also_searches_the_initials_the_texts_use() -> None:
    """"prices tied to a consumer price index" found no contract that says "indexed to the New Zealand CPI" (contracts
    test split): the initials of 3-5 words, when the texts use them as a word, join the BM25 terms."""
    texts = {"cpi", "nda"}.__contains__
    assert acronym_terms("fees that go up with inflation (tied to a consumer price index)?", texts) == ["cpi"]
    assert acronym_terms("any non disclosure agreements?", texts) == ["nda"]
    assert acronym_terms("any non disclosure agreements?", {"cpi"}.__contains__) == []  # (only what the texts use)
    assert acronym_terms("the end of the year", lambda word: True) == []  # (a run may not start or end on grammar)
    assert acronym_terms("a consumer price index", lambda word: None) == []  # (no keyword index)


def test_keyword_terms_drop_stop_words_and_join_split_names() -> None:
    terms = keyword_terms("What did the Doo ley ruling say about Levi's jeans?")
    assert terms[:3] == ["doo", "ley", "ruling"]
    assert "dooley" in terms and "levi" in terms and "jeans" in terms
    assert not {"what", "did", "the", "about"} & set(terms)
    assert keyword_terms("the of and") == []


@pytest.mark.parametrize("question", [
    "Which business articles are about funding?",
    "articles about bees not in sports by Ann Lee",
    "politics or business news about elections between March and May 2023",
    "crypto articles with more than 500 words in 2023",
])
def test_keyword_filters_are_the_filters_chroma_receives(assistant: Assistant, question: str) -> None:
    plan = assistant.context.planner.plan(question)
    _, _, filters = chroma_filters(plan, with_dates=True)
    assert chroma_where(filters) == (_to_chroma_filter(filters) if filters else None)


# --------------------------------------------------------------------------- "nothing relevant"


def test_relevance_thresholds_are_per_embedding_model(assistant: Assistant) -> None:
    context = assistant.context
    assert context.embed_model.model_name == "hashing-384"
    assert relevance_thresholds(context) == UNCALIBRATED  # an uncalibrated model: the topic's words alone
    calibrated = replace(context, embed_model=SimpleNamespace(model_name="all-MiniLM-L6-v2"))
    assert relevance_thresholds(calibrated) == CALIBRATED_THRESHOLDS["all-MiniLM-L6-v2"]
    assert relevance_thresholds(replace(calibrated, min_score=0.3))[0] == 0.3  # an explicit floor wins


def test_a_small_sql_selected_set_is_named_when_nothing_is_relevant(assistant: Assistant) -> None:
    turn = assistant.ask("volcano eruptions from 5 March 2023")
    assert turn.route == "hybrid" and turn.result.restricted_row_keys == 1
    body = answer_body(turn)
    assert body.startswith("I found nothing relevant")  # still counted as 'nothing found'
    assert "The conditions alone select 1 document" in body and "*Shipment update*, 2023-03-05" in body
    assert turn.citations == []  # named, not cited: it is not an answer
    [synthesize] = [s for s in turn.trace.spans if s.name == "synthesize"]
    assert synthesize.attributes["selected_by_conditions"] == 1 and synthesize.attributes["relevant"] is False
    assert synthesize.attributes["topic_mentioned"] is False and synthesize.attributes["strong"] is None


def test_a_small_sql_selected_set_is_relevant_from_the_calibrated_small_set_floor(
        assistant: Assistant, monkeypatch: pytest.MonkeyPatch) -> None:
    """When the conditions alone select at most top_k rows (hybrid), the best of them is relevant from the model's
    small-set floor on, although the topic's words are not mentioned and the similarity is below STRONG; a larger
    selection, or an unrestricted search, gets no such leniency; an uncalibrated model none at all."""
    from rag.answer import retrieval
    from rag.answer.retrieval import answer_from_chunks

    context = assistant.context
    model, top_k = context.embed_model.model_name, context.settings.top_k
    question = "volcano eruptions from 5 March 2023"
    turn = assistant.ask(question)  # the one article of that day, about a shipment: no topic word, low similarity
    synthesize = attributes(turn.trace, "synthesize")
    assert turn.route == "hybrid" and synthesize["selected_rows"] == 1
    assert synthesize["relevant"] is False and synthesize["small_set_floor"] is None  # uncalibrated: no leniency
    plan = context.planner.plan(question)
    found = retrieve(context, plan, None, restrict_keys=["t1"])
    best = max(c.score for c in found.evidence)

    def relevant(floor: float, selected: int | None, restricted: bool = True) -> bool:
        monkeypatch.setitem(retrieval.CALIBRATED_SMALL_SET_FLOOR, model, floor)
        (_, _), trace = traced(lambda: answer_from_chunks(context, question, plan, found.evidence,
                                                          restricted=restricted, selected=selected))
        attrs = attributes(trace, "synthesize")
        assert attrs["relevant_as_small_set"] is attrs["relevant"]  # nothing else makes it relevant here
        return attrs["relevant"]

    assert relevant(best - 0.01, 1) and relevant(best - 0.01, top_k)
    assert not relevant(best + 0.01, 1)
    assert not relevant(best - 0.01, top_k + 1)  # more rows than an answer shows: similarity must choose
    assert not relevant(best - 0.01, 1, restricted=False) and not relevant(best - 0.01, None)
    monkeypatch.setitem(retrieval.CALIBRATED_SMALL_SET_FLOOR, model, best - 0.01)
    turn = assistant.ask(question)  # the hybrid engine passes how many rows SQL selected
    synthesize = attributes(turn.trace, "synthesize")
    assert synthesize["relevant"] is True and synthesize["relevant_as_small_set"] is True
    assert not answer_body(turn).startswith("I found nothing relevant") and turn.citations


def test_below_strong_the_words_a_chunk_lacks_must_be_supported_by_it(
        assistant: Assistant, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a calibrated SUPPORT, 'the topic's words mentioned' becomes: a chunk mentions all of them, or the words it
    lacks, embedded together, are SUPPORT-similar to its stored vector. 'ZX81 shipment volcano eruption' mentions two
    of four words (enough for `mentions_topic`), but 'volcano eruption' is nowhere in the shipment article: nothing
    relevant. Without an entry for the model, the words mentioned decide as before."""
    from rag.answer import retrieval
    from rag.answer.compose import mentions_topic, uncovered_words
    from rag.answer.retrieval import _cosine, answer_from_chunks, topic_support

    context = assistant.context
    model = context.embed_model.model_name
    question = "ZX81 shipment volcano eruption"
    plan = context.planner.plan(question)
    assert plan.topic.lower() == question.lower() and not plan.conditions
    found = retrieve(context, plan, None, restrict_keys=["t1"])
    [target] = [c for c in found.evidence if c.row_key == "t1"]
    assert uncovered_words(question, target) == ["volcano", "eruption"]
    assert uncovered_words("ZX81 depot", target) == []
    assert mentions_topic(question, [target])  # two of four words: the old rule calls it relevant
    stored = context.vector_index().vector_store.client.get(ids=[target.id], include=["embeddings"])["embeddings"][0]
    expected = float(_cosine(context.embed_model.get_text_embedding("volcano eruption"), stored))
    assert topic_support(context, question, [target], 0.0) == pytest.approx(expected)
    assert expected < 0.2  # the hashing embedder: no shared word, (almost) no similarity
    assert topic_support(context, "ZX81 depot", [target], 0.0) == 1.0  # every word mentioned
    assert topic_support(context, "ZX81 depot", [target], target.score + 0.01) == 0.0  # no chunk at the floor
    # a chunk that mentions none of several words supports none of them, however similar they are (its similarity
    # was judged already: "vacuum cleaner losing suction" was relevant by a hairbrush review at 0.39); one word alone
    # may be there in other words. (Every text embedded here is given the chunk's own vector: similarity 1.)
    with monkeypatch.context() as patched:
        patched.setattr(type(context.embed_model), "get_text_embedding_batch",
                        lambda self, texts, **_: [stored for _ in texts])
        assert uncovered_words("volcano eruption", target) == ["volcano", "eruption"]
        assert topic_support(context, "volcano eruption", [target], 0.0) == 0.0
        assert topic_support(context, "volcano", [target], 0.0) == pytest.approx(1.0)
        assert topic_support(context, question, [target], 0.0) == pytest.approx(1.0)  # two of four mentioned

    def decision(support: float | None) -> dict[str, Any]:
        monkeypatch.setitem(retrieval.CALIBRATED_THRESHOLDS, model, (0.0, math.inf))
        if support is None:
            monkeypatch.delitem(retrieval.CALIBRATED_SUPPORT, model, raising=False)
        else:
            monkeypatch.setitem(retrieval.CALIBRATED_SUPPORT, model, support)
        (_, _), trace = traced(lambda: answer_from_chunks(context, question, plan, [target]))
        return attributes(trace, "synthesize")

    assert decision(None)["relevant"] is True and decision(None)["support"] is None  # words mentioned: as before
    strict = decision(0.5)
    assert strict["relevant"] is False and strict["topic_mentioned"] is True
    assert strict["support"] == pytest.approx(expected, abs=1e-3) and strict["support_needed"] == 0.5
    assert decision(expected - 0.01)["relevant"] is True


def test_inside_sql_selected_rows_strong_is_the_calibrated_restricted_strong(
        assistant: Assistant, monkeypatch: pytest.MonkeyPatch) -> None:
    """In the hybrid route (any number of selected rows) the best chunk is relevant from the model's
    RESTRICTED_STRONG, below STRONG, whatever words it mentions; an unrestricted search still needs STRONG, and a
    model without an entry keeps STRONG everywhere."""
    from rag.answer import retrieval
    from rag.answer.retrieval import CALIBRATED_RESTRICTED_STRONG, answer_from_chunks

    context = assistant.context
    model = context.embed_model.model_name
    question = "volcano eruptions"  # no word of the shipment article: relevant only by similarity
    plan = context.planner.plan(question)
    found = retrieve(context, plan, None, restrict_keys=["t1"])
    best = max(c.score for c in found.evidence)
    monkeypatch.setitem(retrieval.CALIBRATED_THRESHOLDS, model, (math.inf, best + 0.1))

    def relevant(restricted: bool, selected: int) -> bool:
        (_, _), trace = traced(lambda: answer_from_chunks(context, question, plan, found.evidence,
                                                          restricted=restricted, selected=selected))
        attrs = attributes(trace, "synthesize")
        assert attrs["relevant_as_small_set"] is False
        return attrs["relevant"]

    assert not relevant(True, 50)  # no entry for the model: STRONG
    monkeypatch.setitem(retrieval.CALIBRATED_RESTRICTED_STRONG, model, best - 0.01)
    assert relevance_thresholds(context, restricted=True) == (math.inf, best - 0.01)
    assert relevance_thresholds(context) == (math.inf, best + 0.1)
    assert relevant(True, 50) and not relevant(False, 50)
    monkeypatch.setitem(retrieval.CALIBRATED_RESTRICTED_STRONG, model, best + 0.2)  # never above STRONG
    assert relevance_thresholds(context, restricted=True)[1] == best + 0.1
    assert CALIBRATED_RESTRICTED_STRONG["all-MiniLM-L6-v2"] < CALIBRATED_THRESHOLDS["all-MiniLM-L6-v2"][1]


def test_rows_narrowed_by_a_metadata_filter_use_the_restricted_strong(
        assistant: Assistant, monkeypatch: pytest.MonkeyPatch) -> None:
    """A semantic search narrowed by a condition held as a metadata filter ("Business articles about …", vector
    route) is as restricted as one inside SQL-selected rows: its STRONG is the RESTRICTED one ("In the gadgets
    department, which reviews moan that the device runs out of juice" found the right review at 0.39 and said
    "nothing relevant" against the unrestricted 0.42); without a condition, STRONG stays."""
    from rag.answer import retrieval

    model = assistant.context.embed_model.model_name
    monkeypatch.setitem(retrieval.CALIBRATED_THRESHOLDS, model, (0.12, 0.9))
    monkeypatch.setitem(retrieval.CALIBRATED_RESTRICTED_STRONG, model, 0.5)
    narrowed = assistant.ask("Business articles about volcano eruptions")
    assert narrowed.route == "vector" and narrowed.result.filters
    assert [s.attributes["strong"] for s in narrowed.trace.spans if s.name == "synthesize"] == [0.5]
    everywhere = assistant.ask("articles about volcano eruptions")
    assert everywhere.route == "vector" and not everywhere.result.filters
    assert [s.attributes["strong"] for s in everywhere.trace.spans if s.name == "synthesize"] == [0.9]


def test_very_common_topic_words_are_phrasing_not_the_subject() -> None:
    """'billing problems': a chunk about billing mentions the topic although it never says 'problems'; with only
    common words ('problems today'), they must be mentioned as before."""
    from rag.answer.compose import mentions_topic
    from rag.models import Chunk

    about_billing = [Chunk(id="c", row_key="r", title="Invoice charged twice", url="", chunk=0, score=0.3,
                           text="The billing run charged the December invoice twice.")]
    assert mentions_topic("billing problems", about_billing)
    assert not mentions_topic("refund problems", about_billing)
    assert not mentions_topic("problems today", about_billing)


def test_on_the_background_scale_relevance_reads_the_similarity_above_the_tables_background(
        assistant: Assistant, monkeypatch: pytest.MonkeyPatch) -> None:
    """A model calibrated on the background scale compares best - background (the question's mean similarity to
    the table's stored sample) with the thresholds; without a sample it falls back to the topic's words alone."""
    from rag.answer import retrieval
    from rag.answer.retrieval import answer_from_chunks

    context = assistant.context
    model = context.embed_model.model_name
    plan = context.planner.plan(QUESTION)
    found = retrieve(context, plan, None)
    assert found.background is not None  # the sync stored the sample
    best = max(c.score for c in found.evidence)
    monkeypatch.setitem(retrieval.CALIBRATED_SCALE, model, "above_background")
    for strong, relevant in ((best - found.background - 0.01, True), (best - found.background + 0.01, False)):
        monkeypatch.setitem(retrieval.CALIBRATED_THRESHOLDS, model, (math.inf, strong))
        (_, _), trace = traced(lambda: answer_from_chunks(context, QUESTION, plan, found.evidence,
                                                          background=found.background))
        synthesize = attributes(trace, "synthesize")
        assert synthesize["relevant"] is relevant and synthesize["scale"] == "above_background"
        assert synthesize["compared"] == pytest.approx(best - found.background, abs=1e-3)
    (text, _), trace = traced(lambda: answer_from_chunks(context, QUESTION, plan, found.evidence, background=None))
    assert attributes(trace, "synthesize")["strong"] is None  # no sample: the words alone decide
