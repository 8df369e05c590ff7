"""The Data page's column roles through AppTest: each column with its role, evidence and a control; a change is
saved beside the index, applied at once (a new assistant), re-syncs the index only when the stored chunks
depend on it; the chat's welcome names missing roles and links to the Data page.

Settings reach the app only through environment variables (a tiny SQLite table, an index built with the
hashing embedder in the test's own directory, offline provider).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import indexed_articles, settings_for
from streamlit.testing.v1 import AppTest

from rag.data.embeddings import HashingEmbedder
from rag.data.index import VectorIndex
from rag.data.role_store import roles_path
from rag.data.source import TableSource

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
TIMEOUT = 90


@pytest.fixture
def app_world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The sample articles and their index, one per test (a test writes its own roles file)."""
    _, settings = indexed_articles(tmp_path)
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    monkeypatch.delenv("RAG_COLUMN_ROLES", raising=False)
    for name, value in {"RAG_DB_URL": settings.db_url, "RAG_INDEX_DIR": settings.index_dir,
                        "RAG_EMBED_MODEL": "hashing", "RAG_PROVIDER": "offline"}.items():
        monkeypatch.setenv(name, value)
    return {"settings": settings}


def data_page() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    assert not at.exception, at.exception
    at.switch_page("pages/data.py").run()
    assert not at.exception, at.exception
    return at


def role_box(at: AppTest, column: str) -> Any:
    return at.selectbox(key=f"data_role::{column}")


def save(at: AppTest) -> AppTest:
    at.button(key="data_roles_save").click().run()
    assert not at.exception, at.exception
    return at


def shown(at: AppTest) -> str:
    parts = [e.value for kind in ("markdown", "caption", "success", "warning", "info", "error")
             for e in at.main.get(kind) if isinstance(getattr(e, "value", None), str)]
    return "\n".join(parts)


def current_roles(at: AppTest) -> Any:
    """The roles of the assistant the app uses now (built on this run)."""
    from ui import engine

    return engine.assistant().source.roles


def test_each_column_shows_its_role_evidence_and_a_control(app_world: dict[str, Any]) -> None:
    at = data_page()
    expected = {"url": "url", "title": "title", "authors": "authors", "published_date": "date",
                "article_category": "category", "word_count": "numeric", "full_content": "content"}
    for column, role in expected.items():
        box = role_box(at, column)
        assert box.value == role, column
        assert {"content", "title", "date", "category", "authors", "url", "id", "categorical", "numeric",
                "none"} == set(box.options)
    text = shown(at)
    assert "category (main): 5 distinct values in the table" in text  # the evidence, per column
    assert "look like names" in text and "100% dates" in text and "100% urls" in text
    assert "No column of this table is recognised" not in text  # nothing important is missing


def test_a_category_change_is_saved_applied_and_reindexes_nothing(app_world: dict[str, Any]) -> None:
    settings = app_world["settings"]
    at = data_page()
    role_box(at, "article_category").set_value("none")
    save(at)
    # Saved beside the index, only the changed column.
    saved = json.loads(roles_path(settings).read_text(encoding="utf-8"))
    assert saved["columns"] == {"article_category": "none"}
    assert Path(settings.index_dir) in roles_path(settings).parents
    # Applied: the page now runs on an assistant built with the new roles.
    roles = current_roles(at)
    assert roles.category is None and roles.categorical == [] and roles.authors == "authors"
    assert role_box(at, "article_category").value == "none"
    text = shown(at)
    assert "Nothing to re-index" in text
    assert "article\\_category: category → **none**" in text  # the column name escaped once
    assert "No column of this table is recognised as the **category**" in text  # now missing: said on the page
    assert any(m.label == "Stale" and m.value == "0" for m in at.main.metric)  # the index is still in sync
    assert "The index is up to date" in shown(at)

    # The chat's welcome says so too, and links to the Data page.
    at.switch_page("pages/chat.py").run()
    assert not at.exception, at.exception
    assert any("recognised as the **category**" in i.value for i in at.main.info)
    links = at.main.get("page_link")
    assert any(link.proto.page == "data" and "Column roles" in link.proto.label for link in links), links

    # Back to detection: the file is removed and the role detected again.
    at.switch_page("pages/data.py").run()
    at.button(key="data_roles_reset").click().run()
    assert not at.exception, at.exception
    assert not roles_path(settings).exists()
    assert current_roles(at).category == "article_category"
    assert role_box(at, "article_category").value == "category"


def test_a_title_change_makes_the_index_stale_until_synced(app_world: dict[str, Any]) -> None:
    settings = app_world["settings"]
    at = data_page()
    role_box(at, "title").set_value("none")
    save(at)
    assert json.loads(roles_path(settings).read_text(encoding="utf-8"))["columns"] == {"title": "none"}
    assert current_roles(at).title != "title"
    text = shown(at)
    assert "The search index needs a sync" in text and "the title column changed" in text
    metrics = {m.label: m.value for m in at.main.metric}
    assert metrics["Stale"] == "8" and metrics["Missing"] == "0"  # titles are embedded with every chunk

    at.button(key="data_sync").click().run()
    assert not at.exception, at.exception
    assert at.session_state["data_last_sync"]["changed"] == 8
    assert "The index is up to date" in shown(at)


def test_an_epoch_date_is_shown_with_its_evidence_and_a_number_that_is_no_date_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """items(item_id INTEGER PRIMARY KEY, ..., posted_at epoch seconds, ..., length): the Data page shows the
    detected date with its evidence and its range as dates; choosing `length` (word counts) as the date is
    refused with a message, and the saved roles stay as they were."""
    from test_epoch_dates import items_db

    settings = settings_for(items_db(tmp_path / "items.db"), tmp_path / "index", table="items")
    source = TableSource.from_settings(settings)
    VectorIndex(settings, HashingEmbedder()).sync(source)
    source.close()
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    monkeypatch.delenv("RAG_COLUMN_ROLES", raising=False)
    for name, value in {"RAG_DB_URL": settings.db_url, "RAG_TABLE": "items", "RAG_INDEX_DIR": settings.index_dir,
                        "RAG_EMBED_MODEL": "hashing", "RAG_PROVIDER": "offline"}.items():
        monkeypatch.setenv(name, value)
    at = data_page()
    assert role_box(at, "posted_at").value == "date" and role_box(at, "item_id").value == "id"
    assert role_box(at, "length").value == "numeric"
    assert "values are epoch seconds (Unix timestamps, read in UTC)" in shown(at)
    assert {m.label: m.value for m in at.main.metric}["Dates"] == "2018-11-05 → 2023-09-28"
    assert "The index is up to date" in shown(at)  # integer keys: every row indexed and found again

    role_box(at, "length").set_value("date")
    save(at)
    assert any("not Unix timestamps" in e.value for e in at.main.error), [e.value for e in at.main.error]
    assert not roles_path(settings).exists() and current_roles(at).date == "posted_at"


def test_a_label_is_edited_with_the_roles_and_answers_use_it(app_world: dict[str, Any]) -> None:
    """#13: each column's label (derived from its name) is editable beside its role; saved, the chat's readings,
    answers and charts call the column by it."""
    settings = app_world["settings"]
    at = data_page()
    assert at.text_input(key="data_label::article_category").value == "category"  # derived, not the name
    assert at.text_input(key="data_label::published_date").value == "published date"
    at.text_input(key="data_label::article_category").set_value("section")
    save(at)
    saved = json.loads(roles_path(settings).read_text(encoding="utf-8"))
    assert saved == {**saved, "columns": {}, "labels": {"article_category": "section"}}
    assert "Labels saved and applied" in shown(at) and "article\\_category reads “section”" in shown(at)
    assert at.text_input(key="data_label::article_category").value == "section"

    at.switch_page("pages/chat.py").run()
    at.chat_input[0].set_value("How many articles per category?").run()
    assert not at.exception, at.exception
    turn = at.session_state["turns"][-1]
    assert turn.answer.startswith("_Counted articles · per section_") and "groups by section" in turn.answer
    assert turn.chart.title == "Number of Articles by Section" and turn.chart.labels["article_category"] == "Section"
