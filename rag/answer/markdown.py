"""The one Markdown escape for data, and the neutraliser for whole answers (Markdown by design).

Text from documents, SQL results (values and column aliases), models, exceptions and users is data. Where it
becomes Markdown it goes through `escape_markdown` exactly once: the answer composer escapes each value where it
inserts it, the UI escapes what it shows itself. A whole answer or message of the core (emphasis, lists, `code`
written by the composer or a language model) goes through `safe_answer_markdown`, which leaves what
`escape_markdown` produced alone, so nothing is escaped twice. Plain-text places (terminal output, select
options, table cells) only get `show_bidi`.

Streamlit's Markdown goes beyond CommonMark: `:red[...]` directives, `:material/name:` icons, `:smile:`
shortcodes, bare URLs and e-mail addresses turned into links. Icons, shortcodes and links are matched on the
*decoded* text, so a backslash does not stop them: such a colon is escaped (no directive can start there) and
followed by an invisible WORD JOINER (U+2060), which also goes inside `www.` and before `@`. The text reads the
same and nothing is rendered or fetched.
"""

from __future__ import annotations

import re
from typing import Any

WORD_JOINER = "\u2060"
# Embeddings, overrides, isolates and marks that reorder text ("…\u202egnp.exe" displayed as "…exe.png").
_BIDI_CONTROLS = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
# A colon followed by anything but a space or punctuation opens a text directive (`:name`, `:red[...]`,
# `:30{...}`): its label and attributes would vanish or turn into colour.
_NAME_COLON = r":(?=[^\s!-/:-@\[-`{-~])"
# Every ASCII character CommonMark, GFM or Streamlit gives a meaning inline (a backslash makes any of them
# literal), and every colon that could start a directive (one followed by a word joiner included).
_MARKDOWN_SPECIAL = re.compile(rf"([\\`*_\[\]<>#|!~$&]|{_NAME_COLON}|:(?=\u2060))")
# Block syntax only means something at the start of a line: indentation (code blocks; Markdown drops a
# paragraph line's indentation anyway), list bullets, setext underlines, ordered lists.
_LINE_INDENT = re.compile(r"^[ \t]+", re.MULTILINE)
_LINE_START_MARK = re.compile(r"^([-+=])", re.MULTILINE)
_LINE_START_NUMBER = re.compile(r"^(\d+)([.)])", re.MULTILINE)
# A colon (escaped or not) that could open an icon (`:material/`), a shortcode (`:smile:`, `:+1:`, `:8ball:`,
# `:100:`) or a URL (`http://`, `mailto:x`); `www.` and `x@y` (escaped or not) as links.
_COLON_OPENS = r"(?=[A-Za-z_+/-]|\d+[A-Za-z_]|100:|1234:)"
_COLON = rf"(?P<colon>\\?:{_COLON_OPENS})"
_WWW = r"(?P<www>(?i:\bwww)(?=\\?\.))"
_AT = rf"(?P<at>(?<=[^\s{WORD_JOINER}])\\?@)"
# The same in data, which holds no Markdown yet and whose neighbours are not known: a colon or a `www` that ends
# it, or an `@` that starts it, could form one with the Markdown put next to it.
_LINKABLE = re.compile(rf"(?P<colon>:(?:{_COLON_OPENS}|\Z))|(?P<www>(?i:\bwww)(?=\.|\Z))"
                       rf"|(?P<at>(?<![\s{WORD_JOINER}])@)")


def show_bidi(text: Any) -> str:
    """Bidirectional control characters replaced by a visible `‹U+202E›`, so text cannot reorder itself."""
    return _BIDI_CONTROLS.sub(lambda m: f"‹U+{ord(m.group()):04X}›", str(text if text is not None else ""))


def _break_linkables(match: re.Match[str]) -> str:
    kind, text = match.lastgroup, match.group()
    if kind == "colon":
        return ":" + WORD_JOINER  # escaped by `_MARKDOWN_SPECIAL` next
    if kind == "at":
        return WORD_JOINER + text
    return text + WORD_JOINER  # "www" + WJ


def escape_markdown(text: Any, *, one_line: bool = False) -> str:
    """Text from a document, a result, a model, an exception or a user, shown literally wherever it becomes
    Markdown (answers, bodies, captions, alerts, and the labels of widgets, expanders, metrics and badges).

    Apply it once, at the place where the text becomes Markdown: its output is Markdown, and escaping it again
    shows the backslashes. The output can be put next to any other Markdown (nothing at its ends can combine with
    what follows or precedes it). With `one_line`, runs of whitespace (line breaks included) become one space
    first, for text that sits inside one line: a sentence, a list item, emphasis.
    """
    text = show_bidi(text)
    if one_line:
        text = " ".join(text.split())
    text = _LINKABLE.sub(_break_linkables, text)
    escaped = _LINE_INDENT.sub("", _MARKDOWN_SPECIAL.sub(r"\\\1", text))
    escaped = _LINE_START_MARK.sub(r"\\\1", escaped)
    return _LINE_START_NUMBER.sub(r"\1\\\2", escaped)


# Markdown written by the answer composer or a language model. Left alone: backslash escapes (the composer
# escapes every value it inserts) and code spans on one line without a `|` (a blank line, a block start on the
# next line or a table cell would end them in Markdown, so those are not trusted).
# Neutralised: images, inline links and link reference definitions, raw HTML and autolinks, character
# references, directives/icons/shortcodes, bare URLs and e-mail addresses, bidi controls.
_ANSWER_TOKENS = re.compile(
    f"{_COLON}|{_WWW}|{_AT}|"  # first: an escaped colon or @ is still matched by icons and links
    r"(?P<escape>\\[\s\S])"
    f"|(?P<name>{_NAME_COLON})"
    r"|(?P<code>(?<!`)(?P<fence>`+)(?!`)[^\n|]+?(?<!`)(?P=fence)(?!`))"
    r"|(?P<image>!\[)"
    r"|(?P<definition>\[(?=[^\]\n]*\]:))"
    r"|(?P<link>\]\()"
    r"|(?P<tag><(?=[A-Za-z/!?]))"
    r"|(?P<entity>&(?=#?\w+;))"
    r"|(?P<bidi>[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069])"
)


def _neutralise(match: re.Match[str]) -> str:
    kind, text = match.lastgroup, match.group()  # `code` closes after its inner `fence`: lastgroup is "code"
    if kind in ("escape", "code"):
        return text
    if kind == "image":
        return "!\\["
    if kind == "definition":
        return "\\["
    if kind == "link":
        return "]\\("
    if kind in ("tag", "entity", "name"):
        return "\\" + text
    if kind == "bidi":
        return show_bidi(text)
    if kind == "colon":
        return "\\:" + WORD_JOINER
    return _break_linkables(match)


def safe_answer_markdown(answer: str) -> str:
    """An answer or a message of the core (Markdown by design: emphasis, lists, `code`) with what a document, a
    model or an exception text could smuggle into it neutralised: images, links, raw HTML, entities, Streamlit
    directives and icons, bare URLs, bidi controls.

    What `escape_markdown` produced (every value the composer inserts) is left as it is, so nothing is escaped
    twice; applying it twice gives the same text.
    """
    return _ANSWER_TOKENS.sub(_neutralise, answer or "")
