"""Retrieval over a table where one huge row has hundreds of near-identical chunks (#10).

A 3 MB row became 400 chunks with nearly the same vector, and Chroma's top candidates were all that row:
every other document, even the right one, was hidden. Retrieval must return `top_k` distinct documents
whatever one row holds, and quote at most CHUNKS_PER_ROW chunks of any of them.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from conftest import ARTICLE_ROWS, make_articles_db, settings_for

from rag.answer.retrieval import CHUNKS_PER_ROW, retrieve
from rag.assistant import Assistant
from rag.data.embeddings import HashingEmbedder
from rag.data.index import VectorIndex
from rag.data.source import TableSource

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
