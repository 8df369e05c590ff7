"""SQL results -> a chart spec: data naming a type from a fixed set and columns that exist in the result.

The UI draws the figure (`ui/charts.py`); no generated code is ever run. Titles and axis titles use the
columns' human labels (`rag.data.labels`): "Number of Articles by Year", not `article_count by year`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rag.data.labels import heading, label_of, title_case
from rag.models import ChartSpec, QueryResult

CHART_KINDS = ("bar", "line", "grouped_bar", "stacked_bar", "metric", "table")
TIME_COLUMNS = ("year", "month", "day", "date")
LONG_LABEL = 14  # category labels longer than this make a bar chart horizontal
MANY_CATEGORIES = 12  # so do more categories than this (their labels would crowd a horizontal axis)


def _is_number(values: list[Any]) -> bool:
    present = [v for v in values if v is not None]
    return bool(present) and all(isinstance(v, int | float) and not isinstance(v, bool) for v in present)


def _is_time(name: str, values: list[Any]) -> bool:
    if name.lower() in TIME_COLUMNS or name.lower().endswith(("_date", "_at")):
        return True
    return all(isinstance(v, str) and len(v) >= 4 and v[:4].isdigit() for v in values if v is not None)


def _sparse(values: list[Any]) -> bool:
    """Whether years ("1970") or months ("2023-04") fill less than half of the span from the first to the last
    (a line would be mostly gaps: bars read better)."""
    texts = sorted({str(v) for v in values if v is not None})
    if not texts:
        return False
    if all(len(t) == 4 and t.isdigit() for t in texts):
        span = int(texts[-1]) - int(texts[0]) + 1
    elif all(len(t) == 7 and t[:4].isdigit() and t[4] == "-" and t[5:].isdigit() for t in texts):
        span = (int(texts[-1][:4]) - int(texts[0][:4])) * 12 + int(texts[-1][5:]) - int(texts[0][5:]) + 1
    else:
        return False
    return len(texts) * 2 < span


def choose_chart(result: QueryResult | None, labels: Mapping[str, str] | None = None,
                 table: str = "") -> ChartSpec | None:
    """Deterministic choice from the result's shape; None when a chart would not help. `labels` ({column:
    label}) and `table` name the axes and the title in words."""
    if result is None or not result.rows:
        return None
    columns = result.columns
    values = {name: [row[i] for row in result.rows] for i, name in enumerate(columns)}
    numbers = [c for c in columns if _is_number(values[c])]
    names = {c: label_of(c, labels, table) for c in columns}
    headings = {c: heading(name) for c, name in names.items()}
    if len(result.rows) == 1 and len(columns) == 1 and numbers:
        return ChartSpec("metric", y=columns[0], title=headings[columns[0]], labels=headings)
    labels_ = [c for c in columns if c not in numbers]
    if not numbers or not labels_ or len(result.rows) < 2:
        return None
    y = numbers[-1]
    if len(labels_) == 1:
        x = labels_[0]
        time = _is_time(x, values[x])
        kind = "line" if time and len(result.rows) > 2 and not _sparse(values[x]) else "bar"
        longest = max((len(str(v)) for v in values[x] if v is not None), default=0)
        crowded = longest > LONG_LABEL or len(set(map(str, values[x]))) > MANY_CATEGORIES
        return ChartSpec(kind, x=x, y=y, title=title_case(f"{names[y]} by {names[x]}"), labels=headings,
                         time_x=time, horizontal=not time and crowded)
    if len(labels_) == 2:
        x, color = labels_
        if not _is_time(x, values[x]) and _is_time(color, values[color]):
            x, color = color, x
        return ChartSpec("stacked_bar", x=x, y=y, color=color, labels=headings, time_x=_is_time(x, values[x]),
                         title=title_case(f"{names[y]} by {names[x]} and {names[color]}"))
    return None
