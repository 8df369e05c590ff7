"""Pure scoring functions: result matching, routing confusion, retrieval ranks, percentiles."""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterable, Sequence
from typing import Any

from rag.evaluation.cases import ROUTES, ExpectedSQL
from rag.understand.planner import CALENDAR_DIMENSIONS

PRODUCT_DECIMALS = 2  # the product shows averages, shares and ratios to two decimals (rag.understand.text_to_sql)
NO_ANSWER = re.compile(r"found nothing relevant|no rows match|nothing to search|no matching rows|not in this table",
                       re.I)

def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        text = value.strip().replace(",", "")
        if re.fullmatch(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?", text):
            return float(text)
    return None


def tolerance(expected: Any) -> float:
    """How far a number may be from the reference: both were rounded, so half a unit of the reference's last written
    digit ("3.66": 0.005, "3.7": 0.05) plus half a unit of the product's ("897.625" is 897.62 or 897.63 depending on
    the float it came from); whole numbers exactly. A fixed 0.05 let a wrong average pass (3.70 over every row for
    the right 3.66)."""
    if isinstance(expected, int):
        return 0.0
    text = expected.strip() if isinstance(expected, str) else repr(float(expected))
    decimals = len(text.partition(".")[2]) if "e" not in text.lower() else PRODUCT_DECIMALS
    if not decimals:
        return 0.0
    return 0.5 * 10 ** -min(decimals, PRODUCT_DECIMALS) + 0.5 * 10 ** -PRODUCT_DECIMALS


MOMENT = r"\d{4}-\d\d-\d\d[ t]\d\d:\d\d(?::\d\d(?:\.\d+)?)?"  # a timestamp, lower-cased
# a part of one year labelled with its year, lower-cased: a quarter, half, month or week ("2024-q1", "2023-09")
PERIOD_OF_A_YEAR = re.compile(r"(?:19|20)\d\d-(?P<part>q[1-4]|h[12]|w?\d\d)")


WEEKDAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
# a reference's name for the group of rows without a value ("no region", "(none)", "unknown", "not set")
EMPTY_GROUP_LABEL = re.compile(r"\(?(?:no\s+[a-z ]+|none|unknown|missing|blank|empty|unassigned|not\s+set|n/?a|"
                               r"\(no value\))\)?")


def values_match(expected: Any, actual: Any) -> bool:
    """Numbers within the rounding of both (see `tolerance`; a numeric string counts as a number); other values
    as trimmed, case-insensitive text; None equals the empty string, and a reference's name for the empty group
    ("no region"); a date equals a moment of that day (a
    reference's "2024-06-24" for the product's "2024-06-24 13:55:00")."""
    a, b = _number(expected), _number(actual)
    if a is not None and b is not None:
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=tolerance(expected) + 1e-9)
    left = "" if expected is None else str(expected).strip().casefold()
    right = "" if actual is None else str(actual).strip().casefold()
    if re.fullmatch(r"\d{4}-\d\d-\d\d", left) and re.fullmatch(MOMENT, right):
        return right[:10] == left
    if (period := PERIOD_OF_A_YEAR.fullmatch(right)) and left:
        # ("2023 review counts by qtr": the product's "2023-Q1", a reference's "Q1" or 1; "2023-09", its "09")
        part = period["part"]
        # (or the same part with its year after it: "Q1 2023", "H2-2023", or before it with a space: "2023 H1")
        year_after = f"{part} {right[:4]}" if part[0] in "qh" else ""
        year_before = f"{right[:4]} {part}" if part[0] in "qh" else ""
        said = re.sub(r"[\s-]+", " ", left)
        return left in (part, right) or bool(year_after) and said in (year_after, year_before) or (
            a is not None and a == _number(part.lstrip("qhw")))
    if re.fullmatch(r"[qh][1-4]", right) and a is not None:  # ("for each calendar quarter": "Q1", a reference's 1)
        return a == int(right[1])
    if right in WEEKDAY_NAMES and len(left) >= 3 and right.startswith(left.rstrip(".")):
        return True  # ("Mon" for the product's "Monday")
    if actual is None and EMPTY_GROUP_LABEL.fullmatch(left):
        # ("show the contracts that have no region recorded as a separate group": the product's empty group, which it
        # names "(no value)", for a reference's COALESCE(region, 'no region'))
        return True
    return left == right


def _rows_equal(expected: Sequence[Any], actual: Sequence[Any]) -> bool:
    return len(expected) == len(actual) and all(values_match(e, a) for e, a in zip(expected, actual, strict=True))


def multiset_match(expected: Sequence[Sequence[Any]], actual: Sequence[Sequence[Any]]) -> bool:
    """True when the rows can be paired one to one (bipartite matching, so tolerance never mis-pairs)."""
    if len(expected) != len(actual):
        return False
    options = [[j for j, row in enumerate(actual) if _rows_equal(exp_row, row)] for exp_row in expected]
    owner: dict[int, int] = {}

    def assign(i: int, visited: set[int]) -> bool:
        for j in options[i]:
            if j in visited:
                continue
            visited.add(j)
            if j not in owner or assign(owner[j], visited):
                owner[j] = i
                return True
        return False

    return all(assign(i, set()) for i in range(len(expected)))


def rows_match(expected: Sequence[Sequence[Any]], actual: Sequence[Sequence[Any]], *, ordered: bool = False) -> bool:
    """Expected rows vs a result: same number of rows, and some choice of the result's columns (as many as
    the expected rows have, in any order) reproduces them; row order matters only when `ordered`. A column of one
    part of different years ("2023-Q3", "2024-Q3": "nda count q3 23 vs q3 24") also stands for those years."""
    years = _one_part_as_years(actual)
    return _rows_match(expected, actual, ordered) or years is not None and _rows_match(expected, years, ordered)


def _one_part_as_years(rows: Sequence[Sequence[Any]]) -> list[list[Any]] | None:
    """The rows with each column labelling the same part of different years ("2023-H1", "2024-H1") as the years, or
    None when no column does."""
    width = min((len(row) for row in rows), default=0)
    out = [list(row) for row in rows]
    found = False
    for c in range(width):
        periods = [PERIOD_OF_A_YEAR.fullmatch(str(row[c]).strip().casefold()) for row in rows]
        if all(periods) and len({p["part"] for p in periods}) == 1 and len({p[0][:4] for p in periods}) == len(rows):
            for row, period in zip(out, periods, strict=True):
                row[c] = period.group(0)[:4]
            found = True
    return out if found else None


def _rows_match(expected: Sequence[Sequence[Any]], actual: Sequence[Sequence[Any]], ordered: bool) -> bool:
    if len(expected) != len(actual):
        return False
    if not expected:
        return True
    width = len(expected[0])
    actual_width = min(len(row) for row in actual)
    if width > actual_width:
        return False

    def column_fits(j: int, c: int) -> bool:
        wanted = [[row[j]] for row in expected]
        got = [[row[c]] for row in actual]
        return all(_rows_equal(w, g) for w, g in zip(wanted, got, strict=True)) if ordered \
            else multiset_match(wanted, got)

    candidates = [[c for c in range(actual_width) if column_fits(j, c)] for j in range(width)]
    for columns in itertools.product(*candidates):
        if len(set(columns)) != width:
            continue
        projected = [[row[c] for c in columns] for row in actual]
        if (all(_rows_equal(e, p) for e, p in zip(expected, projected, strict=True)) if ordered
                else multiset_match(expected, projected)):
            return True
    return False


def value_match(expected: Any, actual_rows: Sequence[Sequence[Any]]) -> bool:
    """A single expected value: the result is one row and one of its cells is that value, or rows tied on it (each
    holds it in the same column); a count of 0 is also
    answered by no rows ("are there any brands that never got a one-star review?": none listed; whether the reply
    then said "nothing found" is judged on its text, see `says_no_answer`)."""
    if not actual_rows:  # (no rows: a count of 0, or the NULL of an extreme over no rows)
        return expected is None or _number(expected) == 0
    if len(actual_rows) > 1:  # ("the longest gap: 6 days", twice): rows tied on that value, in one column
        width = min(len(row) for row in actual_rows)
        return any(all(values_match(expected, row[c]) for row in actual_rows) for c in range(width))
    return any(values_match(expected, cell) for cell in actual_rows[0])


def states_count(answer: str, expected: ExpectedSQL) -> bool:
    """A listing whose reply states the expected count ("articles published q1 2023?": "Found 56 articles …; the
    first 50 are in the table") answers a question a reference reads as a count: the number is what the user reads
    first."""
    found = re.search(r"\bFound ([\d,]+) ", answer or "")
    return bool(found) and expected.has_value and _number(found.group(1)) == _number(expected.value)


# one of two compared values in a one-row answer: "review_count (Lumo)", "avg_helpful_votes (rating 1)"
COMPARED_COLUMN = re.compile(r"^[a-z0-9_]+ \((?P<label>.+)\)$")


def compared_rows(columns: Sequence[str], actual_rows: Sequence[Sequence[Any]]) -> list[list[Any]]:
    """A one-row comparison ("did Lumo get more reviews than Voltair": each value, their difference, yes or no) as
    the rows per compared value it states ([["Lumo", 33], ["Voltair", 51]]); [] for any other result. A value
    named as "<column> <value>" ("rating 1") is named by its value."""
    if len(actual_rows) != 1:
        return []
    found = [(m.group("label"), cell) for name, cell in zip(columns, actual_rows[0], strict=False)
             if (m := COMPARED_COLUMN.match(name))]
    if len(found) != 2:
        return []
    return [[label.rsplit(" ", 1)[-1] if re.fullmatch(r"[a-z_]+ -?[\d.]+", label) else label, cell]
            for label, cell in found]


def sql_result_match(expected: ExpectedSQL, actual_rows: Sequence[Sequence[Any]], *, ordered: bool = False,
                     columns: Sequence[str] = ()) -> bool:
    """The result holds the reference; a comparison answered in one row also matches a reference written as one row
    per compared value (the same labels and values)."""
    if expected.has_value:
        return value_match(expected.value, actual_rows)
    if rows_match(expected.rows or [], actual_rows, ordered=ordered):
        return True
    shown = _without_empty_groups(actual_rows, columns)  # a named group at 0 is the group a reference's WHERE left out
    if len(expected.rows or []) == len(shown) < len(actual_rows) and rows_match(expected.rows or [], shown,
                                                                                 ordered=ordered):
        return True
    sides, expected_sides = _presence_sides(actual_rows), _presence_sides(expected.rows or [])
    if sides and expected_sides and rows_match(expected_sides, sides, ordered=ordered):
        return True
    # ("May vs June per agent": a row per agent and month, a reference's row per agent with both months' counts)
    if any(rows_match(expected.rows or [], pivot, ordered=ordered) for pivot in _pivoted(actual_rows, columns)):
        return True
    # ("avg helpful votes: verified vs unverified": rows labelled "verified" / "not verified", a reference's 1 / 0)
    if rows_match(expected.rows or [], _flag_values(actual_rows), ordered=ordered):
        return True
    # ("solo vs co-authored": rows labelled "2 or more" / "fewer than 2" people, a reference's "co-authored" / "solo")
    people, expected_people = _people_sides(actual_rows), _people_sides(expected.rows or [])
    if people and expected_people and rows_match(expected_people, people, ordered=ordered):
        return True
    # ("2000+ words vs under 2000": rows labelled "word count 2000 or more" / "word count below 2000")
    bound, expected_bound = _bound_sides(actual_rows), _bound_sides(expected.rows or [])
    if bound and expected_bound and rows_match(expected_bound, bound, ordered=ordered):
        return True
    if _one_row_of_values(expected.rows or [], actual_rows):
        return True
    compared = compared_rows(columns, actual_rows)
    compared_people = _people_sides(compared)
    if compared_people and expected_people and rows_match(expected_people, compared_people, ordered=ordered):
        return True
    compared_sides = _presence_sides(compared)  # ("has author" / "no author" in one row, a reference's "bylined")
    if compared_sides and expected_sides and rows_match(expected_sides, compared_sides, ordered=ordered):
        return True
    return bool(compared) and (rows_match(expected.rows or [], compared, ordered=ordered)
                               or rows_match(expected.rows or [], _flag_values(compared), ordered=ordered))


def _pivoted(rows: Sequence[Sequence[Any]], columns: Sequence[str] = ()) -> list[list[list[Any]]]:
    """A result of two labels and a number per row ([agent, month, count]) written with one label per row and a
    column per value of the other (the same numbers: [agent, may_count, june_count]), either way round; a group with
    no row for a value has 0 of a count, else nothing. [] when the rows are not of that shape (or a value of the
    spread label is said more than once for one group, or there are more than 4 of them)."""
    if not rows or any(len(row) != 3 or not isinstance(row[2], int | float) or isinstance(row[2], bool)
                       for row in rows):
        return []
    missing = 0 if columns and str(columns[-1]).endswith("_count") else None
    pivots = []
    for kept, spread in ((0, 1), (1, 0)):
        values = list(dict.fromkeys(row[spread] for row in rows))
        groups: dict[Any, dict[Any, Any]] = {}
        for row in rows:
            if row[spread] in groups.setdefault(row[kept], {}):
                break
            groups[row[kept]][row[spread]] = row[2]
        else:
            if 2 <= len(values) <= 4 and len(groups) < len(rows):
                pivots.append([[group, *(cells.get(v, missing) for v in values)] for group, cells in groups.items()])
    return pivots


def _one_row_of_values(expected: Sequence[Sequence[Any]], actual_rows: Sequence[Sequence[Any]]) -> bool:
    """A reference stating several numbers in one row ("how many in the last 30 days, and how many in the 30 days
    before": [[8, 10]]) against a row per number, each labelled (the numbers in the last column, in any order)."""
    if len(expected) != 1 or len(expected[0]) < 2 or len(actual_rows) != len(expected[0]):
        return False
    if any(_number(v) is None for v in expected[0]) or any(len(row) < 2 for row in actual_rows):
        return False
    return multiset_match([[v] for v in expected[0]], [[row[-1]] for row in actual_rows])


def _without_empty_groups(rows: Sequence[Sequence[Any]], columns: Sequence[str] = ()) -> list[Sequence[Any]]:
    """The rows of groups that have something: a row whose every number is 0 or empty ("sports: 0 articles" in
    "politics vs sports articles in 2022") is a group with no matching row. The size of a group a share is of
    ("contract_count" beside "matching_contract_count") is not what matched."""
    whole = {i for i, name in enumerate(columns) if f"matching_{name}" in columns}

    def empty(row: Sequence[Any]) -> bool:
        values = [cell for i, cell in enumerate(row) if not isinstance(cell, str) and i not in whole]
        return bool(values) and all(cell is None or _number(cell) == 0 for cell in values)
    return [row for row in rows if not empty(row)]


# a label of the rows without a value: "no byline", "without author", "unsigned", "non-verified"
ABSENT_LABEL = re.compile(r"(?:no|not|non|without|missing|blank|empty|unknown|none)\b|un[a-z]+ed\b|non-", re.I)


def _presence_sides(rows: Sequence[Sequence[Any]]) -> list[list[Any]]:
    """Two rows labelled as the rows with and without a value ("has author" / "no author", a reference's "byline" /
    "no byline" or "bylined" / "unbylined") as the sides True / False; [] for any other result."""
    if len(rows) != 2 or not all(row and isinstance(row[0], str) for row in rows):
        return []
    absent = [bool(ABSENT_LABEL.match(str(row[0]).strip())) for row in rows]
    if sorted(absent) != [False, True]:
        return []
    return [[not side, *row[1:]] for side, row in zip(absent, rows, strict=True)]


# labels of the rows naming several people or one: "2 or more" / "fewer than 2" (the product's), "co-authored",
# "multiple authors", "more than one author" / "single author", "solo", "one author"
SEVERAL_LABEL = re.compile(r"\d+\s+or\s+more\b|co-?\s?(?:authored|written|bylined)|multi|several|more\s+than\s+one|"
                           r"shared|joint", re.I)
ONE_LABEL = re.compile(r"fewer\s+than\s+\d+|single|solo|sole|one\s+(?:author|writer|person|name)|alone", re.I)


UPPER_LABEL = re.compile(r"(?P<n>\d[\d,.]*)\s*(?:\+|or\s+more|or\s+above|and\s+(?:over|up|above))|"
                         r"(?:over|above|at\s+least|more\s+than)\s+(?P<m>\d[\d,.]*)", re.I)
LOWER_LABEL = re.compile(r"(?:under|below|less\s+than|fewer\s+than|up\s+to)\s+(?P<n>\d[\d,.]*)|"
                         r"(?P<m>\d[\d,.]*)\s+or\s+(?:less|fewer|below)", re.I)


def _bound_sides(rows: Sequence[Sequence[Any]]) -> list[list[Any]]:
    """Two rows labelled as the two sides of one bound on a number ("word count 2000 or more" / "word count below
    2000", a reference's "2000+ words" / "under 2000") as the sides True / False; [] for any other result (or two
    labels of different numbers)."""
    if len(rows) != 2 or not all(row and isinstance(row[0], str) for row in rows):
        return []
    upper = [UPPER_LABEL.search(row[0]) for row in rows]
    lower = [LOWER_LABEL.search(row[0]) for row in rows]
    if sorted(bool(u) and not d for u, d in zip(upper, lower, strict=True)) != [False, True] or \
            sorted(bool(d) and not u for u, d in zip(upper, lower, strict=True)) != [False, True]:
        return []
    numbers = {float((m["n"] or m["m"]).replace(",", "")) for m in (*upper, *lower) if m}
    if len(numbers) != 1:
        return []
    bound = numbers.pop()  # (the side is said with it: sides of another bound are other rows)
    return [[(bound, bool(u)), *row[1:]] for u, row in zip(upper, rows, strict=True)]


def _people_sides(rows: Sequence[Sequence[Any]]) -> list[list[Any]]:
    """Two rows labelled as the rows naming several people and one ("2 or more" / "fewer than 2", a reference's
    "co-authored" / "single-author") as the sides True / False; [] for any other result."""
    if len(rows) != 2 or not all(row and isinstance(row[0], str) for row in rows):
        return []
    several = [bool(SEVERAL_LABEL.search(row[0])) and not ONE_LABEL.search(row[0]) for row in rows]
    one = [bool(ONE_LABEL.search(row[0])) and not SEVERAL_LABEL.search(row[0]) for row in rows]
    if sorted(several) != [False, True] or sorted(one) != [False, True]:
        return []
    return [[side, *row[1:]] for side, row in zip(several, rows, strict=True)]


def _flag_values(rows: Sequence[Sequence[Any]]) -> list[list[Any]]:
    """Each column of the two sides of a 0/1 column as its values: "verified" / "not verified" are 1 / 0 (a reference
    labels the rows of a yes/no column by its stored values), in whichever column the labels are."""
    flagged = [list(row) for row in rows]
    for c in range(min((len(row) for row in flagged), default=0)):
        labels = {row[c] for row in flagged}
        if len(labels) != 2 or not all(isinstance(label, str) for label in labels):
            continue
        if yes := next((label for label in labels if f"not {label}" in labels), None):
            for row in flagged:
                row[c] = 1 if row[c] == yes else 0
    return flagged


def confusion_matrix(pairs: Iterable[tuple[str, str | None]], labels: Sequence[str] = ROUTES
                     ) -> dict[str, dict[str, int]]:
    """expected -> actual -> count, over the given labels plus 'none' (no route: an error before routing)."""
    columns = [*labels, "none"]
    matrix = {expected: dict.fromkeys(columns, 0) for expected in labels}
    for expected, actual in pairs:
        row = matrix.setdefault(expected, dict.fromkeys(columns, 0))
        key = actual if actual in columns else "none"
        row[key] = row.get(key, 0) + 1
    return matrix


def _is_relevant(item: Any, relevant: Sequence[str]) -> bool:
    """`item` is a retrieved (url, title, row_key) or a plain identifier."""
    keys = item if isinstance(item, tuple | list) else (item,)
    keys = [str(k).strip().casefold() for k in keys if k not in (None, "")]
    return any(r.strip().casefold() in keys for r in relevant)


def reciprocal_rank(retrieved: Sequence[Any], relevant: Sequence[str]) -> float:
    for rank, item in enumerate(retrieved, start=1):
        if _is_relevant(item, relevant):
            return 1.0 / rank
    return 0.0


def hit_at_k(retrieved: Sequence[Any], relevant: Sequence[str], k: int) -> bool:
    return any(_is_relevant(item, relevant) for item in retrieved[:k])


def recall_at_k(retrieved: Sequence[Any], relevant: Sequence[str], k: int) -> float:
    """Share of the relevant items found in the top k (at most k / len(relevant) when there are more)."""
    if not relevant:
        return 0.0
    found = {r for r in relevant for item in retrieved[:k] if _is_relevant(item, [r])}
    return len(found) / len(relevant)


def percentile(values: Sequence[float], p: float) -> float | None:
    """Linear-interpolated percentile (p in 0..100); None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    position = (len(ordered) - 1) * p / 100
    low, high = math.floor(position), math.ceil(position)
    return round(ordered[low] + (ordered[high] - ordered[low]) * (position - low), 3)


def rate(numerator: float, denominator: int) -> float | None:
    return round(numerator / denominator, 4) if denominator else None


def says_no_answer(answer: str, route: str | None, chunks: int, error: str | None) -> bool:
    """The reply says nothing was found ('found nothing relevant', 'No rows match'), or a retrieval route
    came back with no chunk at all."""
    if error:
        return False
    return bool(NO_ANSWER.search(answer or "")) or (route in ("vector", "hybrid") and chunks == 0)




def reference_columns(reference_sql: str, text_columns: set[str]) -> tuple[set[str], set[str]] | None:
    """(columns the reference SQL's WHERE tests, columns its GROUP BY groups on), title/content columns as
    "text"; None when the reference cannot be parsed."""
    import sqlglot
    from sqlglot import exp

    try:
        tree = sqlglot.parse_one(reference_sql, read="sqlite")
    except sqlglot.errors.ParseError:
        return None
    aliases = {a.alias: a.this for a in tree.find_all(exp.Alias)}

    def names(node: exp.Expression) -> set[str]:
        found: set[str] = set()
        for column in node.find_all(exp.Column):
            if column.name in aliases and not column.table:
                found |= names(aliases[column.name]) if aliases[column.name] is not node else set()
            else:
                found.add("text" if column.name in text_columns else column.name)
        return found

    where = tree.find(exp.Where)
    group = tree.find(exp.Group)
    return (names(where) if where else set(),
            set().union(*(names(e) for e in group.expressions)) if group else set())


def is_silent_error(reference_sql: str, reading: Any, roles: Any) -> bool:
    """Whether a wrong SQL answer looked right: its reading states no unused word, no correction and no
    alternative, and tests and groups exactly the columns the reference does, so nothing on the screen tells
    the user it was misread. (An extra, missing or different condition or grouping is visible in the
    restatement; a turn without a reading is always silent.)"""
    if reading is None:
        return True
    if reading.unused_words or reading.corrections or reading.alternatives or reading.action.startswith("Not "):
        return False
    text_columns = {c for c in (roles.title, roles.content) if c}
    reference = reference_columns(reference_sql, text_columns)
    if reference is None:
        return False
    conditions = {"text" if c.column in text_columns | {"text"} else c.column for c in reading.conditions}
    groups = {roles.date if d in CALENDAR_DIMENSIONS else roles.category if d == "category"
              else roles.authors if d == "author" else d for d in reading.group_by}
    return conditions == reference[0] and groups == reference[1]
