"""Compute the expected SQL results of eval/news/dev.yaml from data/articles.jsonl, independently of the product.

Nothing here imports `rag`: every expectation is plain Python over the JSON lines (word count =
whitespace-separated words of `full_content`, authors split on ';', dates compared as text
'YYYY-MM-DD HH:MM:SS'). Relative dates are anchored on the newest row's day, as the product
documents: a rolling "last N months/days" window ends on that day and starts N units earlier
plus one day; "last month/quarter/year" is the previous calendar unit.

    python eval/news/make_expected.py           # check: exit 1 when a case's sql_result differs
    python eval/news/make_expected.py --fill    # rewrite sql_result of every computed case
It also checks that every `relevant` url exists in the corpus and that every SQL case is computed here,
or states a `reference_sql` (SQLite): such a case's sql_result must be exactly that query's output on a
fresh in-memory copy of the table built here from the JSON lines (floats rounded to 2 decimals, one
cell as {value: x}), and --fill rewrites it from the query.
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3
import sys
from calendar import monthrange
from collections import Counter, defaultdict
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
CASES = HERE / "dev.yaml"
CORPUS = HERE.parent.parent / "data" / "articles.jsonl"

URL = re.compile(r"^https?://[^\s,\[\]{}#]+$")  # written unquoted; anything else is JSON-quoted
Row = dict[str, Any]
Expect = Callable[[list[Row]], Any]


def load_corpus(path: Path = CORPUS) -> list[Row]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    for row in rows:
        row["word_count"] = len(row["full_content"].split())
        row["day"] = date.fromisoformat(row["published_date"][:10])
        row["author_list"] = [name.strip() for name in row["authors"].split(";") if name.strip()]
    return rows


# ---------------------------------------------------------------- small helpers


def newest_day(rows: list[Row]) -> date:
    return max(r["day"] for r in rows)


def add_months(day: date, months: int) -> date:
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    return date(year, month + 1, min(day.day, monthrange(year, month + 1)[1]))


def rolling_months(rows: list[Row], n: int) -> tuple[date, date]:
    today = newest_day(rows)
    return add_months(today, -n) + timedelta(days=1), today


def rolling_days(rows: list[Row], n: int) -> tuple[date, date]:
    today = newest_day(rows)
    return today - timedelta(days=n - 1), today


def previous_month(rows: list[Row]) -> tuple[date, date]:
    first = newest_day(rows).replace(day=1)
    last = first - timedelta(days=1)
    return last.replace(day=1), last


def previous_quarter(rows: list[Row]) -> tuple[date, date]:
    today = newest_day(rows)
    quarter_start = date(today.year, 3 * ((today.month - 1) // 3) + 1, 1)
    end = quarter_start - timedelta(days=1)
    return date(end.year, end.month - 2, 1), end


def between(rows: list[Row], start: date, end: date) -> list[Row]:
    return [r for r in rows if start <= r["day"] <= end]


def year(rows: list[Row], y: int) -> list[Row]:
    return [r for r in rows if r["day"].year == y]


def cat(rows: list[Row], category: str) -> list[Row]:
    return [r for r in rows if r["article_category"] == category]


def by_author(rows: list[Row], name: str) -> list[Row]:
    return [r for r in rows if name in r["author_list"]]


def titles(rows: list[Row]) -> list[list[Any]]:
    return [[r["title"]] for r in rows]


def newest_first(rows: list[Row]) -> list[Row]:
    return sorted(rows, key=lambda r: r["published_date"], reverse=True)


def count(rows: list[Row]) -> dict[str, Any]:
    return {"value": len(rows)}


def grouped(rows: list[Row], *keys: Callable[[Row], Any], value: Callable[[list[Row]], Any] = len) -> list[list[Any]]:
    groups: dict[tuple[Any, ...], list[Row]] = defaultdict(list)
    for row in rows:
        groups[tuple(k(row) for k in keys)].append(row)
    return [[*key, value(members)] for key, members in sorted(groups.items())]


def mean_words(rows: list[Row]) -> float:
    return round(sum(r["word_count"] for r in rows) / len(rows), 3)


def the_year(r: Row) -> str:
    return r["published_date"][:4]


def the_month(r: Row) -> str:
    return r["published_date"][:7]


def the_category(r: Row) -> str:
    return r["article_category"]


def author_counts(rows: list[Row]) -> Counter[str]:
    return Counter(name for r in rows for name in r["author_list"])


def top_authors(rows: list[Row], n: int) -> list[list[Any]]:
    counts = author_counts(rows).most_common()
    cutoff = counts[n - 1][1]
    return [[name, c] for name, c in counts if c >= cutoff]  # ties at the cut are all included


def extreme(rows: list[Row], key: Callable[[Row], Any], *, most: bool) -> list[list[Any]]:
    best = (max if most else min)(key(r) for r in rows)
    return [[r["title"], key(r)] for r in rows if key(r) == best]


# ---------------------------------------------------------------- the expectations, by case id

EXPECTED: dict[str, Expect] = {
    "sql-per-year-category": lambda rs: grouped(rs, the_year, the_category),
    "sql-per-year-category-2": lambda rs: grouped(rs, the_year, the_category),
    "sql-per-year-category-3": lambda rs: grouped(rs, the_year, the_category),
    "sql-avg-words-category": lambda rs: grouped(rs, the_category, value=mean_words),
    "sql-avg-words-category-2": lambda rs: grouped(rs, the_category, value=mean_words),
    "sql-avg-words-category-3": lambda rs: grouped(rs, the_category, value=mean_words),
    "sql-list-politics": lambda rs: titles(cat(rs, "politics")),
    "sql-list-politics-2": lambda rs: titles(cat(rs, "politics")),
    "sql-list-politics-3": lambda rs: titles(cat(rs, "politics")),
    "sql-count-all": count,
    "sql-count-tech-2023": lambda rs: count(cat(year(rs, 2023), "technology")),
    "sql-count-tech-synonym": lambda rs: count(cat(year(rs, 2023), "technology")),
    "sql-count-sports": lambda rs: count(cat(rs, "sports")),
    "sql-count-per-category": lambda rs: grouped(rs, the_category),
    "sql-count-per-year": lambda rs: grouped(rs, the_year),
    "sql-per-month-2023": lambda rs: grouped(year(rs, 2023), the_month),
    "sql-monthly-fashion-2023": lambda rs: grouped(cat(year(rs, 2023), "fashion"), the_month),
    "sql-per-category-2023": lambda rs: grouped(year(rs, 2023), the_category),
    "sql-last-3-months": lambda rs: count(between(rs, *rolling_months(rs, 3))),
    "sql-health-past-6-months": lambda rs: count(cat(between(rs, *rolling_months(rs, 6)), "health")),
    "sql-last-month": lambda rs: count(between(rs, *previous_month(rs))),
    "sql-last-year": lambda rs: count(year(rs, newest_day(rs).year - 1)),
    "sql-last-quarter": lambda rs: count(between(rs, *previous_quarter(rs))),
    "sql-past-week-list": lambda rs: titles(between(rs, *rolling_days(rs, 7))),
    "sql-politics-last-month": lambda rs: titles(cat(between(rs, *previous_month(rs)), "politics")),
    "sql-health-past-30-days": lambda rs: titles(cat(between(rs, *rolling_days(rs, 30)), "health")),
    "sql-top-category": lambda rs: [list(c) for c in Counter(map(the_category, rs)).most_common()
                                    if c[1] == Counter(map(the_category, rs)).most_common(1)[0][1]],
    "sql-fewest-month-2023": lambda rs: [[m, n] for m, n in Counter(map(the_month, year(rs, 2023))).items()
                                         if n == min(Counter(map(the_month, year(rs, 2023))).values())],
    "sql-top-2-authors": lambda rs: top_authors(rs, 2),
    "sql-most-prolific-tie": lambda rs: top_authors(rs, 1),
    "sql-longest": lambda rs: extreme(rs, lambda r: r["word_count"], most=True),
    "sql-shortest": lambda rs: extreme(rs, lambda r: r["word_count"], most=False),
    "sql-longest-travel": lambda rs: extreme(cat(rs, "travel"), lambda r: r["word_count"], most=True),
    "sql-avg-words": lambda rs: {"value": mean_words(rs)},
    "sql-avg-travel": lambda rs: {"value": mean_words(cat(rs, "travel"))},
    "sql-total-words-health": lambda rs: {"value": sum(r["word_count"] for r in cat(rs, "health"))},
    "sql-avg-per-year": lambda rs: grouped(rs, the_year, value=mean_words),
    "sql-latest-5-tech": lambda rs: titles(newest_first(cat(rs, "technology"))[:5]),
    "sql-latest-3": lambda rs: titles(newest_first(rs)[:3]),
    "sql-newest": lambda rs: titles(newest_first(rs)[:1]),
    "sql-oldest": lambda rs: titles(newest_first(rs)[-1:]),
    "sql-first-tech-date": lambda rs: {"value": min(r["published_date"] for r in cat(rs, "technology"))},
    "sql-by-author": lambda rs: titles(by_author(rs, "Leopold Farrant")),
    "sql-by-author-2": lambda rs: titles(by_author(rs, "Priya Okonjo")),
    "sql-by-author-partial": lambda rs: titles([r for r in rs
                                                if any(n.endswith(" Farrant") for n in r["author_list"])]),
    "sql-by-author-misspelt": lambda rs: titles(by_author(rs, "Leopold Farrant")),
    "sql-count-author": lambda rs: count(by_author(rs, "Sam Oyelaran")),
    "sql-count-over-2000": lambda rs: count([r for r in rs if r["word_count"] > 2000]),
    "sql-list-over-2500": lambda rs: titles([r for r in rs if r["word_count"] > 2500]),
    "sql-share-politics": lambda rs: {"value": round(100 * len(cat(rs, "politics")) / len(rs), 3)},
    "sql-count-between": lambda rs: count(between(rs, date(2023, 3, 1), date(2023, 5, 31))),
    "sql-count-q2-fashion": lambda rs: count(cat(between(rs, date(2023, 4, 1), date(2023, 6, 30)), "fashion")),
    "sql-list-apr17": lambda rs: titles(between(rs, date(2023, 4, 17), date(2023, 4, 17))),
    "sql-business-apr17": lambda rs: titles(cat(between(rs, date(2023, 4, 17), date(2023, 4, 17)), "business")),
    "sql-count-2001": lambda rs: count(year(rs, 2001)),
    "sql-1970s": lambda rs: titles([r for r in rs if 1970 <= r["day"].year <= 1979]),
    "sql-travel-june": lambda rs: titles(cat(between(rs, date(2023, 6, 1), date(2023, 6, 30)), "travel")),
    "sql-empty-fashion-2019": lambda rs: titles(cat(year(rs, 2019), "fashion")),
    "sql-mention-dooley": lambda rs: count([r for r in rs
                                            if "dooley" in (r["title"] + " " + r["full_content"]).lower()]),
    "sql-misspelt-category": lambda rs: count(cat(rs, "politics")),
    "sql-misspelt-articles": lambda rs: count(cat(year(rs, 2023), "sports")),
}


# ---------------------------------------------------------------- cases defined by their reference SQL


def reference_table(rows: list[Row]) -> sqlite3.Connection:
    """Table `articles` in memory, with the sample database's columns (word_count as defined above)."""
    connection = sqlite3.connect(":memory:")
    connection.execute("CREATE TABLE articles (url TEXT, title TEXT, authors TEXT, published_date TEXT, "
                       "article_category TEXT, word_count INTEGER, full_content TEXT)")
    connection.executemany("INSERT INTO articles VALUES (?, ?, ?, ?, ?, ?, ?)",
                           [(r["url"], r["title"], r["authors"], r["published_date"], r["article_category"],
                             r["word_count"], r["full_content"]) for r in rows])
    return connection


def reference_result(connection: sqlite3.Connection, sql: str, like: Any) -> Any:
    """The query's rows (floats rounded to 2 decimals), as {value: x} when the stored result is one value."""
    rows = [[round(v, 2) if isinstance(v, float) else v for v in row] for row in connection.execute(sql).fetchall()]
    if isinstance(like, dict):
        if len(rows) != 1 or len(rows[0]) != 1:
            raise ValueError(f"expected one value, got {rows!r}")
        return {"value": rows[0][0]}
    return rows


# ---------------------------------------------------------------- YAML in and out


def dump_cases(document: dict[str, Any]) -> str:
    """The case file in a stable layout: rows as one-line JSON flow lists (JSON is valid YAML)."""

    def scalar(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    lines = [f"version: {document['version']}", f"table: {document['table']}", "cases:"]
    order = ("id", "question", "route", "alternatives", "ordered", "sql_result", "relevant", "no_answer", "notes")
    for case in document["cases"]:
        first = True
        for key in [*order, *(k for k in case if k not in order)]:
            if key not in case:
                continue
            value = case[key]
            prefix = "- " if first else "  "
            first = False
            if key == "sql_result" and isinstance(value, list):
                if not value:
                    lines.append(f"{prefix}{key}: []")
                else:
                    lines.append(f"{prefix}{key}:")
                    lines += [f"  - {scalar(row)}" for row in value]
            elif key == "sql_result" and isinstance(value, dict):
                lines.append(f"{prefix}{key}: {{{', '.join(f'{k}: {scalar(v)}' for k, v in value.items())}}}")
            elif key == "relevant" and isinstance(value, list) and len(value) > 1:
                lines.append(f"{prefix}{key}:")
                lines += [f"  - {item if URL.match(str(item)) else scalar(item)}" for item in value]
            elif key in ("relevant", "alternatives") and isinstance(value, list):
                items = (str(v) if URL.match(str(v)) or key == "alternatives" else scalar(v) for v in value)
                lines.append(f"{prefix}{key}: [{', '.join(items)}]")
            elif key == "reference_sql":
                lines += [f"{prefix}{key}: |-", *(f"    {line}".rstrip() for line in value.strip().splitlines())]
            elif isinstance(value, bool):
                lines.append(f"{prefix}{key}: {'true' if value else 'false'}")
            elif key in ("id", "route"):
                lines.append(f"{prefix}{key}: {value}")
            else:
                lines.append(f"{prefix}{key}: {scalar(value)}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fill", action="store_true", help="rewrite sql_result of every computed case")
    parser.add_argument("--cases", default=str(CASES))
    parser.add_argument("--corpus", default=str(CORPUS))
    args = parser.parse_args(argv)
    rows = load_corpus(Path(args.corpus))
    path = Path(args.cases)
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    problems: list[str] = []
    urls = {r["url"] for r in rows}
    titles_ = {r["title"] for r in rows}
    ids = {case["id"] for case in document["cases"]}
    for missing in sorted(set(EXPECTED) - ids):
        problems.append(f"{missing}: computed here but not in {path.name}")
    connection = reference_table(rows)
    for case in document["cases"]:
        for item in case.get("relevant") or []:
            if item not in urls and item not in titles_:
                problems.append(f"{case['id']}: relevant {item!r} is not a url or title of the corpus")
        if case["id"] not in EXPECTED and "reference_sql" in case:
            try:
                computed = reference_result(connection, case["reference_sql"], case.get("sql_result"))
            except (sqlite3.Error, ValueError) as error:
                problems.append(f"{case['id']}: reference_sql fails: {error}")
                continue
            if args.fill:
                case["sql_result"] = computed
            elif case.get("sql_result") != computed:
                problems.append(f"{case['id']}: sql_result {case.get('sql_result')!r} != reference {computed!r}")
            continue
        if case["id"] not in EXPECTED:
            if "sql_result" in case:
                problems.append(f"{case['id']}: has sql_result but no computation here")
            continue
        expected = json.loads(json.dumps(EXPECTED[case["id"]](rows)))  # tuples -> lists, as YAML gives back
        if args.fill:
            case["sql_result"] = expected
        elif case.get("sql_result") != expected:
            problems.append(f"{case['id']}: sql_result {case.get('sql_result')!r} != computed {expected!r}")
    if args.fill:
        path.write_text(dump_cases(document), encoding="utf-8")
        print(f"filled {sum(1 for c in document['cases'] if c['id'] in EXPECTED)} sql_result values in {path}")
    for problem in problems:
        print(problem, file=sys.stderr)
    if not problems and not args.fill:
        by_sql = sum(1 for c in document["cases"] if c["id"] not in EXPECTED and "reference_sql" in c)
        print(f"{path.name}: {len(document['cases'])} cases, {len(EXPECTED)} computed expectations and "
              f"{by_sql} reference_sql results match")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
