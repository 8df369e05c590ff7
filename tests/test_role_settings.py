"""Saved column roles: where the file lives, what wins over what, what a change does to the index, and
`python -m rag roles` / `status --json` on the command line.

Each test builds a tiny SQLite table and, where the index matters, a local Chroma index with the hashing
embedder (counted, so "nothing was embedded again" is a number, not a guess).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from conftest import CountingEmbedder, make_articles_db, settings_for

from rag.cli import main
from rag.data.index import STORED_ROLES_KEY, VectorIndex
from rag.data.role_store import change_roles, load_roles, roles_path, save_roles
from rag.data.source import TableSource
from rag.errors import ConfigError
from rag.settings import REGISTRY, Settings

ROWS = 30


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for setting in REGISTRY:
        monkeypatch.delenv(setting.env, raising=False)
    monkeypatch.setenv("RAG_EMBED_MODEL", "hashing")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def posts_db(path: Path) -> Path:
    """A table named unlike the sample, with two date columns and no primary key:
    posts(link, headline, poster, posted_at, edited_on, newsgroup, words, body)."""
    groups = ["sci.space", "rec.autos", "comp.graphics"]
    people = ["Ana Ruiz", "Ben Ode", "Cleo Marsh"]
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE posts (link TEXT, headline TEXT, poster TEXT, posted_at TEXT, "
                           "edited_on TEXT, newsgroup TEXT, words INTEGER, body TEXT)")
        connection.executemany("INSERT INTO posts VALUES (?, ?, ?, ?, ?, ?, ?, ?)", [
            (f"https://forum.example/p/{i}", f"Post {i} on the thing number {i * 7}", people[i % 3],
             f"2023-{1 + i % 12:02d}-{1 + i:02d} 10:00:00", f"2024-{1 + i % 12:02d}-{1 + i:02d} 08:00:00",
             groups[i % 3], 100 + i, f"Body {i}. " + "Some words about the subject of the post. " * 10)
            for i in range(ROWS)])
    connection.close()
    return path


@pytest.fixture
def posts(tmp_path: Path) -> Settings:
    return settings_for(posts_db(tmp_path / "posts.db"), tmp_path / "index", table="posts")


def synced(settings: Settings) -> tuple[VectorIndex, CountingEmbedder]:
    embedder = CountingEmbedder()
    index = VectorIndex(settings, embedder)
    index.sync(TableSource.from_settings(settings))
    embedder.reset()
    return index, embedder


# ---------------------------------------------------------------- the file and precedence


def test_detected_roles_of_the_posts_table(posts: Settings) -> None:
    roles = TableSource.from_settings(posts).roles
    assert (roles.content, roles.title, roles.date, roles.url, roles.authors, roles.category) == (
        "body", "headline", "posted_at", "link", "poster", "newsgroup")
    assert roles.missing() == []


def test_the_file_lives_beside_the_index_also_with_a_chroma_server(posts: Settings) -> None:
    path = roles_path(posts)
    assert path.parent == Path(posts.index_dir) and path.name.startswith("roles-posts-")
    # With CHROMA_HOST Chroma does not use RAG_INDEX_DIR; the product keeps its own files there.
    server = posts.replace(chroma_host="chroma.internal", chroma_port=8000)
    assert roles_path(server) == path
    save_roles(server, {"edited_on": "date"})
    assert TableSource.from_settings(server).roles.date == "edited_on"  # opening the table needs no server
    # Another database with a table of the same name does not share the choices.
    assert roles_path(posts.replace(db_url="sqlite:///elsewhere.db")) != path


def test_saved_roles_apply_when_the_table_is_opened_and_the_setting_wins(posts: Settings) -> None:
    save_roles(posts, {"edited_on": "date", "poster": "categorical", "words": "none"})
    source = TableSource.from_settings(posts)
    assert source.roles.date == "edited_on" and source.roles.authors is None
    assert "poster" in source.roles.categorical and source.roles.numeric == []
    assert source.role_set_by == {"edited_on": "saved", "poster": "saved", "words": "saved"}
    assert source.roles.evidence["edited_on"].startswith("date (set by override); ")
    assert source.roles.missing() == ["authors"]

    # RAG_COLUMN_ROLES (or --columns) wins for its role and its column; the other saved choices stay.
    explicit = TableSource.from_settings(posts.replace(column_roles="date=posted_at,authors=poster"))
    assert explicit.roles.date == "posted_at" and explicit.roles.authors == "poster"
    assert explicit.roles.numeric == [] and explicit.role_set_by == {
        "words": "saved", "posted_at": "RAG_COLUMN_ROLES", "poster": "RAG_COLUMN_ROLES"}


def test_a_saved_column_the_table_lost_is_ignored(posts: Settings) -> None:
    save_roles(posts, {"gone": "title", "edited_on": "date"})
    source = TableSource.from_settings(posts)
    assert source.roles.title == "headline" and source.roles.date == "edited_on"
    assert source.ignored_roles == ["gone"]


@pytest.mark.parametrize("text", ["{not json", '{"columns": {"headline": "headliner"}}', "[]"])
def test_an_unusable_file_is_one_clear_error(posts: Settings, text: str) -> None:
    roles_path(posts).parent.mkdir(parents=True)
    roles_path(posts).write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match="roles --reset"):
        load_roles(posts)


def test_invalid_choices_are_refused_and_the_file_is_left_alone(posts: Settings) -> None:
    source = TableSource.from_settings(posts)
    change_roles(posts, source, {"edited_on": "date"})
    before = roles_path(posts).read_text(encoding="utf-8")
    for choices, message in [({"nope": "title"}, "not in table"), ({"headline": "heading"}, "Unknown column role"),
                             ({c: "none" for c in ("link", "headline", "poster", "posted_at", "edited_on", "newsgroup",
                                                    "body")}, "no text column"),
                             ({"headline": "numeric"}, "not numbers")]:
        with pytest.raises(ConfigError, match=message):
            change_roles(posts, TableSource.from_settings(posts), choices)
        assert roles_path(posts).read_text(encoding="utf-8") == before
    # Two columns cannot share a single role in the file either (hand-edited).
    save_roles(posts, {"headline": "title", "body": "title"})
    with pytest.raises(ConfigError, match="both set to title"):
        TableSource.from_settings(posts)


def test_choosing_a_role_moves_it_from_the_column_that_had_it(posts: Settings) -> None:
    change = change_roles(posts, TableSource.from_settings(posts), {"edited_on": "date"})
    assert ("edited_on", "none", "date") in change.changed and ("posted_at", "date", "none") in change.changed
    change = change_roles(posts, TableSource.from_settings(posts), {"posted_at": "date"})
    assert load_roles(posts) == {"posted_at": "date"}  # edited_on's saved 'date' was dropped, not duplicated
    change = change_roles(posts, TableSource.from_settings(posts), {}, reset=True)
    assert not roles_path(posts).exists() and change.saved == {}


# ---------------------------------------------------------------- what a change does to the index


@pytest.mark.parametrize("choices", [{"headline": "none"}, {"body": "none", "headline": "content"}],
                         ids=["title", "content"])
def test_a_title_or_content_change_makes_every_row_stale_and_index_re_embeds(posts: Settings,
                                                                           choices: dict[str, str]) -> None:
    index, embedder = synced(posts)
    change = change_roles(posts, TableSource.from_settings(posts), choices)
    assert change.reindex and "embedded again" in change.reindex[0]
    source = TableSource.from_settings(posts)
    status = index.status(source)
    assert status.stale == ROWS and not status.healthy
    report = index.sync(source)
    assert report.changed == ROWS and embedder.count > 0
    assert index.status(source).healthy


def test_a_date_change_rewrites_the_stored_dates(posts: Settings) -> None:
    index, _ = synced(posts)
    collection = index.collection()
    assert json.loads(collection.metadata[STORED_ROLES_KEY]) == {"authors": "poster", "date": "posted_at"}
    change = change_roles(posts, TableSource.from_settings(posts), {"edited_on": "date"})
    assert change.reindex == ["the date column changed (stored with each chunk): every row is written again"]
    source = TableSource.from_settings(posts)
    status = index.status(source)
    assert status.stale == ROWS and "date column posted_at → edited_on" in (status.stale_reason or "")
    report = index.sync(source)
    assert report.changed == ROWS and report.roles_changed
    years = {m["year"] for m in index.collection().get(include=["metadatas"])["metadatas"]}
    assert years == {2024}  # edited_on, no longer posted_at (2023)
    assert index.status(source).healthy and index.sync(source).unchanged == ROWS


@pytest.mark.parametrize("choices", [{"newsgroup": "none"}, {"edited_on": "categorical"}, {"words": "none"}],
                         ids=["category-none", "categorical", "numeric"])
def test_a_category_or_numeric_change_reindexes_nothing(posts: Settings, choices: dict[str, str]) -> None:
    index, embedder = synced(posts)
    change = change_roles(posts, TableSource.from_settings(posts), choices)
    source = TableSource.from_settings(posts)
    assert change.changed and change.reindex == []
    assert index.status(source).healthy
    report = index.sync(source)
    assert report.unchanged == ROWS and report.changed == 0 and embedder.count == 0


def test_a_url_change_rekeys_rows_without_a_primary_key(posts: Settings) -> None:
    index, _ = synced(posts)
    change = change_roles(posts, TableSource.from_settings(posts), {"link": "none"})
    assert any("keyed by other columns" in reason for reason in change.reindex)
    status = index.status(TableSource.from_settings(posts))
    assert status.missing == ROWS and status.orphaned == ROWS


def test_a_collection_from_before_roles_were_recorded_is_not_stale(posts: Settings) -> None:
    index, embedder = synced(posts)
    collection = index.collection()
    metadata = {k: v for k, v in collection.metadata.items() if k != STORED_ROLES_KEY}
    collection.modify(metadata=metadata)
    source = TableSource.from_settings(posts)
    assert index.status(source).healthy
    assert index.sync(source).unchanged == ROWS and embedder.count == 0
    assert STORED_ROLES_KEY in index.collection().metadata  # recorded by that sync


# ---------------------------------------------------------------- command line


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, Any]:
    code = main(args)
    out = capsys.readouterr()
    try:
        return code, json.loads(out.out)
    except json.JSONDecodeError:
        return code, out


def test_cli_roles_show_set_unset_reset(posts: Settings, capsys: pytest.CaptureFixture[str]) -> None:
    common = ["--db", posts.db_url, "--table", "posts", "--index-dir", posts.index_dir]
    code, shown = run(["roles", *common, "--json"], capsys)
    assert code == 0 and shown["change"] is None and shown["missing"] == []
    by_column = {c["column"]: c for c in shown["columns"]}
    assert by_column["newsgroup"]["role"] == "category" and by_column["newsgroup"]["set_by"] == "detected"
    assert "3 distinct values in the table" in by_column["newsgroup"]["evidence"]

    code, shown = run(["roles", *common, "--json", "--set", "date=edited_on", "--set", "none=poster"], capsys)
    assert code == 0 and shown["change"]["saved"] == {"edited_on": "date", "poster": "none"}
    assert shown["missing"] == ["authors"] and json.loads(Path(shown["path"]).read_text())["columns"] == {
        "edited_on": "date", "poster": "none"}
    assert {c["column"]: c["set_by"] for c in shown["columns"]}["edited_on"] == "saved"

    code, out = run(["roles", *common, "--unset", "poster"], capsys)
    assert code == 0 and "poster: none -> authors" in out.out and "the index needs a sync" in out.out
    assert load_roles(posts) == {"edited_on": "date"}

    code, out = run(["roles", *common, "--set", "title=nope"], capsys)
    assert code == 2 and "nope" in out.err and len(out.err.strip().splitlines()) == 1

    roles_path(posts).write_text("{broken", encoding="utf-8")
    code, out = run(["status", *common], capsys)
    assert code == 2 and "roles --reset" in out.err
    code, out = run(["roles", *common, "--reset"], capsys)
    assert code == 0 and not roles_path(posts).exists()


def test_cli_status_reports_evidence_and_index_resyncs_after_a_title_change(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = make_articles_db(tmp_path / "articles.db")
    common = ["--db", f"sqlite:///{db}", "--index-dir", str(tmp_path / "index"), "--json"]
    assert run(["index", *common], capsys)[0] == 0
    code, status = run(["status", *common], capsys)
    assert code == 0 and status["roles"]["title"] == "title"
    evidence = {c["column"]: c["evidence"] for c in status["columns"]}
    assert evidence["article_category"].startswith("category (main): 5 distinct values in the table")
    assert "look like names" in evidence["authors"] and status["missing_roles"] == []

    assert run(["roles", *common, "--set", "none=article_category"], capsys)[0] == 0  # a category change
    code, status = run(["status", *common], capsys)
    assert code == 0 and status["stale"] == 0 and status["missing_roles"] == ["category"]
    code, report = run(["index", *common], capsys)
    assert report["unchanged"] == 8 and report["chunks_added"] == 0

    assert run(["roles", *common, "--set", "content=title"], capsys)[0] == 0  # a content (and title) change
    code, status = run(["status", *common], capsys)
    assert code == 1 and status["stale"] == 8 and status["roles"]["content"] == "title"
    code, report = run(["index", *common], capsys)
    assert code == 0 and report["changed"] == 8 and report["chunks_added"] > 0
    assert run(["status", *common], capsys)[0] == 0
