"""Builds the sample SQLite database from the committed `data/articles.jsonl`.

From then on the product treats the database as a legacy table it does not own: this module and
`import_csv` are the only code that ever writes to a database, and only to a new file or table.
"""

from __future__ import annotations

import csv
import json
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path

import sqlalchemy as sa

from rag.data.source import driver_url
from rag.errors import ConfigError, DatabaseUnavailable
from rag.settings import mask_url

SAMPLE_COLUMNS = ("url", "title", "authors", "published_date", "article_category", "word_count", "full_content")
IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,62}$")
# Characters per CSV field (Python's csv module stops at 131,072): room for a long report or contract,
# still a bound on what one malformed quote can swallow.
CSV_FIELD_LIMIT = 64 * 1024 * 1024
SNIFF_CHARS = 64 * 1024  # characters csv.Sniffer reads to detect the delimiter
DELIMITERS = ",;\t|"


def word_count(text: str | None) -> int:
    return len((text or "").split())


def build_sample_db(jsonl_path: Path, db_path: Path) -> int:
    """Create `db_path` with table `articles` from the JSON lines; replaces an existing file atomically."""
    records = [json.loads(line) for line in jsonl_path.read_text(encoding="utf-8").splitlines() if line.strip()]
    tmp_path = db_path.with_suffix(".db.tmp")
    tmp_path.unlink(missing_ok=True)
    with sqlite3.connect(tmp_path) as connection:
        connection.execute(
            "CREATE TABLE articles (url TEXT, title TEXT, authors TEXT, published_date TEXT, "
            "article_category TEXT, word_count INTEGER, full_content TEXT)"
        )
        connection.executemany(
            "INSERT INTO articles VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(r["url"], r["title"], r["authors"], r["published_date"], r["article_category"],
              word_count(r["full_content"]), r["full_content"]) for r in records],
        )
    connection.close()
    tmp_path.replace(db_path)
    return len(records)


def import_csv(csv_path: Path, db_url: str, table: str, say: Callable[[str], None] = lambda _: None) -> int:
    """Load a CSV into a NEW table (refuses to touch an existing one); every column is stored as TEXT
    except columns whose values are all integers.

    The delimiter (comma, semicolon, tab or bar) is detected; fields may hold up to CSV_FIELD_LIMIT
    characters. A SQLite destination in a folder that does not exist gets the folder, and `say` reports it:
    the command exists to create a new database, and a mistyped path is visible in that line."""
    if not IDENTIFIER.match(table):
        raise ConfigError(f"Table name {table!r} must be letters, digits and underscores.")
    url = driver_url(db_url)
    previous_limit = csv.field_size_limit(CSV_FIELD_LIMIT)
    try:
        with csv_path.open(newline="", encoding="utf-8-sig", errors="replace") as handle:
            delimiter = sniff_delimiter(handle.read(SNIFF_CHARS))
            handle.seek(0)
            reader = csv.DictReader(handle, delimiter=delimiter)
            if not reader.fieldnames:
                raise ConfigError(f"{csv_path} has no header row.")
            columns = [c.strip() for c in reader.fieldnames]
            bad = [c for c in columns if not IDENTIFIER.match(c)]
            if bad:
                raise ConfigError(f"Column names must be identifiers; rename: {', '.join(bad)}")
            rows = []
            for row in reader:
                if None in row:  # more fields than the header names: never drop data silently
                    raise ConfigError(f"Line {reader.line_num} of {csv_path} has {len(columns) + len(row[None])} "
                                      f"fields; the header names {len(columns)}. Quote fields that hold the "
                                      f"delimiter {delimiter!r}.")
                rows.append([(row.get(original) or None) for original in reader.fieldnames])
    except csv.Error as error:
        raise ConfigError(f"{csv_path} could not be read as CSV: {error}.") from error
    finally:
        csv.field_size_limit(previous_limit)
    integer_columns = {
        i for i, _ in enumerate(columns)
        if all(v is None or re.fullmatch(r"-?(0|[1-9]\d{0,17})", v) for v in (r[i] for r in rows))
        and any(r[i] is not None for r in rows)
    }
    _create_sqlite_folder(url, say)
    integer = sa.Integer().with_variant(sa.BigInteger(), "postgresql")  # up to 18 digits: PostgreSQL's int is 32-bit
    engine = sa.create_engine(url)
    metadata = sa.MetaData()
    new_table = sa.Table(table, metadata, *(
        sa.Column(name, integer if i in integer_columns else sa.Text) for i, name in enumerate(columns)))
    try:
        with engine.begin() as connection:
            if sa.inspect(connection).has_table(table):
                raise ConfigError(f"Table {table!r} already exists; import-csv only creates new tables.")
            metadata.create_all(connection)
            values = [{name: (int(r[i]) if i in integer_columns and r[i] is not None else r[i])
                       for i, name in enumerate(columns)} for r in rows]
            if values:
                connection.execute(new_table.insert(), values)
    except sa.exc.DBAPIError as error:
        raise DatabaseUnavailable(f"Cannot write table {table!r} into {mask_url(db_url)}: "
                                  f"{' '.join(str(error.orig).split())}") from error
    finally:
        engine.dispose()
    return len(rows)


def sniff_delimiter(sample: str) -> str:
    """The delimiter of a CSV sample: csv.Sniffer's choice among , ; TAB |, if the header line holds it; else
    the candidate the header line holds most often; else a comma."""
    header = sample.splitlines()[0] if sample else ""
    try:
        found = csv.Sniffer().sniff(sample, delimiters=DELIMITERS).delimiter
    except csv.Error:
        found = ""
    if found and found in header:
        return found
    counts = {candidate: header.count(candidate) for candidate in DELIMITERS}
    best = max(counts, key=lambda candidate: counts[candidate])
    return best if counts[best] else ","


def _create_sqlite_folder(url: sa.URL, say: Callable[[str], None]) -> None:
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return
    folder = Path(url.database.removeprefix("file:").split("?")[0]).parent
    if folder.is_dir():
        return
    try:
        folder.mkdir(parents=True)
    except OSError as error:
        raise ConfigError(f"Cannot create the folder {folder} for the database: {error.strerror or error}.") from error
    say(f"created folder {folder}")
