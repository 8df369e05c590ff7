"""Sentence-aware chunking measured in the embedding model's own word pieces.

The embedding model reads at most 256 word pieces and silently drops the rest, so chunk sizes are
counted with the model's tokenizer (passed in as `count_tokens`), not with a different one.
Consecutive chunks share whole sentences worth at least `overlap` word pieces.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

# A sentence ends at . ! ? (optionally followed by quotes/brackets) before whitespace, or at a blank line.
SENTENCE_END = re.compile(r"(?:(?<=[.!?])|(?<=[.!?][\"'”’)\]]))\s+|\n\s*\n")
CHARS_PER_TOKEN_CAP = 8  # generous: used only to cut huge rows before tokenising them


@dataclass(frozen=True)
class TextChunk:
    number: int
    text: str
    tokens: int


def split_sentences(text: str) -> list[str]:
    return [s.strip() for s in SENTENCE_END.split(text) if s and s.strip()]


def chunk_text(text: str, *, max_tokens: int, overlap: int, count_tokens: Callable[[Sequence[str]], list[int]],
               max_chunks: int | None = None) -> tuple[list[TextChunk], bool]:
    """Split `text` into chunks of at most `max_tokens`; returns (chunks, truncated).

    `count_tokens` maps a list of strings to their token counts in one call (batched tokenisation).
    A sentence longer than a chunk is cut into word windows. `truncated` is True when `max_chunks`
    stopped the chunking before the end of the text.
    """
    truncated = False
    if max_chunks is not None:
        cap = max_chunks * max_tokens * CHARS_PER_TOKEN_CAP
        if len(text) > cap:
            text, truncated = text[:cap], True
    pieces = _fit_sentences(split_sentences(text), max_tokens, count_tokens)
    if not pieces:
        return [], truncated
    chunks: list[TextChunk] = []
    window: list[tuple[str, int]] = []
    size = 0
    for sentence, tokens in pieces:
        if window and size + tokens > max_tokens:
            chunks.append(TextChunk(len(chunks), " ".join(s for s, _ in window), size))
            if max_chunks is not None and len(chunks) >= max_chunks:
                return chunks, True
            window, size = _overlap_tail(window, overlap, max_tokens - tokens)
        window.append((sentence, tokens))
        size += tokens
    if window:
        chunks.append(TextChunk(len(chunks), " ".join(s for s, _ in window), size))
    return chunks, truncated


def _fit_sentences(sentences: list[str], max_tokens: int,
                   count_tokens: Callable[[Sequence[str]], list[int]]) -> list[tuple[str, int]]:
    """Pair sentences with token counts, cutting any sentence longer than a chunk into word windows."""
    fitted: list[tuple[str, int]] = []
    for sentence, tokens in zip(sentences, count_tokens(sentences), strict=True):
        fitted.extend(_cut_to_fit(sentence, tokens, max_tokens, count_tokens))
    return fitted


def _cut_to_fit(text: str, tokens: int, max_tokens: int,
                count_tokens: Callable[[Sequence[str]], list[int]]) -> list[tuple[str, int]]:
    words = text.split()
    if tokens <= max_tokens or len(words) < 2:
        return [(text, tokens)]  # a single enormous "word" is left to the model's own truncation
    step = max(1, min(len(words) - 1, int(len(words) * max_tokens / tokens * 0.9)))
    parts = [" ".join(words[i:i + step]) for i in range(0, len(words), step)]
    fitted: list[tuple[str, int]] = []
    for part, part_tokens in zip(parts, count_tokens(parts), strict=True):
        fitted.extend(_cut_to_fit(part, part_tokens, max_tokens, count_tokens))
    return fitted


def _overlap_tail(window: list[tuple[str, int]], overlap: int, room: int) -> tuple[list[tuple[str, int]], int]:
    """The last sentences of `window` worth at least `overlap` tokens that still leave `room`."""
    tail: list[tuple[str, int]] = []
    size = 0
    for sentence, tokens in reversed(window):
        if size >= overlap or size + tokens > room:
            break
        tail.insert(0, (sentence, tokens))
        size += tokens
    return tail, size
