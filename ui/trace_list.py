"""Pure helpers of the Traces page: the session's turns in the shape of stored turn summaries (when the app's store
is off), the same search and filters for them, and table rows with readable times. No streamlit here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, is_dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from rag.models import Turn
from ui.support import route_label, show_bidi

NO_ROUTE = "none"  # the route filter's value for turns without a route (failed questions, explanations)
FEEDBACK_FILTERS = {"up": "Helpful", "down": "Not helpful", "comment": "With a comment", "none": "Not rated"}
OUTCOME_FILTERS = {"answered": "Answered", "failed": "Failed"}


def session_summaries(turns: Sequence[Turn]) -> list[dict[str, Any]]:
    """The session's turns as the store summarises them (newest first), with their answer for the search."""
    rows = []
    for number, turn in enumerate(turns, start=1):
        chunks = turn.result.chunks
        rows.append({
            "id": turn.id, "conversation_id": "", "number": number, "created_at": _utc(turn.created_at),
            "question": turn.question, "answer": turn.answer, "route": turn.route,
            "forced": bool(turn.trace.forced_route), "error": turn.error, "provider": turn.trace.provider,
            "latency_ms": turn.trace.total_ms, "tokens": turn.trace.tokens["total"], "cost_usd": turn.cost_usd,
            "top_score": max((c.score for c in chunks), default=None), "chunks": len(chunks),
            "citations": len(turn.citations), "feedback": turn.feedback, "comment": turn.feedback_comment})
    return rows[::-1]


def as_dicts(summaries: Iterable[Any]) -> list[dict[str, Any]]:
    return [asdict(s) if is_dataclass(s) and not isinstance(s, type) else dict(s) for s in summaries]


def filtered(rows: Iterable[dict[str, Any]], text: str = "", *, routes: Iterable[str | None] | None = None,
             feedback: str | None = None, errors: bool | None = None) -> list[dict[str, Any]]:
    """The same search and filters as `History.search`, for summaries kept in the session."""
    needle = text.strip().lower()
    chosen = None if routes is None else set(routes)
    kept = []
    for row in rows:
        if needle and needle not in row["question"].lower() and needle not in str(row.get("answer", "")).lower():
            continue
        if chosen is not None and row["route"] not in chosen:
            continue
        rating, comment = row.get("feedback"), row.get("comment") or ""
        if (feedback == "up" and rating != 1) or (feedback == "down" and rating != -1) or \
                (feedback == "any" and rating is None) or (feedback == "none" and rating is not None) or \
                (feedback == "comment" and not comment):
            continue
        if errors is not None and bool(row["error"]) != errors:
            continue
        kept.append(row)
    return kept


def route_values(chosen: Iterable[str]) -> list[str | None]:
    """The route pills' values as the store's filter takes them (NO_ROUTE is a turn without a route)."""
    return [None if value == NO_ROUTE else value for value in chosen]


def readable_time(moment: datetime, now: datetime, zone: str | None = None) -> str:
    """'today 14:02', 'yesterday 09:15', 'Mon 27 Nov 18:40', '27 Nov 2025 18:40' in the reader's time zone (UTC
    when unknown, and then said); `moment` and `now` are UTC (naive or aware)."""
    try:
        tz = ZoneInfo(zone) if zone else UTC
    except (ZoneInfoNotFoundError, ValueError):
        tz = UTC
    local, today = _aware(moment).astimezone(tz), _aware(now).astimezone(tz).date()
    suffix = " UTC" if tz is UTC else ""
    clock = local.strftime("%H:%M")
    if local.date() == today:
        return f"today {clock}{suffix}"
    if local.date() == today - timedelta(days=1):
        return f"yesterday {clock}{suffix}"
    if today - local.date() < timedelta(days=7):
        return f"{local.strftime('%a %d %b')} {clock}{suffix}"
    return f"{local.strftime('%d %b %Y')} {clock}{suffix}"


def table_rows(rows: Sequence[dict[str, Any]], now: datetime, zone: str | None = None) -> list[dict[str, Any]]:
    """One line per turn for the Traces table (plain text cells; numbers stay numbers)."""
    feedback = {1: "helpful", -1: "not helpful"}  # words: emoji need a font the machine may not have
    return [{
        "asked": readable_time(row["created_at"], now, zone),
        "question": show_bidi(row["question"]),
        "route": route_label(row["route"]) + (" (forced)" if row["forced"] else ""),
        "feedback": ": ".join(part for part in (feedback.get(row["feedback"] or 0, ""), show_bidi(row["comment"] or ""))
                              if part),
        "latency_ms": round(row["latency_ms"], 1),
        "top_score": None if row["top_score"] is None else round(row["top_score"], 3),
        "chunks": row["chunks"] or None,
        "cited": row["citations"] or None,
        "tokens": row["tokens"] or None,
        "error": show_bidi(row["error"] or ""),
    } for row in rows]


ALWAYS_SHOWN = ("asked", "question", "route")


def shown_columns(table: Sequence[dict[str, Any]]) -> list[str]:
    """The columns of `table_rows` worth showing: the first three always, the others when some row has a value."""
    names = list(table[0]) if table else list(ALWAYS_SHOWN)
    return [name for name in names
            if name in ALWAYS_SHOWN or any(row[name] not in (None, "") and row[name] == row[name] for row in table)]


def _utc(text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text)
    except (TypeError, ValueError):
        return datetime.now(UTC).replace(tzinfo=None)
    return moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment


def _aware(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment
