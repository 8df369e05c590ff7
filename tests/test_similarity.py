"""Ranking centred on the table (rag/answer/similarity.py): when it applies, what it searches, plain scores."""

from __future__ import annotations

import numpy as np
import pytest

from rag.answer.similarity import CENTRING_MIN_ROWS, Centring, as_score, cosine_similarities


def sample(rows: int, dimension: int = 8, seed: int = 0) -> np.ndarray:
    vectors = np.random.default_rng(seed).normal(size=(rows, dimension)) + 3.0  # a shared direction, as real tables
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def test_centring_needs_a_sample_of_this_model_with_enough_rows() -> None:
    assert Centring.for_table(sample(CENTRING_MIN_ROWS), 8).centred
    assert not Centring.for_table(sample(CENTRING_MIN_ROWS - 1), 8).centred  # the mean would be the rows themselves
    assert not Centring.for_table(sample(CENTRING_MIN_ROWS), 16).centred  # another model's vectors
    assert not Centring.for_table(None, 8).centred
    assert not Centring.for_table(sample(CENTRING_MIN_ROWS), 8, weight=0.0).centred


def test_the_centred_query_is_the_questions_unit_vector_minus_the_tables_mean() -> None:
    table = sample(40)
    question = 5.0 * table[0]
    assert np.allclose(Centring.for_table(table, 8).query(list(question)), table[0] - table.mean(axis=0))
    assert np.allclose(Centring.for_table(table, 8, weight=0.5).query(list(question)),
                       table[0] - 0.5 * table.mean(axis=0))
    assert Centring().query([3.0, 4.0]) == [3.0, 4.0]


def test_cosine_similarities_take_the_best_question_and_scores_clip_to_0_1() -> None:
    chunks = {"same": [2.0, 0.0, 0.0], "half": [1.0, 1.0, 0.0], "opposite": [-1.0, 0.0, 0.0]}
    found = cosine_similarities([[1.0, 0.0, 0.0]], chunks)
    assert found == {"same": pytest.approx(1.0), "half": pytest.approx(0.70711, abs=1e-5), "opposite": -1.0}
    assert cosine_similarities([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], chunks)["half"] == pytest.approx(0.70711, abs=1e-5)
    assert cosine_similarities([[0.0, 1.0, 0.0], [-1.0, 0.0, 0.0]], chunks)["opposite"] == pytest.approx(1.0)
    assert [as_score(x) for x in (1.2, 0.123456, -0.3)] == [1.0, 0.1235, 0.0]
    assert cosine_similarities([], chunks) == {} and cosine_similarities([[1.0]], {}) == {}
