"""The app with its store (#13): a reload (a new AppTest session with the same `?chat=` query parameter) brings the
conversation back with its traces, feedback and follow-up state; New chat starts another; feedback with its
comment is stored; a deleted chat is gone; with RAG_APP_STORE=off nothing is kept; the Traces page lists stored
turns of every conversation, searchable, filterable, and opens the one selected.

Each test gets its own store file (RAG_APP_STORE_URL in tmp_path); the table and index are built once.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import indexed_articles
from streamlit.testing.v1 import AppTest
from test_app import ask, texts  # the chat's AppTest helpers

from rag.history import History

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
TIMEOUT = 90


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("app-history")
    db, _ = indexed_articles(base)
    return {"db": db, "index": base / "index"}


@pytest.fixture
def store_path(world: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The app's environment with a store of this test's own; returns the store's file."""
    path = tmp_path / "app.db"
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    for name, value in {"RAG_DB_URL": f"sqlite:///{world['db']}", "RAG_INDEX_DIR": str(world["index"]),
                        "RAG_EMBED_MODEL": "hashing", "RAG_PROVIDER": "offline",
                        "RAG_APP_STORE_URL": f"sqlite:///{path}"}.items():
        monkeypatch.setenv(name, value)
    return path


def start(chat: str | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    if chat:
        at.query_params["chat"] = chat
    at.run()
    assert not at.exception, at.exception
    return at


def test_a_reload_brings_the_conversation_back(store_path: Path) -> None:
    at = ask(start(), "How many articles per category in 2023?")
    ask(at, "Tell me about bike lanes")
    first, second = at.session_state["turns"]
    chat = at.query_params["chat"]
    assert chat and store_path.exists()
    next(f for f in at.feedback if f.key == f"feedback_{second.id}").set_value(0).run()
    at.text_input(key=f"comment_{second.id}").input("the wrong passage is quoted").run()
    assert not at.exception

    again = start(chat)  # a reload: a new session with the same URL
    restored = again.session_state["turns"]
    assert [t.id for t in restored] == [first.id, second.id]
    assert (restored[1].feedback, restored[1].feedback_comment) == (-1, "the wrong passage is quoted")
    assert next(f for f in again.feedback if f.key == f"feedback_{second.id}").value == 0  # thumbs down shown
    assert again.text_input(key=f"comment_{second.id}").value == "the wrong passage is quoted"
    main = texts(again.main)
    assert "How many articles per category in 2023?" in main and "City council approves new bike lanes" in main
    assert "Ask the articles table" not in main  # not the empty welcome
    assert again.sidebar.selectbox[0].value == second.id and again.sidebar.get("plotly_chart")  # its trace
    assert again.query_params["chat"] == chat

    # The follow-up state came back too: "only sports" builds on the last answer, #2, and is stored as turn 3.
    ask(again, "only sports")
    third = again.session_state["turns"][-1]
    assert third.error is None and third.result.interpretation.builds_on == 2
    stored = History(f"sqlite:///{store_path}").load(chat)
    assert [t.id for t in stored.turns] == [first.id, second.id, third.id]


def test_new_chat_starts_another_conversation_with_the_examples(store_path: Path) -> None:
    at = ask(start(), "How many articles per category?")
    first_chat = at.query_params["chat"]
    next(b for b in at.sidebar.button if b.key == "new_conversation").click().run()
    assert not at.exception
    assert "chat" not in at.query_params
    assert "Ask the articles table" in texts(at.main)
    assert any(b.key == "example_0" for b in at.button), "the example questions are back"
    next(b for b in at.button if b.key == "example_0").click().run()
    assert not at.exception
    second_chat = at.query_params["chat"]
    assert second_chat and second_chat != first_chat
    store = History(f"sqlite:///{store_path}")
    assert [t.question for t in store.load(first_chat).turns] == ["How many articles per category?"]
    assert [t.question for t in store.load(second_chat).turns] == ["How many articles per year and category?"]
    assert start(first_chat).session_state["turns"][0].question == "How many articles per category?"


def test_recent_chats_open_an_earlier_conversation(store_path: Path) -> None:
    at = ask(start(), "How many articles per category?")
    first_chat, first = at.query_params["chat"], at.session_state["turns"][0]
    next(b for b in at.sidebar.button if b.key == "new_conversation").click().run()
    ask(at, "Tell me about bike lanes")
    shown = at.query_params["chat"]
    recent = [b for b in at.sidebar.button if b.key and b.key.startswith("recent_")]
    assert [b.key for b in recent] == [f"recent_{shown}", f"recent_{first_chat}"]  # newest first
    assert recent[0].disabled and not recent[1].disabled  # the chat shown cannot be opened again
    assert recent[1].label.startswith("How many articles per category? · 1 turn · today ")
    recent[1].click().run()
    assert not at.exception, at.exception
    assert at.query_params["chat"] == first_chat
    assert [t.id for t in at.session_state["turns"][at.session_state["chat_start"]:]] == [first.id]
    assert "How many articles per category?" in texts(at.main) and "bike lanes" not in texts(at.main)


def test_feedback_reaches_the_store(store_path: Path) -> None:
    at = ask(start(), "Tell me about bike lanes")
    turn = at.session_state["turns"][0]
    next(f for f in at.feedback if f.key == f"feedback_{turn.id}").set_value(1).run()
    store = History(f"sqlite:///{store_path}")
    [summary] = store.search()
    assert (summary.id, summary.feedback, summary.comment) == (turn.id, 1, "")
    at.text_input(key=f"comment_{turn.id}").input("exactly what I needed").run()
    assert store.search(feedback="comment")[0].comment == "exactly what I needed"


def test_a_deleted_chat_is_gone(store_path: Path) -> None:
    at = ask(start(), "How many articles per category?")
    chat = at.query_params["chat"]
    next(b for b in at.sidebar.button if b.key == "delete_chat").click().run()
    assert not at.exception
    assert "The conversation was deleted." in texts(at.main) and "chat" not in at.query_params
    assert at.session_state["turns"] == []
    assert History(f"sqlite:///{store_path}").load(chat) is None
    again = start(chat)
    assert "not stored" in texts(again.main) and again.session_state["turns"] == []


def test_a_link_to_an_unknown_chat_starts_a_new_one(store_path: Path) -> None:
    at = ask(start(), "How many articles per category?")
    at.query_params["chat"] = "0" * 32  # an edited or expired link, in a session showing another chat
    at.run()
    assert not at.exception, at.exception
    assert "not stored" in texts(at.main) and "Ask the articles table" in texts(at.main)
    assert "chat" not in at.query_params and at.session_state["conversation"].turns == []


def test_a_chat_about_another_table_is_shown_without_its_follow_up_state(store_path: Path) -> None:
    from rag.models import Conversation, ConversationTurn, Trace, Turn

    store = History(f"sqlite:///{store_path}")
    turn = Turn("How many tickets per status?", "12 open, 3 closed.", Trace("How many tickets per status?"))
    state = Conversation([ConversationTurn(1, turn.id, turn.question, route="sql", plan={"intent": "count"})])
    chat = store.new_id()
    store.save_turn(chat, turn, number=1, state=state, source="tickets")
    at = start(chat)
    assert [t.id for t in at.session_state["turns"]] == [turn.id]
    assert "asked about table tickets" in texts(at.main) and at.session_state["conversation"].turns == []


def test_with_the_store_off_nothing_is_kept(store_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAG_APP_STORE", "off")
    at = ask(start(), "How many articles per category?")
    turn = at.session_state["turns"][0]
    next(f for f in at.feedback if f.key == f"feedback_{turn.id}").set_value(1).run()
    assert not at.exception and turn.feedback == 1
    assert "chat" not in at.query_params and not store_path.exists()
    assert not any(b.key == "delete_chat" for b in at.sidebar.button)
    assert not any(t.key == "chat_keep" for t in at.sidebar.toggle)  # nothing to switch off


# ---------------------------------------------------------------- the Traces page


def _select_row(at: AppTest, row: int) -> AppTest:
    at.session_state["traces_table"] = {"selection": {"rows": [row], "columns": [], "cells": []}}
    at.run()
    assert not at.exception, at.exception
    return at


def test_traces_page_lists_stored_turns_of_every_conversation(store_path: Path) -> None:
    # Yesterday's user, in another session, with feedback and a failed question.
    other = ask(start(), "Tell me about bike lanes")
    bikes = other.session_state["turns"][0]
    next(f for f in other.feedback if f.key == f"feedback_{bikes.id}").set_value(0).run()
    ask(other, "\x00\x01\x02\x03 binary")
    failed = other.session_state["turns"][1]
    assert failed.error

    at = ask(start(), "How many articles per category?")  # today's session, a conversation of its own
    counted = at.session_state["turns"][0]
    at.switch_page("pages/traces.py").run()
    assert not at.exception, at.exception
    table = at.main.dataframe[0].value
    assert list(table["question"]) == [counted.question, failed.question, bikes.question]  # newest first
    assert list(table["route"]) == ["SQL", "No route", "Semantic"]
    assert all(a.startswith("today ") and a.endswith(" UTC") for a in table["asked"])  # readable, no raw ISO
    assert list(table["feedback"]) == ["", "", "not helpful"] and table["cited"][2] >= 1 and table["top_score"][2] > 0
    shown = list(at.main.dataframe[0].proto.column_order)
    assert "error" in shown and "tokens" not in shown  # offline: no tokens anywhere, so no column for them
    assert at.main.subheader[0].value == counted.question  # the newest trace is open
    assert "Guard: allowed" in texts(at.main.success)

    at.text_input(key="traces_search").input("BIKE").run()  # the search box: questions and answers, any case
    assert list(at.main.dataframe[0].value["question"]) == [bikes.question]
    at.text_input(key="traces_search").input("").run()
    next(c for c in at.main.button_group if c.key == "traces_feedback").set_value("down").run()
    assert list(at.main.dataframe[0].value["question"]) == [bikes.question]
    next(c for c in at.main.button_group if c.key == "traces_feedback").set_value(None).run()
    next(c for c in at.main.button_group if c.key == "traces_outcome").set_value("failed").run()
    assert list(at.main.dataframe[0].value["question"]) == [failed.question]
    next(c for c in at.main.button_group if c.key == "traces_outcome").set_value(None).run()
    next(c for c in at.main.button_group if c.key == "traces_routes").set_value(["vector"]).run()
    assert list(at.main.dataframe[0].value["question"]) == [bikes.question]
    routes = next(c for c in at.main.button_group if c.key == "traces_routes")
    routes.set_value(["sql", "vector", "hybrid", "none"]).run()

    # Selecting a row opens its trace (the inspector's rendering), with a link back to its conversation.
    _select_row(at, 2)
    assert at.main.subheader[0].value == bikes.question
    assert any("City council approves new bike lanes" in e.label for e in at.main.expander)
    assert "Feedback:** not helpful" in texts(at.main.markdown)
    link = next(p for p in at.main.get("page_link") if "Open this conversation" in p.proto.label)
    assert link.proto.query_string == f"chat={other.query_params['chat']}"
    assert at.query_params["turn"] == bikes.id


def test_traces_page_with_the_store_off_lists_this_session(store_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAG_APP_STORE", "off")
    at = ask(start(), "How many articles per category?")
    ask(at, "Tell me about bike lanes")
    at.switch_page("pages/traces.py").run()
    assert not at.exception, at.exception
    assert "store is off" in texts(at.main.caption)
    assert list(at.main.dataframe[0].value["route"]) == ["Semantic", "SQL"]
    at.text_input(key="traces_search").input("per category").run()
    assert list(at.main.dataframe[0].value["route"]) == ["SQL"]
    assert not store_path.exists()


def test_readable_times() -> None:
    from datetime import datetime

    from ui.trace_list import readable_time

    now = datetime(2026, 12, 1, 9, 30)
    assert readable_time(datetime(2026, 12, 1, 8, 5), now) == "today 08:05 UTC"
    assert readable_time(datetime(2026, 11, 30, 23, 59), now) == "yesterday 23:59 UTC"
    assert readable_time(datetime(2026, 11, 27, 18, 40), now) == "Fri 27 Nov 18:40 UTC"
    assert readable_time(datetime(2025, 11, 27, 18, 40), now) == "27 Nov 2025 18:40 UTC"
    assert readable_time(datetime(2026, 11, 30, 23, 30), now, "Europe/Berlin") == "today 00:30"  # the reader's zone
    assert readable_time(datetime(2026, 12, 1, 8, 5), now, "Not/AZone") == "today 08:05 UTC"


def test_keep_this_chat_off_stores_the_next_answers_nowhere(store_path: Path) -> None:
    at = ask(start(), "How many articles per category?")
    chat = at.query_params["chat"]
    at.sidebar.toggle(key="chat_keep").set_value(False).run()
    ask(at, "Tell me about bike lanes")
    assert len(at.session_state["turns"]) == 2
    store = History(f"sqlite:///{store_path}")
    assert [t.question for t in store.load(chat).turns] == ["How many articles per category?"]
    assert [s.question for s in store.search()] == ["How many articles per category?"]


def test_the_settings_page_says_where_conversations_are_kept(store_path: Path) -> None:
    at = start()
    at.switch_page("pages/settings.py").run()
    assert not at.exception, at.exception
    assert f"sqlite:///{store_path}" in texts(at.main.caption) and "90 days" in texts(at.main.caption)
