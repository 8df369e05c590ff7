"""SQL selects the rows matching the structured part of the question; semantic search runs only inside them.

Pre-filtering, not post-filtering: a lone matching document far from the query is still found. The rows
are passed to Chroma as one `$in` list of row keys; past ROW_KEYS_PER_QUERY rows, when every condition is
also a Chroma filter, the same conditions are applied as metadata filters instead (same rows, one query).
"""

from __future__ import annotations

from typing import Any

from llama_index.core.query_engine import CustomQueryEngine

from rag import tracing
from rag.answer.context import EngineContext, engine_response
from rag.answer.filters import CHROMA_EXPRESSIBLE, chroma_filters, structured_only
from rag.answer.markdown import escape_markdown
from rag.answer.retrieval import ROW_KEYS_PER_QUERY, answer_from_chunks, retrieve
from rag.data.labels import reading_labels
from rag.models import EngineResult, Filter, SQLRun
from rag.understand.interpretation import interpret
from rag.understand.planner import QueryPlan

MAX_SELECTED_ROWS = 50_000  # rows SQL may select for one search; beyond this only the first are searched
# Beyond one query's worth of row ids, conditions Chroma can hold are applied as metadata filters instead.
ID_LIST_LIMIT = ROW_KEYS_PER_QUERY


class HybridEngine(CustomQueryEngine):
    """SQL selects the rows for the structured part; semantic search runs only inside them."""

    context: Any

    def custom_query(self, query_str: str) -> Any:
        return self.answer(query_str, self.context.planner.plan(query_str))

    def answer(self, query_str: str, plan: QueryPlan) -> Any:
        """Answer `query_str` as read by `plan` (the planner's, or one the user edited)."""
        context: EngineContext = self.context
        outcome = EngineResult(interpretation=interpret(plan, context.source.table, labels_of(context)))
        keys, run = select_row_keys(context, plan, outcome)
        outcome.restricted_row_keys = len(keys)
        if not keys:
            outcome.filters = [Filter("row_key", "in", "0 rows selected by SQL")]
            conditions = escape_markdown("; ".join(c.describe() for c in plan.conditions), one_line=True)
            return engine_response(f"No rows match the structured part of the question ({conditions}), so there "
                                   f"was nothing to search.{dates_outside(context, plan)}", outcome)
        capped = ""
        if len(keys) > ID_LIST_LIMIT and all(c.kind in CHROMA_EXPRESSIBLE for c in plan.conditions):
            # The same rows, cheaper: every condition SQL applied is also a Chroma filter (dates as date_ymd
            # numbers), so one filtered query replaces len(keys) / ROW_KEYS_PER_QUERY id-list queries.
            outcome.filters, outcome.filters_dropped, filters = chroma_filters(plan, with_dates=True)
            outcome.notes.append(f"{len(keys):,} rows matched the structured part; the search ran inside them "
                                 "through the same conditions as metadata filters instead of a list of row ids.")
            found = retrieve(context, plan, filters)
        else:
            if run.result.row_limit_hit:
                capped = (f"More than {MAX_SELECTED_ROWS:,} rows matched the structured part; only the first "
                          f"{MAX_SELECTED_ROWS:,} rows were searched.")
                outcome.notes.append(capped)
            # Conditions SQL applied are not repeated in Chroma; the category/author ones are redundant but cheap.
            applied, outcome.filters_dropped, filters = chroma_filters(structured_only(plan), with_dates=False)
            outcome.filters = [Filter("row_key", "in", f"{len(keys)} rows selected by SQL"), *applied]
            found = retrieve(context, plan, filters, restrict_keys=keys)
        outcome.chunks, outcome.rankings = found.top, found.rankings
        outcome.notes += found.notes
        text, outcome.citations = answer_from_chunks(context, query_str, plan, found.evidence, restricted=True,
                                                     background=found.background, selected=len(keys),
                                                     restated=found.restated)
        if capped:
            text += f"\n\n_{capped}_"
        return engine_response(text, outcome)

    def answer_within(self, query_str: str, plan: QueryPlan, within: list[str], label: str) -> Any:
        """Search only the rows `within` (the row keys of an earlier answer, named by `label`, e.g. "#2"), for
        "which of those mention elections?"; SQL runs only when the plan adds conditions of its own."""
        context: EngineContext = self.context
        outcome = EngineResult(interpretation=interpret(plan, context.source.table, labels_of(context)))
        keys = list(dict.fromkeys(within))
        if plan.conditions:
            selected = set(select_row_keys(context, plan, outcome)[0])
            keys = [key for key in keys if key in selected]
        outcome.restricted_row_keys = len(keys)
        outcome.filters = [Filter("row_key", "in", f"{len(keys)} rows of {label}")]
        if not keys:
            return engine_response(f"None of the rows of {escape_markdown(label, one_line=True)} match the new "
                                   "conditions, so there was nothing to search.", outcome)
        found = retrieve(context, plan, None, restrict_keys=keys)
        outcome.chunks, outcome.rankings = found.top, found.rankings
        outcome.notes += found.notes
        text, outcome.citations = answer_from_chunks(context, query_str, plan, found.evidence, restricted=True,
                                                     background=found.background, selected=len(keys),
                                                     restated=found.restated)
        return engine_response(text, outcome)


def select_row_keys(context: EngineContext, plan: QueryPlan, outcome: EngineResult) -> tuple[list[str], SQLRun]:
    """The row keys of the rows SQL selects for the plan's structured part (the statement and its verdict go
    on `outcome`, also when it fails)."""
    key_columns, title = context.source.key_columns, context.source.roles.title
    shown = [title] if key_columns and title and title not in key_columns else []  # the trace lists rows by title
    with tracing.span("sql.write", writer="offline") as attrs:
        attrs["sql"] = sql = context.sql_builder.row_keys_sql(plan, [*key_columns, *shown])
    run = context.database.execute_into(outcome, sql, max_rows=MAX_SELECTED_ROWS)
    assert run.result is not None
    keys = [context.source.key_of(dict(zip(run.result.columns, row, strict=True))) for row in run.result.rows]
    return keys, run


def dates_outside(context: EngineContext, plan: QueryPlan) -> str:
    """" The table's dates run from … to …" when a date condition lies wholly outside them ("from 2020" on a
    table that starts in 2021), so the reply says why nothing matched."""
    profile = context.planner.profile
    low, high = str(profile.date_min or "")[:10], str(profile.date_max or "")[:10]
    if not low or not high:
        return ""
    for condition in plan.conditions:
        if condition.kind == "date" and condition.op == "between" and (condition.value[1].isoformat() < low
                                                                         or condition.value[0].isoformat() > high):
            return f" The table's dates run from {low} to {high}."
    return ""


def labels_of(context: EngineContext) -> dict[str, str]:
    """The labels the reading names columns by (saved with the column roles, else derived)."""
    source = context.source
    return reading_labels(source.labels, source.roles, source.table)
