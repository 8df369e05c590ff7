"""The app's own store (rag/history.py) on a SQLite file in tmp_path: real turns from an assistant over a tiny
table (hashing embedder) are saved, loaded back equal, rated, searched, expired and deleted; with the store off
nothing is written and no file appears; the source database is refused as the store.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest
from conftest import make_articles_db, settings_for, sha256_file

from rag.assistant import Assistant
from rag.data.index import VectorIndex
from rag.data.source import TableSource
from rag.errors import ConfigError
from rag.history import History, StoreUnavailable, store_url, turn_from_json, turn_to_json
from rag.models import Conversation, PlanEdit, Turn
from rag.providers import build_embedder
from rag.settings import Settings


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Settings, Assistant]:
    root = tmp_path_factory.mktemp("history")
    db = make_articles_db(root / "articles.db")
    settings = settings_for(db, root / "index")
    VectorIndex(settings, build_embedder(settings)).sync(TableSource(settings.db_url, settings.table))
    return settings, Assistant.build(settings)


@pytest.fixture(scope="module")
def asked(built: tuple[Settings, Assistant]) -> tuple[list[Turn], Conversation]:
    """A conversation of four turns: SQL, a follow-up, semantic, hybrid; and a failed question."""
    _, assistant = built
    conversation = Conversation()
    questions = ["How many articles per category in 2023?", "only sports", "Tell me about bike lanes",
                 "Anything about the heatwave in July 2023?", ""]
    turns = [assistant.ask(q, conversation=conversation) for q in questions]
    assert [t.route for t in turns[:4]] == ["sql", "sql", "vector", "hybrid"] and turns[4].error
    return turns, conversation


def _store(tmp_path: Path, **kw: object) -> History:
    return History(f"sqlite:///{tmp_path / 'app.db'}", **kw)  # type: ignore[arg-type]


def _plain(turn: Turn) -> dict:
    return json.loads(json.dumps(turn.to_dict(), default=str))


def test_a_turn_survives_json_with_its_reading_and_trace(asked: tuple[list[Turn], Conversation]) -> None:
    for turn in asked[0]:
        restored = turn_from_json(turn_to_json(turn))
        assert _plain(restored) == _plain(turn)
        assert restored.trace.total_ms == turn.trace.total_ms and restored.trace.spans
    sql_turn = asked[0][0]
    restored = turn_from_json(turn_to_json(sql_turn))
    assert type(restored.result.interpretation.plan) is type(sql_turn.result.interpretation.plan)


def test_save_and_load_a_conversation(tmp_path: Path, asked: tuple[list[Turn], Conversation],
                                      built: tuple[Settings, Assistant]) -> None:
    turns, conversation = asked
    store = _store(tmp_path)
    cid = store.new_id()
    for number, turn in enumerate(turns, start=1):
        store.save_turn(cid, turn, number=number, state=conversation, source="articles")
    store.close()

    again = _store(tmp_path).load(cid)  # a new process: a new store on the same file
    assert again is not None and again.title == turns[0].question and again.source == "articles"
    assert [t.id for t in again.turns] == [t.id for t in turns]
    assert [_plain(t) for t in again.turns] == [_plain(t) for t in turns]
    assert [t.number for t in again.state.turns] == [t.number for t in conversation.turns]

    # The restored state carries follow-ups on, and the restored reading can be edited (its chips work).
    _, assistant = built
    follow = assistant.ask("and in 2022?", conversation=again.state)
    assert follow.error is None and follow.result.interpretation.builds_on == 4  # the last answered turn
    date_ref = next(c.ref for c in again.turns[0].result.interpretation.conditions if c.column == "published_date")
    edited = assistant.rerun(again.turns[0], PlanEdit(drop=[date_ref]))
    assert edited.error is None and edited.result.interpretation.edited_from == turns[0].id
    assert _store(tmp_path).load("no-such-conversation") is None


def test_feedback_with_a_comment_is_kept_and_replaced(tmp_path: Path, asked: tuple[list[Turn], Conversation]) -> None:
    turn = asked[0][2]
    store = _store(tmp_path)
    cid = store.new_id()
    store.save_turn(cid, turn, number=1)
    assert store.save_feedback(turn.id, -1, "  cites the wrong article ")
    [loaded] = store.load(cid).turns
    assert (loaded.feedback, loaded.feedback_comment) == (-1, "cites the wrong article")
    assert store.save_feedback(turn.id, 1)
    assert store.turns([turn.id])[0].feedback == 1 and store.turns([turn.id])[0].feedback_comment == ""
    assert store.save_feedback(turn.id, None)
    assert store.turns([turn.id])[0].feedback is None
    assert not store.save_feedback("never-saved", 1)


def test_search_and_filters_across_conversations(tmp_path: Path, asked: tuple[list[Turn], Conversation]) -> None:
    turns, _ = asked
    store = _store(tmp_path)
    first, second = store.new_id(), store.new_id()
    for number, turn in enumerate(turns[:2], start=1):
        store.save_turn(first, turn, number=number)
    for number, turn in enumerate(turns[2:], start=1):
        store.save_turn(second, turn, number=number)
    store.save_feedback(turns[2].id, -1, "too long")
    store.save_feedback(turns[0].id, 1)

    everything = store.search()
    assert {s.id for s in everything} == {t.id for t in turns}
    assert {s.conversation_id for s in everything} == {first, second}
    assert [s.id for s in store.search("BIKE lanes")] == [turns[2].id]  # any case, question or answer
    assert [s.id for s in store.search("100%_")] == []  # LIKE wildcards are plain characters
    assert {s.id for s in store.search(routes=["sql"])} == {turns[0].id, turns[1].id}
    assert {s.id for s in store.search(routes=[None])} == {turns[4].id}
    assert [s.id for s in store.search(feedback="down")] == [turns[2].id]
    assert [s.id for s in store.search(feedback="comment")] == [turns[2].id]
    assert {s.id for s in store.search(feedback="any")} == {turns[0].id, turns[2].id}
    assert [s.id for s in store.search(errors=True)] == [turns[4].id]
    assert len(store.search(errors=False)) == 4
    semantic = next(s for s in everything if s.id == turns[2].id)
    assert semantic.route == "vector" and semantic.chunks == len(turns[2].result.chunks) > 0
    assert semantic.citations == len(turns[2].citations) and semantic.top_score == turns[2].result.chunks[0].score
    assert (semantic.feedback, semantic.comment) == (-1, "too long")


def test_recent_conversations_of_a_table(tmp_path: Path, asked: tuple[list[Turn], Conversation]) -> None:
    turns, _ = asked
    store = _store(tmp_path)
    older, newer, other = store.new_id(), store.new_id(), store.new_id()
    store.save_turn(older, turns[0], number=1, source="articles")
    store.save_turn(newer, turns[2], number=1, source="articles")
    store.save_turn(newer, turns[3], number=2, source="articles")
    store.save_turn(other, turns[1], number=1, source="tickets")
    listed = store.conversations(source="articles")
    assert [(c.id, c.title, c.turns) for c in listed] == [(newer, turns[2].question, 2), (older, turns[0].question, 1)]
    assert [c.id for c in store.conversations()] == [other, newer, older]
    assert [c.id for c in store.conversations(limit=1)] == [other]


def test_deleting_a_conversation_removes_its_turns_and_feedback(tmp_path: Path,
                                                                asked: tuple[list[Turn], Conversation]) -> None:
    turns, _ = asked
    store = _store(tmp_path)
    kept, gone = store.new_id(), store.new_id()
    store.save_turn(kept, turns[0], number=1)
    store.save_turn(gone, turns[2], number=1)
    store.save_feedback(turns[2].id, 1, "great")
    assert store.delete_conversation(gone)
    assert store.load(gone) is None and store.conversation_ids() == [kept]
    assert [s.id for s in store.search()] == [turns[0].id]
    with sqlite3.connect(tmp_path / "app.db") as connection:
        assert connection.execute("SELECT COUNT(*) FROM rag_feedback").fetchone() == (0,)
    assert not store.delete_conversation(gone)


def test_retention_deletes_conversations_untouched_for_longer(tmp_path: Path,
                                                              asked: tuple[list[Turn], Conversation]) -> None:
    turns, _ = asked
    store = _store(tmp_path, retention_days=30)
    old, recent = store.new_id(), store.new_id()
    store.save_turn(old, turns[0], number=1)
    store.save_turn(recent, turns[1], number=1)
    with sqlite3.connect(tmp_path / "app.db") as connection:  # `old` was last used 31 days ago
        connection.execute("UPDATE rag_conversations SET updated_at = datetime(updated_at, '-31 days') WHERE id = ?",
                           (old,))
    assert store.purge() == 1
    assert store.conversation_ids() == [recent]
    keeping = _store(tmp_path, retention_days=0)
    keeping.save_turn(old, turns[0], number=1)
    from rag.history import _now
    assert keeping.purge(_now() + timedelta(days=10_000)) == 0  # 0 keeps everything
    assert _store(tmp_path, retention_days=30).purge(_now() + timedelta(days=31)) == 2  # on open, and when asked


def test_off_stores_nothing_and_creates_no_file(tmp_path: Path, asked: tuple[list[Turn], Conversation]) -> None:
    turns, conversation = asked
    store = _store(tmp_path, enabled=False)
    cid = store.new_id()
    store.save_turn(cid, turns[0], number=1, state=conversation)
    assert not store.save_feedback(turns[0].id, 1)
    assert store.load(cid) is None and store.search() == [] and store.conversation_ids() == []
    assert not (tmp_path / "app.db").exists()
    settings = Settings.from_env({"RAG_APP_STORE": "off", "RAG_INDEX_DIR": str(tmp_path)})
    assert History.from_settings(settings).enabled is False
    with pytest.raises(ConfigError):
        Settings.from_env({"RAG_APP_STORE": "maybe"})


def test_the_store_is_beside_the_index_and_never_the_source(built: tuple[Settings, Assistant],
                                                            asked: tuple[list[Turn], Conversation]) -> None:
    settings, _ = built
    assert store_url(settings) == f"sqlite:///{Path(settings.index_dir).resolve() / 'app.db'}"
    source = settings.db_url.removeprefix("sqlite:///")
    before = sha256_file(source)
    for url in (settings.db_url, f"sqlite:///file:{source}?mode=ro&uri=true"):
        with pytest.raises(ConfigError, match="source database"):
            settings.replace(app_store_url=url)
    with pytest.raises(ConfigError):
        Settings(db_url="postgresql://reader:pw@db.internal:5432/news",
                 app_store_url="postgresql+psycopg2://writer:other@db.internal:5432/news").validated()
    assert Settings(db_url="postgresql://reader:pw@db.internal:5432/news",
                    app_store_url="postgresql://writer:pw@db.internal:5432/app").validated()
    # Saving through the default store leaves the table's file as it was.
    store = History.from_settings(settings)
    store.save_turn(store.new_id(), asked[0][0], number=1)
    assert sha256_file(source) == before and (Path(settings.index_dir) / "app.db").exists()
    store.close()


def test_an_unreachable_store_is_a_plain_error(tmp_path: Path, asked: tuple[list[Turn], Conversation]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    store = History(f"sqlite:///{blocker / 'app.db'}")
    with pytest.raises(StoreUnavailable, match="cannot be opened"):
        store.save_turn(store.new_id(), asked[0][0], number=1)
