"""Column roles from names *and* values: which column is the text, the title, the date, the people, the
categories (several may exist), the url, the numbers; each decision comes with its evidence.

Names are one signal, never the whole decision: a column called `newsgroup` with 20 short distinct values
is categorical although no hint names it, and a column called `type` holding long unique text is not.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from rag.data.epoch import UNIT_NAMES, epoch_to_text, epoch_unit
from rag.errors import ConfigError

ROLES = ("id", "title", "content", "date", "category", "authors", "url")
# What a user may choose for one column (Data page, `rag roles`): one of the roles a single column plays, one
# of several categorical columns or numeric measures, or no role at all.
LIST_CHOICES = ("categorical", "numeric", "none")
CHOICES = ("content", "title", "date", "category", "authors", "url", "id", *LIST_CHOICES)
# The roles the product is weaker without (the content role is never missing: detection fails without one).
IMPORTANT_ROLES = ("title", "date", "category", "authors")

# Name hints per role, most specific first; matched on lower-cased column names (whole name, then part).
NAME_HINTS: dict[str, tuple[str, ...]] = {
    "title": ("title", "headline", "subject", "name", "heading", "summary_line"),
    "content": ("full_content", "content", "body", "text", "article", "description", "details", "message",
                "document", "summary", "review"),
    "date": ("published_date", "publish_date", "published_at", "published", "date", "created_at", "created",
             "opened_at", "timestamp", "updated_at", "signed_on", "effective_date", "posted_at", "_on", "_at"),
    "category": ("article_category", "category", "section", "topic", "type", "kind", "status", "department",
                 "priority", "product", "genre", "group", "class", "label", "tag"),
    "authors": ("authors", "author", "byline", "writer", "reporter", "reviewer", "poster", "assignee", "owner",
                "requester", "customer", "agent", "created_by", "posted_by", "submitted_by", "user", "username",
                "counterparty", "sender"),
    "url": ("url", "link", "href", "permalink", "uri"),
}

# named like an identifier: "id", "uuid", "key", or ending in "_id"/"_uuid"/"_key" ("review_id")
ID_NAME = re.compile(r"(?:\w+_)?(?:id|uuid|key)")
ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}")
URL_VALUE = re.compile(r"^https?://\S+$", re.I)
PERSON_NAME = re.compile(r"^[A-Z][\w'’.-]*(?:\s+(?:[A-Z][\w'’.-]*|van|von|de|da|del|der|la|le|bin|al)){1,3}$")
AUTHOR_SEPARATORS = re.compile(r"\s*[;|]\s*|\s*,\s*|\s+and\s+")
MAX_CATEGORY_VALUES = 200  # more distinct values than this is not a category a user names in a question
MAX_CATEGORY_CHARS = 40  # nor are long values
# Names of measures and identifiers: a number column named so is not an epoch date, whatever its values
# ("size" in bytes or a 10-digit id can fall in the range of plausible timestamps).
NOT_DATE_NAME = re.compile(r"(?:^|_)(?:id|uuid|key|size|bytes|length|len|count|num|number|words|amount|price|"
                           r"total|views|votes|score|rating|qty|quantity|population|revenue|sales|cost|income|"
                           r"budget|balance|salary|value|duration|distance|weight)(?:$|_|s$)", re.I)


@dataclass
class ColumnStats:
    """What a sample of one column's values shows."""

    name: str
    type: str
    values: int  # non-empty values in the sample
    distinct: int
    mean_chars: float = 0.0
    median_chars: float = 0.0
    date_share: float = 0.0
    url_share: float = 0.0
    person_share: float = 0.0
    epoch_unit: str | None = None  # "s" or "ms" when the numbers are plausible Unix timestamps
    epoch_span: tuple[str, str] | None = None  # the sample's first and last of them, as dates

    @property
    def distinct_share(self) -> float:
        return self.distinct / self.values if self.values else 1.0

    def describe(self) -> str:
        parts = [f"{self.distinct} distinct of {self.values} sampled", f"median {self.median_chars:.0f} characters"]
        if self.date_share:
            parts.append(f"{self.date_share:.0%} dates")
        if self.person_share:
            parts.append(f"{self.person_share:.0%} look like names")
        if self.url_share:
            parts.append(f"{self.url_share:.0%} urls")
        if self.epoch_unit and self.epoch_span:
            parts.append(f"{UNIT_NAMES[self.epoch_unit]} from {self.epoch_span[0]} to {self.epoch_span[1]}")
        return ", ".join(parts)


@dataclass
class ColumnRoles:
    """Which column plays which role; `None` when the table has no such column.

    `category` is the main categorical column (the one Chroma filters and the overview chart use);
    `categorical` lists every categorical column, `category` first, each a grouping and filter dimension."""

    content: str
    title: str | None = None
    date: str | None = None
    date_unit: str | None = None  # "s"/"ms": the date column holds Unix epoch seconds/milliseconds (UTC)
    category: str | None = None
    authors: str | None = None
    url: str | None = None
    id: str | None = None
    numeric: list[str] = field(default_factory=list)
    categorical: list[str] = field(default_factory=list)
    evidence: dict[str, str] = field(default_factory=dict)  # column -> why it got its role

    def as_dict(self) -> dict[str, Any]:
        return {role: getattr(self, role) for role in (*ROLES, "numeric", "categorical")}

    def role_of(self, column: str) -> str:
        """The one choice (of CHOICES) that describes `column`: its single role, else 'categorical',
        'numeric' or 'none'."""
        for role in CHOICES:
            if role not in LIST_CHOICES and getattr(self, role) == column:
                return role
        return "categorical" if column in self.categorical else "numeric" if column in self.numeric else "none"

    def missing(self) -> list[str]:
        """Important roles no column plays (questions about them cannot be answered)."""
        return [role for role in IMPORTANT_ROLES if getattr(self, role) is None]

    @property
    def term(self) -> tuple[str, str] | None:
        """(column, unit in capitals) of the only numeric column named with a unit of time ("term_months" ->
        MONTH, "duration_days" -> DAY): how long each row runs; None when there is none or more than one."""
        terms = [(c, m["unit"].upper()) for c in self.numeric if (m := TERM_NAME.fullmatch(c.lower()))]
        return terms[0] if len(terms) == 1 else None

    @property
    def end(self) -> str | None:
        """The rows' end date, when a row runs from its date for its `term`: the name of that derived date,
        "<date> + <term>" (see `ends_of`); no column of the table holds it."""
        return f"{self.date}{END_JOINER}{self.term[0]}" if self.date and self.term else None


# A numeric column counting time, named with its unit ("term_months", "duration_days", "warranty_years")
TERM_NAME = re.compile(r"(?:[a-z0-9]+_)+(?P<unit>day|week|month|year)s?")
END_JOINER = " + "


def ends_of(column: str) -> tuple[str, str, str] | None:
    """(date column, term column, unit of the term in capitals) of a derived end date (`ColumnRoles.end`), else None:
    "signed_on + term_months" -> ("signed_on", "term_months", "MONTH")."""
    parts = column.split(END_JOINER)
    unit = TERM_NAME.fullmatch(parts[-1].lower()) if len(parts) == 2 else None
    return (parts[0], parts[1], unit["unit"].upper()) if unit else None


def overrides_from_choices(choices: Mapping[str, str]) -> dict[str, str | list[str]]:
    """Per-column choices ({column: choice}) as role overrides for `detect_roles`: a single role maps to its
    column, 'categorical', 'numeric' and 'none' to lists of columns. Two columns with one single role is a
    ConfigError."""
    overrides: dict[str, Any] = {}
    for column, choice in choices.items():
        if choice not in CHOICES:
            raise ConfigError(f"Unknown column role {choice!r} for column {column!r}; roles are {', '.join(CHOICES)}.")
        if choice in LIST_CHOICES:
            overrides.setdefault(choice, []).append(column)
        elif choice in overrides:
            raise ConfigError(f"Columns {overrides[choice]!r} and {column!r} are both set to {choice}; "
                              f"one column plays the {choice} role.")
        else:
            overrides[choice] = column
    return overrides


def merge_overrides(saved: Mapping[str, str], explicit: Mapping[str, str]) -> dict[str, str | list[str]]:
    """Saved per-column choices under explicit role overrides (RAG_COLUMN_ROLES, --columns): an explicit
    role=column wins over a saved choice for the same role or the same column; the other saved choices stay."""
    kept = {column: choice for column, choice in saved.items()
            if column not in explicit.values() and choice not in explicit}
    return {**overrides_from_choices(kept), **explicit}


def row_noun(table: str) -> str:
    """The plural noun for the table's rows, from its name ("articles", "support_tickets" -> "tickets")."""
    last = table.lower().split("_")[-1] or table.lower()
    return last if last.endswith("s") else f"{last}s"


def column_stats(name: str, kind: str, sample: Sequence[Mapping[str, Any]]) -> ColumnStats:
    values = [r.get(name) for r in sample if r.get(name) not in (None, "")]
    texts = [str(v) for v in values]
    lengths = [len(t) for t in texts]
    share: Callable[[Callable[[Any], bool]], float] = lambda test: (  # noqa: E731
        sum(1 for v in values if test(v)) / len(values) if values else 0.0)
    unit = epoch_unit(values) if kind != "text" else None  # numbers also in a column declared DATETIME (SQLite)
    numbers = [v for v in values if isinstance(v, int | float)]
    span = (str(epoch_to_text(min(numbers), unit))[:10], str(epoch_to_text(max(numbers), unit))[:10]) if unit else None
    return ColumnStats(
        name=name, type=kind, values=len(values), distinct=len(set(texts)),
        mean_chars=sum(lengths) / len(lengths) if lengths else 0.0,
        median_chars=statistics.median(lengths) if lengths else 0.0,
        date_share=share(lambda v: isinstance(v, date) or bool(ISO_DATE.match(str(v)))),
        url_share=share(lambda v: bool(URL_VALUE.match(str(v)))),
        person_share=share(lambda v: _looks_like_people(str(v))),
        epoch_unit=unit, epoch_span=span,
    )


def _looks_like_people(value: str) -> bool:
    names = [n for n in AUTHOR_SEPARATORS.split(value.strip()) if n]
    return bool(names) and all(PERSON_NAME.match(n) for n in names)


def name_score(role: str, column: str) -> int:
    """2 for a whole-name hint, 1 for a hint inside the name (`review_text` ~ text), 0 for none."""
    lower = column.lower()
    hints = NAME_HINTS[role]
    if lower in hints:
        return 2
    parts = set(re.split(r"[_\W]+", lower))
    return 1 if any(h in parts or (h.startswith("_") and lower.endswith(h)) for h in hints) else 0


def detect_roles(columns: Mapping[str, Any], sample: Sequence[Mapping[str, Any]],
                 overrides: Mapping[str, str | Sequence[str]], primary_key: Sequence[str],
                 distinct_count: Callable[[str], int]) -> ColumnRoles:
    """Roles for `columns` (name -> ColumnInfo) from names and the `sample` rows; `distinct_count(column)`
    counts a column's distinct values in the whole table (asked only for categorical candidates).

    `overrides` maps a role to its column, and 'categorical', 'numeric' or 'none' to a list of columns (extra
    grouping dimensions, measures, columns that play no role); detection decides everything else."""
    lists: dict[str, list[str]] = {choice: [] for choice in LIST_CHOICES}
    single: dict[str, str] = {}
    for role, value in overrides.items():
        if role not in ROLES and role not in LIST_CHOICES:
            raise ConfigError(f"Unknown column role {role!r}; roles are {', '.join(CHOICES)}.")
        for column in [value] if isinstance(value, str) else value:
            if column not in columns:
                raise ConfigError(f"Column {column!r} (role {role}) is not in the table.")
            if role in LIST_CHOICES:
                lists[role].append(column)
            else:
                single[role] = column
    for column in lists["numeric"]:
        if columns[column].type in ("text", "date"):
            raise ConfigError(f"Column {column!r} holds {columns[column].type}, not numbers; it cannot be a "
                              "numeric measure.")
    stats = {name: column_stats(name, info.type, sample) for name, info in columns.items()}
    chosen: dict[str, str | None] = dict(single)
    evidence = {column: f"{role} (set by override); {stats[column].describe()}" for role, column in single.items()}
    evidence.update({column: f"{choice} (set by override); {stats[column].describe()}"
                     for choice, names in lists.items() for column in names})
    taken = set(single.values()) | {column for names in lists.values() for column in names}
    text_columns = [n for n, s in stats.items() if s.type in ("text", "other")]

    def free(names: Sequence[str]) -> list[str]:
        return [n for n in names if n not in taken]

    def take(role: str, column: str | None, why: str) -> None:
        chosen[role] = column
        if column:
            taken.add(column)
            evidence[column] = f"{role}: {why}; {stats[column].describe()}"

    if "content" not in chosen:
        candidates = free(text_columns)
        longest = max(candidates, key=lambda n: stats[n].mean_chars, default=None)
        named = max(candidates, key=lambda n: (name_score("content", n), stats[n].mean_chars), default=None)
        if named and name_score("content", named) and stats[named].mean_chars >= 0.5 * stats[longest].mean_chars:
            take("content", named, "named like text and long")
        elif longest:
            take("content", longest, "the longest text")
    if not chosen.get("content"):
        raise ConfigError("The table has no text column to search; set the content role.")

    if "url" not in chosen:
        candidates = [n for n in free(text_columns) if stats[n].url_share >= 0.8 or
                      (name_score("url", n) and stats[n].url_share >= 0.5) or
                      (name_score("url", n) == 2 and stats[n].distinct_share >= 0.9)]
        take("url", candidates[0] if candidates else None, "values are web addresses")

    if "date" not in chosen:
        # Text or date values, or numbers that are plausible Unix timestamps (a number column named like a
        # measure or an identifier is not a date, whatever its values); a name like a date breaks ties, and
        # text dates come before epoch numbers.
        candidates = [n for n in free(list(stats)) if stats[n].date_share >= 0.9 or
                      (stats[n].epoch_unit and not NOT_DATE_NAME.search(n) and
                       (name_score("date", n) or stats[n].distinct_share >= 0.5))]
        candidates.sort(key=lambda n: (-name_score("date", n), bool(stats[n].epoch_unit)))
        best = candidates[0] if candidates else None
        unit = stats[best].epoch_unit if best else None
        why = "values are dates" if not unit else f"values are {UNIT_NAMES[unit]} (Unix timestamps, read in UTC)" + (
            ", named like a date" if name_score("date", best or "") else "")
        take("date", best, why)

    if "authors" not in chosen:
        def author_fit(n: str) -> float:
            s = stats[n]
            if s.mean_chars > 60 or s.values == 0:
                return 0.0
            return name_score("authors", n) + 2 * s.person_share
        candidates = sorted((n for n in free(text_columns) if author_fit(n) >= 1.2), key=author_fit, reverse=True)
        take("authors", candidates[0] if candidates else None, "named like people and/or values look like names")

    if "title" not in chosen:
        def title_fit(n: str) -> float:
            s, named = stats[n], name_score("title", n)
            # A column named "title" stays the title even when titles repeat; others must be mostly distinct.
            minimum_distinct_share = {0: 0.5, 1: 0.3, 2: 0.0}[named]
            if not 3 <= s.median_chars <= 200 or s.distinct_share < minimum_distinct_share:
                return 0.0
            return named + s.distinct_share
        candidates = sorted((n for n in free(text_columns) if title_fit(n) > 0.6), key=title_fit, reverse=True)
        take("title", candidates[0] if candidates else None, "short, mostly distinct text")

    categorical = list(lists["categorical"])
    for n in free(text_columns):
        s = stats[n]
        if s.values and s.median_chars <= MAX_CATEGORY_CHARS and (s.distinct_share <= 0.5 or s.distinct <= 10):
            count = distinct_count(n)
            if count <= MAX_CATEGORY_VALUES:
                categorical.append(n)
                evidence[n] = f"categorical: {count} distinct values in the table; {s.describe()}"
    if "category" in chosen and chosen["category"]:
        categorical = [chosen["category"], *(c for c in categorical if c != chosen["category"])]
    elif categorical:
        categorical.sort(key=lambda n: (-name_score("category", n), distinct_count(n)))
        chosen["category"] = categorical[0]
        evidence[categorical[0]] = evidence[categorical[0]].replace("categorical", "category (main)", 1)
    else:
        chosen["category"] = None
    taken.update(categorical)

    if "id" not in chosen and len(primary_key) == 1 and primary_key[0] not in lists["none"]:
        chosen["id"] = primary_key[0]
        evidence.setdefault(primary_key[0], f"id: the primary key; {stats[primary_key[0]].describe()}")
    if "id" not in chosen:  # no primary key: a column named like an identifier whose values are all different
        named = [n for n in free(list(stats)) if ID_NAME.fullmatch(n.lower()) and stats[n].values
                 and stats[n].distinct_share == 1.0]
        take("id", named[0] if named else None, "named like an identifier, every value different")
    date_unit = None
    if chosen.get("date"):
        date_unit = stats[chosen["date"]].epoch_unit
        if date_unit is None and stats[chosen["date"]].type in ("integer", "float"):
            raise ConfigError(f"Column {chosen['date']!r} holds numbers that are not Unix timestamps (epoch seconds "
                              "or milliseconds between 1980 and 2050); it cannot be the date.")
    # Other timestamps (an "edited_at" beside the date) are no measure to average.
    numeric = [n for n, s in stats.items() if n in lists["numeric"] or
               (s.type in ("integer", "float") and n not in taken and n != chosen["id"] and
                not (s.epoch_unit and not NOT_DATE_NAME.search(n)))]
    for n in numeric:
        evidence.setdefault(n, f"numeric measure; {stats[n].describe()}")
    for n in stats:  # every column says what was seen, roles or not
        evidence.setdefault(n, f"no role; {stats[n].describe()}")
    return ColumnRoles(numeric=numeric, categorical=categorical, evidence=evidence, date_unit=date_unit,
                       **{k: v for k, v in chosen.items() if k in ROLES})  # type: ignore[arg-type]
