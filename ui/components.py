"""Rendering of turns, traces and charts, shared by the Chat and Traces pages.

Document text is data: chunk texts go through `st.text`/`st.code`; titles, labels and messages through
`ui.support.escape_markdown` (once, where they become Markdown), answers through `safe_answer_markdown`, and
figures are built from `ui.charts.plotly_frame`; `unsafe_allow_html` is never used.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pandas as pd
import plotly.express as px
import streamlit as st

from rag.models import ChartSpec, PlanEdit, QueryResult, Route, Trace, Turn
from ui import charts, engine, history
from ui import support as ui

PLOTLY_CONFIG = {"displaylogo": False, "modeBarButtonsToRemove": ["lasso2d", "select2d"]}


# ---------------------------------------------------------------- small pieces


def route_badge(route: str | None, *, forced: bool = False) -> None:
    if not route:
        st.badge("No answer", icon=":material/error:", color="red")
        return
    st.badge(ui.badge_label(ui.route_label(route)), icon=ui.ROUTE_ICONS.get(route),
             color=ui.ROUTE_COLORS.get(route, "gray"))
    if forced:
        st.badge("forced", icon=":material/alt_route:", color="gray")


def styled(fig: Any, height: int = 340) -> Any:
    fig.update_layout(height=height, margin={"l": 10, "r": 10, "t": 40, "b": 10}, legend_title_text="",
                      title_font_size=14)
    return fig


CHART_FONT = {"font_size": 14, "title_font_size": 18, "legend_font_size": 14}  # readable, in full screen too


def chart_figure(result: QueryResult, spec: ChartSpec, kind: str, *, sort_by_value: bool = False) -> Any:
    """The Plotly figure for `spec` drawn as `kind` (one of `charts.alternatives(spec)`), its categories sorted
    by value when asked (periods stay in time order)."""
    chosen = dataclasses.replace(spec, kind=kind)
    fig = charts.figure(result, chosen, sort_by_value=sort_by_value)
    sideways = spec.horizontal and not spec.time_x and kind != "line"
    if kind != "line" and spec.x:  # years and months as labels, not a numeric axis
        order = charts.category_order(result, spec.x, by_time=spec.time_x,
                                      by_value=sort_by_value and not spec.time_x, value=spec.y)
        (fig.update_yaxes if sideways else fig.update_xaxes)(type="category", categoryorder="array",
                                                              categoryarray=order)
    categories = len({row[result.columns.index(spec.x)] for row in result.rows}) if spec.x else 0
    fig = styled(fig, height=max(340, 120 + 28 * categories) if sideways else 340)
    fig.update_layout(**CHART_FONT, legend_title_text=charts.escape_plotly(spec.labels.get(spec.color or "", "")))
    return fig


SHOWN_ROWS = 200  # rows drawn in a result table; the count above it says how many there were


def result_frame(result: QueryResult, headers: list[str] | None = None) -> pd.DataFrame:
    """The first SHOWN_ROWS rows of a result, for display (the core keeps them all), under `headers` (else the
    column names); table cells are plain text, so only bidi controls are made visible."""
    rows = [[ui.show_bidi(v) if isinstance(v, str) else v for v in row] for row in result.rows[:SHOWN_ROWS]]
    return pd.DataFrame(rows, columns=[ui.show_bidi(c) for c in headers or result.columns])


def result_headers(result: QueryResult) -> list[str]:
    """The chat's table headers: each column's label ("Category", "Number of articles")."""
    return engine.assistant().column_headers(result.columns)


def link_columns(result: QueryResult, headers: list[str]) -> dict[str, Any]:
    """Column settings (by header) that make every column of plain http(s) links clickable and wide enough to
    read (a column with anything else in it stays text)."""
    shown = result.rows[:SHOWN_ROWS]
    config: dict[str, Any] = {}
    for index, header in enumerate(headers):
        values = [row[index] for row in shown if row[index] not in (None, "")]
        if values and all(isinstance(v, str) and ui.safe_url(v) == v for v in values):
            config[ui.show_bidi(header)] = st.column_config.LinkColumn(width="large")
    return config


def selected_rows_frame(result: QueryResult) -> pd.DataFrame:
    """Rows the hybrid route's SQL selected for the search, by title when the result has the title column (the
    row keys, often long URLs, are cut off in a narrow sidebar and say little)."""
    title = engine.assistant().source.roles.title
    if title not in result.columns:
        return result_frame(result)
    index = result.columns.index(title)
    return pd.DataFrame({ui.show_bidi(title): [ui.show_bidi("" if row[index] is None else str(row[index]))
                                                 for row in result.rows[:SHOWN_ROWS]]})


def row_count_caption(result: QueryResult, verb: str = "") -> str:
    count = len(result.rows)
    shown = f" (first {SHOWN_ROWS} shown)" if count > SHOWN_ROWS else ""
    limit = " — the row limit was reached" if result.row_limit_hit else ""
    return f"{count:,} row{'s' if count != 1 else ''}{' ' + verb if verb else ''}{shown}{limit}"


# ---------------------------------------------------------------- one chat turn


def render_turn(turn: Turn, number: int, *, status: Any | None = None, with_actions: bool = True) -> None:
    """The assistant's message for `turn`: steps, badge, answer, SQL result and chart, sources, actions."""
    trace = turn.trace
    label = (f"How it was answered: {len(trace.spans)} steps in {ui.format_ms(trace.total_ms)}"
             if not turn.error else f"Could not answer ({len(trace.spans)} steps in {ui.format_ms(trace.total_ms)})")
    box = status if status is not None else st.status(label, state="error" if turn.error else "complete",
                                                      expanded=False)
    for line in ui.step_lines(trace):
        box.markdown(ui.escape_markdown(line))
    box.update(label=label, state="error" if turn.error else "complete", expanded=False)

    with st.container(horizontal=True, vertical_alignment="center", gap="small"):
        if turn.route is None and turn.error is None:  # "why SQL?": an earlier answer explained, no query ran
            st.badge("Explanation", icon=":material/help:", color="gray")
        else:
            route_badge(turn.route, forced=bool(trace.forced_route))
        st.caption(ui.escape_markdown(ui.provider_label(trace.provider)))

    earlier = None
    if turn.error:
        st.error(ui.safe_answer_markdown(turn.answer), icon=":material/error:")
        if "index" in turn.error.lower():
            st.page_link("pages/data.py", label="Open the Data page to build the index", icon=":material/sync:")
    else:
        earlier = ui.compared_turn(turn, engine.turns())
        if earlier is not None:
            render_comparison(earlier, turn)
        else:
            st.markdown(ui.safe_answer_markdown(turn.answer))
        if with_actions:
            render_reading(turn)
    for note in turn.result.notes + trace.notes:
        st.info(ui.escape_markdown(note), icon=":material/info:")

    if turn.route == Route.SQL.value and turn.result.result is not None and turn.result.result.columns:
        render_sql_result(turn)
    if turn.citations and earlier is None:  # a comparison lists each side's sources in its column
        st.markdown("**Sources**")
        st.markdown("  \n".join(ui.citation_markdown(c.number or i, c.title, c.url, c.published_date)
                                for i, c in enumerate(turn.citations, start=1)))
    if with_actions:
        render_actions(turn)


def render_comparison(earlier: Turn, again: Turn) -> None:
    """"Ask again as": the earlier answer and this one side by side (route, reading, reason, what was found,
    timings, answer, sources), so the two routes can be compared without scrolling."""
    st.markdown(f"**Compared with the earlier answer** (same question, {ui.route_label(earlier.route)} → "
                f"{ui.route_label(again.route)})")
    for column, turn in zip(st.columns(2, gap="medium", border=True), (earlier, again), strict=True):
        facts = ui.comparison_facts(turn)
        with column:
            with st.container(horizontal=True, vertical_alignment="center", gap="small"):
                route_badge(turn.route)
                st.caption(ui.escape_markdown(facts["chosen"]))
            reason = facts["reason"] if facts["reason"] != facts["chosen"] else ""
            lines = [f"**Reading:** {ui.escape_markdown(facts['reading'])}" if facts["reading"] else "",
                     f"**Reason:** {ui.escape_markdown(reason)}" if reason else "",
                     f"**Found:** {ui.escape_markdown(facts['found'])}",
                     f"**Time:** {facts['total']}" + (f" ({ui.escape_markdown(facts['steps'])})" if facts["steps"]
                                                      else "")]
            st.markdown("  \n".join(line for line in lines if line))
            st.divider()
            if turn.error:
                st.error(ui.safe_answer_markdown(turn.answer), icon=":material/error:")
            else:
                st.markdown(ui.safe_answer_markdown(turn.answer))
            if turn.citations:
                st.markdown("**Sources**  \n" + "  \n".join(
                    ui.citation_markdown(c.number or i, c.title, c.url, c.published_date)
                    for i, c in enumerate(turn.citations, start=1)))


def render_reading(turn: Turn) -> None:
    """The reading as chips: removing a condition, the grouping or the text match, or choosing an alternative
    reading, answers again from the edited reading (the question is not parsed again)."""
    reading = turn.result.interpretation
    if reading is None or reading.plan is None:
        return
    removable = [c for c in reading.conditions if c.ref]
    if not removable and not reading.group_by and not reading.alternatives:
        return
    with st.container(horizontal=True, vertical_alignment="center", gap="small"):
        st.caption("Reading")
        for condition in removable:
            st.button(ui.escape_markdown(condition.text, one_line=True), key=f"drop_{turn.id}_{condition.ref}",
                      icon=":material/close:", type="secondary", on_click=engine.queue_edit,
                      args=(turn.id, PlanEdit(drop=[condition.ref])),
                      help="Remove this condition and answer again")
        if reading.group_by:
            st.button(ui.escape_markdown("per " + reading.grouping(), one_line=True),
                      key=f"drop_{turn.id}_grouping", icon=":material/close:", type="secondary",
                      on_click=engine.queue_edit, args=(turn.id, PlanEdit(drop_grouping=True)),
                      help="Remove the grouping and answer again")
        for number, alternative in enumerate(reading.alternatives):
            st.button(ui.escape_markdown(alternative.label, one_line=True), key=f"alternative_{turn.id}_{number}",
                      icon=":material/alt_route:", type="tertiary", on_click=engine.queue_edit,
                      args=(turn.id, alternative.edit), help="Answer with this reading instead")


def render_sql_result(turn: Turn) -> None:
    result = turn.result.result
    spec = turn.chart
    if result is not None and spec is not None and spec.kind == "metric":
        value = result.rows[0][0]  # the label is an SQL alias a model may have written; the value is data
        st.metric(ui.escape_markdown(spec.title or spec.y or "value"),
                  ui.escape_markdown(f"{value:,}" if isinstance(value, int | float) else value))
    elif result is not None and spec is not None and spec.kind in charts.CHART_KINDS and spec.kind != "table":
        options = charts.alternatives(spec)
        with st.container(horizontal=True, vertical_alignment="center", gap="small"):
            kind = st.segmented_control("Chart type", options, default=spec.kind, key=f"chart_{turn.id}",
                                        format_func=lambda k: ui.CHART_LABELS.get(k, k), label_visibility="collapsed")
            sort = False
            if spec.x and not spec.time_x and (kind or spec.kind) != "line":
                sort = st.toggle("Sort by value", key=f"sort_{turn.id}", help="Largest first")
        try:
            st.plotly_chart(chart_figure(result, spec, kind or spec.kind, sort_by_value=sort), config=PLOTLY_CONFIG,
                            key=f"plot_{turn.id}")
        except ValueError as error:
            st.warning(f"This result cannot be drawn as a chart: {ui.escape_markdown(error)}")
    if result is None:
        return
    listing = spec is None and bool(turn.citations)  # its rows are the Sources below; the table on request
    if not listing:  # a listing's answer and its expander say how many rows there are
        st.caption(row_count_caption(result))
    if not result.rows:  # an empty table is drawn taller than the height given for no rows, over the feedback row
        return
    headers = result_headers(result)  # labels, not column names (the trace shows those with the SQL)
    frame = result_frame(result, headers)
    table = {"hide_index": True, "height": min(38 + 35 * min(len(result.rows), SHOWN_ROWS), 320),
             "column_config": link_columns(result, headers)}
    if listing:
        count = len(result.rows)
        label = (f"All {count:,} rows as a table" if count <= SHOWN_ROWS else
                 f"The first {SHOWN_ROWS} of {count:,} rows as a table")
        with st.expander(label, icon=":material/table:"):
            st.dataframe(frame, **table)
    else:
        st.dataframe(frame, **table)


def render_actions(turn: Turn) -> None:
    with st.container(horizontal=True, vertical_alignment="center", gap="small"):
        st.feedback("thumbs", key=f"feedback_{turn.id}", default=ui.feedback_to_widget(turn.feedback),
                    on_change=_store_feedback, args=(turn.id,))
        with st.popover("Comment", type="tertiary", icon=":material/rate_review:",
                        help="Add a few words to your rating; they are kept with the turn"):
            st.text_input("Comment (optional, kept with your rating)", value=turn.feedback_comment, max_chars=1000,
                          key=f"comment_{turn.id}", on_change=_store_feedback, args=(turn.id,))
        # The route it took is said in words (a disabled button would be greyed out, about 2.3:1 contrast).
        st.caption(f"Answered as {ui.route_label(turn.route)}; ask again as" if turn.route else "Ask again as")
        for route in (r for r in Route if r.value != turn.route):
            st.button(route.label, key=f"again_{route.value}_{turn.id}", type="tertiary",
                      icon=ui.ROUTE_ICONS[route.value],
                      on_click=engine.queue_again, args=(turn.id, route.value),
                      help=f"Force the {route.label.lower()} route for this question and compare")
        st.button("Trace", key=f"inspect_{turn.id}", type="tertiary", icon=":material/manage_search:",
                  on_click=engine.inspect, args=(turn.id,), help="Show this turn in the trace inspector")


def _store_feedback(turn_id: str) -> None:
    turn = engine.find_turn(turn_id)
    if turn is not None:
        turn.feedback = ui.feedback_to_turn(st.session_state.get(f"feedback_{turn_id}"))
        comment = st.session_state.get(f"comment_{turn_id}")
        turn.feedback_comment = turn.feedback_comment if comment is None else str(comment).strip()
        history.save_feedback(turn)


# ---------------------------------------------------------------- the trace of one turn


def _bold(text: str) -> None:
    st.markdown(f"**{text}**")


def render_trace(turn: Turn, *, key: str, heading: Callable[[str], Any] = _bold) -> None:
    """Everything a prompt engineer needs about one turn; `key` keeps widget keys unique per place."""
    trace, outcome = turn.trace, turn.result
    with st.container(horizontal=True, gap="small"):
        route_badge(turn.route, forced=bool(trace.forced_route))
        st.badge(ui.badge_label(ui.provider_label(trace.provider)), icon=":material/memory:", color="gray")
    if outcome.reason:
        st.caption(f"Reason: {ui.escape_markdown(outcome.reason)}")
    st.markdown(ui.totals_markdown(turn))  # tokens and cost only when a language model was called
    if trace.error:
        st.error(ui.escape_markdown(trace.error))

    shown_sql, verdict, raw_sql = ui.sql_views(turn)
    filters, selection = ui.search_filters(turn)
    if shown_sql:
        heading("SQL")
        st.code(ui.show_bidi(shown_sql), language=ui.SQL_CODE_LANGUAGE, wrap_lines=True)  # no reordered literals
        if verdict.startswith("allowed"):
            st.success(f"Guard: {ui.escape_markdown(verdict)}", icon=":material/verified_user:")
        else:
            st.error(f"Guard: {ui.escape_markdown(verdict)}", icon=":material/block:")
        if outcome.result is not None and outcome.result.columns:
            selected = outcome.restricted_row_keys is not None
            st.caption(row_count_caption(outcome.result, "selected for the search" if selected else "returned"))
            if outcome.result.rows:  # an empty table would draw over what follows
                frame = selected_rows_frame(outcome.result) if selected else result_frame(outcome.result)
                st.dataframe(frame, hide_index=True, key=f"{key}_rows",
                             height=min(38 + 35 * min(len(outcome.result.rows), SHOWN_ROWS), 250))
        if raw_sql or selection:
            with st.expander("Raw SQL and search filters, as run"):
                st.code(ui.show_bidi(raw_sql or shown_sql), language=ui.SQL_CODE_LANGUAGE, wrap_lines=True)
                st.caption(f"Guard: {ui.escape_markdown(outcome.sql_verdict or 'not checked')}")
                st.markdown("\n".join(f"- {ui.escape_markdown(f.describe(), one_line=True)}" for f in outcome.filters))
    if filters or outcome.filters_dropped or selection:
        heading("Filters")
        lines = [f"- applied: {ui.escape_markdown(f.describe())}"
                 + (f" — from “{ui.escape_markdown(f.source)}”" if f.source else "") for f in filters]
        lines += [f"- dropped: {ui.escape_markdown(d.description)} — {ui.escape_markdown(d.reason)}"
                  for d in outcome.filters_dropped]
        if selection:
            lines.append(f"- search restricted to the {ui.escape_markdown(selection)}")
        st.markdown("\n".join(lines))
    if outcome.chunks:
        cited = [ui.citation_number(chunk, turn.citations) for chunk in outcome.chunks]
        heading(f"Retrieved chunks ({len(outcome.chunks)}, {sum(n is not None for n in cited)} cited in the answer)")
        for number, (chunk, source) in enumerate(zip(outcome.chunks, cited, strict=True), start=1):
            label = (f"{number}. {ui.escape_markdown(chunk.title)} · chunk {chunk.chunk} · {chunk.score:.2f} · "
                     + (f"cited as [{source}]" if source else "not cited"))
            with st.expander(label, icon=":material/format_quote:" if source else ":material/remove:"):
                st.progress(ui.score_fraction(chunk.score), text=f"similarity {chunk.score:.3f}")
                places = ui.search_places(chunk.row_key, outcome.rankings)
                if places:
                    st.caption(f"Fused rank {number}; each search's own rank of this document: {places}")
                link = ui.safe_url(chunk.url)
                if link:
                    st.markdown(f"[Open the article]({link})")
                st.text(ui.show_bidi(chunk.text))
                st.json({k: ui.show_bidi(v) if isinstance(v, str) else v for k, v in ui.chunk_metadata(chunk).items()},
                        expanded=False)
    if trace.spans:
        heading("Latency")
        render_waterfall(trace, key=f"{key}_waterfall")
    calls = ui.language_model_calls(trace)  # the offline engine's rule-based SQL writer is no language model
    if calls:
        heading(f"Language model calls ({len(calls)})")
        for number, call in enumerate(calls, start=1):
            label = (f"{number}. {ui.escape_markdown(call.purpose)} · {ui.escape_markdown(call.model)} · "
                     f"{call.prompt_tokens}+{call.completion_tokens} tokens · {ui.format_ms(call.duration_ms)}")
            with st.expander(label):
                if call.error:
                    st.error(ui.escape_markdown(call.error))
                st.caption("Prompt")
                st.code(ui.show_bidi(call.prompt), language="text", wrap_lines=True)
                st.caption("Response")
                st.code(ui.show_bidi(call.response), language="text", wrap_lines=True)
    for note in outcome.notes + trace.notes:
        st.info(ui.escape_markdown(note))
    st.download_button("Download trace (JSON)", ui.turn_json(turn), file_name=f"turn-{turn.id}.json",
                       mime="application/json", icon=":material/download:", key=f"{key}_download")


def render_waterfall(trace: Trace, *, key: str) -> None:
    rows = ui.waterfall_rows(trace.spans)
    frame = charts.plotly_frame(pd.DataFrame(rows))  # span names and details may hold data (SQL, filters)
    fig = px.bar(frame, x="duration_ms", y="step", base="start_ms", orientation="h", color="status", text="duration",
                 color_discrete_map={"ok": "#4c78a8", "error": "#e45756"},
                 hover_data={"name": True, "start_ms": True, "duration_ms": True, "details": True, "step": False,
                             "status": False, "duration": False})
    fig.update_traces(textposition="outside", cliponaxis=False, textfont_size=12)  # each bar says how long it took
    fig.update_yaxes(autorange="reversed", title=None)
    fig.update_xaxes(title="ms since the question arrived")
    fig.update_layout(showlegend=False)
    st.caption(f"Total **{ui.format_ms(trace.total_ms)}** over {len(rows)} steps (nested steps are indented)")
    st.plotly_chart(styled(fig, height=70 + 26 * len(rows)).update_layout(margin={"t": 10, "r": 60}),
                    config={**PLOTLY_CONFIG, "displayModeBar": False}, key=key)


# ---------------------------------------------------------------- column roles (Data page)

ROLE_KEY = "data_role::"  # + column name: the role selectbox of that column
LABEL_KEY = "data_label::"  # + column name: the label input of that column


def role_editor(report: Any) -> dict[str, str] | None:
    """Each column with its type, a role selectbox, who set the role and the evidence, in one form; returns
    {column: role} for every column when the form is submitted, else None. `report` is a `RolesReport`."""
    with st.form("data_roles", border=True):
        widths = [3, 3, 3, 2, 7]
        for column, heading in zip(st.columns(widths), ("Column", "Role", "Label", "Set by", "Evidence"),
                                   strict=True):
            column.markdown(f"**{heading}**")
        for entry in report.columns:
            name, role, label, set_by, evidence = st.columns(widths, vertical_alignment="center")
            name.markdown(ui.escape_markdown(entry.column, one_line=True))
            name.caption(entry.type)
            role.selectbox(ui.escape_markdown(entry.column, one_line=True), report.choices,
                           index=report.choices.index(entry.role), key=ROLE_KEY + entry.column,
                           label_visibility="collapsed")
            label.text_input(f"Label of {ui.escape_markdown(entry.column, one_line=True)}", value=entry.label,
                             key=LABEL_KEY + entry.column, max_chars=60, label_visibility="collapsed",
                             help="What answers, readings and charts call this column; empty: derived from its name")
            set_by.caption(ui.SET_BY_LABELS.get(entry.set_by, entry.set_by))
            evidence.caption(ui.escape_markdown(entry.evidence, one_line=True))
        submitted = st.form_submit_button("Save roles", icon=":material/save:", key="data_roles_save")
    if not submitted:
        return None
    return {entry.column: st.session_state.get(ROLE_KEY + entry.column, entry.role) for entry in report.columns}


def label_changes(report: Any) -> dict[str, str]:
    """{column: label} for each column whose label input the user changed (after `role_editor` was submitted)."""
    changed = {entry.column: str(st.session_state.get(LABEL_KEY + entry.column, entry.label)).strip()
               for entry in report.columns}
    return {column: label for column, label in changed.items()
            if label != next(e.label for e in report.columns if e.column == column)}


def forget_role_widgets(report: Any) -> None:
    """After a save or reset: the selectboxes and label inputs start again from what is now in force."""
    for entry in report.columns:
        st.session_state.pop(ROLE_KEY + entry.column, None)
        st.session_state.pop(LABEL_KEY + entry.column, None)
