"""The UI's pure helpers: safe rendering of document text, trace formatting, data-page SQL through the guard."""

from __future__ import annotations

import pytest

from rag.models import EngineResult, Span, Trace, Turn
from ui import support as ui


def test_answer_markdown_neutralises_images_and_raw_html() -> None:
    text = ui.safe_answer_markdown('See ![x](http://evil.example/t.png) and <img src=x onerror=alert(1)> ok')
    assert "![" not in text.replace("!\\[", "")
    assert "<img" not in text.replace("\\<img", "")
    # Already escaped text (the offline engine's quotes) is left as it is.
    assert ui.safe_answer_markdown("\\!\\[a\\]") == "\\!\\[a\\]"


def test_escape_markdown_makes_document_text_literal() -> None:
    assert ui.escape_markdown("*bold* [link](u) `code` <b>") == "\\*bold\\* \\[link\\](u) \\`code\\` \\<b\\>"


def test_answer_markdown_does_not_escape_the_composers_escapes_again() -> None:
    """The offline composer writes `\\<script\\>` for a quoted `<script>`: shown as `<script>`, not `\\<script>`."""
    assert ui.safe_answer_markdown("“\\<script\\> \\!\\[x\\]”") == "“\\<script\\> \\!\\[x\\]”"
    assert ui.safe_answer_markdown("\\\\<b>") == "\\\\\\<b>"  # an escaped backslash does not escape the tag


def test_escape_markdown_breaks_directives_icons_links_and_entities() -> None:
    wj = ui.WORD_JOINER
    assert ui.escape_markdown(":red[x]") == f"\\:{wj}red\\[x\\]"
    assert ui.escape_markdown(":material/home:") == f"\\:{wj}material/home\\:{wj}"  # what follows is unknown
    assert ui.escape_markdown("http://a.example") == f"http\\:{wj}//a.example"
    assert ui.escape_markdown("www.a.example me@a.example") == f"www{wj}.a.example me{wj}@a.example"
    assert ui.escape_markdown("&lt;b&gt;") == "\\&lt;b\\&gt;"
    assert ui.escape_markdown("10:30") == "10\\:30"  # a directive name may start with a digit
    assert ui.escape_markdown("\u202egnp.exe") == "‹U+202E›gnp.exe"
    assert ui.escape_markdown("a\n    indented\n- item\n2. two") == "a\nindented\n\\- item\n2\\. two"
    assert ui.escape_markdown(None) == ""


def test_badge_label_leaves_brackets_to_st_badge() -> None:
    """`st.badge` escapes square brackets itself; everything else is escaped here, once."""
    assert ui.badge_label("[x](http://e.example) <b>") == f"[x](http\\:{ui.WORD_JOINER}//e.example) \\<b\\>"
    assert ui.badge_label("a\\[b") == "a\\\\[b"  # a data backslash stays escaped before the bracket


def test_plain_text_helpers_show_bidi_controls() -> None:
    assert ui.show_bidi("a\u2066b\u200fc") == "a‹U+2066›b‹U+200F›c"
    turn = Turn("why\u202eexe.png", "", Trace("q"), EngineResult(route="vector"))
    assert ui.turn_title(turn, 3) == "#3 · Semantic · why‹U+202E›exe.png"


@pytest.mark.parametrize("url, safe", [
    ("https://news.example.com/a", True),
    ("http://news.example.com/a?b=1", True),
    ("javascript:alert(1)", False),
    ("data:text/html,hi", False),
    ("/relative/path", False),
    ("https://x.example/a) [evil](https://y", False),
    ("https://x.example/\u202egnp.exe", False),
    ("https://x.example/a\u2060b", False),
    ("https://x.example/a\\b", False),
])
def test_only_plain_http_links_are_linked(url: str, safe: bool) -> None:
    assert (ui.safe_url(url) is not None) is safe


def test_citation_markdown_escapes_the_title_and_drops_unsafe_links() -> None:
    line = ui.citation_markdown(2, "A *bold* title", "javascript:alert(1)", "2023-04-17 09:30:00")
    assert line == "**[2]** A \\*bold\\* title · 2023-04-17"
    assert ui.citation_markdown(1, "T", "https://a.example/x", "").endswith("[T](https://a.example/x)")


def test_waterfall_rows_are_ordered_and_indented_by_nesting() -> None:
    spans = [Span("inner", 10, 5), Span("outer", 0, 30), Span("validate", 0, 0.0), Span("after", 31, 2)]
    rows = ui.waterfall_rows(spans)
    assert [r["name"] for r in rows] == ["outer", "validate", "inner", "after"]
    assert [r["depth"] for r in rows] == [0, 1, 1, 0]
    assert rows[0]["step"].startswith("01 ") and rows[1]["duration_ms"] > 0  # zero-length spans stay visible


def test_step_lines_name_each_step_in_plain_words() -> None:
    trace = Trace("q", spans=[Span("sql.execute", 5, 1, {"rows": 3}), Span("sql.guard", 2, 1, {"verdict": "allowed"})])
    assert ui.step_lines(trace) == ["Checked the SQL with the guard: allowed (1 ms)",
                                    "Ran the SQL (read-only): 3 rows (1 ms)"]


def test_feedback_round_trip_and_turn_rows() -> None:
    assert ui.feedback_to_turn(1) == 1 and ui.feedback_to_turn(0) == -1 and ui.feedback_to_turn(None) is None
    assert ui.feedback_to_widget(-1) == 0 and ui.feedback_to_widget(1) == 1
    turn = Turn("How many?", "3", Trace("How many?", spans=[Span("x", 0, 12.5)]), EngineResult(route="sql"),
                feedback=-1)
    row = ui.turn_row(turn, 1)
    assert row["route"] == "SQL" and row["latency_ms"] == 12.5 and row["feedback"] == "not helpful"
    assert '"question": "How many?"' in ui.turns_json([turn])




def test_waterfall_rows_use_the_step_list_words_and_say_each_duration() -> None:
    spans = [Span("route+answer", 0, 30), Span("sql.execute", 10, 5.4), Span("llamaindex.retrieve", 16, 1250)]
    rows = ui.waterfall_rows(spans)
    assert [r["step"] for r in rows] == ["01 Routed and answered", "02 · Ran the SQL (read-only)",
                                         "03 · Retrieved chunks"]
    assert [r["duration"] for r in rows] == ["30 ms", "5 ms", "1.25 s"]
    assert [r["name"] for r in rows] == ["route+answer", "sql.execute", "llamaindex.retrieve"]  # kept for hover


def test_a_turn_asked_again_is_compared_with_the_earlier_one() -> None:
    def turn(question: str, route: str, forced: bool = False) -> Turn:
        return Turn(question, "a", Trace(question, forced_route=route if forced else None, spans=[Span("x", 0, 7)]),
                    EngineResult(route=route, reason="why"))

    first, other, again = turn("q", "vector"), turn("p", "sql"), turn("q", "sql", forced=True)
    turns = [first, other, again]
    assert ui.compared_turn(again, turns) is first
    assert ui.compared_turn(first, turns) is None and ui.compared_turn(other, turns) is None
    assert ui.compared_turn(turn("new", "hybrid", forced=True), turns) is None  # nothing earlier to compare
    facts = ui.comparison_facts(again)
    assert facts["route"] == "SQL" and facts["chosen"] == "forced by the user" and facts["total"] == "7 ms"


def test_search_places_say_where_each_single_search_ranked_a_document() -> None:
    rankings = {"dense": [{"row_key": "a"}, {"row_key": "b"}], "keyword": [{"row_key": "b"}],
                "restated_dense": [{"row_key": "c"}, {"row_key": "a"}]}
    assert ui.search_places("a", rankings) == "dense 1 · keyword — · restated dense 2"
    assert ui.search_places("b", rankings) == "dense 2 · keyword 1 · restated dense —"
    assert ui.search_places("a", {}) == ""
