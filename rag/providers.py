"""The one factory for language models and embedding models: offline, Gemini or a scripted fake.

Callers never construct providers themselves; tests inject fakes through `Providers(...)`.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from rag.embeddings import Embedder, HashingEmbedder, SentenceTransformerEmbedder
from rag.settings import Settings

_EMBEDDERS: dict[tuple[str, int], Embedder] = {}
_EMBEDDERS_LOCK = threading.Lock()


def build_embedder(settings: Settings) -> Embedder:
    """The embedding model named in settings, loaded once per process and shared."""
    key = (settings.embed_model, settings.embed_batch_size)
    with _EMBEDDERS_LOCK:
        if key not in _EMBEDDERS:
            if settings.embed_model.startswith("hashing"):
                _EMBEDDERS[key] = HashingEmbedder()
            else:
                _EMBEDDERS[key] = SentenceTransformerEmbedder(settings.embed_model, settings.embed_batch_size)
        return _EMBEDDERS[key]


@dataclass
class Providers:
    """What the engines need from the outside world; `llm` is None for the offline engine."""

    embedder: Embedder
    llm: Any | None = None
    provider_name: str = "offline"
    model_name: str = "offline"
    extras: dict[str, Any] = field(default_factory=dict)
