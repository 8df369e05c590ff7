"""The BM25 keyword index (SQLite FTS5 side file): kept in sync with the Chroma collection by the same
incremental sync (insert, update, delete, crash, rebuild, a missing file), and filtered exactly as Chroma
filters (the same `where` language, the same meaning for missing keys).

Real SQLite and Chroma in tmp_path, the deterministic hashing embedder wrapped in `CountingEmbedder` to prove
that repairing the keyword index embeds nothing.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from conftest import ARTICLE_ROWS, LONG_URL, CountingEmbedder, settings_for, write_db
from test_index import FailingEmbedder

from rag.data.index import VectorIndex
from rag.data.keyword_index import CANDIDATE_FACTOR, KeywordIndex, keyword_path, match_expression, where_sql
from rag.data.source import TableSource
from rag.settings import Settings

BIKE_URL = ARTICLE_ROWS[0]["url"]
HEAT_URL = ARTICLE_ROWS[1]["url"]
VACCINE_URL = ARTICLE_ROWS[5]["url"]


@pytest.fixture
def embedder() -> CountingEmbedder:
    return CountingEmbedder()


@pytest.fixture
def index(settings: Settings, embedder: CountingEmbedder) -> VectorIndex:
    return VectorIndex(settings, embedder)


@pytest.fixture
def source(settings: Settings) -> TableSource:
    return TableSource.from_settings(settings)


def chunk_ids(keywords: KeywordIndex) -> set[str]:
    with sqlite3.connect(keywords.path) as connection:
        return {row[0] for row in connection.execute("SELECT chunk_id FROM chunks")}


def in_step(index: VectorIndex) -> None:
    """The keyword index holds exactly the collection's chunks and committed rows."""
    collection = index.collection()
    assert index.keywords.manifest() == index.manifest(collection)
    assert chunk_ids(index.keywords) == set(collection.get(include=[])["ids"])
    assert index.keywords.count() == collection.count()


def rows_found(index: VectorIndex, *terms: str, **kw: Any) -> list[str]:
    return list(dict.fromkeys(hit.row_key for hit in index.keywords.search(list(terms), rows=10, **kw)))


def test_sync_writes_the_same_chunks_beside_the_collection(index: VectorIndex, source: TableSource,
                                                           settings: Settings) -> None:
    report = index.sync(source)
    assert index.keywords.path == keyword_path(settings.index_dir, index.name)
    assert index.keywords.path.parent == Path(settings.index_dir)  # lives with the index, not the database
    assert report.keyword_rows_copied == 0  # written by the sync itself, nothing to repair
    in_step(index)
    status = index.status(source)
    assert status.healthy and status.keyword_chunks == status.chunks
    # Exact rare tokens and stems: "dishwashers" from "dishwasher", accents and case folded.
    assert rows_found(index, "dishwasher") == [HEAT_URL]
    assert rows_found(index, "VACCINE") == [VACCINE_URL]
    assert rows_found(index, "propolis") == [LONG_URL]  # buried in the long article's late paragraphs
    assert rows_found(index, "zanzibar") == []


def test_a_second_sync_changes_nothing(index: VectorIndex, source: TableSource, embedder: CountingEmbedder) -> None:
    index.sync(source)
    before = chunk_ids(index.keywords)
    embedder.reset()
    again = index.sync(source)
    assert again.unchanged == 8 and again.keyword_rows_copied == 0 and embedder.count == 0
    assert chunk_ids(index.keywords) == before


def test_update_replaces_the_rows_keywords(index: VectorIndex, source: TableSource, articles_db: Path) -> None:
    index.sync(source)
    assert rows_found(index, "beekeeping") == [LONG_URL]
    write_db(articles_db, "UPDATE articles SET full_content = ? WHERE url = ?",
             ("A correction replaced the story about the Zanzibar spice market.", LONG_URL))
    report = index.sync(source)
    assert report.changed == 1
    in_step(index)
    assert rows_found(index, "zanzibar") == [LONG_URL]
    assert rows_found(index, "propolis") == []  # the old text is gone
    assert rows_found(index, "beekeeping") == [LONG_URL]  # still in its title


def test_metadata_change_reaches_the_keyword_filters(index: VectorIndex, source: TableSource,
                                                     articles_db: Path) -> None:
    index.sync(source)
    write_db(articles_db, "UPDATE articles SET article_category = 'Science' WHERE url = ?", (HEAT_URL,))
    index.sync(source)
    assert rows_found(index, "grid", where={"article_category": "Science"}) == [HEAT_URL]
    assert rows_found(index, "grid", where={"article_category": "Environment"}) == []


def test_deleted_and_emptied_rows_leave_the_keyword_index(index: VectorIndex, source: TableSource,
                                                          articles_db: Path) -> None:
    index.sync(source)
    write_db(articles_db, "DELETE FROM articles WHERE url = ?", (LONG_URL,))
    write_db(articles_db, "UPDATE articles SET full_content = '' WHERE url = ?", (VACCINE_URL,))
    report = index.sync(source)
    assert report.deleted == 1
    in_step(index)
    assert LONG_URL not in index.keywords.manifest() and VACCINE_URL not in index.keywords.manifest()
    assert rows_found(index, "propolis") == [] and rows_found(index, "vaccine") == []


def test_crash_between_the_chroma_write_and_the_keyword_write_is_repaired(
        settings: Settings, source: TableSource, monkeypatch: pytest.MonkeyPatch) -> None:
    settings = settings.replace(embed_batch_size=1)  # several write batches for 8 rows
    crashing = VectorIndex(settings, CountingEmbedder())
    calls = []

    def fail_on_second(rows: Any) -> None:
        calls.append(rows)
        if len(calls) == 2:
            raise OSError("disk full while writing the keyword index")
        KeywordIndex.write(crashing.keywords, rows)

    monkeypatch.setattr(crashing.keywords, "write", fail_on_second)
    with pytest.raises(OSError, match="disk full"):
        crashing.sync(source)
    collection = crashing.collection()
    committed = crashing.manifest(collection)
    held = crashing.keywords.manifest()
    assert set(held) < set(committed)  # Chroma committed rows the keyword index never got
    lacking = set(committed) - set(held)

    embedder = CountingEmbedder()
    index = VectorIndex(settings, embedder)
    assert not index.status(source).healthy  # the keyword index is reported out of date
    report = index.sync(source)
    assert report.keyword_rows_copied == len(lacking)
    assert report.new == 8 - len(committed)  # only rows Chroma never committed are embedded
    in_step(index)
    assert index.status(source).healthy


def test_crash_in_embedding_then_convergence(settings: Settings, source: TableSource) -> None:
    settings = settings.replace(embed_batch_size=1)
    with pytest.raises(RuntimeError, match="crashed"):
        VectorIndex(settings, FailingEmbedder(fail_on=2)).sync(source)
    assert 0 < len(VectorIndex(settings, CountingEmbedder()).keywords.manifest()) < 8
    index = VectorIndex(settings, CountingEmbedder())
    index.sync(source)
    in_step(index)
    assert index.status(source).healthy


def test_a_missing_keyword_file_is_reported_and_rebuilt_without_embedding(
        index: VectorIndex, source: TableSource, embedder: CountingEmbedder) -> None:
    index.sync(source)
    index.keywords.drop()  # e.g. an index built before keyword search existed
    status = index.status(source)
    assert not status.healthy and "keyword index" in (status.problem or "")
    assert status.keyword_chunks == 0
    with pytest.raises(FileNotFoundError):
        index.keywords.search(["grid"], rows=5)
    embedder.reset()
    report = index.sync(source)
    assert report.keyword_rows_copied == 8 and report.unchanged == 8
    assert embedder.count == 0  # copied from Chroma's stored chunks
    in_step(index)
    assert rows_found(index, "dishwasher") == [HEAT_URL]


def test_rebuild_rebuilds_the_keyword_index(index: VectorIndex, source: TableSource) -> None:
    index.sync(source)
    with sqlite3.connect(index.keywords.path) as connection:  # a stray row that only a rebuild would drop
        connection.execute("INSERT INTO fts (rowid, title, body) VALUES (99999, 'stray', 'stray zanzibar')")
    report = index.sync(source, rebuild=True)
    assert report.new == 8
    in_step(index)
    with sqlite3.connect(index.keywords.path) as connection:
        assert connection.execute("SELECT count(*) FROM fts WHERE fts MATCH 'zanzibar'").fetchone()[0] == 0


def test_stale_rows_from_another_sync_are_replaced(index: VectorIndex, source: TableSource) -> None:
    """A Chroma server synced from another machine: this machine's keyword file holds an old version of a row
    and a row the table no longer has; the next sync copies and removes from Chroma's state."""
    from rag.data.keyword_index import KeywordChunk, KeywordRow

    index.sync(source)
    index.keywords.write([KeywordRow(BIKE_URL, "old-hash", [KeywordChunk("x::0", 0, "Old", "zanzibar", {})]),
                          KeywordRow("gone-row", "h", [KeywordChunk("g::0", 0, "Gone", "zanzibar", {})])])
    report = index.sync(source)
    assert report.keyword_rows_copied == 1
    in_step(index)
    assert rows_found(index, "zanzibar") == []


# --------------------------------------------------------------------------- filters mean what Chroma means

WHERES: list[dict[str, Any]] = [
    {"article_category": "Business"},
    {"article_category": {"$eq": "Sports"}},
    {"article_category": {"$ne": "Sports"}},
    {"article_category": {"$in": ["Health", "Politics"]}},
    {"article_category": {"$nin": ["Health", "Politics", "Environment"]}},
    {"author_1": {"$ne": "Aisha Khan"}},  # most rows have no second author: Chroma keeps them
    {"author_1": {"$nin": ["Li Wei"]}},
    {"$or": [{"author_0": "John Smith"}, {"author_1": "John Smith"}]},
    {"$and": [{"date_ymd": {"$gte": 20230301}}, {"date_ymd": {"$lte": 20230531}}]},
    {"word_count": {"$gt": 40}},
    {"$and": [{"year": 2023}, {"$or": [{"article_category": "Sports"}, {"month": {"$lt": 2}}]}]},
    {"chunk": 0},
]


@pytest.mark.parametrize("where", WHERES, ids=[str(w) for w in WHERES])
def test_keyword_filters_select_the_chunks_chroma_selects(index: VectorIndex, source: TableSource,
                                                          where: dict[str, Any]) -> None:
    index.sync(source)
    expected = set(index.collection().get(where=where, include=[])["ids"])
    sql, params = where_sql(where)
    with sqlite3.connect(index.keywords.path) as connection:
        got = {row[0] for row in connection.execute(f"SELECT chunk_id FROM chunks AS c WHERE {sql}", params)}
    assert got == expected and expected


def test_search_is_restricted_to_the_given_rows_and_filters(index: VectorIndex, source: TableSource) -> None:
    index.sync(source)
    assert len(rows_found(index, "the", "trial")) == 8
    assert set(rows_found(index, "the", "trial", row_keys=[BIKE_URL, VACCINE_URL])) == {BIKE_URL, VACCINE_URL}
    assert rows_found(index, "the", "trial", row_keys=[]) == []
    many = [f"absent-{i}" for i in range(30_000)] + [VACCINE_URL]  # a hybrid route's long list of row keys
    assert rows_found(index, "the", "trial", row_keys=many) == [VACCINE_URL]
    assert rows_found(index, "the", "trial", where={"article_category": "Health"}) == [VACCINE_URL]
    assert rows_found(index, "the", "trial", where={"article_category": "Health"}, row_keys=[BIKE_URL]) == []
    hits = index.keywords.search(["honey", "bees"], rows=1, per_row=2)
    assert [h.row_key for h in hits] == [LONG_URL, LONG_URL]  # a row's best chunks, at most per_row of them
    assert hits[0].score >= hits[1].score > 0
    # The long row's chunks about bees fill the first candidates (rows x per_row x CANDIDATE_FACTOR = 8);
    # the search fetches more until a second row is found.
    with sqlite3.connect(index.keywords.path) as connection:
        bees = connection.execute("SELECT count(*) FROM fts WHERE fts MATCH 'bees'").fetchone()[0]
    assert bees > 2 * 1 * CANDIDATE_FACTOR
    two = index.keywords.search(["bees", "the"], rows=2, per_row=1)
    assert [h.row_key for h in two][0] == LONG_URL and len({h.row_key for h in two}) == 2


def test_question_text_is_never_fts_syntax(index: VectorIndex, source: TableSource) -> None:
    index.sync(source)
    for terms in (['"grid'], ["grid*"], ["NEAR(grid", "power)"], ["grid", "OR", "AND", "NOT"], ["-grid"],
                  ["title:grid"], ["^grid"], ["'"], ["{grid}"]):
        index.keywords.search(terms, rows=5)  # never an FTS5 syntax error
    assert match_expression(['say "hi"', "x"]) == '"say ""hi""" OR "x"'
    assert rows_found(index, "title:grid") == []  # a column filter would have matched the heatwave title


def test_keyword_index_for_a_settings_copy_lives_in_its_own_directory(tmp_path: Path, articles_db: Path) -> None:
    settings = settings_for(articles_db, tmp_path / "elsewhere")
    index = VectorIndex(settings, CountingEmbedder())
    index.sync(TableSource.from_settings(settings))
    assert index.keywords.path.parent == tmp_path / "elsewhere" and index.keywords.exists()


def test_a_row_inserted_later_reaches_the_keyword_index(index: VectorIndex, source: TableSource, articles_db: Path,
                                                        embedder: CountingEmbedder) -> None:
    index.sync(source)
    write_db(articles_db, "INSERT INTO articles (url, title, authors, published_date, article_category, full_content) "
             "VALUES (?, ?, ?, ?, ?, ?)", ("https://example.com/zanzibar", "Spice market", "Ann Lee",
                                            "2023-05-01 10:00:00", "Travel", "The Zanzibar spice market reopened."))
    embedder.reset()
    report = index.sync(source)
    assert report.new == 1 and report.unchanged == 8 and report.keyword_rows_copied == 0
    in_step(index)
    assert rows_found(index, "zanzibar") == ["https://example.com/zanzibar"]


# --------------------------------------------------------------------------- the background sample (#14)


def test_sync_stores_a_background_sample_beside_the_index(index: VectorIndex, source: TableSource,
                                                          articles_db: Path, embedder: CountingEmbedder,
                                                          settings: Settings) -> None:
    """The table's background: one stored chunk vector of each sampled row, taken by the sync without embedding
    anything, kept while nothing changes, taken again after a change, gone with a rebuild's drop."""
    import numpy as np

    from rag.data.background import SAMPLE_SIZE, background_path

    report = index.sync(source)
    assert report.background_sampled
    path = background_path(settings.index_dir, index.name)
    assert index.background.path == path and path.parent == Path(settings.index_dir)
    vectors = index.background.vectors()
    collection = index.collection()
    rows = {m["row_key"] for m in collection.get(include=["metadatas"])["metadatas"]}
    assert collection.count() > len(rows)  # the long article has several chunks ...
    assert vectors is not None and vectors.shape == (min(SAMPLE_SIZE, len(rows)), 384)  # ... and one in the sample
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    stored = np.asarray(collection.get(include=["embeddings"])["embeddings"], dtype=np.float32)
    query = stored[0]
    expected = float((vectors @ query).mean() / np.linalg.norm(query))
    assert index.background.mean_similarity(list(query)) == pytest.approx(expected, abs=1e-4)
    embedder.reset()
    again = index.sync(source)
    assert not again.background_sampled and embedder.count == 0  # unchanged: the sample stays
    write_db(articles_db, "DELETE FROM articles WHERE url = ?", (LONG_URL,))
    assert index.sync(source).background_sampled  # the collection changed: a new sample
    assert index.background.vectors().shape[0] == min(SAMPLE_SIZE, len(rows) - 1)
    path.unlink()
    assert index.background.mean_similarity(list(query)) is None
    assert index.sync(source).background_sampled and path.exists()  # a missing sample is taken again
    index.drop()
    assert not path.exists()


def test_mentions_reads_a_word_as_the_sql_text_match_does(index: VectorIndex, source: TableSource) -> None:
    """The planner's evidence that a word occurs in the text: a case-insensitive substring, as `LIKE '%w%'` reads it,
    found among the chunks whose words start with its stem; unknown (None) without a keyword index."""
    assert index.keywords.mentions("Dishwashers") is None  # nothing synced yet
    index.sync(source)
    assert index.keywords.mentions("Dishwashers") is True
    assert index.keywords.mentions("dishwash") is True  # a prefix, as the SQL substring match finds it
    assert index.keywords.mentions("heat") is True  # "Heatwave"
    assert index.keywords.mentions("dishwashing") is False  # same stem, but no text holds the word
    assert index.keywords.mentions("zanzibar") is False
    assert index.keywords.mentions('50% "off"') is False  # FTS5 and LIKE syntax are only text
    index.keywords.drop()
    assert index.keywords.mentions("dishwasher") is None
