"""Text-to-SQL through LlamaIndex's `NLSQLTableQueryEngine` over the guarded database, one corrective retry.

The statement, the guard's verdict and the rows come back in the response's metadata (`sql_run`), the
way LlamaIndex's SQL retriever returns its own; a rejected or failed statement comes back as `error`.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from llama_index.core.query_engine import CustomQueryEngine, NLSQLTableQueryEngine

from rag import tracing
from rag.answer import compose
from rag.answer.context import EngineContext, engine_response
from rag.answer.markdown import escape_markdown
from rag.data.labels import heading, label_of, reading_labels
from rag.data.roles import row_noun
from rag.errors import QueryFailed, RagError, UnsafeSQL
from rag.models import EngineResult, QueryResult
from rag.understand.interpretation import interpret, interpret_sql, reading
from rag.understand.planner import QueryPlan
from rag.understand.text_to_sql import LIST_LIMIT


class SQLEngine(CustomQueryEngine):
    """Text-to-SQL through LlamaIndex's NLSQLTableQueryEngine, guarded, with one corrective retry."""

    context: Any
    nl_sql: Any  # NLSQLTableQueryEngine

    def custom_query(self, query_str: str) -> Any:
        plan = self.context.planner.plan(query_str)
        if plan.missing and not self.context.synthesizer:
            return self._not_in_table(plan)
        return self._finish(query_str, plan, self._write_and_run(query_str),
                            read_from_sql=bool(self.context.synthesizer))

    def _not_in_table(self, plan: QueryPlan) -> Any:
        """Say what the table lacks and what it has, instead of computing something else."""
        source = self.context.source
        numbers = ", ".join(escape_markdown(source.labels.get(c, c), one_line=True)  # as the user reads them
                            for c in source.roles.numeric) or "none"
        missing = escape_markdown(plan.missing or "", one_line=True)
        text = (f"Not in this table: table `{source.table}` has no column for '{missing}', so this cannot be "
                f"computed. The numbers it has: {numbers}.")
        groups = ", ".join(escape_markdown(source.labels.get(c, c), one_line=True) for c in dict.fromkeys(
            [*(c for c in (source.roles.category, source.roles.authors) if c), *source.roles.categorical]))
        if plan.missing_grouping:  # "which country ...": the groups asked for are not in the table
            text = (f"Not in this table: table `{source.table}` has no column for '{missing}', so its rows cannot be "
                    f"grouped by it. It can group by: {groups or 'none'}" + (", dates" if source.roles.date else "")
                    + f"; the numbers it has: {numbers}.")
        elif plan.missing_value:  # "based in Canada": a name that picks no rows, since nothing holds it
            text = (f"Not in this table: nothing in table `{source.table}` holds '{missing}' (no column, value, name "
                    f"or text), so its rows cannot be picked by it (computing over every row would answer another "
                    f"question). It can pick rows by: {groups or 'none'}" + (", dates" if source.roles.date else "")
                    + f"; the numbers it has: {numbers}.")
        elif plan.intent == "count":  # "how many readers": counting the rows would answer another question
            rows = row_noun(source.table)
            text = (f"Not in this table: table `{source.table}` holds one row per {rows.rstrip('s')} and no column "
                    f"for '{missing}', so they cannot be counted (counting {rows} would answer another question). "
                    f"It can count {rows}; the numbers it has: {numbers}.")
        reading = interpret(plan, source.table, reading_labels(source.labels, source.roles, source.table))
        reading.action = (f"Not computed: nothing holds '{plan.missing}'" if plan.missing_value
                          else f"Not computed: no column for '{plan.missing}'")
        said = set((plan.missing or "").lower().split())  # (its words are what the answer names: "vegan products")
        reading.unused_words = [w for w in reading.unused_words if w.lower() not in said]
        return engine_response(text, EngineResult(interpretation=reading))

    def answer(self, query_str: str, plan: QueryPlan) -> Any:
        """Answer from a plan given with the question (one the user edited, a follow-up's, or the language
        model's validated reading): its SQL is built from the plan itself (no model is asked to write it), guarded
        and run like any other statement."""
        context: EngineContext = self.context
        if plan.missing:
            return self._not_in_table(plan)
        outcome = EngineResult()
        with tracing.span("sql.write", writer="from the reading") as attrs:
            attrs["sql"] = sql = context.sql_builder.answer_sql(plan)
        context.database.execute_into(outcome, sql)
        return self._finish(query_str, plan, outcome, read_from_sql=False)

    def _write_and_run(self, query_str: str) -> EngineResult:
        """SQL written by the engine's LLM (offline: the planner) through NLSQLTableQueryEngine, one retry."""
        context: EngineContext = self.context
        outcome = EngineResult()
        question = query_str
        error: RagError | None = None
        for attempt in range(2):
            with tracing.span("sql.nl_to_sql", attempt=attempt + 1) as attrs:
                response = self.nl_sql.query(question)
                metadata = response.metadata or {}
                attrs["sql"] = metadata.get("sql_query")
            run = metadata.get("sql_run")
            if run is not None:
                outcome.record_sql(run)
            error = _error_of(response)
            if error is None:
                break
            if isinstance(error, UnsafeSQL) or not context.synthesizer:
                break  # never retry a rejected statement; offline SQL is deterministic
            question = (f"{query_str}\n\nThe previous SQL failed with this error: {error}\n"
                        "Write a corrected single SELECT statement.")
        if error is not None:
            error.partial = outcome
            raise error
        return outcome

    def _finish(self, query_str: str, plan: QueryPlan, outcome: EngineResult, *, read_from_sql: bool) -> Any:
        context: EngineContext = self.context
        result = outcome.result or QueryResult([], [])
        if plan.decimals is not None and not read_from_sql and result.rows:
            # ("rounded to whole euros": the numbers the plan's SQL gave, to the decimals asked; counts are whole)
            result.rows = [[half_up(v, plan.decimals) if isinstance(v, float) else v for v in row]
                           for row in result.rows]
        # Offline, the plan wrote the SQL; with a language model, the SQL it wrote is what was computed.
        labels = reading_labels(context.source.labels, context.source.roles, context.source.table)
        date_column, unit = context.source.roles.date, context.source.roles.date_unit
        epoch_dates = {date_column: unit} if date_column and unit else None
        outcome.interpretation = (interpret_sql(outcome.sql or "", context.sql_builder.dialect, labels, epoch_dates)
                                  if read_from_sql
                                  else interpret(plan, context.source.table, labels))
        roles = context.source.roles
        total = self._listed_of(plan, result) if not read_from_sql else None
        with tracing.span("synthesize", provider="llm" if context.synthesizer else "template"):
            conditions = "; ".join(reading(c, labels).text for c in plan.conditions)
            text, outcome.citations = compose.sql_answer(result, conditions, title_col=roles.title, url_col=roles.url,
                                                         date_col=roles.date, labels=labels,
                                                         table=context.source.table, total=total)
            if plan.none_of and not plan.distinct and not read_from_sql:  # the SQL listed the groups without such rows
                group = plan.group_by[0]
                text = compose.groups_without_answer(result, conditions, labels.get(group, group),
                                                     row_noun(context.source.table))
            if plan.contrast_ranked and not result.rows and not read_from_sql:  # no group has both values
                group = result.columns[0] if result.columns else plan.contrast_per
                text = compose.nothing_to_rank(result, conditions, label_of(group, labels, context.source.table))
            if context.synthesizer and result.rows:
                headers = [heading(label_of(c, labels, context.source.table)) for c in result.columns]
                text = context.synthesizer.from_rows(query_str, result, fallback=text,
                                                     reading=outcome.interpretation.restatement(), headers=headers)
        if outcome.sql:
            text += f"\n\n_Computed with SQL over table `{context.source.table}` (see the trace)._"
        return engine_response(text, outcome)

    def _listed_of(self, plan: QueryPlan, result: QueryResult) -> int | None:
        """How many rows a listing matches when it shows only the first LIST_LIMIT ("Found 50 articles" for 56
        was a wrong number that looked right); None otherwise. One more guarded statement, only then."""
        if plan.is_aggregate or plan.limit or plan.per_group or len(result.rows) < LIST_LIMIT:
            return None
        run = self.context.database.execute(self.context.sql_builder.count_sql(plan))
        rows = run.result.rows if run.result else []
        return int(rows[0][0]) if rows and rows[0] and rows[0][0] is not None else None


def _error_of(response: Any) -> RagError | None:
    """The domain error of a failed statement; LlamaIndex turns other failures into 'Error: ...' text."""
    metadata = response.metadata or {}
    if isinstance(metadata.get("error"), RagError):
        return metadata["error"]
    run = metadata.get("sql_run")
    if run is not None and run.result is not None:
        return None
    text = str(getattr(response, "response", "") or "")
    return QueryFailed(text.removeprefix("Error: ").strip() or "the query returned nothing")


def build_sql_engine(context: EngineContext, text_to_sql_prompt: Any | None) -> SQLEngine:
    # NLSQLTableQueryEngine builds {schema} from reflection only (SQLDatabase.custom_table_info is not used
    # there); the column roles, category values and date format reach the prompt through context_query_kwargs.
    nl_sql = NLSQLTableQueryEngine(sql_database=context.database, tables=[context.source.table], llm=context.llm,
                                   text_to_sql_prompt=text_to_sql_prompt, synthesize_response=False,
                                   embed_model=context.embed_model,
                                   context_query_kwargs={context.source.table: context.source.describe()})
    return SQLEngine(context=context, nl_sql=nl_sql)


def half_up(value: float, decimals: int) -> float:
    """`value` rounded to `decimals`, halves away from zero as SQL's ROUND does (Python's round() goes to even)."""
    if not math.isfinite(value):
        return value
    return float(Decimal(repr(value)).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP))
