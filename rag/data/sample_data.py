"""Builds the sample SQLite database from the committed `data/articles.jsonl`.

From then on the product treats the database as a legacy table it does not own: this module and
`import_csv` are the only code that ever writes to a database, and only to a new file or table.
"""

from __future__ import annotations

import csv
import json
import re
import sqlite3
from pathlib import Path

import sqlalchemy as sa

from rag.errors import ConfigError

SAMPLE_COLUMNS = ("url", "title", "authors", "published_date", "article_category", "word_count", "full_content")
IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,62}$")


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


def import_csv(csv_path: Path, db_url: str, table: str) -> int:
    """Load a CSV into a NEW table (refuses to touch an existing one); every column is stored as TEXT
    except columns whose values are all integers."""
    if not IDENTIFIER.match(table):
        raise ConfigError(f"Table name {table!r} must be letters, digits and underscores.")
    with csv_path.open(newline="", encoding="utf-8-sig", errors="replace") as handle:
        reader = csv.DictReader(handle)
        if not reader.fieldnames:
            raise ConfigError(f"{csv_path} has no header row.")
        columns = [c.strip() for c in reader.fieldnames]
        bad = [c for c in columns if not IDENTIFIER.match(c)]
        if bad:
            raise ConfigError(f"Column names must be identifiers; rename: {', '.join(bad)}")
        rows = [[(row.get(original) or None) for original in reader.fieldnames] for row in reader]
    integer_columns = {
        i for i, _ in enumerate(columns)
        if all(v is None or re.fullmatch(r"-?(0|[1-9]\d{0,17})", v) for v in (r[i] for r in rows))
        and any(r[i] is not None for r in rows)
    }
    engine = sa.create_engine(db_url)
    metadata = sa.MetaData()
    new_table = sa.Table(table, metadata, *(
        sa.Column(name, sa.Integer if i in integer_columns else sa.Text) for i, name in enumerate(columns)))
    with engine.begin() as connection:
        if sa.inspect(connection).has_table(table):
            raise ConfigError(f"Table {table!r} already exists; import-csv only creates new tables.")
        metadata.create_all(connection)
        values = [{name: (int(r[i]) if i in integer_columns and r[i] is not None else r[i])
                   for i, name in enumerate(columns)} for r in rows]
        if values:
            connection.execute(new_table.insert(), values)
    engine.dispose()
    return len(rows)
