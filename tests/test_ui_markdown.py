"""Hostile text through the two Markdown edges of the UI (`escape_markdown` for data, `safe_answer_markdown` for
answers), checked by an independent reading of what Streamlit would render.

`markdown_problems` parses with markdown-it (CommonMark, like Streamlit's micromark) and adds what Streamlit's
front end does on top: text directives (`:red[...]`, `:name`), icons (`:material/home:`), the logo and emoji
shortcodes, GFM bare-URL and e-mail links (found in the decoded text), `$...$` maths. The AppTest and the
chart tests import `HOSTILE`, `markdown_problems` and `rendered_text` from here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

from rag.answer.markdown import escape_markdown
from ui import support as ui

# Each hostile case of issue 10, as it could sit in a title, a category, an author or a document's text.
HOSTILE = {
    "span": '<span style="font-size:60px;fill:red">HUGE</span>',
    "anchor": '<a href="http://example.invalid/anchor">click</a>',
    "bold": "<b>bold</b> <script>alert(1)</script>",
    "image": "![pixel](http://example.invalid/image.png)",
    "img_tag": '<img src="http://example.invalid/tag.png">',
    "link": "[click](http://example.invalid/link) and a [ref][1]\n\n[1]: http://example.invalid/ref",
    "icon": ":material/home: :streamlit: :smile: :+1: :100:",
    "colour": ":red[coloured] :blue-badge[badge] :small[tiny] :x{#id .cls}",
    "bare_url": "see http://example.invalid/bare, HTTPS://example.invalid/up, www.example.invalid and "
                "me@example.invalid",
    "bidi": "report\u202egnp.exe \u202aa\u202b \u2066b\u2069 \u200e\u200f\u061c",
    "entity": "&lt;script&gt; &amp; &#60;b&#62; &copy;",
    "escaped": "\\<script> \\*not bold\\* \\\\ back",
    "math": "$x^2$ and $$y$$ cost $5 and $6",
    "emphasis": "*em* __strong__ ~~gone~~ `code` | a | b |",
    "time": "at 12:30:45 and 12:30[label]{.cls}",
}
BLOCK = "- item\n+ item\n1. one\n2) two\n# heading\nsetext\n===\n---\n> quote\n\n    code\n```\nfence\n```"
WORD_JOINER = "\u2060"
BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")

_MD = MarkdownIt("commonmark").enable(["table", "strikethrough"]).disable("text_join")
_BLOCK_TOKENS = {"heading_open", "bullet_list_open", "ordered_list_open", "blockquote_open", "hr", "code_block",
                 "fence", "table_open", "html_block"}
_ESCAPED = "\x00"  # stands for a backslash-escaped character in the raw view
# What Streamlit's front end does beyond CommonMark (StreamlitMarkdown.tsx and its remark plugins).
_DIRECTIVE = re.compile(r"(?<!:):[^\s!-/:-@\[-`{-~\x00]")  # remark-directive: a name starts with no space/punct.
_MATH = re.compile(r"(?<!\$)\$(?![\s$])[^$\n]*?[^\s$]\$(?!\d)|\$\$[\s\S]+?\$\$")
_DECODED = {
    "icon": re.compile(r":material_\w+:"),  # the source's ":material/" is rewritten to ":material_" first
    "logo": re.compile(r":streamlit:"),
    "shortcode": re.compile(r":(?:[A-Za-z_+-][\w+-]*|100|1234):"),
    "bare url": re.compile(r"(?i)(?:https?://|www(?=\.))[-.\w]"),
    "e-mail link": re.compile(r"[-.\w+]+@[-\w]+(?:\.[-\w]+)+"),
}


def _children(source: str) -> Iterable[tuple[list[Token], Token]]:
    tokens = _MD.parse(source.replace(":material/", ":material_"))
    for token in tokens:
        yield tokens, token


def markdown_problems(source: str, *, allowed_links: tuple[str, ...] = (), blocks: bool = False) -> list[str]:
    """What Streamlit would render from `source` other than plain text: HTML, images, links (other than those
    starting with `allowed_links`), directives, icons, shortcodes, bare-URL links, decoded entities, maths,
    bidi controls, and (with `blocks=True`) block structure such as lists and headings."""
    problems = [f"bidi control U+{ord(c):04X}" for c in BIDI.findall(source)]
    for _, token in _children(source):
        if token.type in _BLOCK_TOKENS and (token.type == "html_block" or blocks):
            problems.append(f"block {token.type}")
        if token.type != "inline":
            continue
        raw, decoded, in_link = [], [], False
        for child in token.children or []:
            if child.type in ("html_inline", "image"):
                problems.append(f"{child.type} {child.content or child.attrs}")
            elif child.type == "link_open":
                in_link = True
                href = str(child.attrs.get("href", ""))
                if not href.startswith(allowed_links) or not allowed_links:
                    problems.append(f"link to {href}")
            elif child.type == "link_close":
                in_link = False
            elif child.type == "text_special" and child.info == "entity":
                problems.append(f"entity {child.markup} decoded")
                raw.append(child.markup)
                decoded.append(child.content)
            elif child.type == "text_special":
                raw.append(_ESCAPED)
                decoded.append(child.content)
            elif child.type == "text":
                raw.append(child.content)
                decoded.append(child.content if not in_link else " ")
            else:  # code spans, emphasis markers, breaks: a boundary for Streamlit's text matchers
                raw.append(" ")
                decoded.append(" ")
        raw_text, decoded_text = "".join(raw), "".join(decoded)
        problems += [f"directive {m.group()!r}" for m in _DIRECTIVE.finditer(raw_text)]
        problems += [f"maths {m.group()!r}" for m in _MATH.finditer(raw_text)]
        for name, pattern in _DECODED.items():
            problems += [f"{name} {m.group()!r}" for m in pattern.finditer(decoded_text)]
    return problems


def rendered_text(source: str) -> str:
    """The text a reader sees (word joiners dropped, whitespace collapsed)."""
    parts: list[str] = []
    for _, token in _children(source):
        if token.type in ("code_block", "fence"):
            parts.append(token.content)
        for child in token.children or []:
            if child.type in ("text", "text_special", "code_inline"):
                parts.append(child.content)
            elif child.type in ("softbreak", "hardbreak"):
                parts.append(" ")
        parts.append(" ")
    return " ".join("".join(parts).replace(WORD_JOINER, "").split()).replace(":material_", ":material/")


def literal(text: str) -> str:
    """How a hostile string must read once shown: itself, with bidi controls made visible."""
    return " ".join(ui.show_bidi(text).split())


# ---------------------------------------------------------------- the checker is not vacuous


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_each_hostile_string_is_a_problem_when_rendered_raw(name: str) -> None:
    if name == "time":  # ":30" opens a directive: harmless alone, but the label and attributes after it vanish
        assert {p.split()[0] for p in markdown_problems(HOSTILE[name])} == {"directive"}
        return
    if name in ("escaped", "emphasis"):  # nothing dangerous, but characters of the text are not shown
        assert rendered_text(HOSTILE[name]) != literal(HOSTILE[name])
        return
    assert markdown_problems(HOSTILE[name]), name


def test_block_structure_is_a_problem_when_rendered_raw() -> None:
    found = " ".join(markdown_problems(BLOCK, blocks=True))
    for block in ("bullet_list_open", "ordered_list_open", "heading_open", "hr", "blockquote_open", "code_block",
                  "fence"):
        assert block in found


# ---------------------------------------------------------------- escape_markdown: data shown literally


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_escaped_data_renders_as_its_literal_text(name: str) -> None:
    shown = ui.escape_markdown(HOSTILE[name])
    assert markdown_problems(shown, blocks=True) == []
    assert rendered_text(shown) == literal(HOSTILE[name])  # once: no backslash, no lost character


def test_escaped_block_syntax_stays_one_paragraph_of_text() -> None:
    shown = ui.escape_markdown(BLOCK)
    assert markdown_problems(shown, blocks=True) == []
    assert rendered_text(shown) == literal(BLOCK)


def test_escaping_twice_would_show_backslashes() -> None:
    """Why the pages escape exactly once: the output of `escape_markdown` is Markdown, not text."""
    once = ui.escape_markdown(HOSTILE["entity"])
    assert rendered_text(once) == literal(HOSTILE["entity"])
    assert "\\" in rendered_text(ui.escape_markdown(once))


def test_bidi_controls_are_made_visible_not_applied() -> None:
    shown = ui.escape_markdown("invoice\u202egnp.exe")
    assert not BIDI.search(shown)
    assert rendered_text(shown) == "invoice‹U+202E›gnp.exe"


def test_word_joiners_only_where_streamlit_would_link_or_draw() -> None:
    """Ordinary text gets no invisible characters: only a colon before a name, `www.` and `x@y`."""
    assert WORD_JOINER not in ui.escape_markdown("Note: at 12:30 the total was 3 (see page 4).")
    assert ui.escape_markdown("http://a").count(WORD_JOINER) == 1


# What the answer composer puts around a value, and a letter or a full stop on either side.
AROUND = [("“", "”"), ("(", ")"), ("*", "*"), ("_", "_"), ("- ", " (2023-01-01)"), ("", ": article count 2"),
          ("lowest: ", " (1)"), ("", "."), ("x", "x"), ("", "a"), ("", "”.")]
EDGES = ["He said:", "go to www", "@example.invalid", "back\\", "bang!", "a <", "AT&", "-5 below", "1. first",
         "x:", ":red", "100:", "www.example.invalid", "me@example.invalid"]


@pytest.mark.parametrize("value", EDGES + sorted(HOSTILE.values()))
def test_escaped_data_stays_text_next_to_any_markdown(value: str) -> None:
    """A value escaped on its own is escaped for good: whatever the composer writes before or after it (a quote
    mark, a bracket, emphasis, a colon, a full stop), nothing at its ends combines into markup, and the UI's
    answer neutraliser finds nothing more to do (so nothing is escaped twice)."""
    escaped = escape_markdown(value, one_line=True)
    for before, after in AROUND:
        answer = f"{before}{escaped}{after}"
        assert markdown_problems(answer, blocks=before != "- ") == [], (before, after)  # "- " is a list item
        assert ui.safe_answer_markdown(answer) == answer, (before, after)
        assert literal(value) in rendered_text(answer)


def test_one_line_keeps_block_syntax_and_blank_lines_inside_a_list_item() -> None:
    line = f"- {escape_markdown(BLOCK, one_line=True)} (2023-01-01)\n- next"
    assert [t.type for t in _MD.parse(line)].count("list_item_open") == 2
    assert markdown_problems(line) == []
    assert rendered_text(line).startswith(literal(BLOCK))


# ---------------------------------------------------------------- safe_answer_markdown: answers are Markdown


@pytest.mark.parametrize("name", sorted(set(HOSTILE) - {"emphasis", "math", "escaped"}))
def test_hostile_text_inside_an_answer_is_neutralised(name: str) -> None:
    """Answers are Markdown by design (emphasis, lists, code); what a document smuggles in is not rendered."""
    answer = f"**Found 2 rows:**\n\n- {HOSTILE[name]}\n- plain"
    shown = ui.safe_answer_markdown(answer)
    assert markdown_problems(shown) == []
    assert "Found 2 rows:" in rendered_text(shown)


def test_answer_markdown_by_design_is_kept() -> None:
    shown = ui.safe_answer_markdown("**Bold** and *em*, `<b>code</b>` [1]\n\n- a\n- b")
    tokens = [t.type for t in _MD.parse(shown)]
    assert "bullet_list_open" in tokens
    children = [c.type for t in _MD.parse(shown) for c in t.children or []]
    assert {"strong_open", "em_open", "code_inline"} <= set(children)
    assert "<b>code</b>" in rendered_text(shown) and "[1]" in rendered_text(shown)


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_quotes_escaped_by_the_composer_are_shown_once(name: str) -> None:
    """The composer escapes what it inserts with the same function (`rag.answer.markdown`, which the UI
    re-exports); the UI leaves such an answer exactly as it is, so nothing is escaped twice."""
    quote = HOSTILE[name]
    answer = f"Here is what the documents say:\n1. “{escape_markdown(quote, one_line=True)}” — *A title* [1]"
    assert ui.escape_markdown is escape_markdown
    shown = ui.safe_answer_markdown(answer)
    assert shown == answer
    assert markdown_problems(shown) == []
    assert f"“{literal(quote)}”" in rendered_text(shown)


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_safe_answer_markdown_is_idempotent(name: str) -> None:
    once = ui.safe_answer_markdown(HOSTILE[name])
    assert ui.safe_answer_markdown(once) == once


@pytest.mark.parametrize("answer", [
    "a `x\n\n![i](http://example.invalid/i.png) `y",  # a blank line ends a code span
    "a ``x` ![i](http://example.invalid/i.png) `",  # unequal backtick runs are no code span
    "| `a | ![i](http://example.invalid/i.png) ` |\n|---|---|",  # table cells split before code spans
    "\\`![i](http://example.invalid/i.png)`",  # an escaped backtick opens nothing
])
def test_code_spans_that_markdown_would_not_form_are_not_trusted(answer: str) -> None:
    assert markdown_problems(ui.safe_answer_markdown(answer)) == []
