"""The source table: column roles, read-only access, bad bytes, row keys and guarded execution."""

from __future__ import annotations

import re
import sqlite3
import time
from pathlib import Path

import pytest
import sqlalchemy as sa
from conftest import DUPLICATE_TITLE, sha256_file, write_db

from rag.data.source import TableSource, id_shape, split_authors
from rag.errors import ConfigError, DatabaseUnavailable, QueryFailed, RagError
from rag.settings import Settings

STATUSES = ("open", "pending", "closed")
PRIORITIES = ("low", "normal", "high", "urgent")
ASSIGNEES = ("Priya Natarajan", "Marco Rossi", "Dana Whitfield", "Kenji Sato")
PROBLEMS = (
    ("Cannot log in after password reset", "The customer reset their password and now sees 'invalid token'"),
    ("Invoice shows the wrong VAT rate", "The March invoice applied 21% VAT although the customer is exempt"),
    ("Export to CSV times out", "Exporting more than ten thousand orders to CSV stops after sixty seconds"),
    ("Mobile app crashes on startup", "Since version 4.2 the Android app closes immediately after the splash"),
    ("Duplicate emails sent", "Order confirmation emails arrive twice for every purchase made on Sundays"),
)


def source_of(db_path: Path, table: str = "articles", **kw) -> TableSource:
    return TableSource(f"sqlite:///{db_path}", table, **kw)


@pytest.fixture
def tickets_db(tmp_path: Path) -> Path:
    """A support-ticket table with another schema: 30 tickets, integer primary key."""
    path = tmp_path / "tickets.db"
    connection = sqlite3.connect(path)
    connection.execute(
        "CREATE TABLE tickets (ticket_id INTEGER PRIMARY KEY, subject TEXT, body TEXT, opened_at TEXT, "
        "status TEXT, assignee TEXT, priority TEXT)"
    )
    rows = []
    for i in range(30):
        subject, detail = PROBLEMS[i % len(PROBLEMS)]
        body = (f"{detail}. Reported by customer account {1000 + i}. Steps to reproduce were attached and the "
                f"issue was confirmed on the staging environment. The customer asked for an update by Friday.")
        rows.append((i + 1, f"{subject} (case {i + 1})", body, f"2023-{1 + i % 12:02d}-{1 + i % 28:02d} 10:{i:02d}:00",
                     STATUSES[i % 3], ASSIGNEES[i % 4], PRIORITIES[i % 4]))
    connection.executemany("INSERT INTO tickets VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
    connection.commit()
    connection.close()
    return path


# --------------------------------------------------------------------------- column roles


def test_roles_on_sample_schema(articles_db: Path) -> None:
    source = source_of(articles_db)
    roles = source.roles
    assert roles.content == "full_content"
    assert roles.title == "title"
    assert roles.date == "published_date"
    assert roles.category == "article_category"
    assert roles.authors == "authors"
    assert roles.url == "url"
    assert roles.numeric == ["word_count"]
    # No primary key: the unique url is the row key.
    assert source.key_columns == ["url"]


def test_roles_on_ticket_schema(tickets_db: Path) -> None:
    source = source_of(tickets_db, "tickets")
    roles = source.roles
    assert roles.title == "subject"
    assert roles.content == "body"
    assert roles.date == "opened_at"
    assert roles.authors == "assignee"
    assert roles.id == "ticket_id"
    assert roles.url is None
    assert source.key_columns == ["ticket_id"]
    # 'status' is listed before 'priority' in the hints; both are low-cardinality.
    assert roles.category == "status"
    profile = source.profile()
    assert set(profile.categories) == set(STATUSES)
    assert len(profile.categories) <= 5 < profile.row_count
    assert sum(profile.categories.values()) == 30
    assert profile.date_min.startswith("2023-01") and profile.date_max.startswith("2023-12")
    assert profile.id_is_number and re.fullmatch(profile.id_shape, "30") and not re.fullmatch(profile.id_shape, "300")


def test_rows_named_by_a_code_in_their_title_column(tmp_path: Path) -> None:
    """A contract register has no id column: its rows are named by a code in the title column ('CT-2023-0442'), and
    "who owns CT-2023-0442" read the year 2023 out of it; such a title is the column rows are named by."""
    path = tmp_path / "contracts.db"
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE contracts (contract_ref TEXT NOT NULL UNIQUE, owner TEXT, signed_on TEXT, "
                       "summary TEXT)")
    connection.executemany("INSERT INTO contracts VALUES (?, ?, ?, ?)", [
        (f"CT-{2021 + i % 3}-{i:04d}", ["Hannah Berg", "Luis Ortega"][i % 2], f"{2021 + i % 3}-03-0{1 + i % 9}",
         f"Service agreement number {i} for office cleaning, catering and the upkeep of the reception area.")
        for i in range(40)])
    connection.commit()
    connection.close()
    source = source_of(path, "contracts")
    assert (source.roles.id, source.roles.title) == (None, "contract_ref")
    profile = source.profile()
    assert profile.id_column == "contract_ref" and not profile.id_is_number
    assert re.fullmatch(profile.id_shape, "CT-2023-0442") and not re.fullmatch(profile.id_shape, "2023")


def test_titles_that_are_no_codes_name_no_rows(articles_db: Path) -> None:
    source = source_of(articles_db)
    assert source.roles.title == "title" and source.profile().id_column != "title"  # (headlines share no shape)


@pytest.mark.parametrize(("values", "integers", "shape"), [
    (["R-035871", "R-000001"], False, r"R\-\d{6}"),
    (["A-7", "A-12"], False, r"A\-\d+"),  # (different lengths)
    ([1, 61], True, r"\d{1,2}"),
    (["abc", "def"], False, None),  # words are no ids
    (["2023-01-01"], False, None),  # nor dates
    (["R-1", "Q-2"], False, None),  # nor values of different shapes
])
def test_the_shape_of_row_ids(values: list[object], integers: bool, shape: str | None) -> None:
    assert id_shape(values, integers=integers) == shape


def test_high_cardinality_column_is_not_a_category(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    write_db(path, "CREATE TABLE docs (id INTEGER PRIMARY KEY, title TEXT, body TEXT, type TEXT)")
    for i in range(25):
        write_db(path, "INSERT INTO docs VALUES (?, ?, ?, ?)",
                 (i, f"Doc {i}", f"Body of document number {i} with several words in it.", f"type-{i}"))
    assert source_of(path, "docs").roles.category is None


def test_role_override_from_settings(tickets_db: Path) -> None:
    settings = Settings(column_roles="category=priority, authors=assignee")
    source = source_of(tickets_db, "tickets", role_overrides=settings.role_overrides())
    assert source.roles.category == "priority"
    assert source.roles.authors == "assignee"
    assert set(source.profile().categories) == set(PRIORITIES)


@pytest.mark.parametrize(
    ("overrides", "words"),
    [({"category": "no_such_column"}, ["no_such_column", "tickets"]),
     ({"colour": "status"}, ["colour", "roles"])],
)
def test_bad_role_override_is_a_config_error(tickets_db: Path, overrides: dict[str, str],
                                             words: list[str]) -> None:
    with pytest.raises(ConfigError) as info:
        source_of(tickets_db, "tickets", role_overrides=overrides)
    for word in words:
        assert word in str(info.value)


# --------------------------------------------------------------------------- read-only and missing things


@pytest.mark.parametrize(
    "statement",
    ["INSERT INTO articles (url, title) VALUES ('x', 'y')",
     "DELETE FROM articles",
     "UPDATE articles SET title = 'hacked'",
     "CREATE TABLE evil (x TEXT)",
     "DROP TABLE articles"],
)
def test_connection_is_read_only(articles_db: Path, statement: str) -> None:
    before = sha256_file(articles_db)
    source = source_of(articles_db)
    with pytest.raises(sa.exc.OperationalError, match="readonly|read-only|query_only"), \
            source.engine.begin() as connection:
        connection.exec_driver_sql(statement)
    source.close()
    assert sha256_file(articles_db) == before


def test_run_select_of_a_write_is_a_query_failed(articles_db: Path) -> None:
    before = sha256_file(articles_db)
    source = source_of(articles_db)
    with pytest.raises(QueryFailed):
        source.run_select("DELETE FROM articles")
    assert source.count_rows() == 8
    assert sha256_file(articles_db) == before


def test_missing_file_is_database_unavailable(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "gone.db"
    with pytest.raises(DatabaseUnavailable) as info:
        source_of(missing)
    assert str(missing) in str(info.value)
    assert not missing.exists()  # never created by the attempt


def test_missing_table_is_a_config_error_listing_tables(articles_db: Path) -> None:
    with pytest.raises(ConfigError) as info:
        source_of(articles_db, "posts")
    assert "posts" in str(info.value)
    assert "articles" in str(info.value)


# --------------------------------------------------------------------------- bad bytes and row keys


def test_invalid_utf8_is_replaced_with_a_note(articles_db: Path) -> None:
    write_db(articles_db, "INSERT INTO articles VALUES ('https://x/bad', 'Bad bytes', '', '2023-02-01', 'Tech', 1, "
                          "CAST(x'48656c6cff6f' AS TEXT))")
    source = source_of(articles_db)
    row = next(r for r in source.iter_rows() if r.key == "https://x/bad")
    assert row.content == "Hell\ufffdo"
    assert "invalid UTF-8 replaced" in row.notes
    # SQL results decode the same way instead of failing.
    result = source.run_select("SELECT full_content FROM articles WHERE url = 'https://x/bad'")
    assert result.rows == [["Hell\ufffdo"]]


def test_nul_bytes_are_stripped_with_a_note(articles_db: Path) -> None:
    write_db(articles_db, "INSERT INTO articles VALUES (?, ?, ?, ?, ?, ?, ?)",
             ("https://x/nul", "Nul\x00title", "", "2023-02-02", "Tech", 2, "Before\x00after the NUL."))
    source = source_of(articles_db)
    row = next(r for r in source.iter_rows() if r.key == "https://x/nul")
    assert row.content == "Beforeafter the NUL."
    assert row.title == "Nultitle"
    assert "NUL bytes removed" in row.notes


def test_table_without_unique_key_gets_stable_hash_keys(tmp_path: Path) -> None:
    path = tmp_path / "posts.db"
    write_db(path, "CREATE TABLE posts (url TEXT, title TEXT, body TEXT)")
    rows = [("https://x/same", "First post", "Hello world."),
            ("https://x/same", "Second post", "Another body."),  # url not unique
            ("https://x/other", "Third post", "Third body.")]
    for row in rows:
        write_db(path, "INSERT INTO posts VALUES (?, ?, ?)", row)
    first, second = source_of(path, "posts"), source_of(path, "posts")
    assert first.key_columns == []
    keys_first = {r.title: r.key for r in first.iter_rows()}
    keys_second = {r.title: r.key for r in second.iter_rows()}
    assert keys_first == keys_second
    assert len(set(keys_first.values())) == 3
    # The key does not depend on row order.
    write_db(path, "DELETE FROM posts WHERE title = 'First post'")
    write_db(path, "INSERT INTO posts VALUES (?, ?, ?)", rows[0])
    assert {r.title: r.key for r in source_of(path, "posts").iter_rows()} == keys_first


def test_duplicate_titles_have_distinct_keys(articles_db: Path) -> None:
    keys = [r.key for r in source_of(articles_db).iter_rows() if r.title == DUPLICATE_TITLE]
    assert len(keys) == 2 and len(set(keys)) == 2


def test_source_row_metadata_never_holds_the_content(articles_db: Path) -> None:
    for row in source_of(articles_db).iter_rows():
        assert "full_content" not in row.metadata
        assert row.metadata["url"] == row.key


# --------------------------------------------------------------------------- guarded execution


def test_run_select_shows_floats_without_binary_rounding_noise(articles_db: Path) -> None:
    """A total of prices printed 234420.31999999998: results carry a float's 15 significant digits (0.1 + 0.2 is
    0.3), integers and exact floats unchanged."""
    source = source_of(articles_db)
    result = source.run_select("SELECT 0.1 + 0.2, 234420.31999999998, 7, 2.5, 1e308 * 10 FROM articles LIMIT 1")
    assert result.rows == [[0.3, 234420.32, 7, 2.5, float("inf")]]


def test_run_select_shows_differences_of_large_sums_without_cancellation_noise(articles_db: Path) -> None:
    """The difference of two regions' totals printed 71652.6700000009 (and -84233.8899999987) in the results table:
    the digits after a run of six zeros or nines are noise of the subtraction; small and exact values keep theirs."""
    source = source_of(articles_db)
    result = source.run_select("SELECT 5293781.17 - 5222128.5, -84233.8899999987, 0.000123, 1000000.5, "
                               "2.0 / 3, 0.0000001 FROM articles LIMIT 1")
    assert result.rows == [[71652.67, -84233.89, 0.000123, 1000000.5, 0.666666666666667, 1e-07]]


def test_run_select_caps_rows_and_cells(articles_db: Path) -> None:
    source = source_of(articles_db, max_rows=3, max_cell_chars=50)
    result = source.run_select("SELECT title, full_content FROM articles ORDER BY url")
    assert result.columns == ["title", "full_content"]
    assert len(result.rows) == 3
    assert result.row_limit_hit is True
    assert result.truncated_cells == 3  # every content is longer than 50 characters
    for _title, content in result.rows:
        assert len(content) == 51 and content.endswith("…")
    exact = source.run_select("SELECT title FROM articles ORDER BY url LIMIT 3")
    assert len(exact.rows) == 3 and exact.row_limit_hit is False and exact.truncated_cells == 0


def test_statement_time_limit(articles_db: Path) -> None:
    source = source_of(articles_db, timeout_s=0.3)
    started = time.monotonic()
    with pytest.raises(QueryFailed, match=r"0\.3 s"):
        source.run_select("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000) "
                          "SELECT count(*) FROM c")
    assert time.monotonic() - started < 3
    # The connection is usable again afterwards.
    assert source.run_select("SELECT count(*) FROM articles").rows == [[8]]


def test_locked_database_is_database_unavailable(articles_db: Path) -> None:
    source = source_of(articles_db, timeout_s=0.05)
    locker = sqlite3.connect(articles_db, isolation_level=None)
    try:
        locker.execute("BEGIN EXCLUSIVE")
        with pytest.raises(DatabaseUnavailable, match="locked") as info:
            source.run_select("SELECT count(*) FROM articles")
        assert isinstance(info.value, RagError)
        assert not isinstance(info.value, sa.exc.SQLAlchemyError)
    finally:
        locker.execute("ROLLBACK")
        locker.close()
    assert source.run_select("SELECT count(*) FROM articles").rows == [[8]]


def test_opening_a_locked_database_is_database_unavailable(articles_db: Path) -> None:
    locker = sqlite3.connect(articles_db, isolation_level=None)
    try:
        locker.execute("BEGIN EXCLUSIVE")
        with pytest.raises(DatabaseUnavailable):
            source_of(articles_db, timeout_s=0.05)
    finally:
        locker.execute("ROLLBACK")
        locker.close()


# --------------------------------------------------------------------------- profile and description


def test_profile(articles_db: Path) -> None:
    profile = source_of(articles_db).profile()
    assert profile.row_count == 8
    assert profile.categories == {"Business": 2, "Environment": 2, "Health": 1, "Politics": 1, "Sports": 2}
    assert profile.authors["John Smith"] == 2
    assert profile.authors["Aisha Khan"] == 2
    assert profile.authors["Li Wei"] == 1
    assert "" not in profile.authors
    assert not any(";" in name for name in profile.authors)
    assert profile.date_min == "2018-11-05 10:15:00"
    assert profile.date_max == "2023-09-28 16:20:00"
    assert profile.numeric_ranges["word_count"][1] > 1000


def test_describe_mentions_categories_and_roles(articles_db: Path) -> None:
    text = source_of(articles_db).describe()
    for category in ("Business", "Environment", "Health", "Politics", "Sports"):
        assert category in text
    assert "8 rows" in text
    assert "role: content" in text
    assert "2018-11-05" in text and "2023-09-28" in text


@pytest.mark.parametrize(
    ("value", "names"),
    [("A; B", ["A", "B"]), ("Jane Doe", ["Jane Doe"]), ("", []), (None, []),
     ("Ann Lee | Bo Chen", ["Ann Lee", "Bo Chen"]), ("Ann Lee and Bo Chen", ["Ann Lee", "Bo Chen"])],
)
def test_split_authors(value: str | None, names: list[str]) -> None:
    assert split_authors(value) == names


# --------------------------------------------------------------------------- regressions of reported bugs


def test_path_with_hash_sign_opens_that_file_read_only(tmp_path: Path) -> None:
    from conftest import make_articles_db

    db = make_articles_db(tmp_path / "reports #1.db")
    before = sorted(p.name for p in tmp_path.iterdir())
    try:
        source = source_of(db)
        assert source.count_rows() == 8
    finally:
        assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing created beside it


@pytest.mark.parametrize("sql", ["PRAGMA query_only = OFF", "   "])
def test_run_select_of_a_statement_without_rows_is_a_query_failed(articles_db: Path, sql: str) -> None:
    """The statement is refused, and whatever it did to its connection, writing still fails afterwards."""
    before = sha256_file(articles_db)
    source = source_of(articles_db)
    with pytest.raises(QueryFailed, match="returned no rows"):
        source.run_select(sql)
    try:
        for _ in range(2):  # the pooled connection that ran the PRAGMA, then any other
            with source.connect() as connection:
                assert connection.exec_driver_sql("PRAGMA query_only").scalar() == 1
                with pytest.raises(sa.exc.OperationalError, match="readonly|read-only|query_only"):
                    connection.exec_driver_sql("DELETE FROM articles")
                connection.rollback()
        with pytest.raises(QueryFailed, match="readonly|read-only|query_only"):
            source.run_select("DELETE FROM articles RETURNING url")
        assert source.count_rows() == 8
    finally:
        source.close()
    assert sha256_file(articles_db) == before


def test_a_unique_column_named_like_an_identifier_is_the_row_key(tmp_path: Path) -> None:
    """No primary key and no url: a unique `<something>_id` column keys the rows (stable across re-syncs)."""
    import sqlite3

    db = tmp_path / "reviews.db"
    with sqlite3.connect(db) as connection:
        connection.execute("CREATE TABLE reviews (review_id TEXT, headline TEXT, review_text TEXT)")
        connection.executemany("INSERT INTO reviews VALUES (?, ?, ?)",
                               [("R-1", "Great value", "Works well."), ("R-2", "Great value", "Broke in a week.")])
    connection.close()
    source = TableSource(f"sqlite:///{db}", "reviews")
    assert source.key_columns == ["review_id"]
    source.close()


def test_percentile_cont_as_sqlite_defines_it() -> None:
    """The aggregate the app's SQLite connections add for medians: interpolated between the two nearest numbers,
    NULL and text ignored, NULL over no numbers; and the guard lets generated SQL call it."""
    import sqlite3

    from rag.answer.sql_guard import allowed_functions
    from rag.data.source import PercentileCont

    connection = sqlite3.connect(":memory:")
    connection.create_aggregate("percentile_cont", 2, PercentileCont)
    connection.execute("CREATE TABLE t (g TEXT, x)")
    connection.executemany("INSERT INTO t VALUES (?, ?)", [("a", 1), ("a", 2), ("a", 3), ("a", 4), ("a", None),
                                                           ("a", "n/a"), ("b", 10), ("c", None)])
    rows = connection.execute("SELECT g, percentile_cont(x, 0.5), percentile_cont(x, 0.9) FROM t GROUP BY g "
                              "ORDER BY g").fetchall()
    assert rows == [("a", 2.5, pytest.approx(3.7)), ("b", 10.0, 10.0), ("c", None, None)]
    assert "percentile_cont" in allowed_functions("sqlite")
