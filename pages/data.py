"""Data: the table's columns and their roles (with evidence, editable), articles by category and month, index
health and sync."""

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
roles_report = assistant.roles()

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

st.subheader("Column roles", anchor=False)
st.caption("Each column's role is detected from its name and a sample of its values; the evidence says what was "
           "seen. The label is what answers, readings and charts call the column. Change a role or a label and "
           "save: the choice is kept in a file beside the index and applied at once. "
           "Roles set with RAG_COLUMN_ROLES (or `--columns`) win over saved ones.")
if roles_report.missing:
    st.warning(ui.missing_roles_text(roles_report.missing, here=True), icon=":material/help:")
last_roles = st.session_state.get("data_roles_change")
if last_roles:
    headline, lines = ui.role_change_summary(last_roles)
    (st.warning if last_roles["reindex"] else st.success)(
        headline + "".join(f"\n- {line}" for line in lines), icon=":material/tune:")
edited = components.role_editor(roles_report)
with st.container(horizontal=True, vertical_alignment="center"):
    reset = st.button("Back to detected roles", icon=":material/restart_alt:", key="data_roles_reset",
                      disabled=not any(c.set_by == "saved" for c in roles_report.columns))
    st.caption("Saved roles: `" + roles_report.path.replace("`", "'") + "`")
if edited is not None or reset:
    try:
        change = assistant.set_roles(ui.role_changes(roles_report.columns, edited or {}), reset=reset,
                                     labels=components.label_changes(roles_report) if edited is not None else None)
    except RagError as error:
        st.error(ui.safe_answer_markdown(f"{error.title}: {error}"), icon=":material/error:")
    else:
        st.session_state["data_roles_change"] = change.to_dict()
        components.forget_role_widgets(roles_report)
        engine.forget_assistant()  # the next run builds the assistant with the new roles
        st.rerun()

charts_by_category, charts_by_month = st.columns(2, gap="large")
with charts_by_category:
    try:
        by_category = assistant.overview("category")
        if by_category is not None:
            frame = plotly_frame(by_category.rows, by_category.columns)  # categories are data
            title, titles = assistant.overview_titles("category")  # the table's rows and the column's label
            st.plotly_chart(components.styled(px.bar(frame, x="category", y="articles", labels=titles,
                                                     title=title)),
                            config=components.PLOTLY_CONFIG, key="data_by_category")
    except RagError as error:
        st.error(ui.safe_answer_markdown(f"{error.title}: {error}"))
with charts_by_month:
    try:
        by_month = assistant.overview("month")
        if by_month is not None:
            frame = plotly_frame(by_month.rows, by_month.columns)
            title, titles = assistant.overview_titles("month")
            figure = px.bar(frame, x="month", y="articles", title=title, labels=titles)
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
               + (f" Every row is stale: {ui.escape_markdown(status.stale_reason)}." if status.stale_reason else "")
               + (f" {ui.safe_answer_markdown(status.problem)}" if status.problem else ""), icon=":material/warning:")

with st.container(horizontal=True, vertical_alignment="center"):
    sync = st.button("Sync index", icon=":material/sync:", key="data_sync")
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
