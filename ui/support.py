"""Pure helpers for the Streamlit pages: formatting traces, safe markdown, data-page SQL.

Nothing here imports streamlit; every function takes and returns plain data so it can be unit-tested
and so pages stay thin (read state, call `rag`, render).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any
from urllib.parse import urlparse

from rag.answer.markdown import WORD_JOINER as WORD_JOINER
from rag.answer.markdown import escape_markdown as escape_markdown
from rag.answer.markdown import safe_answer_markdown as safe_answer_markdown
from rag.answer.markdown import show_bidi as show_bidi
from rag.models import Chunk, Route, Span, Trace, Turn

# The sample table's curated example questions, grouped by the route they are expected to take; any other
# table gets questions built from its own nouns, columns and values (`example_questions`).
SAMPLE_EXAMPLES: dict[str, tuple[str, ...]] = {
    "sql": ("How many articles per year and category?", "Average word count per category",
            "List politics articles"),
    "vector": ("What do we have about children?", "Trends in fashion"),
    "hybrid": ("Technology articles about crypto in 2023", "Anything about judge Doo ley on 17 April 2023?",
               "Between March and May 2023, anything about Mother's Day in fashion?"),
}


def example_questions(*, sample: bool, rows: str, category: str | None, values: Sequence[str], date: str | None,
                      latest_year: str | None) -> dict[str, tuple[str, ...]]:
    """Example questions per route: the curated ones on the sample table, else questions that use this table's
    row noun, category column and its most common values, and its date, so nothing names another domain."""
    if sample:
        return SAMPLE_EXAMPLES
    category_word = category.lower().replace("_", " ").split()[-1] if category else None
    sql = [q for q in (f"How many {rows} per year and {category_word}?" if date and category_word else None,
                       f"How many {rows} per {category_word}?" if category_word else None,
                       f"How many {rows} per month?" if date else None,
                       f"List the 5 newest {rows}" if date else None) if q][:2] or [f"How many {rows} are there?"]
    top = list(values[:2])
    vector = [f"What do the {rows} say about {value}?" for value in top] or [f"What do the {rows} talk about?"]
    hybrid = [f"What do the {rows} from {latest_year} say about {value}?" for value in top] if latest_year else []
    return {"sql": tuple(sql), "vector": tuple(vector), "hybrid": tuple(hybrid)}


SAMPLE_FOLLOW_UPS = ("and in 2022?", "only politics", "by month instead", "which of those mention elections?",
                     "why SQL?")


def follow_up_examples(*, sample: bool, values: Sequence[str], latest_year: str | None,
                       date: str | None) -> tuple[str, ...]:
    """Follow-ups the welcome text shows: the sample's curated ones, else ones made of this table's own values and
    years (a ticket table is never told "only politics")."""
    if sample:
        return SAMPLE_FOLLOW_UPS
    earlier = f"and in {int(latest_year) - 1}?" if latest_year and latest_year.isdigit() and date else None
    return tuple(q for q in (earlier, f"only {values[0]}" if values else None,
                             "by month instead" if date else None, "which of those mention …?", "why SQL?") if q)


# SQL is shown as plain monospaced text: Streamlit's syntax highlighting uses a fixed palette (keywords, strings,
# numbers) at 2.4-3.5:1 on the code background, below WCAG AA's 4.5:1, and its colours cannot be themed.
SQL_CODE_LANGUAGE = "text"


def is_sql(code: str) -> bool:
    """Whether a code block shows a statement (the inspector's SQL) rather than a prompt or a reply."""
    return code.lstrip().upper().startswith(("SELECT", "WITH"))


ROUTE_BLURBS = {
    "sql": "Counts, averages and listings, answered with a table and a chart.",
    "vector": "Topics in the text, answered with quotes and their sources.",
    "hybrid": "A topic plus dates, ranges or names: SQL narrows the rows, then semantic search runs inside them.",
}

ROUTE_COLORS = {"sql": "blue", "vector": "green", "hybrid": "violet"}
ROUTE_ICONS = {"sql": ":material/table_chart:", "vector": ":material/travel_explore:",
               "hybrid": ":material/join_inner:"}
CHART_LABELS = {"bar": "Bar", "line": "Line", "grouped_bar": "Grouped bars", "stacked_bar": "Stacked bars",
                "metric": "Number"}

# Plain words for the spans the engines record (unknown names are shown as they are).
STEP_LABELS = {
    "validate": "Checked the question",
    "route": "Route chosen",
    "route+answer": "Routed and answered",
    "llm.read_question": "The language model read the question",
    "filters.infer": "Inferred metadata filters",
    "sql.write": "Wrote SQL for the structured part",
    "sql.nl_to_sql": "Wrote SQL",
    "sql.guard": "Checked the SQL with the guard",
    "sql.execute": "Ran the SQL (read-only)",
    "embed.query": "Embedded the question",
    "llamaindex.retrieve": "Retrieved chunks",
    "vector.search": "Searched the index",
    "synthesize": "Composed the answer",
    "llm.synthesize": "Language model wrote the answer",
    "llm.attempt": "Language model call",
    "fallback.offline": "Fell back to the offline engine",
    "followup": "Checked for a follow-up",
    "explain": "Explained an earlier answer (no query)",
    "llm.rewrite_followup": "Language model rewrote the follow-up as a question of its own",
    "understand": "Read the question",
    "keyword.search": "Searched the keyword index",
    "llm.restate_search": "Language model restated the question in the texts' words",
    "embed.restatement": "Embedded the restatement",
    "fusion": "Merged the rankings",
}

OFFLINE_MODEL = "offline"  # the model name the offline engine's rule-based SQL writer records (no language model)

# ---------------------------------------------------------------- text and links
#
# Text from documents, SQL results, models and users is data. Where it becomes Markdown it goes through
# `escape_markdown` exactly once (or, for a whole answer that is Markdown by design, through
# `safe_answer_markdown`); plain-text places (st.text, select options, table cells) only get `show_bidi`.
# The three live in the core (`rag.answer.markdown`), which escapes the values it puts into answers with the
# same function; see that module for what Streamlit's Markdown adds to CommonMark and how each is neutralised.

_INTERNAL_METADATA = {"content_hash", "n_chunks", "row_key", "chunk"}


def badge_label(text: Any) -> str:
    """`escape_markdown` for `st.badge`, which escapes square brackets itself (escaping them twice would
    show a backslash and let the bracket open a link)."""
    return escape_markdown(text).replace("\\[", "[").replace("\\]", "]")


def safe_url(url: Any) -> str | None:
    """The URL if it is a plain http(s) link, else None (no javascript:, data: or relative tricks)."""
    text = str(url or "").strip()
    try:
        parsed = urlparse(text)
    except ValueError:
        return None
    if (parsed.scheme in ("http", "https") and parsed.netloc and not any(c in text for c in " <>\"'()\\`")
            and text.isprintable()):  # no controls, no bidi overrides, no invisible format characters
        return text
    return None


def citation_markdown(number: int, title: str, url: str, published: str) -> str:
    """`[n] [Title](url) · 2023-04-17` with the title escaped; unsafe URLs are shown without a link."""
    label = escape_markdown(title or "(untitled)")
    link = safe_url(url)
    shown = f"[{label}]({link})" if link else label
    date = f" · {escape_markdown(str(published)[:10])}" if published else ""
    return f"**[{number}]** {shown}{date}"


def route_label(route: str | None) -> str:
    if not route:
        return "No route"
    try:
        return Route(route).label
    except ValueError:
        return str(route)


def turn_title(turn: Turn, number: int, width: int = 48) -> str:
    """Plain text (select-box options are not Markdown)."""
    question = turn.question if len(turn.question) <= width else turn.question[: width - 1] + "…"
    return f"#{number} · {route_label(turn.route)} · {show_bidi(question)}"


def provider_label(provider: str) -> str:
    return "offline engine" if provider == "offline" else provider


def format_ms(ms: float) -> str:
    return f"{ms / 1000:.2f} s" if ms >= 1000 else f"{ms:.0f} ms"


# ---------------------------------------------------------------- steps and waterfall


def step_lines(trace: Trace) -> list[str]:
    """One plain line per recorded step, in the order the steps started (for `st.status`)."""
    return [step_line(span) for span in sorted(trace.spans, key=lambda s: s.start_ms)]


def step_line(span: Span) -> str:
    label = STEP_LABELS.get(span.name, span.name)
    detail = _step_detail(span)
    mark = " — failed" if span.error else ""
    return f"{label}{': ' + detail if detail else ''} ({format_ms(span.duration_ms)}){mark}"


def _step_detail(span: Span) -> str:
    attrs = span.attributes
    if span.name in ("route", "route+answer") and attrs.get("route"):
        return route_label(str(attrs["route"]))
    if span.name == "sql.guard" and attrs.get("verdict"):
        return str(attrs["verdict"]).split(":")[0]
    if span.name == "sql.execute" and "rows" in attrs:
        return f"{attrs['rows']} rows"
    if span.name == "llamaindex.retrieve" and "nodes" in attrs:
        return f"{attrs['nodes']} chunks"
    if span.name == "followup":
        builds = attrs.get("kind") not in (None, "none") and attrs.get("builds_on") is not None
        return f"builds on #{attrs['builds_on']}" if builds else "a question of its own"
    return ""


def waterfall_rows(spans: Sequence[Span]) -> list[dict[str, Any]]:
    """Spans as rows for a horizontal-bar timeline: ordered by start, indented by nesting depth."""
    ordered = sorted(spans, key=lambda s: (s.start_ms, -s.duration_ms))
    rows: list[dict[str, Any]] = []
    open_ends: list[float] = []
    for number, span in enumerate(ordered, start=1):
        end = span.start_ms + span.duration_ms
        while open_ends and span.start_ms >= open_ends[-1] - 1e-6:
            open_ends.pop()
        depth = len(open_ends)
        open_ends.append(end)
        rows.append({
            "step": f"{number:02d} {'· ' * depth}{STEP_LABELS.get(span.name, span.name)}",  # the step list's words
            "name": span.name,
            "start_ms": round(span.start_ms, 2),
            "duration_ms": round(max(span.duration_ms, 0.01), 2),
            "duration": format_ms(span.duration_ms),
            "end_ms": round(end, 2),
            "depth": depth,
            "status": "error" if span.error else "ok",
            "details": _short_json(span.attributes),
        })
    return rows


def _short_json(value: Any, limit: int = 160) -> str:
    text = json.dumps(value, default=str, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ---------------------------------------------------------------- results, chunks, turns


def chunk_metadata(chunk: Chunk) -> dict[str, Any]:
    """A chunk's metadata without the indexer's bookkeeping keys."""
    return {k: v for k, v in chunk.metadata.items() if k not in _INTERNAL_METADATA and not k.startswith("author_")}


SEARCH_NAMES = {"dense": "dense", "keyword": "keyword", "restated_dense": "restated dense",
                "restated_keyword": "restated keyword"}


def search_places(row_key: str, rankings: dict[str, list[dict[str, str]]]) -> str:
    """Where each single search ranked a chunk's document in its own top k ("dense 2 · keyword —"): why the fused
    list holds it. Empty without single rankings (an SQL answer)."""
    places = []
    for name, ranking in rankings.items():
        keys = [entry.get("row_key") for entry in ranking]
        places.append(f"{SEARCH_NAMES.get(name, name)} {keys.index(row_key) + 1 if row_key in keys else '—'}")
    return " · ".join(places)


def score_fraction(score: float) -> float:
    return min(1.0, max(0.0, float(score or 0.0)))


def feedback_to_turn(thumbs: int | None) -> int | None:
    """`st.feedback('thumbs')` gives 1 (up) or 0 (down); a Turn stores +1 / -1."""
    if thumbs is None:
        return None
    return 1 if thumbs == 1 else -1


def feedback_to_widget(value: int | None) -> int | None:
    if value is None:
        return None
    return 1 if value > 0 else 0


def feedback_label(value: int | None) -> str:
    return {1: "helpful", -1: "not helpful"}.get(value or 0, "")


def turn_row(turn: Turn, number: int) -> dict[str, Any]:
    """One line of the Traces table (plain text cells)."""
    trace = turn.trace
    return {
        "#": number,
        "question": show_bidi(turn.question),
        "route": route_label(turn.route),
        "forced": "yes" if trace.forced_route else "",
        "latency_ms": round(trace.total_ms, 1),
        "tokens": trace.tokens["total"],
        "cost_usd": turn.cost_usd,
        "feedback": feedback_label(turn.feedback),
        "error": show_bidi(turn.error or ""),
        "asked_at": turn.created_at,
    }


# ---------------------------------------------------------------- the trace inspector's wording


def language_model_calls(trace: Trace) -> list[Any]:
    """The trace's calls to a language model; the offline engine's rule-based SQL writer records a call too (0
    tokens, no cost), which is no language model and is not listed."""
    return [call for call in trace.llm_calls if call.model != OFFLINE_MODEL]


def totals_markdown(turn: Turn) -> str:
    """`**342 ms** total`, with tokens and the estimated cost only when a language model was called."""
    line = f"**{format_ms(turn.trace.total_ms)}** total"
    calls = language_model_calls(turn.trace)
    if calls:
        line += f" · {len(calls)} language model call{'s' if len(calls) != 1 else ''} · " \
                f"{turn.trace.tokens['total']:,} tokens · ${turn.cost_usd:.4f} estimated"
    return line


SELECTION_FILTER_KEY = "row_key"  # the hybrid route's "search only these rows" filter (`Filter.value` says which)


def sql_views(turn: Turn) -> tuple[str | None, str, str | None]:
    """(SQL to show, guard verdict to show, SQL as run when it differs) for the inspector. The hybrid route's row
    selection shows the statement as written: the guard's LIMIT there is an internal bound (one more than the rows
    a search may take, to notice more), kept for the raw view."""
    outcome = turn.result
    if not outcome.sql:
        return None, "", None
    verdict = outcome.sql_verdict or "not checked"
    if outcome.restricted_row_keys is None:
        return outcome.sql, verdict, None
    written = next((str(span.attributes["sql"]) for span in reversed(turn.trace.spans)
                    if span.name == "sql.write" and span.attributes.get("sql")), outcome.sql)
    return written, verdict.split(" (LIMIT")[0], outcome.sql if written != outcome.sql else None


def search_filters(turn: Turn) -> tuple[list[Any], str | None]:
    """(the metadata filters to list, "16 rows selected by SQL" when the search was restricted to rows)."""
    filters = [f for f in turn.result.filters if f.key != SELECTION_FILTER_KEY]
    selection = next((str(f.value) for f in turn.result.filters if f.key == SELECTION_FILTER_KEY), None)
    if selection is None and turn.result.restricted_row_keys is not None:
        selection = f"{turn.result.restricted_row_keys:,} rows selected by SQL"
    return filters, selection


def citation_number(chunk: Chunk, citations: Sequence[Any]) -> int | None:
    """The [n] of the source `chunk` belongs to in the answer, or None when its document is not cited."""
    for number, citation in enumerate(citations, start=1):
        if (citation.row_key and citation.row_key == chunk.row_key) or (citation.url and citation.url == chunk.url):
            return getattr(citation, "number", 0) or number  # the number the answer cites it by
    return None


# ---------------------------------------------------------------- "Ask again as": the two turns side by side


def compared_turn(turn: Turn, turns: Sequence[Turn]) -> Turn | None:
    """For a question asked again with a forced route ("Ask again as"), the latest earlier turn with the same
    question and another route, to show beside it; None for any other turn. Derived from the turns themselves,
    so it holds for turns restored after a reload as well."""
    if not turn.trace.forced_route or turn not in turns:
        return None
    earlier = turns[: turns.index(turn)]
    return next((t for t in reversed(earlier) if t.question == turn.question and t.route != turn.route), None)


def comparison_facts(turn: Turn) -> dict[str, str]:
    """Plain text (not Markdown) for one side of the comparison: route, how it was chosen, the reading, the
    reason, what it found and its timings (total and the slowest steps, in the step list's words)."""
    reading = turn.result.interpretation
    slowest = sorted((s for s in turn.trace.spans if s.name not in ("route+answer", "route")),
                     key=lambda s: -s.duration_ms)[:3]
    result = turn.result.result
    if turn.error:
        found = "no answer: " + turn.error
    elif turn.route == Route.SQL.value and result is not None:
        found = f"{len(result.rows):,} row{'s' if len(result.rows) != 1 else ''}"
    else:
        found = f"{len(turn.citations)} source{'s' if len(turn.citations) != 1 else ''} cited, " \
                f"{len(turn.result.chunks)} chunk{'s' if len(turn.result.chunks) != 1 else ''} retrieved"
    return {
        "route": route_label(turn.route),
        "chosen": "forced by the user" if turn.trace.forced_route else "chosen by the router",
        "reading": reading.restatement() if reading is not None else "",
        "reason": turn.result.reason,
        "found": found,
        "total": format_ms(turn.trace.total_ms),
        "steps": " · ".join(f"{STEP_LABELS.get(s.name, s.name)} {format_ms(s.duration_ms)}" for s in slowest),
    }


def json_text(value: Any) -> str:
    """Pretty JSON for download buttons (dates and other objects as strings)."""
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)


def turns_json(turns: Iterable[Turn]) -> str:
    return json_text([t.to_dict() for t in turns])


def turn_json(turn: Turn) -> str:
    return json_text(turn.to_dict())


# ---------------------------------------------------------------- evaluation page


def eval_confusion(summary: dict[str, Any]) -> tuple[list[str], list[str], list[list[int]]]:
    """(expected labels, actual labels, counts) of the routing confusion matrix, for a heatmap."""
    confusion: dict[str, dict[str, int]] = summary.get("confusion", {})
    expected = list(confusion)
    actual: list[str] = []
    for row in confusion.values():
        actual += [label for label in row if label not in actual]
    return expected, actual, [[int(confusion[e].get(a, 0)) for a in actual] for e in expected]


def eval_route_rows(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """Routing accuracy and pass rate per expected route, long format for a grouped bar chart."""
    rows = []
    for route, figures in summary.get("by_route", {}).items():
        for measure, key in (("routing accuracy", "routing_accuracy"), ("pass rate", "pass_rate")):
            if figures.get(key) is not None:
                rows.append({"route": route_label(route), "measure": measure, "value": round(100 * figures[key], 1),
                             "cases": figures.get("cases", 0)})
    return rows


def eval_latency_rows(summary: dict[str, Any], group: str) -> list[dict[str, Any]]:
    """p50/p95 latency per route (`group='by_route'`) or per step (`group='by_step'`)."""
    rows = []
    for name, figures in summary.get("latency_ms", {}).get(group, {}).items():
        label = route_label(name) if group == "by_route" else name
        for percentile in ("p50", "p95"):
            if figures.get(percentile) is not None:
                rows.append({"name": label, "percentile": percentile, "ms": figures[percentile],
                             "n": figures.get("n", 0)})
    return rows


def eval_case_rows(cases: Iterable[Any]) -> list[dict[str, Any]]:
    """One line per scored case (an `rag.eval.CaseResult`)."""
    return [{"passed": bool(c.passed), "id": c.id, "question": c.question, "expected": "/".join(c.accepted_routes),
             "actual": c.actual_route or "none", "latency_ms": round(c.latency_ms, 1),
             "why": "; ".join(c.failure_reasons)} for c in cases]


# ---------------------------------------------------------------- column roles (Data page, chat welcome)

ROLE_WORDS = {"title": "title", "date": "date", "category": "category", "authors": "authors"}
SET_BY_LABELS = {"detected": "detected", "saved": "saved", "RAG_COLUMN_ROLES": "RAG_COLUMN_ROLES"}


def missing_roles_text(missing: Sequence[str], *, here: bool = False) -> str:
    """Markdown (no data in it) naming the important roles no column plays; `here` on the Data page itself."""
    names = [f"**{ROLE_WORDS.get(role, role)}**" for role in missing]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
    return (f"No column of this table is recognised as the {listed} of a row, so questions about "
            f"{'it' if len(names) == 1 else 'them'} cannot be answered yet. If the table has such a column, "
            f"give it its role {'below' if here else 'on the Data page'}.")


def role_changes(current: Iterable[Any], edited: dict[str, str]) -> dict[str, str]:
    """The columns whose role the user changed: {column: new role}, from the listed `current` columns (each
    with `.column` and `.role`) and the roles chosen on the page."""
    return {c.column: edited[c.column] for c in current if edited.get(c.column, c.role) != c.role}


def role_change_summary(change: dict[str, Any]) -> tuple[str, list[str]]:
    """(headline, detail lines) for a saved change (`RoleChange.to_dict()`); column names are escaped."""
    lines = [f"{escape_markdown(column, one_line=True)}: {before} → **{after}**"
             for column, before, after in change["changed"]]
    lines += [escape_markdown(line) for line in change["overridden"]]
    lines += [f"{escape_markdown(column, one_line=True)} reads “{escape_markdown(after, one_line=True)}” "
              f"(was “{escape_markdown(before, one_line=True)}”)"
              for column, before, after in change.get("relabelled", [])]
    if change["reindex"]:
        headline = "Roles saved and applied. The search index needs a sync: " + "; ".join(change["reindex"]) + "."
    elif change["changed"]:
        headline = "Roles saved and applied. Nothing to re-index: the stored chunks do not depend on these roles."
    elif change.get("relabelled"):
        headline = "Labels saved and applied: answers, readings and charts use them."
    else:
        headline = "Roles saved; no column's role changed."
    return headline, lines
