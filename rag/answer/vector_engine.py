"""Semantic search over all chunks, narrowed by the metadata filters Chroma can hold (pre-filtering)."""

from __future__ import annotations

from typing import Any

from llama_index.core.query_engine import CustomQueryEngine

from rag import tracing
from rag.answer.context import EngineContext, engine_response
from rag.answer.filters import chroma_filters
from rag.answer.retrieval import answer_from_chunks, retrieve
from rag.data.labels import reading_labels
from rag.models import EngineResult
from rag.understand.interpretation import interpret
from rag.understand.planner import QueryPlan


class VectorEngine(CustomQueryEngine):
    """Semantic search over all chunks, narrowed by the metadata filters Chroma can hold."""

    context: Any

    def custom_query(self, query_str: str) -> Any:
        return self.answer(query_str, self.context.planner.plan(query_str))

    def answer(self, query_str: str, plan: QueryPlan) -> Any:
        """Answer `query_str` as read by `plan` (the planner's, or one the user edited)."""
        context: EngineContext = self.context
        with tracing.span("filters.infer") as attrs:
            applied, dropped, filters = chroma_filters(plan, with_dates=True)
            attrs.update(applied=[f.describe() for f in applied], dropped=[d.description for d in dropped])
        found = retrieve(context, plan, filters)
        # (rows narrowed by a condition held as a metadata filter are as chosen as SQL-selected ones: the same
        # "restricted" rule of "nothing relevant" applies)
        text, citations = answer_from_chunks(context, query_str, plan, found.evidence, restricted=bool(applied),
                                             background=found.background, restated=found.restated)
        source = context.source
        reading = interpret(plan, source.table, reading_labels(source.labels, source.roles, source.table))
        return engine_response(text, EngineResult(interpretation=reading,
                                                  filters=applied, filters_dropped=dropped, chunks=found.top,
                                                  citations=citations, rankings=found.rankings,
                                                  notes=found.notes))
