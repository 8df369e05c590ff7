"""Charts: a fixed set of chart types chosen from the result's shape; figures only from columns that exist."""

from __future__ import annotations

import ast
import html
import json
import math
import numbers
from pathlib import Path
from typing import Any

import pytest

from rag.answer.chart_spec import CHART_KINDS, choose_chart
from rag.models import ChartSpec, QueryResult
from ui.charts import alternatives, escape_plotly, figure, plotly_frame

METRIC = QueryResult(["article_count"], [[42]])
BAR = QueryResult(["article_category", "article_count"], [["Business", 3], ["Sports", 5], ["Health", 1]])
YEARS = QueryResult(["year", "article_count"], [["2021", 4], ["2022", 7], ["2023", 9]])
MONTHS = QueryResult(["month", "article_count"], [["2023-01", 2], ["2023-02", 3], ["2023-03", 1]])
STACKED = QueryResult(["year", "article_category", "article_count"],
                      [["2022", "Sports", 2], ["2022", "Business", 1], ["2023", "Sports", 4]])
TEXT = QueryResult(["title", "published_date", "url"], [["A", "2023-01-01", "u1"], ["B", "2023-01-02", "u2"]])


def drawn(fig: Any) -> list[Any]:
    """The figure's data traces (not the text of stacked totals)."""
    return [trace for trace in fig.data if getattr(trace, "mode", None) != "text"]


def test_metric() -> None:
    assert choose_chart(METRIC) == ChartSpec("metric", y="article_count", title="Number of articles",
                                             labels={"article_count": "Number of articles"})
    assert choose_chart(QueryResult(["avg_word_count"], [[512.5]])).kind == "metric"


def test_bar_for_categories() -> None:
    spec = choose_chart(BAR, table="articles")
    assert spec == ChartSpec("bar", x="article_category", y="article_count", title="Number of Articles by Category",
                             labels={"article_category": "Category", "article_count": "Number of articles"})


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
        xs = [value for trace in drawn(fig) for value in trace.x]
        assert sorted(map(str, xs)) == sorted(str(row[result.columns.index(spec.x)]) for row in result.rows)
    if kind == "stacked_bar":
        assert fig.layout.barmode == "stack"
        assert {trace.name for trace in fig.data if trace.type == "bar"} == {"Sports", "Business"}
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
    assert alternatives(choose_chart(BAR)) == ["bar"]  # no line between categories
    assert alternatives(choose_chart(YEARS)) == ["bar", "line"]
    assert alternatives(choose_chart(STACKED)) == ["stacked_bar", "grouped_bar", "line"]
    per_category = QueryResult(["authors", "article_category", "n"], [["A", "x", 1], ["B", "y", 2]])
    assert alternatives(choose_chart(per_category)) == ["stacked_bar", "grouped_bar"]
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


# --------------------------------------------------------------------------- hostile data in figures

SPAN = '<span style="font-size:60px;fill:red">HUGE</span>'
ANCHOR = '<a href="http://example.invalid/chart">link</a>'
HOSTILE_ROWS = [[SPAN, "<b>2022</b>", 3], [ANCHOR, "&lt;u&gt;", 5], ["a & b", "<b>2022</b>", 1]]
HOSTILE = QueryResult(["<b>category</b>", "year<br>", "count<i>"], HOSTILE_ROWS)


def _figure_texts(fig: Any) -> list[str]:
    """Every string Plotly would draw or show on hover, from the figure's JSON."""
    found: list[str] = []

    def walk(value: Any, key: str = "") -> None:
        if isinstance(value, dict):
            for name, item in value.items():
                if name != "template":
                    walk(item, name)
        elif isinstance(value, list):
            for item in value:
                walk(item, key)
        elif isinstance(value, str) and key not in ("type", "mode", "orientation", "xaxis", "yaxis", "barmode",
                                                    "legendgroup", "offsetgroup", "alignmentgroup", "textposition"):
            found.append(value)

    walk(json.loads(fig.to_json()))
    return found


def _assert_no_markup_from_data(fig: Any) -> None:
    texts = _figure_texts(fig)
    for text in texts:
        without_plotly_own = text.replace("<br>", "").replace("<extra></extra>", "")
        assert "<" not in without_plotly_own and ">" not in without_plotly_own, text
        assert "&lt;u&gt;" not in text.replace("&amp;lt;u&amp;gt;", ""), "an entity from the data is decoded"


@pytest.mark.parametrize("spec", [
    ChartSpec("bar", x="<b>category</b>", y="count<i>", title="count<i> by <b>category</b>"),
    ChartSpec("line", x="<b>category</b>", y="count<i>", title="<a href='http://example.invalid/t'>t</a>"),
    ChartSpec("stacked_bar", x="year<br>", y="count<i>", color="<b>category</b>", title="t"),
    ChartSpec("grouped_bar", x="<b>category</b>", y="count<i>", color="year<br>", title="t"),
])
def test_figures_escape_labels_legends_titles_and_hover_text(spec: ChartSpec) -> None:
    fig = figure(HOSTILE, spec)
    _assert_no_markup_from_data(fig)
    texts = _figure_texts(fig)
    labels = {spec.x, spec.color} - {None}
    if "<b>category</b>" in labels:
        assert "&lt;span style=\"font-size:60px;fill:red\"&gt;HUGE&lt;/span&gt;" in texts
        assert "&lt;a href=\"http://example.invalid/chart\"&gt;link&lt;/a&gt;" in texts
        assert "a &amp; b" in texts
    if "year<br>" in labels:
        assert "&amp;lt;u&amp;gt;" in texts, "an entity in the data is shown as written"
    assert any("&lt;b&gt;category&lt;/b&gt;" in text for text in texts), "column names (SQL aliases) escaped"
    values = [value for trace in drawn(fig) for value in trace.y]
    assert sorted(values) == [1, 3, 5] and all(isinstance(v, numbers.Real) for v in values), "numbers stay numbers"


def test_metric_figure_escapes_its_title() -> None:
    fig = figure(QueryResult(["<b>n</b>"], [[7]]), ChartSpec("metric", y="<b>n</b>", title=SPAN))
    assert fig.data[0].title.text == html.escape(SPAN, quote=False)
    assert fig.data[0].value == 7.0


def test_chart_categories_keep_their_order_escaped() -> None:
    from ui.components import chart_figure

    spec = ChartSpec("bar", x="<b>category</b>", y="count<i>", title="t")
    fig = chart_figure(HOSTILE, spec, "bar")
    assert list(fig.layout.xaxis.categoryarray) == [html.escape(r[0], quote=False) for r in HOSTILE_ROWS]
    _assert_no_markup_from_data(fig)


def test_plotly_frame_escapes_text_and_keeps_other_types() -> None:
    frame = plotly_frame([["<b>", 1, 2.5, None, True]], ["<c>", "i", "f", "n", "b"])
    assert list(frame.columns) == ["&lt;c&gt;", "i", "f", "n", "b"]
    assert frame.iloc[0].tolist()[0] == "&lt;b&gt;"
    assert frame["i"].dtype.kind == "i" and frame["f"].dtype.kind == "f" and frame["b"].dtype.kind == "b"
    assert escape_plotly("\u202eexe") == "‹U+202E›exe" and escape_plotly(3) == 3 and escape_plotly(None) is None


def test_every_figure_in_the_ui_is_built_from_a_plotly_frame() -> None:
    """Plotly Express calls in ui/ and pages/ take a `plotly_frame` (or a name assigned from one), so no
    figure is built from raw data; graph_objects figures only in ui/charts.py, with escaped titles."""
    root = Path(__file__).resolve().parent.parent
    checked = 0
    for path in [*sorted((root / "ui").glob("*.py")), *sorted((root / "pages").glob("*.py")), root / "app.py"]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        framed = {target.id for node in ast.walk(tree) if isinstance(node, ast.Assign) and _is_frame(node.value)
                  for target in node.targets if isinstance(target, ast.Name)}
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name) and node.func.value.id in ("px", "go")):
                continue
            if node.func.value.id == "go":
                assert path.name == "charts.py", f"{path}:{node.lineno} builds a graph_objects figure"
                continue
            first = node.args[0] if node.args else None
            assert first is not None and (_is_frame(first) or (isinstance(first, ast.Name) and first.id in framed)), \
                f"{path.relative_to(root)}:{node.lineno}: px.{node.func.attr} without plotly_frame"
            checked += 1
    assert checked >= 8  # chat chart (4 kinds), waterfall, data page (2), evaluation page (4)


def _is_frame(node: ast.AST) -> bool:
    """`plotly_frame(...)` or `charts.plotly_frame(...)`, possibly followed by a method such as `.sort_values`."""
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr != "plotly_frame":
        node = node.func.value
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    return (isinstance(func, ast.Name) and func.id == "plotly_frame") or (
        isinstance(func, ast.Attribute) and func.attr == "plotly_frame")


# --------------------------------------------------------------------------- presentation-ready (#13, item 3)

SPARSE_YEARS = QueryResult(["year", "article_count"], [["1970", 3], ["2001", 1], ["2022", 40], ["2023", 90]])
BY_COUNT = QueryResult(["year", "article_count"], [["2023", 9], ["2021", 4], ["2022", 7]])  # ordered by count
LONG = QueryResult(["article_category", "article_count"],
                   [["Science and technology", 3], ["Arts and entertainment", 8], ["Health", 5]])


def test_axes_legend_and_title_speak_in_labels() -> None:
    spec = choose_chart(STACKED, {"article_category": "section"}, "articles")
    assert spec.title == "Number of Articles by Year and Section"
    from ui.components import chart_figure

    fig = chart_figure(STACKED, spec, "stacked_bar")
    assert (fig.layout.xaxis.title.text, fig.layout.yaxis.title.text) == ("Year", "Number of articles")
    assert fig.layout.legend.title.text == "Section"
    assert fig.layout.font.size >= 14 and fig.layout.title.font.size >= 18 and fig.layout.legend.font.size >= 14


def test_a_line_over_sparse_years_breaks_at_the_missing_years() -> None:
    spec = choose_chart(SPARSE_YEARS)
    assert spec.time_x and spec.kind == "bar"  # 4 of 54 years: bars, in time order; a line is offered
    assert "line" in alternatives(spec)
    assert choose_chart(QueryResult(["month", "n"], [["2023-01", 1], ["2023-12", 2], ["2024-06", 3]])).kind == "bar"
    fig = figure(SPARSE_YEARS, ChartSpec("line", spec.x, spec.y, time_x=True))
    points = dict(zip(fig.data[0].x, fig.data[0].y, strict=True))
    assert list(points)[0] == "1970" and list(points)[-1] == "2023" and len(points) == 54
    assert points["1970"] == 3 and points["2023"] == 90
    assert all(math.isnan(points[str(year)]) for year in (1971, 1999, 2000, 2021))  # missing: no point, no line
    assert not fig.data[0].connectgaps  # a None is a gap, not bridged


def test_periods_stay_in_time_order_and_sorting_by_value_leaves_them_alone() -> None:
    from ui.components import chart_figure

    spec = choose_chart(BY_COUNT)
    for sort in (False, True):
        fig = chart_figure(BY_COUNT, spec, "bar", sort_by_value=sort)
        assert list(fig.layout.xaxis.categoryarray) == ["2021", "2022", "2023"]


def test_sort_by_value_and_horizontal_bars_for_long_labels() -> None:
    from ui.components import chart_figure

    spec = choose_chart(LONG)
    assert spec.kind == "bar" and spec.horizontal and not spec.time_x
    fig = chart_figure(LONG, spec, "bar", sort_by_value=True)
    assert fig.data[0].orientation == "h"
    assert list(fig.layout.yaxis.categoryarray) == ["Arts and entertainment", "Health", "Science and technology"]
    assert fig.layout.yaxis.autorange == "reversed"  # the largest on top
    assert not choose_chart(BAR).horizontal  # short labels stay upright
    people = QueryResult(["authors", "article_count"], [[f"Author {i}", i] for i in range(20)])
    assert choose_chart(people).horizontal  # many short labels would crowd the axis too
    months = QueryResult(["month", "article_count"], [[f"2023-{i:02d}", i] for i in range(1, 13)] + [["2024-01", 1]])
    assert not choose_chart(months).horizontal  # periods stay on the horizontal axis


def test_stacked_bars_carry_their_totals_so_small_stacks_read() -> None:
    fig = figure(STACKED, choose_chart(STACKED))
    [totals] = [trace for trace in fig.data if getattr(trace, "mode", None) == "text"]
    assert dict(zip(totals.x, totals.text, strict=True)) == {"2022": "3", "2023": "4"}
    assert "grouped_bar" in alternatives(choose_chart(STACKED))  # small series side by side on request
