"""Read-only overview queries of the source table (for the Data page), built with sqlglot for its dialect.

They are plain SELECTs; the caller runs them through the SQL guard like any other statement.
"""

from __future__ import annotations

from sqlglot import exp

from rag.data.epoch import date_text_sql
from rag.data.source import sqlglot_dialect


def _column(name: str) -> exp.Column:
    return exp.column(exp.to_identifier(name, quoted=True))


def category_counts_sql(table: str, category: str, dialect: str) -> str:
    """SELECT category, COUNT(*) ... GROUP BY category, ordered by count (for the guard to check)."""
    query = (exp.select(exp.alias_(_column(category), "category", quoted=True),
                        exp.alias_(exp.Count(this=exp.Star()), "articles", quoted=True))
             .from_(exp.to_table(table, quoted=True))
             .group_by(_column(category))
             .order_by(exp.Ordered(this=exp.column("articles", quoted=True), desc=True)))
    return query.sql(dialect=sqlglot_dialect(dialect))


def month_counts_sql(table: str, date: str, dialect: str, epoch_unit: str | None = None) -> str:
    """SELECT 'YYYY-MM' AS month, COUNT(*) ... GROUP BY month (dates stored as text, as dates or as epoch
    numbers in `epoch_unit`)."""
    as_text = (date_text_sql(_column(date), epoch_unit, sqlglot_dialect(dialect)) if epoch_unit else
               exp.Cast(this=_column(date), to=exp.DataType.build("text")))
    month = exp.Substring(this=as_text, start=exp.Literal.number(1), length=exp.Literal.number(7))
    query = (exp.select(exp.alias_(month, "month", quoted=True),
                        exp.alias_(exp.Count(this=exp.Star()), "articles", quoted=True))
             .from_(exp.to_table(table, quoted=True))
             .where(exp.Not(this=exp.Is(this=_column(date), expression=exp.Null())))
             .group_by(exp.column("month", quoted=True))
             .order_by(exp.column("month", quoted=True)))
    return query.sql(dialect=sqlglot_dialect(dialect))
