"""The app's own store: conversations, their turns (answer, reading and trace) and feedback, kept through
SQLAlchemy so they survive a reload and a server restart, and a prompt engineer can look at yesterday's questions.

Where: a SQLite file `app.db` in `RAG_INDEX_DIR` by default, or any database `RAG_APP_STORE_URL` names
(PostgreSQL); never the source database (`Settings.validated` refuses it, and the table is only ever read).
What: one row per conversation (its title, the table it asked about, and the follow-up state `Conversation`
as JSON, so "and in 2022?" still builds on #1 after a reload), one row per turn (searchable and filterable
columns, plus the whole `Turn` as JSON: the plain dataclasses of `rag.models`, the reading's plan included so
reading chips work again), one row per rated turn (thumbs and an optional comment).
With `RAG_APP_STORE=off` nothing is stored and no file is created; conversations untouched for
`RAG_APP_STORE_RETENTION_DAYS` are deleted when the store opens and whenever a conversation starts.

Over 400 lines because it is the whole store in one place: the schema, turns to JSON and back, writes, reads
and the Traces page's search; each part is short.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import threading
import types
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Union, get_args, get_origin, get_type_hints

import sqlalchemy as sa

from rag.errors import ConfigError, RagError
from rag.models import Conversation, Turn
from rag.settings import Settings, mask_url, same_database
from rag.understand.followup import plan_from_dict, plan_to_dict

logger = logging.getLogger(__name__)

STORE_FILE = "app.db"
FORMAT = 1  # version of the JSON kept per turn

metadata = sa.MetaData()
conversations_table = sa.Table(
    "rag_conversations", metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    sa.Column("source", sa.String(300), nullable=False, default=""),  # the table it asked about
    sa.Column("title", sa.Text, nullable=False, default=""),  # its first question
    sa.Column("created_at", sa.DateTime, nullable=False),
    sa.Column("updated_at", sa.DateTime, nullable=False, index=True),
    sa.Column("state", sa.Text, nullable=True),  # Conversation.to_dict(): what follow-ups build on
)
turns_table = sa.Table(
    "rag_turns", metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    sa.Column("conversation_id", sa.String(40), sa.ForeignKey("rag_conversations.id"), nullable=False, index=True),
    sa.Column("number", sa.Integer, nullable=False),  # position in the conversation, 1-based
    sa.Column("created_at", sa.DateTime, nullable=False),  # when it was asked (the turn's own time, in seconds)
    sa.Column("saved_at", sa.DateTime, nullable=False, index=True),  # the listing's order (microseconds)
    sa.Column("question", sa.Text, nullable=False),
    sa.Column("answer", sa.Text, nullable=False),
    sa.Column("route", sa.String(16), nullable=True),
    sa.Column("forced", sa.Boolean, nullable=False, default=False),
    sa.Column("error", sa.Text, nullable=True),
    sa.Column("provider", sa.String(200), nullable=False, default=""),
    sa.Column("latency_ms", sa.Float, nullable=False, default=0.0),
    sa.Column("tokens", sa.Integer, nullable=False, default=0),
    sa.Column("cost_usd", sa.Float, nullable=False, default=0.0),
    sa.Column("top_score", sa.Float, nullable=True),
    sa.Column("chunks", sa.Integer, nullable=False, default=0),
    sa.Column("citations", sa.Integer, nullable=False, default=0),
    sa.Column("data", sa.Text, nullable=False),  # the whole Turn as JSON
)
feedback_table = sa.Table(
    "rag_feedback", metadata,
    sa.Column("turn_id", sa.String(40), sa.ForeignKey("rag_turns.id"), primary_key=True),
    sa.Column("rating", sa.Integer, nullable=True),  # +1 helpful, -1 not helpful
    sa.Column("comment", sa.Text, nullable=False, default=""),
    sa.Column("updated_at", sa.DateTime, nullable=False),
)


class StoreUnavailable(RagError):
    """The app's store cannot be opened, read or written (answers still work; history is not kept)."""

    title = "History not saved"


@dataclass
class TurnSummary:
    """One line of the Traces page: a stored turn without its JSON."""

    id: str
    conversation_id: str
    number: int
    created_at: datetime  # UTC, naive
    question: str
    route: str | None
    forced: bool
    error: str | None
    provider: str
    latency_ms: float
    tokens: int
    cost_usd: float
    top_score: float | None
    chunks: int
    citations: int
    feedback: int | None = None
    comment: str = ""


@dataclass
class ConversationSummary:
    """One stored conversation for a list of recent chats."""

    id: str
    title: str
    source: str
    updated_at: datetime  # UTC, naive
    turns: int


@dataclass
class StoredConversation:
    id: str
    title: str
    source: str
    created_at: datetime
    updated_at: datetime
    turns: list[Turn] = field(default_factory=list)
    state: Conversation = field(default_factory=Conversation)


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def _parse_time(text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text)
    except (TypeError, ValueError):
        return _now()
    return moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment


def store_url(settings: Settings) -> str:
    """The store's URL: the setting, else `app.db` in the index directory; never the source database."""
    url = settings.app_store_url or f"sqlite:///{Path(settings.index_dir).resolve() / STORE_FILE}"
    if same_database(url, settings.db_url):
        raise ConfigError("The app's store would be the source database; set RAG_APP_STORE_URL to another one.")
    return url


# ---------------------------------------------------------------- turns as JSON and back


def turn_to_json(turn: Turn) -> str:
    """The turn as `Turn.to_dict()` plus the reading's plan as plain data (so its chips can re-run it)."""
    data = turn.to_dict()
    data["format"] = FORMAT
    reading = turn.result.interpretation
    if reading is not None and reading.plan is not None:
        try:
            data["result"]["interpretation"]["plan"] = plan_to_dict(reading.plan)
        except Exception:  # noqa: BLE001 - a plan that is not plain data is not kept; the chips then hide
            logger.warning("the reading's plan of turn %s could not be stored", turn.id, exc_info=True)
    return json.dumps(data, ensure_ascii=False, default=str)


def turn_from_json(text: str) -> Turn:
    """The `Turn` written by `turn_to_json` (fields added to the dataclasses since take their defaults; fields
    no longer there are ignored)."""
    data = json.loads(text)
    turn = _revive(Turn, data)
    reading = turn.result.interpretation
    if reading is not None and isinstance(reading.plan, dict):
        try:
            reading.plan = plan_from_dict(reading.plan)
        except Exception:  # noqa: BLE001 - an older plan shape: the answer shows, its chips do not
            reading.plan = None
    return turn


def _revive(hint: Any, value: Any) -> Any:
    """`value` (from JSON) as the type `hint` names: dataclasses field by field, lists item by item."""
    if value is None:
        return None
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        options = [a for a in get_args(hint) if a is not type(None)]
        return _revive(options[0], value) if len(options) == 1 else value
    if origin is list and isinstance(value, list):
        (item,) = get_args(hint) or (Any,)
        return [_revive(item, v) for v in value]
    if isinstance(hint, type) and dataclasses.is_dataclass(hint) and isinstance(value, dict):
        hints = get_type_hints(hint)
        return hint(**{f.name: _revive(hints[f.name], value[f.name])
                       for f in dataclasses.fields(hint) if f.init and f.name in value})
    return value


# ---------------------------------------------------------------- the store


class History:
    """Conversations, turns and feedback in the app's own database. Thread-safe (one engine, a pool per
    process); created lazily, so a store that is off never creates a file."""

    def __init__(self, url: str, *, enabled: bool = True, retention_days: int = 90) -> None:
        self.url = url
        self.enabled = enabled
        self.retention_days = retention_days
        self._engine: sa.Engine | None = None
        self._lock = threading.Lock()

    @classmethod
    def from_settings(cls, settings: Settings) -> History:
        return cls(store_url(settings), enabled=settings.app_store, retention_days=settings.app_store_retention_days)

    @property
    def where(self) -> str:
        """The store's URL with its password masked, for the Settings page and messages."""
        return mask_url(self.url)

    def _connect(self) -> sa.Engine:
        if self._engine is not None:
            return self._engine
        with self._lock:
            if self._engine is None:
                self._engine = self._open()
        return self._engine

    def _open(self) -> sa.Engine:
        url = sa.engine.make_url(self.url)
        options: dict[str, Any] = {}
        if url.get_backend_name() == "sqlite":
            options["connect_args"] = {"timeout": 15}
        try:
            if url.get_backend_name() == "sqlite" and url.database and url.database != ":memory:":
                Path(url.database).parent.mkdir(parents=True, exist_ok=True)
            engine = sa.create_engine(url, pool_pre_ping=True, **options)
            if url.get_backend_name() == "sqlite":
                sa.event.listen(engine, "connect", _sqlite_pragmas)
            metadata.create_all(engine)
        except Exception as error:  # noqa: BLE001 - unreachable server, unwritable file: plain words
            raise StoreUnavailable(f"The app's store at {self.where} cannot be opened ({_first_line(error)}).") \
                from error
        self._purge(engine)
        return engine

    def _run(self, work: Any) -> Any:
        """`work(connection)` in one transaction; failures become StoreUnavailable."""
        engine = self._connect()
        try:
            with engine.begin() as connection:
                return work(connection)
        except sa.exc.SQLAlchemyError as error:
            raise StoreUnavailable(f"The app's store at {self.where} failed ({_first_line(error)}).") from error

    def close(self) -> None:
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None

    # ------------------------------------------------------------ writing

    @staticmethod
    def new_id() -> str:
        return uuid.uuid4().hex

    def save_turn(self, conversation_id: str, turn: Turn, *, number: int, state: Conversation | None = None,
                  source: str = "") -> None:
        """Keep `turn` as turn `number` of the conversation (created on its first turn), with the conversation's
        follow-up `state`; saving the same turn again replaces it."""
        if not self.enabled:
            return
        now = _now()
        record = _turn_record(turn, conversation_id, number)
        state_json = json.dumps(state.to_dict(), ensure_ascii=False, default=str) if state is not None else None

        def work(connection: sa.Connection) -> None:
            exists = connection.execute(sa.select(conversations_table.c.id).where(
                conversations_table.c.id == conversation_id)).first()
            if exists:
                changes: dict[str, Any] = {"updated_at": now}
                if state_json is not None:
                    changes["state"] = state_json
                connection.execute(conversations_table.update().where(conversations_table.c.id == conversation_id)
                                   .values(**changes))
            else:
                connection.execute(conversations_table.insert().values(
                    id=conversation_id, source=source[:300], title=turn.question[:500], created_at=now,
                    updated_at=now, state=state_json))
            connection.execute(turns_table.delete().where(turns_table.c.id == turn.id))
            connection.execute(turns_table.insert().values(**record))
            if turn.feedback is not None or turn.feedback_comment:
                _upsert_feedback(connection, turn.id, turn.feedback, turn.feedback_comment, now)

        self._run(work)
        if number == 1:
            self.purge()

    def save_feedback(self, turn_id: str, rating: int | None, comment: str = "") -> bool:
        """Thumbs (+1 / -1, None to withdraw) and an optional comment on a stored turn; False when the turn is not
        stored (the store is off, or the turn was never saved)."""
        if not self.enabled:
            return False

        def work(connection: sa.Connection) -> bool:
            if connection.execute(sa.select(turns_table.c.id).where(turns_table.c.id == turn_id)).first() is None:
                return False
            _upsert_feedback(connection, turn_id, rating, comment, _now())
            return True

        return bool(self._run(work))

    def delete_conversation(self, conversation_id: str) -> bool:
        """Delete a conversation with its turns and their feedback; False when there was none."""
        if not self.enabled:
            return False
        return bool(self._run(lambda connection: _delete(connection, [conversation_id])))

    def purge(self, now: datetime | None = None) -> int:
        """Delete conversations untouched for `retention_days` (none when it is 0); returns how many."""
        if not self.enabled or not self.retention_days:
            return 0
        return self._purge(self._connect(), now)

    def _purge(self, engine: sa.Engine, now: datetime | None = None) -> int:
        if not self.retention_days:
            return 0
        cutoff = (now or _now()) - timedelta(days=self.retention_days)
        try:
            with engine.begin() as connection:
                old = [row.id for row in connection.execute(
                    sa.select(conversations_table.c.id).where(conversations_table.c.updated_at < cutoff))]
                return _delete(connection, old) if old else 0
        except sa.exc.SQLAlchemyError as error:
            raise StoreUnavailable(f"The app's store at {self.where} failed ({_first_line(error)}).") from error

    # ------------------------------------------------------------ reading

    def load(self, conversation_id: str) -> StoredConversation | None:
        """A conversation with its turns (oldest first, feedback applied) and follow-up state; None when unknown."""
        if not self.enabled or not conversation_id:
            return None

        def work(connection: sa.Connection) -> StoredConversation | None:
            row = connection.execute(sa.select(conversations_table).where(
                conversations_table.c.id == conversation_id)).first()
            if row is None:
                return None
            query = (sa.select(turns_table.c.data, feedback_table.c.rating, feedback_table.c.comment)
                     .select_from(turns_table.outerjoin(feedback_table))
                     .where(turns_table.c.conversation_id == conversation_id).order_by(turns_table.c.number))
            turns = [_with_feedback(turn_from_json(t.data), t.rating, t.comment) for t in connection.execute(query)]
            state = Conversation()
            if row.state:
                try:
                    state = Conversation.from_dict(json.loads(row.state))
                except ValueError:
                    logger.warning("conversation %s: its follow-up state could not be read", conversation_id)
            return StoredConversation(row.id, row.title, row.source, row.created_at, row.updated_at, turns, state)

        return self._run(work)

    def turns(self, turn_ids: Sequence[str]) -> list[Turn]:
        """Stored turns by id (in the order asked; unknown ids are left out), feedback applied."""
        if not self.enabled or not turn_ids:
            return []

        def work(connection: sa.Connection) -> list[Turn]:
            query = (sa.select(turns_table.c.id, turns_table.c.data, feedback_table.c.rating, feedback_table.c.comment)
                     .select_from(turns_table.outerjoin(feedback_table)).where(turns_table.c.id.in_(list(turn_ids))))
            found = {t.id: _with_feedback(turn_from_json(t.data), t.rating, t.comment)
                     for t in connection.execute(query)}
            return [found[i] for i in turn_ids if i in found]

        return self._run(work)

    def search(self, text: str = "", *, routes: Iterable[str | None] | None = None, feedback: str | None = None,
               errors: bool | None = None, limit: int = 500) -> list[TurnSummary]:
        """Stored turns of every conversation, newest first: `text` in the question or the answer (any case),
        `routes` among those given (None = a turn with no route), `feedback` one of "up", "down", "any", "none",
        "comment", `errors` True (only failed turns) or False (only answered ones)."""
        if not self.enabled:
            return []
        t, f = turns_table.c, feedback_table.c
        listed = [turns_table.c[item.name] for item in dataclasses.fields(TurnSummary)
                  if item.name not in ("feedback", "comment")]  # not the JSON: a listing never needs it
        query = (sa.select(*listed, f.rating, f.comment).select_from(turns_table.outerjoin(feedback_table))
                 .order_by(t.saved_at.desc()).limit(limit))
        if text.strip():
            needle = text.strip().lower()
            query = query.where(sa.or_(sa.func.lower(t.question).contains(needle, autoescape=True),
                                       sa.func.lower(t.answer).contains(needle, autoescape=True)))
        if routes is not None:
            chosen = list(routes)
            named = [r for r in chosen if r]
            query = query.where(sa.or_(t.route.in_(named), *([t.route.is_(None)] if None in chosen else [])))
        if feedback in ("up", "down"):
            query = query.where(f.rating == (1 if feedback == "up" else -1))
        elif feedback == "any":
            query = query.where(f.rating.is_not(None))
        elif feedback == "none":
            query = query.where(f.rating.is_(None))
        elif feedback == "comment":
            query = query.where(sa.func.coalesce(f.comment, "") != "")
        if errors is not None:
            query = query.where(t.error.is_not(None) if errors else t.error.is_(None))

        def work(connection: sa.Connection) -> list[TurnSummary]:
            return [TurnSummary(*row[:len(listed)], feedback=row.rating, comment=row.comment or "")
                    for row in connection.execute(query)]

        return self._run(work)

    def conversations(self, *, source: str | None = None, limit: int = 20) -> list[ConversationSummary]:
        """The most recently used conversations (of the table `source`, when given), with their number of turns."""
        if not self.enabled:
            return []
        c = conversations_table.c
        count = (sa.select(sa.func.count()).select_from(turns_table)
                 .where(turns_table.c.conversation_id == c.id).scalar_subquery())
        query = sa.select(c.id, c.title, c.source, c.updated_at, count.label("turns")).order_by(c.updated_at.desc())
        if source is not None:
            query = query.where(c.source == source)
        query = query.limit(limit)
        return self._run(lambda connection: [ConversationSummary(*row) for row in connection.execute(query)])

    def conversation_ids(self) -> list[str]:
        """Every stored conversation, most recently used first."""
        if not self.enabled:
            return []
        return self._run(lambda connection: [row.id for row in connection.execute(
            sa.select(conversations_table.c.id).order_by(conversations_table.c.updated_at.desc()))])


def _turn_record(turn: Turn, conversation_id: str, number: int) -> dict[str, Any]:
    trace, result = turn.trace, turn.result
    return {"id": turn.id, "conversation_id": conversation_id, "number": number,
            "created_at": _parse_time(turn.created_at), "saved_at": _now(), "question": turn.question,
            "answer": turn.answer,
            "route": turn.route, "forced": bool(trace.forced_route), "error": turn.error,
            "provider": trace.provider[:200], "latency_ms": float(trace.total_ms), "tokens": trace.tokens["total"],
            "cost_usd": float(turn.cost_usd), "top_score": max((c.score for c in result.chunks), default=None),
            "chunks": len(result.chunks), "citations": len(result.citations), "data": turn_to_json(turn)}


def _upsert_feedback(connection: sa.Connection, turn_id: str, rating: int | None, comment: str,
                     now: datetime) -> None:
    connection.execute(feedback_table.delete().where(feedback_table.c.turn_id == turn_id))
    if rating is not None or comment.strip():
        connection.execute(feedback_table.insert().values(turn_id=turn_id, rating=rating, comment=comment.strip(),
                                                          updated_at=now))


def _with_feedback(turn: Turn, rating: int | None, comment: str | None) -> Turn:
    turn.feedback, turn.feedback_comment = rating, comment or ""
    return turn


def _delete(connection: sa.Connection, conversation_ids: list[str]) -> int:
    turn_ids = sa.select(turns_table.c.id).where(turns_table.c.conversation_id.in_(conversation_ids))
    connection.execute(feedback_table.delete().where(feedback_table.c.turn_id.in_(turn_ids)))
    connection.execute(turns_table.delete().where(turns_table.c.conversation_id.in_(conversation_ids)))
    return connection.execute(conversations_table.delete().where(
        conversations_table.c.id.in_(conversation_ids))).rowcount


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")  # readers (the Traces page) never wait for a writer
    cursor.close()


def _first_line(error: BaseException) -> str:
    return (str(error).strip().splitlines() or [type(error).__name__])[0][:300]
