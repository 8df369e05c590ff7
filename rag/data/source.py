"""The source table: a read-only connection, reflection, column roles, row keys and guarded execution.

The product never owns this table. Every connection is read-only underneath (SQLite `mode=ro`,
PostgreSQL `default_transaction_read_only`), so even a statement that slipped past the SQL guard
could not write. Column roles (title, content, date, ...) are detected from names, types and a
sample of values, with overrides from settings, so another table works without code changes.

Long because reflection, the profile of values, row keys and guarded execution share the one read-only
connection (role detection itself lives in rag/data/roles.py).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import sqlite3
import time
import urllib.parse
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine, make_url

from rag.data.epoch import UNIT_NAMES, epoch_to_text
from rag.data.labels import column_labels
from rag.data.roles import ID_NAME, ColumnRoles, detect_roles, merge_overrides
from rag.errors import ConfigError, DatabaseUnavailable, QueryFailed
from rag.models import QueryResult
from rag.settings import Settings

ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}")
AUTHOR_SPLIT = re.compile(r"\s*[;|]\s*|\s*,\s*|\s+and\s+")
SAMPLE_ROWS = 200
# SQLAlchemy's dialect names -> sqlglot's, where they differ.
SQLGLOT_DIALECTS = {"postgresql": "postgres", "mssql": "tsql"}


def sqlglot_dialect(name: str) -> str:
    """The sqlglot name of a SQLAlchemy dialect ("postgresql" -> "postgres")."""
    return SQLGLOT_DIALECTS.get(name, name)


@dataclass(frozen=True)
class ColumnInfo:
    name: str
    type: str  # "text" | "integer" | "float" | "date" | "other"
    nullable: bool = True


@dataclass
class TableProfile:
    """What the offline engine and the SQL prompt need to know about the table's values."""

    row_count: int
    categories: dict[str, int] = field(default_factory=dict)  # values of the main category column
    authors: dict[str, int] = field(default_factory=dict)
    values: dict[str, dict[str, int]] = field(default_factory=dict)  # every categorical column -> value counts
    date_min: str | None = None
    date_max: str | None = None
    numeric_ranges: dict[str, tuple[float, float]] = field(default_factory=dict)
    # the column rows are named by (the id, or else a title whose values are all codes of one shape: contract_ref
    # 'CT-2021-0042'), its values as a regex every sampled value matches ("R-\d{6}", "\d{1,2}"); `id_is_number`:
    # it is an integer column (a bare number is then an id only after a row noun or '#': "ticket 17", "#17")
    id_column: str | None = None
    id_shape: str | None = None
    id_is_number: bool = False


@dataclass
class SourceRow:
    """One row as the indexer sees it: decoded, cleaned text plus flat metadata."""

    key: str
    title: str
    content: str | None
    metadata: dict[str, Any]
    notes: list[str] = field(default_factory=list)


# A plain postgresql:// URL makes SQLAlchemy import psycopg (3); the `postgres` extra installs psycopg2.
POSTGRES_DRIVERS = {"psycopg2": "postgresql+psycopg2", "psycopg": "postgresql+psycopg"}
POSTGRES_HINT = "PostgreSQL needs a driver: install it with `pip install '.[postgres]'` (psycopg2-binary)."


def driver_url(url: str | sa.URL) -> sa.URL:
    """The URL with a driver that is installed: a plain `postgresql://` (or `postgres://`) gets psycopg2, else
    psycopg 3; a driver that is not installed is a one-line ConfigError saying what to install."""
    parsed = make_url(url)
    if parsed.drivername in ("postgres", "postgresql"):
        installed = next((module for module in POSTGRES_DRIVERS if _importable(module)), None)
        if installed is None:
            raise ConfigError(POSTGRES_HINT)
        return parsed.set(drivername=POSTGRES_DRIVERS[installed])
    try:
        parsed.get_dialect().import_dbapi()
    except ImportError as error:
        hint = POSTGRES_HINT if parsed.get_backend_name() == "postgresql" else "Install it with pip."
        raise ConfigError(f"The database driver for {parsed.drivername} is not installed "
                          f"({error.name or error}). {hint}") from error
    except sa.exc.NoSuchModuleError as error:
        raise ConfigError(f"Unknown database type {parsed.drivername!r} in the database URL.") from error
    return parsed


def _importable(module: str) -> bool:
    try:
        __import__(module)
    except ImportError:
        return False
    return True


def readonly_url(url: str) -> sa.URL:
    """Turn a user's database URL into one whose connection cannot write (and whose driver is installed)."""
    parsed = driver_url(url)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database or ""
        if database in ("", ":memory:"):
            raise ConfigError("an in-memory SQLite database has no table to read; give a file path")
        path = database.removeprefix("file:").split("?")[0]
        if not Path(path).exists():
            raise DatabaseUnavailable(f"The database file {path} does not exist. Run `make data` to build the sample.")
        # Percent-encode the path: a '#' or '?' in a file name must not end the URI and drop mode=ro.
        encoded = urllib.parse.quote(str(Path(path).resolve()))
        return parsed.set(database=f"file:{encoded}", query={"mode": "ro", "uri": "true"})
    return parsed


class PercentileCont:
    """percentile_cont(Y, P) for SQLite, as its percentile extension defines it (built into the CLI from 3.47,
    absent from Python's SQLite): the P-th percentile (P from 0 to 1) of the numbers among Y, interpolated
    between the two nearest values; NULL when there are none. A median is percentile_cont(Y, 0.5)."""

    def __init__(self) -> None:
        self.values: list[float] = []
        self.fraction = 0.5

    def step(self, value: Any, fraction: float) -> None:
        self.fraction = min(max(float(fraction), 0.0), 1.0)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            self.values.append(float(value))

    def finalize(self) -> float | None:
        if not self.values:
            return None
        values = sorted(self.values)
        at = (len(values) - 1) * self.fraction
        low = int(at)
        high = min(low + 1, len(values) - 1)
        return values[low] + (values[high] - values[low]) * (at - low)


def create_readonly_engine(url: str, timeout_s: float = 5.0) -> Engine:
    """A SQLAlchemy engine whose every connection is read-only and decodes bad UTF-8 with replacement."""
    ro_url = readonly_url(url)
    backend = ro_url.get_backend_name()
    if backend == "sqlite":
        engine = sa.create_engine(ro_url, connect_args={"timeout": timeout_s, "check_same_thread": False})

        @sa.event.listens_for(engine, "connect")
        def _configure(dbapi_connection: sqlite3.Connection, _record: Any) -> None:
            dbapi_connection.text_factory = lambda raw: raw.decode("utf-8", errors="replace")
            dbapi_connection.create_aggregate("percentile_cont", 2, PercentileCont)  # (a median)

        @sa.event.listens_for(engine, "checkout")
        def _read_only(dbapi_connection: sqlite3.Connection, _record: Any, _proxy: Any) -> None:
            dbapi_connection.execute("PRAGMA query_only = ON")  # again on every checkout, on top of mode=ro

        return engine
    if backend == "postgresql":
        # jit=off: LLVM compilation of an expensive plan (seconds when libLLVM is first loaded) runs before the
        # executor and cannot be cancelled, so statement_timeout would not bound the query.
        options = f"-c default_transaction_read_only=on -c statement_timeout={int(timeout_s * 1000)} -c jit=off"
        return sa.create_engine(ro_url, connect_args={"options": options}, pool_pre_ping=True)
    # Other backends: read-only is the database user's job; the guard still allows only SELECT.
    return sa.create_engine(ro_url, pool_pre_ping=True)


# The largest string or BLOB one SQLite statement may build or read (SQLite's default is 1 GB): a query such
# as printf('%.*c', 1000000000, 'x') or a group_concat over a self-join fails at once with "string or blob too
# big" instead of filling memory inside one opcode, where the progress handler cannot stop it.
SQLITE_MAX_VALUE_BYTES = 32 * 1024 * 1024
# Character types whose cells could be large: every other PostgreSQL result type has a bounded size
# (numbers, booleans, dates and times); see pg_type.
_PG_BOUNDED_TYPES = frozenset({16, 20, 21, 23, 26, 700, 701, 1082, 1083, 1114, 1184, 1186, 1266, 1700})


def limit_value_sizes(engine: Engine) -> None:
    """Caps the size of any value a statement builds, on every connection the engine opens (SQLite:
    SQLITE_LIMIT_LENGTH; PostgreSQL cells are cut on the server by `capped_cells_sql` instead)."""
    if engine.dialect.name == "sqlite":

        @sa.event.listens_for(engine, "connect")
        def _limit_length(dbapi_connection: sqlite3.Connection, _record: Any) -> None:
            dbapi_connection.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, SQLITE_MAX_VALUE_BYTES)


def capped_cells_sql(connection: sa.Connection, sql: str, max_chars: int) -> str:
    """PostgreSQL: `sql` wrapped so every cell of unbounded size (text and anything not a number, boolean
    or date) leaves the server cut to max_chars + 1 characters; the caller marks the cut with '…'.

    The column types come from running the statement with LIMIT 0; columns are renamed by position, so
    duplicate or odd output names survive, and each keeps its name in the result."""
    probe = connection.exec_driver_sql(f"SELECT * FROM ({sql}) AS q LIMIT 0")
    description = probe.cursor.description
    probe.close()
    outputs = []
    for position, column in enumerate(description, start=1):
        name = '"' + str(column[0]).replace('"', '""') + '"'
        value = f"c{position}" if column[1] in _PG_BOUNDED_TYPES else f"left(c{position}::text, {max_chars + 1})"
        outputs.append(f"{value} AS {name}")
    aliases = ", ".join(f"c{position}" for position in range(1, len(description) + 1))
    return f"SELECT {', '.join(outputs)} FROM ({sql}) AS q({aliases})"


ID_SAMPLE = 500  # row ids read to learn their shape


def id_shape(values: list[Any], *, integers: bool) -> str | None:
    """A regex every value matches, made of the values' letters and punctuation with their digit runs as \\d{n}
    ("R-035871" -> R\\-\\d{6}); for integers, up to as many digits as the longest. None when the values do not
    share one shape, or have no digit (words are not ids)."""
    if not values:
        return None
    if integers:
        return rf"\d{{1,{max(len(str(abs(int(v)))) for v in values)}}}"
    shapes = {re.sub(r"\d+", lambda m: rf"\d{{{len(m.group())}}}", re.escape(str(v))) for v in values}
    if len(shapes) > 1:  # ids of different lengths
        shapes = {re.sub(r"\\d\{\d+\}", r"\\d+", shape) for shape in shapes}
    shape = shapes.pop() if len(shapes) == 1 else None
    return shape if shape and r"\d" in shape and re.search(r"[A-Za-z]", re.sub(r"\\.", "", shape)) else None


def _column_type(sa_type: Any) -> str:
    if isinstance(sa_type, sa.Integer):
        return "integer"
    if isinstance(sa_type, sa.Float | sa.Numeric):
        return "float"
    if isinstance(sa_type, sa.Date | sa.DateTime):
        return "date"
    if isinstance(sa_type, sa.String | sa.Text | sa.Unicode):
        return "text"
    return "other"


def clean_text(value: Any) -> str | None:
    """Decode bytes with replacement and strip NUL bytes; None stays None."""
    if value is None:
        return None
    if isinstance(value, bytes | bytearray | memoryview):
        value = bytes(value).decode("utf-8", errors="replace")
    return str(value).replace("\x00", "")


def plain_value(value: Any) -> Any:
    """A DB value as a JSON-friendly scalar."""
    if isinstance(value, datetime):
        return value.isoformat(sep=" ", timespec="seconds")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, bytes | bytearray | memoryview):
        return clean_text(value)
    return value


# A float's last digits after a run of six zeros or nines: what subtracting two large sums leaves behind
# (5293781.17 - 5222128.5 = 71652.6700000009), beyond what the 15 significant digits of each operand hold.
_CANCELLATION_NOISE = re.compile(r"\.(\d*?)(?:0{6,}|9{6,})\d{1,3}$")


def without_float_noise(value: Any) -> Any:
    """A float as its 15 significant digits, the precision a double holds exactly: a sum of prices shows 234420.32,
    not 234420.31999999998 (binary rounding); a difference of two large sums shows 71652.67, not 71652.6700000009
    (cancellation: the run of zeros or nines before the last digits ends the number). Other values unchanged.
    Only for results shown, never for hashing."""
    if isinstance(value, float) and math.isfinite(value):
        shown = f"{value:.15g}"
        noise = _CANCELLATION_NOISE.search(shown) if "e" not in shown else None
        return round(value, len(noise.group(1))) if noise else float(shown)
    return value


# What a value may not carry into a prompt: line breaks and control characters (a value could start a line
# that reads like a rule), and '<' opening a tag (a value could close the <schema> block or open a <question>).
_PROMPT_BREAKS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")
_PROMPT_TAG = re.compile(r"<(?=\s*/?\s*[A-Za-z!?])")
PROMPT_VALUE_CHARS = 80


def prompt_value(value: Any, *, quote: bool = True) -> str:
    """A value from the table, neutralised for a prompt like retrieved text is: one line, at most
    PROMPT_VALUE_CHARS characters, no tag, and (by default) a SQL string literal the model can copy."""
    text = _PROMPT_BREAKS.sub(" ", str(clean_text(value) or "")).strip()
    text = _PROMPT_TAG.sub("&lt;", text)
    if len(text) > PROMPT_VALUE_CHARS:
        text = text[: PROMPT_VALUE_CHARS - 1] + "…"
    return "'" + text.replace("'", "''") + "'" if quote else text


def split_authors(value: str | None) -> list[str]:
    if not value:
        return []
    return [name for name in (part.strip() for part in AUTHOR_SPLIT.split(value)) if name]


class TableSource:
    """Read-only access to one table, with its detected column roles and value profile."""

    @classmethod
    def from_settings(cls, settings: Settings, saved_roles: dict[str, str] | None = None) -> TableSource:
        """The configured table, opened read-only with the configured limits, with the column roles saved for
        it (`role_store`; `saved_roles` instead when given) under the RAG_COLUMN_ROLES overrides."""
        from rag.data.role_store import load_labels, load_roles, roles_path

        saved = load_roles(settings) if saved_roles is None else saved_roles
        try:
            return cls(settings.db_url, settings.table, role_overrides=settings.role_overrides(),
                       saved_roles=saved, timeout_s=settings.sql_timeout_s, max_rows=settings.max_rows,
                       max_cell_chars=settings.max_cell_chars, saved_labels=load_labels(settings))
        except ConfigError as error:
            if not saved:
                raise
            raise ConfigError(f"{error} (with the column roles saved in {roles_path(settings)}: change them with "
                              "`python -m rag roles --set ROLE=COLUMN`, or `--reset`)") from error

    def __init__(self, db_url: str, table: str, *, role_overrides: dict[str, str] | None = None,
                 saved_roles: dict[str, str] | None = None,
                 timeout_s: float = 5.0, max_rows: int = 1000, max_cell_chars: int = 500,
                 saved_labels: dict[str, str] | None = None) -> None:
        self.db_url = db_url
        self.table = table
        self.timeout_s = timeout_s
        self.max_rows = max_rows
        self.max_cell_chars = max_cell_chars
        self.engine = create_readonly_engine(db_url, timeout_s)
        limit_value_sizes(self.engine)
        self.dialect = self.engine.dialect.name
        self.columns, primary_key = self._reflect()
        explicit = role_overrides or {}
        # Saved choices (column -> choice) for columns still in the table; explicit overrides win over them.
        self.saved_roles = {c: choice for c, choice in (saved_roles or {}).items() if c in self.columns}
        self.ignored_roles = sorted(set(saved_roles or {}) - set(self.saved_roles))  # saved, column gone
        self.role_set_by = {column: "saved" for column, choice in self.saved_roles.items()
                            if column not in explicit.values() and choice not in explicit}
        self.role_set_by.update({column: "RAG_COLUMN_ROLES" for column in explicit.values()})
        try:
            overrides = merge_overrides(self.saved_roles, explicit)
        except ConfigError as error:
            raise ConfigError(f"Table {self.table!r}: {error}") from error
        self.roles = self._detect_roles(overrides, primary_key)
        # What answers, readings and charts call each column (rag.data.labels): saved, else from its name.
        self.labels = column_labels(self.columns, table, saved_labels)
        self.key_columns = self._choose_key_columns(primary_key)
        self._profile: TableProfile | None = None

    # ---------------------------------------------------------------- reflection and roles

    def _reflect(self) -> tuple[dict[str, ColumnInfo], list[str]]:
        try:
            inspector = sa.inspect(self.engine)
            if not inspector.has_table(self.table):
                names = ", ".join(inspector.get_table_names()) or "none"
                raise ConfigError(f"Table {self.table!r} not found (tables: {names}).")
            columns = {
                c["name"]: ColumnInfo(c["name"], _column_type(c["type"]), bool(c.get("nullable", True)))
                for c in inspector.get_columns(self.table)
            }
            primary_key = list(inspector.get_pk_constraint(self.table).get("constrained_columns") or [])
        except sa.exc.OperationalError as error:
            raise DatabaseUnavailable(f"Cannot read the database: {error.orig}") from error
        return columns, primary_key

    def _sample(self) -> list[dict[str, Any]]:
        table = sa.table(self.table, *(sa.column(c) for c in self.columns))
        with self.connect() as connection:
            return [dict(r._mapping) for r in connection.execute(sa.select(table).limit(SAMPLE_ROWS))]

    def _detect_roles(self, overrides: dict[str, Any], primary_key: list[str]) -> ColumnRoles:
        try:
            return detect_roles(self.columns, self._sample(), overrides, primary_key, self._distinct_count)
        except ConfigError as error:
            raise ConfigError(f"Table {self.table!r}: {error}") from error

    def _distinct_count(self, column: str) -> int:
        col = sa.column(column)
        query = sa.select(sa.func.count(sa.distinct(col))).select_from(sa.table(self.table, col))
        with self.connect() as connection:
            return int(connection.execute(query).scalar() or 0)

    def _choose_key_columns(self, primary_key: list[str]) -> list[str]:
        """A stable row key: primary key, else a unique url/id-like column, else the whole row's hash."""
        if primary_key:
            return primary_key
        candidates = [c for c in (self.roles.id, self.roles.url) if c]
        candidates += [c for c in self.columns if ID_NAME.fullmatch(c.lower())]
        for column in candidates:
            if self._is_unique(column):
                return [column]
        return []  # hash of all columns

    def _is_unique(self, column: str) -> bool:
        col = sa.column(column)
        query = sa.select(sa.func.count(), sa.func.count(sa.distinct(col))).select_from(sa.table(self.table, col))
        with self.connect() as connection:
            total, distinct = connection.execute(query).one()
        return total > 0 and total == distinct

    # ---------------------------------------------------------------- connections

    def connect(self) -> sa.Connection:
        try:
            return self.engine.connect()
        except sa.exc.OperationalError as error:
            raise DatabaseUnavailable(f"Cannot open the database: {error.orig}") from error

    def close(self) -> None:
        self.engine.dispose()

    # ---------------------------------------------------------------- rows for the indexer

    def key_of(self, row: dict[str, Any]) -> str:
        if self.key_columns:
            return "|".join(str(plain_value(row[c])) for c in self.key_columns)
        payload = json.dumps([plain_value(row[c]) for c in self.columns], default=str, ensure_ascii=False)
        return hashlib.sha1(payload.encode("utf-8", errors="replace")).hexdigest()[:20]

    def count_rows(self) -> int:
        with self.connect() as connection:
            return int(connection.execute(
                sa.select(sa.func.count()).select_from(sa.table(self.table))).scalar_one())

    def iter_rows(self, batch_size: int = 500) -> Iterator[SourceRow]:
        """Stream every row as a SourceRow; never loads the table into memory."""
        table = sa.table(self.table, *(sa.column(c) for c in self.columns))
        with self.connect() as connection:
            result = connection.execution_options(stream_results=True, yield_per=batch_size).execute(sa.select(table))
            for record in result:
                yield self._to_source_row(dict(record._mapping))

    def _to_source_row(self, row: dict[str, Any]) -> SourceRow:
        roles = self.roles
        notes: list[str] = []
        raw_content = row.get(roles.content)
        content = clean_text(raw_content)
        if isinstance(raw_content, str) and "\x00" in raw_content:
            notes.append("NUL bytes removed")
        if content is not None and "\ufffd" in content:
            notes.append("invalid UTF-8 replaced")
        metadata: dict[str, Any] = {}
        for column in self.columns:
            if column == roles.content:
                continue
            value = plain_value(row.get(column))
            if isinstance(value, str):
                value = clean_text(value)
            metadata[column] = value
        if roles.date and roles.date_unit:  # an epoch date is stored (and shown) as the text other dates are
            metadata[roles.date] = epoch_to_text(metadata.get(roles.date), roles.date_unit)
        title = clean_text(row.get(roles.title)) if roles.title else None
        return SourceRow(key=self.key_of(row), title=title or "(untitled)", content=content,
                         metadata=metadata, notes=notes)

    # ---------------------------------------------------------------- profile

    def profile(self) -> TableProfile:
        """Distinct categories and authors, date range, numeric ranges; computed once per source."""
        if self._profile is None:
            self._profile = self._compute_profile()
        return self._profile

    def _compute_profile(self) -> TableProfile:
        roles = self.roles
        table = sa.table(self.table, *(sa.column(c) for c in self.columns))
        profile = TableProfile(row_count=self.count_rows())
        with self.connect() as connection:
            for name in roles.categorical or [c for c in [roles.category] if c]:
                col = table.c[name]
                counts = profile.values.setdefault(name, {})
                for value, count in connection.execute(sa.select(col, sa.func.count()).group_by(col)):
                    if value not in (None, ""):
                        counts[str(clean_text(value))] = int(count)
            if roles.category:
                profile.categories = dict(profile.values.get(roles.category, {}))
            if roles.authors:
                col = table.c[roles.authors]
                authors: Counter[str] = Counter()
                for value, count in connection.execute(sa.select(col, sa.func.count()).group_by(col)):
                    for name in split_authors(clean_text(value)):
                        authors[name] += int(count)
                profile.authors = dict(authors.most_common())
            if roles.date:
                col = table.c[roles.date]
                low, high = connection.execute(sa.select(sa.func.min(col), sa.func.max(col))).one()
                profile.date_min = plain_value(low) if not roles.date_unit else epoch_to_text(low, roles.date_unit)
                profile.date_max = plain_value(high) if not roles.date_unit else epoch_to_text(high, roles.date_unit)
            for name in roles.numeric:
                col = table.c[name]
                low, high = connection.execute(sa.select(sa.func.min(col), sa.func.max(col))).one()
                if low is not None:
                    profile.numeric_ranges[name] = (float(low), float(high))
            for name in (roles.id, roles.title):
                if not name:
                    continue
                col = table.c[name]
                sample = [plain_value(v) for (v,) in connection.execute(sa.select(col).where(col.is_not(None))
                                                                        .limit(ID_SAMPLE))]
                integers = name == roles.id and self.columns[name].type == "integer"
                shape = id_shape(sample, integers=integers) if len(set(sample)) == len(sample) else None
                if shape:
                    profile.id_column, profile.id_shape, profile.id_is_number = name, shape, integers
                    break
        return profile

    # ---------------------------------------------------------------- guarded execution

    def run_select(self, sql: str, *, max_rows: int | None = None, max_cell_chars: int | None = None) -> QueryResult:
        """Run SQL that already passed the guard, with a time limit, a row cap and a cell-size cap
        (the source's own caps unless given; 0 cell chars means no truncation)."""
        max_rows = self.max_rows if max_rows is None else max_rows
        max_cell_chars = self.max_cell_chars if max_cell_chars is None else max_cell_chars
        deadline = time.monotonic() + self.timeout_s
        if self.engine.dialect.paramstyle in ("format", "pyformat"):
            # psycopg2 and co. read '%' as a placeholder even without parameters: LIKE '%x%' must be '%%x%%'.
            sql = sql.replace("%", "%%")
        for attempt in range(2):
            try:
                with self.connect() as connection:
                    raw = connection.connection.dbapi_connection
                    if self.dialect == "sqlite":
                        raw.set_progress_handler(lambda: int(time.monotonic() > deadline), 10_000)
                    try:
                        if self.dialect == "postgresql" and max_cell_chars:
                            result = connection.exec_driver_sql(capped_cells_sql(connection, sql, max_cell_chars))
                        else:
                            result = connection.exec_driver_sql(sql)
                        if not result.returns_rows:
                            raise QueryFailed("The statement returned no rows; only SELECT queries are run.")
                        columns = list(result.keys())
                        fetched = result.fetchmany(max_rows + 1)
                    finally:
                        if self.dialect == "sqlite":
                            raw.set_progress_handler(None, 0)
                        connection.rollback()
                break
            except sa.exc.OperationalError as error:
                message = str(error.orig)
                if "interrupted" in message or "statement timeout" in message or "canceling statement" in message:
                    raise QueryFailed(f"The query took longer than {self.timeout_s:g} s and was stopped.") from error
                if "locked" in message and attempt == 0:
                    time.sleep(0.5)
                    continue
                if "locked" in message:
                    raise DatabaseUnavailable("The database is locked by another program; try again.") from error
                raise QueryFailed(f"The database could not run the query: {message}") from error
            except sa.exc.DBAPIError as error:
                if "string or blob too big" in str(error.orig):  # SQLITE_LIMIT_LENGTH (a DataError)
                    raise QueryFailed(f"The query builds a value larger than {SQLITE_MAX_VALUE_BYTES // 2**20} MB, "
                                      "the limit for one cell; ask for less text at once.") from error
                raise QueryFailed(f"The database could not run the query: {error.orig}") from error
            except sa.exc.SQLAlchemyError as error:
                raise QueryFailed(f"The database could not run the query: {error}") from error
        rows: list[list[Any]] = []
        truncated = 0
        for record in fetched[:max_rows]:
            row = []
            for value in record:
                value = without_float_noise(plain_value(value))
                if max_cell_chars and isinstance(value, str) and len(value) > max_cell_chars:
                    value = value[:max_cell_chars] + "…"
                    truncated += 1
                row.append(value)
            rows.append(row)
        return QueryResult(columns, rows, row_limit_hit=len(fetched) > max_rows, truncated_cells=truncated)

    def describe(self) -> str:
        """A compact description of the table for SQL prompts and the UI. Every name and value from the
        database goes through `prompt_value`: a hostile row cannot add a line or a tag to the prompt."""
        profile = self.profile()

        def name(column: str | None) -> str:
            return prompt_value(column, quote=False)

        lines = [f"Table {name(self.table)} ({profile.row_count} rows). Columns:"]
        for column, info in self.columns.items():
            role = next((r for r, c in self.roles.as_dict().items() if c == column), None)
            lines.append(f"- {name(column)} ({info.type})" + (f" — role: {role}" if role and role != "numeric" else ""))
        if profile.categories:
            lines.append(f"Distinct values of {name(self.roles.category)}: "
                         + ", ".join(map(prompt_value, sorted(profile.categories))))
        if self.roles.date and profile.date_min:
            low, high = prompt_value(profile.date_min), prompt_value(profile.date_max)
            if self.roles.date_unit:
                lines.append(f"{name(self.roles.date)} holds {UNIT_NAMES[self.roles.date_unit]} (Unix time, UTC), "
                             f"from {low} to {high}.")
            else:
                lines.append(f"{name(self.roles.date)} is text 'YYYY-MM-DD HH:MM:SS', from {low} to {high}."
                             if self.columns[self.roles.date].type != "date" else
                             f"{name(self.roles.date)} ranges from {low} to {high}.")
        if self.roles.authors:
            lines.append(f"{name(self.roles.authors)} may hold several names separated by '; '.")
        return "\n".join(lines)
