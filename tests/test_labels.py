"""Human labels for columns (#13): derived from names, saved with the column roles, used by answers and readings.

The end-to-end tests build a tiny SQLite table with the sample's column names and answer through the Assistant
(offline engine; no index needed for SQL answers).
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import answer_body, make_articles_db, settings_for

from rag.assistant import Assistant
from rag.cli import main
from rag.data.labels import derive_label, heading, label_of, reading_labels, title_case
from rag.data.role_store import change_roles, load_labels, load_roles, roles_path, roles_report, save_roles
from rag.data.source import TableSource
from rag.settings import Settings


@pytest.mark.parametrize(("column", "table", "label"), [
    ("article_category", "articles", "category"),  # the row noun is not repeated
    ("published_date", "articles", "published date"),
    ("word_count", "articles", "word count"),
    ("url", "articles", "URL"),
    ("ticket_id", "support_tickets", "ID"),
    ("opened_at", "tickets", "opened"),  # "at"/"on" only mark a date
    ("reviewed_on", "reviews", "reviewed"),
    ("helpfulVotes", "reviews", "helpful votes"),  # camelCase
    ("article", "articles", "article"),  # a name that is only the row noun stays
    ("![x](y) :red[n]", "t", "![x](y) :red[n]"),  # an alias with punctuation is shown as written
])
def test_derived_labels(column: str, table: str, label: str) -> None:
    assert derive_label(column, table) == label


@pytest.mark.parametrize(("alias", "label"), [
    ("article_count", "number of articles"),
    ("avg_word_count", "average length"),  # the measure's own label
    ("total_word_count", "total length"),
    ("max_word_count", "highest length"),
    ("share_pct", "share (%)"),
    ("matching_article_count", "number of matching articles"),  # the part of a share, beside its whole
    ("word_count", "length"),  # a column, not a count of words
    ("ticket_count", "ticket count"),  # a column of a table whose rows are not tickets
    ("article_category", "section"),
])
def test_result_aliases_read_as_what_they_measure(alias: str, label: str) -> None:
    labels = {"word_count": "length", "article_category": "section"}
    assert label_of(alias, labels, "articles") == label


def test_headings_and_title_case() -> None:
    assert heading("published date") == "Published date"
    assert title_case("number of articles by year and category") == "Number of Articles by Year and Category"
    assert title_case("share (%) per URL") == "Share (%) per URL"


def test_the_planners_dimensions_read_as_the_columns_behind_them() -> None:
    """'per category' on a ticket table whose main category is `status` reads 'per status'; 'per author' reads
    the authors column's label, singular when derived ('authors' -> 'author'), as saved otherwise."""
    roles = SimpleNamespace(category="status", authors="assignee")
    labels = {"status": "status", "assignee": "assignee", "opened_at": "opened"}
    assert reading_labels(labels, roles, "tickets") == {**labels, "category": "status", "author": "assignee"}
    sample = SimpleNamespace(category="article_category", authors="authors")
    derived = {"article_category": "category", "authors": "authors"}
    assert reading_labels(derived, sample, "articles") == {**derived, "category": "category", "author": "author"}
    saved = {"article_category": "section", "authors": "writers"}
    assert reading_labels(saved, sample, "articles") == {**saved, "category": "section", "author": "writers"}


# ---------------------------------------------------------------- saved with the column roles


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return settings_for(make_articles_db(tmp_path / "articles.db"), tmp_path / "index")


def test_labels_are_saved_beside_the_roles_and_survive_role_changes(settings: Settings) -> None:
    source = TableSource.from_settings(settings)
    assert source.labels["article_category"] == "category"
    change_roles(settings, source, {}, labels={"article_category": "Section", "word_count": "  "})
    assert load_labels(settings) == {"article_category": "Section"}
    assert TableSource.from_settings(settings).labels["article_category"] == "Section"
    # a role change keeps the labels; saving the derived label (or an empty one) forgets the saved one
    change_roles(settings, TableSource.from_settings(settings), {"word_count": "none"})
    assert load_labels(settings) == {"article_category": "Section"} and load_roles(settings) == {"word_count": "none"}
    change_roles(settings, TableSource.from_settings(settings), {}, reset=True, labels={"article_category": "category"})
    assert load_labels(settings) == {} and not roles_path(settings).exists()


def test_a_labels_only_file_is_kept_and_read(settings: Settings) -> None:
    save_roles(settings, {}, {"published_date": "Date"})
    assert load_roles(settings) == {} and load_labels(settings) == {"published_date": "Date"}
    report = roles_report(TableSource.from_settings(settings), settings)
    assert {c.column: c.label for c in report.columns}["published_date"] == "Date"  # the Data page shows it


def test_answers_and_readings_speak_in_labels(settings: Settings) -> None:
    assistant = Assistant.build(settings)
    turn = assistant.ask("How many politics articles per year and category?")
    assert turn.result.interpretation.restatement() == "Counted articles · category: Politics · per year and category"
    body = answer_body(turn)
    assert "article_category" not in turn.answer and "article\\_category" not in turn.answer
    assert body.startswith("2023, Politics: 1 article (category: Politics).")

    save_roles(settings, {}, {"article_category": "section"})
    relabelled = Assistant.build(settings).ask("How many articles per category?")
    assert relabelled.result.interpretation.restatement() == "Counted articles · per section"
    assert answer_body(relabelled).startswith("5 groups by section; highest number of articles: Business, Environment "
                                              "and Sports (2 each); lowest: Health and Politics (1 each).")


def test_cli_roles_label_sets_a_label_that_ask_uses(settings: Settings, capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAG_COLUMN_ROLES", raising=False)
    common = ["--db", settings.db_url, "--table", settings.table, "--index-dir", settings.index_dir]
    assert main(["roles", *common, "--label", "article_category=section", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["change"]["relabelled"] == [["article_category", "category", "section"]]
    assert {c["column"]: c["label"] for c in shown["columns"]}["article_category"] == "section"
    assert main(["ask", "How many articles per category?", *common, "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["interpretation"] == "Counted articles · per section"
    assert answer["answer"].startswith("_Counted articles · per section_\n\n5 groups by section;")
    assert main(["roles", *common, "--label", "article_category="]) == 0  # back to the derived label
    assert "article_category reads 'category' (was 'section')" in capsys.readouterr().out
    assert load_labels(settings) == {}


def test_the_facade_gives_pages_headers_and_overview_titles_in_labels(settings: Settings) -> None:
    assistant = Assistant.build(settings)
    assert assistant.column_headers(["article_category", "article_count", "url"]) == [
        "Category", "Number of articles", "URL"]
    assert assistant.column_headers(["category", "article_category"]) == ["category", "article_category"]  # same
    assert assistant.overview_titles("category") == (
        "Articles by Category", {"category": "Category", "articles": "Number of articles"})
    assert assistant.overview_titles("month")[0] == "Articles by Month"
    save_roles(settings, {}, {"article_category": "section"})
    assert Assistant.build(settings).overview_titles("category")[0] == "Articles by Section"


def test_cli_listing_names_its_rows_once_under_sources(settings: Settings, capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAG_COLUMN_ROLES", raising=False)
    common = ["--db", settings.db_url, "--table", settings.table, "--index-dir", settings.index_dir]
    assert main(["ask", "List all articles", *common]) == 0
    lines = capsys.readouterr().out.splitlines()
    found = next(i for i, line in enumerate(lines) if line.startswith("Found "))
    assert lines[found] == "Found 8 articles." and lines[found + 3] == "Sources:"  # after the SQL note
    titles = [line for line in lines if line.startswith("  [")]
    assert len(titles) == 8 and titles[0].startswith("  [1] ")
    assert not any(line.startswith("- ") for line in lines)  # no bullets repeating the titles


def test_a_derived_end_date_reads_as_what_it_adds_up() -> None:
    """The rows' end ("signed_on + term_months", `ColumnRoles.end`) is no column of the table: its label says how it
    is computed."""
    assert derive_label("signed_on + term_months", "contracts") == "end (signed + term months)"
    assert derive_label("start_date + duration_days") == "end (start date + duration days)"
