"""Sentence-aware chunking: size bound in the model's tokens, overlap, coverage, truncation."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from conftest import LONG_ARTICLE
from hypothesis import given, settings
from hypothesis import strategies as st

from rag.data.chunking import chunk_text, split_sentences
from rag.data.embeddings import HashingEmbedder

HASHING = HashingEmbedder()


def word_count(texts: Sequence[str]) -> list[int]:
    return [len(text.split()) for text in texts]


COUNTERS = {"words": word_count, "hashing": HASHING.count_tokens}


def short_sentences(n: int) -> str:
    return " ".join(f"Sentence number {i} talks about topic {i % 7}." for i in range(n))


@pytest.mark.parametrize("counter", ["words", "hashing"])
@pytest.mark.parametrize(("max_tokens", "overlap"), [(30, 0), (30, 10), (60, 20), (200, 40)])
def test_every_chunk_fits(counter: str, max_tokens: int, overlap: int) -> None:
    count = COUNTERS[counter]
    chunks, truncated = chunk_text(LONG_ARTICLE, max_tokens=max_tokens, overlap=overlap, count_tokens=count)
    assert not truncated
    assert len(chunks) > 1
    # Recount the joined text itself rather than trusting the reported size.
    for chunk, recount in zip(chunks, count([c.text for c in chunks]), strict=True):
        assert recount <= max_tokens
        assert chunk.tokens == recount
    assert [c.number for c in chunks] == list(range(len(chunks)))


def test_consecutive_chunks_overlap() -> None:
    text = short_sentences(40)
    chunks, _ = chunk_text(text, max_tokens=30, overlap=8, count_tokens=word_count)
    assert len(chunks) > 3
    for previous, following in zip(chunks, chunks[1:], strict=False):
        first_sentence = split_sentences(following.text)[0]
        assert first_sentence in split_sentences(previous.text)
        # ... and the following chunk brings something new.
        assert split_sentences(following.text)[-1] not in split_sentences(previous.text)


def test_no_overlap_means_disjoint_chunks() -> None:
    chunks, _ = chunk_text(short_sentences(40), max_tokens=30, overlap=0, count_tokens=word_count)
    sentences = [s for c in chunks for s in split_sentences(c.text)]
    assert sentences == split_sentences(short_sentences(40))


def test_sentence_longer_than_a_chunk_is_split() -> None:
    words = [f"word{i}" for i in range(500)]
    text = " ".join(words) + "."
    chunks, truncated = chunk_text(text, max_tokens=50, overlap=10, count_tokens=word_count)
    assert not truncated
    assert len(chunks) >= 10
    assert all(len(c.text.split()) <= 50 for c in chunks)
    covered = {w.rstrip(".") for c in chunks for w in c.text.split()}
    assert covered == set(words)


def test_all_sentences_are_covered() -> None:
    sentences = split_sentences(LONG_ARTICLE)
    chunks, _ = chunk_text(LONG_ARTICLE, max_tokens=80, overlap=20, count_tokens=HASHING.count_tokens)
    chunked = [split_sentences(c.text) for c in chunks]
    for sentence in sentences:
        assert any(sentence in parts for parts in chunked), sentence
    # Order is preserved: the first chunk starts the text and the last one ends it.
    assert chunks[0].text.startswith(sentences[0])
    assert chunks[-1].text.endswith(sentences[-1])


def test_max_chunks_truncates() -> None:
    chunks, truncated = chunk_text(short_sentences(200), max_tokens=30, overlap=5, count_tokens=word_count,
                                   max_chunks=4)
    assert truncated is True
    assert len(chunks) == 4
    full, full_truncated = chunk_text(short_sentences(200), max_tokens=30, overlap=5, count_tokens=word_count)
    assert not full_truncated and len(full) > 4
    assert [c.text for c in chunks] == [c.text for c in full[:4]]


def test_max_chunks_not_reached_is_not_truncated() -> None:
    chunks, truncated = chunk_text("One short sentence. Another one.", max_tokens=30, overlap=5,
                                   count_tokens=word_count, max_chunks=4)
    assert truncated is False
    assert [c.text for c in chunks] == ["One short sentence. Another one."]


@pytest.mark.parametrize("text", ["", "   ", "\n\n\t  \n"])
def test_empty_text_has_no_chunks(text: str) -> None:
    assert chunk_text(text, max_tokens=30, overlap=5, count_tokens=word_count) == ([], False)


def test_huge_text_is_cut_before_it_is_tokenised() -> None:
    """A 5 MB text with max_chunks=50: only the start is ever tokenised (bench/chunk_huge.py times it)."""
    text = short_sentences(120_000)  # about 5 MB
    assert len(text) > 5_000_000
    counted: list[int] = []

    def count_tokens(texts: Sequence[str]) -> list[int]:
        counted.extend(len(t) for t in texts)
        return HASHING.count_tokens(texts)

    chunks, truncated = chunk_text(text, max_tokens=200, overlap=40, count_tokens=count_tokens, max_chunks=50)
    assert truncated is True
    assert len(chunks) == 50
    assert text.startswith(chunks[0].text) and chunks[-1].text in text
    assert sum(counted) < 500_000  # a tenth of the text at most, whatever the machine's speed


def test_split_sentences() -> None:
    text = "He said stop. Then he left! Did she? Yes.\n\nNew paragraph without a full stop\n\nEnd"
    assert split_sentences(text) == ["He said stop.", "Then he left!", "Did she?", "Yes.",
                                     "New paragraph without a full stop", "End"]


def test_split_sentences_keeps_closing_quotes_and_brackets() -> None:
    text = 'He said "stop." Then he left (for good.) Nobody followed.'
    assert split_sentences(text) == ['He said "stop."', "Then he left (for good.)", "Nobody followed."]
    chunks, _ = chunk_text(text, max_tokens=50, overlap=0, count_tokens=word_count)
    assert chunks[0].text == text


def covers_in_order(words: list[str], chunks: list[list[str]]) -> bool:
    """Can the chunks be laid on `words` in order, each a contiguous run, overlapping the previous one or
    starting where it ends, from the first word to the last? (Tries every placement: words repeat.)"""
    def place(index: int, start: int, end: int) -> bool:
        if index == len(chunks):
            return end == len(words)
        run = chunks[index]
        first = range(0, 1) if index == 0 else range(start + 1, end + 1)
        return any(words[p:p + len(run)] == run and place(index + 1, p, p + len(run)) for p in first)
    return place(0, 0, 0) if chunks else not words


def test_covers_in_order_rejects_reordered_missing_and_repeated_chunks() -> None:
    words = ["a", "b", "c", "d", "e", "f"]
    assert covers_in_order(words, [["a", "b", "c"], ["c", "d"], ["e", "f"]])
    assert not covers_in_order(words, [["c", "d"], ["a", "b", "c"], ["e", "f"]])  # out of order
    assert not covers_in_order(words, [["a", "b"], ["d", "e", "f"]])  # "c" missing
    assert not covers_in_order(words, [["a", "b", "c"], ["a", "b", "c", "d", "e", "f"]])  # starts again


WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=12)
SENTENCE = st.lists(WORDS, min_size=1, max_size=40).map(lambda ws: " ".join(ws).capitalize() + ".")


@settings(max_examples=150, deadline=None)
@given(sentences=st.lists(SENTENCE, min_size=0, max_size=40),
       max_tokens=st.integers(min_value=5, max_value=60),
       overlap_ratio=st.floats(min_value=0.0, max_value=0.9))
def test_property_size_bound_and_coverage(sentences: list[str], max_tokens: int, overlap_ratio: float) -> None:
    overlap = int(max_tokens * overlap_ratio)
    text = " ".join(sentences)
    chunks, truncated = chunk_text(text, max_tokens=max_tokens, overlap=overlap,
                                   count_tokens=HASHING.count_tokens)
    assert not truncated
    for recount in HASHING.count_tokens([c.text for c in chunks]):
        assert recount <= max_tokens
    # Every word of the text, in order, is in the chunks once overlap is removed: the chunks lie on the text's
    # words as contiguous runs, each starting after the previous one starts and no later than it ends.
    assert covers_in_order(text.split(), [c.text.split() for c in chunks])
    # Every sentence short enough to fit appears whole in some chunk.
    for sentence in sentences:
        if HASHING.count_tokens([sentence])[0] <= max_tokens:
            assert any(sentence in c.text for c in chunks)
