"""SQL results -> a chart spec: data naming a type from a fixed set and columns that exist in the result.

The UI draws the figure (`ui/charts.py`); no generated code is ever run.
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
