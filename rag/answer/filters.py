"""Plan conditions -> Chroma metadata filters, from allowed keys, operators and typed values only.

Categories and exact authors are equality filters; numbers are comparisons; dates are ranges over the
`date_ymd` integer the index stores. Anything else is reported as dropped, with the reason.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from llama_index.core.vector_stores.types import (
    FilterCondition,
    FilterOperator,
    MetadataFilter,
    MetadataFilters,
)

from rag.data.index import MAX_AUTHOR_KEYS
from rag.models import DroppedFilter, Filter
from rag.understand.planner import Condition, QueryPlan

# Condition kinds Chroma can hold as metadata filters (dates as date_ymd numbers).
CHROMA_EXPRESSIBLE = ("category", "author", "number", "date", "date_any")


def chroma_filters(plan: QueryPlan, *, with_dates: bool
                   ) -> tuple[list[Filter], list[DroppedFilter], MetadataFilters | None]:
    """(filters applied, filters dropped with a reason, the LlamaIndex filter tree or None)."""
    applied: list[Filter] = []
    dropped: list[DroppedFilter] = []
    parts: list[MetadataFilter | MetadataFilters] = []
    for condition in plan.conditions:
        converted = _condition_filter(condition, with_dates)
        if isinstance(converted, DroppedFilter):
            dropped.append(converted)
            continue
        if converted is None:
            continue
        filters, part = converted
        applied += filters
        parts.append(part)
    return applied, dropped, (MetadataFilters(filters=parts, condition=FilterCondition.AND) if parts else None)


def structured_only(plan: QueryPlan) -> QueryPlan:
    """The plan with only the conditions Chroma holds as equality filters (category, exact author)."""
    return QueryPlan(question=plan.question, conditions=[c for c in plan.conditions if c.chroma_ok],
                     topic=plan.topic)


def _condition_filter(condition: Condition, with_dates: bool
                      ) -> tuple[list[Filter], MetadataFilter | MetadataFilters] | DroppedFilter | None:
    if condition.kind == "category":
        values = condition.value if isinstance(condition.value, list) else [condition.value]
        negated = condition.op in ("!=", "not in")
        if len(values) == 1:
            op = FilterOperator.NE if negated else FilterOperator.EQ
        else:
            op = FilterOperator.NIN if negated else FilterOperator.IN
        value: Any = values[0] if len(values) == 1 else values
        return ([Filter(condition.column, op.value, value, condition.words)],
                MetadataFilter(key=condition.column, value=value, operator=op))
    if condition.kind == "author" and condition.op == "!=":
        return DroppedFilter(condition.describe(), "Chroma cannot exclude one of several author keys; the hybrid route "
                                                   "applies it with SQL")
    if condition.kind == "author":
        names = condition.value if isinstance(condition.value, list) else [condition.value]
        alternatives = [MetadataFilter(key=f"author_{i}", value=name, operator=FilterOperator.EQ)
                        for name in names for i in range(MAX_AUTHOR_KEYS)]
        return ([Filter("author_*", "==", condition.value, condition.words)],
                MetadataFilters(filters=alternatives, condition=FilterCondition.OR))
    if condition.kind == "number":
        op = {">": FilterOperator.GT, ">=": FilterOperator.GTE, "<": FilterOperator.LT, "<=": FilterOperator.LTE,
              "=": FilterOperator.EQ, "in": FilterOperator.IN}[condition.op]
        return ([Filter(condition.column, op.value, condition.value, condition.words)],
                MetadataFilter(key=condition.column, value=condition.value, operator=op))
    if condition.kind == "date_any":
        if not with_dates:
            return DroppedFilter(condition.describe(), "applied by SQL in the hybrid route")
        ranges = [part for start, end in condition.value if (part := _date_bounds(start, end))]
        filters = [Filter("date_ymd", "in range", f"{start.isoformat()}..{end.isoformat()}", condition.words)
                   for start, end in condition.value]
        return filters, MetadataFilters(filters=ranges, condition=FilterCondition.OR)
    if condition.kind == "date" and condition.op == "between":
        if not with_dates:
            return DroppedFilter(condition.describe(), "applied by SQL in the hybrid route")
        start, end = condition.value
        bounds: list[MetadataFilter] = []
        if start != date.min:
            bounds.append(MetadataFilter(key="date_ymd", value=_ymd(start), operator=FilterOperator.GTE))
        if end != date.max:
            bounds.append(MetadataFilter(key="date_ymd", value=_ymd(end), operator=FilterOperator.LTE))
        if not bounds:
            return None
        filters = [Filter("date_ymd", b.operator.value, b.value, condition.words) for b in bounds]
        return filters, MetadataFilters(filters=bounds, condition=FilterCondition.AND)
    return DroppedFilter(condition.describe(), f"Chroma cannot express a {condition.kind.replace('_', ' ')} match; "
                                               "the hybrid route applies it with SQL")


def _date_bounds(start: date, end: date) -> MetadataFilters | None:
    bounds = []
    if start != date.min:
        bounds.append(MetadataFilter(key="date_ymd", value=_ymd(start), operator=FilterOperator.GTE))
    if end != date.max:
        bounds.append(MetadataFilter(key="date_ymd", value=_ymd(end), operator=FilterOperator.LTE))
    return MetadataFilters(filters=bounds, condition=FilterCondition.AND) if bounds else None


def _ymd(day: date) -> int:
    return day.year * 10000 + day.month * 100 + day.day
