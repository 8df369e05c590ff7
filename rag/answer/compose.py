"""Offline answers: extractive quotes from retrieved chunks, and one sentence over SQL results.

Retrieved text, SQL values and column aliases, conditions and the question's topic are data: each is escaped
with `markdown.escape_markdown` (on one line) exactly where it is put into the answer, so images, links, raw
HTML, directives, icons, bare URLs, entities and bidi controls from the data are shown as text, never rendered,
and nothing in the data changes what is said around it. The rest of the answer is this module's own Markdown.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from rag.answer.markdown import escape_markdown
from rag.data.chunking import split_sentences
from rag.data.labels import COMPARED_VALUE, COMPARED_VERDICT, label_of
from rag.data.roles import row_noun
from rag.models import Chunk, Citation, QueryResult, and_list
from rag.understand.planner import zipf_of
from rag.understand.text_to_sql import GAP_COLUMNS
from rag.understand.vocabulary import STOPWORDS, WORD, plural, singular

MAX_QUOTES = 3
MAX_QUOTE_CHARS = 400


def _md(value: Any) -> str:
    """A value from the data (or an alias, a condition, the topic) as Markdown inside one line of the answer."""
    return escape_markdown(value, one_line=True)


def _terms(text: str) -> set[str]:
    words = [w.lower().strip("'") for w in WORD.findall(text)]
    words = [w[:-2] if w.endswith("'s") else w for w in words]
    terms = {w for w in words if w not in STOPWORDS and len(w) > 2}
    # "Doo ley" -> "dooley": adjacent fragments joined, so a split name still matches.
    terms |= _joined(words)
    return terms


def _joined(words: list[str]) -> set[str]:
    return {a + b for a, b in zip(words, words[1:], strict=False) if len(a) <= 5 and len(b) <= 5}


def _stem(term: str) -> str:
    """Crude stem for matching: 'trends'/'trending' -> 'trend', 'taxes' -> 'tax', 'batteries' -> 'batter'."""
    for suffix in ("ies", "ing", "es", "ed", "s"):
        if term.endswith(suffix) and len(term) - len(suffix) >= 3:
            return term[: -len(suffix)]
    return term


def _mentions(term: str, text: str, words: set[str]) -> bool:
    """Whether `text` mentions `term`: as a stem, or as a close misspelling ('crpyto' ~ 'crypto')."""
    if _stem(term) in text:
        return True
    return len(term) >= 5 and bool(difflib.get_close_matches(term, words, n=1, cutoff=0.8))


def _overlap(terms: set[str], sentence: str) -> float:
    if not terms:
        return 0.0
    lower = sentence.lower()
    hits = sum(1 for t in terms if t in lower or (len(t) > 5 and t[:5] in lower))
    return hits / len(terms)


NUMBER_QUESTION = re.compile(r"\b(how many|how much|what number|how long|how old|what year|when)\b", re.I)
DIGIT = re.compile(r"\d")


# Abbreviations after which a full stop does not end a sentence ("Ms. Achterberg", "Dr. Grennan", "St. Ives"):
# titles, months and a few business shorthands; an initial ("J.") or a dotted abbreviation ("U.S.", "e.g.") is
# recognised by its shape
# (capitalised, as they are written before a name or a figure; "vs." and "approx." in any case).
ABBREVIATIONS = frozenset({"mr", "mrs", "ms", "mx", "dr", "prof", "rev", "hon", "sr", "jr", "st", "mt", "gen", "gov",
                           "sen", "rep", "col", "lt", "sgt", "capt", "cmdr", "adm", "no", "nos", "inc", "ltd", "corp",
                           "co", "dept", "fig", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct",
                           "nov", "dec"})
LOWER_ABBREVIATIONS = frozenset({"vs", "approx", "cf"})
_LAST_WORD = re.compile(r"(?:^|[\s(\[“\"‘'])([A-Za-z][A-Za-z.]*)\.$")


def _ends_with_abbreviation(text: str) -> bool:
    match = _LAST_WORD.search(text)
    if not match:
        return False
    word = match.group(1)
    return ((word.lower() in ABBREVIATIONS and word[0].isupper()) or word.lower() in LOWER_ABBREVIATIONS
            or (len(word) == 1 and word.isupper())
            or bool(re.fullmatch(r"(?:[A-Za-z]\.)+[A-Za-z]", word)))


def quote_sentences(text: str) -> list[str]:
    """The sentences of `text` for quoting: `split_sentences`, joined again where a piece ended at an
    abbreviation ("Ms.", "Dr.", "U.S.", "J.") rather than at the end of a sentence."""
    sentences: list[str] = []
    for piece in split_sentences(text):
        if sentences and _ends_with_abbreviation(sentences[-1]):
            sentences[-1] += " " + piece
        else:
            sentences.append(piece)
    return sentences


_DOUBLE_QUOTES = re.compile(r'[“”"]')


def nested_quotes(sentence: str) -> str:
    """A sentence to put inside “…”: its own double quotation marks become single ones (‘…’), so a quote that
    starts with one does not open with two marks (“"Nobody..." → “‘Nobody...’)."""
    def single(match: re.Match[str]) -> str:
        mark, start = match.group(), match.start()
        if mark == "“" or (mark == '"' and (start == 0 or sentence[start - 1] in " ([—–-\u2014")):
            return "‘"
        return "’"
    return _DOUBLE_QUOTES.sub(single, sentence)


def best_sentences(question: str, chunks: Sequence[Chunk], limit: int = MAX_QUOTES,
                   wants_number: bool = False) -> list[tuple[str, Chunk]]:
    """The sentences that best answer `question`, one per document, chosen by chunk similarity plus word
    overlap (of the sentence, and a little of the document's title; plus a bonus for sentences with figures when
    the question asks for one), the most similar document always among them when more than one is quoted, and
    returned in the order of `chunks` (the retrieval's ranking, which the trace numbers): the most relevant
    document is quoted before weaker ones."""
    terms = _terms(question)

    def sentence_score(sentence: str) -> float:
        bonus = 0.15 if wants_number and DIGIT.search(sentence) else 0.0
        return _overlap(terms, sentence) + bonus

    scored: list[tuple[float, str, Chunk]] = []
    for chunk in chunks:
        sentences = quote_sentences(chunk.text) or [chunk.text]
        best = max(sentences, key=lambda s: (sentence_score(s), -abs(len(s) - 160)))
        title = 0.1 * _overlap(terms, chunk.title or "")
        scored.append((0.5 * chunk.score + 0.5 * sentence_score(best) + title, best, chunk))
    scored.sort(key=lambda item: item[0], reverse=True)
    picked: list[tuple[str, Chunk]] = []
    seen_rows: set[str] = set()
    for _, sentence, chunk in scored:
        if chunk.row_key in seen_rows:
            continue
        seen_rows.add(chunk.row_key)
        picked.append((sentence, chunk))
        if len(picked) == limit:
            break
    if limit > 1 and scored:  # the most similar document is always quoted, whatever its words
        closest = max(scored, key=lambda item: item[2].score)
        if closest[2].row_key not in {chunk.row_key for _, chunk in picked}:
            picked[-1] = (closest[1], closest[2])
    rank = document_numbers(chunks)
    return sorted(picked, key=lambda item: rank[item[1].row_key])


def document_numbers(chunks: Sequence[Chunk]) -> dict[str, int]:
    """{row_key: n}: the documents of `chunks` numbered 1, 2, ... in the order they first appear (the trace's
    numbers, when `chunks` come in the retrieval's order)."""
    return {row: number for number, row in enumerate(dict.fromkeys(c.row_key for c in chunks), start=1)}


# Above this similarity a chunk counts as relevant without any shared word. Calibrated with the floor
# (EngineContext.min_score) on the dev questions of every table: bench/results/retrieval_calibration.md.
STRONG_SCORE = 0.42


def is_relevant(topic: str, chunks: Sequence[Chunk], min_score: float) -> bool:
    """Relevant when the best chunk is very similar, or similar enough AND shares a topic word.

    One rule for every route, calibrated on the dev questions of all tables (answerable vs no-answer;
    bench/retrieval_calibration.py): below STRONG_SCORE one chunk must also mention the topic's words
    (stems and close misspellings count): all of one or two, else a fifth of them and at least two (long
    questions paraphrase); a split name joined counts ("Doo ley" -> "dooley").
    """
    if not chunks:
        return False
    best = max(c.score for c in chunks)
    if best >= STRONG_SCORE:
        return True
    if best < min_score:
        return False
    return mentions_topic(topic, chunks)


PHRASING_ZIPF = 5.0  # wordfreq Zipf frequency from which a topic word counts as phrasing (see mentions_topic)


def mentions_topic(topic: str, chunks: Sequence[Chunk]) -> bool:
    """Whether one chunk mentions the topic's words (see `is_relevant`); True when the topic has none."""
    words = [w.lower().strip("'") for w in WORD.findall(topic)]
    words = [w[:-2] if w.endswith("'s") else w for w in words]
    base = {w for w in words if w not in STOPWORDS and len(w) >= 3}
    # Very common English words ("problems", "complaints", "still", "news") are phrasing, not the subject: when the
    # topic has rarer words, those must be mentioned (calibrated with the thresholds, bench/retrieval_calibration.py).
    base = {w for w in base if zipf_of(w) < PHRASING_ZIPF} or base
    joined = _joined(words) - base
    if not base:
        return True
    required = len(base) if len(base) <= 2 else max(2, math.ceil(len(base) / 5))
    for chunk in chunks:
        text = f"{chunk.title} {chunk.text}".lower()
        chunk_words = set(WORD.findall(text))
        hits = sum(1 for t in base if _mentions(t, text, chunk_words))
        hits += sum(1 for t in joined if t in text)
        if hits >= min(required, len(base)):
            return True
    return False


def topic_words(topic: str) -> list[str]:
    """The topic's words `mentions_topic` counts (very common words only when there is nothing rarer), in order."""
    words = [w.lower().strip("'") for w in WORD.findall(topic)]
    words = [w[:-2] if w.endswith("'s") else w for w in words]
    base = [w for w in dict.fromkeys(words) if w not in STOPWORDS and len(w) >= 3]
    return [w for w in base if zipf_of(w) < PHRASING_ZIPF] or base


def uncovered_words(topic: str, chunk: Chunk) -> list[str]:
    """The topic's words (`topic_words`) that `chunk` does not mention, in the topic's order; [] when it mentions
    them all or the topic has none."""
    base = topic_words(topic)
    text = f"{chunk.title} {chunk.text}".lower()
    chunk_words = set(WORD.findall(text))
    return [w for w in base if not _mentions(w, text, chunk_words)]


def retrieval_answer(question: str, topic: str, chunks: Sequence[Chunk], *, date_key: str | None,
                     min_score: float, relevant: bool | None = None) -> tuple[str, list[Citation]]:
    """Quote the best sentences with numbered citations, or say plainly that nothing relevant was found
    (`relevant`: the caller's decision; by default `is_relevant`).

    `chunks` come in the retrieval's order; a citation's number is its document's number in that order (the
    number the trace shows), and the quotes follow that order."""
    if relevant is None:
        relevant = is_relevant(topic or question, chunks, min_score)
    if not relevant:
        subject = f" about “{_md(topic)}”" if topic else ""
        return (f"I found nothing relevant{subject} in the documents searched "
                f"(best similarity {max((c.score for c in chunks), default=0):.2f}, threshold {min_score:.2f})."), []
    numbers = document_numbers(chunks)  # the trace numbers the retrieved documents in this order
    quotes = best_sentences(topic or question, [c for c in chunks if c.score >= min_score],
                            wants_number=bool(NUMBER_QUESTION.search(question)))
    citations: list[Citation] = []
    lines = [f"Here is what the documents say{' about “' + _md(topic) + '”' if topic else ''}:"]
    for sentence, chunk in quotes:
        number = numbers[chunk.row_key]
        citation = chunk.citation(date_key or "")
        citation.number = number
        citations.append(citation)
        text = sentence if len(sentence) <= MAX_QUOTE_CHARS else sentence[:MAX_QUOTE_CHARS].rsplit(" ", 1)[0] + " …"
        dated = f", {_md(citation.published_date[:10])}" if citation.published_date else ""
        lines.append(f"- “{_md(nested_quotes(text))}” — *{_md(chunk.title)}*{dated} [{number}]")
    return "\n".join(lines), citations


# ---------------------------------------------------------------- SQL results

VALUE_PHRASES = (
    (re.compile(r"^avg_(.+)$"), "the average {name} is {value}"),
    (re.compile(r"^median_(.+)$"), "the median {name} is {value}"),
    (re.compile(r"^total_(.+)$"), "the total {name} is {value}"),
    (re.compile(r"^max_(.+)$"), "the highest {name} is {value}"),
    (re.compile(r"^min_(.+)$"), "the lowest {name} is {value}"),
    (re.compile(r"^range_(.+)$"), "the highest {name} is {value} more than the lowest"),
    (re.compile(r"^share_pct$"), "the share is {value}%"),
    (re.compile(r"^(.+)_count$"), "there are {value} matching {name}"),
)
# "above_800": whether an average passes a bound ("do sports pieces average over 800 words"), 'yes' or 'no'
VERDICT_NAME = re.compile(r"^(above|below|at_least|at_most|exactly)_(\d[\d_]*)$")
# columns that hold a computed value, not a group's name ("avg_rating", "review_count"; of two compared values,
# "article_count (2023-Q2)", their "difference", and "2023-Q2 more than 2023-Q1": 'yes' or 'no')
VALUE_NAME = re.compile(r"^(?:avg_|median_|total_|max_|min_|range_).+$|^share_pct$|^.+_count$")
CONTRAST_NAME = re.compile(rf"^(?:(?:avg_|total_)[a-z0-9_]+ \(.+\)|[a-z0-9_]+_count \(.+\)|(?:difference|increase|"
                           rf"decrease|change)(?:_pct)?|ratio)$|{COMPARED_VERDICT.pattern}")
TIED_SHOWN = 3  # tied groups named in a sentence; the rest are counted


EMPTY_GROUP = "(no value)"  # how the group of rows with an empty or NULL grouping value is named in a sentence


def _format(value: Any) -> str:
    """A result cell as Markdown: numbers as figures (digits, commas, a point, a sign, `nan`/`inf`: nothing
    Markdown reads in the middle of a sentence), anything else escaped."""
    if isinstance(value, float) and math.isfinite(value):
        # (two decimals at most, as the SQL rounds averages: a difference of 0.04 is not "0.0")
        return f"{value:,.2f}".rstrip("0").rstrip(".") if value != int(value) else f"{int(value):,}"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float | Decimal):
        return str(value)
    return _md(value)


def _value_sentence(column: str, value: Any, labels: Mapping[str, str], table: str) -> str:
    if column not in labels and CONTRAST_NAME.match(column):  # "number of articles (2023-Q2): 58"
        return f"{_md(label_of(column, labels, table))}: {_format(value)}"
    verdict = VERDICT_NAME.match(column) if column not in labels else None
    if verdict:
        return f"{verdict.group(1).replace('_', ' ')} {verdict.group(2).replace('_', '.')}: {_format(value)}"
    for pattern, template in VALUE_PHRASES if column not in labels else ():  # a table column is no alias
        match = pattern.match(column)
        if match:
            part = match.group(1) if match.groups() else column
            counted = template.startswith("there are")  # "article_count": the rows counted, not a column
            name = part.replace("_", " ") if counted else label_of(part, labels, table)
            if counted:  # ("76 matching counterparties", "1 matching author")
                name = name if value == 1 else plural(name)
                template = "there is {value} matching {name}" if value == 1 else template
            return template.format(name=_md(name), value=_format(value))
    return f"{_md(label_of(column, labels, table))} is {_format(value)}"


def _of_whole(values: Mapping[str, Any], whole: str, labels: Mapping[str, str], table: str) -> str:
    """" (2 of 10 tickets)": the part's rows and the whole's rows a share was taken of."""
    counted = _counted(whole, values[whole], labels, table) or _format(values[whole])
    return f" ({_format(values[f'matching_{whole}'])} of {counted})"


def _counted(column: str, value: Any, labels: Mapping[str, str], table: str) -> str:
    """A count of rows as words ("18 articles", "1 ticket"); "" for any other value."""
    label = label_of(column, labels, table)
    if column in labels or not label.startswith("number of ") or not isinstance(value, int):
        return ""
    noun = label.removeprefix("number of ")
    return f"{_format(value)} {_md(singular(noun) if value == 1 else noun)}"


def _group_label(row: Sequence[Any]) -> str:
    """The group's values; a group of rows with no value ("reviews without a department") reads "(no value)"."""
    return ", ".join(EMPTY_GROUP if v is None or isinstance(v, str) and not v.strip() else _format(v)
                     for v in row[:-1])


def _extreme(rows: list[Sequence[Any]], multi: bool) -> str:
    """The groups sharing one extreme value, all of them named when few: "2023, technology (16)", "Ann Lee and
    Li Wei (2 each)", "1, shared by 9 groups (1970, fashion; 1970, sports; 2001, travel; and 6 more)"."""
    value = _format(rows[0][-1])
    names = [_group_label(r) for r in rows]
    joiner = "; " if multi else ", "
    if len(names) == 1:
        return f"{names[0]} ({value})"
    if len(names) <= TIED_SHOWN:
        return f"{joiner.join(names[:-1])} and {names[-1]} ({value} each)"
    return (f"{value}, shared by {len(names)} groups ({joiner.join(names[:TIED_SHOWN])}{joiner}"
            f"and {len(names) - TIED_SHOWN} more)")


def sql_answer(result: QueryResult, conditions: str, *, title_col: str | None, url_col: str | None,
               date_col: str | None, labels: Mapping[str, str] | None = None,
               table: str = "", total: int | None = None) -> tuple[str, list[Citation]]:
    """One sentence over the rows (the table itself is shown by the UI), plus citations for listed rows.

    Columns are named by their labels (`labels`, {column: label}; else derived from the names of the columns and
    of the `table`): "24 groups by year and category". An extreme shared by several groups names them all (or
    counts them) instead of picking one."""
    labels = labels or {}
    where = f" ({_md(conditions)})" if conditions else ""
    if not result.rows:
        return f"No rows match this question{where}.", []
    columns = result.columns
    if tuple(columns) == GAP_COLUMNS:
        return _gap_answer(result, where, table), []
    if len(result.rows) == 1 and all(VALUE_NAME.match(c) or VERDICT_NAME.match(c) or CONTRAST_NAME.match(c)
                                     for c in columns):
        # one value ("the average word count is 789.3"), or several ("…; above 800: no"); a share with its counts
        # ("the share is 20% (2 of 10 tickets)")
        values = dict(zip(columns, result.rows[0], strict=True))
        whole = next((c for c in columns if f"matching_{c}" in values), None)
        phrases = [_value_sentence(c, v, labels, table) + (_of_whole(values, whole, labels, table)
                                                           if c == "share_pct" and whole else "")
                   for c, v in values.items() if not (whole and c in (whole, f"matching_{whole}"))]
        sentence = "; ".join(phrases)
        return sentence[0].upper() + sentence[1:] + f"{where}.", []
    if len(result.rows) == 1 and len(columns) == 1:
        sentence = _value_sentence(columns[0], result.rows[0][0], labels, table)
        return sentence[0].upper() + sentence[1:] + f"{where}.", []
    # (rows grouped by their title, "which headline was used twice": a title and a number per group)
    per_title = len(columns) == 2 and columns[0] == title_col and all(isinstance(r[1], int | float)
                                                                      for r in result.rows)
    if title_col in columns and not per_title:
        return _listing_answer(result, where, title_col, url_col, date_col, table, total)
    if len(result.rows) > 1 and columns[-1] not in labels and COMPARED_VERDICT.match(columns[-1]) and all(
            r[-1] in ("yes", "no") for r in result.rows):
        # ("for each quarter, 2023 versus 2022, and in which quarters was 2023 lower": the groups where it holds)
        named_by = [i for i, c in enumerate(columns) if not VALUE_NAME.match(c) and not CONTRAST_NAME.match(c)]
        held = [_group_label([*(r[i] for i in named_by), None]) for r in result.rows if r[-1] == "yes"]
        verdict = _md(columns[-1])
        named = f": {_md(and_list(held))}" if held else ""
        return f"{verdict} in {len(held)} of {len(result.rows)} groups{named}{where}.", []
    computed = [i for i, c in enumerate(columns) if VALUE_NAME.match(c) and c != "share_pct"
                and not c.startswith("matching_") and c not in labels]
    if 2 <= len(computed) < len(columns) and len(result.rows) == 1 and all(
            isinstance(result.rows[0][i], int | float) for i in computed):
        # "Verified Buyer: 113 reviews, average rating 3.55": one group (the top one) with every value computed for
        # it (the last value alone hid what it was ranked by: "Verified Buyer: average rating 3.55")
        row = result.rows[0]
        name = _group_label([row[i] for i in range(len(columns)) if i not in computed] + [None])
        values = ", ".join(_counted(columns[i], row[i], labels, table)
                           or f"{_md(label_of(columns[i], labels, table))} {_format(row[i])}" for i in computed)
        return f"{name}: {values}{where}.", []
    # the sentence names the groups and the last value; another value beside it (each group's rows, shown with a
    # size test; the two values a difference is of) is for the table
    kept = [i for i, c in enumerate(columns) if i == len(columns) - 1
            or not VALUE_NAME.match(c) and not (c not in labels and CONTRAST_NAME.match(c))]
    columns = [columns[i] for i in kept]
    numeric = [[r[i] for i in kept] for r in result.rows if isinstance(r[-1], int | float)]
    more = " (row limit reached; more exist)" if result.row_limit_hit else ""
    if not numeric or len(columns) < 2:
        return f"{len(result.rows)} rows{where}{more}.", []
    top_value = max(r[-1] for r in numeric)
    low_value = min(r[-1] for r in numeric)
    measure = _md(label_of(columns[-1], labels, table))
    if top_value == low_value:
        names = [_group_label(r) for r in numeric]
        counted = _counted(columns[-1], top_value, labels, table)  # "18 articles" reads better than a measure
        if len(names) == 1:
            return f"{names[0]}: {counted or f'{measure} {_format(top_value)}'}{where}{more}.", []
        tie = f"tie with {counted} each" if counted else f"tie on {measure}: {_format(top_value)} each"
        return f"{', '.join(names[:-1])} and {names[-1]} {tie}{where}{more}.", []
    multi = len(columns) > 2
    groups = _md(and_list([label_of(c, labels, table) for c in columns[:-1]]))
    top = _extreme([r for r in numeric if r[-1] == top_value], multi)
    low = _extreme([r for r in numeric if r[-1] == low_value], multi)
    return f"{len(result.rows)} groups by {groups}{where}{more}; highest {measure}: {top}; lowest: {low}.", []


def _gap_answer(result: QueryResult, where: str, table: str) -> str:
    """"The longest gap is 6 days: from “A” (2024-03-27) to “B” (2024-04-02), 5 days with no tickets between them"
    (each tied gap named)."""
    noun = row_noun(table) if table else "rows"
    gaps = [f"from “{_md(earlier)}” ({str(earlier_date)[:10]}) to “{_md(later)}” ({str(later_date)[:10]})"
            for earlier, earlier_date, later, later_date, *_ in result.rows]
    days, empty = result.rows[0][4], result.rows[0][5]
    shared = f" ({len(gaps)} gaps of that length)" if len(gaps) > 1 else ""
    return (f"The longest gap is {_format(days)} days{shared}: {'; '.join(gaps)}, {_format(empty)} days with no "
            f"{noun} between them{where}.")


def nothing_to_rank(result: QueryResult, conditions: str, group: str) -> str:
    """An empty ranking of how far each group's value moved ("which section's average rose the most between H1 and
    H2" when H2 has no rows): no group has a value on both sides, named by the compared columns' labels."""
    where = f" ({_md(conditions)})" if conditions else ""
    sides = [match.group(2) for column in result.columns if (match := COMPARED_VALUE.match(column))]
    both = f"both {_md(sides[0])} and {_md(sides[1])}" if len(sides) == 2 else "both compared periods"
    return f"No {_md(group)} has a value in {both}, so none can be ranked by how far it moved{where}."


def groups_without_answer(result: QueryResult, conditions: str, group: str, noun: str) -> str:
    """The groups none of whose rows match ("which agents have never had an urgent ticket"), named; or that every
    group has such rows. `group` is the grouping's label, `noun` the table's row noun."""
    where = f" ({_md(conditions)})" if conditions else ""
    if not result.rows:
        return f"Every {_md(group)} has at least one matching {_md(singular(noun))}{where}."
    # (each one's number of rows, when it was asked beside: "Priya Natarajan (10 tickets)")
    counted = len(result.columns) > 1 and result.columns[-1].endswith("_count")
    names = [_md(str(row[0])) + (f" ({_format(row[-1])} {_md(noun if row[-1] != 1 else singular(noun))})"
                                 if counted else "") for row in result.rows]
    shown = and_list(names[:TIED_SHOWN * 2]) + (f" and {len(names) - TIED_SHOWN * 2} more"
                                                if len(names) > TIED_SHOWN * 2 else "")
    groups = _md(group if len(names) == 1 else plural(group))
    return f"{len(names)} {groups} without any matching {_md(noun)}{where}: {shown}."


def _listing_answer(result: QueryResult, where: str, title_col: str, url_col: str | None,
                    date_col: str | None, table: str, total: int | None = None) -> tuple[str, list[Citation]]:
    """How many rows were found; the rows themselves are the citations (listed once, with their links, under
    Sources) and the table, so the answer does not repeat their titles. `total`: the number of matching rows when
    the listing shows only the first of them."""
    index = {name: i for i, name in enumerate(result.columns)}
    citations = []
    for row in result.rows[:10]:
        title = str(row[index[title_col]])
        url = str(row[index[url_col]]) if url_col in index else ""
        day = str(row[index[date_col]])[:10] if date_col in index else ""
        citations.append(Citation(title, url, day))
    count = len(result.rows)
    noun = row_noun(table) if table else "rows"
    noun = noun if count != 1 else singular(noun)
    if total is not None and total > count:  # ("articles published q1 2023?": 56 match, the first 50 listed)
        sentence = (f"Found {total:,} {_md(noun)}{where}; the first {count} are in the table and the first "
                    f"{len(citations)} under Sources")
        return sentence + ".", citations
    sentence = (f"Found {count} {_md(noun)}{where}"
                + (" (row limit reached; more exist)" if result.row_limit_hit else ""))
    if count > len(citations):
        sentence += f"; the first {len(citations)} are listed under Sources, all {count} in the table"
    return sentence + ".", citations
