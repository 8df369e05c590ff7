"""The evaluation harness: metric functions, the case-file format, scoring, the report, and a second schema.

The support-ticket table (eval/tickets/) has other column names than the sample; it is built in a
temporary directory, indexed with the hashing embedder, and evaluated by `rag.eval` unchanged.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from rag.evaluation.cases import Case, CaseFileError, ExpectedSQL, load_cases, parse_cases
from rag.evaluation.metrics import (
    confusion_matrix,
    hit_at_k,
    multiset_match,
    percentile,
    recall_at_k,
    reciprocal_rank,
    rows_match,
    says_no_answer,
    sql_result_match,
    states_count,
    value_match,
    values_match,
)
from rag.evaluation.report import EvalReport, summarise, summary_markdown, write_report
from rag.evaluation.runner import run_eval, score_case
from rag.models import Chunk, Citation, DroppedFilter, EngineResult, Filter, QueryResult, Trace, Turn
from rag.settings import PROJECT_ROOT, Settings

EVAL_DIR = PROJECT_ROOT / "eval"


def load_script(path: Path) -> ModuleType:
    """Import a script from eval/ (not a package) by path."""
    helpers = str(EVAL_DIR / "news")  # make_expected.py, whose YAML layout the other generators reuse
    sys.path.insert(0, helpers)
    try:
        spec = importlib.util.spec_from_file_location(path.stem + "_under_test", path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(helpers)


# --------------------------------------------------------------------------- comparing values and rows


@pytest.mark.parametrize(("expected", "actual", "same"), [
    (16, 16, True),
    (16, "16", True),  # a number and a numeric string
    (812.4375, 812.44, True),  # the product rounds averages to two decimals
    (12.308, 12.31, True),
    (12.308, 12.29, False),
    (3.66, 3.7, False),  # a wrong average (every row instead of the rows asked about) is not a rounding
    (3.7, 3.66, True),  # a reference written to one decimal allows half of that decimal
    (897.62, 897.63, True),  # 897.625 rounded from two floats a hair apart
    (1000, 1001, False),  # counts are exact, however large
    (12.308, 100.0, False),
    (16, 17, False),
    ("Technology", "technology ", True),  # text: trimmed, case-insensitive
    ("2023", "2023", True),
    ("2023-02", "2023-03", False),
    (None, "", True),
    ("2024-06-24", "2024-06-24 13:55:00", True),  # a date asked for, the moment shown
    ("2024-06-24", "2024-06-25 00:10:00", False),
    ("2024-06-24 13:55:00", "2024-06-24", False),  # a moment asked for is not its day
    (True, 1, False),  # booleans are not numbers
    ("Q1", "2024-Q1", True),  # a part of one year, labelled with its year by the product
    (1, "2023-Q1", True),
    ("09", "2023-09", True),
    (9, "2023-09", True),
    ("Q2", "2024-Q1", False),
    (2, "2023-Q1", False),
    ("2023", "2023-Q1", False),
    (1, "Q1", True),  # a quarter within the year, a reference's number of it
    (2, "H2", True),
    (2, "Q1", False),
    ("no region", None, True),  # the group of rows without a value, named by a reference's COALESCE
    ("(none)", None, True),
    ("EMEA", None, False),
    ("no region", "EMEA", False),
    ("Mon", "Monday", True),  # a day of the week, a reference's short name
    ("Thurs", "Thursday", True),
    ("Mon", "Tuesday", False),
    ("Mo", "Monday", False),
])
def test_values_match_with_tolerance(expected: Any, actual: Any, same: bool) -> None:
    assert values_match(expected, actual) is same


def test_rows_match_ignores_order_unless_asked() -> None:
    expected = [["2023", "tech", 16], ["2022", "fashion", 1]]
    shuffled = [["2022", "fashion", 1], ["2023", "tech", 16]]
    assert rows_match(expected, shuffled)
    assert not rows_match(expected, shuffled, ordered=True)
    assert rows_match(expected, expected, ordered=True)


def test_rows_match_projects_onto_the_columns_the_case_names() -> None:
    """A listing returns title, date, category, ...; the case may name only the titles, in any column order."""
    actual = [["B title", "2023-01-02", "politics", "url-b", 900], ["A title", "2023-01-01", "politics", "url-a", 500]]
    assert rows_match([["A title"], ["B title"]], actual)
    assert rows_match([[500, "A title"], [900, "B title"]], actual)  # columns in another order
    assert not rows_match([["A title", 900], ["B title", 500]], actual)  # values from mismatched rows
    assert not rows_match([["A title"]], actual)  # row count differs
    assert not rows_match([["A title", 1, 2, 3, 4, 5]], actual[:1])  # wider than the result


def test_rows_with_and_without_a_value_in_one_row_match_a_reference_labelled_otherwise() -> None:
    """"are unsigned pieces shorter than the ones with a byline?": one row ("has author" / "no author", difference,
    yes/no) states what a reference's "bylined" / "unsigned" rows do; swapped values still fail."""
    columns = ["avg_word_count (no author)", "avg_word_count (has author)", "difference",
               "no author less than has author"]
    row = [[511.0, 878.06, -367.06, "yes"]]
    assert sql_result_match(ExpectedSQL(rows=[["bylined", 878.06], ["unsigned", 511.0]]), row, columns=columns)
    assert not sql_result_match(ExpectedSQL(rows=[["bylined", 511.0], ["unsigned", 878.06]]), row, columns=columns)


def test_a_group_with_no_matching_row_is_left_out_even_beside_its_size() -> None:
    """"only list types where some are blank": a share's group at 0 of 56 is the group a reference's HAVING left
    out; the group's size (the whole beside "matching_…") is not what matched. A group with a match still counts."""
    columns = ["contract_type", "matching_contract_count", "contract_count", "share_pct"]
    actual = [["Consulting", 3, 115, 2.61], ["DPA", 8, 63, 12.7], ["Lease", 0, 56, 0.0]]
    assert sql_result_match(ExpectedSQL(rows=[["DPA", 12.7], ["Consulting", 2.6]]), actual, columns=columns)
    assert not sql_result_match(ExpectedSQL(rows=[["DPA", 12.7], ["Consulting", 2.6]]), actual)  # (no names)
    assert not sql_result_match(ExpectedSQL(rows=[["DPA", 12.7]]), actual, columns=columns)


def test_a_row_per_group_and_compared_value_answers_a_reference_with_a_column_per_value() -> None:
    """"For each agent, May 2024 compared with June 2024": a row per agent and month states the reference's row per
    agent with both months' counts (a month with no row of that agent is 0 of a count); other numbers fail."""
    columns = ["author", "month", "ticket_count"]
    actual = [["Grace", "2024-05", 2], ["Grace", "2024-06", 2], ["Maya", "2024-05", 2], ["Omar", "2024-06", 2]]
    assert sql_result_match(ExpectedSQL(rows=[["Grace", 2, 2], ["Maya", 2, 0], ["Omar", 0, 2]]), actual,
                            columns=columns)
    assert not sql_result_match(ExpectedSQL(rows=[["Grace", 2, 2], ["Maya", 0, 2], ["Omar", 0, 2]]), actual,
                                columns=columns)
    # (either way round: a row per month with each agent's count)
    assert sql_result_match(ExpectedSQL(rows=[["2024-05", 2, 2, 0], ["2024-06", 2, 0, 2]]), actual, columns=columns)


def test_the_two_sides_of_a_bound_answer_a_reference_labelled_otherwise() -> None:
    """"2000+ words" / "under 2000" in a reference are the rows labelled "word count 2000 or more" / "word count below
    2000"; other numbers, or sides of another bound, fail."""
    actual = [["word count 2000 or more", 13, 9, 69.23], ["word count below 2000", 117, 19, 16.24]]
    assert sql_result_match(ExpectedSQL(rows=[["2000+ words", 13, 9, 69.2], ["under 2000", 117, 19, 16.2]]), actual)
    assert not sql_result_match(ExpectedSQL(rows=[["2000+ words", 13, 19, 69.2], ["under 2000", 117, 9, 16.2]]),
                                actual)
    assert not sql_result_match(ExpectedSQL(rows=[["1000+ words", 13, 9, 69.2], ["under 1000", 117, 19, 16.2]]),
                                actual)


def test_a_listing_that_states_the_expected_count_answers_a_count() -> None:
    """"articles published q1 2023?": the reply lists them and says how many; another number, or none, fails."""
    assert states_count("Found 50 articles (published …); the first 10 are listed",
                        ExpectedSQL(value=50, has_value=True))
    assert states_count("Found 1,092 reviews (rating 5)", ExpectedSQL(value=1092, has_value=True))
    assert not states_count("Found 49 articles", ExpectedSQL(value=50, has_value=True))
    assert not states_count("There are 50 matching articles", ExpectedSQL(rows=[["a", 50]]))


def test_rows_labelled_by_a_yes_no_value_match_a_reference_labelled_1_and_0() -> None:
    """Grouped by a yes/no column, the product labels the rows "verified" / "not verified"; a reference groups by the
    stored 1 / 0. Swapped values still fail."""
    actual = [["not verified", 3.23], ["verified", 3.77]]
    assert sql_result_match(ExpectedSQL(rows=[[0, 3.23], [1, 3.77]]), actual)
    assert not sql_result_match(ExpectedSQL(rows=[[1, 3.23], [0, 3.77]]), actual)
    per_year = [["2021", "not verified", 3.79], ["2021", "verified", 3.69], ["2022", "verified", 3.64]]
    assert sql_result_match(ExpectedSQL(rows=[["2021", 0, 3.79], ["2021", 1, 3.69], ["2022", 1, 3.64]]), per_year)
    assert not sql_result_match(ExpectedSQL(rows=[["2021", 1, 3.79], ["2021", 0, 3.69], ["2022", 1, 3.64]]), per_year)


def test_a_named_group_at_zero_matches_a_reference_that_left_it_out() -> None:
    """"politics vs sports in 2022": the product shows sports at 0, a reference filtered before grouping has no sports
    row; both say the same. A group at another value, or a missing group with rows, still fails."""
    actual = [["politics", 1], ["sports", 0]]
    assert sql_result_match(ExpectedSQL(rows=[["politics", 1]]), actual)
    assert sql_result_match(ExpectedSQL(rows=[["politics", 1], ["sports", 0]]), actual)
    assert not sql_result_match(ExpectedSQL(rows=[["politics", 1]]), [["politics", 1], ["sports", 2]])
    assert not sql_result_match(ExpectedSQL(rows=[["politics", 0]]), actual)


def test_a_comparison_in_one_row_matches_a_reference_with_a_row_per_value() -> None:
    """"Did Lumo get more reviews than Voltair": the product answers both counts, the difference and yes/no in one
    row; a reference listing one row per brand states the same facts. Other values or labels still fail."""
    columns = ["review_count (Lumo)", "review_count (Voltair)", "difference", "Lumo more than Voltair"]
    row = [[47, 49, -2, "no"]]
    assert sql_result_match(ExpectedSQL(rows=[["Voltair", 49], ["Lumo", 47]]), row, columns=columns)
    assert sql_result_match(ExpectedSQL(rows=[["no", 47, 49]]), row, columns=columns)
    assert not sql_result_match(ExpectedSQL(rows=[["Voltair", 47], ["Lumo", 49]]), row, columns=columns)
    assert not sql_result_match(ExpectedSQL(rows=[["Voltair", 49], ["Lumo", 47]]), row)  # no column names
    ratings = ["avg_helpful_votes (rating 1)", "avg_helpful_votes (rating 5)", "difference"]
    assert sql_result_match(ExpectedSQL(rows=[[1, 6.25], [5, 3.06]]), [[6.25, 3.06, 3.19]], columns=ratings)
    # the two sides of a yes/no column, named in words, are its stored values 1 and 0
    flags = ["avg_helpful_votes (verified)", "avg_helpful_votes (not verified)", "difference"]
    assert sql_result_match(ExpectedSQL(rows=[[0, 3.23], [1, 3.77]]), [[3.77, 3.23, 0.54]], columns=flags)
    assert not sql_result_match(ExpectedSQL(rows=[[1, 3.23], [0, 3.77]]), [[3.77, 3.23, 0.54]], columns=flags)


def test_rows_with_and_without_a_value_match_a_reference_in_its_own_words() -> None:
    """The product labels the two sides 'has author' / 'no author'; a reference says 'bylined' / 'no byline'."""
    rows = [["has author", 878.06], ["no author", 511.0]]
    assert sql_result_match(ExpectedSQL(rows=[["no byline", 511.0], ["bylined", 878.06]]), rows)
    assert sql_result_match(ExpectedSQL(rows=[["unsigned", 511.0], ["signed", 878.06]]), rows)
    assert not sql_result_match(ExpectedSQL(rows=[["no byline", 878.06], ["bylined", 511.0]]), rows)
    assert not sql_result_match(ExpectedSQL(rows=[["politics", 511.0], ["bylined", 878.06]]), rows)
    assert not sql_result_match(ExpectedSQL(rows=[["under 500", 511.0], ["bylined", 878.06]]), rows)


def test_rows_match_counts_duplicates() -> None:
    assert rows_match([["Markets Wrap"], ["Markets Wrap"]], [["Markets Wrap"], ["Markets Wrap"]])
    assert not rows_match([["a"], ["a"], ["b"]], [["a"], ["b"], ["b"]])


def test_tolerant_pairing_does_not_depend_on_order() -> None:
    """Greedy pairing would take 1.0~1.04 and strand 1.04; a bipartite matching pairs 1.0~0.96, 1.04~1.04."""
    assert multiset_match([[1.0], [1.04]], [[1.04], [0.96]])
    assert not multiset_match([[1.0], [1.0]], [[1.0], [2.0]])


def test_empty_expectation_matches_only_an_empty_result() -> None:
    assert rows_match([], [])
    assert not rows_match([], [["x"]])


def test_a_single_value_must_be_the_only_row() -> None:
    assert value_match(64, [[64]])
    assert value_match("2001-03-14 09:40:00", [["Harborline", "2001-03-14 09:40:00", "technology"]])
    assert not value_match(64, [[64], [3]])
    assert not value_match(64, [])
    assert value_match(0, [])  # none listed: a count of 0
    assert not value_match(0, [[3]])
    # ("When was the most recent terminated lease outside Europe signed?": none, the reference's MAX() is NULL)
    assert value_match(None, []) and not value_match(None, [["2024-01-02"]])
    assert ExpectedSQL(value=None, has_value=True).is_empty and not ExpectedSQL(value=0, has_value=True).is_empty


# --------------------------------------------------------------------------- routing and retrieval metrics


def test_confusion_matrix_counts_expected_against_actual() -> None:
    matrix = confusion_matrix([("sql", "sql"), ("sql", "sql"), ("vector", "sql"), ("hybrid", "hybrid"),
                               ("vector", None)])
    assert matrix["sql"] == {"sql": 2, "vector": 0, "hybrid": 0, "none": 0}
    assert matrix["vector"] == {"sql": 1, "vector": 0, "hybrid": 0, "none": 1}
    assert matrix["hybrid"]["hybrid"] == 1
    assert sum(sum(row.values()) for row in matrix.values()) == 5


def test_mrr_hit_and_recall_by_url_or_title() -> None:
    retrieved = [("u1", "First", "k1"), ("u2", "Second", "k2"), ("u3", "Third", "k3"), ("u4", "Fourth", "k4")]
    assert reciprocal_rank(retrieved, ["u3"]) == pytest.approx(1 / 3)
    assert reciprocal_rank(retrieved, ["second"]) == pytest.approx(1 / 2)  # a title, case-insensitive
    assert reciprocal_rank(retrieved, ["u3", "u1"]) == 1.0  # the first relevant one counts
    assert reciprocal_rank(retrieved, ["missing"]) == 0.0
    assert hit_at_k(retrieved, ["u4"], 4) and not hit_at_k(retrieved, ["u4"], 3)
    assert recall_at_k(retrieved, ["u1", "u4", "missing", "Third"], 3) == pytest.approx(2 / 4)
    assert reciprocal_rank(["u9", "u2"], ["u2"]) == 0.5  # plain identifiers work too


def test_percentile_interpolates() -> None:
    values = list(range(1, 101))
    assert percentile(values, 50) == pytest.approx(50.5)
    assert percentile(values, 95) == pytest.approx(95.05)
    assert percentile([7.0], 95) == 7.0
    assert percentile([], 50) is None


def test_no_answer_detection() -> None:
    assert says_no_answer("I found nothing relevant about “x” in the documents searched", "vector", 5, None)
    assert says_no_answer("No rows match this question (year = 2019).", "sql", 0, None)
    assert says_no_answer("Here is what the documents say", "hybrid", 0, None)  # no chunk at all
    assert not says_no_answer("Here is what the documents say", "vector", 3, None)
    assert not says_no_answer("There are 0 matching articles.", "sql", 0, None)  # zero is an answer
    assert not says_no_answer("I found nothing relevant", "vector", 0, "Index not ready")  # an error is not


# --------------------------------------------------------------------------- the case file


def minimal(**case: Any) -> dict[str, Any]:
    base = {"id": "c1", "question": "How many?", "route": "sql", "sql_result": {"value": 3}}
    base.update(case)
    return {"version": 1, "table": "articles", "cases": [{k: v for k, v in base.items() if v is not None}]}


def test_parse_cases_reads_every_form() -> None:
    document = {"version": 1, "table": "articles", "cases": [
        {"id": "a", "question": "q a", "route": "sql", "sql_result": [["x", 1]], "ordered": True},
        {"id": "b", "question": "q b", "route": "sql", "sql_result": 16},
        {"id": "c", "question": "q c", "route": "sql", "sql_result": {"rows": [], "ordered": False}},
        {"id": "d", "question": "q d", "route": "vector", "alternatives": ["hybrid"], "relevant": ["u1", "Title"]},
        {"id": "e", "question": "q e", "route": "hybrid", "no_answer": True, "notes": "none exists"},
        {"id": "f", "question": "q f", "route": "sql", "sql_result": 0},  # a count of zero is a result
    ]}
    cases = parse_cases(document).cases
    assert cases[0].sql_result == ExpectedSQL(rows=[["x", 1]]) and cases[0].ordered
    assert cases[1].sql_result == ExpectedSQL(value=16, has_value=True)
    assert cases[2].sql_result is not None and cases[2].sql_result.is_empty and not cases[2].answer_exists
    assert cases[3].accepted_routes == ("vector", "hybrid") and cases[3].kind == "retrieval"
    assert cases[4].kind == "no_answer" and not cases[4].answer_exists
    assert cases[5].sql_result == ExpectedSQL(value=0, has_value=True)


@pytest.mark.parametrize(("document", "words"), [
    (minimal(route="semantic"), ["c1", "route", "semantic"]),
    (minimal(question="  "), ["c1", "question"]),
    (minimal(relevant=["u1"]), ["c1", "exactly one", "sql_result", "relevant"]),
    (minimal(sql_result=None), ["c1", "exactly one"]),
    (minimal(sql_result=[["a"], ["b", "c"]]), ["c1", "same", "number of values"]),
    (minimal(sql_result=["a", "b"]), ["c1", "list of lists"]),
    (minimal(alternatives=["vector", "elsewhere"]), ["c1", "alternatives"]),
    (minimal(expected=3), ["c1", "unknown key", "expected"]),
    ({**minimal(), "version": 2}, ["version 2", "not supported"]),
    ({**minimal(), "table": ""}, ["table"]),
    ({"version": 1, "table": "t", "cases": []}, ["cases"]),
    ({"version": 1, "table": "t", "cases": [minimal()["cases"][0], minimal()["cases"][0]]}, ["#2", "duplicate", "c1"]),
])
def test_a_bad_case_file_names_the_file_and_the_case(document: dict[str, Any], words: list[str]) -> None:
    with pytest.raises(CaseFileError) as raised:
        parse_cases(document, source="my-cases.yaml")
    message = str(raised.value)
    assert message.startswith("my-cases.yaml: ")
    for word in words:
        assert word in message, message


def test_unreadable_and_invalid_files(tmp_path: Path) -> None:
    with pytest.raises(CaseFileError, match="Cannot read"):
        load_cases(tmp_path / "missing.yaml")
    broken = tmp_path / "broken.yaml"
    broken.write_text("version: 1\ncases: [unclosed\n", encoding="utf-8")
    with pytest.raises(CaseFileError, match="not valid YAML"):
        load_cases(broken)


def test_the_sample_set_meets_the_issue() -> None:
    """At least 80 cases over the three routes, with no-answer cases and the issue-3 done-when questions."""
    cases = load_cases(EVAL_DIR / "news" / "dev.yaml")
    assert cases.table == "articles" and len(cases.cases) >= 80
    routes = {c.route for c in cases.cases if not c.refuses}  # a request to change the table has no route
    assert routes == {"sql", "vector", "hybrid"}
    assert sum(c.no_answer for c in cases.cases) >= 3
    questions = " | ".join(c.question.lower() for c in cases.cases)
    for phrase in ("per year and category", "about children", "trends in fashion", "crypto in 2023", "dooley",
                   "doo ley", "mother's day in fashion between march and may 2023", "average word count per category",
                   "list politics articles"):
        assert phrase in questions, phrase


def test_sample_expectations_are_computed_from_the_corpus() -> None:
    """eval/news/make_expected.py recomputes every sql_result from data/articles.jsonl and finds no difference."""
    make_expected = load_script(EVAL_DIR / "news" / "make_expected.py")
    assert make_expected.main([]) == 0


def test_ticket_expectations_are_computed_from_the_generator() -> None:
    generate = load_script(EVAL_DIR / "tickets" / "generate.py")
    assert generate.main(["--check"]) == 0
    words = [len(row["body"].split()) for row in generate.ticket_rows()]
    assert len(words) >= 55 and min(words) >= 55 and max(words) <= 200


def test_review_expectations_match_their_reference_sql() -> None:
    """eval/reviews/generate.py --check: every reference_sql, run on a fresh build, gives its sql_result; ids
    and questions are unique over dev and test."""
    assert load_script(EVAL_DIR / "reviews" / "generate.py").main(["--check"]) == 0


def test_contract_expectations_match_their_reference_sql() -> None:
    """eval/contracts/generate.py --check: the fourth table builds (its own data rules asserted), and every
    reference_sql, run on a fresh build, gives its sql_result."""
    assert load_script(EVAL_DIR / "contracts" / "generate.py").main(["--check"]) == 0


@pytest.mark.parametrize("table", sorted(p.name for p in EVAL_DIR.iterdir() if (p / "dev.yaml").exists()))
def test_no_question_is_asked_twice(table: str) -> None:
    """A question repeated word for word (case and punctuation aside) over dev and test would count twice in dev, or
    be tuned on in dev while it is measured in test."""
    seen: dict[str, str] = {}
    repeated = []
    for split in ("test", "dev"):
        if not (EVAL_DIR / table / f"{split}.yaml").exists():
            continue  # (the contracts table has no frozen test split: its questions are all dev)
        for case in load_cases(EVAL_DIR / table / f"{split}.yaml").cases:
            words = " ".join(re.findall(r"\w+", case.question.lower()))
            if words in seen:
                repeated.append(f"{split}:{case.id} repeats {seen[words]}")
            seen.setdefault(words, f"{split}:{case.id}")
    assert not repeated


# --------------------------------------------------------------------------- scoring one turn


def turn(route: str | None, answer: str = "", *, rows: list[list[Any]] | None = None, sql: str | None = None,
         chunks: list[Chunk] | None = None, citations: list[Citation] | None = None, error: str | None = None,
         filters: list[Filter] | None = None, dropped: list[DroppedFilter] | None = None) -> Turn:
    result = EngineResult(route=route, reason="because", sql=sql, sql_verdict="allowed" if sql else None,
                          result=QueryResult(["a"] * len((rows or [[]])[0]), rows or []), chunks=chunks or [],
                          citations=citations or [], filters=filters or [], filters_dropped=dropped or [])
    return Turn(question="q", answer=answer, trace=Trace(question="q"), result=result, error=error)


def chunk(url: str, score: float = 0.6) -> Chunk:
    return Chunk(id=url, row_key=url, title=url.upper(), url=url, chunk=0, text="text", score=score)


def test_score_sql_case() -> None:
    case = Case(id="s", question="q", route="sql", sql_result=ExpectedSQL(rows=[["x"], ["y"]]))
    good = score_case(case, turn("sql", "Found 2 rows", rows=[["y", 1], ["x", 2]], sql="SELECT 1"), k=5)
    assert good.passed and good.sql_ok and good.route_ok and good.cited and good.turn is None
    wrong = score_case(case, turn("sql", "Found 1 row", rows=[["x", 2]], sql="SELECT 1"), k=5)
    assert not wrong.passed and wrong.sql_ok is False and "SQL result differs" in wrong.failure_reasons[0]
    assert wrong.turn is not None and wrong.turn["result"]["sql"] == "SELECT 1"  # the whole turn of a failure
    misrouted = score_case(case, turn("vector", "Here", chunks=[chunk("u1")]), k=5)
    assert not misrouted.route_ok and misrouted.sql_ok is False
    assert any("routed to vector, expected sql" in r for r in misrouted.failure_reasons)


def test_score_retrieval_case() -> None:
    case = Case(id="r", question="q", route="vector", alternatives=("hybrid",), relevant=("u2", "u9"))
    result = score_case(case, turn("hybrid", "Here is what the documents say", chunks=[chunk("u1"), chunk("u2")],
                                   citations=[Citation("U1", "u1", "2023")]), k=5)
    assert result.passed and result.route_ok and result.hit and result.recall == 0.5
    assert result.reciprocal_rank == 0.5 and result.cited and result.best_score == 0.6
    refused = score_case(case, turn("vector", "I found nothing relevant", chunks=[chunk("u2", 0.1)]), k=5)
    assert refused.hit and not refused.passed and refused.said_no_answer
    assert "nothing was found although an answer exists" in refused.failure_reasons[0]


def test_score_no_answer_case() -> None:
    case = Case(id="n", question="q", route="vector", no_answer=True)
    assert score_case(case, turn("vector", "I found nothing relevant about “q”", chunks=[chunk("u1", 0.1)]),
                      k=5).passed
    noisy = score_case(case, turn("vector", "Here is what the documents say", chunks=[chunk("u1", 0.3)]), k=5)
    assert not noisy.passed and "best similarity 0.30" in noisy.failure_reasons[0]


def test_a_hybrid_label_is_met_by_the_same_search_under_metadata_filters_only() -> None:
    """Expected hybrid, answered by the vector route with categorical values as pre-filters: the same rows
    searched, counted apart (routing_equivalent) so strict routing stays reported. A date filter, a dropped
    filter, no filter or the other direction is a wrong route."""
    case = Case(id="h", question="EMEA contracts linked to CPI", route="hybrid", relevant=("u1",))
    region = Filter(key="region", op="==", value="EMEA", source="emea")
    same = score_case(case, turn("vector", "Here", chunks=[chunk("u1")], filters=[region]), k=5)
    assert same.passed and same.route_ok and same.route_equivalent
    several = Filter(key="contract_type", op="in", value=["NDA", "MSA"])
    assert score_case(case, turn("vector", "Here", chunks=[chunk("u1")], filters=[region, several]), k=5).route_ok
    dated = Filter(key="signed_on", op=">=", value="2023-01-01")
    for wrong in (turn("vector", "Here", chunks=[chunk("u1")], filters=[region, dated]),
                  turn("vector", "Here", chunks=[chunk("u1")], filters=[region],
                       dropped=[DroppedFilter(description="owner", reason="not in the index")]),
                  turn("vector", "Here", chunks=[chunk("u1")])):
        result = score_case(case, wrong, k=5)
        assert not result.route_ok and not result.route_equivalent and "expected hybrid" in result.failure_reasons[0]
    vector_case = Case(id="v", question="trends in fashion", route="vector", relevant=("u1",))
    assert not score_case(vector_case, turn("hybrid", "Here", chunks=[chunk("u1")], filters=[region]), k=5).route_ok
    summary = summarise([same, score_case(case, turn("vector", "Here", chunks=[chunk("u1")]), k=5)], k=5)
    assert (summary["routing_correct"], summary["routing_strict_correct"], summary["routing_equivalent"]) == (1, 0, 1)


def test_refusal_case_passes_only_without_a_query_and_with_a_read_only_reply() -> None:
    """A `refuses: true` case (a request to change the table) has no route or result; it passes when no query ran
    and the reply says the app only reads the table."""
    document = {"version": 1, "table": "articles", "cases": [
        {"id": "r", "question": "delete all politics articles", "refuses": True, "notes": "a write"}]}
    case = parse_cases(document).cases[0]
    assert case.refuses and case.kind == "refusal" and case.route == ""
    with pytest.raises(CaseFileError, match="refuses"):
        parse_cases({**document, "cases": [{"id": "r", "question": "q", "refuses": True, "route": "sql"}]})
    good = score_case(case, turn(None, "This app only reads the table `articles`; nothing was run."), k=5)
    assert good.passed and good.route_ok and good.expected_route == "none"
    searched = score_case(case, turn("vector", "This app only reads the table.", chunks=[chunk("u1")]), k=5)
    assert not searched.passed and "ran a query" in searched.failure_reasons[0]
    silent = score_case(case, turn(None, "Done."), k=5)
    assert not silent.passed and "only reads" in silent.failure_reasons[0]


def test_summary_and_report_files(tmp_path: Path) -> None:
    sql_case = Case(id="s", question="How many?", route="sql", sql_result=ExpectedSQL(value=3, has_value=True))
    vec_case = Case(id="v", question="About x?", route="vector", relevant=("u1",))
    results = [score_case(sql_case, turn("sql", "There are 3", rows=[[3]], sql="SELECT 3"), k=5),
               score_case(vec_case, turn("sql", "There are 0", rows=[[0]], sql="SELECT 0"), k=5)]
    summary = summarise(results, k=5)
    assert summary["routing_accuracy"] == 0.5 and summary["sql"]["accuracy"] == 1.0
    assert summary["retrieval"]["hit_at_k"] == 0.0 and summary["failures"] == ["v"]
    assert summary["confusion"]["vector"]["sql"] == 1
    assert summary["answers"]["citation_rate"] == 1.0  # SQL answers count as cited when SQL ran
    report = EvalReport(meta={"cases_file": "x.yaml", "version": 1, "table": "articles", "db": "sqlite:///x",
                              "provider": "offline", "embed_model": "hashing", "top_k": 5, "started_at": "now",
                              "duration_s": 0.1, "build_ms": 1.0, "warm_up_ms": 1.0}, summary=summary, cases=results)
    paths = write_report(report, tmp_path / "out")
    saved = json.loads(paths["report"].read_text(encoding="utf-8"))
    assert saved["summary"]["routing_accuracy"] == 0.5 and len(saved["cases"]) == 2
    markdown = paths["summary"].read_text(encoding="utf-8")
    lines = markdown.splitlines()
    assert lines[0] == "# Evaluation summary"
    for row in ("| Cases passed | 1 / 2 (50.0%) |", "| Routing accuracy | 50.0% (1 / 2) |",
                "| SQL execution accuracy | 100.0% (1 / 1) |", "| Retrieval hit@5 | 0.0% (1 cases) |",
                "| sql | 1 | 0 | 0 | 0 |", "| vector | 1 | 0 | 0 | 0 |", "## Failures (1)", "### `v` — About x?",
                "- routed to sql, expected vector", "- SQL: `SELECT 0`"):
        assert row in lines, row
    assert "### `s`" not in markdown  # only failures are listed


# --------------------------------------------------------------------------- a second schema: support tickets


@pytest.fixture(scope="module")
def tickets_settings(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    """The ticket table in a temporary SQLite file, indexed with the hashing embedder."""
    from rag.data.index import VectorIndex
    from rag.data.source import TableSource
    from rag.providers import build_embedder

    folder = tmp_path_factory.mktemp("tickets")
    generate = load_script(EVAL_DIR / "tickets" / "generate.py")
    generate.build_tickets_db(folder / "tickets.db")
    settings = Settings(db_url=f"sqlite:///{folder / 'tickets.db'}", table="tickets",
                        index_dir=str(folder / "chroma"), embed_model="hashing", provider="offline")
    source = TableSource(settings.db_url, settings.table)
    VectorIndex(settings, build_embedder(settings)).sync(source)
    source.close()
    return settings


@pytest.fixture(scope="module")
def tickets_report(tickets_settings: Settings) -> EvalReport:
    return run_eval(load_cases(EVAL_DIR / "tickets" / "dev.yaml"), tickets_settings)


# Ticket dev cases added later to find failures to tune on (ids `td2-`, and `th-`: paraphrases a hashing embedder
# cannot match, #14): run and reported, not gated by the bars.
LATER_TICKETS = ("td2-", "th-")


def failing(report: EvalReport, kind: str | None = None) -> str:
    return "\n".join(f"{c.id}: {c.question} -> {c.actual_route}: {'; '.join(c.failure_reasons)}"
                     for c in report.failures
                     if (kind is None or c.kind == kind) and not c.id.startswith(LATER_TICKETS))


def original_tickets(report: EvalReport) -> dict[str, Any]:
    """The summary of the original ticket dev cases, on which the bars are asserted."""
    return summarise([c for c in report.cases if not c.id.startswith(LATER_TICKETS)], report.summary["retrieval"]["k"])


def test_tickets_run_unchanged_on_another_schema(tickets_report: EvalReport) -> None:
    summary = tickets_report.summary
    assert summary["cases"] >= 15 and summary["errors"] == 0
    assert tickets_report.meta["table"] == "tickets"
    original = original_tickets(tickets_report)
    assert original["routing_accuracy"] >= 0.8, failing(tickets_report)
    assert original["retrieval"]["hit_at_k"] >= 0.8, failing(tickets_report, "retrieval")


def test_retrieval_cases_carry_a_whole_question_unfiltered_baseline(tickets_report: EvalReport) -> None:
    """Each retrieval case is also retrieved as a stock pipeline would (whole question, no filters, same k),
    dense and keyword, so the summary can show the product's hit@k next to the baseline's (#14)."""
    retrieval = [c for c in tickets_report.cases if c.kind == "retrieval"]
    assert retrieval and all(set(c.baseline) == {"dense", "keyword"} for c in retrieval)
    assert all(c.hit_at_1 is not None for c in retrieval)
    assert not any(c.baseline for c in tickets_report.cases if c.kind != "retrieval")
    figures = tickets_report.summary["retrieval"]
    dense = figures["baseline"]["dense"]
    assert dense["cases"] == figures["cases"]
    assert dense["hit_at_k"] == round(sum(c.baseline["dense"]["hit"] for c in retrieval) / len(retrieval), 4)
    assert figures["hit_at_1"] == round(sum(bool(c.hit_at_1) for c in retrieval) / len(retrieval), 4)
    lines = summary_markdown(tickets_report).splitlines()
    assert any(line.startswith("| Baseline dense (whole question, no filters): hit@1 / hit@5 / MRR | ")
               for line in lines)
    assert any(line.startswith("| Retrieval hit@1 | ") for line in lines)


def test_the_baseline_searches_as_a_stock_pipeline_would(monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole question as typed, no filters, and the plain embedding: not the product's centred ranking."""
    from types import SimpleNamespace

    from rag.answer import retrieval
    from rag.evaluation.runner import baseline_retrieval

    searched: list[tuple[Any, ...]] = []
    monkeypatch.setattr(retrieval, "retrieve", lambda context, query, filters, options: (
        searched.append((query, filters, options.mode, options.centring)) or SimpleNamespace(top=[])))
    case = Case(id="c", question="Late fees in 2023?", route="vector", relevant=("x",))
    assert set(baseline_retrieval(SimpleNamespace(context=object()), case, 5)) == {"dense", "keyword"}
    assert searched == [("Late fees in 2023?", None, "dense", 0.0), ("Late fees in 2023?", None, "keyword", 0.0)]


def test_retrieval_cases_carry_dense_keyword_and_fused_figures_of_the_product(tickets_settings: Settings,
                                                                             tickets_report: EvalReport) -> None:
    """`rag eval` reports the product's own retrieval (its route, pre-filters and text) with the dense search alone,
    the keyword search alone and fused (#14, item 5): the single searches are the lists the fusion received, so
    they equal a run of the same question with that search alone; "fused" is the turn's own result."""
    from dataclasses import replace

    from rag.answer.context import RetrievalOptions
    from rag.assistant import Assistant

    retrieved = [c for c in tickets_report.cases if c.kind == "retrieval" and c.actual_route in ("vector", "hybrid")]
    assert retrieved and all(set(c.modes) == {"dense", "keyword", "fused"} for c in retrieved)
    assert all(c.modes["fused"] == {"hit_at_1": c.hit_at_1, "hit": c.hit, "reciprocal_rank": c.reciprocal_rank}
               for c in retrieved)
    assistant = Assistant.build(tickets_settings)
    for case in retrieved[:6]:
        fused = assistant.ask(case.question).result
        for mode in ("dense", "keyword"):
            assistant.context.retrieval = replace(RetrievalOptions(), mode=mode)
            alone = assistant.ask(case.question).result.chunks
            assistant.context.retrieval = RetrievalOptions()
            assert [c.row_key for c in alone] == [d["row_key"] for d in fused.rankings[mode]], (case.id, mode)
    modes = tickets_report.summary["retrieval"]["modes"]
    assert set(modes) == {"dense", "keyword", "fused"} and modes["fused"]["cases"] == len(retrieved)
    scored = [c for c in tickets_report.cases if c.modes]
    assert modes["keyword"]["hit_at_k"] == round(sum(c.modes["keyword"]["hit"] for c in scored) / len(scored), 4)
    lines = summary_markdown(tickets_report).splitlines()
    assert any(line.startswith("| Product retrieval, dense alone: hit@1 / hit@5 / MRR | ") for line in lines)


def test_nothing_relevant_precision_and_recall_are_reported(tickets_report: EvalReport) -> None:
    """Recall: no-answer questions answered 'nothing'; precision: such replies that were right, counting the
    replies to questions whose answer exists (#14, item 4)."""
    no_answer = [c for c in tickets_report.cases if c.kind == "no_answer"]
    wrong = sum(c.said_no_answer for c in tickets_report.cases if c.kind == "retrieval")
    right = sum(c.said_no_answer for c in no_answer)
    figures = tickets_report.summary["answers"]["nothing_relevant"]
    assert figures == {"no_answer_cases": len(no_answer), "right": right, "wrong": wrong,
                       "precision": round(right / (right + wrong), 4) if right + wrong else None,
                       "recall": round(right / len(no_answer), 4)}
    assert any(line.startswith("| 'Nothing relevant' replies: precision / recall | ")
               for line in summary_markdown(tickets_report).splitlines())


def test_tickets_sql_accuracy(tickets_report: EvalReport) -> None:
    assert original_tickets(tickets_report)["sql"]["accuracy"] >= 0.8, failing(tickets_report, "sql")


def test_later_ticket_cases_are_reported(tickets_report: EvalReport) -> None:
    """The later ticket cases are in the run; each one that fails is listed (as an expected failure, shown by -ra)."""
    later = [c for c in tickets_report.cases if c.id.startswith(LATER_TICKETS)]
    assert later
    failed = [f"  {c.id}: {c.question!r} -> {c.actual_route}: {'; '.join(c.failure_reasons)}"
              for c in later if not c.passed]
    if failed:
        pytest.xfail(f"{len(failed)} of {len(later)} later ticket dev cases fail (reported, not gated):\n"
                     + "\n".join(failed))


def test_eval_command_writes_the_report(tickets_settings: Settings, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from rag.cli import main
    from rag.settings import REGISTRY

    for setting in REGISTRY:
        monkeypatch.delenv(setting.env, raising=False)
    monkeypatch.setenv("RAG_EMBED_MODEL", "hashing")
    out = tmp_path / "results"
    code = main(["eval", "--cases", str(EVAL_DIR / "tickets" / "dev.yaml"), "--db", tickets_settings.db_url,
                 "--index-dir", tickets_settings.index_dir, "--provider", "offline", "--json", "--out", str(out)])
    assert code == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["meta"]["table"] == "tickets"  # taken from the case file when --table is not given
    assert printed["summary"]["cases"] >= 15 and "routing_accuracy" in printed["summary"]
    assert {f["id"] for f in printed["failures"]} == set(printed["summary"]["failures"])
    assert (out / "report.json").is_file() and (out / "summary.md").is_file()


def test_eval_command_reports_a_bad_case_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from rag.cli import main

    bad = tmp_path / "bad.yaml"
    bad.write_text("version: 1\ntable: articles\ncases:\n- id: x\n  question: q\n  route: nowhere\n"
                   "  no_answer: true\n", encoding="utf-8")
    assert main(["eval", "--cases", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "'x'" in err and "route" in err


def test_llm_calls_tokens_and_cost_per_question_with_the_scripted_fake(tickets_settings: Settings) -> None:
    """The same run through an LLM provider (a scripted fake priced as gemini-2.5-flash): calls, tokens, cost."""
    from rag.assistant import Assistant
    from rag.providers import build_providers
    from rag.testing import ScriptedLLM

    def reply(prompt: str) -> str:
        if "Answer with the SQL statement only" in prompt:
            return "```sql\nSELECT COUNT(*) AS tickets FROM tickets\n```"
        return "There are 61 tickets."

    llm = ScriptedLLM([reply] * 20, model="gemini-2.5-flash")
    assistant = Assistant.build(tickets_settings, providers=build_providers(tickets_settings, llm=llm))
    cases = parse_cases({"version": 1, "table": "tickets", "cases": [
        {"id": "t-count", "question": "How many tickets are there?", "route": "sql", "sql_result": {"value": 61}}]})
    report = run_eval(cases, tickets_settings, assistant=assistant)

    result = report.cases[0]
    assert result.passed, result.failure_reasons
    # SQL and answer; no routing call: "How many tickets are there?" reads with certainty offline
    assert result.llm_calls == 2 and sum(result.llm_models.values()) == 2
    assert result.tokens["total"] > 0 and result.cost_usd > 0
    llm_figures = report.summary["llm"]
    assert llm_figures["calls_per_question"] == 2 and llm_figures["tokens_per_question"] == result.tokens["total"]
    assert llm_figures["cost_per_question_usd"] == pytest.approx(result.cost_usd)
    assert "gemini-2.5-flash" in report.meta["provider"]


def _reference_db(table: str, folder: Path) -> Path:
    """A fresh copy of the table a question set was written for, built without the product's code paths."""
    path = folder / f"{table}.db"
    if table == "articles":
        from rag.data.sample_data import build_sample_db

        build_sample_db(PROJECT_ROOT / "data" / "articles.jsonl", path)
    else:
        load_script(EVAL_DIR / table / "generate.py").__dict__[f"build_{table}_db"](path)
    return path


@pytest.mark.parametrize("path", sorted([*EVAL_DIR.glob("*/test.yaml"), *EVAL_DIR.glob("*/conversations_test.yaml"),
                                         *EVAL_DIR.glob("*/*test_pool.yaml")]),  # and the unseen replacements
                         ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_frozen_test_sets_match_their_reference_sql(path: Path, tmp_path: Path) -> None:
    """Every SQL case (and every SQL turn of a conversation) of a frozen test set states the query that defines its
    answer, and that query, run on a fresh copy of the table, gives exactly the expected result: expectations are
    not copied from the product."""
    import sqlite3

    cases = load_cases(path)
    connection = sqlite3.connect(_reference_db(cases.table, tmp_path))
    turns = [turn for conversation in cases.conversations for turn in conversation.turns]
    sql_cases = [c for c in [*cases.cases, *turns] if c.sql_result is not None]
    assert sql_cases or path.name.endswith("test_pool.yaml")  # (a pool may have given away its last SQL case)
    assert all(c.reference_sql for c in sql_cases)
    for case in sql_cases:
        rows = [list(r) for r in connection.execute(case.reference_sql).fetchall()]
        assert sql_result_match(case.sql_result, rows, ordered=case.ordered), case.id
    connection.close()


def test_silent_errors_are_wrong_answers_whose_reading_matches_the_reference() -> None:
    """A wrong answer is silent when its restatement tests and groups the reference's columns and reports no
    unused word; an extra or missing condition, or an unused word, is visible to the user."""
    from rag.data.roles import ColumnRoles
    from rag.evaluation.metrics import is_silent_error, reference_columns
    from rag.models import ConditionReading, Interpretation

    roles = ColumnRoles(content="full_content", title="title", date="published_date", category="article_category")
    reference = ("SELECT article_category, COUNT(*) FROM articles WHERE published_date LIKE '2023%' "
                 "AND full_content LIKE '%crypto%' GROUP BY article_category")
    assert reference_columns(reference, {"title", "full_content"}) == ({"published_date", "text"},
                                                                       {"article_category"})
    date = ConditionReading("published_date", "between", ["2023-01-01", "2023-12-31"])
    text = ConditionReading("text", "contains", "crypto")
    same = Interpretation("Counted articles", [date, text], ["category"])
    assert is_silent_error(reference, same, roles)
    assert not is_silent_error(reference, Interpretation("Counted articles", [date], ["category"]), roles)
    assert not is_silent_error(reference, Interpretation("Counted articles", [date, text], []), roles)
    assert not is_silent_error(reference, Interpretation("Counted articles", [date, text], ["category"],
                                                         unused_words=["put"]), roles)
    assert is_silent_error(reference, None, roles)
    month = "SELECT substr(published_date, 1, 7) AS month, COUNT(*) FROM articles GROUP BY month"
    assert is_silent_error(month, Interpretation("Counted articles", [], ["month"]), roles)


def test_rows_of_several_people_and_of_one_match_a_reference_labelled_otherwise() -> None:
    """"avg words single-author vs multi-author pieces": the product labels the sides "2 or more" / "fewer than 2"
    (grouped, or in one row), a reference "multiple authors" / "single author"; swapped values still fail."""
    grouped = [["2 or more", 1396.75], ["fewer than 2", 709.19]]
    assert sql_result_match(ExpectedSQL(rows=[["multiple authors", 1396.75], ["single author", 709.19]]), grouped)
    assert sql_result_match(ExpectedSQL(rows=[["co-authored", 1396.75], ["solo", 709.19]]), grouped)
    assert not sql_result_match(ExpectedSQL(rows=[["co-authored", 709.19], ["solo", 1396.75]]), grouped)
    columns = ["avg_word_count (2 or more)", "avg_word_count (fewer than 2)", "difference", "2 or more more than"]
    row = [[1396.75, 709.19, 687.56, "yes"]]
    assert sql_result_match(ExpectedSQL(rows=[["co-written", 1396.75], ["single-author", 709.19]]), row,
                            columns=columns)
    assert not sql_result_match(ExpectedSQL(rows=[["co-written", 709.19], ["single-author", 1396.75]]), row,
                                columns=columns)
    assert not sql_result_match(ExpectedSQL(rows=[["business", 1396.75], ["sports", 709.19]]), grouped)


def test_a_quarter_labelled_with_its_year_after_it() -> None:
    """A reference's "Q1 2023" is the product's "2023-Q1"; another quarter or year is not."""
    actual = [["2023-Q1", 56], ["2023-Q2", 58]]
    assert sql_result_match(ExpectedSQL(rows=[["Q1 2023", 56], ["Q2 2023", 58]]), actual)
    assert not sql_result_match(ExpectedSQL(rows=[["Q1 2022", 56], ["Q2 2022", 58]]), actual)
    assert not sql_result_match(ExpectedSQL(rows=[["Q2 2023", 56], ["Q1 2023", 58]]), actual)
    # (or with the year before it and a space: "2023 H1", probe 58)
    halves = [["2023-H1", 3.64], ["2024-H1", 3.45]]
    assert sql_result_match(ExpectedSQL(rows=[["2023 H1", 3.64], ["2024 H1", 3.45]]), halves)
    assert not sql_result_match(ExpectedSQL(rows=[["2023 H2", 3.64], ["2024 H2", 3.45]]), halves)


def test_the_same_part_of_different_years_stands_for_those_years() -> None:
    """"nda count q3 23 vs q3 24": the product's "2023-Q3"/"2024-Q3" rows are a reference's "2023"/"2024" (three
    helpers wrote such references); a year's whole count, other numbers or quarters of one year still fail."""
    compared = [["2023-Q3", 8], ["2024-Q3", 10]]
    assert sql_result_match(ExpectedSQL(rows=[["2023", 8], ["2024", 10]]), compared)
    assert not sql_result_match(ExpectedSQL(rows=[["2023", 9], ["2024", 10]]), compared)
    assert not sql_result_match(ExpectedSQL(rows=[["2023", 8], ["2023", 10]]), [["2023-Q1", 8], ["2023-Q2", 10]])
    assert not sql_result_match(ExpectedSQL(rows=[["2023", 8], ["2024", 10]]), [["2023-Q3", 8], ["2024-Q4", 10]])


def test_a_value_tied_over_rows_and_numbers_of_one_row_labelled_apart() -> None:
    """Probe 58: "the longest run of days with nothing published" is 6 in two tied gaps (a row each, 6 in one column);
    "how many in the last 30 days, and how many in the 30 days before that" is [[8, 10]] in a reference and a
    labelled row per period in the product. Other numbers still fail."""
    assert value_match(6, [["a", "2023-01-11", 7, 6], ["b", "2023-01-24", 7, 6]])
    assert not value_match(6, [["a", "2023-01-11", 7, 6], ["b", "2023-01-24", 6, 5]])
    periods = [["2024-04-30 to 2024-05-29", 10], ["2024-05-30 to 2024-06-28", 8]]
    assert sql_result_match(ExpectedSQL(rows=[[8, 10]]), periods)
    assert not sql_result_match(ExpectedSQL(rows=[[8, 11]]), periods)
    assert not sql_result_match(ExpectedSQL(rows=[[8, 10, 3]]), periods)
