"""The app's store (rag/history.py) in PostgreSQL, as RAG_APP_STORE_URL would put it: a database of its own on the
test server of tests/test_postgres.py (`bash .ci/postgres`), created here and dropped afterwards. Turns answered on
a tiny SQLite table are saved, searched, rated, expired and deleted exactly as with the SQLite file; the source
database is refused as the store.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
from conftest import make_articles_db, settings_for, skip_or_fail

from rag.assistant import Assistant
from rag.data.index import VectorIndex
from rag.data.source import TableSource
from rag.errors import ConfigError
from rag.history import History, _now
from rag.models import Conversation, Turn
from rag.providers import build_embedder
from rag.settings import PROJECT_ROOT, Settings

try:
    import psycopg2  # noqa: F401
except ImportError:
    skip_or_fail("psycopg2 is not installed (the dev extra installs psycopg2-binary)", allow_module_level=True)

pytestmark = pytest.mark.slow

ENV_FILE = PROJECT_ROOT / "test-output" / "postgres.env"
ADMIN_KEY, URL_KEY = "RAG_TEST_PG_ADMIN_URL", "RAG_TEST_PG_URL"


def _admin_url() -> str:
    import os

    values = {}
    if ENV_FILE.exists():
        values = dict(line.strip().partition("=")[::2] for line in ENV_FILE.read_text().splitlines() if "=" in line)
    url = os.environ.get(ADMIN_KEY) or values.get(ADMIN_KEY)
    if not url:
        skip_or_fail(f"no PostgreSQL server to test against ({ENV_FILE.relative_to(PROJECT_ROOT)} is missing; run "
                     "`bash .ci/postgres`)")
    return url


@pytest.fixture(scope="module")
def store_url() -> Iterator[str]:
    """A fresh database for the store on the test server (the superuser creates it, and drops it afterwards)."""
    admin_url = _admin_url()
    admin = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 5})
    name = f"rag_app_store_{uuid.uuid4().hex[:8]}"
    try:
        with admin.connect() as connection:
            connection.exec_driver_sql(f"CREATE DATABASE {name}")
    except sa.exc.OperationalError as error:
        admin.dispose()
        skip_or_fail(f"the PostgreSQL server is not reachable ({str(error.orig).strip()}); run `bash .ci/postgres`")
    try:
        yield sa.make_url(admin_url).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.exec_driver_sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.dispose()


@pytest.fixture(scope="module")
def asked(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Turn], Conversation]:
    root = tmp_path_factory.mktemp("history-pg")
    settings = settings_for(make_articles_db(root / "articles.db"), root / "index")
    VectorIndex(settings, build_embedder(settings)).sync(TableSource(settings.db_url, settings.table))
    assistant, conversation = Assistant.build(settings), Conversation()
    turns = [assistant.ask(q, conversation=conversation)
             for q in ("How many articles per category in 2023?", "only sports", "Tell me about bike lanes", "")]
    return turns, conversation


def _plain(turn: Turn) -> dict:
    return json.loads(json.dumps(turn.to_dict(), default=str))


def test_the_store_in_postgresql(store_url: str, asked: tuple[list[Turn], Conversation], tmp_path: Path) -> None:
    turns, conversation = asked
    store = History(store_url, retention_days=30)
    first, second = store.new_id(), store.new_id()
    for number, turn in enumerate(turns[:2], start=1):
        store.save_turn(first, turn, number=number, state=conversation, source="articles")
    for number, turn in enumerate(turns[2:], start=1):
        store.save_turn(second, turn, number=number)
    assert store.save_feedback(turns[2].id, -1, "wrong quote")
    store.close()

    again = History(store_url, retention_days=30)  # another process
    loaded = again.load(first)
    assert [_plain(t) for t in loaded.turns] == [_plain(t) for t in turns[:2]]
    assert [t.number for t in loaded.state.turns] == [t.number for t in conversation.turns]
    assert [s.id for s in again.search("Bike")] == [turns[2].id]
    assert [s.id for s in again.search(feedback="comment")] == [turns[2].id]
    assert [s.id for s in again.search(errors=True)] == [turns[3].id]
    assert {s.id for s in again.search(routes=["sql"])} == {turns[0].id, turns[1].id}
    assert again.turns([turns[2].id])[0].feedback_comment == "wrong quote"

    assert again.delete_conversation(second)
    assert again.load(second) is None and [s.conversation_id for s in again.search()] == [first, first]
    assert again.purge(_now() + timedelta(days=31)) == 1
    assert again.conversation_ids() == []
    again.close()


def test_the_source_database_is_refused_as_the_store(store_url: str) -> None:
    source = sa.make_url(store_url)
    with pytest.raises(ConfigError, match="source database"):
        Settings(db_url=source.set(username="reader", password="x").render_as_string(hide_password=False),
                 app_store_url=store_url).validated()
