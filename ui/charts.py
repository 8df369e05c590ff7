"""Chart specs (`rag.answer.chart_spec`) -> Plotly figures; only types from a fixed set, only existing columns."""

from __future__ import annotations

from typing import Any

from rag.answer.chart_spec import CHART_KINDS
from rag.models import ChartSpec, QueryResult


def figure(result: QueryResult, spec: ChartSpec) -> Any:
    """Build the Plotly figure for `spec`; raises ValueError if the spec names unknown columns or type."""
    import pandas as pd
    import plotly.express as px
    import plotly.graph_objects as go

    if spec.kind not in CHART_KINDS:
        raise ValueError(f"unknown chart type {spec.kind!r}")
    for column in (spec.x, spec.y, spec.color):
        if column is not None and column not in result.columns:
            raise ValueError(f"chart column {column!r} is not in the result")
    frame = pd.DataFrame(result.rows, columns=result.columns)
    if spec.kind == "metric":
        return go.Figure(go.Indicator(mode="number", value=float(frame[spec.y].iloc[0]), title={"text": spec.title}))
    if spec.kind == "line":
        return px.line(frame, x=spec.x, y=spec.y, color=spec.color, markers=True, title=spec.title)
    if spec.kind in ("grouped_bar", "stacked_bar"):
        return px.bar(frame, x=spec.x, y=spec.y, color=spec.color, title=spec.title,
                      barmode="group" if spec.kind == "grouped_bar" else "stack")
    if spec.kind == "bar":
        return px.bar(frame, x=spec.x, y=spec.y, color=spec.color, title=spec.title)
    raise ValueError("a table is not a chart")


def alternatives(spec: ChartSpec) -> list[str]:
    """Chart types the user may switch to for this spec's columns."""
    if spec.kind == "metric":
        return ["metric"]
    if spec.color:
        return ["stacked_bar", "grouped_bar", "line"]
    return ["bar", "line"]
