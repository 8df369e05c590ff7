"""Chart specs (`rag.answer.chart_spec`) -> Plotly figures; only types from a fixed set, only existing columns.

Plotly reads a subset of HTML in every text it draws (titles, tick labels, legend entries, hover text):
`<b>`, `<span style=...>`, `<a href=...>` and character entities. Text from data or from a model is
therefore escaped with `escape_plotly` before a figure is built from it; `plotly_frame` does that for a
whole result (column names and text cells; numbers stay numbers). Every figure in `ui/` and `pages/` is built
from a `plotly_frame` (a test checks this).
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from rag.answer.chart_spec import CHART_KINDS
from rag.models import ChartSpec, QueryResult
from ui.support import show_bidi


def escape_plotly(value: Any) -> Any:
    """Text shown literally by Plotly (`<`, `>`, `&` as entities, bidi controls made visible); other values
    (numbers, dates, None) are returned unchanged."""
    if not isinstance(value, str):
        return value
    return html.escape(show_bidi(value), quote=False)


def plotly_frame(rows: Any, columns: Sequence[str] | None = None) -> Any:
    """A DataFrame for Plotly Express from rows (or a DataFrame), with every column name and every text cell
    escaped for Plotly. Refer to its columns as `escape_plotly(name)`."""
    import pandas as pd

    frame = rows.copy() if isinstance(rows, pd.DataFrame) else pd.DataFrame(list(rows), columns=columns)
    for column in frame.columns:
        if frame[column].dtype == object or pd.api.types.is_string_dtype(frame[column]):
            frame[column] = frame[column].map(escape_plotly)
    frame.columns = [escape_plotly(str(name)) for name in frame.columns]
    return frame


def figure(result: QueryResult, spec: ChartSpec) -> Any:
    """Build the Plotly figure for `spec`; raises ValueError if the spec names unknown columns or type."""
    import plotly.express as px
    import plotly.graph_objects as go

    if spec.kind not in CHART_KINDS:
        raise ValueError(f"unknown chart type {spec.kind!r}")
    for column in (spec.x, spec.y, spec.color):
        if column is not None and column not in result.columns:
            raise ValueError(f"chart column {column!r} is not in the result")
    frame = plotly_frame(result.rows, result.columns)
    x, y, color, title = (escape_plotly(value) for value in (spec.x, spec.y, spec.color, spec.title))
    if spec.kind == "metric":
        return go.Figure(go.Indicator(mode="number", value=float(frame[y].iloc[0]), title={"text": title}))
    if spec.kind == "line":
        return px.line(frame, x=x, y=y, color=color, markers=True, title=title)
    if spec.kind in ("grouped_bar", "stacked_bar"):
        return px.bar(frame, x=x, y=y, color=color, title=title,
                      barmode="group" if spec.kind == "grouped_bar" else "stack")
    if spec.kind == "bar":
        return px.bar(frame, x=x, y=y, color=color, title=title)
    raise ValueError("a table is not a chart")


def category_order(result: QueryResult, column: str) -> list[Any]:
    """The distinct values of `column` in the result's order, as the figure's (escaped) categories."""
    index = result.columns.index(column)
    return list(dict.fromkeys(escape_plotly(str(row[index])) for row in result.rows))


def alternatives(spec: ChartSpec) -> list[str]:
    """Chart types the user may switch to for this spec's columns."""
    if spec.kind == "metric":
        return ["metric"]
    if spec.color:
        return ["stacked_bar", "grouped_bar", "line"]
    return ["bar", "line"]
