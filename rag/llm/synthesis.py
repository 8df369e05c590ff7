"""Grounded answers written by the LLM from retrieved documents or SQL rows placed inside delimiters, as data."""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape
from typing import Any

from rag import tracing
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

    def __init__(self, llm: Any, *, date_key: str | None = None, max_rows: int = MAX_PROMPT_ROWS) -> None:
        self.llm = llm
        self.date_key = date_key
        self.max_rows = max_rows

    # ------------------------------------------------------------ prompts

    def chunks_prompt(self, question: str, chunks: Sequence[Chunk]) -> str:
        numbers: dict[str, int] = {}
        parts: list[str] = []
        budget = MAX_CONTEXT_CHARS
        for chunk in chunks:
            key = chunk.row_key or chunk.url or chunk.title
            number = numbers.setdefault(key, len(numbers) + 1)
            text = neutralise_delimiters(chunk.text.strip())[:min(MAX_DOCUMENT_CHARS, max(budget, 0))]
            if not text:
                break
            budget -= len(text)
            attributes = f'id="{number}" title="{_attr(chunk.title)}"'
            if day := self._date_of(chunk):
                attributes += f' date="{_attr(day)}"'
            parts.append(f"<document {attributes}>\n{text}\n</document>")
        return CHUNKS_TEMPLATE.format(rules=DATA_RULES.format(tag="documents", what="documents"),
                                      documents="\n".join(parts), question=neutralise_delimiters(question))

    def rows_prompt(self, question: str, result: QueryResult) -> str:
        shown = result.rows[: self.max_rows]
        header = "| " + " | ".join(_cell(c) for c in result.columns) + " |"
        rule = "|" + "---|" * len(result.columns)
        lines = [header, rule] + ["| " + " | ".join(_cell(v) for v in row) + " |" for row in shown]
        total = f"{len(result.rows)}+" if result.row_limit_hit else str(len(result.rows))
        return ROWS_TEMPLATE.format(rules=DATA_RULES.format(tag="rows", what="rows"),
                                    columns=_attr(", ".join(result.columns)), total=total, shown=len(shown),
                                    table="\n".join(lines), question=neutralise_delimiters(question))

    # ------------------------------------------------------------ answers

    def from_chunks(self, question: str, chunks: list[Chunk]) -> str:
        with tracing.span("llm.synthesize", kind="documents", documents=len(chunks)) as attrs:
            answer = sanitize_answer(self._complete(self.chunks_prompt(question, chunks)))
            attrs["answer_chars"] = len(answer)
        return answer or "The language model returned no answer from these documents; see the sources below."

    def from_rows(self, question: str, result: QueryResult, fallback: str) -> str:
        with tracing.span("llm.synthesize", kind="rows", rows=len(result.rows)) as attrs:
            answer = sanitize_answer(self._complete(self.rows_prompt(question, result)))
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


def _attr(value: Any) -> str:
    return escape(" ".join(str(value).split()), quote=True)


def _cell(value: Any) -> str:
    text = "" if value is None else " ".join(str(value).split())
    if len(text) > MAX_CELL_CHARS:
        text = text[:MAX_CELL_CHARS] + "…"
    return neutralise_delimiters(text).replace("|", "\\|")
