"""The one factory for language models and embedding models: offline, Gemini or a scripted fake.

Callers never construct providers themselves; tests inject fakes through `Providers(...)` or
`build_providers(settings, llm=fake)`, the same path the app uses.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from rag.data.embeddings import Embedder, HashingEmbedder, SentenceTransformerEmbedder
from rag.settings import Settings

_EMBEDDERS: dict[tuple[str, int], Embedder] = {}
_EMBEDDERS_LOCK = threading.Lock()

# USD per million tokens (input, output), for the cost estimate shown in traces.
PRICES_PER_MILLION: dict[str, tuple[float, float]] = {
    "gemini-2.5-flash": (0.30, 2.50),
    "gemini-2.5-flash-lite": (0.10, 0.40),
    "gemini-2.5-pro": (1.25, 10.00),
}


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
    llm: Any | None = None  # a LlamaIndex LLM (Gemini or a scripted fake); its prompts are built per table
    provider_name: str = "offline"
    model_name: str = "offline"


def build_providers(settings: Settings, *, llm: Any | None = None) -> Providers:
    """Offline by default; Gemini when configured; `llm` injects a fake through the same path."""
    embedder = build_embedder(settings)
    if llm is None and settings.effective_provider != "gemini":
        return Providers(embedder)
    from rag.llm.gemini import build_gemini

    if llm is None:
        llm = build_gemini(settings)
    name = "gemini" if settings.effective_provider == "gemini" else "fake"
    model = getattr(llm, "model", None) or settings.gemini_model
    return Providers(embedder, llm=llm,
                     provider_name=name, model_name=str(model))


def estimate_cost(model: str, tokens: dict[str, int]) -> float:
    prices = PRICES_PER_MILLION.get(model)
    if not prices:
        return 0.0
    return round((tokens["prompt"] * prices[0] + tokens["completion"] * prices[1]) / 1_000_000, 6)
