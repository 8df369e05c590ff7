"""Settings and the shared, cached assistant, as the pages see them.

The assistant is built once per process (per distinct settings) with `st.cache_resource` and shared by
every session; session state only ever holds plain `Turn` dataclasses. Domain errors met while
building are turned into a `Startup.problem` in plain words, never a traceback.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import streamlit as st

from rag.assistant import Assistant
from rag.data.index import IndexStatus
from rag.errors import IndexMissing, RagError
from rag.models import Conversation, PlanEdit, Turn
from rag.settings import REGISTRY, Settings, mask_url
from ui.support import safe_answer_markdown

TURNS_KEY = "turns"
PENDING_KEY = "pending_question"
INSPECT_KEY = "inspect_turn"
EDIT_KEY = "pending_edit"
AGAIN_KEY = "pending_again"  # 'ask again as': (turn id, route)
CONVERSATION_KEY = "conversation"
CHAT_START_KEY = "chat_start"  # index in `turns()` of the current conversation's first turn


@dataclass
class Startup:
    """What app.py learned while starting: settings, the assistant, and any problem to explain."""

    settings: Settings | None
    assistant: Assistant | None
    problem: str | None = None
    hint: str | None = None
    index_problem: str | None = None


def _secrets() -> Mapping[str, Any]:
    """Values from .streamlit/secrets.toml, read at the UI edge only (empty when there is no file)."""
    try:
        if not st.secrets.load_if_toml_exists():
            return {}
        return st.secrets.to_dict()
    except Exception:  # noqa: BLE001 - a malformed or unreadable secrets file is the same as none
        return {}


def settings_env() -> dict[str, str]:
    """The environment, completed by secrets for settings the environment does not set."""
    env = dict(os.environ)
    secrets = _secrets()
    for setting in REGISTRY:
        value = secrets.get(setting.env)
        if not env.get(setting.env) and isinstance(value, str | int | float) and str(value):
            env[setting.env] = str(value)
    return env


def load_settings() -> Settings:
    return Settings.from_env(settings_env())


@st.cache_resource(show_spinner="Loading the search engine and the embedding model…", max_entries=4)
def _build(settings: Settings) -> Assistant:
    """One assistant per settings, shared between sessions; the embedding model is warmed up here."""
    assistant = Assistant.build(settings)
    assistant.providers.embedder.embed(["warm-up"])
    return assistant


APP_STARTED = "_app_started"


def mark_app_started() -> None:
    st.session_state[APP_STARTED] = True


def require_app() -> None:
    """First call of every page: a page run without app.py (Streamlit's legacy pages/ mode, on a fresh
    server's first deep link) switches to app.py, which sets up settings and navigation."""
    if not st.session_state.get(APP_STARTED):
        st.switch_page("app.py")


def startup() -> Startup:
    """Settings and the shared assistant, or a plain explanation of what is missing."""
    try:
        settings = load_settings()
    except RagError as error:
        return Startup(None, None, f"{error.title}: {error}",
                       "Fix the environment variable named above (see the README's settings table) and reload.")
    try:
        assistant = _build(settings)
    except RagError as error:
        return Startup(settings, None, f"{error.title}: {error}", _hint_for(error, settings))
    except Exception as error:  # noqa: BLE001 - the UI edge: never a traceback for the user
        return Startup(settings, None, f"The assistant could not start ({type(error).__name__}: {error}).",
                       _hint_for(error, settings))
    index_problem = None
    try:
        assistant.check_index()
    except IndexMissing as error:
        index_problem = str(error)
    except Exception as error:  # noqa: BLE001 - a corrupt directory surfaces as anything
        index_problem = f"The search index could not be read ({error})."
    return Startup(settings, assistant, index_problem=index_problem)


def _hint_for(error: BaseException, settings: Settings) -> str:
    url = mask_url(settings.db_url)
    return (f"The app reads table `{settings.table}` from `{url}` (setting RAG_DB_URL / RAG_TABLE). "
            "To use the sample data, run `make run`, which builds the sample database and its index; "
            "for your own data, point RAG_DB_URL at it and use **Sync index** on the Data page.")


def render_startup_problem() -> None:
    """The page shown instead of the app when the assistant cannot start (no table, bad settings)."""
    started = startup()
    st.title("Setup needed")
    st.error(safe_answer_markdown(started.problem or "The assistant could not start."), icon=":material/error:")
    if started.hint:
        st.markdown(started.hint)
    st.markdown("Once fixed, reload this page; nothing else needs restarting.")


def evaluation_available() -> bool:
    """The Evaluation page is listed only when the evaluation runner (`rag.evaluation`) is installed."""
    import importlib.util
    from pathlib import Path

    page = Path(__file__).resolve().parent.parent / "pages" / "evaluation.py"
    return page.is_file() and importlib.util.find_spec("rag.evaluation") is not None


def assistant() -> Assistant:
    """The cached assistant for pages rendered by app.py (which already checked that it builds)."""
    return _build(load_settings())


def forget_assistant() -> None:
    """Drop every cached assistant (after a sync that may have recreated the collection)."""
    _build.clear()
    index_status.clear()


@st.cache_data(ttl=60, show_spinner="Comparing the table with the index…", max_entries=8)
def index_status(settings: Settings) -> IndexStatus:
    """Rows vs indexed documents; cached briefly because it reads every row's hash."""
    return assistant().index_status()


# ---------------------------------------------------------------- session state: plain Turns only


def turns() -> list[Turn]:
    return st.session_state.setdefault(TURNS_KEY, [])


def conversation() -> Conversation:
    """The chat's conversation state (plain data): what follow-up questions build on."""
    return st.session_state.setdefault(CONVERSATION_KEY, Conversation())


def chat_turns() -> list[Turn]:
    """The turns of the current conversation, as the chat shows them (the Traces page shows every turn)."""
    return turns()[st.session_state.get(CHAT_START_KEY, 0):]


def new_conversation() -> None:
    """Callback of "New conversation": follow-ups no longer build on earlier answers, and the chat starts empty;
    the earlier turns stay on the Traces page."""
    conversation().clear()
    st.session_state[CHAT_START_KEY] = len(turns())
    st.session_state.pop(INSPECT_KEY, None)


def find_turn(turn_id: str | None) -> Turn | None:
    return next((t for t in turns() if t.id == turn_id), None)


def queue_question(question: str, route: str | None = None) -> None:
    """Callback for example buttons: the chat page answers it on the next run."""
    st.session_state[PENDING_KEY] = (question, route)


def queue_again(turn_id: str, route: str) -> None:
    """Callback of 'ask again as': the chat page answers that turn again on `route` on the next run (a follow-up
    keeps what it inherited, see Assistant.ask_again)."""
    st.session_state[AGAIN_KEY] = (turn_id, route)


def take_again() -> tuple[Turn, str] | None:
    """The queued 'ask again as' with the turn it re-asks (None when there is none, or the turn is gone)."""
    queued = st.session_state.pop(AGAIN_KEY, None)
    if queued is None:
        return None
    turn = find_turn(queued[0])
    return (turn, queued[1]) if turn is not None else None


def take_pending() -> tuple[str, str | None] | None:
    return st.session_state.pop(PENDING_KEY, None)


def queue_edit(turn_id: str, edit: PlanEdit) -> None:
    """Callback of a reading chip: the chat page answers the edited reading on the next run."""
    st.session_state[EDIT_KEY] = (turn_id, edit)


def take_edit() -> tuple[Turn, PlanEdit] | None:
    """The queued edit with the turn it edits (None when there is none, or the turn is gone)."""
    queued = st.session_state.pop(EDIT_KEY, None)
    if queued is None:
        return None
    turn = find_turn(queued[0])
    return (turn, queued[1]) if turn is not None else None


def inspect(turn_id: str) -> None:
    st.session_state[INSPECT_KEY] = turn_id
