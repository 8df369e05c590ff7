"""Dates stored as numbers: Unix epoch seconds or milliseconds (UTC), told from their values.

A number column is an epoch date when (almost) every sampled value is a plausible timestamp: between
1980-01-01 and 2050-01-01 in seconds (315,532,800 .. 2,524,608,000) or in milliseconds (a thousand times
more; the two ranges do not overlap). Its name ("posted_at", "ts") is one more signal, weighed in
`rag.data.roles`; the values decide.

Everything that reads such a column converts it the same way, to the text 'YYYY-MM-DD HH:MM:SS' (UTC) the
rest of the product knows from text dates: in Python (`epoch_to_text`, for the profile and the index's
metadata) and in SQL (`date_text_sql`: SQLite `DATETIME(col, 'unixepoch')`, PostgreSQL
`TO_CHAR(TO_TIMESTAMP(col) AT TIME ZONE 'UTC', ...)`); date conditions compare the raw number with the
epoch of the day (`epoch_of_day`), which keeps them simple and lets an index on the column serve them.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlglot import exp

UNITS = {"s": 1, "ms": 1000}  # epoch unit -> units per second
UNIT_NAMES = {"s": "epoch seconds", "ms": "epoch milliseconds"}
PLAUSIBLE_SECONDS = (315_532_800, 2_524_608_000)  # 1980-01-01 .. 2050-01-01, UTC
TEXT_FORMAT = "%Y-%m-%d %H:%M:%S"


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def epoch_unit(values: Sequence[Any], minimum_share: float = 0.9) -> str | None:
    """'s' or 'ms' when at least `minimum_share` of the non-empty values are plausible timestamps in that unit
    (and they are not all one value), else None."""
    numbers = [n for n in map(_number, values) if n is not None]
    present = [v for v in values if v is not None]
    if not numbers or len(numbers) < len(present) or len(set(numbers)) < 2:
        return None
    low, high = PLAUSIBLE_SECONDS
    for unit, scale in UNITS.items():
        inside = sum(1 for n in numbers if low * scale <= n < high * scale)
        if inside >= minimum_share * len(numbers):
            return unit
    return None


def epoch_to_datetime(value: Any, unit: str) -> datetime | None:
    number = _number(value)
    if number is None:
        return None
    try:
        return datetime(1970, 1, 1, tzinfo=UTC) + timedelta(seconds=number / UNITS[unit])
    except OverflowError:
        return None


def epoch_to_text(value: Any, unit: str) -> str | None:
    """1681723800 -> '2023-04-17 09:30:00' (UTC); None for a value that is not a number."""
    moment = epoch_to_datetime(value, unit)
    return moment.strftime(TEXT_FORMAT) if moment else None


def epoch_of_day(day: date, unit: str) -> int:
    """The epoch value (in `unit`) of midnight UTC starting `day`."""
    seconds = (day - date(1970, 1, 1)).days * 86_400
    return seconds * UNITS[unit]


def date_text_sql(column: exp.Expression, unit: str, dialect: str) -> exp.Expression:
    """SQL turning an epoch column into the text 'YYYY-MM-DD HH:MM:SS' (UTC), for `dialect` (sqlglot's name)."""
    seconds = column if unit == "s" else exp.Div(this=column, expression=exp.Literal.number(UNITS[unit]))
    if dialect == "postgres":
        moment = exp.AtTimeZone(this=exp.Anonymous(this="TO_TIMESTAMP", expressions=[seconds]),
                                zone=exp.Literal.string("UTC"))
        return exp.Anonymous(this="TO_CHAR", expressions=[moment, exp.Literal.string("YYYY-MM-DD HH24:MI:SS")])
    # SQLite (and the default): DATETIME(x, 'unixepoch') is already 'YYYY-MM-DD HH:MM:SS' in UTC.
    return exp.Anonymous(this="DATETIME", expressions=[seconds, exp.Literal.string("unixepoch")])
