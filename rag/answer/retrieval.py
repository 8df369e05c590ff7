"""Vector search over the index (optionally only among given rows) and answers composed from its chunks."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from llama_index.core.schema import NodeWithScore, QueryBundle
from llama_index.core.vector_stores.types import (
    FilterCondition,
    FilterOperator,
    MetadataFilter,
    MetadataFilters,
)

from rag import tracing
from rag.answer import compose
from rag.answer.context import EngineContext
from rag.models import Chunk, Citation
from rag.understand.planner import QueryPlan

# Row ids per `$in` query. Measured at 100k articles (bench/results/query_scale.md): one `$in` of 16,610 ids
# took 416 ms, the same ids in batches of 500 took 4.4 s; Chroma refuses lists above about 32,000 ids.
ROW_KEYS_PER_QUERY = 30_000
CHUNKS_PER_ROW = 3  # chunks of one document the answer may quote from (a buried fact is rarely in the best one)
CANDIDATES_PER_RESULT = 10  # chunks fetched per wanted document, so several documents survive de-duplication
# When the candidates hold fewer than top_k documents (one huge row with hundreds of near-identical chunks can
# fill them all), search again without the rows already holding CHUNKS_PER_ROW candidates, at most this often.
MAX_SEARCH_ROUNDS = 4


@dataclass
class Retrieved:
    """`top`: the best chunk of each of the top-k documents; `evidence`: up to CHUNKS_PER_ROW of each."""

    top: list[Chunk]
    evidence: list[Chunk]


def to_chunk(node: NodeWithScore, context: EngineContext) -> Chunk:
    metadata = dict(node.node.metadata or {})
    roles = context.source.roles
    similarity = float(node.score or 0.0)
    # ChromaVectorStore reports exp(-distance); with cosine space, cosine similarity = 1 + ln(score).
    cosine = 1.0 + math.log(similarity) if similarity > 0 else 0.0
    return Chunk(
        id=node.node.node_id,
        row_key=str(metadata.get("row_key", "")),
        title=str(metadata.get(roles.title, "")) if roles.title else "",
        url=str(metadata.get(roles.url, "")) if roles.url else "",
        chunk=int(metadata.get("chunk", 0)),
        text=node.node.get_content(),
        score=round(min(1.0, max(0.0, cosine)), 4),
        metadata={k: v for k, v in metadata.items() if k not in ("content_hash",) and not k.startswith("_")},
    )


def retrieve(context: EngineContext, query: str, filters: MetadataFilters | None,
             restrict_keys: Sequence[str] | None = None) -> Retrieved:
    """Chunks of the top-k documents for `query` under `filters`, optionally only among `restrict_keys`."""
    top_k = context.settings.top_k
    with tracing.span("embed.query") as attrs:
        embedding = context.embed_model.get_query_embedding(query)
        attrs["model"] = context.embed_model.model_name
    bundle = QueryBundle(query_str=query, embedding=embedding)
    batches: list[MetadataFilters | None] = []
    if restrict_keys is None:
        batches.append(filters)
    else:
        for start in range(0, len(restrict_keys), ROW_KEYS_PER_QUERY):
            keys = list(restrict_keys[start:start + ROW_KEYS_PER_QUERY])
            key_filter = MetadataFilter(key="row_key", value=keys, operator=FilterOperator.IN)
            parts: list[Any] = [key_filter] + ([filters] if filters else [])
            batches.append(MetadataFilters(filters=parts, condition=FilterCondition.AND))
    candidates: list[Chunk] = []
    with tracing.span("vector.search", top_k=top_k, batches=len(batches)) as attrs:
        index = context.vector_index()
        rounds = 0
        for batch_filters in batches:
            found, used = _search_distinct_rows(index, bundle, batch_filters, top_k, context)
            candidates += found
            rounds += used
        top = best_chunk_per_row(candidates, top_k)
        rows = {c.row_key for c in top}
        per_row: dict[str, int] = {}
        evidence = []
        for chunk in sorted(candidates, key=lambda c: c.score, reverse=True):
            if chunk.row_key in rows and per_row.get(chunk.row_key, 0) < CHUNKS_PER_ROW:
                per_row[chunk.row_key] = per_row.get(chunk.row_key, 0) + 1
                evidence.append(chunk)
        attrs["candidates"] = len(candidates)
        attrs["rounds"] = rounds
        attrs["results"] = [{"id": c.id, "score": c.score} for c in top]
    return Retrieved(top, evidence)


def _search_distinct_rows(index: Any, bundle: QueryBundle, filters: MetadataFilters | None, top_k: int,
                          context: EngineContext) -> tuple[list[Chunk], int]:
    """Candidates from at least `top_k` distinct rows when the filter allows them: each further round leaves
    out the rows that already hold CHUNKS_PER_ROW candidates (Chroma groups nothing by row itself)."""
    wanted = top_k * CANDIDATES_PER_RESULT
    found: list[Chunk] = []
    saturated: list[str] = []
    for rounds in range(1, MAX_SEARCH_ROUNDS + 1):
        parts: list[Any] = [filters] if filters else []
        if saturated:
            parts.append(MetadataFilter(key="row_key", value=list(saturated), operator=FilterOperator.NIN))
        round_filters = MetadataFilters(filters=parts, condition=FilterCondition.AND) if saturated else filters
        batch = [to_chunk(n, context) for n in index.as_retriever(similarity_top_k=wanted,
                                                                  filters=round_filters).retrieve(bundle)]
        found += batch
        per_row = Counter(chunk.row_key for chunk in found)
        if len(batch) < wanted or len(per_row) >= top_k:
            return found, rounds  # everything the filter allows was seen, or enough documents are in
        saturated = [key for key, count in per_row.items() if count >= CHUNKS_PER_ROW]
    return found, MAX_SEARCH_ROUNDS


def best_chunk_per_row(chunks: list[Chunk], limit: int) -> list[Chunk]:
    """The best chunk of each document, best documents first: a result list is a list of sources."""
    best: dict[str, Chunk] = {}
    for chunk in sorted(chunks, key=lambda c: c.score, reverse=True):
        best.setdefault(chunk.row_key, chunk)
    return list(best.values())[:limit]


def answer_from_chunks(context: EngineContext, question: str, plan: QueryPlan, chunks: list[Chunk],
                       restricted: bool = False) -> tuple[str, list[Citation]]:
    """Answer from retrieved chunks; inside SQL-selected rows (`restricted`) a lower similarity suffices,
    because the structured part of the question already chose the documents."""
    date_key = context.source.roles.date
    min_score = context.min_score * (0.5 if restricted else 1.0)
    with tracing.span("synthesize", provider="llm" if context.synthesizer else "extractive") as attrs:
        if context.synthesizer and compose.is_relevant(plan.topic or question, chunks, min_score):
            text = context.synthesizer.from_chunks(question, chunks)
            citations = unique_citations(c.citation(date_key or "") for c in chunks)
        else:
            text, citations = compose.retrieval_answer(question, plan.topic, chunks, date_key=date_key,
                                                       min_score=min_score)
        attrs["citations"] = len(citations)
    return text, citations


def unique_citations(citations: Iterable[Citation]) -> list[Citation]:
    seen: dict[str, Citation] = {}
    for citation in citations:
        seen.setdefault(citation.row_key or citation.url or citation.title, citation)
    return list(seen.values())
