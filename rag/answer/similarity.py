"""How retrieval compares a question with the table's chunks: ranked centred on the table, scored plain.

A table's texts share a common direction in the embedding space (every contract reads like a contract, every review
like a review), and boilerplate alike in every row sits close to it: the plain cosine similarity ranks such rows
above the one row that answers in other words. The dense search therefore looks for the question's unit vector minus
the table's mean chunk vector (the mean of its background sample, rag/data/background.py): Chroma's cosine then ranks
a chunk by what it shares with the question beyond what all the table's texts share, less its own share of the
common direction (as "all-but-the-top" post-processing removes the common mean; Mu & Viswanath, 2018). Each chunk
keeps its plain cosine similarity as its score: the "nothing relevant" rule is calibrated on it, and on the dev
questions it separates answerable from no-answer questions better than the centred one (README, "Ranking centred
on the table").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

# Rows the background sample must hold before the search is centred: each row is 1/n of the mean it is compared
# against, so from 20 rows on a row's own share of the mean is at most 5%; with fewer rows the mean is mostly the
# rows themselves (with one row, the centred question would only ask how unlike that row it is).
CENTRING_MIN_ROWS = 20


def unit(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=-1, keepdims=True)
    return matrix / np.where(norms == 0, 1, norms)


@dataclass(frozen=True)
class Centring:
    """The table's mean chunk vector times the centring weight (`mean`), or none: the plain question is searched."""

    mean: np.ndarray | None = None

    @classmethod
    def for_table(cls, sample: np.ndarray | None, dimension: int, weight: float = 1.0) -> Centring:
        """Centred on the mean of the table's background `sample` (unit vectors, one per row); none without a
        sample, with one of another model (`dimension` is this model's), below CENTRING_MIN_ROWS or weight 0."""
        if (not weight or sample is None or sample.ndim != 2 or sample.shape[1] != dimension
                or sample.shape[0] < CENTRING_MIN_ROWS):
            return cls()
        return cls(weight * sample.astype(np.float64).mean(axis=0))

    @property
    def centred(self) -> bool:
        return self.mean is not None

    def query(self, embedding: Sequence[float]) -> list[float]:
        """The vector the dense search looks for: the question's unit vector minus the mean, when centred."""
        if self.mean is None:
            return list(embedding)
        return (unit(np.asarray(embedding, dtype=np.float64)) - self.mean).tolist()


def cosine_similarities(questions: Sequence[Sequence[float]],
                        vectors: Mapping[str, Sequence[float]]) -> dict[str, float]:
    """Each vector's best cosine similarity to the `questions` (unclipped)."""
    if not vectors or not questions:
        return {}
    best = (unit(np.asarray(list(vectors.values()), dtype=np.float64))
            @ unit(np.asarray(questions, dtype=np.float64)).T).max(axis=1)
    return {key: float(value) for key, value in zip(vectors, best, strict=True)}


def as_score(cosine: float) -> float:
    """A cosine similarity as `Chunk.score` keeps it: clipped to 0..1, 4 decimals."""
    return round(min(1.0, max(0.0, cosine)), 4)
