"""BM25 keyword search over the index's chunks: SQLite FTS5 in a side file of the index directory.

Dense vectors miss exact rare tokens (product names, version numbers, codes, surnames); BM25 finds them.
Chroma's local client refuses sparse vectors (docs/DESIGN.md), so the keyword index is the product's own
SQLite file next to Chroma's: `<RAG_INDEX_DIR>/<collection name>.keywords.sqlite3`. With a Chroma server
(`CHROMA_HOST`) the file still lives in `RAG_INDEX_DIR` on the app's machine; it is derived from the same
chunks and `rag index` brings it in line with the server's collection without embedding anything.

It holds exactly the chunks of the Chroma collection (same ids, texts, titles and metadata) and is written
by the same sync: a row's chunks and its manifest entry (`rows`: row key, content hash, chunk count) change
in one SQLite transaction, so a crash leaves each row either old or new, never half-written; the sync then
compares this manifest with Chroma's and copies whatever differs (see `VectorIndex._sync_keywords`).

Searches take the same pre-filters as Chroma, as a Chroma `where` dict (`$and`, `$or`, `$eq`, `$ne`, `$gt`,
`$gte`, `$lt`, `$lte`, `$in`, `$nin`, with Chroma's meaning: `$ne`/`$nin` also match chunks without the key),
plus an optional list of row keys (the hybrid route's SQL-selected rows).
"""

from __future__ import annotations

import contextlib
import json
import re
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FILE_SUFFIX = ".keywords.sqlite3"
SCHEMA_VERSION = "1"
TOKENIZER = "porter unicode61 remove_diacritics 2"  # English stems ("crashes" finds "crash"), accents folded
TITLE_WEIGHT = 1.0  # bm25() column weights: title, body
BODY_WEIGHT = 1.0
MAX_TERMS = 32  # query terms kept (a long question still gives a quick OR query)
CANDIDATE_FACTOR = 4  # best chunks fetched per wanted chunk (rows x per_row), again x4 when rows are missing
MAX_CANDIDATES = 20_000  # beyond this many chunks fetched, the rows found so far are the answer
SAFE_KEY = re.compile(r"^[^\"\\]{1,200}$")  # metadata keys usable in a JSON path
COMPARISONS = {"$eq": "=", "$gt": ">", "$gte": ">=", "$lt": "<", "$lte": "<="}

SCHEMA = f"""
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rows (row_key TEXT PRIMARY KEY, content_hash TEXT NOT NULL, n_chunks INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS chunks (
    id INTEGER PRIMARY KEY, chunk_id TEXT NOT NULL UNIQUE, row_key TEXT NOT NULL, chunk INTEGER NOT NULL,
    metadata TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS chunks_row_key ON chunks (row_key);
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5 (title, body, tokenize = '{TOKENIZER}');
"""


@dataclass
class KeywordChunk:
    id: str  # the Chroma id of the chunk
    number: int
    title: str
    text: str
    metadata: dict[str, Any]


@dataclass
class KeywordRow:
    """One row's chunks as the Chroma collection holds them, written (or replaced) as a unit."""

    row_key: str
    content_hash: str
    chunks: list[KeywordChunk]


@dataclass
class KeywordHit:
    id: str
    row_key: str
    chunk: int
    score: float  # BM25, higher is better (FTS5's bm25() negated)
    text: str
    title: str
    metadata: dict[str, Any]


def keyword_path(index_dir: str | Path, collection: str) -> Path:
    return Path(index_dir) / f"{collection}{FILE_SUFFIX}"


def match_expression(terms: Iterable[str]) -> str:
    """FTS5 query: any of the terms (each a quoted string, so FTS5 syntax in a question is just text)."""
    seen: list[str] = []
    for term in terms:
        cleaned = " ".join(str(term).split())
        if cleaned and cleaned.lower() not in (s.lower() for s in seen):
            seen.append(cleaned)
    return " OR ".join('"' + term.replace('"', '""') + '"' for term in seen[:MAX_TERMS])


class KeywordIndex:
    """The FTS5 side file of one collection."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def exists(self) -> bool:
        return self.path.exists()

    @contextlib.contextmanager
    def _connect(self, create: bool = False) -> Iterator[sqlite3.Connection]:
        if not create and not self.path.exists():
            raise FileNotFoundError(self.path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(self.path, timeout=10)
        try:
            if create:
                connection.execute("PRAGMA journal_mode=WAL")  # searches read while a sync writes
                connection.executescript(SCHEMA)
                connection.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
                connection.commit()
            yield connection
        finally:
            connection.close()

    # ---------------------------------------------------------------- writing (the sync's side)

    def create(self) -> None:
        with self._connect(create=True):
            pass

    def drop(self) -> None:
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                Path(f"{self.path}{suffix}").unlink()

    def write(self, rows: Sequence[KeywordRow]) -> None:
        """Replace the chunks of each row, and its manifest entry, in one transaction."""
        if not rows:
            return
        with self._connect(create=True) as connection, connection:
            self._delete(connection, [row.row_key for row in rows])
            for row in rows:
                for chunk in row.chunks:
                    cursor = connection.execute(
                        "INSERT INTO chunks (chunk_id, row_key, chunk, metadata) VALUES (?, ?, ?, ?)",
                        (chunk.id, row.row_key, chunk.number, json.dumps(chunk.metadata, default=str)))
                    connection.execute("INSERT INTO fts (rowid, title, body) VALUES (?, ?, ?)",
                                       (cursor.lastrowid, chunk.title, chunk.text))
                connection.execute("INSERT INTO rows VALUES (?, ?, ?)",
                                   (row.row_key, row.content_hash, len(row.chunks)))

    def delete(self, row_keys: Sequence[str]) -> None:
        if not row_keys or not self.path.exists():
            return
        with self._connect(create=True) as connection, connection:
            self._delete(connection, row_keys)

    @staticmethod
    def _delete(connection: sqlite3.Connection, row_keys: Sequence[str]) -> None:
        keys = json.dumps(list(row_keys))
        selected = "SELECT id FROM chunks WHERE row_key IN (SELECT value FROM json_each(?))"
        connection.execute(f"DELETE FROM fts WHERE rowid IN ({selected})", (keys,))
        connection.execute("DELETE FROM chunks WHERE row_key IN (SELECT value FROM json_each(?))", (keys,))
        connection.execute("DELETE FROM rows WHERE row_key IN (SELECT value FROM json_each(?))", (keys,))

    # ---------------------------------------------------------------- reading

    def manifest(self) -> dict[str, tuple[str, int]]:
        """row_key -> (content_hash, n_chunks) of the rows written; {} when the file does not exist."""
        if not self.path.exists():
            return {}
        with self._connect(create=True) as connection:
            return {key: (content_hash, n) for key, content_hash, n in
                    connection.execute("SELECT row_key, content_hash, n_chunks FROM rows")}

    def count(self) -> int:
        """Chunks held (0 when the file does not exist)."""
        if not self.path.exists():
            return 0
        with self._connect(create=True) as connection:
            return int(connection.execute("SELECT count(*) FROM chunks").fetchone()[0])

    def texts(self) -> Iterator[tuple[str, str]]:
        """(row key, text) of every chunk, a row's chunks in order; nothing when the file does not exist."""
        if not self.path.exists():
            return
        with self._connect() as connection:
            yield from connection.execute(
                "SELECT chunks.row_key, fts.body FROM chunks JOIN fts ON fts.rowid = chunks.id "
                "ORDER BY chunks.row_key, chunks.chunk")

    def mentions(self, word: str) -> bool | None:
        """Whether some chunk's title or text contains `word` as the SQL text match reads it (a case-insensitive
        substring, looked for among the chunks holding a word that starts with its stem, "crypto" in
        "cryptocurrency"); None when there is no keyword index to ask."""
        cleaned = " ".join(word.split())
        if not cleaned or not self.path.exists():
            return None
        expression = '"' + cleaned.replace('"', '""') + '" *'
        pattern = "%" + word.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        try:
            with self._connect() as connection:
                found = connection.execute(
                    "SELECT 1 FROM fts WHERE fts MATCH ? AND (lower(title) LIKE ? ESCAPE '\\' "
                    "OR lower(body) LIKE ? ESCAPE '\\') LIMIT 1", (expression, pattern, pattern)).fetchone()
        except sqlite3.Error:
            return None
        return found is not None

    def search(self, terms: Sequence[str], *, rows: int, per_row: int = 3, where: dict[str, Any] | None = None,
               row_keys: Sequence[str] | None = None) -> list[KeywordHit]:
        """The best `per_row` chunks of each of the `rows` best-matching rows (a row ranks by its best chunk),
        best first; only chunks passing `where` and, when given, belonging to `row_keys`.

        FTS5 scores every matching chunk, and SQLite keeps only the best few while it sorts: candidates are
        fetched `rows x per_row x CANDIDATE_FACTOR` at a time (more only when a few rows hold them all), and only
        the kept chunks' texts are read. Raises FileNotFoundError when the file does not exist."""
        expression = match_expression(terms)
        if not expression or rows < 1 or row_keys is not None and not row_keys:
            if not self.path.exists():
                raise FileNotFoundError(self.path)
            return []
        clauses = ["fts MATCH ?"]
        params: list[Any] = [expression]
        with self._connect() as connection:
            if row_keys is not None:
                # A temporary table: an `IN (json_each)` list here would make FTS5 run the match once per row.
                connection.execute("CREATE TEMP TABLE wanted (row_key TEXT PRIMARY KEY)")
                connection.executemany("INSERT OR IGNORE INTO temp.wanted VALUES (?)", ((k,) for k in row_keys))
                clauses.append("c.row_key IN (SELECT row_key FROM temp.wanted)")
            if where:
                sql, values = where_sql(where)
                clauses.append(sql)
                params += values
            query = (f"SELECT c.id, c.row_key, bm25(fts, {TITLE_WEIGHT}, {BODY_WEIGHT}) AS score FROM fts "
                     f"JOIN chunks AS c ON c.id = fts.rowid WHERE {' AND '.join(clauses)} ORDER BY score LIMIT ?")
            limit = rows * per_row * CANDIDATE_FACTOR
            while True:
                found = connection.execute(query, [*params, limit]).fetchall()
                kept: dict[str, list[tuple[int, float]]] = {}
                for identifier, row_key, score in found:
                    chosen = kept.setdefault(row_key, []) if row_key in kept or len(kept) < rows else None
                    if chosen is not None and len(chosen) < per_row:
                        chosen.append((identifier, -score))
                if len(kept) >= rows or len(found) < limit or limit >= MAX_CANDIDATES:
                    break
                limit *= CANDIDATE_FACTOR
            ids = [identifier for chunks in kept.values() for identifier, _ in chunks]
            texts = {identifier: rest for identifier, *rest in connection.execute(
                "SELECT c.id, c.chunk_id, c.chunk, c.metadata, f.title, f.body FROM chunks AS c "
                "JOIN fts AS f ON f.rowid = c.id WHERE c.id IN (SELECT value FROM json_each(?))", (json.dumps(ids),))}
        hits = []
        for row_key, chunks in kept.items():
            for identifier, score in chunks:
                chunk_id, number, metadata, title, body = texts[identifier]
                hits.append(KeywordHit(chunk_id, row_key, int(number), round(score, 4), body, title,
                                       json.loads(metadata)))
        return hits


def where_sql(where: dict[str, Any]) -> tuple[str, list[Any]]:
    """A Chroma `where` dict as an SQL condition over the chunk's metadata JSON (same meaning as Chroma)."""
    if not isinstance(where, dict) or not where:
        raise ValueError(f"unsupported filter {where!r}")
    if len(where) > 1:
        return where_sql({"$and": [{key: value} for key, value in where.items()]})
    key, value = next(iter(where.items()))
    if key in ("$and", "$or"):
        if not isinstance(value, list) or not value:
            raise ValueError(f"{key} needs a non-empty list")
        parts = [where_sql(part) for part in value]
        joiner = " AND " if key == "$and" else " OR "
        return "(" + joiner.join(sql for sql, _ in parts) + ")", [v for _, values in parts for v in values]
    if not SAFE_KEY.match(key) or key.startswith("$"):
        raise ValueError(f"unsupported metadata key {key!r}")
    operator, operand = next(iter(value.items())) if isinstance(value, dict) and len(value) == 1 else ("$eq", value)
    column = "json_extract(c.metadata, ?)"
    path = f'$."{key}"'
    if operator in COMPARISONS:
        return f"{column} {COMPARISONS[operator]} ?", [path, _sql_value(operand)]
    if operator == "$ne":
        return f"({column} IS NULL OR {column} != ?)", [path, path, _sql_value(operand)]
    if operator in ("$in", "$nin"):
        if not isinstance(operand, list | tuple):
            raise ValueError(f"{operator} needs a list")
        values = json.dumps([_sql_value(v) for v in operand])
        if operator == "$in":
            return f"{column} IN (SELECT value FROM json_each(?))", [path, values]
        return f"({column} IS NULL OR {column} NOT IN (SELECT value FROM json_each(?)))", [path, path, values]
    raise ValueError(f"unsupported filter operator {operator!r}")


def _sql_value(value: Any) -> Any:
    if isinstance(value, bool):
        return int(value)  # JSON true reads back as 1
    if isinstance(value, str | int | float):
        return value
    raise ValueError(f"unsupported filter value {value!r}")
