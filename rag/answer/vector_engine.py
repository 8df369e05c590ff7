"""Semantic search over all chunks, narrowed by the metadata filters Chroma can hold (pre-filtering)."""

from __future__ import annotations

from typing import Any

from llama_index.core.query_engine import CustomQueryEngine

from rag import tracing
from rag.answer.context import EngineContext, engine_response
from rag.answer.filters import chroma_filters
from rag.answer.retrieval import answer_from_chunks, retrieve
from rag.models import EngineResult
from rag.understand.interpretation import interpret


class VectorEngine(CustomQueryEngine):
    """Semantic search over all chunks, narrowed by the metadata filters Chroma can hold."""

    context: Any

    def custom_query(self, query_str: str) -> Any:
        context: EngineContext = self.context
        plan = context.planner.plan(query_str)
        with tracing.span("filters.infer") as attrs:
            applied, dropped, filters = chroma_filters(plan, with_dates=True)
            attrs.update(applied=[f.describe() for f in applied], dropped=[d.description for d in dropped])
        found = retrieve(context, plan.topic or query_str, filters)
        text, citations = answer_from_chunks(context, query_str, plan, found.evidence)
        return engine_response(text, EngineResult(interpretation=interpret(plan, context.source.table),
                                                  filters=applied, filters_dropped=dropped, chunks=found.top,
                                                  citations=citations))
