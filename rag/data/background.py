"""The table's background similarity: a fixed sample of its chunk vectors, stored beside the index at sync time.

How similar a question's best chunk is says little on its own: on a table of short, alike product reviews an
unrelated question still reaches a cosine similarity of 0.4-0.5, on long news articles it stays near 0.2-0.3.
The "nothing relevant" rule (rag/answer/retrieval.py) therefore reads the best similarity *above the question's
background*: the question's mean similarity to this sample of the table's chunks. The sample is taken by the
sync from the vectors Chroma already holds (nothing is embedded), one chunk of each sampled row, chosen by a hash of
the ids so the same collection always gives the same sample, and written atomically to
`<RAG_INDEX_DIR>/<collection>.background.npy` (with a Chroma server, in the local RAG_INDEX_DIR, like the keyword
index). The dense search is centred on the sample's mean vector (rag/answer/similarity.py).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

FILE_SUFFIX = ".background.npy"
SAMPLE_SIZE = 256  # rows sampled, one chunk vector each; the mean over 256 moves by about 0.005 between samples


def background_path(index_dir: str | Path, collection: str) -> Path:
    return Path(index_dir) / f"{collection}{FILE_SUFFIX}"


def sample_ids(rows: Mapping[str, Sequence[str]], size: int = SAMPLE_SIZE) -> list[str]:
    """One chunk id of each of `size` rows (row key -> its chunk ids), rows and chunks chosen by a hash of their
    ids: stable for a collection, and every row weighs the same however many chunks it has (a huge row of 400 chunks
    must not become the table's average text)."""
    def digest(text: str) -> str:
        return hashlib.sha1(text.encode("utf-8")).hexdigest()

    chosen = [key for key in sorted(rows, key=digest) if rows[key]][:size]
    return sorted(min(rows[key], key=digest) for key in chosen)


class Background:
    """The sample file of one collection; loaded once per file version."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._loaded: tuple[float, np.ndarray] | None = None

    def exists(self) -> bool:
        return self.path.exists()

    def write(self, vectors: Sequence[Sequence[float]]) -> None:
        matrix = np.asarray(vectors, dtype=np.float32).reshape(len(vectors), -1)
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        matrix = matrix / np.where(norms == 0, 1, norms)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=self.path.parent, suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as file:
                np.save(file, matrix, allow_pickle=False)
            os.replace(temporary, self.path)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)
        self._loaded = None

    def refresh(self, collection: Any, rows: Mapping[str, Sequence[str]], *, changed: bool) -> bool:
        """Take a new sample of the collection's chunks (`rows`: row key -> its chunk ids) when it changed or no
        sample exists; True when one was written."""
        if self.exists() and not changed:
            return False
        ids = sample_ids(rows)
        if not ids:
            self.drop()
            return False
        got = collection.get(ids=ids, include=["embeddings"])
        self.write(list(got["embeddings"]))
        return True

    def drop(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        self._loaded = None

    def vectors(self) -> np.ndarray | None:
        """The stored sample (unit vectors), or None when there is none or it cannot be read."""
        try:
            stamp = self.path.stat().st_mtime
        except FileNotFoundError:
            return None
        if self._loaded is None or self._loaded[0] != stamp:
            try:
                self._loaded = (stamp, np.load(self.path, allow_pickle=False))
            except (OSError, ValueError):
                return None
        return self._loaded[1]

    def mean_similarity(self, embedding: Sequence[float]) -> float | None:
        """The question's mean cosine similarity to the table's sample (its background); None without one."""
        matrix = self.vectors()
        query = np.asarray(embedding, dtype=np.float32)
        if matrix is None or matrix.ndim != 2 or matrix.shape[1] != query.shape[0] or not len(matrix):
            return None
        norm = float(np.linalg.norm(query))
        return round(float((matrix @ query).mean()) / norm, 4) if norm else None
