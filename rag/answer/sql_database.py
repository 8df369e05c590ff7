"""LlamaIndex's `SQLDatabase` with our guard in front: nothing but a guarded SELECT reaches the connection.

`run_sql` is what `NLSQLTableQueryEngine` calls. It never raises for a rejected or failed statement:
the `SQLRun` (statement, verdict, full rows) and the domain error travel back in the metadata dict,
which LlamaIndex hands through to `Response.metadata` unchanged.
"""

from __future__ import annotations

from typing import Any

from llama_index.core.utilities.sql_wrapper import SQLDatabase

from rag import tracing
from rag.answer.sql_guard import guard_sql, strip_sql_fences
from rag.data.source import TableSource
from rag.errors import RagError, UnsafeSQL
from rag.models import EngineResult, SQLRun


class GuardedSQLDatabase(SQLDatabase):
    """A LlamaIndex SQLDatabase whose `run_sql` guards, then runs read-only with row, cell and time limits."""

    def __init__(self, source: TableSource, max_rows: int) -> None:
        super().__init__(source.engine, include_tables=[source.table], sample_rows_in_table_info=0,
                         custom_table_info={source.table: source.describe()}, max_string_length=source.max_cell_chars)
        self.source = source
        self.max_rows = max_rows

    def check(self, sql: str, max_rows: int | None = None) -> SQLRun:
        """The guarded statement and its verdict; raises UnsafeSQL (carrying the rejected run)."""
        with tracing.span("sql.guard", sql=sql) as attrs:
            try:
                guarded = guard_sql(sql, table=self.source.table, columns=list(self.source.columns),
                                    dialect=self.source.dialect, max_rows=max_rows or self.max_rows)
            except UnsafeSQL as error:
                attrs["verdict"] = f"rejected: {error}"
                error.sql_run = SQLRun(strip_sql_fences(sql) or sql, attrs["verdict"])
                raise
            attrs["verdict"] = "allowed" + (f" ({'; '.join(guarded.notes)})" if guarded.notes else "")
        return SQLRun(guarded.sql, attrs["verdict"])

    def execute(self, sql: str, max_rows: int | None = None) -> SQLRun:
        """Guard, then run on the read-only connection.

        With `max_rows` (row keys for the hybrid route) cells are returned whole, so hashed row keys match
        the index, and one extra row is allowed through the guard to detect that the cap was hit."""
        run = self.check(sql, None if max_rows is None else max_rows + 1)
        with tracing.span("sql.execute", sql=run.sql) as attrs:
            try:
                if max_rows is None:
                    run.result = self.source.run_select(run.sql)
                else:
                    run.result = self.source.run_select(run.sql, max_rows=max_rows, max_cell_chars=0)
            except RagError as error:
                error.sql_run = run
                raise
            attrs.update(rows=len(run.result.rows), row_limit_hit=run.result.row_limit_hit)
        return run

    def execute_into(self, outcome: EngineResult, sql: str, max_rows: int | None = None) -> SQLRun:
        """`execute`, recording the statement and its verdict on `outcome`; a failure carries `outcome` as its
        partial result, so the failed turn still shows the SQL that was tried."""
        try:
            run = self.execute(sql, max_rows)
        except RagError as error:
            if error.sql_run is not None:
                outcome.record_sql(error.sql_run)
            error.partial = outcome
            raise
        outcome.record_sql(run)
        return run

    def run_sql(self, command: str) -> tuple[str, dict[str, Any]]:
        try:
            run = self.execute(command)
        except RagError as error:
            return f"Error: {error}", {"result": [], "col_keys": [], "sql_run": error.sql_run,
                                       "error": error}
        assert run.result is not None
        rows = run.result.rows
        return str([tuple(r) for r in rows]), {"result": rows, "col_keys": run.result.columns, "sql_run": run}
