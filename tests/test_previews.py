"""The Data page's overview queries: built for the dialect, checked by the guard, run through the facade."""

from __future__ import annotations

from pathlib import Path

from conftest import make_articles_db, settings_for, sha256_file

from rag.assistant import Assistant
from rag.data import previews


def test_overviews_pass_the_guard_and_count_rows(tmp_path: Path) -> None:
    db = make_articles_db(tmp_path / "a.db")
    before = sha256_file(db)
    assistant = Assistant.build(settings_for(db, tmp_path / "index"))
    by_category = assistant.overview("category")
    assert by_category is not None and by_category.columns == ["category", "articles"]
    assert sum(row[1] for row in by_category.rows) == 8 and by_category.rows[0][1] == 2
    by_month = assistant.overview("month")
    assert by_month is not None
    assert by_month.rows[0] == ["2018-11", 1] and sum(row[1] for row in by_month.rows) == 8
    assert assistant.overview("weekday") is None
    assert sha256_file(db) == before


def test_month_sql_is_portable_to_postgres() -> None:
    sql = previews.month_counts_sql("articles", "published_date", "postgresql")
    assert "CAST(\"published_date\" AS TEXT)" in sql and "FROM 1 FOR 7" in sql
