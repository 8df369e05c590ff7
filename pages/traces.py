"""Traces: every turn of this session in a table, filterable by route, with the full trace of one turn."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from rag.models import Route
from ui import components, engine
from ui import support as ui

engine.require_app()

st.title("Traces")
turns = engine.turns()
if not turns:
    st.info("No questions asked in this session yet. Ask one on the Chat page and its trace appears here.",
            icon=":material/info:")
    st.page_link("pages/chat.py", label="Go to Chat", icon=":material/forum:")
    st.stop()

labels = {route.value: route.label for route in Route}
chosen = st.pills("Route", list(labels), selection_mode="multi", default=list(labels), format_func=labels.get,
                  key="traces_routes")
numbered = [(n, t) for n, t in enumerate(turns, start=1) if t.route in chosen or (t.route is None and not chosen)]
shown = [t for _, t in numbered]

total_ms = [t.trace.total_ms for t in shown]
with st.container(horizontal=True):
    st.metric("Turns", f"{len(shown)} of {len(turns)}", border=True)
    st.metric("Median latency", ui.format_ms(sorted(total_ms)[len(total_ms) // 2]) if total_ms else "–", border=True)
    st.metric("Tokens", f"{sum(t.trace.tokens['total'] for t in shown):,}", border=True)
    st.metric("Feedback", f"{sum(t.feedback == 1 for t in shown)} up · {sum(t.feedback == -1 for t in shown)} down",
              border=True)

st.dataframe(pd.DataFrame([ui.turn_row(t, n) for n, t in numbered]), hide_index=True,
             column_config={"latency_ms": st.column_config.NumberColumn("latency", format="%.0f ms"),
                            "cost_usd": st.column_config.NumberColumn("cost", format="$%.4f"),
                            "question": st.column_config.TextColumn("question", width="large")})
st.download_button("Export all turns (JSON)", ui.turns_json(turns), file_name="turns.json", mime="application/json",
                   icon=":material/download:", key="traces_export")

if shown:
    titles = {t.id: ui.turn_title(t, n, width=90) for n, t in numbered}
    selected = st.selectbox("Full trace of", list(titles), index=len(titles) - 1, format_func=titles.get,
                            key="traces_selected")
    turn = engine.find_turn(selected) or shown[-1]
    st.subheader(ui.escape_markdown(turn.question), anchor=False)
    left, right = st.columns([3, 2], gap="large")
    with left:
        components.render_trace(turn, key="traces", heading=lambda text: st.subheader(text, anchor=False))
    with right:
        st.markdown("**Answer as shown to the user**")
        with st.container(border=True):
            components.render_turn(turn, turns.index(turn) + 1, with_actions=False)
else:
    st.caption("No turn matches the route filter.")
