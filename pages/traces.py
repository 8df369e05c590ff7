"""Traces: the stored turns of every conversation (this session's only when the app's store is off), newest first,
with a search box, filters (route, feedback, outcome) and readable times; selecting a row opens its full trace."""

from __future__ import annotations

from datetime import UTC, datetime

import pandas as pd
import streamlit as st

from rag.errors import RagError
from rag.models import Route, Turn
from ui import components, engine, trace_list
from ui import support as ui

engine.require_app()

LIMIT = 500  # turns listed at most (newest first); the search narrows them down
TABLE_KEY = "traces_table"

assistant = engine.assistant()
store = assistant.history
session_turns = engine.turns()
st.title("Traces")
st.caption(f"Every question asked, in every conversation, kept in the app's store (`{store.where}`)."
           if store.enabled else "Only this session's questions: the app's store is off (RAG_APP_STORE=off).")

search = st.text_input("Search", key="traces_search", icon=":material/search:",
                       placeholder="Words of a question or an answer, e.g. crypto")
route_labels = {route.value: route.label for route in Route} | {trace_list.NO_ROUTE: "No route"}
with st.container(horizontal=True, vertical_alignment="bottom", gap="medium"):
    routes = st.pills("Route", list(route_labels), selection_mode="multi", default=list(route_labels),
                      format_func=route_labels.get, key="traces_routes")
    feedback = st.segmented_control("Feedback", list(trace_list.FEEDBACK_FILTERS),
                                    format_func=trace_list.FEEDBACK_FILTERS.get, key="traces_feedback")
    outcome = st.segmented_control("Outcome", list(trace_list.OUTCOME_FILTERS),
                                   format_func=trace_list.OUTCOME_FILTERS.get, key="traces_outcome")
filters = {"routes": trace_list.route_values(routes), "feedback": feedback,
           "errors": None if outcome is None else outcome == "failed"}

rows: list[dict] = []
if store.enabled:
    try:
        rows = trace_list.as_dicts(store.search(search, limit=LIMIT, **filters))
    except RagError as error:
        st.error(f"**{error.title}.** {ui.escape_markdown(error)} Showing this session's turns only.",
                 icon=":material/cloud_off:")
        store = None
if store is None or not store.enabled:
    rows = trace_list.filtered(trace_list.session_summaries(session_turns), search, **filters)[:LIMIT]

if not rows:
    if search or feedback or outcome or len(routes) < len(route_labels):
        st.caption("No turn matches the search and filters.")
    else:
        st.info("No questions asked yet. Ask one on the Chat page and its trace appears here.", icon=":material/info:")
        st.page_link("pages/chat.py", label="Go to Chat", icon=":material/forum:")
    st.stop()

latencies = sorted(row["latency_ms"] for row in rows)
with st.container(horizontal=True):
    st.metric("Turns", f"{len(rows):,}{'+' if len(rows) == LIMIT else ''}", border=True)
    st.metric("Median latency", ui.format_ms(latencies[len(latencies) // 2]), border=True)
    st.metric("Feedback", f"{sum(r['feedback'] == 1 for r in rows)} up · {sum(r['feedback'] == -1 for r in rows)} down",
              border=True)
    st.metric("Failed", f"{sum(bool(r['error']) for r in rows)}", border=True)

frame = pd.DataFrame(trace_list.table_rows(rows, datetime.now(UTC), st.context.timezone))
shown_columns = trace_list.shown_columns(frame.to_dict("records"))  # no all-empty column (tokens offline, errors)
event = st.dataframe(
    frame, hide_index=True, key=TABLE_KEY, on_select="rerun", selection_mode="single-row", column_order=shown_columns,
    placeholder="–",
    column_config={"asked": st.column_config.TextColumn("asked", width="small"),
                   "question": st.column_config.TextColumn("question", width=330),
                   "feedback": st.column_config.TextColumn("feedback", width=170),
                   "latency_ms": st.column_config.NumberColumn("latency", format="%.0f ms", width="small"),
                   "top_score": st.column_config.NumberColumn("top score", format="%.2f", width="small",
                                                              help="similarity of the best retrieved chunk"),
                   "chunks": st.column_config.NumberColumn("chunks", help="chunks retrieved", width="small"),
                   "cited": st.column_config.NumberColumn("cited", help="sources the answer cites", width="small")})
selected_rows = list(getattr(getattr(event, "selection", None), "rows", None) or [])
ids = [row["id"] for row in rows]
if selected_rows and selected_rows[0] < len(rows):
    opened = ids[selected_rows[0]]
    st.query_params["turn"] = opened  # a reload opens the same trace
else:
    linked = st.query_params.get("turn")
    opened = linked if linked in ids else ids[0]
    st.caption("Select a row to open its trace; the newest is shown.")


def full_turns(turn_ids: list[str]) -> list[Turn]:
    if store is not None and store.enabled:
        return store.turns(turn_ids)
    by_id = {t.id: t for t in session_turns}
    return [by_id[i] for i in turn_ids if i in by_id]


st.download_button("Export the listed turns (JSON)", lambda: ui.turns_json(full_turns(ids)), file_name="turns.json",
                   mime="application/json", icon=":material/download:", key="traces_export")

row = rows[ids.index(opened)]
found = full_turns([opened])
if not found:
    st.warning("This turn is no longer stored.", icon=":material/warning:")
    st.stop()
turn = found[0]
st.subheader(ui.escape_markdown(turn.question), anchor=False)
with st.container(horizontal=True, vertical_alignment="center"):
    asked = trace_list.readable_time(row["created_at"], datetime.now(UTC), st.context.timezone)
    st.caption(ui.escape_markdown(f"Asked {asked} · turn #{row['number']} of its conversation"))
    if row["conversation_id"]:
        st.page_link("pages/chat.py", label="Open this conversation in the chat", icon=":material/forum:",
                     query_params={"chat": row["conversation_id"]})
left, right = st.columns([3, 2], gap="large")
with left:
    components.render_trace(turn, key="traces", heading=lambda text: st.subheader(text, anchor=False))
with right:
    st.markdown("**Answer as shown to the user**")
    with st.container(border=True):
        components.render_turn(turn, row["number"], with_actions=False)
    if turn.feedback is not None or turn.feedback_comment:
        st.markdown(f"**Feedback:** {ui.feedback_label(turn.feedback) or 'no rating'}"
                    + (f" — “{ui.escape_markdown(turn.feedback_comment)}”" if turn.feedback_comment else ""))
