"""Lifecycle states of a status column (rag/understand/states.py)."""

from __future__ import annotations

import re

from rag.understand.states import STATE_WORD, lifecycle


def test_a_status_column_splits_into_states_under_way_and_ended() -> None:
    tickets = lifecycle("status", ["open", "pending", "resolved", "closed"])
    assert tickets is not None and (tickets.under_way, tickets.ended) == (("open", "pending"), ("closed", "resolved"))
    contracts = lifecycle("status", ["Active", "Draft", "Expired", "Terminated", "In_Progress"])
    assert contracts is not None and contracts.ended == ("Expired", "Terminated")
    assert contracts.under_way == ("Active", "Draft", "In_Progress")


def test_the_states_before_a_row_s_own_event_are_told_apart() -> None:
    """A draft has not been signed (or published) yet; an open ticket has been opened."""
    contracts = lifecycle("status", ["Active", "Draft", "Expired", "Terminated"])
    assert contracts is not None and contracts.not_started == ("Draft",)
    tickets = lifecycle("status", ["open", "pending", "resolved", "closed"])
    assert tickets is not None and tickets.not_started == ()


def test_a_column_that_is_not_all_states_or_has_one_class_is_no_lifecycle() -> None:
    assert lifecycle("priority", ["low", "normal", "high", "urgent"]) is None
    assert lifecycle("status", ["open", "closed", "escalated to legal"]) is None  # (a value of no known state)
    assert lifecycle("status", ["open", "pending"]) is None  # (nothing ends)
    assert lifecycle("section", ["sports", "politics"]) is None


def test_the_words_name_their_class() -> None:
    states = lifecycle("status", ["open", "pending", "closed"])
    assert states is not None
    said = {m.group(0): states.values_of(m) for m in STATE_WORD.finditer(
        "unfinished, outstanding, not yet done, in-progress, finished, completed, wrapped up")}
    assert said == {"unfinished": ("open", "pending"), "outstanding": ("open", "pending"),
                    "not yet done": ("open", "pending"), "in-progress": ("open", "pending"),
                    "finished": ("closed",), "completed": ("closed",), "wrapped up": ("closed",)}
    assert not re.search(STATE_WORD, "a well-done job, a complete guide")
