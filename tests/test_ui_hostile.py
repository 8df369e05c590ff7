"""A table of hostile rows through the whole app (AppTest, offline engine, hashing embedder).

Titles, categories, authors and texts hold HTML, images, links, Streamlit directives and icons, bare URLs,
entities and bidi controls. Every Markdown string any page hands to Streamlit (bodies, captions, alerts,
labels of widgets, expanders, metrics and badges) is read with `test_ui_markdown.markdown_problems`: nothing
from the data may render as anything but text, and hostile titles must read exactly as written (escaped once,
not twice). Plotly figures must carry the escaped form of every label.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import ARTICLE_ROWS, indexed_articles
from streamlit.testing.v1 import AppTest
from test_ui_markdown import literal, markdown_problems, rendered_text

from rag.models import ChartSpec, Chunk, DroppedFilter, EngineResult, Filter, LLMCall, QueryResult, Span, Trace, Turn

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
TIMEOUT = 90

SPAN = '<span style="font-size:60px;fill:red">HUGE</span>'
ANCHOR = '<a href="http://example.invalid/anchor">click</a>'
QUOTE = ('Rooftop beekeeping hives give honey ![q](http://example.invalid/quote.png) '
         '<img src="http://example.invalid/quote2.png"> :red[sweet] :material/home: http://example.invalid/quote3 '
         '&lt;b&gt;bold&lt;/b&gt; report\u202egnp.exe')
TITLES = [
    "![pixel](http://example.invalid/title.png) :material/home: rooftop hives",
    "report\u202egnp.exe rooftop beekeeping",
    '&lt;script&gt;alert(1)&lt;/script&gt; & <img src="http://example.invalid/t.png"> beekeeping',
    "see http://example.invalid/bare and www.example.invalid beekeeping :red[hives]",
]
CATEGORIES = [SPAN, ANCHOR, "<b>Bold</b> & co", ":red[Red] :material/home:"]
AUTHORS = [":red[Mallory] <b>Eve</b>", "Trudy \u202eevE", "![a](http://example.invalid/author.png)", "Peggy"]
URLS = ["https://news.example.com/h/1", "javascript:alert(1)", "https://news.example.com/h/3",
        "https://news.example.com/h/4"]
HOSTILE_ROWS = [
    {"url": url, "title": title, "authors": author, "published_date": f"2023-06-0{n} 10:00:00",
     "article_category": category, "full_content": f"Rooftop beekeeping number {n}. {QUOTE}. More about hives."}
    for n, (url, title, author, category) in enumerate(zip(URLS, TITLES, AUTHORS, CATEGORIES, strict=True), 1)
]
QUESTION = "What about <b>bold</b> :red[x] ![q](http://example.invalid/question.png) \u202eexe?"
ALIAS = "![x](http://example.invalid/alias.png) :red[n]"
LINKS = ("https://news.example.com/",)  # the rows' own (safe) URLs may be linked; nothing else
BADGE = re.compile(r"^:(\w+)-badge\[(?::material/\w+: )?(.*)\]$", re.DOTALL)
MARKDOWN_BODIES = {"markdown", "caption", "subheader", "header", "title", "success", "error", "warning", "info"}


@pytest.fixture(scope="module")
def hostile_world(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("hostile")
    db, _ = indexed_articles(base, [*ARTICLE_ROWS, *HOSTILE_ROWS], name="hostile.db")
    return {"db": db, "index": base / "index"}


@pytest.fixture
def hostile_app(hostile_world: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    for name, value in {"RAG_DB_URL": f"sqlite:///{hostile_world['db']}", "RAG_INDEX_DIR": str(hostile_world["index"]),
                        "RAG_EMBED_MODEL": "hashing", "RAG_PROVIDER": "offline"}.items():
        monkeypatch.setenv(name, value)
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    assert not at.exception, at.exception
    return at


def ask(at: AppTest, question: str) -> Turn:
    at.chat_input[0].set_value(question).run()
    assert not at.exception, at.exception
    return at.session_state["turns"][-1]


def markdown_of(block: Any) -> list[tuple[str, str]]:
    """(element type, Markdown source) of every string Streamlit renders as Markdown in `block`."""
    found: list[tuple[str, str]] = []
    for node in block:
        kind = getattr(node, "type", "")
        if kind in MARKDOWN_BODIES and isinstance(getattr(node, "value", None), str):
            badge = BADGE.match(node.value)
            found.append(("badge", badge.group(2)) if badge else (kind, node.value))
        if kind == "metric":
            found.append(("metric value", node.value))
        label = getattr(node, "label", None)
        if isinstance(label, str) and label:
            found.append((f"{kind} label", label))
    return found


def assert_nothing_rendered_from_data(at: AppTest) -> list[tuple[str, str]]:
    sources = markdown_of(at.main) + markdown_of(at.sidebar)
    assert len(sources) > 10
    problems = {f"{kind}: {source!r}": found for kind, source in sources
                if (found := markdown_problems(source, allowed_links=LINKS))}
    assert not problems, json.dumps(problems, indent=1, ensure_ascii=False)
    return sources


def figures(block: Any) -> list[dict[str, Any]]:
    return [json.loads(chart.proto.spec) for chart in block.get("plotly_chart")]


def figure_strings(figure: dict[str, Any]) -> list[str]:
    found: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for name, item in value.items():
                if name != "template":
                    walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str):
            found.append(value)

    walk(figure)
    return found


def assert_figure_escapes(figure: dict[str, Any], values: list[str]) -> None:
    strings = figure_strings(figure)
    for value in values:
        escaped = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        assert escaped in strings, (value, strings[:40])
        assert escaped == value or value not in strings
    for text in strings:
        assert not re.search(r"<(?!br>|extra>|/extra>)", text), text  # only Plotly's own <br> and <extra>


# ---------------------------------------------------------------- chat, inspector, traces, data


def test_hostile_rows_render_as_text_on_every_page(hostile_app: AppTest) -> None:
    at = hostile_app
    counted = ask(at, "How many articles per category?")
    assert counted.route == "sql" and counted.chart is not None and counted.error is None
    listed = ask(at, "List all articles")
    assert listed.route == "sql" and listed.error is None
    odd = ask(at, QUESTION)
    searched = ask(at, "Tell me about rooftop beekeeping hives")
    assert searched.route == "vector" and searched.citations and searched.result.chunks

    # The alias of model-written SQL labels a metric: no image is fetched, the alias reads as written.
    at.session_state["turns"].append(Turn(
        "alias?", "The number is 42.", Trace("alias?"),
        EngineResult(route="sql", sql="SELECT 42", sql_verdict="allowed", result=QueryResult([ALIAS], [[42]])),
        chart=ChartSpec("metric", y=ALIAS, title=ALIAS)))
    at.run()
    assert not at.exception, at.exception

    sources = assert_nothing_rendered_from_data(at)
    shown = [rendered_text(source) for _, source in sources]

    # The SQL summary: category values escaped once by rag, shown as the answer is (nothing escaped twice).
    answer = next(s for kind, s in sources if kind == "markdown" and "groups by category" in rendered_text(s))
    assert literal(":red[Red] :material/home:") in rendered_text(answer) or literal(SPAN) in rendered_text(answer)
    assert counted.answer in answer
    # Quotes escaped by the composer show their text once: no backslash, entities as written.
    quote = next(s for s in shown if "Here is what the documents say" in s)
    assert "![q](http://example.invalid/quote.png)" in quote and "&lt;b&gt;bold&lt;/b&gt;" in quote
    assert "\\" not in quote
    # Listed titles are the citations, shown once (not repeated in the answer): each reads exactly as written
    # (bidi made visible).
    listing = next(s for s in shown if s.startswith("Listed articles"))
    for title in TITLES:
        assert literal(title) not in listing, title
    citations = " ".join(s for s in shown if s.startswith("[1]"))
    for title in TITLES:
        assert literal(title) in citations, title
    assert "javascript:" not in " ".join(s for _, s in sources)
    # The question typed by the user, in the chat and in the restated reading.
    assert literal(QUESTION) in shown
    assert odd.question == QUESTION
    # Chunk titles label the inspector's expanders.
    chunk_labels = [rendered_text(s) for kind, s in sources if kind == "expander label"]
    assert any(literal(TITLES[1]) in label for label in chunk_labels), chunk_labels
    # The metric from the alias.
    metric = next(m for m in at.main.metric)
    assert rendered_text(metric.label) == literal(ALIAS) and metric.value == "42"

    chart = next(c for c in at.main.get("plotly_chart") if c.key == f"plot_{counted.id}")
    assert_figure_escapes(json.loads(chart.proto.spec), CATEGORIES)

    at.switch_page("pages/traces.py").run()
    assert not at.exception, at.exception
    at.query_params["turn"] = searched.id  # the Traces page opens the turn its URL names
    at.run()
    assert not at.exception, at.exception
    assert at.main.subheader[0].value == searched.question
    assert_nothing_rendered_from_data(at)
    labels = [rendered_text(e.label) for e in at.main.expander]
    assert any(literal(TITLES[0]) in label for label in labels), labels
    for figure in figures(at.main):
        assert_figure_escapes(figure, [])

    at.switch_page("pages/data.py").run()
    assert not at.exception, at.exception
    assert_nothing_rendered_from_data(at)
    by_category = next(c for c in at.main.get("plotly_chart") if c.key == "data_by_category")
    assert_figure_escapes(json.loads(by_category.proto.spec), CATEGORIES)


def test_every_part_of_a_trace_renders_data_as_text(hostile_app: AppTest) -> None:
    """A trace whose every field holds hostile text (as a model, a document or an exception could write it):
    the inspector's badges, captions, filters, chunk and LLM-call expanders, notes and waterfall hover."""
    at = hostile_app
    trace = Trace(QUESTION, provider=":red[provider] <b>p</b>", spans=[
        Span("sql.guard", 0, 2, {"sql": f"SELECT * WHERE c = '{CATEGORIES[2]}'", "verdict": f"rejected: {ANCHOR}"}),
        Span(f"custom {SPAN}", 1, 1, {"detail": ALIAS}, error=QUOTE),
    ], llm_calls=[LLMCall(purpose=":red[purpose]", model="<b>model</b>", prompt=QUOTE, response=ANCHOR,
                          error=":material/home: failed")], notes=[QUOTE], error=f"Broken: {ALIAS}")
    result = EngineResult(
        route="vector", reason=f"topic {SPAN}", sql=f"SELECT '{SPAN} \u202e' -- x", sql_verdict=f"rejected: {ALIAS}",
        filters=[Filter("article_category", "==", CATEGORIES[3], source=":red[from] http://example.invalid/f")],
        filters_dropped=[DroppedFilter(ANCHOR, "![r](http://example.invalid/r.png)")],
        chunks=[Chunk("c1", "k1", TITLES[0], "javascript:alert(1)", 0, QUOTE, 0.5, {"authors": AUTHORS[0]}),
                Chunk("c2", "k2", TITLES[1], "https://news.example.com/h/2", 1, QUOTE, 0.4)],
        notes=[f"note {ANCHOR}"])
    turn = Turn(QUESTION, f"**Failed.** {QUOTE}", trace, result, error=QUOTE)
    at.session_state["turns"].append(turn)
    at.session_state["inspect_turn"] = turn.id
    at.run()
    assert not at.exception, at.exception
    sources = assert_nothing_rendered_from_data(at)
    shown = " ".join(rendered_text(source) for _, source in sources)
    for text in (CATEGORIES[3], ANCHOR, ALIAS, ":red[purpose]", "<b>model</b>", TITLES[0], TITLES[1],
                 ":red[provider] <b>p</b>", f"topic {SPAN}"):
        assert literal(text) in shown, text

    plain = [c.value for c in at.sidebar.code] + [t.value for t in at.sidebar.text]  # not Markdown, but no reordering
    assert plain and not any("\u202e" in text for text in plain)
    assert any("‹U+202E›" in text for text in plain)

    waterfall = next(c for c in at.sidebar.get("plotly_chart") if c.key == "sidebar_waterfall")
    strings = figure_strings(json.loads(waterfall.proto.spec))
    assert any("&lt;b&gt;Bold&lt;/b&gt; &amp; co" in s for s in strings), strings
    assert any(f"custom {SPAN}".replace("<", "&lt;").replace(">", "&gt;") in s for s in strings), strings
    for text in strings:
        assert not re.search(r"<(?!br>|extra>|/extra>)", text), text

    at.switch_page("pages/traces.py").run()
    assert not at.exception, at.exception
    assert_nothing_rendered_from_data(at)
