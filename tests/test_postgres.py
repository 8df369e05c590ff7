"""The product against a real PostgreSQL server, through SQLAlchemy and psycopg2, with a SELECT-only role.

`bash .ci/postgres` (run by `make test`) starts a throwaway server and writes test-output/postgres.env:
RAG_TEST_PG_ADMIN_URL (a superuser, used here only to load the test tables) and RAG_TEST_PG_URL (a role
that may only SELECT: the product's database URL). Both may also come from the environment (`bash .ci/postgres
CMD` exports them to CMD). Without a server, or without psycopg2, every test here skips and says why; under
CI=true they fail instead (conftest.skip_or_fail).

The sample articles are loaded twice: `articles` with `published_date` TEXT, exactly the sample schema,
and `articles_ts` with a TIMESTAMP date (the SQL builder's date_is_text=False path). Every answer is
compared with the same question on the SQLite sample and with values computed here from the JSON lines.
"""

from __future__ import annotations

import calendar
import json
import os
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from conftest import skip_or_fail

from rag.answer.sql_guard import allowed_functions, guard_sql
from rag.assistant import Assistant
from rag.data.index import VectorIndex
from rag.data.sample_data import build_sample_db, word_count
from rag.data.source import TableSource, capped_cells_sql
from rag.errors import QueryFailed, UnsafeSQL
from rag.models import Turn
from rag.providers import build_embedder
from rag.settings import PROJECT_ROOT, SAMPLE_JSONL_PATH, Settings
from rag.understand.planner import Planner
from rag.understand.text_to_sql import SQLBuilder

try:
    import psycopg2  # noqa: F401
except ImportError:
    skip_or_fail("psycopg2 is not installed (the dev extra installs psycopg2-binary)", allow_module_level=True)

pytestmark = pytest.mark.slow

ENV_FILE = PROJECT_ROOT / "test-output" / "postgres.env"
ADMIN_KEY, URL_KEY = "RAG_TEST_PG_ADMIN_URL", "RAG_TEST_PG_URL"
DATE_TYPES = {"articles": "TEXT", "articles_ts": "TIMESTAMP"}
TABLES = list(DATE_TYPES)
COLUMNS = ("url", "title", "authors", "published_date", "article_category", "word_count", "full_content")

RECORDS: list[dict[str, Any]] = [
    {**record, "word_count": word_count(record["full_content"])}
    for record in map(json.loads, SAMPLE_JSONL_PATH.read_text(encoding="utf-8").splitlines())
]
HYBRID_QUESTION = "technology articles about crypto in 2023"


# ----------------------------------------------------------------------------- server and tables


@dataclass
class Server:
    admin_url: str
    url: str  # the SELECT-only role: what the product is given
    admin: sa.Engine

    def fingerprint(self, table: str) -> tuple[int, str]:
        """Row count and a checksum of every row, read as the superuser."""
        with self.admin.connect() as connection:
            count, digest = connection.exec_driver_sql(
                f"SELECT COUNT(*), md5(string_agg(md5(t::text), '' ORDER BY t.url)) FROM {table} AS t").one()
        return int(count), str(digest)


def _server_urls() -> dict[str, str]:
    values: dict[str, str] = {}
    if ENV_FILE.exists():
        for line in ENV_FILE.read_text(encoding="utf-8").splitlines():
            key, sep, value = line.strip().partition("=")
            if sep and key in (ADMIN_KEY, URL_KEY):
                values[key] = value.strip()
    values.update({key: os.environ[key] for key in (ADMIN_KEY, URL_KEY) if os.environ.get(key)})
    if ADMIN_KEY not in values or URL_KEY not in values:
        skip_or_fail(f"no PostgreSQL server to test against: {ENV_FILE.relative_to(PROJECT_ROOT)} is missing. Run "
                    f"`bash .ci/postgres` (it needs root and apt-get to install PostgreSQL) or set {ADMIN_KEY} "
                    f"and {URL_KEY}.")
    return values


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    """Connects as the superuser and (re)creates both test tables: a server left running is reused as is."""
    urls = _server_urls()
    admin = sa.create_engine(urls[ADMIN_KEY], connect_args={"connect_timeout": 5})
    try:
        with admin.connect() as connection:
            connection.exec_driver_sql("SELECT 1")
    except sa.exc.OperationalError as error:
        admin.dispose()
        where = sa.make_url(urls[ADMIN_KEY]).render_as_string(hide_password=True)
        skip_or_fail(f"the PostgreSQL server at {where} is not reachable ({str(error.orig).strip()}); "
                    "run `bash .ci/postgres`")
    reader = sa.make_url(urls[URL_KEY]).username
    insert_columns = ", ".join(COLUMNS)
    placeholders = ", ".join(f":{c}" for c in COLUMNS)
    with admin.begin() as connection:
        for table, date_type in DATE_TYPES.items():
            connection.exec_driver_sql(f"DROP TABLE IF EXISTS {table}")
            connection.exec_driver_sql(
                f"CREATE TABLE {table} (url TEXT, title TEXT, authors TEXT, published_date {date_type}, "
                "article_category TEXT, word_count INTEGER, full_content TEXT)")
            connection.execute(sa.text(f"INSERT INTO {table} ({insert_columns}) VALUES ({placeholders})"),
                               [{c: r[c] for c in COLUMNS} for r in RECORDS])
            connection.exec_driver_sql(f'GRANT SELECT ON {table} TO "{reader}"')
    yield Server(urls[ADMIN_KEY], urls[URL_KEY], admin)
    admin.dispose()


@pytest.fixture(scope="module")
def sqlite_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The SQLite sample, built from the same JSON lines by the same code as data/articles.db."""
    path = tmp_path_factory.mktemp("sqlite") / "articles.db"
    build_sample_db(SAMPLE_JSONL_PATH, path)
    return f"sqlite:///{path}"


def settings_for(db_url: str, table: str, index_dir: Path) -> Settings:
    return Settings(db_url=db_url, table=table, index_dir=str(index_dir), embed_model="hashing", provider="offline")


@pytest.fixture(scope="module")
def reference(sqlite_url: str, tmp_path_factory: pytest.TempPathFactory) -> Assistant:
    return Assistant.build(settings_for(sqlite_url, "articles", tmp_path_factory.mktemp("sqlite-index")))


@dataclass
class Indexed:
    settings: Settings
    assistant: Assistant
    first_sync: Any
    second_sync: Any


@pytest.fixture(scope="module")
def indexed(server: Server, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Indexed]:
    """Per table: an index synced from PostgreSQL with the hashing embedder (twice), and the assistant."""
    built: dict[str, Indexed] = {}
    for table in TABLES:
        settings = settings_for(server.url, table, tmp_path_factory.mktemp(f"index-{table}"))
        index = VectorIndex(settings, build_embedder(settings))
        source = TableSource(server.url, table)
        first = index.sync(source)
        second = index.sync(source)
        source.close()
        built[table] = Indexed(settings, Assistant.build(settings), first, second)
    return built


# ----------------------------------------------------------------------------- expected values


def expected_per_year_and_category() -> list[list[Any]]:
    counts = Counter((r["published_date"][:4], r["article_category"]) for r in RECORDS)
    return [[year, category, n] for (year, category), n in sorted(counts.items())]


def expected_avg_words_per_category() -> list[list[Any]]:
    words: dict[str, list[int]] = defaultdict(list)
    for r in RECORDS:
        words[r["article_category"]].append(r["word_count"])
    # each category's articles, then the average rounded half away from zero, like SQL's ROUND, to the two
    # decimals the product shows
    return [[category, len(v), float((Decimal(sum(v)) / len(v)).quantize(Decimal("0.01"), ROUND_HALF_UP))]
            for category, v in sorted(words.items())]


def urls_where(category: str, year: str | None = None) -> set[str]:
    return {r["url"] for r in RECORDS
            if r["article_category"] == category and (year is None or r["published_date"].startswith(year))}


def normalised(rows: list[list[Any]]) -> list[list[Any]]:
    """Rows with numbers made comparable across drivers (Decimal/float averages rounded like the SQL)."""
    return [[round(float(v), 2) if isinstance(v, float) else v for v in row] for row in rows]


def ask_sql(assistant: Assistant, question: str) -> Turn:
    turn = assistant.ask(question)
    assert turn.error is None, (question, turn.error, turn.result.sql)
    assert turn.route == "sql", (question, turn.route, turn.result.reason)
    assert turn.result.sql_verdict and turn.result.sql_verdict.startswith("allowed"), turn.result.sql_verdict
    return turn


# ----------------------------------------------------------------------------- the table source


@pytest.mark.parametrize("table", TABLES)
def test_roles_profile_rows_and_description_match_sqlite(server: Server, sqlite_url: str, table: str) -> None:
    source, ref = TableSource(server.url, table), TableSource(sqlite_url, "articles")
    try:
        assert source.dialect == "postgresql"
        assert source.roles.as_dict() == ref.roles.as_dict()
        assert source.roles.as_dict() == {"id": None, "title": "title", "content": "full_content",
                                          "date": "published_date", "category": "article_category",
                                          "authors": "authors", "url": "url", "numeric": ["word_count"],
                                          "categorical": ["article_category"]}
        assert source.key_columns == ref.key_columns == ["url"]
        assert source.columns["published_date"].type == ("text" if table == "articles" else "date")
        assert source.columns["word_count"].type == "integer"

        profile, expected = source.profile(), ref.profile()
        assert profile.row_count == expected.row_count == len(RECORDS)
        assert profile.categories == expected.categories == dict(Counter(r["article_category"] for r in RECORDS))
        assert profile.authors == expected.authors and profile.authors
        assert (profile.date_min, profile.date_max) == (expected.date_min, expected.date_max) == (
            min(r["published_date"] for r in RECORDS), max(r["published_date"] for r in RECORDS))
        assert profile.numeric_ranges == expected.numeric_ranges

        description = source.describe()
        if table == "articles":
            assert description == ref.describe()
        else:
            assert description.startswith(f"Table articles_ts ({len(RECORDS)} rows). Columns:")
            assert "- published_date (date) — role: date" in description
            assert f"published_date ranges from '{profile.date_min}' to '{profile.date_max}'." in description
            same = [line for line in ref.describe().splitlines() if line.startswith(("Distinct values", "authors "))]
            assert len(same) == 2 and all(line in description.splitlines() for line in same)

        # What the indexer reads (a server-side cursor on PostgreSQL): the same keys, text and metadata.
        rows = {row.key: (row.title, row.content, row.metadata) for row in source.iter_rows(batch_size=50)}
        assert rows == {row.key: (row.title, row.content, row.metadata) for row in ref.iter_rows()}
    finally:
        source.close()
        ref.close()


def test_run_select_runs_guarded_sql_with_row_and_cell_caps(server: Server) -> None:
    source = TableSource(server.url, "articles", max_rows=1000, max_cell_chars=40)
    try:
        guarded = guard_sql("SELECT article_category, COUNT(*) AS n FROM articles GROUP BY article_category "
                            "ORDER BY n DESC, article_category", table="articles", columns=source.columns,
                            dialect=source.dialect)
        result = source.run_select(guarded.sql)
        assert result.columns == ["article_category", "n"]
        assert result.rows == sorted(([c, n] for c, n in Counter(r["article_category"] for r in RECORDS).items()),
                                     key=lambda row: (-row[1], row[0]))
        assert not result.row_limit_hit and guarded.notes == ("LIMIT 1000 added",)

        capped = source.run_select(guard_sql("SELECT word_count, full_content FROM articles ORDER BY url",
                                             table="articles", columns=source.columns, dialect="postgresql").sql,
                                   max_rows=3)
        assert len(capped.rows) == 3 and capped.row_limit_hit

        # '%' in the SQL text (LIKE patterns, modulo) reaches psycopg2 as a literal, never as a placeholder
        percent = source.run_select(guard_sql(
            "SELECT COUNT(*) AS n, SUM(word_count % 2) AS odd FROM articles WHERE LOWER(full_content) LIKE '%crypto%'",
            table="articles", columns=source.columns, dialect="postgresql").sql)
        crypto = [r for r in RECORDS if "crypto" in r["full_content"].lower()]
        assert percent.rows == [[len(crypto), sum(r["word_count"] % 2 for r in crypto)]]
        assert capped.truncated_cells == 3 and all(len(row[1]) == 41 and row[1].endswith("…") for row in capped.rows)
    finally:
        source.close()


WRITES = (
    "INSERT INTO articles (url, title) VALUES ('https://evil.example/1', 'planted')",
    "UPDATE articles SET title = 'changed'",
    "DELETE FROM articles",
    "DROP TABLE articles",
    "TRUNCATE articles",
    "CREATE TABLE planted (x INTEGER)",
)


@pytest.mark.parametrize("who", ["reader", "superuser"])
def test_writes_through_the_product_engine_fail_and_leave_the_table_unchanged(server: Server, who: str) -> None:
    """Statements the guard would refuse, sent straight to `source.engine`: the read-only transaction stops
    them even when the product is (wrongly) given a superuser URL."""
    before = server.fingerprint("articles")
    source = TableSource(server.url if who == "reader" else server.admin_url, "articles")
    try:
        for statement in WRITES:
            with source.engine.connect() as connection, \
                    pytest.raises(sa.exc.DBAPIError, match="cannot execute .* in a read-only transaction"):
                connection.exec_driver_sql(statement)
                connection.commit()
        # Sent as is (no cell cap, so no wrapping SELECT), the read-only transaction stops it; wrapped for the
        # cell cap, it is not even a valid statement.
        with pytest.raises(QueryFailed, match="read-only transaction"):
            source.run_select("DELETE FROM articles RETURNING url", max_cell_chars=0)
        with pytest.raises(QueryFailed):
            source.run_select("DELETE FROM articles RETURNING url")
        assert source.run_select("SELECT COUNT(*) FROM articles").rows == [[len(RECORDS)]]
    finally:
        source.close()
    assert server.fingerprint("articles") == before
    with server.admin.connect() as connection:
        assert not sa.inspect(connection).has_table("planted")


def test_the_product_role_itself_can_only_select(server: Server) -> None:
    """Defence in depth (set up by .ci/postgres): even in a read-write transaction the role cannot write."""
    before = server.fingerprint("articles")
    engine = sa.create_engine(server.url)
    try:
        with engine.connect() as connection:
            connection.exec_driver_sql("SET TRANSACTION READ WRITE")
            with pytest.raises(sa.exc.ProgrammingError, match="permission denied"):
                connection.exec_driver_sql("DELETE FROM articles")
    finally:
        engine.dispose()
    assert server.fingerprint("articles") == before


def test_a_slow_select_is_stopped_by_the_time_limit(server: Server) -> None:
    source = TableSource(server.url, "articles", timeout_s=0.2)
    try:
        with pytest.raises(UnsafeSQL, match="pg_sleep"):
            guard_sql("SELECT pg_sleep(5)", table="articles", columns=source.columns, dialect=source.dialect)
        heavy = guard_sql("SELECT COUNT(*) FROM articles AS a CROSS JOIN articles AS b CROSS JOIN articles AS c "
                          "CROSS JOIN articles AS d", table="articles", columns=source.columns,
                          dialect=source.dialect)  # 130^4 = 285 million rows
        started = time.monotonic()
        with pytest.raises(QueryFailed, match=r"took longer than 0\.2 s and was stopped"):
            source.run_select(heavy.sql)
        assert time.monotonic() - started < 3
        # the cancelled statement leaves a usable connection behind
        assert source.run_select("SELECT COUNT(*) FROM articles").rows == [[len(RECORDS)]]
        # no JIT: its compile step runs before the executor and the timeout cannot stop it
        assert source.run_select("SELECT current_setting('jit') AS jit").rows == [["off"]]
    finally:
        source.close()


# What a language model writes for PostgreSQL: each passes the guard's allow list and runs on the server.
MODEL_QUERIES = [
    "SELECT to_char(published_date::timestamp, 'YYYY-MM') AS month, COUNT(*) AS n FROM articles GROUP BY month",
    "SELECT date_trunc('month', published_date::timestamp) AS m, string_agg(title, '; ') FROM articles GROUP BY m",
    "SELECT EXTRACT(YEAR FROM published_date::date) AS y, ROUND(AVG(word_count), 1) FROM articles GROUP BY y",
    "SELECT initcap(article_category), greatest(word_count, 100), least(word_count, 5000), left(title, 20), "
    "right(url, 10), split_part(authors, ';', 1), strpos(lower(title), 'a'), reverse(title), btrim(title), "
    "char_length(title), position('a' IN title), substr(title, 2, 3) FROM articles",
    "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY word_count), stddev(word_count), variance(word_count), "
    "mode() WITHIN GROUP (ORDER BY article_category), bool_or(word_count > 1000) FROM articles",
    "SELECT title, age(published_date::timestamp) FROM articles WHERE published_date::date > current_date - 5000",
    "SELECT concat(title, ' - ', authors), concat_ws(', ', title, url), NOW() - INTERVAL '1 day', "
    "make_date(2023, 1, 1) FROM articles",
    "SELECT title, RANK() OVER (PARTITION BY article_category ORDER BY word_count DESC) FROM articles",
    "SELECT date_part('year', published_date::date), to_date('2023-01-01', 'YYYY-MM-DD'), to_timestamp(0) "
    "FROM articles",
]  # fmt: skip
# Names on the allow list that are SQL syntax rather than functions in pg_proc.
SYNTAX = {"and", "or", "case", "if", "cast", "collate", "exists", "coalesce", "nullif", "greatest", "least",
          "trim", "currentdate", "currenttime", "currenttimestamp"}  # fmt: skip


def test_the_allow_list_names_real_functions_and_model_queries_run(server: Server) -> None:
    with server.admin.connect() as connection:
        functions = {name for (name,) in connection.exec_driver_sql("SELECT DISTINCT proname FROM pg_proc")}
    assert allowed_functions("postgresql") - SYNTAX <= functions
    # the server has the functions the guard refuses: only the guard keeps them out
    assert {"repeat", "lpad", "rpad", "format", "version", "current_database", "current_setting"} <= functions
    source = TableSource(server.url, "articles")
    try:
        for sql in MODEL_QUERIES:
            guarded = guard_sql(sql, table="articles", columns=source.columns, dialect=source.dialect)
            assert source.run_select(guarded.sql).rows, sql
    finally:
        source.close()


def test_text_cells_are_cut_on_the_server(server: Server) -> None:
    """A string_agg of every article (about 650 kB) leaves the server as 41 characters; numbers stay numbers,
    duplicate column names and the order of rows survive the wrapping."""
    source = TableSource(server.url, "articles", max_cell_chars=40)
    try:
        sql = guard_sql("SELECT string_agg(full_content, ' ') AS everything, COUNT(*) AS n, COUNT(*) AS n, "
                        "MIN(published_date) AS first, AVG(word_count) AS \"avg \"\"words\"\"\" FROM articles",
                        table="articles", columns=source.columns, dialect=source.dialect).sql
        with source.connect() as connection:
            raw = connection.exec_driver_sql(capped_cells_sql(connection, sql, 40)).one()
        assert len(raw[0]) == 41 and raw[1] == raw[2] == len(RECORDS) and isinstance(raw[4], Decimal)
        assert raw[3] == min(r["published_date"] for r in RECORDS)
        result = source.run_select(sql)
        assert result.columns == ["everything", "n", "n", "first", 'avg "words"']
        assert len(result.rows[0][0]) == 41 and result.rows[0][0].endswith("…") and result.truncated_cells == 1
        assert result.rows[0][1:3] == [len(RECORDS), len(RECORDS)]

        ordered = guard_sql("SELECT title, word_count FROM articles ORDER BY word_count DESC, url LIMIT 10",
                            table="articles", columns=source.columns, dialect=source.dialect).sql
        with server.admin.connect() as connection:
            expected = [[title[:40] + ("…" if len(title) > 40 else ""), words]
                        for title, words in connection.exec_driver_sql(ordered)]
        assert source.run_select(ordered).rows == expected
        # whole cells when the caller asks for them (the hybrid route's row keys)
        assert len(source.run_select(sql, max_cell_chars=0).rows[0][0]) > 100_000
    finally:
        source.close()


# ----------------------------------------------------------------------------- questions, offline


@pytest.mark.parametrize("table", TABLES)
def test_sql_route_answers_are_correct_and_match_sqlite(indexed: dict[str, Indexed], reference: Assistant,
                                                        table: str) -> None:
    assistant = indexed[table].assistant
    columns = list(assistant.context.source.columns)
    count_column = "article_count" if table == "articles" else "articles_t_count"  # named after the table

    turn = ask_sql(assistant, "How many articles per year and category?")
    assert turn.result.result.columns == ["year", "article_category", count_column]
    assert turn.result.result.rows == expected_per_year_and_category()

    turn = ask_sql(assistant, "What is the average word count per category?")
    assert turn.result.result.columns == ["article_category", count_column, "avg_word_count"]
    assert normalised(turn.result.result.rows) == expected_avg_words_per_category()

    turn = ask_sql(assistant, "List politics articles")
    assert {row[turn.result.result.columns.index("url")] for row in turn.result.result.rows} == urls_where("politics")
    dates = [row[turn.result.result.columns.index("published_date")] for row in turn.result.result.rows]
    assert dates == sorted(dates, reverse=True) and all(isinstance(d, str) for d in dates)

    turn = ask_sql(assistant, "How many articles were published between March and May 2023?")
    assert turn.result.result.rows == [[sum("2023-03-01" <= r["published_date"] < "2023-06-01" for r in RECORDS)]]

    # The same questions and more shapes of SQL (per-author union with || and LIKE, a share with a subquery,
    # a numeric filter, months of a year, text and partial-author LIKE matches): the PostgreSQL answers
    # equal the SQLite ones, and the generated SQL passes the guard in the postgresql dialect.
    for question in ("How many articles per year and category?", "What is the average word count per category?",
                     "List politics articles", "How many articles were published between March and May 2023?",
                     "How many technology articles were published in 2023?", "Who wrote the most articles?",
                     "What percentage of articles are politics?", "How many articles have more than 2000 words?",
                     "Monthly number of fashion articles in 2023", "What is the longest article?",
                     "How many articles mention Dooley?", "Show articles by Farrant",
                     "What is the median word count per category?", "median word count of politics articles",
                     "Of all the words we published in 2023, what percentage came out in June?",
                     "What is the average number of authors per article?",
                     "How many different days had at least one article, per quarter of 2023?",
                     "Which author has the longest stretch between their first and their most recent article?",
                     "Which author has gone the longest without a new article?",
                     # (session 21: the number of groups with none of a kind of row; values dated by their first row)
                     "How many categories have never had an article with more than 2000 words?",
                     "How many new authors in 2023?",
                     # (session 28: each passing group's values, a row per pair, the groups picked by a subquery)
                     "Has anyone written for more than one category? If so who, and for which ones?",
                     "What is the average word count per category, rounded to one decimal?"):
        turn, expected = ask_sql(assistant, question), ask_sql(reference, question)
        assert normalised(turn.result.result.rows) == normalised(expected.result.result.rows), question
        assert len(turn.result.result.columns) == len(expected.result.result.columns), question
        assert guard_sql(turn.result.sql, table=table, columns=columns, dialect="postgresql").sql == turn.result.sql
        if table == "articles":  # the same words too (on articles_ts the count column is named differently)
            assert turn.answer == expected.answer, question


# ----------------------------------------------------------------------------- index sync and hybrid


@pytest.mark.parametrize("table", TABLES)
def test_index_sync_and_hybrid_search_inside_the_sql_selected_rows(indexed: dict[str, Indexed], table: str) -> None:
    built = indexed[table]
    assert (built.first_sync.rows, built.first_sync.new, built.first_sync.skipped) == (len(RECORDS), len(RECORDS), [])
    assert (built.second_sync.unchanged, built.second_sync.new, built.second_sync.changed) == (len(RECORDS), 0, 0)

    turn = built.assistant.ask(HYBRID_QUESTION)
    assert turn.error is None, turn.error
    assert turn.route == "hybrid", turn.result.reason
    selected = urls_where("technology", "2023")
    assert turn.result.restricted_row_keys == len(selected)
    assert {row[0] for row in turn.result.result.rows} == selected  # the row keys SQL chose (key column: url)
    assert turn.result.chunks and {chunk.row_key for chunk in turn.result.chunks} <= selected
    assert turn.citations and {citation.row_key for citation in turn.citations} <= selected
    crypto = {r["url"] for r in RECORDS if r["url"] in selected and "crypto" in r["full_content"].lower()}
    assert turn.citations[0].row_key in crypto
    assert all(c.published_date.startswith("2023-") for c in turn.citations)


# ----------------------------------------------------------------------------- plain URLs and import-csv (#10)


def _plain(url: str) -> str:
    """The URL as a user would paste it: `postgresql://`, no driver named."""
    return sa.make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def test_a_plain_postgresql_url_reads_through_the_installed_driver(server: Server) -> None:
    source = TableSource(_plain(server.url), "articles")
    try:
        assert source.engine.url.drivername == "postgresql+psycopg2"
        assert source.count_rows() == len(RECORDS)
    finally:
        source.close()


def test_import_csv_into_postgresql(server: Server, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from rag.cli import main

    csv_path = tmp_path / "tickets.csv"
    csv_path.write_text('ticket_id;subject;body;amount\n1;Login;"Cannot log in; tried twice";12,50\n'
                        "9000000000;Refund;Returned goods;-3,00\n", encoding="utf-8")
    with server.admin.begin() as connection:
        connection.exec_driver_sql("DROP TABLE IF EXISTS imported_tickets")
    try:
        assert main(["import-csv", str(csv_path), "--db", _plain(server.admin_url), "--table", "imported_tickets"]) == 0
        with server.admin.connect() as connection:
            assert connection.exec_driver_sql("SELECT * FROM imported_tickets ORDER BY ticket_id").all() == [
                (1, "Login", "Cannot log in; tried twice", "12,50"),
                (9_000_000_000, "Refund", "Returned goods", "-3,00")]  # beyond PostgreSQL's 32-bit integer
        # The product's SELECT-only role cannot create a table: one line, no traceback.
        capsys.readouterr()
        assert main(["import-csv", str(csv_path), "--db", _plain(server.url), "--table", "reader_tickets"]) == 2
        err = capsys.readouterr().err
        assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
        assert "Database unavailable" in err and "permission denied" in err
    finally:
        with server.admin.begin() as connection:
            connection.exec_driver_sql("DROP TABLE IF EXISTS imported_tickets")


# ----------------------------------------------------------------------------- epoch dates, integer keys (#12)

EPOCH_QUESTIONS = ("How many {noun} per year and category?", "How many {noun} per month in 2023?",
                   "How many {noun} were published between March and May 2023?", "How many {noun} per quarter?",
                   "How many {noun} in the last 6 months?", "How many {noun} were published on weekends?",
                   "How many {noun} since November 2023?", "How many technology {noun} were published in 2023?",
                   "How many {noun} per week in June 2023?", "How many {noun} per day of the week?",
                   "How many {noun} were published before noon?",
                   "What was the longest gap between two consecutive {noun}?",
                   "How many {noun} between 2023-02-01 and 2023-03-20 vs between 2023-03-21 and 2023-06-30?")


@pytest.fixture(scope="module", params=["s", "ms"])
def epoch_items(server: Server, tmp_path_factory: pytest.TempPathFactory,
                request: pytest.FixtureRequest) -> Iterator[Assistant]:
    """The sample as items(item_id INTEGER PRIMARY KEY, heading, writer, posted_at BIGINT epoch seconds or
    milliseconds, section, length, body), indexed from PostgreSQL."""
    reader = sa.make_url(server.url).username
    scale = {"s": 1, "ms": 1000}[request.param]
    table = f"items_epoch_{request.param}"
    with server.admin.begin() as connection:
        connection.exec_driver_sql(f"DROP TABLE IF EXISTS {table}")
        connection.exec_driver_sql(f"CREATE TABLE {table} (item_id INTEGER PRIMARY KEY, heading TEXT, writer TEXT, "
                                   "posted_at BIGINT, section TEXT, length INTEGER, body TEXT)")
        connection.execute(sa.text(f"INSERT INTO {table} VALUES (:i, :h, :w, :p, :s, :l, :b)"), [
            {"i": 1000 + n, "h": r["title"], "w": r["authors"], "s": r["article_category"], "l": r["word_count"],
             "b": r["full_content"],
             "p": calendar.timegm(time.strptime(r["published_date"], "%Y-%m-%d %H:%M:%S")) * scale}
            for n, r in enumerate(RECORDS)])
        connection.exec_driver_sql(f'GRANT SELECT ON {table} TO "{reader}"')
    settings = settings_for(server.url, table, tmp_path_factory.mktemp(f"index-{table}"))
    assistant = Assistant.build(settings)
    assistant.sync_index()
    yield assistant
    with server.admin.begin() as connection:
        connection.exec_driver_sql(f"DROP TABLE IF EXISTS {table}")


def test_epoch_dates_and_integer_keys_answer_as_the_sqlite_sample(epoch_items: Assistant, reference: Assistant) -> None:
    source = epoch_items.source
    assert (source.roles.date, source.key_columns) == ("posted_at", ["item_id"])
    assert source.roles.date_unit == source.table.rsplit("_", 1)[1]
    assert (source.profile().date_min, source.profile().date_max) == (reference.profile().date_min,
                                                                      reference.profile().date_max)
    columns = list(source.columns)
    for question in EPOCH_QUESTIONS:
        turn = ask_sql(epoch_items, question.format(noun="items"))
        expected = ask_sql(reference, question.format(noun="articles"))
        assert "TO_TIMESTAMP" in turn.result.sql or "posted_at\" >=" in turn.result.sql, turn.result.sql
        assert turn.result.result.rows == expected.result.result.rows and expected.result.result.rows, question
        assert guard_sql(turn.result.sql, table=source.table, columns=columns, dialect="postgresql").sql == \
            turn.result.sql
    turn = ask_sql(epoch_items, "List politics items from 2023")
    expected = ask_sql(reference, "List politics articles from 2023")
    # (a table without urls lists each row's id first)
    assert [row[1:3] for row in turn.result.result.rows] == [row[:2] for row in expected.result.result.rows]
    assert turn.result.result.columns[:3] == ["item_id", "heading", "posted_at"]  # the date as text, not a number

    turn = epoch_items.ask(HYBRID_QUESTION.replace("articles", "items"))
    assert turn.error is None and turn.route == "hybrid", (turn.error, turn.result.reason)
    titles = {r["title"] for r in RECORDS if r["article_category"] == "technology" and r["published_date"] >= "2023"}
    assert turn.citations and {c.title for c in turn.citations} <= titles
    assert all(c.published_date.startswith("2023-") and c.row_key.isdigit() for c in turn.citations)


LEASE_ROWS = [  # (ref, tenant, start, term in months): month ends, a leap day and a year boundary
    ("L-2023-0001", "Acme", "2023-10-31", 12), ("L-2024-0002", "Birch", "2024-01-31", 1),
    ("L-2024-0003", "Acme", "2024-02-15", 8), ("L-2022-0004", "Cobalt", "2022-11-30", 23),
    ("L-2024-0005", "Birch", "2024-02-29", 12), ("L-2024-0006", "Cobalt", "2024-06-30", 4),
]


def test_end_dates_derived_from_a_term_answer_as_in_sqlite(server: Server, tmp_path: Path) -> None:
    """A row's end is its date plus its term (`ColumnRoles.end`): DATE(...) in SQLite, date + interval in PostgreSQL,
    the same days on both (a month after 31 January is 29 February), on a TEXT and on a DATE column."""
    reader = sa.make_url(server.url).username
    sqlite_path = tmp_path / "leases.db"
    sqlite_engine = sa.create_engine(f"sqlite:///{sqlite_path}")
    for engine, table, date_type in ((sqlite_engine, "leases", "TEXT"), (server.admin, "leases", "TEXT"),
                                     (server.admin, "dated_leases", "DATE")):
        with engine.begin() as connection:
            connection.exec_driver_sql(f"DROP TABLE IF EXISTS {table}")
            connection.exec_driver_sql(f"CREATE TABLE {table} (lease_ref TEXT NOT NULL UNIQUE, tenant TEXT, "
                                       f"start_on {date_type}, term_months INTEGER, notes TEXT)")
            connection.execute(sa.text(f"INSERT INTO {table} VALUES (:r, :t, :s, :m, :n)"), [
                {"r": r, "t": t, "s": s, "m": m, "n": f"Lease of unit {i} for {t}, with parking and storage."}
                for i, (r, t, s, m) in enumerate(LEASE_ROWS)])
            if engine is server.admin:
                connection.exec_driver_sql(f'GRANT SELECT ON {table} TO "{reader}"')
    sqlite_engine.dispose()
    questions = ("how many leases end in October 2024?", "which leases expire in February 2024?",
                 "how many leases run out in 2025?", "when does L-2024-0005 end?")
    answers: dict[str, list[list[Any]]] = {}
    for url, table in ((f"sqlite:///{sqlite_path}", "leases"), (server.url, "leases"), (server.url, "dated_leases")):
        source = TableSource(url, table)
        try:
            assert source.roles.end == "start_on + term_months"
            planner = Planner(table, source.roles, source.profile())
            builder = SQLBuilder(table, source.roles, source.profile(), source.dialect,
                                 date_is_text=source.columns["start_on"].type != "date", columns=list(source.columns))
            for question in questions:
                guarded = guard_sql(builder.answer_sql(planner.plan(question)), table=table,
                                    columns=list(source.columns), dialect=source.dialect)
                result = source.run_select(guarded.sql)
                rows = [[str(v) if v is not None else None for v in row] for row in result.rows]
                answers.setdefault(question, rows) if url.startswith("sqlite") else None
                assert rows == answers[question], (table, question, guarded.sql)
        finally:
            source.close()
    assert answers["how many leases end in October 2024?"] == [["4"]]  # (0001, 0003, 0004 and 0006)
    assert [row[0] for row in answers["which leases expire in February 2024?"]] == ["L-2024-0002"]
    assert answers["how many leases run out in 2025?"] == [["1"]]  # (L-2024-0005: 28 February 2025)
    with server.admin.begin() as connection:
        connection.exec_driver_sql("DROP TABLE IF EXISTS leases, dated_leases")
