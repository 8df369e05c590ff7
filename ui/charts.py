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


def figure(result: QueryResult, spec: ChartSpec, *, sort_by_value: bool = False) -> Any:
    """Build the Plotly figure for `spec`; raises ValueError if the spec names unknown columns or type.

    Axes and legend carry the spec's labels ("Number of articles", not `article_count`); periods on x are kept in
    time order and, on a line, a missing period breaks the line instead of being bridged (1970 and 2023 are not
    joined across the years between); long category labels make horizontal bars; `sort_by_value` orders the
    categories by their (total) value, largest first; stacked bars carry their total above each stack, so a
    small stack still reads."""
    import plotly.express as px
    import plotly.graph_objects as go

    if spec.kind not in CHART_KINDS:
        raise ValueError(f"unknown chart type {spec.kind!r}")
    for column in (spec.x, spec.y, spec.color):
        if column is not None and column not in result.columns:
            raise ValueError(f"chart column {column!r} is not in the result")
    frame = plotly_frame(result.rows, result.columns)
    x, y, color, title = (escape_plotly(value) for value in (spec.x, spec.y, spec.color, spec.title))
    labels = {escape_plotly(c): escape_plotly(text) for c, text in spec.labels.items() if c in result.columns}
    if spec.kind == "metric":
        return go.Figure(go.Indicator(mode="number", value=float(frame[y].iloc[0]), title={"text": title}))
    if spec.kind == "table":
        raise ValueError("a table is not a chart")
    order = category_order(result, spec.x, by_time=spec.time_x, by_value=sort_by_value and not spec.time_x,
                           value=spec.y)
    orders = {x: order}
    if color:
        orders[color] = category_order(result, spec.color, by_time=False)
    if spec.kind == "line":
        if spec.time_x and not color:
            frame = _with_gaps(frame, x, y, order)
            orders[x] = list(frame[x])
        return px.line(frame, x=x, y=y, color=color, markers=True, title=title, labels=labels,
                       category_orders=orders)
    horizontal = spec.horizontal and not spec.time_x
    axes = {"x": y, "y": x, "orientation": "h"} if horizontal else {"x": x, "y": y}
    fig = px.bar(frame, **axes, color=color, title=title, labels=labels, category_orders=orders,
                 barmode="stack" if spec.kind == "stacked_bar" else "group")
    if spec.kind == "stacked_bar" and not horizontal:
        totals = frame.groupby(x, sort=False)[y].sum()
        fig.add_trace(go.Scatter(x=list(totals.index), y=list(totals.values), mode="text", showlegend=False,
                                 text=[f"{value:,.0f}" if float(value).is_integer() else f"{value:,.1f}"
                                       for value in totals.values],
                                 textposition="top center", hoverinfo="skip"))
    if horizontal:
        fig.update_yaxes(autorange="reversed")  # the first category on top, as in a list
    return fig


def _with_gaps(frame: Any, x: str, y: str, order: list[Any]) -> Any:
    """The line's points with every missing period between the first and the last added without a value, so
    the line breaks there (years and months; other x values are returned as they are)."""
    import pandas as pd

    periods = _all_periods([str(v) for v in order])
    if periods is None:
        return frame
    known = {str(k): v for k, v in zip(frame[x], frame[y], strict=True)}
    return pd.DataFrame({x: periods, y: [known.get(p) for p in periods]})


MAX_FILLED_PERIODS = 1200


def _all_periods(values: list[str]) -> list[str] | None:
    """Every year ("1970".."2023") or month ("2023-01".."2024-03") from the first value to the last; None for
    other values or a span longer than MAX_FILLED_PERIODS."""
    import re

    if values and all(re.fullmatch(r"\d{4}", v) for v in values):
        low, high = int(min(values)), int(max(values))
        return [str(year) for year in range(low, high + 1)] if high - low < MAX_FILLED_PERIODS else None
    if values and all(re.fullmatch(r"\d{4}-\d{2}", v) for v in values):
        low, high = min(values), max(values)
        year, month = int(low[:4]), int(low[5:])
        out: list[str] = []
        while f"{year:04d}-{month:02d}" <= high and len(out) <= MAX_FILLED_PERIODS:
            out.append(f"{year:04d}-{month:02d}")
            year, month = (year + 1, 1) if month == 12 else (year, month + 1)
        return out if len(out) <= MAX_FILLED_PERIODS else None
    return None


def category_order(result: QueryResult, column: str, *, by_time: bool = False, by_value: bool = False,
                   value: str | None = None) -> list[Any]:
    """The distinct values of `column` as the figure's (escaped) categories: in the result's order, in time
    order (`by_time`: periods sort as text, "2023-01" < "2023-02"), or by the total of `value`, largest first."""
    index = result.columns.index(column)
    if by_value and value is not None:
        at = result.columns.index(value)
        totals: dict[str, float] = {}
        for row in result.rows:
            key = escape_plotly(str(row[index]))
            totals[key] = totals.get(key, 0.0) + (row[at] if isinstance(row[at], int | float) else 0.0)
        return sorted(totals, key=lambda key: -totals[key])
    ordered = list(dict.fromkeys(escape_plotly(str(row[index])) for row in result.rows))
    return sorted(ordered) if by_time else ordered


def alternatives(spec: ChartSpec) -> list[str]:
    """Chart types the user may switch to for this spec's columns: a line only over periods (a line between
    categories would draw a trend that is not there)."""
    if spec.kind == "metric":
        return ["metric"]
    line = ["line"] if spec.time_x or spec.kind == "line" else []
    if spec.color:
        return ["stacked_bar", "grouped_bar", *line]
    return ["bar", *line]
