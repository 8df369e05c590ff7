"""Human labels for columns and result aliases: what answers, readings and charts call a column.

A label is derived from the column's name ("article_category" in table "articles" -> "category",
"published_date" -> "published date", "opened_at" -> "opened", "url" -> "URL") and can be changed with the
column roles (saved beside them, `role_store`). Labels are lower-case words for running text ("per year and
category"); `heading` gives the capitalised form for axis titles and headers ("Published date").

SQL result aliases the product writes (`article_count`, `avg_word_count`, `share_pct`) read as what they
measure ("number of articles", "average word count", "share (%)"); any other alias (one a language model
wrote) gets a label derived from its name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from rag.data.roles import ends_of

ACRONYMS = {"id": "ID", "url": "URL", "uri": "URI", "ip": "IP", "sku": "SKU", "isbn": "ISBN", "pct": "%"}
# Words that only mark a date's kind in a name ("opened_at", "reviewed_on"): dropped after another word.
DATE_SUFFIXES = ("at", "on")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_SEPARATORS = re.compile(r"[\s_.\-/]+")
_PLAIN_NAME = re.compile(r"[\w .\-/]+")


def _words(name: str) -> list[str]:
    return [w.lower() for w in _SEPARATORS.split(_CAMEL.sub(" ", name.strip())) if w]


def _singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def derive_label(column: str, table: str = "") -> str:
    """A column's label from its name: words split at `_`, `-`, `.` and camelCase, lower-case, without a
    leading word naming the table's rows ("article_category" in "articles" -> "category") or a trailing
    "at"/"on" ("opened_at" -> "opened"); acronyms in capitals ("url" -> "URL")."""
    if (ends := ends_of(column)) is not None:  # ("signed_on + term_months": the rows' end, derived)
        return f"end ({derive_label(ends[0], table)} + {derive_label(ends[1], table)})"
    words = _words(column)
    if not words or not _PLAIN_NAME.fullmatch(column):  # an alias with punctuation is shown as written
        return column
    row = _singular(_words(table)[-1]) if _words(table) else ""
    if row and len(words) > 1 and _singular(words[0]) == row:
        words = words[1:]
    if len(words) > 1 and words[-1] in DATE_SUFFIXES:
        words = words[:-1]
    return " ".join(ACRONYMS.get(w, w) for w in words)


def column_labels(columns: Iterable[str], table: str, saved: Mapping[str, str] | None = None) -> dict[str, str]:
    """{column: label} for every column: the saved label where there is one, else the derived one."""
    saved = saved or {}
    return {c: (saved.get(c) or "").strip() or derive_label(c, table) for c in columns}


MEASURE_PATTERNS = (
    (re.compile(r"^avg_(.+)$"), "average {name}"),
    (re.compile(r"^total_(.+)$"), "total {name}"),
    (re.compile(r"^max_(.+)$"), "highest {name}"),
    (re.compile(r"^min_(.+)$"), "lowest {name}"),
)


# a value of one of two compared values ("article_count (2023-Q2)", "avg_rating (Voltair)")
COMPARED_VALUE = re.compile(r"^([a-z0-9_]+) \((.+)\)$")
# whether the first of two compared values is more (less) than the second: 'yes' or 'no'
COMPARED_VERDICT = re.compile(r"^.+ (?:more|less) than .+$")


def label_of(name: str, labels: Mapping[str, str] | None = None, table: str = "") -> str:
    """The label of a result column: a table column's label, a measure alias in words (`article_count` ->
    "number of articles", `avg_word_count` -> "average word count", `share_pct` -> "share (%)"), else derived."""
    labels = labels or {}
    if name in labels:
        return labels[name]
    if name == "share_pct":
        return "share (%)"
    if name.endswith("_pct") and len(name) > len("_pct"):  # ("difference_pct": a difference in percent)
        return f"{label_of(name.removesuffix('_pct'), labels, table)} (%)"
    if COMPARED_VERDICT.match(name):  # "2023-Q2 more than 2023-Q1" says itself
        return name
    compared = COMPARED_VALUE.match(name)
    if compared:  # "article_count (2023-Q2)": one of two compared values
        return f"{label_of(compared.group(1), labels, table)} ({compared.group(2)})"
    for pattern, template in MEASURE_PATTERNS:
        match = pattern.match(name)
        if match:
            return template.format(name=label_of(match.group(1), labels, table))
    if name.startswith("matching_") and name.endswith("_count"):  # the part of a share: "4 of 12"
        return label_of(name.removeprefix("matching_"), labels, table).replace("number of ", "number of matching ", 1)
    if name.endswith("_count") and len(name) > len("_count"):
        counted = name[: -len("_count")]
        rows = _singular(_words(table)[-1]) if _words(table) else ""
        # "article_count" counts the table's rows (the planner's alias); "word_count" is a column of its own
        if not rows or _singular(counted) in (rows, "row"):
            return f"number of {_singular(counted).replace('_', ' ')}s"
    return derive_label(name, table)


def heading(label: str) -> str:
    """A label as a heading or axis title: its first letter capitalised ("published date" -> "Published date")."""
    return label[:1].upper() + label[1:]


SMALL_WORDS = {"a", "an", "and", "as", "at", "by", "for", "in", "of", "on", "or", "per", "the", "to", "vs"}


def title_case(text: str) -> str:
    """A chart title in title case: every word capitalised except short joining words after the first
    ("number of articles by year" -> "Number of Articles by Year"); words with capitals are kept as written."""
    words = text.split(" ")
    out = []
    for number, word in enumerate(words):
        if word and word == word.lower() and (number == 0 or word not in SMALL_WORDS):
            word = word[:1].upper() + word[1:]
        out.append(word)
    return " ".join(out)


# The planner's grouping dimensions that stand for a column role ("per category", "per author").
DIMENSION_ROLES = {"category": "category", "author": "authors"}


def reading_labels(labels: Mapping[str, str], roles: object, table: str) -> dict[str, str]:
    """The labels a reading uses: every column's, plus the planner's dimensions named by the column behind them:
    "per category" reads "per status" on a table whose main category is `status`, "per author" reads "per
    assignee" (a derived plural label is made singular: `authors` -> "author")."""
    out = dict(labels)
    for dimension, role in DIMENSION_ROLES.items():
        column = getattr(roles, role, None)
        if column and dimension not in labels and column in labels:
            label = labels[column]
            plural = dimension == "author" and label.endswith("s") and not label.endswith(("ss", "us"))
            out[dimension] = _singular(label) if plural and label == derive_label(column, table) else label
    return out
