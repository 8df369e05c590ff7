"""Lifecycle states: the values of a status column split into those still under way and those that have ended, and
the words that name either class ("unfinished tickets" are the open and pending ones, "completed contracts" the
expired and terminated ones).

A column qualifies only when every one of its values is a state this module knows and both classes have a value,
so a category or priority column never does. The class a word names is read from the column's own values: no
table's values are written here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

# States after which nothing more happens to a row.
ENDED_STATES = frozenset({
    "closed", "resolved", "done", "completed", "complete", "finished", "cancelled", "canceled", "expired",
    "terminated", "archived", "rejected", "fixed", "shipped", "delivered", "dismissed", "withdrawn", "ended",
    "lapsed", "declined", "void", "voided", "superseded", "won", "lost", "won't fix", "wontfix", "duplicate",
})
# States of a row not yet ended: waiting to start, being worked on, or running.
UNDER_WAY_STATES = frozenset({
    "open", "opened", "pending", "new", "active", "draft", "in progress", "ongoing", "waiting", "on hold",
    "reopened", "assigned", "todo", "to do", "backlog", "awaiting", "submitted", "in review", "review", "blocked",
    "planned", "scheduled", "triage", "triaged", "acknowledged", "escalated", "unassigned", "proposed", "running",
    "live", "in force", "awaiting reply", "waiting on customer", "on-hold", "in-progress",
})
# Of those, the states of a row whose own event (the one its date column records: signing, publishing) has not
# happened yet: "unsigned contracts" are the drafts.
NOT_STARTED_STATES = frozenset({"draft", "new", "proposed", "planned", "todo", "to do", "backlog"})

# Words naming the rows still under way, or those ended. "Unresolved" is here because a row that was closed without
# being resolved has ended too: the word asks for the work still to do, not for every value but 'resolved'.
UNDER_WAY_WORDS = (r"unfinished|outstanding|incomplete|uncompleted|ongoing|in[\s-]progress|unresolved|"
                   r"not\s+(?:yet\s+)?(?:finished|completed|done|dealt\s+with|wrapped\s+up)|"
                   r"yet\s+to\s+be\s+(?:finished|completed|done|dealt\s+with|closed|resolved)")
ENDED_WORDS = r"finished|completed|dealt\s+with|wrapped\s+up"
STATE_WORD = re.compile(rf"\b(?:(?P<under_way>{UNDER_WAY_WORDS})|(?P<ended>{ENDED_WORDS}))\b", re.I)


@dataclass(frozen=True)
class Lifecycle:
    """A status column's values, by class."""

    column: str
    under_way: tuple[str, ...]
    ended: tuple[str, ...]
    not_started: tuple[str, ...] = ()  # the under-way states before the row's own event (NOT_STARTED_STATES)

    def values_of(self, match: re.Match[str]) -> tuple[str, ...]:
        """The values a STATE_WORD match names."""
        return self.under_way if match.group("under_way") else self.ended

    @staticmethod
    def class_name(match: re.Match[str]) -> str:
        return "still under way" if match.group("under_way") else "ended"


def lifecycle(column: str, values: Iterable[str]) -> Lifecycle | None:
    """The column's values by class, when every value is a known state and both classes have one; else None."""
    under_way, ended, not_started = [], [], []
    for value in sorted(set(values)):
        key = " ".join(value.lower().replace("_", " ").split())
        if key in ENDED_STATES:
            ended.append(value)
        elif key in UNDER_WAY_STATES:
            under_way.append(value)
            if key in NOT_STARTED_STATES:
                not_started.append(value)
        else:
            return None
    return Lifecycle(column, tuple(under_way), tuple(ended), tuple(not_started)) if under_way and ended else None
