"""What the three engines share for one table: source, index, planner, SQL builder, database, models.

Built once per table and provider, and safe to share between sessions: nothing here holds a turn's state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from llama_index.core import VectorStoreIndex
from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.base.response.schema import Response
from llama_index.vector_stores.chroma import ChromaVectorStore
from pydantic import PrivateAttr

from rag.answer.sql_database import GuardedSQLDatabase
from rag.data.embeddings import Embedder
from rag.data.index import VectorIndex
from rag.data.source import TableSource
from rag.models import EngineResult
from rag.settings import Settings
from rag.understand.planner import Planner
from rag.understand.text_to_sql import SQLBuilder


class EmbedderAdapter(BaseEmbedding):
    """Our `Embedder` seen as a LlamaIndex embedding model (same weights for indexing and queries)."""

    _embedder: Any = PrivateAttr()

    def __init__(self, embedder: Embedder, **kwargs: Any) -> None:
        super().__init__(model_name=embedder.name, embed_batch_size=64, **kwargs)
        self._embedder = embedder

    @classmethod
    def class_name(cls) -> str:
        return "RagEmbedderAdapter"

    def _get_query_embedding(self, query: str) -> list[float]:
        return self._embedder.embed([query])[0]

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._get_query_embedding(query)

    def _get_text_embedding(self, text: str) -> list[float]:
        return self._embedder.embed([text])[0]

    def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
        return self._embedder.embed(texts)


@dataclass(frozen=True)
class RetrievalOptions:
    """How the retrieval routes search (rag.answer.retrieval; the defaults won bench/retrieval_query_text.py).

    `dense_text` / `keyword_text`: which text of the question is embedded / matched with BM25: `question` (all
    of it), `minus_conditions` (without the words structured conditions consumed) or `topic` (the planner's
    leftover topic words). `mode`: `fused` (dense + BM25, reciprocal rank fusion), `dense` or `keyword`.
    `centring`: how much of the table's mean chunk vector the dense search subtracts from the question's vector
    (1: centred on the table; 0: the plain question; won bench/retrieval_centring.py)."""

    dense_text: str = "question"
    keyword_text: str = "question"
    mode: str = "fused"
    centring: float = 1.0


@dataclass
class EngineContext:
    """Everything the engines share for one table; built once and safe to share between sessions."""

    settings: Settings
    source: TableSource
    index: VectorIndex
    planner: Planner
    sql_builder: SQLBuilder
    database: GuardedSQLDatabase
    embed_model: EmbedderAdapter
    llm: Any  # LlamaIndex LLM: OfflineSQLWriter or Gemini (or a scripted fake)
    synthesizer: Any | None = None  # writes answers from rows/chunks with the LLM (rag.llm.synthesis)
    min_score: float | None = None  # similarity floor of "relevant"; None: the embedding model's calibrated one
    # with a language model: restates a question in the words of the table's texts, searched beside it
    restater: Callable[[str], str | None] | None = None
    retrieval: RetrievalOptions = field(default_factory=RetrievalOptions)
    _vector_index: VectorStoreIndex | None = field(default=None, repr=False)

    def vector_index(self) -> VectorStoreIndex:
        if self._vector_index is None:
            store = ChromaVectorStore(chroma_collection=self.index.collection())
            self._vector_index = VectorStoreIndex.from_vector_store(store, embed_model=self.embed_model)
        return self._vector_index


def engine_response(text: str, result: EngineResult) -> Response:
    """The LlamaIndex response every engine returns: the answer text, and the typed result in metadata."""
    return Response(response=text, metadata={"engine_result": result})
