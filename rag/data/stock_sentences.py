"""The table's stock sentences: sentences its texts repeat word for word across many rows.

Tables written from templates repeat whole clauses ("The department head approved the contract before signature.",
"We have been customers for three years and have not seen this before."). A question that says one in other words
("how many contracts were approved by the head of the department before we signed them?") asks for the rows
holding that sentence, and a text match on the sentence itself selects them exactly, where a match on the question's
own words finds none. The planner reads such a clause by meaning against these sentences (`Planner`,
"_clause_in_other_words"); this module only finds them, from the keyword index's chunks (the same texts the
searches read, derived from the source column; nothing is written anywhere).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable

MIN_ROWS = 3  # a sentence in fewer rows is no template's: a one-off, or a quote repeated once
MIN_CHARS, MAX_CHARS = 12, 200  # shorter is a fragment ("Thanks."), longer is no single clause
MAX_SENTENCES = 2_000  # the most repeated ones kept: the planner embeds them all once
SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def repeated_sentences(texts: Iterable[tuple[str, str]], *, min_rows: int = MIN_ROWS) -> list[tuple[str, int]]:
    """(sentence, rows holding it) of every sentence at least `min_rows` rows hold, most rows first (ties in text
    order), from (row key, text) pairs; a row's several chunks count once."""
    rows: dict[str, set[str]] = defaultdict(set)
    for row_key, text in texts:
        for sentence in SENTENCE_END.split(text or ""):
            sentence = sentence.strip()  # (as written: the text match looks for it in the source column)
            if MIN_CHARS <= len(sentence) <= MAX_CHARS and "\n" not in sentence and re.search(r"[a-z]", sentence):
                rows[sentence].add(row_key)
    repeated = [(sentence, len(keys)) for sentence, keys in rows.items() if len(keys) >= min_rows]
    repeated.sort(key=lambda pair: (-pair[1], pair[0]))
    return repeated[:MAX_SENTENCES]
