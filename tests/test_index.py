"""The Chroma index: incremental sync, convergence after crashes, bad rows, naming, locking and status.

Every test uses a real Chroma PersistentClient in tmp_path and the deterministic hashing embedder,
wrapped in `CountingEmbedder` to prove what was (not) embedded. Two slow tests use the real model and
a real Chroma server.
"""

from __future__ import annotations

import re
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import chromadb
import pytest
from chromadb.config import Settings as ChromaSettings
from conftest import (
    ARTICLE_ROWS,
    DUPLICATE_TITLE,
    LAST_PARAGRAPH_QUERY,
    LONG_URL,
    CountingEmbedder,
    make_articles_db,
    settings_for,
    sha256_file,
    write_db,
)

from rag.data.index import HNSW_EF_SEARCH, SyncProgress, VectorIndex, chunk_id, commit_id, date_metadata
from rag.data.source import TableSource
from rag.errors import IndexBusy, IndexMissing
from rag.settings import Settings

BIKE_URL = ARTICLE_ROWS[0]["url"]
HEAT_URL = ARTICLE_ROWS[1]["url"]
VACCINE_URL = ARTICLE_ROWS[5]["url"]
ALLOWED_TYPES = (str, int, float, bool)


def source_for(settings: Settings) -> TableSource:
    return TableSource(settings.db_url, settings.table, role_overrides=settings.role_overrides(),
                       timeout_s=settings.sql_timeout_s, max_rows=settings.max_rows,
                       max_cell_chars=settings.max_cell_chars)


def records(collection: Any, where: dict[str, Any] | None = None) -> dict[str, tuple[str, dict[str, Any]]]:
    """id -> (document, metadata) of every chunk (optionally filtered)."""
    got = collection.get(where=where, include=["documents", "metadatas"])
    return {i: (d, m) for i, d, m in zip(got["ids"], got["documents"], got["metadatas"], strict=True)}


def expected_ids(collection: Any) -> set[str]:
    """The chunk ids the committed rows (chunk-0 records) claim to have."""
    got = collection.get(where={"chunk": 0}, include=["metadatas"])
    return {commit_id(m["row_key"], m["content_hash"], m["n_chunks"]) for m in got["metadatas"]} | {
        chunk_id(m["row_key"], i) for m in got["metadatas"] for i in range(1, m["n_chunks"])}


@pytest.fixture
def embedder() -> CountingEmbedder:
    return CountingEmbedder()


@pytest.fixture
def index(settings: Settings, embedder: CountingEmbedder) -> VectorIndex:
    return VectorIndex(settings, embedder)


@pytest.fixture
def source(settings: Settings) -> TableSource:
    return source_for(settings)


# --------------------------------------------------------------------------- first and second sync


def test_first_sync(index: VectorIndex, source: TableSource, embedder: CountingEmbedder) -> None:
    progress: list[SyncProgress] = []
    report = index.sync(source, progress=progress.append)
    assert report.rows == 8 and report.new == 8
    assert report.changed == report.unchanged == report.deleted == report.orphans_removed == 0
    assert report.skipped == [] and report.notes == []
    assert report.collection == index.name
    assert progress[-1] == SyncProgress(8, 8, "done")
    collection = index.collection()
    assert collection.count() == report.chunks_added == embedder.count
    assert set(records(collection)) == expected_ids(collection)
    # Every text embedded carries its title.
    assert all(any(text.startswith(r["title"] + "\n") for r in ARTICLE_ROWS) for text in embedder.texts)

    by_url = {row["url"]: row for row in ARTICLE_ROWS}
    rows_seen: dict[str, list[int]] = {}
    for document, metadata in records(collection).values():
        row = by_url[metadata["row_key"]]
        rows_seen.setdefault(metadata["row_key"], []).append(metadata["chunk"])
        assert all(isinstance(v, ALLOWED_TYPES) for v in metadata.values())
        assert "full_content" not in metadata
        assert document in row["full_content"] or all(s in row["full_content"] for s in document.split(". "))
        assert metadata["content_hash"] and isinstance(metadata["content_hash"], str)
        assert isinstance(metadata["chunk"], int) and isinstance(metadata["n_chunks"], int)
        assert metadata["title"] == row["title"]
        assert metadata["article_category"] == row["article_category"]
        assert metadata["word_count"] == row["word_count"]
        assert metadata["date_ymd"] == int(row["published_date"][:10].replace("-", ""))
        assert metadata["year"] == int(row["published_date"][:4])
        assert metadata["month"] == int(row["published_date"][5:7])
        names = [n for n in row["authors"].split("; ") if n]
        assert [metadata.get(f"author_{i}") for i in range(len(names))] == names
        assert f"author_{len(names)}" not in metadata
    assert set(rows_seen) == set(by_url)
    for url, numbers in rows_seen.items():
        assert sorted(numbers) == list(range(len(numbers))), url
    assert len(rows_seen[LONG_URL]) >= 5  # the long row makes several chunks


def test_second_sync_embeds_nothing(index: VectorIndex, source: TableSource, embedder: CountingEmbedder) -> None:
    first = index.sync(source)
    embedder.reset()
    second = index.sync(source)
    assert embedder.count == 0 and embedder.calls == []
    assert second.unchanged == 8
    assert second.new == second.changed == second.deleted == second.chunks_added == second.orphans_removed == 0
    assert index.collection().count() == first.chunks_added
    assert index.status(source).healthy


def test_rebuild_embeds_everything_again(index: VectorIndex, source: TableSource,
                                         embedder: CountingEmbedder) -> None:
    first = index.sync(source)
    embedder.reset()
    again = index.sync(source, rebuild=True)
    assert again.new == 8 and again.unchanged == 0
    assert embedder.count == first.chunks_added == index.collection().count()


# --------------------------------------------------------------------------- incremental changes


def test_changed_content_reembeds_only_that_row(index: VectorIndex, source: TableSource,
                                                embedder: CountingEmbedder, articles_db: Path) -> None:
    index.sync(source)
    collection = index.collection()
    before = collection.count()
    old_long = records(collection, {"row_key": LONG_URL})
    assert len(old_long) > 1
    new_text = "The beekeeping story was replaced by a short correction. Nothing else remains."
    write_db(articles_db, "UPDATE articles SET full_content = ? WHERE url = ?", (new_text, LONG_URL))
    embedder.reset()
    report = index.sync(source)
    assert report.changed == 1 and report.new == 0 and report.unchanged == 7 and report.deleted == 0
    assert embedder.count == report.chunks_added == 1
    assert all(text.endswith(new_text) for text in embedder.texts)
    now_long = records(collection, {"row_key": LONG_URL})
    assert [doc for doc, _ in now_long.values()] == [new_text]
    everything = " ".join(doc for doc, _ in records(collection).values())
    assert "linden trees" not in everything  # the old chunk texts are gone
    assert collection.count() == before - len(old_long) + 1
    assert set(records(collection)) == expected_ids(collection)
    assert index.status(source).healthy


def test_changed_short_row_keeps_others_untouched(index: VectorIndex, source: TableSource,
                                                  embedder: CountingEmbedder, articles_db: Path) -> None:
    index.sync(source)
    collection = index.collection()
    untouched_before = {k: v for k, v in records(collection).items() if v[1]["row_key"] != BIKE_URL}
    write_db(articles_db, "UPDATE articles SET full_content = full_content || ' The vote was nine to two.' "
                          "WHERE url = ?", (BIKE_URL,))
    embedder.reset()
    report = index.sync(source)
    assert report.changed == 1
    assert embedder.count == 1 and "nine to two" in embedder.texts[0]
    untouched_after = {k: v for k, v in records(collection).items() if v[1]["row_key"] != BIKE_URL}
    assert untouched_after == untouched_before


def test_metadata_only_change(index: VectorIndex, source: TableSource, embedder: CountingEmbedder,
                              articles_db: Path) -> None:
    index.sync(source)
    write_db(articles_db, "UPDATE articles SET article_category = 'Science' WHERE url = ?", (HEAT_URL,))
    embedder.reset()
    report = index.sync(source)
    assert report.changed == 1 and report.unchanged == 7
    chunks = records(index.collection(), {"row_key": HEAT_URL})
    assert chunks and all(m["article_category"] == "Science" for _, m in chunks.values())
    assert embedder.count == len(chunks)
    science = records(index.collection(), {"article_category": "Science"})
    assert {m["row_key"] for _, m in science.values()} == {HEAT_URL}


def test_deleted_row(index: VectorIndex, source: TableSource, embedder: CountingEmbedder,
                     articles_db: Path) -> None:
    index.sync(source)
    write_db(articles_db, "DELETE FROM articles WHERE url = ?", (LONG_URL,))
    embedder.reset()
    report = index.sync(source)
    assert report.deleted == 1 and report.unchanged == 7 and report.rows == 7
    assert embedder.count == 0
    collection = index.collection()
    assert records(collection, {"row_key": LONG_URL}) == {}
    assert set(records(collection)) == expected_ids(collection)
    assert index.status(source).healthy


# --------------------------------------------------------------------------- crashes and leftovers


class FailingEmbedder(CountingEmbedder):
    """Raises on the `fail_on`-th embed call."""

    def __init__(self, fail_on: int) -> None:
        super().__init__()
        self.fail_on = fail_on

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if len(self.calls) + 1 == self.fail_on:
            self.calls.append(0)
            raise RuntimeError("embedding model crashed")
        return super().embed(texts)


def fresh_count(settings: Settings, tmp_path: Path) -> int:
    """Chunks in a rebuild from scratch of the same table in another directory."""
    fresh = VectorIndex(settings.replace(index_dir=str(tmp_path / "fresh")), CountingEmbedder())
    return fresh.sync(source_for(settings)).chunks_added


def test_crash_in_embedding_then_convergence(settings: Settings, tmp_path: Path) -> None:
    settings = settings.replace(embed_batch_size=1)  # several write batches for 8 rows
    source = source_for(settings)
    failing = FailingEmbedder(fail_on=2)
    with pytest.raises(RuntimeError, match="crashed"):
        VectorIndex(settings, failing).sync(source)
    assert len(failing.calls) == 2
    partial = VectorIndex(settings, CountingEmbedder()).collection()
    assert 0 < len(VectorIndex(settings, CountingEmbedder()).manifest(partial)) < 8

    embedder = CountingEmbedder()
    index = VectorIndex(settings, embedder)
    report = index.sync(source)
    assert report.new + report.unchanged == 8 and report.new > 0 and report.unchanged > 0
    collection = index.collection()
    status = index.status(source)
    assert status.healthy, status
    assert status.documents == 8
    assert collection.count() == fresh_count(settings, tmp_path)
    ids = collection.get(include=[])["ids"]
    assert len(ids) == len(set(ids))
    assert set(ids) == expected_ids(collection)


class CrashingUpserts:
    """A collection proxy whose `upsert` fails after `allowed` successful calls."""

    def __init__(self, inner: Any, allowed: int) -> None:
        self.inner = inner
        self.allowed = allowed

    def upsert(self, **kwargs: Any) -> None:
        if self.allowed == 0:
            raise ConnectionError("lost the index mid-write")
        self.allowed -= 1
        self.inner.upsert(**kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def test_crash_between_upsert_batches_then_convergence(settings: Settings, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    source = source_for(settings)
    crashing = VectorIndex(settings, CountingEmbedder())
    real_collection = crashing.collection
    monkeypatch.setattr(crashing, "collection", lambda create=False: CrashingUpserts(real_collection(create), 1))
    monkeypatch.setattr(crashing, "_max_batch", lambda: 3)
    with pytest.raises(ConnectionError):
        crashing.sync(source)
    leftovers = real_collection()
    assert leftovers.count() == 3  # chunks written, but no row committed (chunk 0 is written last)
    assert crashing.manifest(leftovers) == {}

    index = VectorIndex(settings, CountingEmbedder())
    report = index.sync(source)
    assert report.new == 8
    collection = index.collection()
    assert set(collection.get(include=[])["ids"]) == expected_ids(collection)
    assert collection.count() == fresh_count(settings, tmp_path)
    assert index.status(source).healthy


def test_leftover_chunks_are_removed(index: VectorIndex, source: TableSource, embedder: CountingEmbedder) -> None:
    index.sync(source)
    collection = index.collection()
    count = collection.count()
    vector = embedder.inner.embed(["stray"])[0]
    stray_meta = {"row_key": "https://nowhere/ghost", "content_hash": "x", "chunk": 2, "n_chunks": 3}
    collection.upsert(ids=[chunk_id("https://nowhere/ghost", 2)], documents=["stray"], embeddings=[vector],
                      metadatas=[stray_meta])
    ghost_committed = {**stray_meta, "row_key": "https://nowhere/ghost0", "chunk": 0, "n_chunks": 1}
    collection.upsert(ids=[commit_id("https://nowhere/ghost0", "x", 1)], documents=["ghost"], embeddings=[vector],
                      metadatas=[ghost_committed])
    assert index.status(source).orphaned == 1  # the committed ghost; the stray chunk is not a document
    embedder.reset()
    report = index.sync(source)
    assert report.orphans_removed >= 1
    assert report.deleted == 1
    assert embedder.count == 0
    assert collection.count() == count
    assert records(collection, {"row_key": {"$in": ["https://nowhere/ghost", "https://nowhere/ghost0"]}}) == {}
    assert index.status(source).healthy


# --------------------------------------------------------------------------- bad rows


def test_bad_rows(tmp_path: Path, article_rows: list[dict[str, Any]], embedder: CountingEmbedder) -> None:
    huge = " ".join(f"Line {i} of a very large export that nobody will ever read." for i in range(90_000))
    assert len(huge) > 5_000_000
    base = {"authors": "", "published_date": "2023-06-01 00:00:00", "article_category": "Misc"}
    rows = article_rows + [
        {**base, "url": "https://x/null", "title": "Null content", "full_content": None},
        {**base, "url": "https://x/empty", "title": "Empty content", "full_content": ""},
        {**base, "url": "https://x/blank", "title": "Blank content", "full_content": "  \n\t "},
        {**base, "url": "https://x/nul", "title": "Nul bytes", "full_content": "Before\x00after. Second sentence."},
        {**base, "url": "https://x/huge", "title": "Huge row", "full_content": huge},
    ]
    db = make_articles_db(tmp_path / "bad.db", rows)
    write_db(db, "INSERT INTO articles VALUES ('https://x/latin1', 'Latin-1 bytes', '', '2023-06-02', 'Misc', 1, "
                 "CAST(x'43616674e920636c6f7365642e' AS TEXT))")  # 'Caft\xe9 closed.' in Latin-1
    settings = settings_for(db, tmp_path / "index", max_chunks_per_row=20)
    source = source_for(settings)
    index = VectorIndex(settings, embedder)
    report = index.sync(source)

    assert report.rows == 14
    assert {s["row_key"]: s["reason"] for s in report.skipped} == {
        "https://x/null": "empty or NULL content",
        "https://x/empty": "empty or NULL content",
        "https://x/blank": "empty or NULL content",
    }
    notes = {(n["row_key"], n["note"]) for n in report.notes}
    assert ("https://x/nul", "NUL bytes removed") in notes
    assert ("https://x/latin1", "invalid UTF-8 replaced") in notes
    assert ("https://x/huge", "content truncated to 20 chunks (row too large)") in notes
    assert report.new == 11

    collection = index.collection()
    assert len(records(collection, {"row_key": "https://x/huge"})) == 20
    (nul_doc, _), = records(collection, {"row_key": "https://x/nul"}).values()
    assert nul_doc == "Beforeafter. Second sentence."
    (latin_doc, _), = records(collection, {"row_key": "https://x/latin1"}).values()
    assert latin_doc == "Caft\ufffd closed."
    for key in ("https://x/null", "https://x/empty", "https://x/blank"):
        assert records(collection, {"row_key": key}) == {}
    status = index.status(source)
    assert status.healthy, status
    assert status.documents == 11 and status.rows == 14


def test_duplicate_chunk_texts_of_a_row_are_collapsed(tmp_path: Path, embedder: CountingEmbedder) -> None:
    """A row of one paragraph pasted hundreds of times (an export gone wrong) stores each distinct chunk once:
    400 copies of one vector would fill every search's candidates (#10)."""
    paragraph = "The export repeats this paragraph about bike lanes. It says nothing new the second time. "
    rows = [*ARTICLE_ROWS, {"url": "https://x/pasted", "title": "Pasted", "full_content": paragraph * 3_000}]
    db = make_articles_db(tmp_path / "articles.db", rows)
    settings = settings_for(db, tmp_path / "index")
    source = source_for(settings)
    index = VectorIndex(settings, embedder)
    report = index.sync(source)
    stored = records(index.collection(), {"row_key": "https://x/pasted"})
    documents = [document for document, _ in stored.values()]
    assert 1 <= len(documents) <= 3 and len(set(documents)) == len(documents)
    assert sorted(m["chunk"] for _, m in stored.values()) == list(range(len(documents)))  # numbered without gaps
    assert {m["n_chunks"] for _, m in stored.values()} == {len(documents)}
    notes = [n["note"] for n in report.notes if n["row_key"] == "https://x/pasted"]
    assert any(re.fullmatch(r"\d{3} duplicate chunks collapsed", note) for note in notes), notes
    assert index.status(source).healthy
    embedder.reset()
    assert index.sync(source).unchanged == len(rows) and embedder.count == 0


def test_row_emptied_later_loses_its_chunks(index: VectorIndex, source: TableSource, articles_db: Path) -> None:
    index.sync(source)
    write_db(articles_db, "UPDATE articles SET full_content = '   ' WHERE url = ?", (BIKE_URL,))
    report = index.sync(source)
    assert [s["row_key"] for s in report.skipped] == [BIKE_URL]
    assert records(index.collection(), {"row_key": BIKE_URL}) == {}
    assert index.status(source).healthy


def test_duplicate_titles_are_separate_documents(index: VectorIndex, source: TableSource) -> None:
    index.sync(source)
    chunks = records(index.collection(), {"title": DUPLICATE_TITLE})
    keys = {m["row_key"] for _, m in chunks.values()}
    assert keys == {row["url"] for row in ARTICLE_ROWS if row["title"] == DUPLICATE_TITLE}
    assert len(keys) == 2


# --------------------------------------------------------------------------- naming, fingerprint, lock


def test_chunk_settings_change_the_collection(settings: Settings, source: TableSource) -> None:
    first = VectorIndex(settings, CountingEmbedder())
    first.sync(source)
    count = first.collection().count()
    other = VectorIndex(settings.replace(chunk_tokens=100, chunk_overlap=20), CountingEmbedder(),
                        client=first.client)
    assert other.name != first.name
    with pytest.raises(IndexMissing):
        other.collection()
    report = other.sync(source)
    assert report.new == 8
    assert other.collection().count() > count  # smaller chunks, more of them
    assert first.collection().count() == count
    assert first.status(source).healthy


def test_collection_with_another_fingerprint_is_index_missing(settings: Settings, source: TableSource) -> None:
    index = VectorIndex(settings, CountingEmbedder())
    index.client.create_collection(index.name, metadata={"embed_model": "some-other-model", "dim": "768"},
                                   embedding_function=None)
    with pytest.raises(IndexMissing, match="other settings"):
        index.collection()
    with pytest.raises(IndexMissing):
        index.sync(source)
    status = index.status(source)
    assert not status.healthy and status.problem and not status.exists


def test_the_hnsw_search_explores_hnsw_ef_search_candidates_also_in_an_older_index(
        index: VectorIndex, source: TableSource, settings: Settings) -> None:
    index.sync(source)
    client = index.client
    assert client.get_collection(index.name).configuration["hnsw"]["ef_search"] == HNSW_EF_SEARCH
    client.get_collection(index.name).modify(configuration={"hnsw": {"ef_search": 100}})  # Chroma's default
    assert client.get_collection(index.name).configuration["hnsw"]["ef_search"] == 100
    VectorIndex(settings, CountingEmbedder()).collection()  # opened as a new process would
    assert client.get_collection(index.name).configuration["hnsw"]["ef_search"] == HNSW_EF_SEARCH


def test_held_lock_is_index_busy(index: VectorIndex, source: TableSource, embedder: CountingEmbedder) -> None:
    lock = index._lock()
    lock.acquire()
    try:
        with pytest.raises(IndexBusy):
            index.sync(source)
    finally:
        lock.release()
    assert embedder.count == 0
    assert index.sync(source).new == 8


# --------------------------------------------------------------------------- status


def test_status_counts_missing_stale_orphaned(index: VectorIndex, source: TableSource,
                                              embedder: CountingEmbedder, articles_db: Path) -> None:
    report = index.sync(source)
    status = index.status(source)
    assert status.healthy and status.exists
    assert (status.rows, status.documents, status.chunks) == (8, 8, report.chunks_added)
    assert status.embed_model == embedder.name

    write_db(articles_db, "INSERT INTO articles VALUES ('https://x/new', 'New', 'Ann Lee', '2023-10-01', 'Tech', 3, "
                          "'A brand new row.')")
    write_db(articles_db, "UPDATE articles SET title = 'Renamed' WHERE url = ?", (BIKE_URL,))
    write_db(articles_db, "DELETE FROM articles WHERE url = ?", (VACCINE_URL,))
    embedder.reset()
    status = index.status(source)
    assert (status.missing, status.stale, status.orphaned) == (1, 1, 1)
    assert status.rows == 8 and status.documents == 8
    assert not status.healthy
    assert embedder.count == 0  # status never embeds
    assert status.to_dict()["healthy"] is False


def test_status_without_collection(index: VectorIndex, source: TableSource) -> None:
    status = index.status(source)
    assert status.exists is False
    assert status.missing == 8
    assert status.problem and "python -m rag index" in status.problem
    assert not status.healthy


# --------------------------------------------------------------------------- the source is never written


def test_sync_status_and_select_never_write_the_database(tmp_path: Path) -> None:
    db_dir = tmp_path / "db"
    db_dir.mkdir()
    db = make_articles_db(db_dir / "articles.db")
    settings = settings_for(db, tmp_path / "index")

    def schema() -> list[tuple[Any, ...]]:
        connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            return connection.execute("SELECT * FROM sqlite_master ORDER BY name").fetchall()
        finally:
            connection.close()

    checksum, schema_before, files_before = sha256_file(db), schema(), sorted(db_dir.iterdir())
    source = source_for(settings)
    index = VectorIndex(settings, CountingEmbedder())
    index.sync(source)
    index.status(source)
    source.run_select("SELECT article_category, count(*) FROM articles GROUP BY article_category")
    source.profile()
    source.close()
    assert sha256_file(db) == checksum
    assert schema() == schema_before
    assert sorted(db_dir.iterdir()) == files_before  # no journal, WAL or lock file left beside it


def test_date_metadata() -> None:
    assert date_metadata("2023-04-17 09:30:00") == {"date_ymd": 20230417, "year": 2023, "month": 4}
    assert date_metadata("2018-11-05") == {"date_ymd": 20181105, "year": 2018, "month": 11}
    assert date_metadata(None) == {}
    assert date_metadata("yesterday") == {}


# --------------------------------------------------------------------------- slow: real model, real server


@pytest.mark.slow
def test_real_embedder_finds_the_last_chunk(settings: Settings, source: TableSource, real_embedder: Any) -> None:
    index = VectorIndex(settings.replace(embed_model=real_embedder.name), real_embedder)
    index.sync(source)
    collection = index.collection()
    # Sizes are measured in the model's own word pieces.
    documents = [doc for doc, _ in records(collection).values()]
    assert max(real_embedder.count_tokens(documents)) <= settings.chunk_tokens
    long_chunks = records(collection, {"row_key": LONG_URL})
    last = max(m["chunk"] for _, m in long_chunks.values())
    assert last >= 4
    found = collection.query(query_embeddings=real_embedder.embed([LAST_PARAGRAPH_QUERY]), n_results=3,
                             include=["metadatas", "distances"])
    top = found["metadatas"][0][0]
    assert (top["row_key"], top["chunk"]) == (LONG_URL, last)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("localhost", 0))
        return sock.getsockname()[1]


@pytest.mark.slow
def test_chroma_server(settings: Settings, source: TableSource, tmp_path: Path,
                       monkeypatch: pytest.MonkeyPatch) -> None:
    port = free_port()
    chroma = Path(sys.executable).parent / "chroma"
    log = (tmp_path / "chroma.log").open("wb")
    server = subprocess.Popen([str(chroma), "run", "--path", str(tmp_path / "server"), "--port", str(port)],
                              stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                chromadb.HttpClient(host="localhost", port=port,
                                    settings=ChromaSettings(anonymized_telemetry=False)).heartbeat()
                break
            except Exception:
                assert server.poll() is None, (tmp_path / "chroma.log").read_text()
                assert time.monotonic() < deadline, "the Chroma server did not answer within 60 s"
                time.sleep(0.25)
        remote = settings.replace(chroma_host="localhost", chroma_port=port)
        embedder = CountingEmbedder()
        index = VectorIndex(remote, embedder)
        assert not (Path(remote.index_dir)).exists()  # the local directory is not used by Chroma
        report = index.sync(source)
        assert report.new == 8
        collection = index.collection()
        assert collection.count() == report.chunks_added == embedder.count
        assert set(collection.get(include=[])["ids"]) == expected_ids(collection)
        # The keyword index and the background sample (#14) are the product's own files, in RAG_INDEX_DIR on this
        # machine: only they are there.
        assert sorted(p.name for p in Path(remote.index_dir).iterdir() if not p.name.endswith(("-wal", "-shm"))) == \
            sorted([index.keywords.path.name, index.background.path.name])
        assert index.keywords.manifest() == index.manifest(collection)
        assert {h.row_key for h in index.keywords.search(["dishwashers"], rows=5)} == {HEAT_URL}
        embedder.reset()
        again = index.sync(source)
        assert again.unchanged == 8 and embedder.count == 0
        assert index.status(source).healthy
        # Another machine's app (no keyword file yet) fills its own from the server's chunks, embedding nothing.
        elsewhere = VectorIndex(remote.replace(index_dir=str(tmp_path / "other-host")), embedder)
        assert not elsewhere.status(source).healthy
        copied = elsewhere.sync(source)
        assert copied.keyword_rows_copied == 8 and embedder.count == 0
        assert elsewhere.status(source).healthy
        from rag.assistant import Assistant

        turn = Assistant.build(remote, index=index).ask("Which article mentions dishwashers?")
        assert turn.error is None and turn.result.chunks[0].url == HEAT_URL
        assert any(s.name == "keyword.search" and s.attributes["results"] for s in turn.trace.spans)
        # The dense search centred on the table reads the candidates' stored vectors from the server too (this
        # table's 8 rows are below the minimum, lowered here so the centred path runs).
        monkeypatch.setattr("rag.answer.similarity.CENTRING_MIN_ROWS", 1)
        turn = Assistant.build(remote, index=index).ask("Which article mentions dishwashers?")
        [search] = [s.attributes for s in turn.trace.spans if s.name == "vector.search"]
        assert search["centred"] and all("centred" in r for r in search["results"])
        assert turn.error is None and turn.result.chunks[0].url == HEAT_URL
    finally:
        server.kill()
        server.wait(timeout=10)
        log.close()


# --------------------------------------------------------------------------- regressions of reported bugs


def test_deleted_index_directory_is_detected(settings: Settings, source: TableSource) -> None:
    import shutil

    first = VectorIndex(settings, CountingEmbedder())  # kept alive, as a cached engine would be
    first.sync(source)
    shutil.rmtree(settings.index_dir)
    embedder = CountingEmbedder()
    index = VectorIndex(settings, embedder)
    assert not index.status(source).healthy
    assert index.sync(source).new == 8
    assert (Path(settings.index_dir) / "chroma.sqlite3").exists()


def test_unreachable_chroma_server_is_a_rag_error(settings: Settings, source: TableSource) -> None:
    from rag.errors import IndexUnreachable

    # Opened on first use, so a server that is down never stops the table (and SQL) from working.
    index = VectorIndex(settings.replace(chroma_host="localhost", chroma_port=free_port()), CountingEmbedder())
    with pytest.raises(IndexUnreachable, match="unreachable"):
        index.collection()
    with pytest.raises(IndexUnreachable):
        index.sync(source)


@pytest.mark.parametrize("row_key", ["42", "https://x.example/a::b", "key with spaces"])
def test_commit_ids_round_trip_even_with_separators_in_the_key(row_key: str) -> None:
    from rag.data.index import parse_commit_id

    assert parse_commit_id(commit_id(row_key, "0123abcd", 7)) == (row_key, "0123abcd", 7)
    assert parse_commit_id(chunk_id(row_key, 3)) is None
