"""Data: the table's schema and column roles, articles by category and month, index health and sync."""

from __future__ import annotations

import pandas as pd
import plotly.express as px
import streamlit as st

from rag.data.index import SyncProgress
from rag.errors import RagError
from rag.settings import mask_url
from ui import components, engine
from ui import support as ui
from ui.charts import plotly_frame

engine.require_app()

assistant = engine.assistant()
settings = assistant.settings
source = assistant.source
profile = assistant.profile()
roles = source.roles.as_dict()

st.title("Data")
st.caption(f"Table `{source.table}` in `{mask_url(settings.db_url)}` — opened read-only.")

with st.container(horizontal=True):
    st.metric("Rows", f"{profile.row_count:,}", border=True)
    st.metric("Columns", len(source.columns), border=True)
    st.metric("Categories", len(profile.categories), border=True)
    st.metric("Authors", len(profile.authors), border=True)
    if profile.date_min:
        st.metric("Dates", ui.escape_markdown(f"{str(profile.date_min)[:10]} → {str(profile.date_max)[:10]}"),
                  border=True)

schema, charts = st.columns([2, 3], gap="large")
with schema:
    st.subheader("Schema and column roles", anchor=False)
    role_of = {column: role for role, column in roles.items() if isinstance(column, str)}
    for column in roles.get("numeric") or []:
        role_of.setdefault(column, "numeric")
    st.dataframe(pd.DataFrame([{"column": info.name, "type": info.type, "nullable": info.nullable,
                                "role": role_of.get(info.name, "")} for info in source.columns.values()]),
                 hide_index=True)
    st.caption("Roles are detected from names and values; override them with RAG_COLUMN_ROLES, "
               "e.g. `title=headline,content=body`.")

with charts:
    try:
        by_category = assistant.overview("category")
        if by_category is not None:
            frame = plotly_frame(by_category.rows, by_category.columns)  # categories are data
            st.plotly_chart(components.styled(px.bar(frame, x="category", y="articles",
                                                     title="Articles by category")),
                            config=components.PLOTLY_CONFIG, key="data_by_category")
        by_month = assistant.overview("month")
        if by_month is not None:
            frame = plotly_frame(by_month.rows, by_month.columns)
            figure = px.bar(frame, x="month", y="articles", title="Articles by month")
            figure.update_xaxes(type="category")  # months as labels: no empty decades between outliers
            st.plotly_chart(components.styled(figure), config=components.PLOTLY_CONFIG, key="data_by_month")
    except RagError as error:
        st.error(ui.safe_answer_markdown(f"{error.title}: {error}"))

st.divider()
st.subheader("Search index", anchor=False)
status = engine.index_status(settings)
with st.container(horizontal=True):
    st.metric("Rows in the table", f"{status.rows:,}", border=True)
    st.metric("Indexed documents", f"{status.documents:,}", border=True)
    st.metric("Chunks", f"{status.chunks:,}", border=True)
    st.metric("Missing", f"{status.missing:,}", border=True, help="Rows with text that are not in the index yet")
    st.metric("Stale", f"{status.stale:,}", border=True, help="Rows changed since they were indexed")
    st.metric("Orphaned", f"{status.orphaned:,}", border=True, help="Indexed documents whose row is gone")
if status.healthy:
    st.success(f"The index is up to date: collection `{status.collection}`, model `{status.embed_model}`.",
               icon=":material/check_circle:")
elif not status.exists:
    # The problem says which: never built, damaged (with the rebuild to run) or a search server that is down.
    st.warning(f"The index is not ready. {ui.safe_answer_markdown(status.problem or '')}",
               icon=":material/warning:")
else:
    st.warning(f"The index needs a sync: {status.missing} missing, {status.stale} stale, {status.orphaned} orphaned."
               + (f" {ui.safe_answer_markdown(status.problem)}" if status.problem else ""), icon=":material/warning:")

with st.container(horizontal=True, vertical_alignment="center"):
    sync = st.button("Sync index", type="primary", icon=":material/sync:", key="data_sync")
    rebuild = st.checkbox("Rebuild from scratch (embed every row again)", key="data_rebuild")
    st.button("Refresh status", icon=":material/refresh:", key="data_refresh", on_click=engine.index_status.clear)
st.caption("Sync embeds only new and changed rows and removes rows that are gone; SQL is the source of truth.")

if sync:
    bar = st.progress(0.0, text="Starting…")

    def on_progress(update: SyncProgress) -> None:
        fraction = update.done / update.total if update.total else 1.0
        bar.progress(min(1.0, fraction), text=f"{update.phase}: {update.done:,} of {update.total:,} rows")

    try:
        report = assistant.sync_index(rebuild=rebuild, progress=on_progress)
    except RagError as error:
        bar.empty()
        st.error(ui.safe_answer_markdown(f"{error.title}: {error}"), icon=":material/error:")
    else:
        bar.progress(1.0, text="Done")
        # The cached engine may hold a collection handle a rebuild replaced: start it afresh.
        engine.forget_assistant()
        st.session_state["data_last_sync"] = report.to_dict()
        st.rerun()

last = st.session_state.get("data_last_sync")
if last:
    st.success(f"Last sync: {last['rows']:,} rows — {last['new']} new, {last['changed']} changed, "
               f"{last['unchanged']} unchanged, {last['deleted']} deleted, {len(last['skipped'])} skipped; "
               f"{last['chunks_added']} chunks embedded in {last['seconds']:.1f} s.", icon=":material/done_all:")
    for key in ("repaired", "moved_aside"):
        if last.get(key):
            note = last[key] if key == "repaired" else f"The unreadable index directory was moved to {last[key]}."
            st.info(ui.safe_answer_markdown(note[0].upper() + note[1:]), icon=":material/build:")
    if last["skipped"] or last["notes"]:
        with st.expander("Skipped rows and notes"):
            st.dataframe(pd.DataFrame(last["skipped"] + last["notes"]), hide_index=True)
