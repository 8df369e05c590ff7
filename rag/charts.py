"""SQL results -> a chart spec (data, from a fixed set of types) -> a Plotly figure.

The spec only names a chart type and columns that exist in the result; no generated code is run.
"""

from __future__ import annotations

from typing import Any

from rag.models import ChartSpec, QueryResult

CHART_KINDS = ("bar", "line", "grouped_bar", "stacked_bar", "metric", "table")
TIME_COLUMNS = ("year", "month", "day", "date")


def _is_number(values: list[Any]) -> bool:
    present = [v for v in values if v is not None]
    return bool(present) and all(isinstance(v, int | float) and not isinstance(v, bool) for v in present)


def _is_time(name: str, values: list[Any]) -> bool:
    if name.lower() in TIME_COLUMNS or name.lower().endswith(("_date", "_at")):
        return True
    return all(isinstance(v, str) and len(v) >= 4 and v[:4].isdigit() for v in values if v is not None)


def choose_chart(result: QueryResult | None) -> ChartSpec | None:
    """Deterministic choice from the result's shape; None when a chart would not help."""
    if result is None or not result.rows:
        return None
    columns = result.columns
    values = {name: [row[i] for row in result.rows] for i, name in enumerate(columns)}
    numbers = [c for c in columns if _is_number(values[c])]
    labels = [c for c in columns if c not in numbers]
    if len(result.rows) == 1 and len(columns) == 1 and numbers:
        return ChartSpec("metric", y=columns[0], title=columns[0].replace("_", " "))
    if not numbers or not labels or len(result.rows) < 2:
        return None
    y = numbers[-1]
    if len(labels) == 1:
        x = labels[0]
        kind = "line" if _is_time(x, values[x]) and len(result.rows) > 2 else "bar"
        return ChartSpec(kind, x=x, y=y, title=f"{y.replace('_', ' ')} by {x.replace('_', ' ')}")
    if len(labels) == 2:
        x, color = labels
        if not _is_time(x, values[x]) and _is_time(color, values[color]):
            x, color = color, x
        return ChartSpec("stacked_bar", x=x, y=y, color=color,
                         title=f"{y.replace('_', ' ')} by {x.replace('_', ' ')} and {color.replace('_', ' ')}")
    return None


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
