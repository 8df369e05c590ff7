"""Evaluation: run a question set through the shared assistant; accuracy, retrieval and latency with charts."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import plotly.express as px
import streamlit as st
import yaml

from rag import evaluation
from rag.errors import RagError
from rag.settings import PROJECT_ROOT
from ui import components, engine
from ui import support as ui
from ui.charts import escape_plotly, plotly_frame

engine.require_app()

REPORT_KEY = "eval_report"

assistant = engine.assistant()
settings = assistant.settings

st.title("Evaluation")
st.caption("Each case is asked through the same cached assistant as the chat and scored on route, SQL result, "
           "retrieval (hit@k, MRR), citations and latency. Nothing here changes the chat history.")

files = sorted(p for p in (PROJECT_ROOT / "eval").rglob("*.yaml") if "results" not in p.parts)
with st.container(border=True):
    left, right = st.columns([3, 2], gap="large")
    with left:
        chosen = st.selectbox("Question set", files, format_func=lambda p: str(Path(p).relative_to(PROJECT_ROOT)),
                              index=files.index(evaluation.DEFAULT_CASES) if evaluation.DEFAULT_CASES in files else 0,
                              key="eval_file") if files else None
    with right:
        upload = st.file_uploader("…or upload a case file (YAML)", type=["yaml", "yml"], key="eval_upload")
    cases = None
    try:
        if upload is not None:
            cases = evaluation.parse_cases(yaml.safe_load(upload.getvalue().decode("utf-8")), upload.name)
        elif chosen is not None:
            cases = evaluation.load_cases(chosen)
    except (RagError, yaml.YAMLError, UnicodeDecodeError) as error:
        st.error(f"This case file cannot be used: {ui.escape_markdown(error)}", icon=":material/error:")
    if cases is not None:
        written_for = ui.escape_markdown(cases.table)  # from the (possibly uploaded) case file
        st.caption(f"{len(cases.cases)} cases written for table {written_for}; the app reads table "
                   f"`{settings.table}` with {assistant.provider_label}, k = {settings.top_k}.")
        if cases.table != settings.table:
            st.warning(f"These cases were written for table {written_for}, not `{settings.table}`: expect "
                       "failures.", icon=":material/warning:")
    run = st.button("Run evaluation", icon=":material/play_arrow:", disabled=cases is None,
                    key="eval_run")

if run and cases is not None:
    bar = st.progress(0.0, text="Warming up the engine…")

    def on_case(number: int, total: int, result: evaluation.CaseResult) -> None:
        mark = "passed" if result.passed else "failed"
        bar.progress(number / total, text=f"{number} of {total}: {ui.escape_markdown(result.id)} {mark}")

    report = evaluation.run_eval(cases, settings, assistant=assistant, progress=on_case)
    bar.empty()
    st.session_state[REPORT_KEY] = report

report: evaluation.EvalReport | None = st.session_state.get(REPORT_KEY)
if report is None:
    st.info("Choose a question set and run it. The 140 sample cases take about a minute offline on 2 cores.",
            icon=":material/info:")
    st.stop()

summary, meta = report.summary, report.meta
retrieval, sql, answers, latency = summary["retrieval"], summary["sql"], summary["answers"], summary["latency_ms"]


def pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


st.subheader(f"Results: {summary['passed']} of {summary['cases']} cases passed", anchor=False)
st.caption(ui.escape_markdown(f"{meta['cases_file']} · {meta['provider']} · {meta['duration_s']} s · "
                               f"started {meta['started_at']}"))
if meta.get("warning"):
    st.warning(ui.escape_markdown(meta["warning"]))
with st.container(horizontal=True):
    st.metric("Pass rate", pct(summary["pass_rate"]), border=True)
    st.metric("Routing accuracy", pct(summary["routing_accuracy"]), border=True)
    st.metric("SQL accuracy", pct(sql["accuracy"]), border=True, help=f"{sql['correct']} of {sql['cases']}")
    st.metric(f"Hit@{retrieval['k']}", pct(retrieval["hit_at_k"]), border=True)
    st.metric("MRR", "n/a" if retrieval["mrr"] is None else f"{retrieval['mrr']:.3f}", border=True)
    st.metric("Citation rate", pct(answers["citation_rate"]), border=True)
    st.metric("Latency p50 / p95", f"{ui.format_ms(latency['all']['p50'] or 0)} / "
              f"{ui.format_ms(latency['all']['p95'] or 0)}", border=True)
    st.metric("Errors", summary["errors"], border=True)

routing, by_route = st.columns(2, gap="large")
with routing:
    expected, actual, counts = ui.eval_confusion(summary)
    if expected:
        matrix = plotly_frame(counts, [ui.route_label(a) for a in actual])
        matrix.index = [escape_plotly(ui.route_label(e)) for e in expected]
        figure = px.imshow(matrix, text_auto=True, color_continuous_scale="Blues", aspect="auto",
                           labels={"x": "actual route", "y": "expected route", "color": "cases"},
                           title="Routing confusion matrix")
        st.plotly_chart(components.styled(figure), config=components.PLOTLY_CONFIG, key="eval_confusion")
with by_route:
    rows = ui.eval_route_rows(summary)
    if rows:
        figure = px.bar(plotly_frame(pd.DataFrame(rows)), x="route", y="value", color="measure", barmode="group",
                        hover_data=["cases"], title="By expected route (%)", range_y=[0, 100])
        st.plotly_chart(components.styled(figure), config=components.PLOTLY_CONFIG, key="eval_by_route")

by_route_latency, by_step = st.columns(2, gap="large")
with by_route_latency:
    rows = ui.eval_latency_rows(summary, "by_route")
    if rows:
        figure = px.bar(plotly_frame(pd.DataFrame(rows)), x="name", y="ms", color="percentile", barmode="group",
                        hover_data=["n"], title="Latency by route (ms)", labels={"name": "route"})
        st.plotly_chart(components.styled(figure), config=components.PLOTLY_CONFIG, key="eval_latency_route")
with by_step:
    rows = [r for r in ui.eval_latency_rows(summary, "by_step") if r["percentile"] == "p50"]
    if rows:
        figure = px.bar(plotly_frame(pd.DataFrame(rows).sort_values("ms")), x="ms", y="name", orientation="h",
                        hover_data=["n"], title="Median time per step (ms)", labels={"name": "step"})
        st.plotly_chart(components.styled(figure), config=components.PLOTLY_CONFIG, key="eval_latency_step")

st.subheader("Cases", anchor=False)
only_failures = st.toggle("Only failures", value=bool(report.failures), key="eval_only_failures")
shown = report.failures if only_failures else report.cases
st.dataframe(pd.DataFrame(ui.eval_case_rows(shown)), hide_index=True,
             column_config={"passed": st.column_config.CheckboxColumn("ok"),
                            "latency_ms": st.column_config.NumberColumn("latency", format="%.0f ms"),
                            "question": st.column_config.TextColumn(width="medium"),
                            "why": st.column_config.TextColumn("why it failed", width="large")})
for result in report.failures[:30]:
    with st.expander(f"{ui.escape_markdown(result.id)}: {ui.escape_markdown(result.question)}"):
        st.markdown("\n".join(f"- {ui.escape_markdown(reason)}" for reason in result.failure_reasons))
        st.caption(ui.escape_markdown(f"Route: expected {'/'.join(result.accepted_routes)}, got "
                                      f"{result.actual_route or 'none'} — {result.reason}"))
        if result.sql:
            st.code(ui.show_bidi(result.sql), language=ui.SQL_CODE_LANGUAGE, wrap_lines=True)
        if result.answer:
            st.text(ui.show_bidi(result.answer))

with st.container(horizontal=True):
    st.download_button("Download report (JSON)", ui.json_text(report.to_dict()), file_name="report.json",
                       mime="application/json", icon=":material/download:", key="eval_download_json")
    st.download_button("Download summary (Markdown)", evaluation.summary_markdown(report), file_name="summary.md",
                       mime="text/markdown", icon=":material/description:", key="eval_download_md")
