"""User-displayable errors raised by the core and translated to plain words at the UI edge.

Every error carries a message a business user can read; the UI never shows a traceback.
"""

from __future__ import annotations

from typing import Any


class RagError(Exception):
    """Base class: `str(error)` is a message fit for the user.

    `sql_run` (a `SQLRun`) and `partial` (an `EngineResult`) carry what was done before the failure, so
    the failed turn still shows the rejected SQL or the filters that were applied."""

    title = "Something went wrong"
    sql_run: Any = None
    partial: Any = None


class BadQuestion(RagError):
    """The question is empty, too long or not text; raised before any engine runs."""

    title = "Question not accepted"


class UnsafeSQL(RagError):
    """Generated SQL was rejected by the guard; nothing was executed."""

    title = "Query rejected"


class QueryFailed(RagError):
    """A guarded SELECT failed or timed out while running."""

    title = "Query failed"


class NotInTable(RagError):
    """The question asks for something the table has no column for (e.g. "per year" without a date)."""

    title = "Not in this table"


class DatabaseUnavailable(RagError):
    """The source database is missing, locked or unreachable."""

    title = "Database unavailable"


class IndexMissing(RagError):
    """The vector index is missing, empty, corrupt or built with another model."""

    title = "Index not ready"


class IndexUnreachable(IndexMissing):
    """The Chroma server holding the index cannot be reached (SQL questions still work)."""

    title = "Search server unreachable"


class IndexBusy(RagError):
    """Another process holds the index's writer lock."""

    title = "Index busy"


class LLMUnavailable(RagError):
    """The hosted LLM failed after bounded retries (timeout, 429, 5xx, bad key)."""

    title = "Language model unavailable"


class InternalError(RagError):
    """An unexpected failure (a bug), reported in plain words; details go to the log."""

    title = "Unexpected error"


class ConfigError(RagError):
    """A setting or column-role override is invalid."""

    title = "Configuration error"
