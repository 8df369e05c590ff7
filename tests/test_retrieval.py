"""Retrieval over a table where one huge row has hundreds of near-identical chunks (#10), and the dense search
centred on the table (#14).

A 3 MB row became 400 chunks with nearly the same vector, and Chroma's top candidates were all that row:
every other document, even the right one, was hidden. Retrieval must return `top_k` distinct documents
whatever one row holds, and quote at most CHUNKS_PER_ROW chunks of any of them.

Templated rows (every contract "invoiced monthly", every review "arrived on time") share most of their words: the
plain similarity ranks that boilerplate above the one row that answers, so the dense search subtracts the table's
mean chunk vector from the question's; each chunk keeps its plain similarity as its score.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from conftest import ARTICLE_ROWS, make_articles_db, settings_for

from rag import tracing
from rag.answer.context import RetrievalOptions
from rag.answer.retrieval import CHUNKS_PER_ROW, retrieve
from rag.assistant import Assistant
from rag.data.embeddings import HashingEmbedder
from rag.data.index import VectorIndex
from rag.data.source import TableSource
from rag.models import Trace

BIKE_URL = ARTICLE_ROWS[0]["url"]
HUGE_URL = "https://news.example.com/2023/02/bike-lane-minutes"
# Distinct sentences (a part number each), so no chunk is an exact copy of another: only near-identical.
HUGE_CONTENT = " ".join(f"Minutes part {i}: the council discussed protected bike lanes, cycling safety and "
                        "parking spaces on Main Street." for i in range(4_000))


def build(tmp_path: Path) -> Assistant:
    rows = [*ARTICLE_ROWS, {"url": HUGE_URL, "title": "Council minutes on bike lanes", "authors": "Clerk",
                            "published_date": "2023-02-01 10:00:00", "article_category": "Politics",
                            "full_content": HUGE_CONTENT}]
    db = make_articles_db(tmp_path / "articles.db", rows)
    settings = settings_for(db, tmp_path / "index")
    index = VectorIndex(settings, HashingEmbedder())
    index.sync(TableSource.from_settings(settings))
    huge_chunks = index.collection().get(where={"row_key": HUGE_URL}, include=[])["ids"]
    assert len(huge_chunks) == settings.max_chunks_per_row  # 400: the row fills the cap
    return Assistant.build(settings)


def test_one_row_with_hundreds_of_near_identical_chunks_hides_no_other_row(tmp_path: Path) -> None:
    assistant = build(tmp_path)
    top_k = assistant.settings.top_k
    found = retrieve(assistant.context, "protected bike lanes and parking on Main Street", None)
    rows = [chunk.row_key for chunk in found.top]
    assert len(rows) == len(set(rows)) == top_k, rows  # five documents, not one
    assert rows[0] == HUGE_URL and BIKE_URL in rows
    assert max(Counter(chunk.row_key for chunk in found.evidence).values()) <= CHUNKS_PER_ROW

    turn = assistant.ask("What do we have about protected bike lanes?")
    assert turn.error is None
    assert BIKE_URL in {citation.url for citation in turn.citations}


def test_hybrid_retrieval_inside_selected_rows_is_capped_too(tmp_path: Path) -> None:
    assistant = build(tmp_path)
    keys = [row["url"] for row in ARTICLE_ROWS] + [HUGE_URL]
    found = retrieve(assistant.context, "protected bike lanes and parking on Main Street", None, restrict_keys=keys)
    rows = [chunk.row_key for chunk in found.top]
    assert len(set(rows)) == assistant.settings.top_k and BIKE_URL in rows


def test_citation_numbers_are_the_trace_numbers_of_the_documents(tmp_path: Path) -> None:
    """#13: the answer cites a document by the number the trace shows it under (its place among the retrieved
    documents), and quotes them in that order; the evidence lists documents in that order too."""
    db = make_articles_db(tmp_path / "articles.db")
    settings = settings_for(db, tmp_path / "index")
    VectorIndex(settings, HashingEmbedder()).sync(TableSource.from_settings(settings))
    assistant = Assistant.build(settings)
    found = retrieve(assistant.context, "city council vote on bike lanes and the budget", None)
    top_rows = [chunk.row_key for chunk in found.top]
    assert list(dict.fromkeys(chunk.row_key for chunk in found.evidence)) == top_rows

    turn = assistant.ask("What do we have about the city council and bike lanes?")
    assert turn.error is None and turn.citations, turn.answer
    shown = [chunk.row_key for chunk in turn.result.chunks]  # what the trace numbers 1, 2, ...
    numbers = [citation.number for citation in turn.citations]
    assert numbers == [shown.index(citation.row_key) + 1 for citation in turn.citations]
    assert numbers == sorted(numbers)
    for number in numbers:
        assert f"[{number}]" in turn.answer


ITEMS = ["workwear", "printer paper", "laptops", "forklifts", "cleaning supplies", "coffee beans", "safety boots",
         "pallets", "cables", "monitors", "toner", "chairs", "gloves", "helmets", "ladders", "batteries", "paint",
         "screws", "lamps", "filters", "tyres", "tape", "boxes", "labels"]
BOILERPLATE = [{"url": f"supply-{n}", "title": f"Supply of {item}", "authors": "Procurement",
                "published_date": f"2023-01-{n + 1:02d} 10:00:00", "article_category": "Business",
                "full_content": f"Supply of {item} to the plant. The supplier is paid monthly for every delivery, "
                                "invoiced in arrears."} for n, item in enumerate(ITEMS)]
PENALTY_URL = "desks-dublin"
PENALTY = {"url": PENALTY_URL, "title": "Office desks", "authors": "Procurement",
           "published_date": "2023-02-01 10:00:00", "article_category": "Business",
           "full_content": "Office desks for Dublin. A late penalty of EUR 500 per day applied when the goods came "
                           "late."}
LATE_DELIVERY = "Which supply contracts make the supplier pay us when a delivery to the plant is late?"


@pytest.fixture(scope="module")
def templated(tmp_path_factory: pytest.TempPathFactory) -> Assistant:
    root = tmp_path_factory.mktemp("templated")
    settings = settings_for(make_articles_db(root / "articles.db", [*BOILERPLATE, PENALTY]), root / "index")
    VectorIndex(settings, HashingEmbedder()).sync(TableSource.from_settings(settings))
    return Assistant.build(settings)


def dense(assistant: Assistant, question: str, centring: float) -> tuple[list[str], bool]:
    """The dense search's documents, and whether it searched the centred vector."""
    trace = Trace(question=question)
    with tracing.recording(trace):
        found = retrieve(assistant.context, question, None, options=RetrievalOptions(mode="dense", centring=centring))
    embed = next(s for s in trace.spans if s.name == "embed.query")
    return [chunk.row_key for chunk in found.top], embed.attributes["centred"]


def test_the_centred_dense_search_ranks_the_answer_above_boilerplate_every_row_shares(templated: Assistant) -> None:
    plain, plain_centred = dense(templated, LATE_DELIVERY, centring=0.0)
    centred, was_centred = dense(templated, LATE_DELIVERY, centring=1.0)
    assert PENALTY_URL not in plain and not plain_centred  # boilerplate shares more of the question's words
    assert centred[0] == PENALTY_URL and was_centred


@pytest.mark.parametrize("mode", ["dense", "keyword", "fused"])
def test_chunks_keep_their_plain_similarity_as_score_dense_or_keyword(templated: Assistant, mode: str) -> None:
    """The "nothing relevant" rule reads the plain cosine similarity, whichever search found the chunk; the trace
    shows the dense ranking's centred similarity beside it."""
    trace = Trace(question=LATE_DELIVERY)
    with tracing.recording(trace):
        found = retrieve(templated.context, LATE_DELIVERY, None, options=RetrievalOptions(mode=mode))
    question = np.asarray(templated.context.embed_model.get_query_embedding(LATE_DELIVERY))
    stored = templated.context.index.collection().get(ids=[c.id for c in found.evidence], include=["embeddings"])
    vectors = {key: np.asarray(vector) for key, vector in zip(stored["ids"], stored["embeddings"], strict=True)}
    assert found.evidence
    for chunk in found.evidence:
        vector = vectors[chunk.id]
        cosine = float(question @ vector / (np.linalg.norm(question) * np.linalg.norm(vector)))
        assert chunk.score == pytest.approx(max(0.0, cosine), abs=1e-4)
    if mode != "keyword":
        results = next(s for s in trace.spans if s.name == "vector.search").attributes["results"]
        centred = [r["centred"] for r in results]
        assert centred == sorted(centred, reverse=True) and results[0]["row_key"] == PENALTY_URL
        assert results[0]["score"] < max(r["score"] for r in results)  # not the plainly most similar row


def test_without_a_background_sample_the_dense_search_is_the_plain_one(tmp_path: Path) -> None:
    settings = settings_for(make_articles_db(tmp_path / "articles.db", [*BOILERPLATE, PENALTY]), tmp_path / "index")
    index = VectorIndex(settings, HashingEmbedder())
    index.sync(TableSource.from_settings(settings))
    index.background.drop()
    assistant = Assistant.build(settings)
    rows, was_centred = dense(assistant, LATE_DELIVERY, centring=1.0)
    assert not was_centred and PENALTY_URL not in rows
    assert rows == dense(assistant, LATE_DELIVERY, centring=0.0)[0]
