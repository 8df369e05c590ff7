"""Hostile rows through `rag ask --json` (offline engine, hashing embedder): the answer text escapes every value.

Titles, categories, authors and texts of a tiny SQLite table hold HTML, images, links, Streamlit directives and
icons, bare URLs, entities, bidi controls and block syntax (`test_ui_markdown.HOSTILE`). The JSON `answer` of
SQL answers (a count under a condition, groups with highest and lowest, one group, a tie, a listing), semantic
quote answers and error answers is read with `test_ui_markdown.markdown_problems`: nothing from the data may
render as anything but text, no bidi control may be left, the answer's own Markdown (emphasis, lists) stays, and
the UI's `safe_answer_markdown` finds nothing left to do. Each hostile value must read exactly as written: escaped
once, neither rendered nor shown with backslashes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from conftest import make_articles_db
from markdown_it import MarkdownIt
from test_ui_markdown import BIDI, HOSTILE, literal, markdown_problems, rendered_text

from rag.answer.markdown import safe_answer_markdown
from rag.cli import main
from rag.data.source import TableSource
from rag.settings import REGISTRY

SPAN = '<span style="font-size:60px;fill:red">HUGE</span>'
RED = ":red[Red] :material/home:"
CATEGORIES = {SPAN: 6, '<a href="http://example.invalid/anchor">click</a>': 4, "<b>Bold</b> &amp; co": 3, RED: 2}
AUTHORS = [":red[Mallory] <b>Eve</b>", "Trudy \u202eevE", "![a](http://example.invalid/author.png)"]
ROWS = [
    {"url": f"https://news.example.com/h/{n}", "title": f"{HOSTILE[name]} beekeeping {n}",
     "authors": AUTHORS[n % len(AUTHORS)], "published_date": f"2023-06-{n + 1:02d} 10:00:00",
     "article_category": category,
     "full_content": f"Rooftop beekeeping diary number {n}. Rooftop hives give honey {HOSTILE[name]} on the roof. "
                     "More about hives."}
    for n, (name, category) in enumerate(zip(sorted(HOSTILE), [c for c, k in CATEGORIES.items() for _ in range(k)],
                                             strict=True))
]
# The answer's own Markdown: paragraphs and lists (listings, quotes); never a heading, table, quote or code block.
ANSWER_BLOCKS = {"paragraph_open", "paragraph_close", "inline", "bullet_list_open", "bullet_list_close",
                 "ordered_list_open", "ordered_list_close", "list_item_open", "list_item_close"}
_MD = MarkdownIt("commonmark").enable(["table", "strikethrough"])


@pytest.fixture(scope="module")
def hostile_table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[str]]:
    """The CLI arguments for a table of hostile rows, indexed (hashing embedder); the category role is named
    explicitly, as a user would for values this odd."""
    base = tmp_path_factory.mktemp("hostile_cli")
    db = make_articles_db(base / "hostile.db", ROWS)
    common = ["--db", f"sqlite:///{db}", "--index-dir", str(base / "index"), "--columns",
              "category=article_category"]
    with pytest.MonkeyPatch.context() as patch:
        _clean_env(patch)
        assert main(["index", *common, "--json"]) == 0
    yield common


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    _clean_env(monkeypatch)


def _clean_env(patch: pytest.MonkeyPatch) -> None:
    for setting in REGISTRY:
        patch.delenv(setting.env, raising=False)
    patch.setenv("RAG_EMBED_MODEL", "hashing")


def ask_json(capsys: pytest.CaptureFixture[str], common: list[str], question: str, *extra: str,
             code: int = 0) -> dict[str, Any]:
    capsys.readouterr()
    assert main(["ask", question, *common, *extra, "--json"]) == code
    return json.loads(capsys.readouterr().out)


def assert_text_only(answer: str) -> str:
    """Nothing from the data renders (HTML, images, links, directives, icons, shortcodes, bare URLs, e-mail
    links, entities, maths, bidi controls, block structure other than the answer's lists), and the UI leaves
    the answer as it is. Returns what a reader sees."""
    assert not BIDI.search(answer)
    assert markdown_problems(answer) == []
    assert {token.type for token in _MD.parse(answer)} <= ANSWER_BLOCKS
    assert safe_answer_markdown(answer) == answer  # already safe: the UI escapes nothing a second time
    return rendered_text(answer)


def test_grouped_answer_names_highest_and_lowest_as_text(hostile_table: list[str],
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    reply = ask_json(capsys, hostile_table, "How many articles per category?")
    assert reply["route"] == "sql" and reply["columns"][-1] == "article_count"
    shown = assert_text_only(reply["answer"])
    assert f"highest number of articles: {literal(SPAN)} (6); lowest: {literal(RED)} (2)." in shown


def test_one_group_answer_reads_its_label_once(hostile_table: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    reply = ask_json(capsys, hostile_table, "Which category has the most articles?")
    assert len(reply["rows"]) == 1
    shown = assert_text_only(reply["answer"])
    assert f"{literal(SPAN)}: 6 articles." in shown


def test_tie_answer_lists_every_author_as_text(hostile_table: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    reply = ask_json(capsys, hostile_table, "How many articles per author?")
    shown = assert_text_only(reply["answer"])
    assert "tie with 5 articles each." in shown
    for author in AUTHORS:
        assert literal(author) in shown


def test_count_under_a_condition(hostile_table: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """The condition is escaped where the sentence quotes it: brackets and underscores read as written.
    (Hostile values in conditions: tests/test_compose.py, whatever the planner recognises.)"""
    reply = ask_json(capsys, hostile_table, "How many articles were published in June 2023?")
    shown = assert_text_only(reply["answer"])
    assert f"There are {len(ROWS)} matching articles (published date 2023-06-01 to 2023-06-30)." in shown


def test_listing_shows_each_title_and_date_once_escaped(hostile_table: list[str],
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    reply = ask_json(capsys, hostile_table, "List articles from June 2023")
    assert reply["row_count"] == len(ROWS) and len(reply["citations"]) == 10
    shown = assert_text_only(reply["answer"])
    assert shown.startswith(f"Listed articles · published date 2023-06-01 to 2023-06-30 Found {len(ROWS)} articles")
    titles = {row["title"]: row["published_date"][:10] for row in ROWS}
    for citation in reply["citations"]:  # the titles are the Sources, not repeated in the answer
        assert literal(citation["title"]) not in shown, citation["title"]
        assert titles[citation["title"]] == citation["published_date"]


def same_quotes(text: str) -> str:
    return re.sub("[“”‘’\"']", "'", text)


@pytest.mark.parametrize("question", ["What about rooftop beekeeping hives?",
                                      "Rooftop hives giving honey in June 2023"])
def test_quote_answers_read_quotes_and_titles_once_escaped(hostile_table: list[str], question: str,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    reply = ask_json(capsys, hostile_table, question)
    assert reply["route"] in ("vector", "hybrid") and reply["citations"]
    assert_text_only(reply["answer"])
    contents = {row["title"]: literal(row["full_content"]) for row in ROWS}
    quotes = [line for line in reply["answer"].splitlines() if line.startswith("- “")]
    assert len(quotes) == len(reply["citations"])
    for line, citation in zip(quotes, reply["citations"], strict=True):
        quote, _, source = rendered_text(line).partition("” — ")  # a list item: "“quote” — title, date [n]"
        # as written, nothing lost (its own double quotation marks nested as single ones)
        assert quote.startswith("“") and same_quotes(quote[1:]) in same_quotes(contents[citation["title"]])
        assert source.startswith(literal(citation["title"]))


@pytest.mark.parametrize("value", [RED, SPAN, *AUTHORS, HOSTILE["bare_url"], HOSTILE["entity"], HOSTILE["link"]])
def test_error_answer_escapes_the_database_message(hostile_table: list[str], value: str,
                                                   capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A driver's message can quote a value (PostgreSQL: `invalid input syntax for type integer: "…"`): the
    error answer shows it as text."""
    message = f'invalid input syntax for type integer: "{value}"'
    driver, guarded = sa.engine.Connection.exec_driver_sql, TableSource.run_select
    running: list[str] = []

    def run_select(self: TableSource, sql: str, **kwargs: Any) -> Any:
        running.append(sql)
        try:
            return guarded(self, sql, **kwargs)
        finally:
            running.pop()

    def fail(self: Any, statement: str, *args: Any, **kwargs: Any) -> Any:
        if not running:  # reflection and profiling still work; only the guarded statement fails
            return driver(self, statement, *args, **kwargs)
        raise sa.exc.OperationalError(statement, None, Exception(message))

    monkeypatch.setattr(TableSource, "run_select", run_select)
    monkeypatch.setattr(sa.engine.Connection, "exec_driver_sql", fail)
    reply = ask_json(capsys, hostile_table, "How many articles per category?", code=1)
    assert reply["error"] == f"The database could not run the query: {message}"  # the plain field stays plain
    shown = assert_text_only(reply["answer"])
    assert shown == f"Query failed. The database could not run the query: {literal(message)}"
