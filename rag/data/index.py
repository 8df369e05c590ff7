"""The Chroma index of the table's text: collection naming, incremental sync and health status.

SQL is the source of truth; the index is derived and can always be rebuilt from it.

Sync protocol (converges after a crash at any point):
- every chunk carries `row_key`, `content_hash`, `chunk` and `n_chunks`;
- chunk 0 of a row is written last and acts as the row's commit marker; its id also spells out the
  row key, content hash and chunk count (`commit_id`), so the manifest of indexed rows is read from
  chunk-0 ids alone (10,000 rows: 0.3 s, against 5 s for their metadata);
- a new or changed row first loses every chunk carrying its `row_key`, then gets its new chunks;
- rows gone from the table lose their chunks; leftovers from an interrupted run are found when the
  collection's count disagrees with the manifest and removed.
Unchanged rows are never re-embedded. One writer at a time, through a file lock.

The BM25 keyword index (rag/data/keyword_index.py, an SQLite FTS5 file in RAG_INDEX_DIR) holds the same
chunks: `_write` and `_delete_rows` change it right after Chroma, and `_sync_keywords` ends every sync by
copying from Chroma whatever rows it lacks or holds in another version (after a crash, or for an index built
before it existed), so it converges like the collection, without embedding anything.

Faults (docs in the README): the Chroma client is opened on first use, so a damaged directory or an
unreachable server never stops the table (and SQL questions) from working; every Chroma failure becomes
an `IndexMissing` (or `IndexUnreachable`) in plain words. Status and sync sample a few stored chunks and
query each by its own vector: a chunk that cannot find itself means Chroma's vector files are missing or
broken (its SQLite bookkeeping alone still counts every chunk), and sync then rebuilds the collection.

Long because the sync protocol, its crash recovery and the health status must agree on one id scheme.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import re
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import chromadb
import httpx
from chromadb.api.shared_system_client import SharedSystemClient
from chromadb.config import Settings as ChromaSettings
from chromadb.errors import ChromaError, NotFoundError
from filelock import FileLock, Timeout

from rag.data.background import Background, background_path
from rag.data.chunking import chunk_text
from rag.data.embeddings import Embedder
from rag.data.keyword_index import KeywordChunk, KeywordIndex, KeywordRow, keyword_path
from rag.data.source import SourceRow, TableSource, split_authors
from rag.errors import IndexBusy, IndexMissing, IndexUnreachable, RagError
from rag.settings import Settings, mask_url

logger = logging.getLogger(__name__)

MAX_AUTHOR_KEYS = 5  # authors are also stored as author_0..author_4 so an exact author is an equality filter
DELETE_BATCH = 500  # row keys (or chunk ids) per delete call during sync
VECTOR_SAMPLES = 5  # stored chunks, spread over the collection, that must find themselves by their own vector
VECTOR_CHECK_TTL_S = 60.0  # how long check() trusts a passed vector check (status always checks)
# Candidates Chroma's HNSW search explores per query (its default is 100). Measured by bench/hnsw_search.py on the
# evaluation's real chunk vectors and 6,452 questions, the share of the exact top 5 a query returns: 95.8% at 100,
# 99.9% at 800 (4,515 vectors); 93.4% and 99.6% at 10,000 vectors; for +0.5 ms p50 per query. A collection under
# Chroma's sync threshold (1,000 chunks) also rebuilds its graph at every start, so with 100 the misses changed
# between runs (the contracts evaluation passed 215 and then 214 of 289 on the same code).
HNSW_EF_SEARCH = 800
SELF_DISTANCE = 1e-3  # cosine distance under which a found vector is the sampled one (or an identical copy)
REBUILD_HINT = ("Rebuild it with `python -m rag index --rebuild`, or tick 'Rebuild from scratch' and use "
                "'Sync index' on the Data page. SQL questions still work meanwhile.")


@dataclass
class SyncReport:
    rows: int = 0
    new: int = 0
    changed: int = 0
    unchanged: int = 0
    deleted: int = 0
    skipped: list[dict[str, str]] = field(default_factory=list)
    notes: list[dict[str, str]] = field(default_factory=list)
    chunks_added: int = 0
    orphans_removed: int = 0
    background_sampled: bool = False  # a new background sample was stored (rag/data/background.py)
    keyword_rows_copied: int = 0  # rows the keyword index lacked or held in another version, copied from Chroma
    seconds: float = 0.0
    embed_seconds: float = 0.0
    collection: str = ""
    repaired: str | None = None  # why a damaged collection was rebuilt from the table
    moved_aside: str | None = None  # where an unreadable index directory was moved before a rebuild
    roles_changed: str | None = None  # every row written again: the roles stored with each chunk changed

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class IndexStatus:
    collection: str
    exists: bool
    rows: int = 0
    documents: int = 0
    chunks: int = 0
    missing: int = 0
    stale: int = 0
    orphaned: int = 0
    embed_model: str = ""
    keyword_chunks: int = 0  # chunks in the BM25 side file (should equal `chunks`)
    problem: str | None = None
    stale_reason: str | None = None  # every row is stale: the column roles stored with each chunk changed

    @property
    def healthy(self) -> bool:
        return self.exists and not (self.missing or self.stale or self.orphaned) and self.problem is None

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "healthy": self.healthy}


@dataclass
class SyncProgress:
    done: int
    total: int
    phase: str


def date_metadata(value: Any) -> dict[str, int]:
    """'2023-04-17 09:30:00' -> {'date_ymd': 20230417, 'year': 2023, 'month': 4} (numbers for range filters)."""
    match = re.match(r"^(\d{4})-(\d{2})-(\d{2})", str(value or ""))
    if not match:
        return {}
    year, month, day = (int(g) for g in match.groups())
    return {"date_ymd": year * 10000 + month * 100 + day, "year": year, "month": month}


ID_SEPARATOR = "::"
LAYOUT = 2  # version of the id scheme above; part of the fingerprint, so older collections are rebuilt
# Column roles a row's stored chunks depend on beyond its content hash (which covers the title and content
# columns, so changing those roles makes each row stale by itself): dates and authors become metadata keys
# (date_ymd/year/month, author_0..4). The collection records them; a change rewrites every row.
STORED_ROLES = ("date", "authors")
STORED_ROLES_KEY = "stored_roles"


def stored_roles(source: TableSource) -> str:
    """The roles that shape every chunk's derived metadata, as the collection records them."""
    return json.dumps({role: getattr(source.roles, role) for role in STORED_ROLES}, sort_keys=True)


def stored_roles_change(recorded: str | None, source: TableSource) -> str | None:
    """What changed since the collection recorded its roles (None: nothing, or a collection from before
    roles were recorded, taken as matching; its next sync records them)."""
    if recorded is None or recorded == stored_roles(source):
        return None
    try:
        before = json.loads(recorded)
    except ValueError:
        before = {}
    changes = [f"{role} column {before.get(role) or 'none'} → {getattr(source.roles, role) or 'none'}"
               for role in STORED_ROLES if before.get(role) != getattr(source.roles, role)]
    return "the " + ", ".join(changes or ["stored roles"]) + " (stored with every chunk)"


def reindex_reasons(before: TableSource, after: TableSource) -> list[str]:
    """Why the index must be synced after the column roles changed from `before` to `after`; empty when the
    stored chunks do not depend on what changed (categories, numeric measures, a url that keys nothing)."""
    reasons = []
    for role, why in (("content", "the text that is split and embedded"), ("title", "embedded with each chunk")):
        if getattr(before.roles, role) != getattr(after.roles, role):
            reasons.append(f"the {role} column changed ({why}): every row is embedded again")
    if before.key_columns != after.key_columns:
        reasons.append("rows are keyed by other columns now: every row is indexed again under its new key")
    for role in STORED_ROLES:
        if getattr(before.roles, role) != getattr(after.roles, role):
            reasons.append(f"the {role} column changed (stored with each chunk): every row is written again")
    return reasons


def chunk_id(row_key: str, number: int) -> str:
    """Id of chunk `number` >= 1 of a row (chunk 0 uses `commit_id`)."""
    return f"{row_key}{ID_SEPARATOR}{number}"


def commit_id(row_key: str, content_hash: str, n_chunks: int) -> str:
    """Id of a row's chunk 0, its commit marker: '<row key>::0::<content hash>::<chunk count>'."""
    return ID_SEPARATOR.join((row_key, "0", content_hash, str(n_chunks)))


def parse_commit_id(identifier: str) -> tuple[str, str, int] | None:
    """(row key, content hash, chunk count) from a commit id; None for anything else."""
    parts = identifier.rsplit(ID_SEPARATOR, 3)
    if len(parts) != 4 or parts[1] != "0" or not parts[3].isdigit():
        return None
    return parts[0], parts[2], int(parts[3])


def widen_search(collection: Any) -> Any:
    """`collection`, its HNSW search set to explore HNSW_EF_SEARCH candidates when an older build left it lower.

    Chroma applies the new value when a process first loads the collection's graph, so this runs when the
    collection is opened, before any query; a process that already searched it keeps the old value until it
    restarts. A store that refuses the change (read-only files) is searched as it is, and the log says so."""
    hnsw = (getattr(collection, "configuration", None) or {}).get("hnsw") or {}
    if int(hnsw.get("ef_search") or HNSW_EF_SEARCH) < HNSW_EF_SEARCH:
        try:
            collection.modify(configuration={"hnsw": {"ef_search": HNSW_EF_SEARCH}})
        except Exception as error:  # noqa: BLE001 - a narrower search still answers
            logger.warning("could not widen the HNSW search of %s: %s", collection.name, error)
    return collection

class VectorIndex:
    """One Chroma collection holding the chunks of one table, for one embedding/chunking setup."""

    def __init__(self, settings: Settings, embedder: Embedder, client: Any | None = None) -> None:
        self.settings = settings
        self.embedder = embedder
        self._client = client
        self._client_lock = threading.Lock()
        self._vectors_ok_at = float("-inf")  # when check() last found the vectors readable
        self.name = self.collection_name()
        # BM25 over the same chunks, in the product's own file (in RAG_INDEX_DIR even with a Chroma server).
        self.keywords = KeywordIndex(keyword_path(settings.index_dir, self.name))
        self.background = Background(background_path(settings.index_dir, self.name))  # "nothing relevant"

    # ---------------------------------------------------------------- client and collection

    @property
    def client(self) -> Any:
        """The Chroma client, opened on first use (again after a failure: a server may come back)."""
        if self._client is None:
            with self._client_lock:
                if self._client is None:
                    self._client = self._make_client()
        return self._client

    def _make_client(self) -> Any:
        chroma_settings = ChromaSettings(anonymized_telemetry=False)
        if self.settings.chroma_host:
            try:
                return chromadb.HttpClient(host=self.settings.chroma_host, port=self.settings.chroma_port,
                                           settings=chroma_settings)
            except Exception as error:  # noqa: BLE001 - chromadb raises ValueError/ConnectionError by version
                raise IndexUnreachable(unreachable_message(self.settings)) from error
        path = Path(self.settings.index_dir)
        path.mkdir(parents=True, exist_ok=True)
        if not (path / "chroma.sqlite3").exists():
            # chromadb caches one client system per directory; a deleted directory must not be served from it.
            SharedSystemClient._identifier_to_system.pop(str(path), None)
        try:
            return chromadb.PersistentClient(path=str(path), settings=chroma_settings)
        except Exception as error:  # noqa: BLE001 - any failure to open means the directory is unusable
            # A failed open stays cached per directory and later says "'RustBindingsAPI' object has no
            # attribute 'bindings'": forget it, so the next attempt meets (and reports) the real problem.
            SharedSystemClient._identifier_to_system.pop(str(path), None)
            raise IndexMissing(f"The search index in {path} is damaged: Chroma cannot open its database file "
                               f"({_first_line(error)}). {REBUILD_HINT}") from error

    @contextlib.contextmanager
    def _chroma_errors(self) -> Iterator[None]:
        """Chroma's and its HTTP client's exceptions as plain-worded domain errors."""
        try:
            yield
        except RagError:
            raise
        except Exception as error:
            translated = index_error(error, self.settings)
            if translated is None:
                raise
            raise translated from error

    def fingerprint(self) -> dict[str, Any]:
        """Everything that makes vectors comparable; a change means a new collection."""
        return {
            "embed_model": self.embedder.name,
            "dim": self.embedder.dim,
            "chunk_tokens": self.settings.chunk_tokens,
            "chunk_overlap": self.settings.chunk_overlap,
            "table": self.settings.table,
            "source": mask_url(self.settings.db_url),
            "layout": LAYOUT,
        }

    def collection_name(self) -> str:
        digest = hashlib.sha1(json.dumps(self.fingerprint(), sort_keys=True).encode()).hexdigest()[:10]
        table = re.sub(r"[^a-zA-Z0-9_-]", "_", self.settings.table)[:40]
        return f"{self.settings.collection_prefix}-{table}-{digest}"

    def collection(self, create: bool = False) -> Any:
        """The collection, checked against the fingerprint; IndexMissing when absent or mismatched."""
        client = self.client
        try:
            collection = client.get_collection(self.name, embedding_function=None)
        except (NotFoundError, ValueError) as error:  # chroma raises NotFoundError, older releases ValueError
            if not create:
                raise IndexMissing(self._not_found_message()) from error
            metadata = {k: str(v) for k, v in self.fingerprint().items()}
            metadata["created_at"] = datetime.now().isoformat(timespec="seconds")
            with self._chroma_errors():
                return client.create_collection(self.name, metadata=metadata, embedding_function=None,
                                                configuration={"hnsw": {"space": "cosine",
                                                                        "ef_search": HNSW_EF_SEARCH}})
        except Exception as error:  # noqa: BLE001 - unreachable server, damaged files: plain words
            raise (index_error(error, self.settings) or IndexMissing(
                f"The search index cannot be read ({_first_line(error)}). {REBUILD_HINT}")) from error
        recorded = collection.metadata or {}
        expected = {k: str(v) for k, v in self.fingerprint().items()}
        if any(recorded.get(k) != v for k, v in expected.items()):
            raise IndexMissing(f"Collection {self.name} was built with other settings; rebuild the index.")
        return widen_search(collection)

    def _not_found_message(self) -> str:
        """No collection: never built here, or built and then lost (Chroma's database file deleted)."""
        if not self.settings.chroma_host and (Path(self.settings.index_dir) / self._lock_name()).exists():
            # The lock file is only created by a sync of this very collection.
            return (f"The search index in {self.settings.index_dir} is missing or damaged: it was built there, but "
                    f"Chroma's database file (chroma.sqlite3) is gone or no longer lists it. {REBUILD_HINT}")
        return ("The search index has not been built yet. "
                "Run `python -m rag index` or use 'Sync index' on the Data page.")

    def _file_problem(self) -> str | None:
        """A local index whose database file vanished under an open client (which still reads the old one)."""
        if self.settings.chroma_host or (Path(self.settings.index_dir) / "chroma.sqlite3").exists():
            return None
        return (f"The search index in {self.settings.index_dir} is missing or damaged: Chroma's database file "
                f"(chroma.sqlite3) is gone. {REBUILD_HINT}")

    def check_vectors(self, collection: Any) -> str | None:
        """None when sampled stored chunks can be read back with their vectors and found by them; else what
        is wrong. Never embeds: it queries with the stored vectors.

        Chroma keeps ids, documents and metadata in SQLite and the vectors in HNSW segment files: with those
        files gone, counts and ids still look right while searches return unrelated rows or fail. A damaged
        segment cannot return a sampled chunk's vector; a healthy one returns it, and a search with it finds
        the chunk itself (HNSW is approximate, so one sample in a few may miss itself: only a sample where
        none does counts as damage)."""
        total = collection.count()
        if total == 0:
            return None
        samples = min(VECTOR_SAMPLES, total)
        offsets = sorted({round(i * (total - 1) / max(1, samples - 1)) for i in range(samples)})
        unreadable = found_itself = 0
        for offset in offsets:
            try:
                got = collection.get(limit=1, offset=offset, include=["embeddings"])
                if not got["ids"]:
                    continue
                found = collection.query(query_embeddings=[list(got["embeddings"][0])], n_results=min(10, total),
                                         include=["distances"])
            except ChromaError:
                unreadable += 1
                continue
            ids, distances = found["ids"][0], found["distances"][0]
            if got["ids"][0] in ids or (distances and distances[0] < SELF_DISTANCE):
                found_itself += 1
        if unreadable:
            return (f"the vectors of {unreadable} of {len(offsets)} sampled chunks cannot be read "
                    "(Chroma's vector files are missing or broken)")
        if not found_itself:
            return (f"none of {len(offsets)} sampled chunks is found by its own vector "
                    "(Chroma's vector files do not match its records)")
        return None

    def check(self) -> None:
        """Raises IndexMissing (IndexUnreachable for a server) unless the collection can be searched.

        The app calls this on every rerun: a passed vector check is trusted for VECTOR_CHECK_TTL_S seconds."""
        with self._chroma_errors():
            collection = self.collection()
            problem = self._file_problem()
            fresh = time.monotonic() - self._vectors_ok_at < VECTOR_CHECK_TTL_S
            vectors = None if problem or fresh else self.check_vectors(collection)
        if problem:
            raise IndexMissing(problem)
        if vectors:
            self._vectors_ok_at = float("-inf")
            raise IndexMissing(damaged_message(vectors))
        self._vectors_ok_at = time.monotonic()

    def drop(self) -> None:
        with contextlib.suppress(Exception):  # absent already
            self.client.delete_collection(self.name)
        self.keywords.drop()
        self.background.drop()

    def _lock_name(self) -> str:
        return f".{self.name}.sync.lock"

    def _lock(self) -> FileLock:
        if self.settings.chroma_host:
            lock_dir = Path(tempfile.gettempdir())
            lock_name = f"rag-{self.settings.chroma_host}-{self.settings.chroma_port}-{self.name}.lock"
        else:
            lock_dir = Path(self.settings.index_dir)
            lock_name = self._lock_name()
        lock_dir.mkdir(parents=True, exist_ok=True)
        return FileLock(str(lock_dir / lock_name), timeout=2)

    # ---------------------------------------------------------------- reading the index

    def _pages(self, collection: Any, where: dict[str, Any] | None, include: list[str],
               page: int = 5000) -> Iterator[dict[str, Any]]:
        offset = 0
        while True:
            batch = collection.get(where=where, include=include, limit=page, offset=offset)
            if not batch["ids"]:
                return
            yield batch
            offset += len(batch["ids"])

    def manifest(self, collection: Any) -> dict[str, tuple[str, int]]:
        """row_key -> (content_hash, n_chunks) of committed rows, read from chunk-0 ids only."""
        rows: dict[str, tuple[str, int]] = {}
        for batch in self._pages(collection, {"chunk": 0}, []):
            for identifier in batch["ids"]:
                parsed = parse_commit_id(identifier)
                if parsed is not None:
                    rows[parsed[0]] = (parsed[1], parsed[2])
        return rows

    # ---------------------------------------------------------------- row -> chunks

    def content_hash(self, row: SourceRow) -> str:
        payload = json.dumps([row.title, row.content, row.metadata], sort_keys=True, default=str)
        return hashlib.sha256(payload.encode("utf-8", errors="replace")).hexdigest()[:16]

    def chunk_metadata(self, row: SourceRow, source: TableSource, content_hash: str) -> dict[str, Any]:
        """Flat metadata Chroma accepts: no None values, dates also as integers, authors also one per key."""
        metadata: dict[str, Any] = {}
        for key, value in row.metadata.items():
            if value is None:
                continue
            metadata[key] = value if isinstance(value, str | int | float | bool) else str(value)
        if source.roles.date:
            metadata.update(date_metadata(row.metadata.get(source.roles.date)))
        if source.roles.authors:
            for i, name in enumerate(split_authors(row.metadata.get(source.roles.authors))[:MAX_AUTHOR_KEYS]):
                metadata[f"author_{i}"] = name
        metadata["row_key"] = row.key
        metadata["content_hash"] = content_hash
        return metadata

    def chunks_for(self, row: SourceRow, source: TableSource, content_hash: str
                   ) -> tuple[list[str], list[str], list[str], list[dict[str, Any]], bool, int]:
        """(ids, documents, texts to embed, metadatas, truncated, duplicates collapsed) for one row.

        A chunk whose text (whitespace aside) repeats an earlier chunk of the same row is stored once: a
        paragraph pasted hundreds of times would otherwise give hundreds of copies of one vector, enough to
        fill every search's candidates. The kept chunks are numbered 0..n-1 in their original order."""
        chunks, truncated = chunk_text(row.content or "", max_tokens=self.settings.chunk_tokens,
                                       overlap=self.settings.chunk_overlap,
                                       count_tokens=self.embedder.count_tokens,
                                       max_chunks=self.settings.max_chunks_per_row)
        seen: set[str] = set()
        texts = []
        for chunk in chunks:
            normalised = " ".join(chunk.text.split())
            if normalised not in seen:
                seen.add(normalised)
                texts.append(chunk.text)
        base = self.chunk_metadata(row, source, content_hash)
        ids, documents, to_embed, metadatas = [], [], [], []
        for number, text in enumerate(texts):
            ids.append(commit_id(row.key, content_hash, len(texts)) if number == 0 else chunk_id(row.key, number))
            documents.append(text)
            # Embed with the title: a short body alone can miss a question its title answers.
            to_embed.append(f"{row.title}\n{text}" if row.title else text)
            metadatas.append({**base, "chunk": number, "n_chunks": len(texts)})
        return ids, documents, to_embed, metadatas, truncated, len(chunks) - len(texts)

    # ---------------------------------------------------------------- sync

    def sync(self, source: TableSource, *, rebuild: bool = False,
             progress: Callable[[SyncProgress], None] | None = None) -> SyncReport:
        """Bring the collection in line with the table; see the module docstring for the protocol."""
        started = time.perf_counter()
        moved = self._move_aside_if_unreadable() if rebuild else None
        try:
            with self._lock(), self._chroma_errors():
                if rebuild:
                    self.drop()
                report = self._sync_locked(source, progress)
        except Timeout as error:
            raise IndexBusy("Another process is updating the index; try again when it has finished.") from error
        report.seconds = round(time.perf_counter() - started, 3)
        report.moved_aside = str(moved) if moved else None
        return report

    def _move_aside_if_unreadable(self) -> Path | None:
        """Before a rebuild: a local directory Chroma cannot open is moved aside (never deleted)."""
        if self.settings.chroma_host:
            return None
        try:
            self.client.list_collections()
            return None
        except (IndexMissing, ChromaError):
            pass
        path = Path(self.settings.index_dir)
        with self._client_lock:
            self._client = None
            SharedSystemClient._identifier_to_system.pop(str(path), None)
            return move_aside(path)

    def _sync_locked(self, source: TableSource, progress: Callable[[SyncProgress], None] | None) -> SyncReport:
        collection = self.collection(create=True)
        report = SyncReport(collection=self.name)
        damage = self.check_vectors(collection)
        if damage:  # the table is the source of truth: embed everything again into a fresh collection
            self.drop()
            collection = self.collection(create=True)
            report.repaired = f"the index was damaged ({damage}); it was rebuilt from the table"
        indexed = self.manifest(collection)
        recorded_roles = (collection.metadata or {}).get(STORED_ROLES_KEY)
        report.roles_changed = stored_roles_change(recorded_roles, source)
        total = source.count_rows()
        seen: set[str] = set()
        pending: list[tuple[SourceRow, str]] = []
        pending_chunks_estimate = 0
        committed: dict[str, tuple[str, int]] = dict(indexed)
        for row in source.iter_rows():
            report.rows += 1
            if progress and report.rows % 50 == 0:
                progress(SyncProgress(report.rows, total, "scanning"))
            if row.key in seen:
                report.skipped.append({"row_key": row.key, "reason": "duplicate row key (identical row)"})
                continue
            seen.add(row.key)
            for note in row.notes:
                report.notes.append({"row_key": row.key, "note": note})
            if not (row.content or "").strip():
                report.skipped.append({"row_key": row.key, "reason": "empty or NULL content"})
                if row.key in indexed:
                    self._delete_rows(collection, [row.key])
                    committed.pop(row.key, None)
                continue
            content_hash = self.content_hash(row)
            previous = indexed.get(row.key)
            if previous and previous[0] == content_hash and not report.roles_changed:
                report.unchanged += 1
                continue
            if previous:
                report.changed += 1
            else:
                report.new += 1
            pending.append((row, content_hash))
            pending_chunks_estimate += 1 + len(row.content or "") // (self.settings.chunk_tokens * 4)
            if pending_chunks_estimate >= self.settings.embed_batch_size * 4:
                self._write(collection, source, pending, report, committed)
                pending, pending_chunks_estimate = [], 0
                if progress:
                    progress(SyncProgress(report.rows, total, "embedding"))
        self._write(collection, source, pending, report, committed)
        gone = [key for key in indexed if key not in seen]
        self._delete_rows(collection, gone)
        report.deleted = len(gone)
        for key in gone:
            committed.pop(key, None)
        report.orphans_removed = self._remove_orphans(collection, committed)
        report.keyword_rows_copied = self._sync_keywords(collection, source, committed)
        changed = bool(report.new or report.changed or report.deleted or report.orphans_removed or report.repaired)
        report.background_sampled = self.background.refresh(
            collection, {key: [commit_id(key, content_hash, n) if number == 0 else chunk_id(key, number)
                               for number in range(n)] for key, (content_hash, n) in committed.items()},
            changed=changed)
        if recorded_roles != stored_roles(source):  # recorded last: an interrupted rewrite is redone
            collection.modify(metadata={**(collection.metadata or {}), STORED_ROLES_KEY: stored_roles(source)})
        if progress:
            progress(SyncProgress(total, total, "done"))
        return report

    def _write(self, collection: Any, source: TableSource, pending: list[tuple[SourceRow, str]],
               report: SyncReport, committed: dict[str, tuple[str, int]]) -> None:
        if not pending:
            return
        self._delete_rows(collection, [row.key for row, _ in pending])
        ids: list[str] = []
        documents: list[str] = []
        texts: list[str] = []
        metadatas: list[dict[str, Any]] = []
        keyword_rows: list[KeywordRow] = []
        for row, content_hash in pending:
            row_ids, row_docs, row_texts, row_meta, truncated, collapsed = self.chunks_for(row, source, content_hash)
            if truncated:
                report.notes.append({"row_key": row.key,
                                     "note": f"content truncated to {len(row_ids) + collapsed} chunks (row too large)"})
            if collapsed:
                report.notes.append({"row_key": row.key, "note": f"{collapsed} duplicate chunks collapsed"})
            ids += row_ids
            documents += row_docs
            texts += row_texts
            metadatas += row_meta
            committed[row.key] = (content_hash, len(row_ids))
            keyword_rows.append(KeywordRow(row.key, content_hash, [
                KeywordChunk(i, m["chunk"], row.title or "", d, m) for i, d, m in zip(row_ids, row_docs, row_meta,
                                                                                   strict=True)]))
        embed_started = time.perf_counter()
        embeddings = self.embedder.embed(texts)
        report.embed_seconds += time.perf_counter() - embed_started
        # Chunk 0 of each row last: it commits the row.
        order = sorted(range(len(ids)), key=lambda i: metadatas[i]["chunk"] == 0)
        for batch in _batches(order, self._max_batch()):
            collection.upsert(ids=[ids[i] for i in batch], documents=[documents[i] for i in batch],
                              embeddings=[embeddings[i] for i in batch], metadatas=[metadatas[i] for i in batch])
        self.keywords.write(keyword_rows)  # after Chroma: a crash in between is repaired by _sync_keywords
        report.chunks_added += len(ids)

    def _max_batch(self) -> int:
        try:
            return min(5000, int(self.client.get_max_batch_size()))
        except Exception:  # noqa: BLE001 - older servers lack the call
            return 1000

    def _delete_rows(self, collection: Any, keys: Sequence[str]) -> None:
        for batch in _batches(list(keys), DELETE_BATCH):
            collection.delete(where={"row_key": {"$in": list(batch)}})
            self.keywords.delete(batch)

    def _sync_keywords(self, collection: Any, source: TableSource, committed: dict[str, tuple[str, int]]) -> int:
        """Bring the keyword index in line with the committed rows of the collection: rows it holds that are
        gone are removed; rows it lacks or holds in another version (after a crash between the two writes, an
        index built before keyword search existed, or a Chroma server synced from another machine) are copied
        from Chroma's stored chunks, without embedding anything. Returns the number of rows copied."""
        self.keywords.create()
        held = self.keywords.manifest()
        self.keywords.delete([key for key in held if key not in committed])
        wanted = [key for key, version in committed.items() if held.get(key) != version]
        title_key = source.roles.title
        for batch in _batches(wanted, DELETE_BATCH):
            got = collection.get(where={"row_key": {"$in": list(batch)}}, include=["documents", "metadatas"])
            chunks: dict[str, list[KeywordChunk]] = {}
            for identifier, document, metadata in zip(got["ids"], got["documents"], got["metadatas"], strict=True):
                title = str(metadata.get(title_key, "")) if title_key else ""
                chunks.setdefault(str(metadata["row_key"]), []).append(
                    KeywordChunk(identifier, int(metadata["chunk"]), title, document or "", dict(metadata)))
            self.keywords.write([KeywordRow(key, committed[key][0], sorted(chunks[key], key=lambda c: c.number))
                                 for key in batch if len(chunks.get(key, [])) == committed[key][1]])
        return len(wanted)

    def _remove_orphans(self, collection: Any, committed: dict[str, tuple[str, int]]) -> int:
        """Remove chunks of uncommitted or vanished rows; only scans everything when counts disagree."""
        if collection.count() == sum(n for _, n in committed.values()):
            return 0
        valid = {commit_id(key, content_hash, n) for key, (content_hash, n) in committed.items()}
        valid |= {chunk_id(key, i) for key, (_, n) in committed.items() for i in range(1, n)}
        orphans = [i for batch in self._pages(collection, None, []) for i in batch["ids"] if i not in valid]
        for batch in _batches(orphans, DELETE_BATCH):
            collection.delete(ids=list(batch))
        return len(orphans)

    # ---------------------------------------------------------------- status

    def status(self, source: TableSource) -> IndexStatus:
        status = IndexStatus(collection=self.name, exists=False, embed_model=self.embedder.name)
        status.rows = source.count_rows()
        try:
            with self._chroma_errors():
                collection = self.collection()
                status.exists = True
                status.problem = self._file_problem()
                vectors = None if status.problem else self.check_vectors(collection)
                if vectors:
                    status.problem = damaged_message(vectors)
                indexed = self.manifest(collection)
                status.chunks = collection.count()
                status.stale_reason = stored_roles_change((collection.metadata or {}).get(STORED_ROLES_KEY), source)
        except IndexMissing as error:
            status.exists, status.problem, status.missing = False, str(error), status.rows
            return status
        status.keyword_chunks = self.keywords.count()
        if status.problem is None and self.keywords.manifest() != indexed:
            status.problem = (f"The keyword index ({self.keywords.path}) is missing or out of date "
                              f"({status.keyword_chunks:,} of {status.chunks:,} chunks). Run `python -m rag index` "
                              "or use 'Sync index' on the Data page (nothing is embedded again).")
        status.documents = len(indexed)
        seen: set[str] = set()
        for row in source.iter_rows():
            if not (row.content or "").strip() or row.key in seen:
                continue
            seen.add(row.key)
            previous = indexed.get(row.key)
            if previous is None:
                status.missing += 1
            elif previous[0] != self.content_hash(row) or status.stale_reason:
                status.stale += 1
        status.orphaned = sum(1 for key in indexed if key not in seen)
        return status


def unreachable_message(settings: Settings) -> str:
    return (f"The search server at {settings.chroma_host}:{settings.chroma_port} is unreachable, so semantic and "
            "hybrid questions cannot be answered now; SQL questions still work. Check that the Chroma server is "
            "running (settings CHROMA_HOST, CHROMA_PORT); answers resume as soon as it is back.")


def damaged_message(reason: str) -> str:
    return (f"The search index is damaged: {reason}. Run `python -m rag index` (it rebuilds a damaged index) or "
            "use 'Sync index' on the Data page. SQL questions still work meanwhile.")


def index_error(error: BaseException, settings: Settings) -> RagError | None:
    """The domain error for an exception raised by Chroma or its HTTP client; None for any other exception."""
    if isinstance(error, RagError):
        return error
    chain: list[BaseException] = []
    current: BaseException | None = error
    while current is not None and current not in chain and len(chain) < 20:
        chain.append(current)
        current = current.__cause__ or current.__context__
    if settings.chroma_host and any(isinstance(e, httpx.TransportError | ConnectionError) for e in chain):
        return IndexUnreachable(unreachable_message(settings))
    if any(isinstance(e, NotFoundError) for e in chain):
        return IndexMissing("The search index was removed or rebuilt while the app was running; ask again, and if "
                            f"this repeats, reload the app. {REBUILD_HINT}")
    if any(isinstance(e, ChromaError) for e in chain):
        return IndexMissing(f"The search index is damaged: Chroma failed while reading it ({_first_line(error)}). "
                            f"{REBUILD_HINT}")
    return None


def _first_line(error: BaseException) -> str:
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= 200 else text[:199] + "…"


def _batches(items: Sequence[Any], size: int) -> Iterable[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start:start + size]


def move_aside(path: Path) -> Path | None:
    """Move an unreadable local index directory aside so a rebuild can start clean; returns the new path."""
    if not path.exists():
        return None
    moved = path.with_name(f"{path.name}.corrupt-{datetime.now():%Y%m%d%H%M%S}")
    shutil.move(str(path), str(moved))
    return moved
