"""Charts: a fixed set of chart types chosen from the result's shape; figures only from columns that exist."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from rag.answer.chart_spec import CHART_KINDS, choose_chart
from rag.models import ChartSpec, QueryResult
from ui.charts import alternatives, figure

METRIC = QueryResult(["article_count"], [[42]])
BAR = QueryResult(["article_category", "article_count"], [["Business", 3], ["Sports", 5], ["Health", 1]])
YEARS = QueryResult(["year", "article_count"], [["2021", 4], ["2022", 7], ["2023", 9]])
MONTHS = QueryResult(["month", "article_count"], [["2023-01", 2], ["2023-02", 3], ["2023-03", 1]])
STACKED = QueryResult(["year", "article_category", "article_count"],
                      [["2022", "Sports", 2], ["2022", "Business", 1], ["2023", "Sports", 4]])
TEXT = QueryResult(["title", "published_date", "url"], [["A", "2023-01-01", "u1"], ["B", "2023-01-02", "u2"]])


def test_metric() -> None:
    assert choose_chart(METRIC) == ChartSpec("metric", y="article_count", title="article count")
    assert choose_chart(QueryResult(["avg_word_count"], [[512.5]])).kind == "metric"


def test_bar_for_categories() -> None:
    spec = choose_chart(BAR)
    assert spec == ChartSpec("bar", x="article_category", y="article_count",
                             title="article count by article category")


@pytest.mark.parametrize("result", [YEARS, MONTHS])
def test_line_for_years_and_months(result: QueryResult) -> None:
    spec = choose_chart(result)
    assert (spec.kind, spec.x, spec.y) == ("line", result.columns[0], "article_count")


def test_line_detected_from_date_like_values() -> None:
    result = QueryResult(["period", "n"], [["2021-01", 1], ["2021-02", 2], ["2021-03", 3]])
    assert choose_chart(result).kind == "line"


def test_two_time_points_are_bars() -> None:
    assert choose_chart(QueryResult(["year", "n"], [["2022", 1], ["2023", 2]])).kind == "bar"


def test_stacked_bar_puts_time_on_x() -> None:
    spec = choose_chart(STACKED)
    assert (spec.kind, spec.x, spec.y, spec.color) == ("stacked_bar", "year", "article_count", "article_category")
    swapped = QueryResult(["article_category", "year", "article_count"], [[r[1], r[0], r[2]] for r in STACKED.rows])
    spec = choose_chart(swapped)
    assert (spec.x, spec.color) == ("year", "article_category")


@pytest.mark.parametrize("result", [
    None,
    QueryResult(["article_count"], []),
    TEXT,  # text only
    QueryResult(["title"], [["Only text"]]),
    QueryResult(["article_category", "article_count"], [["Sports", 5]]),  # one row: nothing to compare
    QueryResult(["a", "b", "c", "n"], [["x", "y", "z", 1], ["x", "y", "w", 2]]),  # three labels
    QueryResult(["flag", "label"], [[True, "a"], [False, "b"]]),  # booleans are not numbers
])
def test_no_chart(result: QueryResult | None) -> None:
    assert choose_chart(result) is None


def test_null_values_do_not_break_the_choice() -> None:
    result = QueryResult(["article_category", "article_count"], [["A", None], ["B", 2]])
    assert choose_chart(result).kind == "bar"


# --------------------------------------------------------------------------- figures


@pytest.mark.parametrize(("result", "kind"), [(METRIC, "metric"), (BAR, "bar"), (YEARS, "line"),
                                              (STACKED, "stacked_bar")])
def test_figure_for_each_chosen_kind(result: QueryResult, kind: str) -> None:
    spec = choose_chart(result)
    assert spec.kind == kind
    fig = figure(result, spec)
    assert fig.data
    if kind == "metric":
        assert fig.data[0].type == "indicator" and fig.data[0].value == 42.0
    else:
        assert fig.layout.title.text == spec.title
        xs = [value for trace in fig.data for value in trace.x]
        assert sorted(map(str, xs)) == sorted(str(row[result.columns.index(spec.x)]) for row in result.rows)
    if kind == "stacked_bar":
        assert fig.layout.barmode == "stack"
        assert {trace.name for trace in fig.data} == {"Sports", "Business"}
    if kind == "line":
        assert fig.data[0].type == "scatter" and "lines" in fig.data[0].mode


def test_grouped_bar() -> None:
    spec = ChartSpec("grouped_bar", x="year", y="article_count", color="article_category")
    assert figure(STACKED, spec).layout.barmode == "group"


@pytest.mark.parametrize("spec", [
    ChartSpec("bar", x="nope", y="article_count"),
    ChartSpec("bar", x="article_category", y="article_count", color="__class__"),
    ChartSpec("line", x="article_category", y="DROP TABLE articles"),
])
def test_figure_rejects_unknown_columns(spec: ChartSpec) -> None:
    with pytest.raises(ValueError, match="not in the result"):
        figure(BAR, spec)


@pytest.mark.parametrize("kind", ["pie", "exec", "__import__('os')", ""])
def test_figure_rejects_unknown_kinds(kind: str) -> None:
    with pytest.raises(ValueError, match="unknown chart type"):
        figure(BAR, ChartSpec(kind, x="article_category", y="article_count"))


def test_table_is_not_a_chart() -> None:
    assert "table" in CHART_KINDS
    with pytest.raises(ValueError, match="not a chart"):
        figure(BAR, ChartSpec("table"))


def test_alternatives() -> None:
    assert alternatives(choose_chart(METRIC)) == ["metric"]
    assert alternatives(choose_chart(BAR)) == ["bar", "line"]
    assert alternatives(choose_chart(STACKED)) == ["stacked_bar", "grouped_bar", "line"]
    for spec in (choose_chart(BAR), choose_chart(STACKED)):
        for kind in alternatives(spec):
            assert kind in CHART_KINDS
            figure(BAR if spec.color is None else STACKED, ChartSpec(kind, spec.x, spec.y, spec.color))


def test_no_exec_or_eval_in_the_product() -> None:
    """Charts are data, never generated code: no exec/eval/compile calls anywhere under rag/."""
    root = Path(__file__).resolve().parent.parent / "rag"
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in {"exec", "eval", "compile"}, f"{path}:{node.lineno}"
