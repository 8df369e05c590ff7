"""The chat's link with the app's store (`Assistant.history`): the conversation id in the URL (`?chat=ID`),
restoring a conversation after a reload, saving each turn and its feedback, New chat and deleting a chat.

Session state keeps only plain data (turns, the follow-up state, the conversation id); a store that fails is
reported once in plain words and the chat goes on without history.
"""

from __future__ import annotations

import streamlit as st

from rag.errors import RagError
from rag.models import Conversation, Turn
from ui import engine
from ui.support import escape_markdown, show_bidi

PARAM = "chat"  # ?chat=<conversation id>
CHAT_ID_KEY = "chat_id"  # the stored conversation the chat shows (None until its first turn is saved)
NOTICE_KEY = "chat_notice"  # a message for the next run of the chat page
KEEP_KEY = "chat_keep"  # the sidebar's "Keep this chat" switch: off, the next answers are not stored


def current_id() -> str | None:
    return st.session_state.get(CHAT_ID_KEY)


def follow_url() -> None:
    """First thing on the chat page: a conversation id in the URL that this session does not show yet is loaded
    from the store (after a reload, a shared link, an "Open in chat" link); the URL always names the conversation
    shown, so a reload comes back to it."""
    requested = st.query_params.get(PARAM)
    current = current_id()
    if requested and requested != current:
        open_conversation(requested)
    elif current and not requested:
        st.query_params[PARAM] = current


def open_conversation(conversation_id: str) -> bool:
    """Show a stored conversation: its turns (with traces and feedback) become the chat, its follow-up state the
    conversation's. False (and a notice) when the store does not have it."""
    try:
        stored = engine.assistant().history.load(conversation_id)
    except RagError as error:
        stored = None
        st.session_state[NOTICE_KEY] = f"{error.title}: {error}"
    if stored is None:
        st.session_state.setdefault(NOTICE_KEY, "That conversation is not stored (it was deleted or expired, or "
                                                "history is switched off); here is a new chat.")
        new_chat()
        return False
    ids = {t.id for t in stored.turns}
    kept = [t for t in engine.turns() if t.id not in ids]  # the session's other turns stay on the Traces page
    engine.turns()[:] = kept + stored.turns
    st.session_state[engine.CHAT_START_KEY] = len(kept)
    table = engine.assistant().source.table
    if stored.source and stored.source != table:  # its readings name another table's columns: nothing to build on
        st.session_state[engine.CONVERSATION_KEY] = Conversation()
        st.session_state[NOTICE_KEY] = (f"This conversation asked about table {stored.source}, not {table}: "
                                        "new questions will not build on its answers.")
    else:
        st.session_state[engine.CONVERSATION_KEY] = stored.state
    st.session_state[CHAT_ID_KEY] = conversation_id
    st.session_state.pop(engine.INSPECT_KEY, None)
    st.query_params[PARAM] = conversation_id
    return True


def save_turn(turn: Turn, number: int) -> None:
    """Keep `turn` as turn `number` of the shown conversation (started in the store by its first turn)."""
    store = engine.assistant().history
    if not store.enabled or not st.session_state.get(KEEP_KEY, True):
        return
    conversation_id = current_id() or store.new_id()
    try:
        store.save_turn(conversation_id, turn, number=number, state=engine.conversation(),
                        source=engine.assistant().source.table)
    except RagError as error:
        st.warning(f"**{error.title}.** {escape_markdown(error)} The answer is shown but not kept.",
                   icon=":material/cloud_off:")
        return
    st.session_state[CHAT_ID_KEY] = conversation_id
    st.query_params[PARAM] = conversation_id


def save_feedback(turn: Turn) -> None:
    """Callback helper: the turn's thumbs and comment to the store (a turn that was never stored is skipped)."""
    try:
        engine.assistant().history.save_feedback(turn.id, turn.feedback, turn.feedback_comment)
    except RagError as error:
        st.session_state[NOTICE_KEY] = f"{error.title}: {error}"


def recent(limit: int = 15) -> dict[str, str]:
    """{conversation id: plain-text label} of the table's most recently used stored conversations (empty when the
    store is off or failing)."""
    from datetime import UTC, datetime

    from ui.trace_list import readable_time

    assistant = engine.assistant()
    try:
        found = assistant.history.conversations(source=assistant.source.table, limit=limit)
    except RagError:
        return {}
    now, zone = datetime.now(UTC), st.context.timezone
    return {c.id: f"{show_bidi(c.title[:60])} · {c.turns} turn{'s' if c.turns != 1 else ''} · "
                  f"{readable_time(c.updated_at, now, zone)}" for c in found}


def new_chat() -> None:
    """Callback of "New chat": an empty chat with the example questions; follow-ups no longer build on the earlier
    answers, which stay stored (and on the Traces page)."""
    engine.new_conversation()
    st.session_state[CHAT_ID_KEY] = None
    st.query_params.pop(PARAM, None)


def delete_chat() -> None:
    """Callback of "Delete this chat": the shown conversation leaves the store and this session; a new chat starts."""
    conversation_id = current_id()
    chat_ids = {t.id for t in engine.chat_turns()}
    if conversation_id:
        try:
            engine.assistant().history.delete_conversation(conversation_id)
        except RagError as error:
            st.session_state[NOTICE_KEY] = f"{error.title}: {error}"
            return
    engine.turns()[:] = [t for t in engine.turns() if t.id not in chat_ids]
    new_chat()
    st.session_state[NOTICE_KEY] = "The conversation was deleted."


def take_notice() -> str | None:
    return st.session_state.pop(NOTICE_KEY, None)
