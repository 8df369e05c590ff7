"""rag/data/stock_sentences.py: the sentences a table's texts repeat across rows, read from the keyword index."""

from __future__ import annotations

from pathlib import Path

from rag.data.keyword_index import KeywordChunk, KeywordIndex, KeywordRow
from rag.data.stock_sentences import repeated_sentences

TEMPLATE = "The counterparty sends a short monthly activity report."


def test_a_sentence_three_rows_repeat_is_a_stock_sentence() -> None:
    texts = [(f"row-{i}", f"Supply of item {i}. {TEMPLATE} Payment within 30 days.") for i in range(4)]
    texts += [("row-9", "Payment within 30 days. Once only here.")]
    assert repeated_sentences(texts) == [("Payment within 30 days.", 5), (TEMPLATE, 4)]


def test_a_rows_chunks_count_once_and_fragments_are_no_sentences() -> None:
    """A long row split in chunks that repeat a sentence is one row; "Thanks." is too short to be a clause."""
    texts = [("row-1", f"{TEMPLATE} Thanks."), ("row-1", f"{TEMPLATE} Thanks."), ("row-2", f"{TEMPLATE} Thanks.")]
    assert repeated_sentences(texts) == []
    assert repeated_sentences(texts, min_rows=2) == [(TEMPLATE, 2)]


def test_a_sentence_is_kept_as_written_and_broken_lines_are_no_sentence() -> None:
    """The text match looks for the sentence in the source column, so it is never rewritten; one broken over two
    lines could not be found as one."""
    texts = [(f"r{i}", "Asked for my  money back. Broken over\ntwo lines here.") for i in range(3)]
    assert repeated_sentences(texts) == [("Asked for my  money back.", 3)]


def test_the_keyword_index_gives_every_chunk_text_with_its_row(tmp_path: Path) -> None:
    keywords = KeywordIndex(tmp_path / "k.keywords.sqlite3")
    assert list(keywords.texts()) == []  # (no file yet: nothing, no error)
    keywords.write([KeywordRow("a", "h1", [KeywordChunk("a::0", 0, "A", "first", {}),
                                           KeywordChunk("a::1", 1, "A", "second", {})]),
                    KeywordRow("b", "h2", [KeywordChunk("b::0", 0, "B", "third", {})])])
    assert list(keywords.texts()) == [("a", "first"), ("a", "second"), ("b", "third")]
