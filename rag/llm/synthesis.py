"""Grounded answers written by the LLM from retrieved documents or SQL rows placed inside delimiters, as data."""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape
from typing import Any

from rag import tracing
from rag.data.roles import row_noun
from rag.llm.prompts import (
    CHUNKS_TEMPLATE,
    DATA_RULES,
    MAX_CELL_CHARS,
    MAX_CONTEXT_CHARS,
    MAX_DOCUMENT_CHARS,
    MAX_PROMPT_ROWS,
    ROWS_TEMPLATE,
)
from rag.models import Chunk, LLMCall, QueryResult

DEFAULT_TOKEN_BUDGET = 1_500  # prompt tokens of one answer (setting RAG_SYNTHESIS_TOKENS)
MIN_PASSAGE_TOKENS = 40  # a passage shorter than this is not worth sending
SENTENCE_END = re.compile(r"(?<=[.!?])\s+")

# Tags of our delimiters, written inside data: the '<' is replaced so the data cannot close its block.
_DELIMITER_TAG = re.compile(r"<(\s*/?\s*(?:documents?|rows?|question)\b)", re.IGNORECASE)
_PARENS = r"\((?:[^()\n]|\([^()\n]*\))*\)"  # a link target, allowing one level of nested parentheses
_MD_IMAGE = re.compile(r"!\[([^\]\n]*)\]\s*(?:" + _PARENS + r"|\[[^\]\n]*\])")
_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)
_HTML_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>")
_UNSAFE_LINK = re.compile(r"\[([^\]\n]*)\]\(\s*(?:javascript|data|vbscript|file):(?:[^()\n]|\([^()\n]*\))*\)",
                          re.IGNORECASE)


def neutralise_delimiters(text: str) -> str:
    """Data text that cannot open or close one of the prompt's delimiter tags."""
    return _DELIMITER_TAG.sub(r"&lt;\1", text)


def sanitize_answer(text: str) -> str:
    """The LLM's answer, safe to render as markdown: no images, no raw HTML, no script/data links."""
    text = _MD_IMAGE.sub(lambda m: f"[image: {m.group(1)}]" if m.group(1).strip() else "", text)
    text = _HTML_COMMENT.sub("", text)
    text = _HTML_TAG.sub("", text)
    text = _UNSAFE_LINK.sub(r"\1", text)
    return text.strip()


class LLMSynthesizer:
    """Grounded answers: retrieved documents or SQL rows go inside delimiters, as data, never instructions."""

    def __init__(self, llm: Any, *, table: str = "", date_key: str | None = None, max_rows: int = MAX_PROMPT_ROWS,
                 token_budget: int = DEFAULT_TOKEN_BUDGET) -> None:
        self.llm = llm
        self.table = table or "the table"
        self.rows = row_noun(table) if table else "rows"
        self.date_key = date_key
        self.max_rows = max_rows
        self.token_budget = token_budget

    # ------------------------------------------------------------ prompts

    def chunks_prompt(self, question: str, chunks: Sequence[Chunk]) -> str:
        return self._chunks_prompt(question, chunks)[0]

    def _chunks_prompt(self, question: str, chunks: Sequence[Chunk]) -> tuple[str, dict[str, int]]:
        """The prompt with the passages that fit the token budget, best first, each trimmed to the sentences
        that share most words with the question when it does not fit whole; and what was left out."""
        empty = CHUNKS_TEMPLATE.format(rules=DATA_RULES.format(tag="documents", what="documents"), documents="",
                                       question=neutralise_delimiters(question), table=self.table, rows=self.rows)
        remaining = self.token_budget - tracing.estimate_tokens(empty)
        # Each document keeps its place among the retrieved ones (the number the trace shows), also when one
        # before it is left out for room, so the model's [n] is the trace's number.
        numbers = {key: number for number, key in enumerate(
            dict.fromkeys(chunk.row_key or chunk.url or chunk.title for chunk in chunks), start=1)}
        parts: list[str] = []
        stats = {"passages": 0, "trimmed": 0, "left_out": 0}
        chars = MAX_CONTEXT_CHARS
        for chunk in chunks:
            text = neutralise_delimiters(chunk.text.strip())[:min(MAX_DOCUMENT_CHARS, max(chars, 0))]
            attributes = f'id="{numbers[chunk.row_key or chunk.url or chunk.title]}" title="{_attr(chunk.title)}"'
            if day := self._date_of(chunk):
                attributes += f' date="{_attr(day)}"'
            room = remaining - tracing.estimate_tokens(f"<document {attributes}>\n\n</document>\n")
            if text and tracing.estimate_tokens(text) > room:
                text = best_sentences(text, question, max_chars=room * 4)
                stats["trimmed"] += bool(text)
            if not text or room < MIN_PASSAGE_TOKENS:
                stats["left_out"] += 1
                continue
            part = f"<document {attributes}>\n{text}\n</document>"
            remaining -= tracing.estimate_tokens(part + "\n")
            chars -= len(text)
            parts.append(part)
            stats["passages"] += 1
        prompt = CHUNKS_TEMPLATE.format(rules=DATA_RULES.format(tag="documents", what="documents"),
                                        documents="\n".join(parts), question=neutralise_delimiters(question),
                                        table=self.table, rows=self.rows)
        return prompt, stats

    def rows_prompt(self, question: str, result: QueryResult, reading: str = "") -> str:
        return self._rows_prompt(question, result, reading)[0]

    def _rows_prompt(self, question: str, result: QueryResult, reading: str = "",
                     headers: Sequence[str] | None = None) -> tuple[str, dict[str, int]]:
        """Rows as a compact table, as many as fit the token budget (at most `max_rows`), after how the question
        was read (the restatement the user sees), so the answer speaks of what was computed; the columns under
        their `headers` (the labels the user reads, "Category" rather than `article_category`) when given."""
        columns = list(headers) if headers and len(headers) == len(result.columns) else result.columns
        if reading:  # built from the question's words and the table's values: data, no tag can open or close
            reading = ("\nWhat the SQL computed (how the question was read): "
                       + " ".join(reading.replace("<", "&lt;").split())[:600] + "\n")
        header = "| " + " | ".join(_cell(c) for c in columns) + " |"
        lines = [header, "|" + "---|" * len(columns)]
        total = f"{len(result.rows)}+" if result.row_limit_hit else str(len(result.rows))

        def render(shown: int) -> str:
            return ROWS_TEMPLATE.format(rules=DATA_RULES.format(tag="rows", what="rows"),
                                        columns=_attr(", ".join(columns)), total=total, shown=shown,
                                        table="\n".join(lines), question=neutralise_delimiters(question),
                                        table_name=self.table, rows=self.rows, reading=reading)

        used = tracing.estimate_tokens(render(0))
        for row in result.rows[: self.max_rows]:
            line = "| " + " | ".join(_cell(v) for v in row) + " |"
            if len(lines) > 2 and used + tracing.estimate_tokens(line + "\n") > self.token_budget:
                break
            lines.append(line)
            used += tracing.estimate_tokens(line + "\n")
        shown = len(lines) - 2
        return render(shown), {"rows_shown": shown, "rows_left_out": len(result.rows) - shown}

    # ------------------------------------------------------------ answers

    def from_chunks(self, question: str, chunks: list[Chunk]) -> str:
        with tracing.span("llm.synthesize", kind="documents", documents=len(chunks)) as attrs:
            prompt, stats = self._chunks_prompt(question, chunks)
            attrs.update(stats, budget_tokens=self.token_budget, prompt_tokens=tracing.estimate_tokens(prompt))
            answer = sanitize_answer(self._complete(prompt))
            attrs["answer_chars"] = len(answer)
        return answer or "The language model returned no answer from these documents; see the sources below."

    def from_rows(self, question: str, result: QueryResult, fallback: str, reading: str = "",
                  headers: Sequence[str] | None = None) -> str:
        with tracing.span("llm.synthesize", kind="rows", rows=len(result.rows)) as attrs:
            prompt, stats = self._rows_prompt(question, result, reading, headers)
            attrs.update(stats, budget_tokens=self.token_budget, prompt_tokens=tracing.estimate_tokens(prompt))
            answer = sanitize_answer(self._complete(prompt))
            attrs["answer_chars"] = len(answer)
            attrs["used_fallback"] = not answer
        return answer or fallback

    def _complete(self, prompt: str) -> str:
        """The LLM's reply; streamed to the recorder's `on_token` (the UI) when one listens."""
        recorder = tracing.current()
        if recorder is None or recorder.on_token is None:
            return str(self.llm.complete(prompt).text or "")
        calls_before = len(recorder.trace.llm_calls)
        started = recorder.now_ms()
        text = ""
        for piece in self.llm.stream_complete(prompt):
            text += piece.delta or ""
            recorder.on_token(sanitize_answer(text))
        if len(recorder.trace.llm_calls) == calls_before:  # the LLM emitted no completion event for a stream
            recorder.add_llm_call(LLMCall(purpose="llm.synthesize", model=str(getattr(self.llm, "model", "")),
                                          prompt=prompt, response=text, prompt_tokens=tracing.estimate_tokens(prompt),
                                          completion_tokens=tracing.estimate_tokens(text),
                                          duration_ms=round(recorder.now_ms() - started, 3)))
        return text

    def _date_of(self, chunk: Chunk) -> str:
        if self.date_key:
            return str(chunk.metadata.get(self.date_key, ""))
        for key, value in chunk.metadata.items():
            if "date" in key.lower() and isinstance(value, str):
                return value
        return ""


def best_sentences(text: str, question: str, *, max_chars: int) -> str:
    """The sentences of `text` that share most words with the question, in their original order, within
    `max_chars` ('' when not even one fits)."""
    sentences = [s for s in SENTENCE_END.split(text) if s.strip()]
    words = {w for w in re.findall(r"[a-z0-9]{4,}", question.lower())}
    ranked = sorted(range(len(sentences)),
                    key=lambda i: (-len(words & set(re.findall(r"[a-z0-9]{4,}", sentences[i].lower()))), i))
    chosen: list[int] = []
    used = 0
    for index in ranked:
        if used + len(sentences[index]) + 1 > max_chars:
            continue
        chosen.append(index)
        used += len(sentences[index]) + 1
    return " ".join(sentences[i].strip() for i in sorted(chosen))


def _attr(value: Any) -> str:
    return escape(" ".join(str(value).split()), quote=True)


def _cell(value: Any) -> str:
    text = "" if value is None else " ".join(str(value).split())
    if len(text) > MAX_CELL_CHARS:
        text = text[:MAX_CELL_CHARS] + "…"
    return neutralise_delimiters(text).replace("|", "\\|")
